"""Mau-Mau as pure JAX functions in pgx's style: ``init(key)``, ``step(state, action)``, the legal
action mask, the observation and the rewards, all jit- and vmap-able (``mauseloch.envs.jax`` is
the public import path).

    env = MauMau(players=3, ace_skips=True)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), 1024))
    state = jax.jit(jax.vmap(env.step))(state, actions)  # one action id per game

Exactly the engine's games. A state dealt from seed ``S`` (``init_with_seed``; ``init(key)``
draws ``S = seed_of(key)``) plays exactly ``mauseloch.new_game("mau-mau", players, seed=S,
options=...)``: the same SplitMix64 streams (the deal from ``derive_seed(S, STREAM_DEAL)``, every
reshuffle from one generator on ``derive_seed(S, STREAM_RESHUFFLE)``, MM-2, MM-8), the same
Fisher-Yates with 16-bit draws and rejection as ``engine.Rng``, in 32-bit halves (JAX computes
in 32 bits unless x64 is switched on for the whole program), every rule MM-1..MM-16 with every
option, as the numba kernel (``mauseloch.games.maumau.kernel``) plays them. ``tests/games/
test_maumau_jax.py`` compares every step with the engine on the spec's vectors and 10,000 random
games.

One layout. The action ids are the engine's (``MauMau.ACTIONS``, through the kernel's
``ACT_CARD``/``ACT_WISH`` tables); the observation is the environments' vector
(``envs.maumau_obs``: its ``observation_fields`` give every field's name, place and size, and
:meth:`MauMau.observe` fills them by name); the public log's facts follow the kernel's
``note_move`` (``LAST_*``); rewards are the rank rewards (``maumau_obs.rank_rewards``).

pgx's conventions: ``state.current_player`` moves next; ``state.observation`` is its vector;
``state.legal_action_mask`` (bool, 47) its legal actions, all True once the game is over (so a
policy can still sample); ``state.rewards`` (one per seat) are non-zero only on the step that
ends a game; ``state.terminated`` is set by every ending (a win, a stalemate, the move limit:
each ranks the seats, MM-15a); ``truncated`` stays False. Stepping an ended game changes nothing
and gives zero rewards. An illegal action cannot raise inside ``jit``: as in pgx it ends the game,
-1 for the seat that sent it and ``+1 / (players - 1)`` for each other.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from mauseloch.core.engine import GOLDEN, SEED_LIMIT, mix64
from mauseloch.core.seeds import STREAM_DEAL, STREAM_RESHUFFLE
from mauseloch.extras import needs
from mauseloch.games.maumau import CARD_FIT, JACK, JACKS, SEVEN, SEVENS, SUIT_MASK
from mauseloch.games.maumau.envs.obs import (
    _OPTION_NAMES,
    LAST_DRAW,
    LAST_MOVE_KINDS,
    LAST_NONE,
    LAST_PASS_DRAWN,
    LAST_PASS_EMPTY,
    LAST_PLAY,
    LAST_TAKE,
    SCALE,
    checked_setup,
    observation_fields,
)
from mauseloch.games.maumau.kernel import ACT_CARD, ACT_WISH, CARD_POINTS, DRAW_A, NUM_ACTIONS, PASS_A, TAKE_A

with needs("train", __name__):
    import jax
    import jax.numpy as jnp
    import numpy as np

__all__ = ["MauMau", "State", "seed_of"]

T = TypeVar("T")
Array = jax.Array

U32 = jnp.uint32
_M32 = (1 << 32) - 1
OUT, STALEMATE, MOVE_LIMIT = 1, 2, 3  # the kernel's reason codes (games.maumau.kernel.REASONS)
_NO_JACK_ON_JACK, _MOVE_LIMIT = 2, 4  # in ``State._opts``: the option flags (maumau_obs's order), the limit
WORDS = 10  # SplitMix64 outputs made at once for a shuffle: 40 chunks, 31 draws and 9 rejections

# Constant tables (numpy, turned into JAX constants where used).
_ACT_CARD = np.asarray(ACT_CARD, np.int32)
_ACT_WISH = np.asarray(ACT_WISH, np.int32)
_CARD_OF_ACTION = np.maximum(_ACT_CARD, 0)  # a safe index for draw/pass/take (masked out)
_CARD_FIT = np.asarray(CARD_FIT, np.uint32)
_SUIT_MASK = np.asarray(SUIT_MASK, np.uint32)
_POINTS = np.asarray(CARD_POINTS, np.int32)
_LIMIT16 = np.asarray([1] + [65536 - 65536 % n for n in range(1, 33)], np.uint32)  # engine.Rng.below
_BITS = np.asarray([1 << c for c in range(32)], np.uint32)
_JACKS, _SEVENS = np.uint32(JACKS), np.uint32(SEVENS)


def _halves(x: int) -> tuple[np.uint32, np.uint32]:
    return np.uint32(x >> 32 & _M32), np.uint32(x & _M32)


_MIX1, _MIX2 = _halves(0xBF58476D1CE4E5B9), _halves(0x94D049BB133111EB)
_GOLDEN = _halves(GOLDEN)
# derive_seed(seed, stream) = mix64(seed ^ mix64(stream + STREAM)): the inner hash is a constant
_DEAL_KEY = _halves(mix64(STREAM_DEAL + 0x632BE59BD9B4E019))
_RESHUFFLE_KEY = _halves(mix64(STREAM_RESHUFFLE + 0x632BE59BD9B4E019))

# --------------------------------------------------------------------------- 64-bit arithmetic
# A 64-bit word is a pair (hi, lo) of uint32 arrays.
W64 = tuple[Array, Array]


def _mulhi32(a: Array, b: Array) -> Array:
    """The high 32 bits of the 64-bit product of two uint32 (16-bit halves: no 64-bit type)."""
    a0, a1 = a & 0xFFFF, a >> 16
    b0, b1 = b & 0xFFFF, b >> 16
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> 16) + (p01 & 0xFFFF) + (p10 & 0xFFFF)
    return p11 + (p01 >> 16) + (p10 >> 16) + (mid >> 16)


def _mul64(a: W64, b: W64) -> W64:
    (ah, al), (bh, bl) = a, b
    return _mulhi32(al, bl) + al * bh + ah * bl, al * bl


def _add64(a: W64, b: W64) -> W64:
    lo = a[1] + b[1]
    return a[0] + b[0] + (lo < a[1]).astype(U32), lo


def _xorshr(x: W64, k: int) -> W64:
    """``x ^ (x >> k)`` for 0 < k < 32."""
    hi, lo = x
    return hi ^ (hi >> k), lo ^ ((lo >> k) | (hi << (32 - k)))


def _mix64(x: W64) -> W64:
    """``engine.mix64`` (SplitMix64's finaliser)."""
    x = _mul64(_xorshr(x, 30), (U32(_MIX1[0]), U32(_MIX1[1])))
    x = _mul64(_xorshr(x, 27), (U32(_MIX2[0]), U32(_MIX2[1])))
    return _xorshr(x, 31)


def _golden_times(j: Array) -> W64:
    """``GOLDEN * j`` modulo 2**64 for a uint32 ``j``."""
    return _mul64((U32(_GOLDEN[0]), U32(_GOLDEN[1])), (jnp.zeros_like(j), j))


def _words(s: W64, j: Array) -> Array:
    """The 16-bit chunks (lowest first) of the generator outputs ``j`` (0: the next one) of a
    SplitMix64 at state ``s``: ``mix64(s + GOLDEN * (j + 1))``, shape ``j.shape + (4,)``."""
    hi, lo = _mix64(_add64((jnp.broadcast_to(s[0], j.shape), jnp.broadcast_to(s[1], j.shape)), _golden_times(j + 1)))
    return jnp.stack([lo & 0xFFFF, lo >> 16, hi & 0xFFFF, hi >> 16], axis=-1)


def _when(pred: Array, fn: Callable[[T], T], x: T) -> T:
    """``fn(x)`` if ``pred`` else ``x``, as a loop that runs once or not at all: under ``vmap``
    it runs only when some game needs it (``lax.cond`` would compute it for every game)."""
    return jax.lax.while_loop(lambda c: c[0], lambda c: (jnp.bool_(False), fn(c[1])), (pred, x))[1]


def _after(s: W64, rng: Array, pos: Array, stream: Array, size: int) -> Array:
    """The generator once the chunk stream was read up to ``pos`` (0..3: the unused chunks of
    the last output, then 4 chunks an output): the outputs used, and the rest of the last."""
    used = jnp.maximum(pos - 4 + 3, 0) // 4
    left = 4 + 4 * used - pos
    last = jnp.where(used > 0, _when_word(s, used, stream, size), rng[3:7])
    s2 = _add64(s, _golden_times(used.astype(U32)))
    return jnp.concatenate([jnp.stack([s2[0], s2[1], left.astype(U32)]), last])


def _shuffle(cards: Array, m: Array, rng: Array) -> tuple[Array, Array]:
    """``engine.Rng(...).shuffle(cards[:m])`` (m <= 32): Fisher-Yates from the end, ``j =
    below(i + 1)``, each bound from the generator's 16-bit chunks with rejection. ``rng`` is the
    generator as uint32 ``[state_hi, state_lo, nchunks, c0, c1, c2, c3]``: its state and the
    chunks of its last output not used yet (the last ``nchunks`` of ``c``). Returns the cards and
    the generator."""
    s: W64 = (rng[0], rng[1])
    nchunks = rng[2].astype(jnp.int32)
    # The chunk stream: the unused chunks, then those of the next WORDS outputs; a position past
    # them is made on demand (rejections past 9 in one shuffle: never seen, but exact).
    stream = jnp.concatenate([rng[3:7], _words(s, jnp.arange(WORDS, dtype=U32)).reshape(-1)])
    size = stream.shape[0]

    def chunk(pos: Array) -> Array:
        def far(_: Array) -> Array:
            q = (pos - 4).astype(U32)
            return _words(s, q // 4)[q % 4]

        return _when(pos >= size, far, stream[jnp.minimum(pos, size - 1)])

    def swap(t: int, carry: tuple[Array, Array]) -> tuple[Array, Array]:
        cards, pos = carry
        i = m - 1 - t
        live = i >= 1
        n = jnp.maximum(i + 1, 1)
        limit = jnp.asarray(_LIMIT16)[jnp.minimum(n, 32)]

        def reject(c: tuple[Array, Array]) -> tuple[Array, Array]:
            return c[0] + 1, chunk(c[0] + 1)

        pos, v = jax.lax.while_loop(lambda c: live & (c[1] >= limit), reject, (pos, chunk(pos)))
        j = (v % n.astype(U32)).astype(jnp.int32)
        ci, cj = cards[jnp.maximum(i, 0)], cards[j]
        swapped = cards.at[jnp.maximum(i, 0)].set(cj).at[j].set(ci)
        return jnp.where(live, swapped, cards), pos + live.astype(jnp.int32)

    cards, pos = jax.lax.fori_loop(0, 31, swap, (cards, 4 - nchunks))
    return cards, _after(s, rng, pos, stream, size)


def _when_word(s: W64, used: Array, stream: Array, size: int) -> Array:
    """The chunks of output ``used - 1`` (``used`` >= 1): from the stream, or made anew past it."""
    start = 4 * used
    inside = jax.lax.dynamic_slice(stream, (jnp.minimum(start, size - 4),), (4,))
    return _when(start + 4 > size, lambda _: _words(s, (used - 1).astype(U32)), inside)


# --------------------------------------------------------------------------- the state


@dataclasses.dataclass(frozen=True)
class State:
    """One Mau-Mau game (batch it with ``vmap``). pgx's fields first; the rest is the game:
    hands as 32-bit card masks, the draw pile (its top at ``_pile - 1``) and the discard pile
    (bottom first) as card ids, the open wish, penalty and direction, the card being decided on
    (MM-7), the end (0 running, else the kernel's reason code), the reshuffle generator and the
    public log (per seat: last move, lacked cards, cards received since)."""

    current_player: Array
    observation: Array
    rewards: Array
    terminated: Array
    truncated: Array
    legal_action_mask: Array
    _step_count: Array
    _hands: Array
    _draw: Array
    _pile: Array
    _discard: Array
    _ndisc: Array
    _top: Array
    _wish: Array
    _penalty: Array
    _dir: Array
    _drawn: Array
    _to_move: Array
    _over: Array
    _moves: Array
    _rng: Array
    _last: Array
    _lacked: Array
    _received: Array
    _opts: Array

    @property
    def env_id(self) -> str:
        return "mauseloch-maumau"

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` (as pgx's and flax's states have)."""
        return dataclasses.replace(self, **changes)


# a pytree (jit, vmap, scan), without flax: flax brings rich and more along
jax.tree_util.register_dataclass(State, data_fields=[f.name for f in dataclasses.fields(State)], meta_fields=[])


def seed_of(key: Array) -> int:
    """The engine seed ``init(key)`` deals (below 2**53: ``new_game`` takes it as it is)."""
    hi, lo = (int(w) for w in _seed_words(key))
    return hi << 32 | lo


def _seed_words(key: Array) -> Array:
    words = jax.random.bits(key, (2,), U32)
    return words.at[0].set(words[0] & U32((SEED_LIMIT >> 32) - 1))


def _popcount(x: Array) -> Array:
    return jax.lax.population_count(x).astype(jnp.int32)


def _flags(mask: Array) -> Array:
    """32 floats, 1.0 for each set bit of the uint32 ``mask``."""
    return ((mask & jnp.asarray(_BITS)) != 0).astype(jnp.float32)


def _one_hot(i: Array, size: int) -> Array:
    return (jnp.arange(size) == i).astype(jnp.float32)


def _ratio(x: Array, limit: Array) -> Array:
    """``x / limit`` rounded once to float32 (0 <= x <= limit < 2**30), as numpy's float64
    quotient stored as float32 is: XLA divides by multiplying with a reciprocal, a unit in the
    last place off for one quotient in three. Long division: the quotient's 24 bits, a rounding
    bit and whether anything is left, rounded half to even."""
    x = jnp.asarray(x, jnp.int32)
    limit = jnp.maximum(jnp.asarray(limit, jnp.int32), 1)
    # r = x * 2**shift with limit <= r < 2 limit: the quotient r / limit is in [1, 2)
    shift = jnp.maximum(jax.lax.clz(jnp.maximum(x, 1)) - jax.lax.clz(limit), 0)
    r = jnp.left_shift(jnp.maximum(x, 1), shift)
    more = r < limit  # one bit further
    shift = shift + more.astype(jnp.int32)
    r = jnp.where(more, r * 2, r)
    q = jnp.zeros_like(x)
    for _ in range(25):  # 24 bits of mantissa, then the rounding bit
        bit = r >= limit
        q = q * 2 + bit.astype(jnp.int32)
        r = jnp.where(bit, r - limit, r) * 2
    up = (q & 1 == 1) & ((r != 0) | (q & 2 == 2))  # round half to even on the 24-bit mantissa
    mantissa = (q >> 1) + up.astype(jnp.int32)
    value = jnp.ldexp(mantissa.astype(jnp.float32), -23 - shift)
    return jnp.where(x <= 0, 0.0, jnp.where(x >= limit, 1.0, value)).astype(jnp.float32)


class MauMau:
    """Mau-Mau for ``players`` seats under the engine's options (``ace_skips``,
    ``seven_draw_then_play``, ``no_jack_on_jack``, ``no_win_with_jack``, ``move_limit``; a bad
    one raises ``ValueError`` naming it). The player count fixes the arrays' shapes (``jit``
    specialises on it); the options travel in the state (``_opts``), so one compiled ``step``
    serves every option set at that player count."""

    def __init__(self, players: int = 2, **options: Any) -> None:
        self.players, self.options = checked_setup(players, options)
        limit = int(self.options["move_limit"])
        if limit >= 1 << 30:
            raise ValueError(f"move_limit must be below 2**30 here, got {limit}")
        # the option flags in maumau_obs's order, then the move limit
        self._opts = np.asarray([int(bool(self.options[name])) for name in _OPTION_NAMES]
                                + [int(self.options["move_limit"])], np.int32)  # fmt: skip
        self._fields = observation_fields(self.players)

    # -- pgx's Env API ---------------------------------------------------------------------
    @property
    def id(self) -> str:
        return "mauseloch-maumau"

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def observation_shape(self) -> tuple[int, ...]:
        start, size = self._fields[-1][1:3]
        return (start + size,)

    def init(self, key: Array) -> State:
        """The game of seed ``seed_of(key)``, dealt (MM-2, MM-3)."""
        return self.init_with_seed(_seed_words(key))

    def init_with_seed(self, seed: Array) -> State:
        """The engine game of seed ``seed[0] << 32 | seed[1]`` (uint32[2]), dealt."""
        return self._init_seeded(seed, jnp.asarray(self._opts))

    def init_with_deck(self, deck: Array, seed: Array) -> State:
        """``new_game(..., seed=seed, deck=deck)``: the 32 card ids in dealing order (top first,
        each once; not checked here), the reshuffles from the seed (uint32[2])."""
        return self._init(deck, seed, jnp.asarray(self._opts))

    def _init_seeded(self, seed: Array, opts: Array) -> State:
        """``init_with_seed`` under the options ``opts`` (``State._opts``)."""
        seed = jnp.asarray(seed, U32)
        deal_rng = jnp.concatenate([jnp.stack(_mix64((seed[0] ^ _DEAL_KEY[0], seed[1] ^ _DEAL_KEY[1]))),
                                    jnp.zeros(5, U32)])  # fmt: skip
        deck, _ = _shuffle(jnp.arange(32, dtype=jnp.int32), jnp.int32(32), deal_rng)
        return self._init(deck, seed, opts)

    def _init(self, deck: Array, seed: Array, opts: Array) -> State:
        deck = jnp.asarray(deck, jnp.int32)
        seed = jnp.asarray(seed, U32)
        n = self.players
        dealt = 5 * n
        seat_of = jnp.arange(32) % n
        taken = jnp.arange(32) < dealt
        hands = jnp.stack([
            jnp.sum(jnp.where(taken & (seat_of == s), jnp.asarray(_BITS)[deck], U32(0)), dtype=U32) for s in range(n)
        ])  # fmt: skip
        top = deck[dealt]
        pile = 31 - dealt
        # the draw pile, its first card on top (at pile - 1): position j holds deck[31 - j]
        draw = jnp.where(jnp.arange(32) < pile, deck[31 - jnp.arange(32)], 0)
        reshuffle = jnp.concatenate([jnp.stack(_mix64((seed[0] ^ _RESHUFFLE_KEY[0], seed[1] ^ _RESHUFFLE_KEY[1]))),
                                     jnp.zeros(5, U32)])  # fmt: skip
        state = State(
            current_player=jnp.int32(0),
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            rewards=jnp.zeros(n, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, jnp.bool_),
            _step_count=jnp.int32(0),
            _hands=hands,
            _draw=draw.astype(jnp.int32),
            _pile=jnp.int32(pile),
            _discard=jnp.zeros(32, jnp.int32).at[0].set(top),
            _ndisc=jnp.int32(1),
            _top=top,
            _wish=jnp.int32(-1),
            _penalty=jnp.int32(0),
            _dir=jnp.int32(1),
            _drawn=jnp.int32(-1),
            _to_move=jnp.int32(0),
            _over=jnp.int32(0),
            _moves=jnp.int32(0),
            _rng=reshuffle,
            _last=jnp.full(n, LAST_NONE, jnp.int32),
            _lacked=jnp.zeros(n, U32),
            _received=jnp.zeros(n, jnp.int32),
            _opts=jnp.asarray(opts, jnp.int32),
        )
        state = state.replace(legal_action_mask=self._legal_mask(state))
        return state.replace(observation=self.observe(state, state.current_player))

    def step(self, state: State, action: Array, key: Array | None = None) -> State:
        """Play action id ``action`` for ``state.current_player`` (``key`` is unused: every
        random draw comes from the game's seed, as in the engine)."""
        action = jnp.asarray(action, jnp.int32)
        over = state.terminated | state.truncated
        legal = state.legal_action_mask[jnp.clip(action, 0, NUM_ACTIONS - 1)] & (action >= 0) & (action < NUM_ACTIONS)
        played = self._play(state, jnp.clip(action, 0, NUM_ACTIONS - 1))
        n = self.players
        actor = state.current_player
        penalty = jnp.where(jnp.arange(n) == actor, -1.0, 1.0 / (n - 1)).astype(jnp.float32)
        illegal = state.replace(rewards=penalty, terminated=jnp.bool_(True), _to_move=jnp.int32(-1))
        new = jax.tree.map(lambda a, b: jnp.where(legal, a, b), played, illegal)
        new = jax.tree.map(
            lambda a, b: jnp.where(over, a, b), state.replace(rewards=jnp.zeros_like(state.rewards)), new
        )
        new = new.replace(
            legal_action_mask=jnp.where(new.terminated, True, self._legal_mask(new)),
            _step_count=state._step_count + (~over).astype(jnp.int32),
        )
        return new.replace(observation=self.observe(new, new.current_player))

    # -- the rules (the kernel's ``apply``, step for step) -------------------------------------
    @staticmethod
    def _fit(top: Array, wish: Array, no_jack_on_jack: Array) -> Array:
        """``maumau.fit_mask``: the cards that fit now (MM-4, MM-5, MM-12)."""
        jacks = jnp.asarray(_JACKS)
        wished = jnp.asarray(_SUIT_MASK)[jnp.maximum(wish, 0)]
        plain = jnp.asarray(_CARD_FIT)[top]
        wished = jnp.where(no_jack_on_jack, wished & ~jacks, wished | jacks)
        plain = jnp.where(no_jack_on_jack & (top % 8 == JACK), plain & ~jacks, plain)
        return jnp.where(wish >= 0, wished, plain)

    def _legal(self, st: State) -> tuple[Array, Array]:
        """The kernel's ``_legal``: the card mask that may be played, and the one other action (-1)."""
        hand = st._hands[st._to_move]
        fit_cards = hand & self._fit(st._top, st._wish, st._opts[_NO_JACK_ON_JACK] != 0)
        can_draw = (st._pile > 0) | (st._ndisc > 1)
        drawn_bit = jnp.left_shift(U32(1), jnp.maximum(st._drawn, 0).astype(U32))
        bits = jnp.where(st._penalty > 0, hand & jnp.asarray(_SEVENS), jnp.where(st._drawn >= 0, drawn_bit, fit_cards))
        other = jnp.where(fit_cards != 0, -1, jnp.where(can_draw, DRAW_A, PASS_A))
        other = jnp.where(st._penalty > 0, TAKE_A, jnp.where(st._drawn >= 0, PASS_A, other))
        return bits, other

    def _legal_mask(self, st: State) -> Array:
        bits, other = self._legal(st)
        cards = ((bits >> jnp.asarray(_CARD_OF_ACTION).astype(U32)) & 1) == 1
        mask = jnp.where(jnp.asarray(_ACT_CARD) >= 0, cards, False) | (jnp.arange(NUM_ACTIONS) == other)
        return mask & (st._over == 0)

    def _take(self, st: State, seat: Array, count: Array) -> tuple[State, Array]:
        """Draw up to ``count`` cards for ``seat`` from the draw pile's top, reshuffling the
        discard pile but its top once when the pile runs out (MM-8; one draw never needs two);
        the last card drawn, or -1."""
        pos = jnp.arange(32)
        first = jnp.minimum(count, st._pile)
        pile = st._pile - first
        got = jnp.where(first > 0, st._draw[jnp.maximum(st._pile - 1, 0)], -1)
        taken = jnp.sum(jnp.where((pos >= pile) & (pos < st._pile), jnp.asarray(_BITS)[st._draw], U32(0)), dtype=U32)
        rest = count - first
        need = (rest > 0) & (st._ndisc > 1)

        def reshuffle(x: tuple[Array, Array, Array, Array]) -> tuple[Array, Array, Array, Array]:
            _, discard, ndisc, rng = x
            m = ndisc - 1
            cards, rng = _shuffle(jnp.where(pos < m, discard, 0), m, rng)
            return cards, jnp.zeros_like(discard).at[0].set(discard[m]), jnp.int32(1), rng

        draw, discard, ndisc, rng = _when(need, reshuffle, (st._draw, st._discard, st._ndisc, st._rng))
        pile = jnp.where(need, st._ndisc - 1, pile)  # every card of the discard pile but its top
        second = jnp.where(need, jnp.minimum(rest, pile), 0)
        after = pile - second
        taken = taken | jnp.sum(jnp.where(need & (pos >= after) & (pos < pile), jnp.asarray(_BITS)[draw], U32(0)),
                                dtype=U32)  # fmt: skip
        got = jnp.where(second > 0, draw[jnp.maximum(pile - 1, 0)], got)
        hands = st._hands.at[seat].set(st._hands[seat] | taken)
        st = st.replace(_hands=hands, _draw=draw, _pile=after, _discard=discard, _ndisc=ndisc, _rng=rng)
        return st, got

    def _play(self, st: State, action: Array) -> State:
        n = self.players
        p = st._to_move
        d = st._dir
        hand_before = _popcount(st._hands[p])
        ace_skips, then_play, no_jack_on_jack, no_win_with_jack = (st._opts[i] != 0 for i in range(4))
        fit_before = self._fit(st._top, st._wish, no_jack_on_jack)
        drew_before = st._drawn >= 0
        moves = st._moves + 1
        is_card = action < DRAW_A
        card = jnp.asarray(_CARD_OF_ACTION)[action]
        wish = jnp.asarray(_ACT_WISH)[action]

        def seat(x: Array) -> Array:
            return (x % n + n) % n

        # a card (MM-4..MM-15)
        hand = st._hands[p] & ~jnp.left_shift(U32(1), card.astype(U32))
        ndisc = st._ndisc + 1
        left = _popcount(hand)
        can_draw = (st._pile > 0) | (ndisc > 1)
        jack_draws = no_win_with_jack & (left == 0) & (wish >= 0) & can_draw
        wins = (left == 0) & ~jack_draws
        rank = card % 8
        skip = (rank == 1) | ((rank == 7) & ace_skips)
        nine = rank == 2
        d_card = jnp.where(nine & ~(left == 0), -d, d)
        nxt_card = jnp.where(jack_draws, seat(p + d),
                   jnp.where(rank == SEVEN, seat(p + d),
                   jnp.where(skip, seat(p + 2 * d),
                   jnp.where(nine, p if n == 2 else seat(p - d), seat(p + d)))))  # fmt: skip
        carded = st.replace(
            _hands=st._hands.at[p].set(hand),
            _discard=st._discard.at[st._ndisc].set(card),
            _ndisc=ndisc,
            _top=card,
            _wish=wish,
            _drawn=jnp.int32(-1),
            _penalty=st._penalty + jnp.where((rank == SEVEN) & (left > 0), 2, 0),
            _dir=d_card,
        )
        # how many cards the move draws, for whom: draw 1, take the penalty, a last jack 1
        count = jnp.where(is_card, jnp.where(jack_draws, 1, 0),
                jnp.where(action == DRAW_A, 1, jnp.where(action == TAKE_A, st._penalty, 0)))  # fmt: skip
        base = jax.tree.map(lambda a, b: jnp.where(is_card, a, b), carded, st)
        drawn_st, got = self._take(base, p, count)
        fits = (got >= 0) & (((fit_before >> jnp.maximum(got, 0).astype(U32)) & 1) == 1)
        after_draw_to_move = jnp.where(fits, p, seat(p + d))
        to_move = jnp.where(is_card, nxt_card,
                  jnp.where(action == DRAW_A, after_draw_to_move,
                  jnp.where(action == PASS_A, seat(p + d),
                  jnp.where(then_play, p, seat(p + d)))))  # fmt: skip
        drawn = jnp.where(action == DRAW_A, jnp.where(fits, got, -1), jnp.where(action == PASS_A, -1, drawn_st._drawn))
        penalty = jnp.where(action == TAKE_A, 0, drawn_st._penalty)
        st = drawn_st.replace(_to_move=to_move, _drawn=drawn, _penalty=penalty, _moves=moves)
        # MM-14a: a win first (its card has no effect), then stalemate, then the move limit
        fit_now = self._fit(st._top, st._wish, no_jack_on_jack)
        stuck = (st._pile == 0) & (st._penalty == 0) & (st._ndisc <= 1) & jnp.all((st._hands & fit_now) == 0)
        limit = st._opts[_MOVE_LIMIT]
        reason = jnp.where(is_card & wins, OUT, jnp.where(stuck, STALEMATE, jnp.where(moves >= limit, MOVE_LIMIT, 0)))
        ended = reason > 0
        # the public log (the kernel's note_move)
        got_count = _popcount(st._hands[p]) - hand_before
        passed = jnp.where(drew_before, LAST_PASS_DRAWN, LAST_PASS_EMPTY)
        last = jnp.where(
            action == DRAW_A,
            LAST_DRAW,
            jnp.where(action == PASS_A, passed, jnp.where(action == TAKE_A, LAST_TAKE, LAST_PLAY)),
        )
        lacks = (action == DRAW_A) | ((action == PASS_A) & ~drew_before)
        received = jnp.where(action == DRAW_A, got_count, jnp.where(action == PASS_A, jnp.where(drew_before,
                   st._received[p], 0), st._received[p] + got_count + jnp.where(is_card, 1, 0)))  # fmt: skip
        rewards = jnp.where(ended, self._rank_rewards(st._hands), 0.0).astype(jnp.float32)
        return st.replace(
            current_player=jnp.where(ended, p, to_move),
            _to_move=jnp.where(ended, -1, to_move),
            _over=reason,
            terminated=ended,
            rewards=rewards,
            _last=st._last.at[p].set(last),
            _lacked=st._lacked.at[p].set(jnp.where(lacks, fit_before, st._lacked[p])),
            _received=st._received.at[p].set(received),
        )

    def _rank_rewards(self, hands: Array) -> Array:
        """MM-16 as rewards: ``(seats ranked below - seats ranked above) / (players - 1)`` by
        cards left, then their points (``maumau_obs.rank_rewards``)."""
        cards = _popcount(hands)
        held = (hands[:, None] & jnp.asarray(_BITS)) != 0
        points = jnp.sum(jnp.where(held, jnp.asarray(_POINTS), 0), axis=-1)
        key = cards * 1000 + points
        better = jnp.sum(key[None, :] < key[:, None], axis=1)
        worse = jnp.sum(key[None, :] > key[:, None], axis=1)
        return (worse - better) / (self.players - 1)

    # -- the observation (envs.maumau_obs's layout, filled by field name) ---------------------
    def observe(self, state: State, player_id: Array) -> Array:
        """What ``player_id`` observes: the environments' vector (``observation_fields``)."""
        n = self.players
        seat = jnp.asarray(player_id, jnp.int32)
        to_move = state._to_move
        running = to_move >= 0
        pos = jnp.arange(32)
        discard = jnp.sum(jnp.where(pos < state._ndisc, jnp.asarray(_BITS)[state._discard], U32(0)), dtype=U32)
        parts: dict[str, Array] = {
            "hand": _flags(state._hands[seat]),
            "top": _one_hot(state._top, 32),
            "wish": _one_hot(state._wish, 4),
            "penalty": _one_hot(state._penalty // 2, 5),
            "direction": (state._dir == 1).astype(jnp.float32)[None],
            "deciding_drawn": (running & (state._drawn >= 0)).astype(jnp.float32)[None],
            "to_move": jnp.where(running, _one_hot((to_move - seat) % n, n), 0.0),
            "discard": _flags(discard),
            "draw_pile": (state._pile / SCALE)[None],
            "discard_pile": (state._ndisc / SCALE)[None],
            "progress": _ratio(jnp.minimum(state._moves, state._opts[_MOVE_LIMIT]), state._opts[_MOVE_LIMIT])[None],
            "options": state._opts[:4].astype(jnp.float32),
        }
        counts = _popcount(state._hands)
        for k in range(1, n):
            s = (seat + k) % n
            parts[f"rival{k}.count"] = (counts[s] / SCALE)[None]
            parts[f"rival{k}.last_move"] = _one_hot(state._last[s], len(LAST_MOVE_KINDS))
            parts[f"rival{k}.lacked"] = _flags(state._lacked[s])
            parts[f"rival{k}.received_since"] = jnp.minimum(1.0, state._received[s] / SCALE)[None]
        for name, _, size, _ in self._fields:
            assert parts[name].shape == (size,), name
        return jnp.concatenate([parts[name] for name, _, _, _ in self._fields]).astype(jnp.float32)
