"""One Mau-Mau game on the compiled kernel, with its public log: what ``maumau_v0`` steps.

A learner's step through the Python engine costs more than the move itself (the observation,
the mask, the turn protocol); here a game is one int64 array that two compiled calls work on:
:func:`play` (a move: the kernel's own ``apply``, the same function ``MauMauBatch`` steps with,
and the public log's ``note_move``) and :func:`observe` (the vector through ``maumau_obs._encode``,
the one encoder, and the key of the seat's action mask). ``maumau_v0`` calls them joined:
:func:`play_observe` (a move and the next seat's vector) and :func:`start_observe` (a deal and
the first vector), through :func:`direct` entry points. The kernel plays exactly the engine's
games (``tests/test_maumau_kernel.py``); ``tests/test_envs.py`` compares the environment's games
with the engine's step by step.

Layout of the state array (int64): the kernel's ``ints`` row, its ``cards`` row, its option
array, the log (``last``, ``lacked``, ``received`` per seat), then the encoder's field starts
and option flags, and the kernel's generators (read as uint64). One array: each array passed to a
compiled function costs as much as the function's own work.
"""

from __future__ import annotations

from typing import Any

from mauseloch.core.shapes import Options
from mauseloch.extras import needs
from mauseloch.games.maumau import CARD_ID, JACK
from mauseloch.games.maumau import kernel as k
from mauseloch.games.maumau.envs.obs import _OPTION_NAMES, LAST_NONE, _encode, _layout, note_move
from mauseloch.games.maumau.views import MauMauResult

with needs("rl", __name__):
    import numpy as np
    from numba import njit

ST_INTS = 0
ST_CARDS = ST_INTS + k.N_INTS
ST_OPTS = ST_CARDS + 64
ST_LAST = ST_OPTS + 6
ST_LACKED = ST_LAST + k.MAX_PLAYERS
ST_RECEIVED = ST_LACKED + k.MAX_PLAYERS
ST_AT = ST_RECEIVED + k.MAX_PLAYERS  # the encoder's field starts (``maumau_obs._layout``)
ST_OPTION_FLAGS = ST_AT + 13
ST_RNGS = ST_OPTION_FLAGS + 1  # the kernel's generators (uint64, seen through a view)
ST_SIZE = ST_RNGS + k.N_RNGS

OVER = -1  # play(): the game ended with this move
ILLEGAL = -2  # play(): not a legal action id now; nothing changed
SEAT_BITS = 3  # play_observe(): the seat to move in the low bits, the mask key above


@njit(cache=True)
def start(st: np.ndarray, game_seed: np.uint64, deck: bool) -> int:
    """Deal the game with seed ``game_seed`` (from the deck of card ids already in the discard
    area of ``cards`` if ``deck``) and clear the log; the seat to move."""
    ints = st[ST_INTS:ST_CARDS]
    cards = st[ST_CARDS:ST_OPTS]
    opts = st[ST_OPTS:ST_LAST]
    rngs = st[ST_RNGS:ST_SIZE].view(np.uint64)
    if deck:
        k.deal_deck(ints, cards, rngs, game_seed, opts)
    else:
        k.deal_seeded(ints, cards, rngs, game_seed, opts)
    for s in range(k.MAX_PLAYERS):
        st[ST_LAST + s] = LAST_NONE
        st[ST_LACKED + s] = 0
        st[ST_RECEIVED + s] = 0
    return ints[k.I_TO_MOVE]


@njit(cache=True)
def play(st: np.ndarray, action: int) -> int:
    """Play action id ``action`` for the seat to move and log what everyone saw: the next seat
    to move, ``OVER`` when the game ended, or ``ILLEGAL`` (nothing changed)."""
    ints = st[ST_INTS:ST_CARDS]
    if not k.is_legal(ints, action):  # also an id out of range, or a game already over
        return ILLEGAL
    actor = ints[k.I_TO_MOVE]
    drew_before = ints[k.I_DRAWN] >= 0
    fit = ints[k.I_FIT]
    before = ints[k.I_COUNTS + actor]
    k.apply(ints, st[ST_CARDS:ST_OPTS], st[ST_RNGS:ST_SIZE].view(np.uint64), action, st[ST_OPTS:ST_LAST])
    note_move(
        st[ST_LAST:ST_LACKED], st[ST_LACKED:ST_RECEIVED], st[ST_RECEIVED:ST_AT], actor, action, drew_before, fit,
        ints[k.I_COUNTS + actor] - before,
    )  # fmt: skip
    if ints[k.I_OVER]:
        return OVER
    return ints[k.I_TO_MOVE]


@njit(cache=True)
def observe(st: np.ndarray, obs: np.ndarray, seat: int) -> int:
    """``seat``'s observation vector into the zeros ``obs``; returns the key of its action mask
    (``mask_of``): 0 when it is not the seat's turn (or the game is over)."""
    ints = st[ST_INTS:ST_CARDS]
    cards = st[ST_CARDS:ST_OPTS]
    n = st[ST_OPTS + k.O_PLAYERS]
    to_move = ints[k.I_TO_MOVE]  # -1 once over
    disc = ints[k.I_DISC]
    discard = 0
    for i in range(disc):
        discard |= 1 << cards[k.DISC + i]
    progress = min(1.0, ints[k.I_MOVES] / st[ST_OPTS + k.O_MOVE_LIMIT])
    _encode(
        obs, st[ST_AT:ST_OPTION_FLAGS], st[ST_OPTION_FLAGS], seat, ints[k.I_HANDS + seat], ints[k.I_TOP],
        ints[k.I_WISH], ints[k.I_PENALTY], ints[k.I_DIR], ints[k.I_DRAWN] >= 0, to_move, discard, ints[k.I_PILE],
        disc, progress, ints[k.I_HANDS : k.I_HANDS + n], st[ST_LAST : ST_LAST + n], st[ST_LACKED : ST_LACKED + n],
        st[ST_RECEIVED : ST_RECEIVED + n],
    )  # fmt: skip
    if seat != to_move:
        return 0
    bits, other = k._legal(ints)
    return bits | ((other + 1) << 32)  # there is always a legal move: never 0


@njit(cache=True)
def play_observe(st: np.ndarray, action: int, obs: np.ndarray) -> int:
    """:func:`play`, then the vector of the seat to move into the zeros ``obs`` (what a learner
    asks for next): ``key << SEAT_BITS | seat`` with the key of its mask; else ``OVER`` or
    ``ILLEGAL`` (nothing changed, nothing written)."""
    to_move = play(st, action)
    if to_move < 0:
        return to_move
    return observe(st, obs, to_move) << SEAT_BITS | to_move


def direct(fn: Any, *example: Any) -> Any:
    """The machine-code entry of ``fn`` for arguments typed like ``example`` (compiled now, or
    loaded from numba's cache): the same function without the dispatcher's look-up of the
    argument types, which costs more than ``observe``'s own work. The callers pass exactly
    those types (an int too large for int64 raises ``OverflowError``)."""
    fn(*example)
    try:
        entry = fn.overloads[tuple(fn.typeof_pyval(a) for a in example)].entry_point
    except (AttributeError, KeyError):  # another numba: the dispatcher it is
        return fn
    return entry


@njit(cache=True)
def mask_of(key: int) -> np.ndarray:
    """The action mask (int8 over the 47 ids) a key of :func:`observe` stands for: the card ids
    that may be played (a jack for each of its four wishes) and the one other action, if any."""
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    bits, other = key & 0xFFFFFFFF, (key >> 32) - 1
    for c in range(32):
        if bits >> c & 1:
            a = k.CARD_ACTION[c]
            for w in range(4 if c & 7 == JACK else 1):
                mask[a + w] = 1
    if other >= 0:
        mask[other] = 1
    return mask


@njit(cache=True)
def start_observe(st: np.ndarray, game_seed: np.uint64, deck: bool, obs: np.ndarray) -> int:
    """:func:`start`, then the vector of the seat to move into ``obs``: as :func:`play_observe`."""
    to_move = start(st, game_seed, deck)
    return observe(st, obs, to_move) << SEAT_BITS | to_move


@njit(cache=True)
def outcome(st: np.ndarray, out: np.ndarray) -> None:
    """The ended game's reason code and, per seat, rank, cards and points into ``out``
    (``1 + 3 * MAX_PLAYERS`` entries; MM-16)."""
    ints = st[ST_INTS:ST_CARDS]
    m = k.MAX_PLAYERS
    out[0] = ints[k.I_OVER]
    k.result(ints, st[ST_OPTS + k.O_PLAYERS], out[1 : 1 + m], out[1 + m : 1 + 2 * m], out[1 + 2 * m : 1 + 3 * m])


def new_state(players: int, options: Options) -> np.ndarray:
    """The state array for ``players`` seats under checked ``options`` (dealt by :func:`start`)."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    st[ST_OPTS:ST_LAST] = k.options_array(players, options)
    st[ST_AT:ST_OPTION_FLAGS] = _layout(players)
    st[ST_OPTION_FLAGS] = sum(1 << i for i, name in enumerate(_OPTION_NAMES) if options[name])
    return st


def put_deck(st: np.ndarray, deck: list[str]) -> None:
    """A checked deck (card strings in dealing order) where :func:`start` deals it from."""
    base = ST_CARDS + k.DISC
    st[base : base + 32] = [CARD_ID[c] for c in deck]


def result(out: list[int], players: int) -> MauMauResult:
    """``game.typed_result()`` of the ended game from :func:`outcome`'s ``out`` (as a list)."""
    m = k.MAX_PLAYERS
    return MauMauResult(
        reason=k.REASONS[out[0] - 1],
        ranks=out[1 : 1 + players],
        cards=out[1 + m : 1 + m + players],
        points=out[1 + 2 * m : 1 + 2 * m + players],
    )
