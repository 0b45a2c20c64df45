"""A compiled Aus die Maus! that plays exactly the games of ``mauseloch.games.ausdiemaus``.

Same seeded deal (SplitMix64, ``derive_seed(seed, 1)``, the engine's Fisher-Yates over the
canonical deck order), same deal to the stacks (AM-3), same chase (AM-5..AM-8), same ends
(AM-9, AM-10) and the same exact loop detection (AM-11), so for every seed and deck
``kernel == engine``: reason, flips, cards and chips per seat. ``tests/test_ausdiemaus_kernel.py``
checks that on tens of thousands of deals; ``bench/ausdiemaus.py`` measures the speed.

Loop detection without copying every position: each stack keeps a polynomial hash that is
updated in O(1) per flip (pop the top: subtract and multiply by the inverse of the odd base mod
2**64; put a card under: add ``card * B**len``). After each pile win the position hash goes into
a list (cleared when a chip is taken: chips only grow, so no older position can repeat). On a
hash hit the earlier position is rebuilt by replaying the deal up to that pile win and compared
card by card, so the answer is exact, not probabilistic.

Public functions (all ``@njit(cache=True)``; card codes as in the engine: 0 cheese,
1..3 mouse with that many paws, 4 cat; reasons ``REASON_CODES``):

- ``play_deck(deck, players, chips) -> (reason, flips, cards, chips_per_seat, loop_from)``
- ``deal_deck(seed, small) -> deck``: the deck ``new_game(seed=seed)`` deals
- ``simulate_range(seed, start, stop, players, small, chips)``: games ``start..stop-1`` with
  game seeds ``derive_seed(seed, i)``; arrays of reasons, flips, cards, chips
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.ausdiemaus import FULL_COUNTS, REASONS, SMALL_COUNTS

CHEESE, CAT = 0, 4
NORMAL = 0
RUNNING, CHIPS, EMPTY_STACK, ENDLESS = 0, 1, 2, 3
FULL = -2
REASON_CODES = {name: i + 1 for i, name in enumerate(REASONS)}  # chips 1, empty_stack 2, endless 3
assert REASON_CODES == {"chips": CHIPS, "empty_stack": EMPTY_STACK, "endless": ENDLESS}

CAP_BITS = 7
CAP = 1 << CAP_BITS  # ring buffer per stack (>= 90 cards), a power of two
MASK = CAP - 1

U64 = np.uint64
GOLDEN = U64(0x9E3779B97F4A7C15)
MIX1 = U64(0xBF58476D1CE4E5B9)
MIX2 = U64(0x94D049BB133111EB)
STREAM = U64(0x632BE59BD9B4E019)
BASE = 0x100000001B3  # odd, so invertible mod 2**64
BASE_INV = pow(BASE, -1, 1 << 64)
POW = np.array([pow(BASE, i, 1 << 64) for i in range(CAP + 1)], dtype=np.uint64)
HB = U64(BASE_INV)

FULL_DECK_IDS = np.array([c for c, k in enumerate(FULL_COUNTS) for _ in range(k)], dtype=np.int8)
SMALL_DECK_IDS = np.array([c for c, k in enumerate(SMALL_COUNTS) for _ in range(k)], dtype=np.int8)

# Indices into the int64 scalar-state array of a game in progress.
(S_TO_MOVE, S_PHASE, S_OWNER, S_ATTEMPTS, S_FLIPS, S_WINS, S_CHIPS_LEFT, S_PLEN, S_REASON, S_WINNER, S_CHIP,
 S_LAST_CHIP) = range(12)
S_SIZE = 12


# --------------------------------------------------------------------------- SplitMix64


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    x = (x ^ (x >> U64(30))) * MIX1
    x = (x ^ (x >> U64(27))) * MIX2
    return x ^ (x >> U64(31))


@njit(cache=True)
def derive_seed(seed: np.uint64, stream: np.uint64) -> np.uint64:
    """``engine.derive_seed`` in uint64 arithmetic."""
    return mix64(seed ^ mix64(stream + STREAM))


# ``65536 - 65536 % n``: the rejection limit of a 16-bit draw below n (engine.Rng.below)
LIMIT16 = np.array([0] + [65536 - 65536 % n for n in range(1, CAP + 1)], dtype=np.int64)


@njit(cache=True)
def _shuffle(deck: np.ndarray, state: np.uint64) -> np.uint64:
    """``engine.Rng(state).shuffle(deck)`` for decks up to 128 cards.

    Fisher-Yates from the end, ``j = below(i + 1)``; a bound takes 16-bit chunks of each
    SplitMix64 output, lowest first, with rejection, exactly like the engine's generator.
    """
    word = U64(0)
    chunks = 0
    for i in range(deck.shape[0] - 1, 0, -1):
        n = i + 1
        limit = LIMIT16[n]
        while True:
            if chunks == 0:
                state = state + GOLDEN
                word = mix64(state)
                chunks = 4
            v = np.int64(word & U64(0xFFFF))
            word = word >> U64(16)
            chunks -= 1
            if v < limit:
                break
        j = v % n
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    return state


@njit(cache=True)
def deal_deck(seed: np.uint64, small: bool) -> np.ndarray:
    """The deck (top first, card codes) that ``new_game("aus-die-maus", seed=seed)`` deals."""
    deck = SMALL_DECK_IDS.copy() if small else FULL_DECK_IDS.copy()
    _shuffle(deck, derive_seed(seed, U64(1)))
    return deck


# --------------------------------------------------------------------------- one game


@njit(cache=True)
def _setup(
    deck: np.ndarray, players: int, chips_total: int,
    buf: np.ndarray, head: np.ndarray, length: np.ndarray, hs: np.ndarray,
    pile: np.ndarray, chips: np.ndarray, st: np.ndarray,
) -> None:  # fmt: skip
    """AM-3: deal one card at a time to seats 0..n-1 until one is left; it starts the pile."""
    m = deck.shape[0] - 1
    for s in range(players):
        cnt = (m - s + players - 1) // players  # cards seat s gets
        head[s] = 0
        length[s] = cnt
        chips[s] = 0
        h = U64(0)
        # the last card dealt to s is its top: deck index s + (cnt-1-k)*players at depth k
        for k in range(cnt):
            c = deck[s + (cnt - 1 - k) * players]
            buf[s, k] = c
            h += U64(c + 1) * POW[k]
        hs[s] = h
    pile[0] = deck[m]
    st[S_TO_MOVE] = 0
    st[S_PHASE] = NORMAL
    st[S_OWNER] = -1
    st[S_ATTEMPTS] = 0  # unused: the mode holds the attempts left
    st[S_FLIPS] = 0
    st[S_WINS] = 0
    st[S_CHIPS_LEFT] = chips_total
    st[S_PLEN] = 1
    st[S_REASON] = RUNNING
    st[S_WINNER] = -1
    st[S_CHIP] = 0
    st[S_LAST_CHIP] = 0  # flips when the last chip was taken


def _transitions() -> np.ndarray:
    """The chase rules AM-4..AM-8 as a table: ``TABLE[mode * 5 + card]``.

    ``mode`` is 0 normal turn, 1..3 a chase with that many attempts left, 4 the first card of a
    new pile. An entry packs the next mode (bits 0-2), "the next seat moves" (bit 3), "the
    flipper becomes the mouse's owner" (bit 4) and a pile win (bits 5-6: 1 the flipper wins and
    takes a chip, 2 the owner wins without one). Branch-free lookups keep the flip loop fast.
    """
    table = np.zeros(25, dtype=np.int64)
    for mode in range(5):
        for card in range(5):
            if mode == 4:  # AM-8: the start card has no effect
                code = 0 | 8
            elif card in (1, 2, 3):  # AM-5, AM-6: a mouse starts or passes on a chase
                code = card | 8 | 16
            elif mode == 0:  # AM-4: cheese or cat on a normal turn
                code = 0 | 8
            elif card == CAT:  # AM-6: caught
                code = 1 << 5
            elif mode == 1:  # AM-6: cheese, no attempt left: the owner wins
                code = 2 << 5
            else:  # AM-6: cheese, try again
                code = mode - 1
            table[mode * 5 + card] = code
    return table


TABLE = _transitions()
M_START = 4


@njit(cache=True)
def _advance(
    players: int, buf: np.ndarray, head: np.ndarray, length: np.ndarray, hs: np.ndarray,
    pile: np.ndarray, chips: np.ndarray, st: np.ndarray,
) -> bool:  # fmt: skip
    """Flip until the game ends (False) or a pile is won and the game goes on (True).

    After a win ``st[S_WINNER]`` and ``st[S_CHIP]`` say who won and whether a chip was taken;
    the winner is to move and starts the new pile (AM-8).
    """
    # unsigned indices: numba then skips its negative-index wraparound on every access
    flat = buf.reshape(players * CAP)
    p = st[S_TO_MOVE]
    mode = st[S_PHASE]
    owner = st[S_OWNER]
    flips = st[S_FLIPS]
    plen = st[S_PLEN]
    last = players - 1
    while True:
        up = U64(p)
        if length[up] == 0:  # AM-10
            st[S_REASON] = EMPTY_STACK
            st[S_FLIPS] = flips
            st[S_PLEN] = plen
            st[S_TO_MOVE] = p
            return False
        hp = head[up]
        card = np.int64(flat[(up << U64(CAP_BITS)) | U64(hp)])
        head[up] = (hp + 1) & MASK
        length[up] -= 1
        hs[up] = (hs[up] - U64(card + 1)) * HB
        pile[U64(plen)] = card
        plen += 1
        flips += 1
        code = TABLE[U64(mode * 5 + card)]
        mode = code & 7
        owner = p if code & 16 else owner
        win = code >> 5
        if win == 0:
            if code & 8:
                p = 0 if p == last else p + 1
            continue
        # AM-7: the pile goes under the winner's stack, the oldest card first
        w = p if win == 1 else owner
        chip = 1 if win == 1 else 0
        uw = U64(w)
        hw = head[uw]
        lw = length[uw]
        h = hs[uw]
        base = uw << U64(CAP_BITS)
        for i in range(plen):
            c = pile[U64(i)]
            flat[base | U64((hw + lw) & MASK)] = c
            h += U64(c + 1) * POW[U64(lw)]
            lw += 1
        length[uw] = lw
        hs[uw] = h
        st[S_WINS] += 1
        st[S_FLIPS] = flips
        st[S_PLEN] = 0
        st[S_WINNER] = w
        st[S_CHIP] = chip
        st[S_OWNER] = -1
        st[S_TO_MOVE] = w
        if chip:
            chips[uw] += 1
            st[S_LAST_CHIP] = flips
            st[S_CHIPS_LEFT] -= 1
            if st[S_CHIPS_LEFT] == 0:  # AM-9
                st[S_REASON] = CHIPS
                st[S_PHASE] = NORMAL
                return False
        st[S_PHASE] = M_START
        return True


@njit(cache=True)
def _position_hash(players: int, length: np.ndarray, hs: np.ndarray, chips: np.ndarray, winner: int) -> np.uint64:
    h = U64(winner + 1)
    for s in range(players):
        h = (h ^ hs[s]) * MIX1 + U64(length[s]) * GOLDEN + U64(chips[s])
    return mix64(h)


@njit(cache=True)
def _same_position(
    players: int, init_buf: np.ndarray, init_head: np.ndarray, init_length: np.ndarray,
    init_hs: np.ndarray, init_pile: np.ndarray, init_chips: np.ndarray, init_st: np.ndarray,
    wins: int, buf: np.ndarray, head: np.ndarray, length: np.ndarray, chips: np.ndarray, winner: int,
) -> bool:  # fmt: skip
    """Replay from the starting position to its ``wins``-th pile win; is that the given position?"""
    buf2 = init_buf.copy()
    head2 = init_head.copy()
    length2 = init_length.copy()
    hs2 = init_hs.copy()
    pile2 = init_pile.copy()
    chips2 = init_chips.copy()
    st2 = init_st.copy()
    while st2[S_WINS] < wins:
        if not _advance(players, buf2, head2, length2, hs2, pile2, chips2, st2):
            return False
    if st2[S_WINNER] != winner:
        return False
    for s in range(players):
        if length2[s] != length[s] or chips2[s] != chips[s]:
            return False
    for s in range(players):
        for k in range(length[s]):
            if buf2[s, (head2[s] + k) & MASK] != buf[s, (head[s] + k) & MASK]:
                return False
    return True


@njit(cache=True)
def _verify(
    deck: np.ndarray, players: int, chips_total: int,
    init_buf: np.ndarray, init_head: np.ndarray, init_length: np.ndarray,
    init_hs: np.ndarray, init_pile: np.ndarray, init_chips: np.ndarray, init_st: np.ndarray,
    wins: int, buf: np.ndarray, head: np.ndarray, length: np.ndarray, chips: np.ndarray, winner: int,
) -> bool:  # fmt: skip
    """A hash hit: compare the positions card by card. The starting position is rebuilt from
    ``deck`` (the deal) or, when ``deck`` is empty, given by the ``init_*`` arrays."""
    if deck.shape[0] == 0:
        return _same_position(
            players, init_buf, init_head, init_length, init_hs, init_pile, init_chips, init_st,
            wins, buf, head, length, chips, winner,
        )  # fmt: skip
    buf0 = np.empty((players, CAP), dtype=np.int8)
    head0 = np.empty(players, dtype=np.int64)
    length0 = np.empty(players, dtype=np.int64)
    hs0 = np.empty(players, dtype=np.uint64)
    pile0 = np.empty(CAP, dtype=np.int8)
    chips0 = np.empty(players, dtype=np.int64)
    st0 = np.empty(S_SIZE, dtype=np.int64)
    _setup(deck, players, chips_total, buf0, head0, length0, hs0, pile0, chips0, st0)
    return _same_position(
        players, buf0, head0, length0, hs0, pile0, chips0, st0, wins, buf, head, length, chips, winner
    )


@njit(cache=True)
def _detect(
    deck: np.ndarray, players: int, chips_total: int,
    init_buf: np.ndarray, init_head: np.ndarray, init_length: np.ndarray,
    init_hs: np.ndarray, init_pile: np.ndarray, init_chips: np.ndarray, init_st: np.ndarray,
    buf: np.ndarray, head: np.ndarray, length: np.ndarray, hs: np.ndarray,
    pile: np.ndarray, chips: np.ndarray, st: np.ndarray,
    hashes: np.ndarray, hash_wins: np.ndarray, hash_flips: np.ndarray,
) -> int:  # fmt: skip
    """Play on from the position in the working arrays to the end, with AM-11; ``loop_from`` or -1.

    Returns ``FULL`` when the hash lists ran out of room: the caller doubles them and plays again
    from the start (rebinding arrays inside this hot loop would cost reference counting).
    """
    nh = 0
    while _advance(players, buf, head, length, hs, pile, chips, st):
        # AM-11: compare the position right after this pile win with the earlier ones
        w = st[S_WINNER]
        if st[S_CHIP]:
            nh = 0  # chips changed: no earlier position can come back
        h = _position_hash(players, length, hs, chips, w)
        for k in range(nh):
            if hashes[k] == h and _verify(
                deck, players, chips_total, init_buf, init_head, init_length, init_hs, init_pile, init_chips,
                init_st, hash_wins[k], buf, head, length, chips, w,
            ):  # fmt: skip
                st[S_REASON] = ENDLESS
                return hash_flips[k]
        if nh == hashes.shape[0]:
            return FULL
        hashes[nh] = h
        hash_wins[nh] = st[S_WINS]
        hash_flips[nh] = st[S_FLIPS]
        nh += 1
    return -1


@njit(cache=True)
def _play(
    deck: np.ndarray, players: int, chips_total: int,
    buf: np.ndarray, head: np.ndarray, length: np.ndarray, hs: np.ndarray,
    pile: np.ndarray, chips: np.ndarray, st: np.ndarray,
    hashes: np.ndarray, hash_wins: np.ndarray, hash_flips: np.ndarray,
) -> int:  # fmt: skip
    """Deal ``deck`` and play it to the end in the scratch arrays; ``loop_from``, -1 or ``FULL``."""
    _setup(deck, players, chips_total, buf, head, length, hs, pile, chips, st)
    return _detect(
        deck, players, chips_total, buf[:0], head[:0], length[:0], hs[:0], pile[:0], chips[:0], st[:0],
        buf, head, length, hs, pile, chips, st, hashes, hash_wins, hash_flips,
    )  # fmt: skip


@njit(cache=True)
def _play_grow(
    deck: np.ndarray, players: int, chips_total: int,
    buf: np.ndarray, head: np.ndarray, length: np.ndarray, hs: np.ndarray,
    pile: np.ndarray, chips: np.ndarray, st: np.ndarray, hashes: np.ndarray,
) -> tuple[int, np.ndarray]:  # fmt: skip
    """``_play`` with room to spare: ``(loop_from, the hash list to reuse)``."""
    while True:
        loop_from = _play(
            deck, players, chips_total, buf, head, length, hs, pile, chips, st,
            hashes[0], hashes[1].view(np.int64), hashes[2].view(np.int64),
        )  # fmt: skip
        if loop_from != FULL:
            return loop_from, hashes
        hashes = np.empty((3, 2 * hashes.shape[1]), dtype=np.uint64)


@njit(cache=True)
def play_deck(deck: np.ndarray, players: int, chips_total: int) -> tuple[int, int, np.ndarray, np.ndarray, int]:
    """Play one deal (card codes, top first): ``(reason, flips, cards, chips, loop_from)``."""
    buf = np.empty((players, CAP), dtype=np.int8)
    head = np.empty(players, dtype=np.int64)
    length = np.empty(players, dtype=np.int64)
    hs = np.empty(players, dtype=np.uint64)
    pile = np.empty(CAP, dtype=np.int8)
    chips = np.empty(players, dtype=np.int64)
    st = np.empty(S_SIZE, dtype=np.int64)
    hashes = np.empty((3, 256), dtype=np.uint64)
    loop_from, hashes = _play_grow(deck, players, chips_total, buf, head, length, hs, pile, chips, st, hashes)
    return st[S_REASON], st[S_FLIPS], length.copy(), chips.copy(), loop_from


@njit(cache=True)
def play_decks(
    decks: np.ndarray, players: int, chips_total: int,
    reasons: np.ndarray, flips: np.ndarray, cards: np.ndarray, chips_out: np.ndarray,
) -> None:  # fmt: skip
    """Play every row of ``decks``; results into the output arrays (row i = game i)."""
    buf = np.empty((players, CAP), dtype=np.int8)
    head = np.empty(players, dtype=np.int64)
    length = np.empty(players, dtype=np.int64)
    hs = np.empty(players, dtype=np.uint64)
    pile = np.empty(CAP, dtype=np.int8)
    chips = np.empty(players, dtype=np.int64)
    st = np.empty(S_SIZE, dtype=np.int64)
    hashes = np.empty((3, 256), dtype=np.uint64)
    for g in range(decks.shape[0]):
        _, hashes = _play_grow(decks[g], players, chips_total, buf, head, length, hs, pile, chips, st, hashes)
        reasons[g] = st[S_REASON]
        flips[g] = st[S_FLIPS]
        for s in range(players):
            cards[g, s] = length[s]
            chips_out[g, s] = chips[s]


@njit(cache=True)
def simulate_range(
    seed: np.uint64, start: int, stop: int, players: int, small: bool, chips_total: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Games ``start..stop-1`` of a simulation: game i is ``new_game(seed=derive_seed(seed, i))``.

    Returns ``(reasons, flips, cards, chips)``, row ``i - start`` for game ``i``.
    """
    g = stop - start
    reasons = np.empty(g, dtype=np.int8)
    flips = np.empty(g, dtype=np.int32)
    cards = np.empty((g, players), dtype=np.int16)
    chips_out = np.empty((g, players), dtype=np.int16)
    base = SMALL_DECK_IDS if small else FULL_DECK_IDS
    deck = base.copy()
    buf = np.empty((players, CAP), dtype=np.int8)
    head = np.empty(players, dtype=np.int64)
    length = np.empty(players, dtype=np.int64)
    hs = np.empty(players, dtype=np.uint64)
    pile = np.empty(CAP, dtype=np.int8)
    chips = np.empty(players, dtype=np.int64)
    st = np.empty(S_SIZE, dtype=np.int64)
    hashes = np.empty((3, 256), dtype=np.uint64)
    for r in range(g):
        deck[:] = base
        _shuffle(deck, derive_seed(derive_seed(seed, U64(start + r)), U64(1)))
        _, hashes = _play_grow(deck, players, chips_total, buf, head, length, hs, pile, chips, st, hashes)
        reasons[r] = st[S_REASON]
        flips[r] = st[S_FLIPS]
        for s in range(players):
            cards[r, s] = length[s]
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
    the mouse), 4 the first card of a new pile (AM-8). Flips count from this position.
    """
    players = stacks.shape[0]
    buf = np.zeros((players, CAP), dtype=np.int8)
    head = np.zeros(players, dtype=np.int64)
    length = np.zeros(players, dtype=np.int64)
    hs = np.zeros(players, dtype=np.uint64)
    for s in range(players):
        length[s] = sizes[s]
        h = U64(0)
        for k in range(sizes[s]):
            buf[s, k] = stacks[s, k]
            h += U64(stacks[s, k] + 1) * POW[k]
        hs[s] = h
    pile0 = np.zeros(CAP, dtype=np.int8)
    pile0[: pile.shape[0]] = pile
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_TO_MOVE] = to_move
    st[S_PHASE] = mode
    st[S_OWNER] = owner
    st[S_CHIPS_LEFT] = chips_left
    st[S_PLEN] = pile.shape[0]
    st[S_WINNER] = -1
    chips0 = chips.astype(np.int64)
    hashes = np.empty((3, 4), dtype=np.uint64)
    no_deck = np.empty(0, dtype=np.int8)
    while True:
        wbuf, whead, wlength, whs = buf.copy(), head.copy(), length.copy(), hs.copy()
        wpile, wchips, wst = pile0.copy(), chips0.copy(), st.copy()
        loop_from = _detect(
            no_deck, players, chips_left, buf, head, length, hs, pile0, chips0, st,
            wbuf, whead, wlength, whs, wpile, wchips, wst,
            hashes[0], hashes[1].view(np.int64), hashes[2].view(np.int64),
        )  # fmt: skip
        if loop_from != FULL:
            return wst[S_REASON], wst[S_FLIPS], wlength, wchips, loop_from
        hashes = np.empty((3, 2 * hashes.shape[1]), dtype=np.uint64)


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
    buf = np.empty((players, CAP), dtype=np.int8)
    head = np.empty(players, dtype=np.int64)
    length = np.empty(players, dtype=np.int64)
    hs = np.empty(players, dtype=np.uint64)
    pile = np.empty(CAP, dtype=np.int8)
    chips = np.empty(players, dtype=np.int64)
    st = np.empty(S_SIZE, dtype=np.int64)
    hashes = np.empty((3, 256), dtype=np.uint64)
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
        loop_from, hashes = _play_grow(cur, players, chips_total, buf, head, length, hs, pile, chips, st, hashes)
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
                found_info[n, 1] = loop_from
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
