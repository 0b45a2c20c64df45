"""Mau-Mau as an OpenSpiel game, ``mauseloch_maumau`` (the deal, the tensors and the samples:
:mod:`mauseloch.envs.openspiel`, its public import path; the adapter: :mod:`mauseloch.envs.spiel`).
"""

from __future__ import annotations

from typing import Any

from mauseloch import new_game
from mauseloch.core.engine import SEED_LIMIT
from mauseloch.core.shapes import JSONObject
from mauseloch.envs.spiel import DEALS, DIGIT, EngineGame, EngineState, checked_params, deal_parts, register, spiel_type
from mauseloch.extras import needs
from mauseloch.games.maumau import CARD_ID, MauMau
from mauseloch.games.maumau import INFO as MAUMAU_INFO
from mauseloch.games.maumau.envs.obs import PublicLog, observation_fields, observation_size

with needs("research", __name__):
    import numpy as np
    import pyspiel

__all__ = ["MauMauGame", "MauMauHistoryObserver", "MauMauObserver", "MauMauState"]

_MAUMAU_PARAMS: JSONObject = {"players": 2, "deals": DEALS, "info_state_tensor": False} | {
    spec.name: spec.default for spec in MAUMAU_INFO.options
}

# The registered type: no information-state tensor (the module docstring); a game loaded with
# ``info_state_tensor=True`` carries the type that says it has one.
_MAUMAU_TYPE = spiel_type(MAUMAU_INFO, "mauseloch_maumau", _MAUMAU_PARAMS, info_state_tensor=False)
_MAUMAU_TYPE_TENSOR = spiel_type(MAUMAU_INFO, "mauseloch_maumau", _MAUMAU_PARAMS, info_state_tensor=True)


class MauMauGame(EngineGame):
    """Mau-Mau for OpenSpiel: actions are the engine's action ids (47: each card, each jack with
    each wish, draw, pass, take), utilities the rank rewards in [-1, 1]."""

    title = "Mau-Mau"

    def __init__(self, params: JSONObject | None = None) -> None:
        values = dict(params or {})
        tensor = values.pop("info_state_tensor", False)
        if not isinstance(tensor, bool):
            raise ValueError(f"info_state_tensor must be true or false, got {tensor!r}")
        self.info_state_tensor = tensor
        defaults = {k: v for k, v in _MAUMAU_PARAMS.items() if k != "info_state_tensor"}
        self.players, self.options, self.deals = checked_params(MAUMAU_INFO, values, defaults)
        kind = MAUMAU_INFO.game_type(self.players, self.options)
        assert kind["max_game_length"] is not None  # Mau-Mau's move_limit bounds every game
        info = pyspiel.GameInfo(
            num_distinct_actions=len(MauMau.ACTIONS),
            max_chance_outcomes=min(self.deals, DIGIT),
            num_players=self.players,
            min_utility=kind["utility_range"][0],
            max_utility=kind["utility_range"][1],
            utility_sum=0.0,
            # the deal's digits, then at most move_limit moves (MM-15a ends the game there)
            max_game_length=kind["max_game_length"] + deal_parts(self.deals),
        )
        super().__init__(
            _MAUMAU_TYPE_TENSOR if tensor else _MAUMAU_TYPE, info,
            {"players": self.players, "deals": self.deals, "info_state_tensor": tensor} | self.options,
        )  # fmt: skip

    def new_initial_state(self) -> MauMauState:
        return MauMauState(self)

    def observer(self, iig_obs_type: pyspiel.IIGObservationType) -> MauMauObserver | MauMauHistoryObserver:
        if iig_obs_type.perfect_recall:
            limit = int(self.options["move_limit"])
            return MauMauHistoryObserver(iig_obs_type, self.players, limit, self.info_state_tensor)
        return MauMauObserver(iig_obs_type, self.players)


class MauMauState(EngineState):
    """A Mau-Mau position: the chance node of the deal, then the engine's game.

    ``_moves`` keeps what the information-state strings are made of: per move the actor, the
    move and the cards it received (private to the actor; the others see how many). ``_known``
    says, per seat, from which move on its private facts are exact: 0, except in a sample made by
    ``resample_from_infostate``, where the rivals' pasts are made up and only their hands of
    that moment are known (their ``_dealt`` is that hand)."""

    def __init__(self, game: MauMauGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._options = game.options
        self._start_deal(game.deals)  # the engine seed, once every digit is chosen
        self._t: _Table | None = None  # the engine's game and its public log, once dealt
        self._moves: list[tuple[int, str, tuple[str, ...]]] = []
        self._dealt: list[tuple[str, ...]] = []
        self._start = ""  # the card that started the discard pile (MM-2)
        self._known = [0] * game.players

    # -- OpenSpiel's state API (the rest is EngineState's) ---------------------------
    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return sorted(self._game.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            seed = self._chance_step(int(action))
            if seed is None:
                return
            dealt: MauMau = new_game(MAUMAU_INFO.name, self._players, seed, self._options)  # type: ignore[assignment]
            self._t = _Table(dealt)
            self._dealt = [tuple(dealt.hand(s)) for s in range(self._players)]
            self._start = dealt.deck[5 * self._players]
            return
        game, log = self._game, self._log
        assert log is not None
        actor: int = game.to_move  # type: ignore[assignment]
        since = game.event_count
        log.play(int(action))  # IllegalMove/ValueError leave the state as it was
        got: list[str] = []
        for event in game.events_since(since):
            if event["type"] == "draw" and event["seat"] == actor:
                got.extend(event["cards"])
        self._moves.append((actor, game.ACTIONS[action], tuple(got)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        return MauMau.ACTIONS[action]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MauMauState:
        """A state ``player_id`` cannot tell from this one: every card it cannot see dealt again,
        the engine seed of later reshuffles drawn with ``probability_sampler``."""
        if self._game is None:
            return self.clone()  # nothing is dealt yet: nothing to hide
        seed = int(float(probability_sampler()) * SEED_LIMIT) % SEED_LIMIT
        sample = self.get_game().new_initial_state()
        game: MauMau = self._game.determinize(player_id, seed)  # type: ignore[assignment]
        sample._deal, sample._digits, sample._chosen = self._deal, self._digits, self._chosen
        sample._t = _Table(game, self._log)
        sample._moves = list(self._moves)
        sample._start = self._start
        here = len(self._moves)
        sample._dealt = [self._dealt[s] if s == player_id else tuple(game.hand(s)) for s in range(self._players)]
        sample._known = [self._known[s] if s == player_id else here for s in range(self._players)]
        return sample

    @property
    def _game(self) -> MauMau | None:
        return None if self._t is None else self._t.game

    @property
    def _log(self) -> PublicLog | None:
        return None if self._t is None else self._t.log

    def __str__(self) -> str:
        """Everything, hidden cards too (for debugging; OpenSpiel compares clones by it)."""
        if self._game is None:
            return self._chance_text()
        g = self._game
        hands = " | ".join(f"seat {s}: {' '.join(g.hand(s)) or '-'}" for s in range(self._players))
        moves = " ".join(f"{a}:{m}" for a, m, _ in self._moves)
        return (
            f"deal {self._deal} | {hands} | top {g.view(None)['top']} wish {g.view(None)['wish'] or '-'} "
            f"penalty {g.penalty} direction {g.direction:+d} draw pile {len(g.draw_pile)} | moves {moves}"
        )

    # -- what a seat knows --------------------------------------------------------------
    def information_state_text(self, seat: int, private: bool = True) -> str:
        """The perfect-recall information state of ``seat`` (see the module docstring)."""
        if self._game is None:
            return f"seat {seat} | before the deal"
        parts = [f"seat {seat}", f"players {self._players}"]
        if private:
            since = self._known[seat]
            parts.append(("hand " if since == 0 else f"hand at move {since} ") + " ".join(self._dealt[seat]))
        parts.append(f"start {self._start}")
        known = self._known[seat]
        for i, (actor, move, got) in enumerate(self._moves):
            text = f"{actor}:{move}"
            if got:
                mine = private and actor == seat and i >= known
                text += "+" + ("".join(got) if mine else str(len(got)))
            parts.append(text)
        return " ".join(parts)

    def observation_text(self, seat: int, private: bool = True) -> str:
        """What ``seat`` observes now: its hand, the table, every hand's size."""
        if self._game is None:
            return f"seat {seat} | before the deal"
        v = self._game.view(seat)
        parts = [f"seat {seat}"]
        if private:
            parts.append("hand " + " ".join(v["hand"]))
            if v["drawn"]:
                parts.append(f"drawn {v['drawn']}")
        parts += [
            f"top {v['top']}",
            f"wish {v['wish'] or '-'}",
            f"penalty {v['penalty']}",
            f"direction {v['direction']:+d}",
            "counts " + " ".join(map(str, v["hand_counts"])),
            f"draw pile {v['draw_pile']}",
            f"discard pile {v['discard_pile']}",
            f"to move {'-' if v['to_move'] is None else v['to_move']}",
            f"moves {v['moves_played']}",
        ]
        return " | ".join(parts)


class _Table:
    """The engine's game and its public log. OpenSpiel's ``clone`` deep-copies each attribute of
    a state on its own, so the two live in one object whose copy is the engine's fast ``clone``
    with the log noted again for it."""

    __slots__ = ("game", "log")

    def __init__(self, game: MauMau, log: PublicLog | None = None) -> None:
        self.game = game
        self.log = PublicLog(game)
        if log is not None:  # every seat saw those moves: the facts carry over to ``game``
            self.log.last[:] = log.last
            self.log.lacked[:] = log.lacked
            self.log.received[:] = log.received

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game.clone(), self.log)


class MauMauObserver:
    """OpenSpiel's Python observer of what a seat observes now: the environments' vector as the
    tensor (``fields`` names its parts as ``observation_fields`` does) and
    :meth:`MauMauState.observation_text` as the string.

    ``dict`` holds the tensor whole: OpenSpiel copies each of its entries on every read (and
    reads twice, once for the size), and one entry costs a fifth of the 23 named parts."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int) -> None:
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}
        self.fields = {name: self.tensor[start : start + size] for name, start, size, _ in observation_fields(players)}
        self._hand = self.fields["hand"]

    def set_from(self, state: MauMauState, player: int) -> None:
        if state._log is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state._log.observe(player)
        if not self._private:  # a public observer: no hand
            self._hand.fill(0.0)

    def string_from(self, state: MauMauState, player: int) -> str:
        return state.observation_text(player, self._private)


class MauMauHistoryObserver:
    """OpenSpiel's Python observer of a seat's information state (perfect recall): the string of
    :meth:`MauMauState.information_state_text` and, when the game was loaded with
    ``info_state_tensor=True``, a tensor of the same facts (else ``tensor`` is None). Its parts
    (``dict``), for a game of ``move_limit`` moves:

    ========  ================  ==================================================================
    part      shape             meaning
    ========  ================  ==================================================================
    seat      players           the observing seat, one-hot
    hand      32                the hand its record starts from: the dealt hand (in a sample of
                                ``resample_from_infostate``, a rival's hand at ``known``)
    known     1                 the move its record of its own draws starts at / move_limit
    start     32                the card that started the discard pile, one-hot
    actor     move_limit x n    per move, the seat that made it, k places after the observer
    action    move_limit x 47   per move, its action id, one-hot
    received  move_limit        per move, the cards the actor received (a count: public) / 32
    drawn     move_limit x 32   per move of the observer's own, the cards it received
    ========  ================  ==================================================================

    A public observer (``private_info`` none) leaves ``hand`` and ``drawn`` at 0, as its string
    leaves them out."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int, move_limit: int, tensor: bool) -> None:
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._n = players
        self._limit = move_limit
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not tensor:
            return
        shapes = {
            "seat": (players,), "hand": (32,), "known": (1,), "start": (32,), "actor": (move_limit, players),
            "action": (move_limit, len(MauMau.ACTIONS)), "received": (move_limit,), "drawn": (move_limit, 32),
        }  # fmt: skip
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()), np.float32)
        at = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: MauMauState, player: int) -> None:
        if self.tensor is None:
            raise ValueError("this game has no information-state tensor: load it with info_state_tensor=True")
        self.tensor.fill(0.0)
        d = self.dict
        d["seat"][player] = 1.0
        if state._game is None:
            return
        known = state._known[player]
        if self._private:
            for card in state._dealt[player]:
                d["hand"][CARD_ID[card]] = 1.0
        d["known"][0] = known / self._limit
        d["start"][CARD_ID[state._start]] = 1.0
        moves = state._moves
        m = len(moves)
        if not m:
            return
        ids = MauMau._ACTION_ID
        rows = np.arange(m)
        actors = np.fromiter((actor for actor, _, _ in moves), np.int64, m)
        d["actor"][rows, (actors - player) % self._n] = 1.0
        d["action"][rows, np.fromiter((ids[move] for _, move, _ in moves), np.int64, m)] = 1.0
        d["received"][:m] = np.fromiter((len(got) for _, _, got in moves), np.float32, m) / 32.0
        if self._private:
            drawn = d["drawn"]
            for i in (np.flatnonzero(actors[known:] == player) + known).tolist():
                for card in moves[i][2]:
                    drawn[i, CARD_ID[card]] = 1.0

    def string_from(self, state: MauMauState, player: int) -> str:
        return state.information_state_text(player, self._private)


register(MAUMAU_INFO, _MAUMAU_TYPE, MauMauGame)
