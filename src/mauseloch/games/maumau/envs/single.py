"""Mau-Mau as a Gymnasium environment: one seat learns, the others are bots from
``mauseloch.bots`` (``random``, ``heuristic``, ``search-fast``, ``search``).

>>> import gymnasium, mauseloch.envs  # importing the package registers the id
>>> env = gymnasium.make("mauseloch/MauMau-v0", players=2, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The observation is the vector of ``maumau_obs`` (``docs/envs.md``), the action one of the 47
action ids; ``info["action_mask"]`` and ``action_masks()`` (the name sb3-contrib's
MaskablePPO asks for) give the legal ones. The bots move between the learner's turns, each seeing
only its own view, as at a table. The reward is 0 until the game ends, then the learner's
share of the ranking (``rank_rewards``): +1 for a heads-up win, -1 for a loss.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mauseloch.bots import Bot, make_bot
from mauseloch.core.engine import as_int, derive_seed
from mauseloch.core.registry import new_game
from mauseloch.core.seeds import STREAM_LEARNER_SEAT, STREAM_RIVALS
from mauseloch.core.shapes import JSONObject, Options
from mauseloch.envs import MAUMAU_ID, refuse_unknown
from mauseloch.extras import needs
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.envs.aec import render_text
from mauseloch.games.maumau.envs.obs import PublicLog, checked_setup, observation_size, rank_rewards

with needs("rl", __name__):
    import gymnasium
    import numpy as np
    from gymnasium import spaces

ENV_ID = MAUMAU_ID
SEED_LIMIT = 1 << 53


class MauMauSingleEnv(gymnasium.Env[np.ndarray, int]):
    """Mau-Mau for ``players`` seats; the learner sits at ``seat`` (``None``: a seat drawn from
    each game's seed), every other seat is played by a bot of kind ``opponents`` (one kind for
    all, or one per other seat in seat order). An illegal action ends the episode with reward -1
    and the game untouched (``illegal_action="lose"``, the default: Gymnasium's ``check_env`` and
    other tools step random actions), or raises (``"raise"``, to find a masking bug)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        players: int = 2,
        *,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        ace_skips: bool = False,
        seven_draw_then_play: bool = False,
        no_jack_on_jack: bool = False,
        no_win_with_jack: bool = False,
        move_limit: int = 1000,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        refuse_unknown(ENV_ID, unknown, MauMauSingleEnv.__init__)
        self.players, self.game_options = checked_setup(
            players,
            {
                "ace_skips": ace_skips,
                "seven_draw_then_play": seven_draw_then_play,
                "no_jack_on_jack": no_jack_on_jack,
                "no_win_with_jack": no_win_with_jack,
                "move_limit": move_limit,
            },
        )
        self.seat = None if seat is None else as_int(seat, "seat (or None)", 0, self.players - 1)
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"opponents must name one bot kind, or {players - 1} (one per other seat)")
        for kind in kinds:
            make_bot("mau-mau", kind, 0)  # an unknown kind is refused now, with the list of kinds
        self.opponents = kinds
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, shape=(observation_size(players),), dtype=np.float32)
        self.action_space: spaces.Discrete = spaces.Discrete(len(MauMau.ACTIONS))  # type: ignore[assignment]
        self.game: MauMau | None = None
        self._log: PublicLog | None = None
        self._bots: dict[int, Bot] = {}
        self._me = 0
        self._lost = False  # the episode ended on an illegal action (illegal_action="lose")

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[np.ndarray, JSONObject]:
        """A new game; its seed comes from ``seed`` (then from the env's generator).
        ``options={"deck": [...]}`` deals a fixed deck."""
        if seed is not None:  # Gymnasium's generator takes only a plain int: a NumPy seed becomes one
            seed = as_int(seed, "seed (or None)", 0)
        deck = options.get("deck") if isinstance(options, dict) else None
        if deck is not None:  # a bad deck is refused before the generator moves on
            new_game("mau-mau", self.players, 0, self.game_options, deck)
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(SEED_LIMIT))
            game = new_game("mau-mau", self.players, game_seed, self.game_options, deck)
            assert isinstance(game, MauMau)
            self.game = game
            self._log = PublicLog(game)
            self._lost = False
            self._me = (
                self.seat if self.seat is not None else derive_seed(game_seed, STREAM_LEARNER_SEAT) % self.players
            )
            others = [s for s in range(self.players) if s != self._me]
            self._bots = {
                s: make_bot("mau-mau", kind, derive_seed(game_seed, STREAM_RIVALS + s))
                for s, kind in zip(others, self.opponents, strict=True)
            }
            self._bots_move()
            # A bot can go out before the learner's first turn (nines and eights give a heads-up
            # player the turn back): the learner had no decision, so the next game is dealt.
            if not game.is_over:
                return self._obs(), self._info()
            if deck is not None:
                raise ValueError(f"with this deck the bots finish the game before seat {self._me} moves")

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, JSONObject]:
        game, log = self.game, self._log
        if game is None or log is None:
            raise RuntimeError("call reset() before step()")
        if game.is_over or self._lost:
            raise RuntimeError("the episode is over; call reset()")
        if isinstance(action, np.ndarray):
            action = action.item()
        if isinstance(action, np.integer):
            action = int(action)
        try:
            log.play(action)  # refused (IllegalMove / ValueError) without changing anything
        except ValueError as exc:
            if self.illegal_action == "raise":
                raise
            # "lose": the episode ends with the worst reward; the game stays as it was.
            self._lost = True
            return self._obs(), -1.0, True, False, self._info() | {"illegal": str(exc)}
        self._bots_move()
        reward = 0.0
        terminated = truncated = False
        info = self._info()
        if game.is_over:
            result = game.result()
            reward = rank_rewards(result)[self._me]
            truncated = result["reason"] == "move_limit"
            terminated = not truncated
            info["result"] = result
        return self._obs(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (what MaskablePPO of sb3-contrib asks for)."""
        assert self._log is not None, "call reset() first"
        return self._log.action_mask(self._me).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        return render_text(self.game, self._me)

    def _bots_move(self) -> None:
        game, log = self.game, self._log
        assert game is not None and log is not None
        while not game.is_over and game.to_move != self._me:
            s: int = game.to_move  # type: ignore[assignment]
            move = self._bots[s].choose(game.typed_view(s), game.legal_moves(s))  # a bot sees only its view
            log.play(game.action_id(move))

    def _obs(self) -> np.ndarray:
        assert self._log is not None
        return self._log.observe(self._me)

    def _info(self) -> JSONObject:
        assert self._log is not None
        # A copy: Gymnasium wants new data on every call (the log's masks are shared, read-only).
        return {"action_mask": self._log.action_mask(self._me).copy(), "seat": self._me}


if ENV_ID not in gymnasium.registry:  # ``import mauseloch.envs`` registers it first, without this module
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:MauMauSingleEnv",
        vector_entry_point="mauseloch.games.maumau.envs.vector:MauMauVectorEnv",
    )
