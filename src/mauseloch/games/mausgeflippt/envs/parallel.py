"""Mausgeflippt as a PettingZoo Parallel environment: an abstraction of the real-time game.

In the real game a mouse is turned face up and every player races to react; the first reaction
resolves it (MG-3..MG-6). Here **one environment step is one mouse**:

1. the environment plays the revealer's ``reveal`` itself (the only move of a revealer, so no
   choice is lost) and every seat observes the shown mouse;
2. every seat answers at once with one action: a reaction *and a reaction time* from a fixed
   grid of buckets, or "no reaction";
3. the one referee of the real-time game (:class:`mauseloch.realtime.referee.Referee`, in virtual time,
   as the simulator drives it) decides: the smallest time wins, exact ties are drawn from the
   referee's seeded tie stream, nobody reacting is the window's ``timeout``.

What the abstraction leaves out: seeing the other seats' reactions arrive within a window
(a seat commits to its move and time before the window opens), network judging (every seat is
local: its time is taken at its word), and times finer than a bucket.

Actions (``Discrete(reactions × buckets + 1)``), with ``B = (window_ms - 1) // bucket_ms``
buckets and the reactions in the engine's action-id order (api.md v2: ``catch <face>`` for the
26 faces, then ``flip``; ``timeout`` and ``reveal`` are never a seat's choice here)::

    action = reaction_id × B + bucket       reaction time = (bucket + 1) × bucket_ms ms
    action = reactions × B                  no reaction (always legal)

A masked action (a card the seat does not hold, a flip with an empty hand) is played as "no
reaction" and flagged ``illegal`` in that seat's info; an action outside the space raises.

Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``, built only from
the seat's own ``view(seat)`` (never a hidden card); the layout is :func:`fields`, documented
field by field in ``docs/envs-mausgeflippt.md``.

Rewards (``reward=``): ``"score"`` (default) gives each seat the change of its MG-9 score in the
step (+1 per mouse, −1 per laundry card, −2 per cheese card), so an episode's rewards add up to
the final score; ``"rank"`` gives 0 until the end, then ``1 − 2·(rank − 1)/(players − 1)``
(sole winner +1, last −1, shared places by competition rank).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypedDict

import msgspec

from mauseloch.core.engine import SEED_LIMIT, as_int, derive_seed, fresh_seed
from mauseloch.core.registry import new_game
from mauseloch.core.seeds import STREAM_ENGINE, STREAM_RESETS
from mauseloch.core.shapes import JSONObject, Options
from mauseloch.envs import refuse_unknown
from mauseloch.extras import needs
from mauseloch.games.mausgeflippt import CHEESE_ID, FACE_ID, N_CHEESES, N_CLOTHING, N_MICE, NFACES, Mausgeflippt
from mauseloch.games.mausgeflippt.views import MausgeflipptView
from mauseloch.realtime.referee import Referee

with needs("rl", __name__):
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils.conversions import parallel_to_aec
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

GAME = "mausgeflippt"
REWARDS = ("score", "rank")


def _reactions() -> tuple[str, ...]:
    """The reaction moves in action-id order: every engine action except the two no seat picks."""
    g = new_game(GAME, players=2, seed=0)
    return tuple(g.move_of(a) for a in range(g.num_actions) if g.move_of(a) not in ("timeout", "reveal"))


REACTIONS: tuple[str, ...] = _reactions()
# a reaction's index in REACTIONS is its engine action id (catches, then flip), so legal_actions serves the mask
assert all(Mausgeflippt.ACTIONS[i] == move for i, move in enumerate(REACTIONS))


def fields(players: int) -> tuple[tuple[str, int, float], ...]:
    """The observation layout: (name, length, upper bound) in order (per-seat fields: own seat
    first, then the next seats in play order)."""
    n = players
    return (
        ("hand", NFACES, 3),  # own cards per face
        ("mouse_wears", NFACES, 1),  # the faces the shown mouse wears
        ("mouse_cheese", N_CHEESES, 1),
        ("mouse_protected", 1, 1),
        ("open_cheese", N_CHEESES, 1),
        ("cheeses_left", 1, N_CHEESES),
        ("mouse_pile", 1, N_MICE),
        ("draw_pile", 1, N_CLOTHING),
        ("discard", NFACES, 3),  # cards per face on the discard pile
        ("laundry_faces", NFACES, 3),  # cards per face in all laundry piles
        ("revealer", n, 1),
        ("hand_counts", n, N_CLOTHING),
        ("mice", n, N_MICE),
        ("laundry", n, N_CLOTHING),
        ("cheese", n, N_CHEESES),
        ("timeouts_in_row", 1, N_MICE),
    )


class LastMouse(TypedDict):
    """How the last mouse ended (each agent's ``info`` and ``render``): the agent whose move was
    played (None: nobody reacted in time), the move, its judged time, the agents tied at it."""

    winner: str | None
    move: str
    ms: int
    tied: list[str]


def observe(view: MausgeflipptView) -> np.ndarray:
    """The observation vector of one seat's view struct (``typed_view(seat)``; nothing else is
    read), laid out as :func:`fields` says. Filled in a plain list first: one array at the end is
    the fast way."""
    if view.seat is None or isinstance(view.hand, msgspec.UnsetType):
        raise ValueError("observe needs a seat's view, not a spectator's")
    n, me = view.players, view.seat
    order = [(me + k) % n for k in range(n)]
    vec = [0.0] * (_FIXED + 5 * n)
    for c in view.hand:
        vec[FACE_ID[c]] += 1
    mouse = view.mouse
    if mouse is not None:
        for c in mouse.wears:
            vec[NFACES + FACE_ID[c]] = 1
        vec[2 * NFACES + CHEESE_ID[mouse.cheese]] = 1
        vec[2 * NFACES + N_CHEESES] = 1 if mouse.protected else 0
    at = 2 * NFACES + N_CHEESES + 1
    if view.open_cheese is not None:
        vec[at + CHEESE_ID[view.open_cheese]] = 1
    at += N_CHEESES
    vec[at : at + 3] = view.cheeses_left, view.mouse_pile, view.draw_pile
    at += 3
    for c in view.discard:
        vec[at + FACE_ID[c]] += 1
    at += NFACES
    for pile in view.laundry:
        for c in pile:
            vec[at + FACE_ID[c]] += 1
    at += NFACES
    vec[at + order.index(view.revealer)] = 1
    at += n
    for k, s in enumerate(order):
        vec[at + k] = view.hand_counts[s]
        vec[at + n + k] = view.mice[s]
        vec[at + 2 * n + k] = len(view.laundry[s])
        vec[at + 3 * n + k] = len(view.cheese[s])
    vec[at + 4 * n] = view.timeouts_in_row
    return np.array(vec, np.float32)


_FIXED = sum(length for _, length, _ in fields(0))  # the fields not per seat (127)


class MausgeflipptParallelEnv(ParallelEnv[str, dict[str, np.ndarray], int]):
    """One step per mouse; see the module docstring. Arguments: ``players`` (2..6), the game's
    options ``hand_size`` and ``window_ms``, ``bucket_ms`` (the reaction-time grid),
    ``reward`` ("score" or "rank"), ``max_cycles`` (steps before truncation), ``render_mode``."""

    metadata: ClassVar[JSONObject] = {
        "render_modes": ["ansi"],
        "name": "mausgeflippt_v0",
        "is_parallelizable": True,
    }

    def __init__(
        self,
        players: int = 3,
        hand_size: int = 7,
        window_ms: int = 6000,
        bucket_ms: int = 150,
        reward: str = "score",
        max_cycles: int = 1000,
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        refuse_unknown(str(self.metadata["name"]), unknown, MausgeflipptParallelEnv.__init__)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        bucket_ms = as_int(bucket_ms, "bucket_ms (milliseconds)", 1)
        max_cycles = as_int(max_cycles, "max_cycles", 1)
        # the engine checks players and its options (the same messages as everywhere else)
        self._options = {"hand_size": hand_size, "window_ms": window_ms}
        probe = new_game(GAME, players=players, seed=0, options=self._options)
        self.players = probe.players
        self.window_ms = int(probe.options["window_ms"])
        self.buckets = (self.window_ms - 1) // bucket_ms
        if self.buckets < 1:
            raise ValueError(f"bucket_ms={bucket_ms} leaves no reaction time below window_ms={self.window_ms}")
        self.bucket_ms = bucket_ms
        self.reward = reward
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.no_reaction = len(REACTIONS) * self.buckets
        self.possible_agents = [f"player_{s}" for s in range(self.players)]
        self.agents: list[str] = []
        size = sum(length for _, length, _ in fields(self.players))
        high = np.concatenate([np.full(length, bound, np.float32) for _, length, bound in fields(self.players)])
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, high, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.no_reaction + 1,), np.int8),
            }
        )
        act_space = spaces.Discrete(self.no_reaction + 1)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self.game: Mausgeflippt | None = None
        self.referee: Referee | None = None
        self._seed: int | None = None
        self._resets = 0
        self._cycles = 0
        self._last: LastMouse | None = None
        self._masks: list[np.ndarray] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ actions
    def decode(self, action: int) -> tuple[str, int] | None:
        """The reaction and its time (ms) of ``action``; None: no reaction."""
        action = as_int(action, "action", 0, self.no_reaction)
        if action == self.no_reaction:
            return None
        reaction, bucket = divmod(action, self.buckets)
        return REACTIONS[reaction], (bucket + 1) * self.bucket_ms

    def encode(self, move: str, ms: int) -> int:
        """The action of reacting ``move`` at ``ms`` (rounded up to its bucket, at most the last)."""
        if move not in REACTIONS:
            raise ValueError(f"{move!r} is no reaction; reactions: {', '.join(REACTIONS)}")
        bucket = min(self.buckets, max(1, -(-as_int(ms, "ms", 0) // self.bucket_ms))) - 1
        return REACTIONS.index(move) * self.buckets + bucket

    def action_mask(self, seat: int) -> np.ndarray:
        """1 for every action ``seat`` may take now (all buckets of each legal reaction)."""
        game = self.game
        assert game is not None
        seat = as_int(seat, "seat", 0, self.players - 1)
        legal = np.zeros(len(REACTIONS) + 1, np.int8)
        legal[-1] = 1  # no reaction
        if not game.is_over and game.to_move is None:
            ids = [a for a in game.legal_actions(seat) if a < len(REACTIONS)]  # not timeout
            legal[ids] = 1
        mask = np.repeat(legal, self.buckets)[: self.no_reaction + 1]
        mask[self.no_reaction] = 1
        return mask

    # ------------------------------------------------------------------ the episode
    def reset(
        self, seed: int | None = None, options: Options | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, JSONObject]]:
        """A new game. ``seed``: the game's seed (engine deal, tie stream); without one the next
        seed of the last seeded sequence (or a fresh one before any seed). ``options`` is
        accepted for PettingZoo's signature and not used: the game's options are arguments."""
        if seed is not None:
            game_seed = as_int(seed, "seed", 0, SEED_LIMIT - 1)
            self._seed, self._resets = game_seed, 0
        else:
            if self._seed is None:
                self._seed = fresh_seed()
            self._resets += 1
            game_seed = derive_seed(self._seed, STREAM_RESETS + self._resets) % SEED_LIMIT
        # the same streams as the simulator's reaction games (simulate.play_reactions)
        game = new_game(GAME, self.players, derive_seed(game_seed, STREAM_ENGINE) % SEED_LIMIT, self._options)
        assert isinstance(game, Mausgeflippt)
        self.game = game
        self.referee = Referee.for_seed(self.game, game_seed)
        self.agents = list(self.possible_agents)
        self._cycles = 0
        self._last = None
        self._reveal()
        return self._observations(), {a: {} for a in self.agents}

    def _reveal(self) -> None:
        game, referee = self.game, self.referee
        assert game is not None and referee is not None
        if not game.is_over:
            game.play("reveal")
            referee.open()

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        game = self.game
        assert game is not None
        self._masks = [self.action_mask(s) for s in range(self.players)]  # step() checks actions against them
        return {
            agent: {"observation": observe(game.typed_view(s)), "action_mask": self._masks[s].copy()}
            for s, agent in enumerate(self.possible_agents)
            if agent in self.agents
        }

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, JSONObject],
    ]:
        """All seats answer the shown mouse at once; the referee decides; the next mouse is shown.
        A seat missing from ``actions`` does not react."""
        game, referee = self.game, self.referee
        if game is None or referee is None or not self.agents:
            raise ValueError("no episode is running: call reset() first")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"actions for agents not playing: {sorted(unknown)}")
        chosen: list[int] = []
        for agent in self.possible_agents:  # every action checked before the referee hears one
            action = actions.get(agent, self.no_reaction)
            chosen.append(as_int(action, f"{agent}: action", 0, self.no_reaction))
        illegal: dict[str, bool] = {}
        before = game.scores()
        for s, agent in enumerate(self.possible_agents):
            illegal[agent] = not self._masks[s][chosen[s]]
            decoded = None if illegal[agent] else self.decode(chosen[s])
            if decoded is not None:
                referee.claim(s, decoded[0], decoded[1])
        decision = referee.settle()
        self._cycles += 1
        after = game.scores()
        over = game.is_over
        truncated = not over and self._cycles >= self.max_cycles
        if self.reward == "score":
            rewards = {a: float(after[s] - before[s]) for s, a in enumerate(self.possible_agents)}
        elif over:
            ranks = game.result()["ranks"]
            rewards = {a: 1.0 - 2.0 * (ranks[s] - 1) / (self.players - 1) for s, a in enumerate(self.possible_agents)}
        else:
            rewards = dict.fromkeys(self.possible_agents, 0.0)
        winner = decision.seat
        self._last = {
            "winner": None if winner is None else self.possible_agents[winner],
            "move": decision.move,
            "ms": decision.ms,
            "tied": [self.possible_agents[s] for s in decision.tied],
        }
        if not over and not truncated:
            self._reveal()
        observations = self._observations()
        infos = {a: {**self._last, "illegal": illegal[a]} for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    # ------------------------------------------------------------------ showing
    def render(self) -> str | None:
        """``render_mode="ansi"``: the table as everyone sees it (no hand is shown)."""
        if self.render_mode is None or self.game is None:
            return None
        view = self.game.view(None)
        lines = []
        mouse = view["mouse"]
        if mouse:
            shield = " (protected: its cheese is open)" if mouse["protected"] else ""
            lines.append(f"mouse {mouse['mouse']} wears {', '.join(mouse['wears'])}; cheese {mouse['cheese']}{shield}")
        elif view["is_over"]:
            lines.append(f"game over ({view['result']['reason']}), ranks {view['result']['ranks']}")
        if self._last is not None:
            last = self._last
            who = "nobody reacted (timeout)" if last["winner"] is None else f"{last['winner']}: {last['move']}"
            tie = f", tie of {', '.join(last['tied'])}" if len(last["tied"]) > 1 else ""
            lines.append(f"last mouse: {who} at {last['ms']} ms{tie}")
        lines.append(
            f"open cheese {view['open_cheese']} ({view['cheeses_left']} left), mice {view['mouse_pile']}, "
            f"draw {view['draw_pile']}, discard {view['discard_pile']}, revealer player_{view['revealer']}"
        )
        for s in range(self.players):
            lines.append(
                f"player_{s}: {view['hand_counts'][s]} cards, {view['mice'][s]} mice, "
                f"{len(view['laundry'][s])} laundry, {len(view['cheese'][s])} cheese, score {view['score'][s]}"
            )
        return "\n".join(lines)

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> MausgeflipptParallelEnv:
    """A Mausgeflippt Parallel environment (see :class:`MausgeflipptParallelEnv`)."""
    return MausgeflipptParallelEnv(**kwargs)


def raw_env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """The same game as an AEC environment (PettingZoo's convention next to ``parallel_env``):
    the seats act one after another on the same shown mouse, and the mouse is decided once the
    last seat has acted, so every seat still commits without seeing the others' choices."""
    return parallel_to_aec(MausgeflipptParallelEnv(**kwargs))


def env(**kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int | None]:
    """``raw_env`` behind PettingZoo's ``OrderEnforcingWrapper`` (the usual entry point): calls
    out of order (``step`` before ``reset``) are clear errors."""
    return OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["REACTIONS", "MausgeflipptParallelEnv", "env", "fields", "observe", "parallel_env", "raw_env"]
