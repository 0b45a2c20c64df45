"""Mau-Mau as a Gymnasium ``VectorEnv`` on the compiled kernel: ``mauseloch.games.maumau.envs.vector``.

    from mauseloch.games.maumau.envs.vector import MauMauVectorEnv
    envs = MauMauVectorEnv(num_envs=64, players=2, opponents="heuristic")
    obs, info = envs.reset(seed=0)
    actions = ...  # one legal action id per game: info["action_mask"] or envs.action_masks()
    obs, rewards, terminated, truncated, info = envs.step(actions)

``num_envs`` games of ``mauseloch/MauMau-v0`` stepped together: one seat learns, the other seats
are played by the built-in rivals (``"random"`` or ``"heuristic"``, compiled: the same decisions
the registered bots make), every rule and option is the engine's (through the kernel that plays
exactly the engine's games). The arguments and their defaults are ``MauMau-v0``'s (learner at
seat 0, random rivals; ``seat=None`` draws the seat from each game's seed). Sub-environment ``i``
is the very ``MauMau-v0`` that
``gymnasium.make_vec("mauseloch/MauMau-v0", num_envs, vectorization_mode="sync")`` would run:
reset with ``seed + i``, the same game seeds, the same learner seat, the same rivals with the
same seeds, the same observations, masks and rewards (``tests/test_vector_env.py`` holds the two
to each other, step by step; the discard pile's flags against the engine's pile, which
``MauMau-v0``'s ``PublicLog`` can show stale after a reshuffle between two of the learner's
turns).

Observation: float32 ``(num_envs, size)``, the environments' one layout
(``mauseloch.games.maumau.envs.obs``, ``docs/envs.md``: 156 values at two players); masks: int8
``(num_envs, 47)`` in ``info["action_mask"]`` (bool from :meth:`action_masks`); ``info["seat"]``
the learner's seat. Reward at the end of a game: the rank reward (+1 first ... -1 last, ties
sharing); a game ended by ``move_limit`` is truncated, any other end terminated. Automatic reset
in Gymnasium's ``NEXT_STEP`` mode: the step after an episode's end returns the next game's first
observation in that slot with reward 0 (its action there is ignored). The step that ends an
episode returns its last observation and, for that slot, the mask of the next game (dealt then,
from the slot's own seeds as before), never all zeros: a policy may sample every slot's action
from ``info["action_mask"]`` at every step. ``info["seat"]`` is the ended game's seat until the
next step.

An illegal action: ``illegal_action="lose"`` (default, as ``MauMau-v0``) ends that episode with
-1 and leaves its game as it was; ``"raise"`` refuses the whole step with a ``ValueError`` naming
the game and its legal ids before any game moves.
"""

from __future__ import annotations

from typing import Any

from mauseloch.core.engine import SEED_LIMIT, Rng, as_int, derive_seed
from mauseloch.core.seeds import STREAM_LEARNER_SEAT, STREAM_RIVALS
from mauseloch.core.shapes import JSONObject, Options
from mauseloch.extras import needs
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau import kernel as k
from mauseloch.games.maumau.envs.obs import checked_setup, observation_size
from mauseloch.games.maumau.envs.state import (
    ILLEGAL,
    OVER,
    ST_CARDS,
    ST_INTS,
    ST_LAST,
    ST_OPTS,
    mask_of,
    new_state,
    observe,
    outcome,
    play,
    start,
)

with needs("rl", __name__):
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
    from numba import njit

RIVALS = ("random", "heuristic")  # the built-in rivals, by code
MOVE_LIMIT_REASON = k.REASONS.index("move_limit") + 1  # outcome()'s reason code of a move-limit end


@njit(cache=True)
def _rivals_move(st: np.ndarray, me: int, kinds: np.ndarray, gens: np.ndarray) -> int:
    """The rivals play until seat ``me`` is to move (returned) or the game is over (``OVER``).
    ``kinds[s]`` is seat s's rival (0 random, 1 heuristic) and ``gens[s]`` its generator, an
    ``engine.Rng``'s three words: the registered bots' own draws."""
    ints = st[ST_INTS:ST_CARDS]
    opts = st[ST_OPTS:ST_LAST]
    n = opts[k.O_PLAYERS]
    while True:
        if ints[k.I_OVER]:
            return OVER
        p = ints[k.I_TO_MOVE]
        if p == me:
            return p
        bits, other = k._legal(ints)
        if kinds[p] == 0:
            action = k._nth_legal(bits, other, k._below(gens[p], 0, k._legal_count(bits, other)))
        else:
            action = k.heuristic_action(
                ints[k.I_HANDS + p], bits, other, p, ints[k.I_COUNTS : k.I_COUNTS + n], n, ints[k.I_DIR],
                opts[k.O_ACE_SKIPS] != 0, opts[k.O_NO_WIN_WITH_JACK] != 0, gens[p],
            )  # fmt: skip
        play(st, action)


@njit(cache=True)
def _finish_obs(st: np.ndarray, me: int, obs: np.ndarray, mask: np.ndarray) -> None:
    obs[:] = 0.0
    key = observe(st, obs, me)
    if key:
        mask[:] = mask_of(key)
    else:
        mask[:] = 0


@njit(cache=True)
def _rank_reward(st: np.ndarray, me: int, out: np.ndarray) -> tuple[float, bool]:
    """The ended game's rank reward of ``me`` (``maumau_obs.rank_rewards``, written the same way
    so the floats agree to the last bit) and whether the move limit ended it."""
    outcome(st, out)
    n = st[ST_OPTS + k.O_PLAYERS]
    mine = out[1 + me]
    tied = 0
    for s in range(n):
        if out[1 + s] == mine:
            tied += 1
    place = mine - 1 + (tied + 1) / 2
    return 1.0 - 2.0 * (place - 1) / (n - 1), out[0] == MOVE_LIMIT_REASON


@njit(cache=True)
def _step(
    states: np.ndarray, actions: np.ndarray, skip: np.ndarray, seats: np.ndarray, kinds: np.ndarray,
    gens: np.ndarray, obs: np.ndarray, masks: np.ndarray, rewards: np.ndarray, terms: np.ndarray,
    truncs: np.ndarray, illegal: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """One step of every game not in ``skip`` (dealt anew this step): the learner's action, the
    rivals' moves, then the learner's vector and mask, reward and end flags."""
    for i in range(states.shape[0]):
        if skip[i]:
            continue
        st = states[i]
        me = seats[i]
        rewards[i] = 0.0
        terms[i] = False
        truncs[i] = False
        illegal[i] = False
        code = play(st, actions[i])
        if code == ILLEGAL:
            rewards[i] = -1.0
            terms[i] = True
            illegal[i] = True
        else:
            if code != OVER:
                code = _rivals_move(st, me, kinds[i], gens[i])
            if code == OVER:
                reward, by_limit = _rank_reward(st, me, out)
                rewards[i] = reward
                truncs[i] = by_limit
                terms[i] = not by_limit
        _finish_obs(st, me, obs[i], masks[i])


@njit(cache=True)
def _first_illegal(states: np.ndarray, actions: np.ndarray, skip: np.ndarray) -> int:
    for i in range(states.shape[0]):
        if not skip[i] and not k.is_legal(states[i, ST_INTS:ST_CARDS], actions[i]):
            return i
    return -1


class MauMauVectorEnv(VectorEnv):
    """``num_envs`` Mau-Mau games for one learning seat each (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 16,
        players: int = 2,
        opponents: str | list[str] = "random",
        seat: int | None = 0,
        illegal_action: str = "lose",
        **options: Any,
    ) -> None:
        self.num_envs = as_int(num_envs, "num_envs", 1)
        self.players, self.game_options = checked_setup(players, options)
        self.seat = None if seat is None else as_int(seat, "seat (or None)", 0, self.players - 1)
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        kinds = [opponents] * (self.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != self.players - 1:
            raise ValueError(f"opponents must name one rival, or {self.players - 1} (one per other seat)")
        for kind in kinds:
            if kind not in RIVALS:
                raise ValueError(f"unknown rival {kind!r}; the built-in rivals are {', '.join(RIVALS)}")
        self.opponents = kinds
        size = observation_size(self.players)
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(len(MauMau.ACTIONS))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        state = new_state(self.players, self.game_options)
        self._states = np.tile(state, (n, 1))
        self._obs = np.zeros((n, size), dtype=np.float32)
        self._next_obs = np.zeros((n, size), dtype=np.float32)  # the first of a game dealt at an end
        self._masks = np.zeros((n, len(MauMau.ACTIONS)), dtype=np.int8)
        self._seats = np.zeros(n, dtype=np.int64)
        self._kinds = np.zeros((n, k.MAX_PLAYERS), dtype=np.int64)
        self._gens = np.zeros((n, k.MAX_PLAYERS, 3), dtype=np.uint64)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terms = np.zeros(n, dtype=np.bool_)
        self._truncs = np.zeros(n, dtype=np.bool_)
        self._illegal = np.zeros(n, dtype=np.bool_)
        self._ended = np.zeros(n, dtype=np.bool_)  # ended last step: dealt anew at the next
        self._out = np.zeros(1 + 3 * k.MAX_PLAYERS, dtype=np.int64)
        self._rngs: list[np.random.Generator] = []
        self._started = False

    # -- Gymnasium's vector API ------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: Options | None = None
    ) -> tuple[np.ndarray, JSONObject]:
        """Every game dealt anew; ``seed`` seeds sub-environment i with ``seed + i`` (or a list,
        one seed per game), as Gymnasium's vector environments do."""
        if options:
            raise ValueError(f"reset takes no options here, got {options!r}")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise ValueError(f"give one seed per game ({self.num_envs}), got {len(seed)}")
            seeds = seed
        else:
            first = as_int(seed, "seed", 0)
            seeds = [first + i for i in range(self.num_envs)]
        self._rngs = [seeding.np_random(s)[0] for s in seeds]
        for i in range(self.num_envs):
            self._deal(i, self._obs[i])
        self._ended[:] = False
        self._started = True
        return self._obs.copy(), self._info(self._seats)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, JSONObject]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} whole numbers (one action id per game), got {actions!r}")
        acts = acts.astype(np.int64)
        skip = self._ended.copy()  # dealt anew when they ended: this step shows the new game
        if self.illegal_action == "raise":
            bad = _first_illegal(self._states, acts, skip)
            if bad >= 0:
                legal = np.flatnonzero(self._masks[bad]).tolist()
                raise ValueError(f"game {bad}: action {acts[bad]} is not legal now; legal action ids: {legal}")
        for i in np.flatnonzero(skip):
            self._obs[i] = self._next_obs[i]
            self._rewards[i] = 0.0
            self._terms[i] = self._truncs[i] = self._illegal[i] = False
        _step(
            self._states, acts, skip, self._seats, self._kinds, self._gens, self._obs, self._masks, self._rewards,
            self._terms, self._truncs, self._illegal, self._out,
        )  # fmt: skip
        self._ended = self._terms | self._truncs
        obs, seats = self._obs.copy(), self._seats.copy()
        # a game that ended is followed at once by the next in its slot, so that its mask (this
        # step's mask for the slot) is one to sample from; the next step shows its observation
        for i in np.flatnonzero(self._ended):
            self._deal(int(i), self._next_obs[i])
        return obs, self._rewards.copy(), self._terms.copy(), self._truncs.copy(), self._info(seats)

    def action_masks(self) -> np.ndarray:
        """The legal actions of each game's learner as booleans ``(num_envs, 47)``."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        return None

    # -- inside ------------------------------------------------------------------------
    def _deal(self, i: int, obs: np.ndarray) -> None:
        """Game slot ``i`` dealt anew from its generator, the rivals moved up to the learner's
        first turn (a game the rivals finish before it is dealt again, as ``MauMau-v0`` does);
        its first observation into ``obs``, its mask into the slot's."""
        n = self.players
        st = self._states[i]
        while True:
            game_seed = int(self._rngs[i].integers(SEED_LIMIT))
            me = self.seat if self.seat is not None else derive_seed(game_seed, STREAM_LEARNER_SEAT) % n
            others = [s for s in range(n) if s != me]
            for s, kind in zip(others, self.opponents, strict=True):
                self._kinds[i, s] = RIVALS.index(kind)
                self._gens[i, s] = Rng(derive_seed(game_seed, STREAM_RIVALS + s)).words()
            start(st, np.uint64(game_seed), False)
            if _rivals_move(st, me, self._kinds[i], self._gens[i]) != OVER:
                break
        self._seats[i] = me
        _finish_obs(st, me, obs, self._masks[i])

    def _info(self, seats: np.ndarray) -> JSONObject:
        every = np.ones(self.num_envs, dtype=np.bool_)
        info: JSONObject = {
            "action_mask": self._masks.copy(), "_action_mask": every,
            "seat": seats.copy(), "_seat": every.copy(),
        }  # fmt: skip
        if self._illegal.any():
            info["illegal"] = self._illegal.copy()
            info["_illegal"] = self._illegal.copy()
        return info
