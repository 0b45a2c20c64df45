"""A compiled Aus die Maus! that plays exactly the games of ``mauseloch.games.ausdiemaus``.

Same seeded deal (SplitMix64, ``derive_seed(seed, STREAM_DEAL)``, the engine's Fisher-Yates over the
canonical deck order), same deal to the stacks (AM-3), same chase (AM-5..AM-8), same ends
(AM-9, AM-10) and the same exact loop detection (AM-11), so for every seed and deck
``kernel == engine``: reason, flips, cards and chips per seat. ``tests/test_ausdiemaus_kernel.py``
checks that on tens of thousands of deals; ``bench/ausdiemaus.py`` measures the speed.

Layout of a game in progress (work arrays made once per batch and reused for every game, so
no game allocates anything):

- ``flat`` (int8, ``(players + 1) * CAP``): row ``s`` is seat s's stack as a ring of ``CAP``
  cards; the last row is the discard pile, oldest card first.
- ``ht`` (uint64 per seat): the stack's length in the low 32 bits and the ring index of its top
  card (unmasked, wrapping harmlessly) in the high bits, so a flip is one add (``FLIP``: head
  + 1, length - 1) and "this stack is empty" (AM-10) a test of the low half.
- ``chips`` (int64 per seat) and ``st`` (int64 scalars: who is to move, the mode, ...).

The seeded deal is generated straight into the stacks: Fisher-Yates from the end fixes the card
at position ``i`` at step ``i``, which is written at once to its place in its seat's stack.

Loop detection (AM-11) is exact and costs nothing per flip: after each pile win the position's
fingerprint (the winner and every stack's length, one int) goes into a list that is cleared when
a chip is taken (chips only grow, so no older position can repeat, and within the list the chips
are the same). Only when the fingerprint is already in the list is the earlier position rebuilt,
by replaying the game from its start to that pile win, and compared card by card (a "check",
counted in ``st[S_CHECKS]``). With 4 or more players a check happens in well under one game in
a thousand, with 3 in about one in a hundred; with 2 players (whose fingerprint is little more
than one stack's length) in a fifth (small deck) to two fifths (full deck) of the games.

Public functions (all ``@njit(cache=True)``; card codes as in the engine: 0 cheese,
1..3 mouse with that many paws, 4 cat; reasons ``REASON_CODES``):

- ``play_deck(deck, players, chips) -> (reason, flips, cards, chips_per_seat, loop_from)``
- ``play_decks(decks, players, chips, reasons, flips, cards, chips_out)``: many deals at once
- ``deal_deck(seed, small) -> deck``: the deck ``new_game(seed=seed)`` deals
- ``simulate_range(seed, start, stop, players, small, chips)``: games ``start..stop-1`` with
  game seeds ``derive_seed(seed, i)``; arrays of reasons, flips, cards, chips
- ``play_position(...)``: play on from any position (tests and analysis)
- ``search_deals(...)``: the deal search of ``mauseloch.games.ausdiemaus.analyze``
"""

from __future__ import annotations

from mauseloch.core.seeds import STREAM_DEAL
from mauseloch.extras import needs
from mauseloch.games.ausdiemaus.rules import FULL_COUNTS, REASONS, SMALL_COUNTS
from mauseloch.kernels import rng
from mauseloch.kernels.rng import GOLDEN, LIMIT16, MAX_BELOW, RECIP16, derive_seed, mix64

with needs("sim", __name__):
    import numpy as np
    from numba import njit

CHEESE, CAT = 0, 4
M_START = 4  # the mode of the first card of a new pile (AM-8); 0 a normal turn, 1..3 a chase
RUNNING, CHIPS, EMPTY_STACK, ENDLESS = 0, 1, 2, 3
REASON_CODES = {name: i + 1 for i, name in enumerate(REASONS)}  # chips 1, empty_stack 2, endless 3
assert REASON_CODES == {"chips": CHIPS, "empty_stack": EMPTY_STACK, "endless": ENDLESS}

CAP_BITS = 7
CAP = 1 << CAP_BITS  # ring per stack and the pile's row, a power of two
MAX_CARDS = CAP - 8  # cards in a game at most: ``_take_pile`` writes up to 7 slots past a stack's end
assert sum(FULL_COUNTS) <= MAX_CARDS and CAP <= MAX_BELOW  # the draws' tables reach every bound
LIST_SIZE = 256  # fingerprints kept per chip-free stretch before the list grows

U64 = np.uint64
U0 = U64(0)
U1 = U64(1)
U2 = U64(2)
U3 = U64(3)
U4 = U64(4)
U7 = U64(7)
U8 = U64(8)
U16 = U64(16)
U32 = U64(32)
U48 = U64(48)
UBITS = U64(CAP_BITS)
UMASK = U64(CAP - 1)
U_FFFF = U64(0xFFFF)
LOW32 = U64(0xFFFFFFFF)
FLIP = U64((1 << 32) - 1)  # added to ``ht[s]``: head + 1, length - 1

FULL_DECK_IDS = np.array([c for c, k in enumerate(FULL_COUNTS) for _ in range(k)], dtype=np.int8)
SMALL_DECK_IDS = np.array([c for c, k in enumerate(SMALL_COUNTS) for _ in range(k)], dtype=np.int8)
# the same as whole uint64 words (zero padded to CAP cards), for a fast copy before every shuffle
FULL_DECK_WORDS = np.concatenate([FULL_DECK_IDS, np.zeros(CAP - FULL_DECK_IDS.size, dtype=np.int8)]).view(np.uint64)
SMALL_DECK_WORDS = np.concatenate([SMALL_DECK_IDS, np.zeros(CAP - SMALL_DECK_IDS.size, dtype=np.int8)]).view(np.uint64)

# Indices into the int64 scalar-state array of a game in progress.
(S_TO_MOVE, S_MODE, S_OWNER, S_FLIPS, S_WINS, S_CHIPS_LEFT, S_PLEN, S_REASON, S_WINNER, S_LAST_CHIP,
 S_LOOP_FROM, S_CHECKS) = range(12)  # fmt: skip
S_SIZE = 12

# How ``_flips`` stops: a stack to flip from is empty (AM-10), the flipper caught the mouse (wins
# the pile and a chip), or the mouse escaped (its owner wins the pile, no chip).
STOP_EMPTY, STOP_CAUGHT, STOP_ESCAPED = U64(0), U64(1), U64(2)


@njit(cache=True, inline="always")
def _shuffle_into(deck: np.ndarray, state: np.uint64, flat: np.ndarray, dest: np.ndarray) -> None:
    """``engine.Rng(state).shuffle(deck)`` for decks up to ``CAP`` cards, each card also written to
    ``flat[dest[i]]`` as soon as Fisher-Yates fixes it at position ``i``.

    Fisher-Yates from the end, ``j = below(i + 1)``; a bound takes 16-bit chunks of each
    SplitMix64 output, lowest first, with rejection, exactly like the engine's generator. The
    four chunks of an output are used in a row while none is rejected (a shuffle of the 90 cards
    rejects one in about one deal in 30); from the first rejection on, chunk by chunk.
    """
    i = U64(deck.shape[0] - 1)
    word = U0
    chunks = 0
    while i >= U4:
        state = state + GOLDEN
        x = mix64(state)
        v0 = x & U_FFFF
        v1 = (x >> U16) & U_FFFF
        v2 = (x >> U32) & U_FFFF
        v3 = x >> U48
        if (v0 < LIMIT16[i + U1]) & (v1 < LIMIT16[i]) & (v2 < LIMIT16[i - U1]) & (v3 < LIMIT16[i - U2]):
            for v in (v0, v1, v2, v3):
                n = i + U1
                j = v - ((v * RECIP16[n]) >> U32) * n
                t = deck[j]
                deck[j] = deck[i]
                deck[i] = t
                flat[dest[i]] = t
                i -= U1
        else:
            word = x
            chunks = 4
            break
    while i > U0:
        n = i + U1
        limit = LIMIT16[n]
        while True:
            if chunks == 0:
                state = state + GOLDEN
                word = mix64(state)
                chunks = 4
            v = word & U_FFFF
            word = word >> U16
            chunks -= 1
            if v < limit:
                break
        j = v - ((v * RECIP16[n]) >> U32) * n
        t = deck[j]
        deck[j] = deck[i]
        deck[i] = t
        flat[dest[i]] = t
        i -= U1
    flat[dest[0]] = deck[0]


@njit(cache=True, inline="always")
def _copy_words(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for uint64 arrays, a plain loop (numba's slice copy goes byte by byte)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(cache=True)
def deal_deck(seed: np.uint64, small: bool) -> np.ndarray:
    """The deck (top first, card codes) that ``new_game("aus-die-maus", seed=seed)`` deals."""
    deck = SMALL_DECK_IDS.copy() if small else FULL_DECK_IDS.copy()
    dest = np.zeros(deck.shape[0], dtype=np.uint64)
    _shuffle_into(deck, derive_seed(seed, U64(STREAM_DEAL)), np.empty(1, dtype=np.int8), dest)
    return deck


# --------------------------------------------------------------------------- set-up


@njit(cache=True)
def deal_places(players: int, size: int) -> np.ndarray:
    """AM-3 as places in ``flat``: card ``i`` of a deck of ``size`` cards (top first) goes there.

    One card at a time to seats 0..n-1 until one is left, each on top of its seat's stack, so the
    last card dealt to a seat is its top (ring index 0); the card left over starts the pile.
    """
    m = size - 1
    dest = np.empty(size, dtype=np.uint64)
    for i in range(m):
        s = i % players
        count = (m - s + players - 1) // players  # cards seat s gets
        dest[i] = s * CAP + count - 1 - i // players
    dest[m] = players * CAP  # the pile's first card
    return dest


@njit(cache=True, inline="always")
def _start(players: int, size: int, chips_total: int, ht: np.ndarray, chips: np.ndarray, st: np.ndarray) -> None:
    """Everything of a new game but the cards: stack lengths, chips, seat 0 to move (AM-1)."""
    m = size - 1
    for s in range(players):
        ht[s] = U64((m - s + players - 1) // players)  # head 0
        chips[s] = 0
    st[S_TO_MOVE] = 0
    st[S_MODE] = 0
    st[S_OWNER] = 0
    st[S_FLIPS] = 0
    st[S_WINS] = 0
    st[S_CHIPS_LEFT] = chips_total
    st[S_PLEN] = 1  # the start card has no effect (AM-3)
    st[S_REASON] = RUNNING
    st[S_WINNER] = -1
    st[S_LAST_CHIP] = 0
    st[S_LOOP_FROM] = -1
    st[S_CHECKS] = 0


@njit(cache=True)
def _setup(
    deck: np.ndarray, players: int, chips_total: int, flat: np.ndarray, ht: np.ndarray, chips: np.ndarray,
    st: np.ndarray,
) -> None:  # fmt: skip
    """AM-3: deal ``deck`` (top first) into the work arrays."""
    m = deck.shape[0] - 1
    for s in range(players):
        count = (m - s + players - 1) // players
        for k in range(count):  # the last card dealt to s is its top
            flat[s * CAP + k] = deck[s + (count - 1 - k) * players]
    flat[players * CAP] = deck[m]
    _start(players, deck.shape[0], chips_total, ht, chips, st)


# --------------------------------------------------------------------------- the rules


@njit(cache=True, inline="always")
def _flips(
    flat: np.ndarray, ht: np.ndarray, pbase: np.uint64, un: np.uint64,
    p: np.uint64, mode: np.uint64, owner: np.uint64, plen: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:  # fmt: skip
    """Flip until a pile is won or a stack is empty: ``(p, mode, owner, plen, stop)``.

    ``p`` is to move (seats ``0..un-1``), ``mode`` 0 a normal turn, 1..3 a chase with that many
    attempts left (``owner`` owns the mouse), ``M_START`` the first card of a new pile; the pile
    is ``flat[pbase:pbase + plen]``. ``stop`` is ``STOP_EMPTY`` (``p`` has to flip from an empty
    stack), ``STOP_CAUGHT`` (``p`` flipped a cat in a chase) or ``STOP_ESCAPED`` (``p`` flipped
    the cheese that used the last attempt). Branches, not a transition table: on a normal turn
    the next seat moves whatever the card, so the processor runs ahead to its stack while it
    still checks for a mouse.
    """
    if mode == U64(M_START):  # AM-8: the start card has no effect
        x = ht[p]
        if (x & LOW32) == U0:  # AM-10
            return p, mode, owner, plen, STOP_EMPTY
        flat[pbase + plen] = flat[(p << UBITS) | ((x >> U32) & UMASK)]
        ht[p] = x + FLIP
        plen += U1
        p += U1
        if p == un:
            p = U0
        mode = U0
    while True:
        if mode == U0:  # AM-4: normal turns until a mouse
            while True:
                x = ht[p]
                if (x & LOW32) == U0:  # AM-10
                    return p, mode, owner, plen, STOP_EMPTY
                c = U64(flat[(p << UBITS) | ((x >> U32) & UMASK)])
                ht[p] = x + FLIP
                flat[pbase + plen] = c
                plen += U1
                q = p + U1
                if q == un:
                    q = U0
                if c - U1 < U3:  # AM-5: a mouse, the next seat chases it
                    owner = p
                    mode = c
                    p = q
                    break
                p = q
        x = ht[p]  # AM-6: the chaser flips
        if (x & LOW32) == U0:  # AM-10
            return p, mode, owner, plen, STOP_EMPTY
        c = U64(flat[(p << UBITS) | ((x >> U32) & UMASK)])
        ht[p] = x + FLIP
        flat[pbase + plen] = c
        plen += U1
        if c - U1 < U3:  # a mouse passes the chase on at once
            owner = p
            mode = c
            p += U1
            if p == un:
                p = U0
        elif c == U64(CAT):
            return p, mode, owner, plen, STOP_CAUGHT
        else:  # cheese: one attempt used; the chaser tries again while any is left
            mode -= U1
            if mode == U0:
                return p, mode, owner, plen, STOP_ESCAPED


@njit(cache=True, inline="always")
def _take_pile(flat: np.ndarray, ht: np.ndarray, pbase: np.uint64, w: np.uint64, plen: np.uint64) -> None:
    """AM-7: the pile goes under ``w``'s stack, the oldest card first.

    Eight cards at a time (a fixed-length inner loop: the processor need not guess where the copy
    ends card by card). Up to seven slots past the stack's new end get stale pile slots; they are
    free, since a stack holds at most ``MAX_CARDS = CAP - 8`` cards, and are never read before
    a later win overwrites them.
    """
    x = ht[w]
    tail = (x >> U32) + (x & LOW32)
    wbase = w << UBITS
    i = U0
    while True:
        for k in range(8):
            flat[wbase | ((tail + i + U64(k)) & UMASK)] = flat[pbase + i + U64(k)]
        i += U8
        if i >= plen:
            break
    ht[w] = x + plen


# --------------------------------------------------------------------------- AM-11


@njit(cache=True)
def _replay(players: int, flat: np.ndarray, ht: np.ndarray, chips: np.ndarray, st: np.ndarray, wins: int) -> None:
    """Play on without loop detection until ``wins`` piles have been won (the game gets there)."""
    un = U64(players)
    pbase = un << UBITS
    p = U64(st[S_TO_MOVE])
    mode = U64(st[S_MODE])
    owner = U64(st[S_OWNER])
    plen = U64(st[S_PLEN])
    w = U64(st[S_WINNER])
    for _ in range(wins - st[S_WINS]):
        p, mode, owner, plen, stop = _flips(flat, ht, pbase, un, p, mode, owner, plen)
        w = p if stop == STOP_CAUGHT else owner
        _take_pile(flat, ht, pbase, w, plen)
        if stop == STOP_CAUGHT:
            chips[w] += 1
        plen = U0
        p = w
        mode = U64(M_START)
    st[S_WINS] = wins
    st[S_WINNER] = np.int64(w)


@njit(cache=True)
def _same_position(
    deck: np.ndarray, players: int, chips_total: int,
    init_flat: np.ndarray, init_ht: np.ndarray, init_chips: np.ndarray, init_st: np.ndarray,
    wins: int, flat: np.ndarray, ht: np.ndarray, chips: np.ndarray, winner: int | np.int64,
    flat2: np.ndarray, ht2: np.ndarray, chips2: np.ndarray, st2: np.ndarray,
) -> bool:  # fmt: skip
    """A fingerprint hit: is the position right after pile win number ``wins`` the one in
    ``flat, ht, chips`` (won by ``winner``)? The game is replayed from its start in the ``*2``
    arrays: the deal of ``deck``, or when ``deck`` is empty the ``init_*`` position."""
    if deck.shape[0] > 0:
        _setup(deck, players, chips_total, flat2, ht2, chips2, st2)
    else:
        flat2[:] = init_flat
        ht2[:] = init_ht
        chips2[:] = init_chips
        st2[:] = init_st
    _replay(players, flat2, ht2, chips2, st2, wins)
    if st2[S_WINNER] != winner:
        return False
    for s in range(players):
        if ht2[s] & LOW32 != ht[s] & LOW32 or chips2[s] != chips[s]:
            return False
    for s in range(players):
        base = U64(s) << UBITS
        h = ht[s] >> U32
        h2 = ht2[s] >> U32
        for k in range(ht[s] & LOW32):
            if flat2[base | ((h2 + k) & UMASK)] != flat[base | ((h + k) & UMASK)]:
                return False
    return True


@njit(cache=True, inline="always")
def _play(
    deck: np.ndarray, players: int, chips_total: int,
    init_flat: np.ndarray, init_ht: np.ndarray, init_chips: np.ndarray, init_st: np.ndarray,
    flat: np.ndarray, ht: np.ndarray, chips: np.ndarray, st: np.ndarray, lists: np.ndarray,
    flat2: np.ndarray, ht2: np.ndarray, chips2: np.ndarray, st2: np.ndarray,
) -> bool:  # fmt: skip
    """Play the game in the work arrays to its end with AM-11.

    Afterwards ``st`` holds the reason, the flips and, for an endless game, ``st[S_LOOP_FROM]``:
    the flip count when the repeated position first occurred. False when the fingerprint list
    ``lists`` (rows: fingerprints, their win numbers, their flip counts) ran out of room: the
    game must be played again from its start with a longer one. ``deck`` (or, when it is empty,
    the ``init_*`` arrays) is where the game started; a check replays it from there in the
    ``*2`` arrays.
    """
    un = U64(players)
    pbase = un << UBITS
    p = U64(st[S_TO_MOVE])
    mode = U64(st[S_MODE])
    owner = U64(st[S_OWNER])
    plen = U64(st[S_PLEN])
    flips = st[S_FLIPS]
    wins = st[S_WINS]
    left = st[S_CHIPS_LEFT]
    last_chip = st[S_LAST_CHIP]
    checks = st[S_CHECKS]
    keys = lists[0]
    key_wins = lists[1]
    key_flips = lists[2]
    room = lists.shape[1]
    nh = 0
    reason = RUNNING
    loop_from = -1
    ok = True
    w = U64(st[S_WINNER])
    while True:
        before = plen
        p, mode, owner, plen, stop = _flips(flat, ht, pbase, un, p, mode, owner, plen)
        flips += np.int64(plen - before)
        if stop == STOP_EMPTY:
            reason = EMPTY_STACK
            break
        chip = stop == STOP_CAUGHT
        w = p if chip else owner
        _take_pile(flat, ht, pbase, w, plen)  # AM-7
        plen = U0
        wins += 1
        p = w
        mode = U64(M_START)  # AM-8: the winner starts the new pile
        if chip:
            chips[w] += 1
            left -= 1
            last_chip = flips
            if left == 0:  # AM-9 comes before AM-11
                reason = CHIPS
                mode = U0
                break
            nh = 0  # chips changed: no earlier position can come back
        # AM-11: the position right after the win against the earlier ones since the last chip
        key = w
        for s in range(players):
            key = (key << U7) | (ht[s] & LOW32)
        ik = np.int64(key)
        for k in range(nh):
            if keys[k] == ik:
                checks += 1
                if _same_position(
                    deck, players, chips_total, init_flat, init_ht, init_chips, init_st, key_wins[k],
                    flat, ht, chips, np.int64(w), flat2, ht2, chips2, st2,
                ):  # fmt: skip
                    reason = ENDLESS
                    loop_from = key_flips[k]
                    break
        if reason == ENDLESS:
            break
        if nh == room:
            ok = False
            break
        keys[nh] = ik
        key_wins[nh] = wins
        key_flips[nh] = flips
        nh += 1
    st[S_TO_MOVE] = np.int64(p)
    st[S_MODE] = np.int64(mode)
    st[S_OWNER] = np.int64(owner)
    st[S_PLEN] = np.int64(plen)
    st[S_FLIPS] = flips
    st[S_WINS] = wins
    st[S_CHIPS_LEFT] = left
    st[S_LAST_CHIP] = last_chip
    st[S_REASON] = reason
    st[S_WINNER] = np.int64(w)
    st[S_LOOP_FROM] = loop_from
    st[S_CHECKS] = checks
    return ok


# --------------------------------------------------------------------------- whole games


@njit(cache=True)
def new_work(players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays for a game of ``players``: ``(flat, ht, chips, st)``."""
    return (
        np.zeros((players + 1) * CAP, dtype=np.int8), np.zeros(players, dtype=np.uint64),
        np.zeros(players, dtype=np.int64), np.zeros(S_SIZE, dtype=np.int64),
    )  # fmt: skip


@njit(cache=True)
def play_deck_into(
    deck: np.ndarray, players: int, chips_total: int,
    flat: np.ndarray, ht: np.ndarray, chips: np.ndarray, st: np.ndarray, lists: np.ndarray,
    flat2: np.ndarray, ht2: np.ndarray, chips2: np.ndarray, st2: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Deal ``deck`` and play it to the end in the work arrays (``new_work``; ``lists`` a
    ``(3, room)`` int64 array); returns the fingerprint list to reuse (longer when a game needed
    more room)."""
    while True:
        _setup(deck, players, chips_total, flat, ht, chips, st)
        if _play(
            deck, players, chips_total, flat2[:0], ht2[:0], chips2[:0], st2[:0],
            flat, ht, chips, st, lists, flat2, ht2, chips2, st2,
        ):  # fmt: skip
            return lists
        lists = np.empty((3, 2 * lists.shape[1]), dtype=np.int64)


@njit(cache=True)
def play_deck(deck: np.ndarray, players: int, chips_total: int) -> tuple[int, int, np.ndarray, np.ndarray, int]:
    """Play one deal (card codes, top first): ``(reason, flips, cards, chips, loop_from)``."""
    flat, ht, chips, st = new_work(players)
    flat2, ht2, chips2, st2 = new_work(players)
    lists = np.empty((3, LIST_SIZE), dtype=np.int64)
    play_deck_into(deck, players, chips_total, flat, ht, chips, st, lists, flat2, ht2, chips2, st2)
    return st[S_REASON], st[S_FLIPS], (ht & LOW32).astype(np.int64), chips, st[S_LOOP_FROM]


@njit(cache=True)
def play_decks(
    decks: np.ndarray, players: int, chips_total: int,
    reasons: np.ndarray, flips: np.ndarray, cards: np.ndarray, chips_out: np.ndarray,
) -> None:  # fmt: skip
    """Play every row of ``decks``; results into the output arrays (row i = game i)."""
    flat, ht, chips, st = new_work(players)
    flat2, ht2, chips2, st2 = new_work(players)
    lists = np.empty((3, LIST_SIZE), dtype=np.int64)
    for g in range(decks.shape[0]):
        lists = play_deck_into(decks[g], players, chips_total, flat, ht, chips, st, lists, flat2, ht2, chips2, st2)
        reasons[g] = st[S_REASON]
        flips[g] = st[S_FLIPS]
        for s in range(players):
            cards[g, s] = ht[s] & LOW32
            chips_out[g, s] = chips[s]


@njit(cache=True)
def simulate_range(
    seed: np.uint64, start: int, stop: int, players: int, small: bool, chips_total: int, room: int = LIST_SIZE,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Games ``start..stop-1`` of a simulation: game i is ``new_game(seed=derive_seed(seed, i))``.

    Returns ``(reasons, flips, cards, chips)``, row ``i - start`` for game ``i``. ``room``: the
    fingerprint list's first length (tests make it tiny so that it has to grow).
    """
    g = stop - start
    reasons = np.empty(g, dtype=np.int8)
    flips = np.empty(g, dtype=np.int32)
    cards = np.empty((g, players), dtype=np.int16)
    chips_out = np.empty((g, players), dtype=np.int16)
    size = SMALL_DECK_IDS.shape[0] if small else FULL_DECK_IDS.shape[0]
    base = SMALL_DECK_WORDS if small else FULL_DECK_WORDS
    words = (size + 7) // 8
    deck_words = np.zeros(CAP // 8, dtype=np.uint64)
    deck = deck_words.view(np.int8)[:size]
    dest = deal_places(players, size)
    flat, ht, chips, st = new_work(players)
    flat2, ht2, chips2, st2 = new_work(players)
    lists = np.empty((3, room), dtype=np.int64)
    for r in range(g):
        _copy_words(deck_words[:words], base[:words])
        _shuffle_into(deck, derive_seed(derive_seed(seed, U64(start + r)), U64(STREAM_DEAL)), flat, dest)
        _start(players, size, chips_total, ht, chips, st)
        if not _play(
            deck, players, chips_total, flat2[:0], ht2[:0], chips2[:0], st2[:0],
            flat, ht, chips, st, lists, flat2, ht2, chips2, st2,
        ):  # fmt: skip
            lists = np.empty((3, 2 * lists.shape[1]), dtype=np.int64)
            lists = play_deck_into(deck, players, chips_total, flat, ht, chips, st, lists, flat2, ht2, chips2, st2)
        reasons[r] = st[S_REASON]
        flips[r] = st[S_FLIPS]
        for s in range(players):
            cards[r, s] = ht[s] & LOW32
            chips_out[r, s] = chips[s]
    return reasons, flips, cards, chips_out


@njit(cache=True)
def play_position(
    stacks: np.ndarray, sizes: np.ndarray, pile: np.ndarray, chips: np.ndarray,
    to_move: int, mode: int, owner: int, chips_left: int,
) -> tuple[int, int, np.ndarray, np.ndarray, int]:  # fmt: skip
    """Play on from any position (tests and analysis): ``(reason, flips, cards, chips, loop_from)``.

    ``stacks[s, :sizes[s]]`` is seat s's stack, top first; ``pile`` the face-up pile, oldest
    first; ``mode`` 0 a normal turn, 1..3 a chase with that many attempts left (``owner`` owns
    the mouse), 4 the first card of a new pile (AM-8). Flips count from this position. At most
    ``MAX_CARDS`` cards in all and 8 seats (the AM-11 fingerprint has room for no more).
    """
    players = stacks.shape[0]
    assert sizes.sum() + pile.shape[0] <= MAX_CARDS and players <= 8
    flat0, ht0, chips0, st0 = new_work(players)
    for s in range(players):
        ht0[s] = U64(sizes[s])  # head 0
        for k in range(sizes[s]):
            flat0[s * CAP + k] = stacks[s, k]
        chips0[s] = chips[s]
    for k in range(pile.shape[0]):
        flat0[players * CAP + k] = pile[k]
    st0[S_TO_MOVE] = to_move
    st0[S_MODE] = mode
    st0[S_OWNER] = owner
    st0[S_CHIPS_LEFT] = chips_left
    st0[S_PLEN] = pile.shape[0]
    st0[S_REASON] = RUNNING
    st0[S_WINNER] = 0
    st0[S_LOOP_FROM] = -1
    flat, ht, chips1, st = new_work(players)
    flat2, ht2, chips2, st2 = new_work(players)
    lists = np.empty((3, 4), dtype=np.int64)
    while True:
        flat[:] = flat0
        ht[:] = ht0
        chips1[:] = chips0
        st[:] = st0
        if _play(
            flat0[:0], players, chips_left, flat0, ht0, chips0, st0,
            flat, ht, chips1, st, lists, flat2, ht2, chips2, st2,
        ):  # fmt: skip
            return st[S_REASON], st[S_FLIPS], (ht & LOW32).astype(np.int64), chips1, st[S_LOOP_FROM]
        lists = np.empty((3, 2 * lists.shape[1]), dtype=np.int64)


# --------------------------------------------------------------------------- deal search (analyze)

SEARCH_LONGEST, SEARCH_ENDLESS = 0, 1


@njit(cache=True)
def _rand_below(rng: np.ndarray, n: int) -> int:
    """A search's own SplitMix64 stream (``rng[0]`` is its state); slight modulo bias is fine here."""
    rng[0] = rng[0] + GOLDEN
    return int(np.int64(mix64(rng[0]) % U64(n)))


@njit(cache=True)
def search_deals(
    players: int, chips_total: int, mode: int, iterations: int, stall_limit: int,
    rng: np.ndarray, cur: np.ndarray, state: np.ndarray,
    best: np.ndarray, found: np.ndarray, found_info: np.ndarray,
) -> None:  # fmt: skip
    """Hill-climb over deals: random restarts, then swap two cards and keep the swap if the game
    gets no shorter; restart after ``stall_limit`` swaps without a gain.

    ``cur`` is the current deal; ``state`` = [current score (-1: restart), swaps since the last
    gain, best score, deals played, endless deals found]. Mode ``SEARCH_LONGEST`` scores a deal
    by its flips when it ends (an endless one scores -1: it has no length); the best deal goes
    to ``best``. Mode ``SEARCH_ENDLESS`` scores a deal by the flips since the last chip was
    taken (a loop never takes a chip, so long chip-free stretches are close to loops), and
    every endless deal goes into the next free row of ``found`` (with ``found_info`` =
    flips to the repeat, the flip count at the repeated position's first occurrence), after
    which it restarts. Resumable: call again with the same arrays to go on.
    """
    m = cur.shape[0]
    flat, ht, chips, st = new_work(players)
    flat2, ht2, chips2, st2 = new_work(players)
    lists = np.empty((3, LIST_SIZE), dtype=np.int64)
    for _ in range(iterations):
        i = -1
        j = -1
        if state[0] < 0 or state[1] >= stall_limit:
            for k in range(m - 1, 0, -1):  # a fresh random deal
                r = _rand_below(rng, k + 1)
                t = cur[k]
                cur[k] = cur[r]
                cur[r] = t
            state[0] = -1
            state[1] = 0
        else:
            i = _rand_below(rng, m)
            j = _rand_below(rng, m)
            while cur[j] == cur[i]:
                j = _rand_below(rng, m)
            t = cur[i]
            cur[i] = cur[j]
            cur[j] = t
        lists = play_deck_into(cur, players, chips_total, flat, ht, chips, st, lists, flat2, ht2, chips2, st2)
        state[3] += 1
        endless = st[S_REASON] == ENDLESS
        flips = st[S_FLIPS]
        if endless:
            score = -1
        elif mode == SEARCH_LONGEST:
            score = flips
        else:  # a loop takes no chip: climb towards long stretches without one
            score = flips - st[S_LAST_CHIP]
        if endless and mode == SEARCH_ENDLESS:
            n = state[4]
            if n < found.shape[0]:
                found[n, :] = cur
                found_info[n, 0] = flips
                found_info[n, 1] = st[S_LOOP_FROM]
            state[4] = n + 1
            state[0] = -1  # look elsewhere
            state[1] = 0
            continue
        if i < 0 or score >= state[0]:
            state[1] = 0 if score > state[0] else state[1] + 1
            state[0] = score
        else:  # worse: undo the swap
            t = cur[i]
            cur[i] = cur[j]
            cur[j] = t
            state[1] += 1
        if score > state[2]:
            state[2] = score
            best[:] = cur


def needs_compiling(kernel: object = None) -> bool:
    """True when calling ``kernel`` (default ``simulate_range``) will compile it, taking seconds
    (:func:`mauseloch.kernels.rng.needs_compiling`)."""
    return rng.needs_compiling(simulate_range if kernel is None else kernel)
