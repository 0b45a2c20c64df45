"""Mau-Mau as an RLCard environment: ``import mauseloch.games.maumau.envs.rlcard`` registers ``"mauseloch-maumau"``.

    import rlcard, mauseloch.games.maumau.envs.rlcard
    env = rlcard.make("mauseloch-maumau", config={"seed": 0, "game_num_players": 3, "game_ace_skips": True})

RLCard's agents (DQN, NFSP, DMC, the random agent) run on it unchanged: ``state["obs"]`` is the
environments' observation (``mauseloch.games.maumau.envs.obs``, ``docs/envs.md``: 156 float32 values for
two players, 40 more per further player), ``state["legal_actions"]`` the legal action ids (the
engine's 47, ``docs/api.md``) and ``raw_obs`` the seat's engine view. Payoffs are the rank rewards
of the other environments: +1 for first place down to -1 for last, adding up to 0.

Every Mau-Mau option is a config key with the ``game_`` prefix RLCard uses (``game_move_limit``),
beside ``game_num_players`` (2-5). Each game's engine seed comes from the env's generator, so
``config["seed"]`` (or ``env.seed``) makes a run repeat exactly. The rules stay in the engine.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from mauseloch.core.engine import SEED_LIMIT
from mauseloch.core.registry import new_game
from mauseloch.core.shapes import JSONObject, Options
from mauseloch.extras import needs
from mauseloch.games.maumau import INFO, MauMau
from mauseloch.games.maumau.envs.obs import PublicLog, observation_size, rank_rewards

with needs("research", __name__):
    import numpy as np
    from rlcard.envs import Env
    from rlcard.envs.registration import registry

ENV_ID = "mauseloch-maumau"
DEFAULT_GAME_CONFIG: JSONObject = {"game_num_players": 2} | {f"game_{spec.name}": spec.default for spec in INFO.options}


class MauMauGame:
    """The game object RLCard's ``Env`` drives: the engine's Mau-Mau with a public log for the
    observations, and the positions before each move when stepping back is allowed."""

    def __init__(self, players: int, options: Options, allow_step_back: bool = False) -> None:
        self.players = players
        self.options = options
        self.allow_step_back = allow_step_back
        self.np_random = np.random.RandomState()  # Env.seed replaces it
        self.game: MauMau | None = None
        self.log: PublicLog | None = None
        self._history: list[tuple[MauMau, PublicLog]] = []

    # -- what rlcard.envs.Env calls ------------------------------------------------------
    def init_game(self) -> tuple[JSONObject, int]:
        seed = int(self.np_random.randint(0, 1 << 30)) * (1 << 23) + int(self.np_random.randint(0, 1 << 23))
        self.game = new_game(INFO.name, self.players, seed % SEED_LIMIT, self.options)  # type: ignore[assignment]
        self.log = PublicLog(self.game)  # type: ignore[arg-type]
        self._history = []
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, move: str) -> tuple[JSONObject, int]:
        game, log = self._running()
        action = game.action_id(move)
        if self.allow_step_back:
            self._history.append(_copy(game, log))
        try:
            log.play(action)  # IllegalMove/ValueError leave the game as it was
        except Exception:
            if self.allow_step_back:
                self._history.pop()
            raise
        player = self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> bool:
        if not self._history:
            return False
        self.game, self.log = self._history.pop()
        return True

    def get_num_players(self) -> int:
        return self.players

    @staticmethod
    def get_num_actions() -> int:
        return len(MauMau.ACTIONS)

    def get_player_id(self) -> int:
        """The seat to move; once the game is over, the seat that moved last (RLCard reads the
        final states of every seat then, through ``get_state``)."""
        game, _ = self._running()
        if game.to_move is not None:
            return game.to_move
        return int(game.record()["moves"][-1][0])

    def is_over(self) -> bool:
        return self.game is not None and self.game.is_over

    def get_state(self, player: int) -> JSONObject:
        game, log = self._running()
        view = game.view(player)
        return {
            "view": view,
            "obs": log.observe(player),
            "legal_actions": [game.action_id(m) for m in view["legal_moves"]],
            "legal_moves": view["legal_moves"],
        }

    def get_payoffs(self) -> list[float]:
        game, _ = self._running()
        return rank_rewards(game.result())

    def get_legal_actions(self) -> list[int]:
        game, _ = self._running()
        return [] if game.is_over else game.legal_actions()

    def _running(self) -> tuple[MauMau, PublicLog]:
        if self.game is None or self.log is None:
            raise ValueError("no game yet: call env.reset() first")
        return self.game, self.log


def _copy(game: MauMau, log: PublicLog) -> tuple[MauMau, PublicLog]:
    twin = game.clone()
    twin_log = PublicLog(twin)
    twin_log.last[:] = log.last
    twin_log.lacked[:] = log.lacked
    twin_log.received[:] = log.received
    return twin, twin_log


class MauMauEnv(Env):
    """RLCard's environment for Mau-Mau (see the module docstring)."""

    def __init__(self, config: JSONObject) -> None:
        self.name = ENV_ID
        self.default_game_config = DEFAULT_GAME_CONFIG
        unknown = sorted(k for k in config if k.startswith("game_") and k not in DEFAULT_GAME_CONFIG)
        if unknown:
            raise ValueError(f"unknown Mau-Mau config key(s) {unknown}; allowed: {', '.join(DEFAULT_GAME_CONFIG)}")
        values = DEFAULT_GAME_CONFIG | {k: v for k, v in config.items() if k in DEFAULT_GAME_CONFIG}
        players = INFO.check_players(values.pop("game_num_players"))
        options = INFO.resolve_options(players, {k.removeprefix("game_"): v for k, v in values.items()})
        self.game = MauMauGame(players, options, bool(config.get("allow_step_back", False)))
        super().__init__(config)
        size = observation_size(players)
        self.state_shape = [[size] for _ in range(players)]
        self.action_shape = [None for _ in range(players)]

    def _extract_state(self, state: JSONObject) -> JSONObject:
        return {
            "obs": state["obs"],
            "legal_actions": OrderedDict((a, None) for a in state["legal_actions"]),
            "raw_obs": state["view"],
            "raw_legal_actions": list(state["legal_moves"]),
            "action_record": self.action_recorder,
        }

    def get_payoffs(self) -> np.ndarray:
        return np.array(self.game.get_payoffs(), dtype=np.float32)

    def _decode_action(self, action_id: Any) -> str:
        """The move string of a legal action id; anything else is a ValueError naming the legal
        ids (never a move chosen in its place)."""
        legal = self.game.get_legal_actions()
        if isinstance(action_id, (bool, np.bool_)) or int(action_id) != action_id or int(action_id) not in legal:
            raise ValueError(f"action {action_id!r} is not legal now; legal action ids: {legal}")
        return MauMau.ACTIONS[int(action_id)]

    def _get_legal_actions(self) -> OrderedDict[int, None]:
        return OrderedDict((a, None) for a in self.game.get_legal_actions())

    def get_perfect_information(self) -> JSONObject:
        """Everything, every hand included (for people watching, never for an agent)."""
        game, _ = self.game._running()
        return {
            "num_players": self.num_players,
            "hand_cards": [game.hand(s) for s in range(self.num_players)],
            "table": game.view(None),
            "current_player": game.to_move,
            "legal_actions": game.legal_moves(),
        }


if ENV_ID not in registry.env_specs:
    registry.register(ENV_ID, "mauseloch.games.maumau.envs.rlcard:MauMauEnv")
