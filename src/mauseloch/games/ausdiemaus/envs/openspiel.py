"""Aus die Maus! as an OpenSpiel game, ``mauseloch_ausdiemaus`` (the deal and the samples:
:mod:`mauseloch.envs.openspiel`, its public import path; the adapter: :mod:`mauseloch.envs.spiel`).
"""

from __future__ import annotations

from typing import Any

from mauseloch import new_game
from mauseloch.core.engine import SEED_LIMIT, Game
from mauseloch.core.shapes import JSONObject, OptionDict
from mauseloch.envs.spiel import DEALS, DIGIT, EngineGame, EngineState, checked_params, deal_parts, register, spiel_type
from mauseloch.extras import needs
from mauseloch.games.ausdiemaus import CARD_STR as MAUS_CARDS
from mauseloch.games.ausdiemaus import INFO as MAUS_INFO
from mauseloch.games.ausdiemaus import PHASE_NAMES

with needs("research", __name__):
    import numpy as np
    import pyspiel

__all__ = ["AusDieMausGame", "AusDieMausObserver", "AusDieMausState"]

_MAUS_INFO = MAUS_INFO
# small_deck and chips depend on the player count: -1 (an int, as OpenSpiel wants one type) and
# the absent small_deck take the engine's default for the count.
_MAUS_PARAMS: JSONObject = {"players": 2, "deals": DEALS, "deck": "default", "chips": -1}
_MAUS_MAX_LENGTH = 100_000  # the engine ends a repeated position (AM-11); no game seen came near

_MAUS_TYPE = spiel_type(_MAUS_INFO, "mauseloch_ausdiemaus", _MAUS_PARAMS, info_state_tensor=False)


class AusDieMausGame(EngineGame):
    """Aus die Maus! for OpenSpiel: one action (``flip``); the deal decides the game, so it is
    chiefly a check of the tooling. ``deck`` is ``"default"``, ``"small"`` or
    ``"full"``; ``chips`` -1 takes the engine's default."""

    title = "Aus die Maus!"

    def __init__(self, params: JSONObject | None = None) -> None:
        values = _MAUS_PARAMS | dict(params or {})
        mode = values.pop("deck")
        if mode not in ("default", "small", "full"):
            raise ValueError(f"deck must be default, small or full, got {mode!r}")
        chips = values.pop("chips")
        given = {"players": values["players"], "deals": values["deals"]}
        extra: OptionDict = {} if mode == "default" else {"small_deck": mode == "small"}
        if chips != -1:
            extra["chips"] = chips
        self.players, self.options, self.deals = checked_params(
            _MAUS_INFO, given | extra, {"players": 2, "deals": DEALS, "small_deck": None, "chips": None}
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=1,
            max_chance_outcomes=min(self.deals, DIGIT),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_MAUS_MAX_LENGTH + deal_parts(self.deals),
        )
        super().__init__(
            _MAUS_TYPE, info,
            {"players": self.players, "deals": self.deals, "deck": mode, "chips": chips},
        )  # fmt: skip

    def new_initial_state(self) -> AusDieMausState:
        return AusDieMausState(self)

    def observer(self, iig_obs_type: pyspiel.IIGObservationType) -> AusDieMausObserver:
        return AusDieMausObserver(iig_obs_type, self.players)


class AusDieMausState(EngineState):
    """An Aus die Maus! position: the deal, then the engine's game. Nobody sees a stack's
    order, so every seat knows the same: the cards turned over so far."""

    def __init__(self, game: AusDieMausGame) -> None:
        super().__init__(game)
        self._players, self._options = game.players, game.options
        self._start_deal(game.deals)
        self._game: Game | None = None
        # A sample's own log starts afresh: what was turned over before it, and where its own
        # log's part begins.
        self._prefix = ""
        self._since = 0

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return self._game.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            seed = self._chance_step(int(action))
            if seed is not None:
                self._game = new_game(_MAUS_INFO.name, self._players, seed, self._options)
            return
        self._game.play(self._game.move_of(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return f"deal digit {action}" if player == pyspiel.PlayerId.CHANCE else "flip"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AusDieMausState:
        sample = self.clone()
        if self._game is not None:
            seed = int(float(probability_sampler()) * SEED_LIMIT) % SEED_LIMIT
            sample._game = self._game.determinize(player_id, seed)
            sample._prefix = self.public_text()
            sample._since = sample._game.event_count
        return sample

    def public_text(self) -> str:
        """Every card turned over so far and what it did, in order (all seats know it)."""
        if self._game is None:
            return "before the deal"
        events = [e for e in self._game.events_since(self._since) if "cards" not in e]
        text = " ".join(
            e["type"] + "(" + ",".join(f"{k}={v}" for k, v in e.items() if k != "type") + ")" for e in events
        )
        return " ".join(part for part in (self._prefix, text) if part)

    def __str__(self) -> str:
        if self._game is None:
            return self._chance_text()
        return f"deal {self._deal} | stacks {[list(s) for s in self._game.stacks]} | {self.public_text()}"  # type: ignore[attr-defined]


class AusDieMausObserver:
    """The table as a vector: per seat (from the observer on) its stack and its chips, then the
    chips left, the pile's size and top card, the phase and the chase's attempts left."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int) -> None:
        self._recall = iig_obs_type.perfect_recall
        pieces = [
            ("stacks", players), ("chips", players), ("chips_left", 1), ("pile", 1),
            ("top", len(MAUS_CARDS)), ("phase", len(PHASE_NAMES)), ("attempts", 1),
        ]  # fmt: skip
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: AusDieMausState, player: int) -> None:
        self.tensor.fill(0.0)
        if state._game is None:
            return
        v = state._game.view(player)
        n = len(v["stacks"])
        total = float(sum(v["stacks"]) + len(v["pile"]))
        chips = float(sum(v["chips"]) + v["chips_left"]) or 1.0
        for k in range(n):
            s = (player + k) % n
            self.dict["stacks"][k] = v["stacks"][s] / total
            self.dict["chips"][k] = v["chips"][s] / chips
        self.dict["chips_left"][0] = v["chips_left"] / chips
        self.dict["pile"][0] = len(v["pile"]) / total
        if v["top"] is not None:
            self.dict["top"][MAUS_CARDS.index(v["top"])] = 1.0
        if not v["is_over"]:
            self.dict["phase"][PHASE_NAMES.index(v["phase"])] = 1.0
        if v["chase"]:
            self.dict["attempts"][0] = v["chase"]["attempts_left"] / 3.0

    def string_from(self, state: AusDieMausState, player: int) -> str:
        if self._recall:
            return f"seat {player} | {state.public_text()}"
        if state._game is None:
            return f"seat {player} | before the deal"
        v = state._game.view(player)
        keys = ("stacks", "top", "chips", "chips_left", "phase", "chase", "flips", "to_move")
        return f"seat {player} | " + " | ".join(f"{k} {v.get(k)}" for k in keys)


register(_MAUS_INFO, _MAUS_TYPE, AusDieMausGame)
