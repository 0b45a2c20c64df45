"""A compiled, batched Mau-Mau that plays exactly the engine's games (``mauseloch.games.maumau``).

``MauMauBatch`` steps N games at once over numpy arrays, for learners that want many
environment steps per second: every call takes one action per game, applies it, and hands back
the observation and the action mask of the seat that moves next, the rewards and which games
ended; an ended game is replaced at once by the next one (automatic reset). ``simulate_range``
plays whole games with random bots inside the kernel for ``mauseloch simulate mau-mau``.

Exactly the engine's games
    Game ``i`` of a batch (or of a simulation) with seed ``S`` is ``new_game("mau-mau",
    seed=derive_seed(S, i))``: the same SplitMix64 streams (the deal from ``derive_seed(seed,
    STREAM_DEAL)``, every reshuffle from one generator on ``derive_seed(seed, STREAM_RESHUFFLE)``, MM-2, MM-8), the same
    Fisher-Yates and 16-bit draws as ``engine.Rng``, the same rules MM-1..MM-16 with every option,
    the same action ids as ``game.action_id`` (47 of them: cards by id, each jack once per wished
    suit, then ``draw`` 44, ``pass`` 45, ``take`` 46; built from ``MauMau.ACTIONS``), the same end
    (reason, move count) and result (ranks, cards, points). Games in a batch are numbered in the
    order they start: the first N are ``0..N-1`` (game k in slot k), and each replacement takes
    the next number (slots in increasing order within a step). ``tests/test_maumau_kernel.py``
    plays more than 10,000 games through both and compares every step.

Observation (int8, ``OBS_SIZE`` = 268 per game; ``obs.astype(np.float32)`` is the float form),
always seen by the seat to move (``to_move``); "slot j" of the counts is seat ``(to_move + j) %
players``, the own seat first, then the seats in increasing seat order:

    =========  ====================================================================
    offset     field
    =========  ====================================================================
    0..31      own hand: 1 for each card held (card id ``suit * 8 + rank``, ranks
               7 8 9 T J Q K A, suits C S H D, as ``mauseloch.games.maumau.CARD_ID``)
    32..63     top card of the discard pile, one-hot
    64..67     open wish (MM-12), one-hot by suit C S H D; all 0 when no wish is open
    68         open seven-penalty: cards to take (0, 2, 4, ... MM-9)
    69         direction of play: +1 increasing seats, -1 decreasing (MM-10a)
    70         1 when the seat decides on the card it just drew (MM-7: play it or pass)
    71..75     cards in hand per slot j = 0..4 (0 beyond the player count)
    76         cards in the draw pile
    77         cards in the discard pile
    78..109    the discard pile's cards (the top one included), 1 for each card in it
    110        number of players
    111        the seat to move (absolute seat number)
    112..267   the rivals' public history, 39 values for each rival slot j = 1..4 (seat
               ``(to_move + j) % players``; all 0 beyond the player count), at
               ``112 + 39 (j - 1)``:
               +0..5   how it last moved, one-hot (``LAST_*``: none yet, played a card,
                       drew, passed after drawing, passed with nothing to draw, took)
               +6..37  the cards that fitted when it last had to draw or pass without
                       drawing (MM-6, MM-14): it held none of them then; all 0 before
               +38     cards it has received since that moment (drawn, taken, a last
                       jack's card under ``no_win_with_jack``)
    =========  ====================================================================

The rivals' history is what every seat saw, kept per game in ``hist`` (``H_*`` columns: last
move, lacked, received for each absolute seat) by ``note_move``, the one home of these facts
(the environments' public log, ``envs.maumau_obs``, calls it too); ``learn.history`` builds the
same 268 values from a seat's views, for the learned bots.

Action mask: uint8 ``(N, 47)``, 1 for every legal action id of the seat to move.

Rewards: float32 ``(N, MAX_PLAYERS)`` by absolute seat, zero except on the step that ends a
game, where seat s gets ``(seats ranked below s - seats ranked above s) / (players - 1)`` by the
game's final ranking (MM-16, competition ranks; a tie counts neither way): +1 for a sole winner
and -1 for a sole last heads-up, the sum over the seats always 0.

Public functions (all ``@njit(cache=True)``) work on the batch's arrays; ``MauMauBatch``
holds them and is what a caller uses. Kernel state of a game: a row of ``ints`` (int64 scalars
``I_*`` and the hands as 32-bit masks), a row of ``cards`` (int8: the draw pile in ``[0, 32)``,
its top at the end, and the discard pile in ``[32, 64)``, bottom first) and a row of ``rngs``
(uint64: the reshuffle generator and the game seed).
"""

from __future__ import annotations

import types
from typing import Any

from mauseloch.core.engine import as_int
from mauseloch.core.registry import game_info
from mauseloch.core.seeds import STREAM_BOTS, STREAM_DEAL, STREAM_RESHUFFLE
from mauseloch.core.shapes import Options
from mauseloch.extras import needs
from mauseloch.games.maumau.bots import habits
from mauseloch.games.maumau.rules import CARD_FIT, JACK, JACKS, SEVEN, SEVENS, SUIT_MASK, MauMau
from mauseloch.games.maumau.views import Reason
from mauseloch.kernels.rng import GOLDEN, LIMIT16, RECIP16, derive_seed, mix64

with needs("sim", __name__):
    import numpy as np
    from numba import njit

MAX_PLAYERS = 5
NUM_ACTIONS = len(MauMau.ACTIONS)
DRAW_A, PASS_A, TAKE_A = (MauMau._ACTION_ID[m] for m in ("draw", "pass", "take"))
assert (NUM_ACTIONS, DRAW_A, PASS_A, TAKE_A) == (47, 44, 45, 46)

# The action table (``games.maumau.bots.habits`` builds it from the engine's own list): the card of
# each id and its wish (-1: none), a card's first action id.
ACT_CARD = np.array(habits.ACT_CARD, dtype=np.int64)
ACT_WISH = np.array(habits.ACT_WISH, dtype=np.int64)
CARD_ACTION = np.array(habits.CARD_ACTION, dtype=np.int64)
CARD_FIT_A = np.array(CARD_FIT, dtype=np.int64)
SUIT_MASK_A = np.array(SUIT_MASK, dtype=np.int64)
CARD_POINTS = np.array(habits.CARD_POINTS, dtype=np.int64)

REASONS: tuple[Reason, ...] = ("out", "stalemate", "move_limit")
REASON_CODES: dict[str, int] = {name: i + 1 for i, name in enumerate(REASONS)}  # 0: running
OUT, STALEMATE, MOVE_LIMIT = 1, 2, 3

# Columns of ``ints`` (one row per game).
(I_TO_MOVE, I_OVER, I_TOP, I_WISH, I_PENALTY, I_DIR, I_DRAWN, I_FIT, I_PILE, I_DISC, I_MOVES,
 I_INDEX) = range(12)  # fmt: skip
I_HANDS = 12  # 5 columns: seat s's hand as a mask of card ids
I_COUNTS = I_HANDS + MAX_PLAYERS  # 5 columns: cards in each hand
N_INTS = I_COUNTS + MAX_PLAYERS
DISC = 32  # the discard pile's first column in ``cards``
# Columns of ``rngs``: the reshuffle generator (state, unused 16-bit chunks, their count; MM-8),
# the game seed, and a scratch generator for the deal.
R_STATE, R_WORD, R_CHUNKS, R_SEED, R_DEAL = 0, 1, 2, 3, 4
N_RNGS = 7
# Options, one int64 array: players, then the rule options.
O_PLAYERS, O_ACE_SKIPS, O_THEN_PLAY, O_NO_JACK_ON_JACK, O_NO_WIN_WITH_JACK, O_MOVE_LIMIT = range(6)
# Columns of ``final`` (the result of the game that ended last in each slot).
F_REASON, F_MOVES, F_INDEX = 0, 1, 2
F_RANKS = 3
F_CARDS = F_RANKS + MAX_PLAYERS
F_POINTS = F_CARDS + MAX_PLAYERS
N_FINAL = F_POINTS + MAX_PLAYERS

OBS_HAND, OBS_TOP, OBS_WISH, OBS_PENALTY, OBS_DIR, OBS_DRAWN = 0, 32, 64, 68, 69, 70
OBS_COUNTS, OBS_PILE, OBS_DISC_COUNT, OBS_DISC, OBS_PLAYERS, OBS_SEAT = 71, 76, 77, 78, 110, 111
OBS_RIVALS = 112  # rival slot j = 1..4 at OBS_RIVALS + RIVAL_OBS * (j - 1)
RIVAL_OBS = 39  # last move (6, one-hot), lacked (32 flags), received since (1)
OBS_SIZE = OBS_RIVALS + RIVAL_OBS * (MAX_PLAYERS - 1)
# How a seat last moved (the rivals' history: ``note_move``).
LAST_NONE, LAST_PLAY, LAST_DRAW, LAST_PASS_DRAWN, LAST_PASS_EMPTY, LAST_TAKE = range(6)
LAST_MOVE_KINDS = ("none yet", "played a card", "drew", "passed after drawing", "passed, nothing to draw", "took")
# Columns of ``hist`` (one row per game): each absolute seat's last move, lacked cards, received since.
H_LAST, H_LACKED, H_RECEIVED = 0, MAX_PLAYERS, 2 * MAX_PLAYERS
N_HIST = 3 * MAX_PLAYERS

U0 = np.uint64(0)
U1 = np.uint64(1)
U4 = np.uint64(4)
U16 = np.uint64(16)
U32 = np.uint64(32)
U_FFFF = np.uint64(0xFFFF)
DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
U58 = np.uint64(58)
DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    DEBRUIJN_INDEX[(((1 << _i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58] = _i


# --------------------------------------------------------------------------- small helpers


@njit(cache=True)
def _below(r: np.ndarray, base: int, n: int) -> int:
    """``engine.Rng.below(n)`` for n <= 2**16 on the generator ``r[base:base + 3]`` (state, the
    unused 16-bit chunks of the last output, their count)."""
    n64 = np.uint64(n)
    limit = LIMIT16[n]  # no division: the kernels share the tables of ``65536 - 65536 % n``
    while True:
        if r[base + 2] == U0:
            r[base] = r[base] + GOLDEN
            r[base + 1] = mix64(r[base])
            r[base + 2] = U4
        v = r[base + 1] & U_FFFF
        r[base + 1] = r[base + 1] >> U16
        r[base + 2] = r[base + 2] - U1
        if v < limit:
            return int(np.int64(v - ((v * RECIP16[n]) >> U32) * n64))  # v % n


@njit(cache=True)
def _shuffle(cards: np.ndarray, lo: int, length: int, r: np.ndarray, base: int) -> None:
    """``engine.Rng.shuffle`` of ``cards[lo:lo + length]``: Fisher-Yates from the end."""
    for i in range(length - 1, 0, -1):
        j = _below(r, base, i + 1)
        t = cards[lo + i]
        cards[lo + i] = cards[lo + j]
        cards[lo + j] = t


@njit(cache=True)
def _lowest(bits: int) -> int:
    """The index of the lowest set bit of ``bits`` (> 0)."""
    low = np.uint64(bits & -bits)
    return DEBRUIJN_INDEX[(low * DEBRUIJN) >> U58]


@njit(cache=True)
def _popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True)
def _fit(top: int, wish: int, no_jack_on_jack: bool) -> int:
    """``maumau.fit_mask``: the cards that fit now (MM-4, MM-5, MM-12)."""
    if wish >= 0:
        fit = SUIT_MASK_A[wish]
        return fit & ~JACKS if no_jack_on_jack else fit | JACKS
    fit = CARD_FIT_A[top]
    if no_jack_on_jack and top & 7 == JACK:
        fit &= ~JACKS
    return fit


@njit(cache=True)
def _seat(x: int, n: int) -> int:
    """``x % n`` for ``-n <= x < 2 * n`` without a division (a division costs more than a move)."""
    if x >= n:
        return x - n
    if x < 0:
        return x + n
    return x


# --------------------------------------------------------------------------- one game


@njit(cache=True)
def deal(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, seed: np.uint64, index: int, opts: np.ndarray) -> None:
    """Start game ``index`` (seed ``derive_seed(seed, index)``) in one row of each array (MM-2, MM-3)."""
    deal_seeded(ints, cards, rngs, derive_seed(seed, np.uint64(index)), opts)
    ints[I_INDEX] = index


@njit(cache=True)
def deal_seeded(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, game_seed: np.uint64, opts: np.ndarray) -> None:
    """Start ``new_game("mau-mau", seed=game_seed)``: its deck shuffled (MM-2), then dealt."""
    rngs[R_DEAL] = derive_seed(game_seed, np.uint64(STREAM_DEAL))
    rngs[R_DEAL + 1] = U0
    rngs[R_DEAL + 2] = U0
    for c in range(32):  # the canonical deck (FULL_DECK is card ids 0..31), shuffled in the discard area
        cards[DISC + c] = c
    _shuffle(cards, DISC, 32, rngs, R_DEAL)
    deal_deck(ints, cards, rngs, game_seed, opts)


@njit(cache=True)
def deal_deck(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, game_seed: np.uint64, opts: np.ndarray) -> None:
    """Start the game with seed ``game_seed`` from the deck (card ids, in dealing order) in
    ``cards[DISC:DISC + 32]``: ``new_game("mau-mau", seed=game_seed, deck=...)`` (MM-2, MM-3)."""
    n = opts[O_PLAYERS]
    rngs[R_SEED] = game_seed
    # MM-8: the reshuffles' own generator; the engine makes it at the first reshuffle, which
    # draws the same numbers as making it now.
    rngs[R_STATE] = derive_seed(game_seed, np.uint64(STREAM_RESHUFFLE))
    rngs[R_WORD] = U0
    rngs[R_CHUNKS] = U0
    dealt = 5 * n
    for s in range(MAX_PLAYERS):
        ints[I_HANDS + s] = 0
        ints[I_COUNTS + s] = 0
    s = 0
    for i in range(dealt):  # five rounds, one card at a time to seats 0..n-1
        ints[I_HANDS + s] |= 1 << int(cards[DISC + i])
        ints[I_COUNTS + s] += 1
        s = _seat(s + 1, n)
    top = int(cards[DISC + dealt])
    pile = 31 - dealt
    for j in range(pile):  # the rest is the draw pile, its first card on top (at the end)
        cards[j] = cards[DISC + 31 - j]
    cards[DISC] = top
    ints[I_TO_MOVE] = 0
    ints[I_OVER] = 0
    ints[I_TOP] = top
    ints[I_WISH] = -1  # MM-3: the starting card has no effect
    ints[I_PENALTY] = 0
    ints[I_DIR] = 1
    ints[I_DRAWN] = -1
    ints[I_FIT] = _fit(top, -1, opts[O_NO_JACK_ON_JACK] != 0)
    ints[I_PILE] = pile
    ints[I_DISC] = 1
    ints[I_MOVES] = 0
    ints[I_INDEX] = 0


@njit(cache=True)
def _legal(ints: np.ndarray) -> tuple[int, int]:
    """The legal moves of the seat to move: ``(cards, other)``, a mask of the card ids that may be
    played (a jack stands for its four wishes) and the one other legal action id, or -1."""
    p = ints[I_TO_MOVE]
    hand = ints[I_HANDS + p]
    if ints[I_PENALTY]:  # MM-9: any seven, or take
        return hand & SEVENS, TAKE_A
    if ints[I_DRAWN] >= 0:  # MM-7: the drawn card, or keep it
        return 1 << ints[I_DRAWN], PASS_A
    bits = hand & ints[I_FIT]  # MM-6: must play when a card fits
    if bits:
        return bits, -1
    if ints[I_PILE] > 0 or ints[I_DISC] > 1:  # MM-6, MM-14
        return 0, DRAW_A
    return 0, PASS_A


def _compiled(habit: Any) -> Any:
    """``habit`` (a function of ``games.maumau.bots.habits``) compiled with this module's names for
    the ones it reads: the same code, on arrays and compiled helpers."""
    code = types.FunctionType(habit.__code__, globals(), habit.__name__, habit.__defaults__)
    code.__doc__ = habit.__doc__
    return njit(cache=True)(code)


# The legal moves' count and the k-th of them: the habits' own helpers, on this module's tables
_legal_count = _compiled(habits._legal_count)
_nth_legal = _compiled(habits._nth_legal)


@njit(cache=True)
def is_legal(ints: np.ndarray, action: int) -> bool:
    """Whether ``action`` is legal for the seat to move of the game in ``ints``."""
    if ints[I_OVER] or action < 0 or action >= NUM_ACTIONS:
        return False
    bits, other = _legal(ints)
    if action >= DRAW_A:
        return action == other
    return (bits >> ACT_CARD[action]) & 1 == 1


@njit(cache=True)
def _draw(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, seat: int, count: int) -> int:
    """Draw up to ``count`` cards for ``seat``, reshuffling when needed (MM-8); the last card
    drawn, or -1 when none could be."""
    got = -1
    for _ in range(count):
        pile = ints[I_PILE]
        if pile == 0:
            disc = ints[I_DISC]
            if disc <= 1:
                break
            m = disc - 1
            for j in range(m):  # all but the top card, bottom first, then shuffled
                cards[j] = cards[DISC + j]
            cards[DISC] = cards[DISC + m]
            ints[I_DISC] = 1
            _shuffle(cards, 0, m, rngs, R_STATE)
            pile = m
        pile -= 1
        got = int(cards[pile])
        ints[I_PILE] = pile
        ints[I_HANDS + seat] |= 1 << got
        ints[I_COUNTS + seat] += 1
    return got


@njit(cache=True)
def _finish(ints: np.ndarray, reason: int) -> None:
    ints[I_OVER] = reason
    ints[I_TO_MOVE] = -1


@njit(cache=True)
def apply(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, action: int, opts: np.ndarray) -> None:
    """Play the legal ``action`` for the seat to move: ``MauMau.play`` step for step."""
    n = opts[O_PLAYERS]
    p = ints[I_TO_MOVE]
    d = ints[I_DIR]
    ints[I_MOVES] += 1
    if action < DRAW_A:  # a card
        card = ACT_CARD[action]
        wish = ACT_WISH[action]
        ints[I_HANDS + p] &= ~(1 << card)
        ints[I_COUNTS + p] -= 1
        disc = ints[I_DISC]
        cards[DISC + disc] = card
        ints[I_DISC] = disc + 1
        ints[I_TOP] = card
        ints[I_WISH] = wish
        ints[I_DRAWN] = -1
        ints[I_FIT] = _fit(card, wish, opts[O_NO_JACK_ON_JACK] != 0)
        left = ints[I_COUNTS + p]
        if left == 0:
            # MM-15: a last jack does not win with the option, unless nothing can be drawn.
            if not (wish >= 0 and opts[O_NO_WIN_WITH_JACK] and (ints[I_PILE] > 0 or ints[I_DISC] > 1)):
                _finish(ints, OUT)
                return  # the winning card has no effect
            _draw(ints, cards, rngs, p, 1)
            nxt = _seat(p + d, n)
        else:
            rank = card & 7
            if rank == SEVEN:  # MM-9
                ints[I_PENALTY] += 2
                nxt = _seat(p + d, n)
            elif rank == 1 or (rank == 7 and opts[O_ACE_SKIPS]):  # MM-10 eight, MM-11 ace
                nxt = _seat(_seat(p + d, n) + d, n)
            elif rank == 2:  # MM-10a nine
                d = -d
                ints[I_DIR] = d
                nxt = p if n == 2 else _seat(p + d, n)
            else:
                nxt = _seat(p + d, n)
        ints[I_TO_MOVE] = nxt
    elif action == DRAW_A:  # MM-6/MM-7: if the card fits, play it or pass; else the turn passes
        got = _draw(ints, cards, rngs, p, 1)
        if got >= 0 and (ints[I_FIT] >> got) & 1:
            ints[I_DRAWN] = got
        else:
            ints[I_TO_MOVE] = _seat(p + d, n)
    elif action == PASS_A:
        ints[I_DRAWN] = -1
        ints[I_TO_MOVE] = _seat(p + d, n)
    else:  # take the penalty (MM-9)
        _draw(ints, cards, rngs, p, ints[I_PENALTY])
        ints[I_PENALTY] = 0
        if not opts[O_THEN_PLAY]:
            ints[I_TO_MOVE] = _seat(p + d, n)
    # MM-14a: a win was handled already; then stalemate (MM-14), then the move limit (MM-15a).
    if ints[I_PILE] == 0 and ints[I_PENALTY] == 0 and ints[I_DISC] <= 1:
        fit = ints[I_FIT]
        stuck = True
        for s in range(n):
            if ints[I_HANDS + s] & fit:
                stuck = False
        if stuck:
            _finish(ints, STALEMATE)
            return
    if ints[I_MOVES] >= opts[O_MOVE_LIMIT]:
        _finish(ints, MOVE_LIMIT)


@njit(cache=True)
def result(ints: np.ndarray, n: int, ranks: np.ndarray, hand_cards: np.ndarray, points: np.ndarray) -> None:
    """MM-16 of an ended game into ``ranks``, ``hand_cards``, ``points`` (first ``n`` entries):
    by cards left, then points; equal keys share a rank (competition ranking)."""
    for s in range(n):
        hand_cards[s] = ints[I_COUNTS + s]
        total = 0
        bits = ints[I_HANDS + s]
        while bits:
            total += CARD_POINTS[_lowest(bits)]
            bits &= bits - 1
        points[s] = total
    for s in range(n):
        r = 1
        for o in range(n):
            if hand_cards[o] < hand_cards[s] or (hand_cards[o] == hand_cards[s] and points[o] < points[s]):
                r += 1
        ranks[s] = r


# --------------------------------------------------------------------------- observation


@njit(cache=True)
def note_move(
    last: np.ndarray, lacked: np.ndarray, received: np.ndarray, actor: int, action: int, drew_before: bool,
    fit: int, got: int,
) -> None:  # fmt: skip
    """What every seat saw ``actor`` do: it played action id ``action`` while ``fit`` (the cards
    that fitted) was open, deciding on a drawn card (``drew_before``), and its hand grew by
    ``got`` cards (a count: public). ``last``, ``lacked`` and ``received`` are indexed by
    absolute seat. The one home of the rivals' history, for the batches (``hist``), the
    environments' public log (``envs.maumau_obs``) and the learned bots (``learn.history``)."""
    if action == DRAW_A:
        last[actor] = LAST_DRAW
        lacked[actor] = fit  # MM-6: it drew, so nothing fitted
        received[actor] = got
    elif action == PASS_A:
        if drew_before:
            last[actor] = LAST_PASS_DRAWN
        else:  # MM-14: nothing to draw and nothing fitted
            last[actor] = LAST_PASS_EMPTY
            lacked[actor] = fit
            received[actor] = 0
    elif action == TAKE_A:
        last[actor] = LAST_TAKE
        received[actor] += got
    else:
        last[actor] = LAST_PLAY
        received[actor] += got + 1  # a last jack under no_win_with_jack brings a card


@njit(cache=True)
def _observe_rivals(hist: np.ndarray, p: int, n: int, obs: np.ndarray) -> None:
    """The rivals' history (``hist``: one game's row) into ``obs[OBS_RIVALS:]`` as seat ``p``
    sees it; 0 beyond the player count."""
    for i in range(OBS_RIVALS, OBS_SIZE):
        obs[i] = 0
    for j in range(1, n):
        s = _seat(p + j, n)
        o = OBS_RIVALS + RIVAL_OBS * (j - 1)
        obs[o + hist[H_LAST + s]] = 1
        bits = hist[H_LACKED + s]
        while bits:
            obs[o + 6 + _lowest(bits)] = 1
            bits &= bits - 1
        obs[o + RIVAL_OBS - 1] = min(hist[H_RECEIVED + s], 127)


@njit(cache=True)
def _observe(ints: np.ndarray, cards: np.ndarray, n: int, obs: np.ndarray, mask: np.ndarray) -> None:
    """The observation and action mask of the seat to move (see the module docstring), the
    rivals' history left to ``_observe_rivals``."""
    for i in range(OBS_RIVALS):
        obs[i] = 0
    for i in range(NUM_ACTIONS):
        mask[i] = 0
    p = ints[I_TO_MOVE]
    bits = ints[I_HANDS + p]
    while bits:
        obs[OBS_HAND + _lowest(bits)] = 1
        bits &= bits - 1
    obs[OBS_TOP + ints[I_TOP]] = 1
    if ints[I_WISH] >= 0:
        obs[OBS_WISH + ints[I_WISH]] = 1
    obs[OBS_PENALTY] = ints[I_PENALTY]
    obs[OBS_DIR] = ints[I_DIR]
    obs[OBS_DRAWN] = 1 if ints[I_DRAWN] >= 0 else 0
    for j in range(n):
        obs[OBS_COUNTS + j] = ints[I_COUNTS + _seat(p + j, n)]
    obs[OBS_PILE] = ints[I_PILE]
    disc = ints[I_DISC]
    obs[OBS_DISC_COUNT] = disc
    for i in range(disc):
        obs[OBS_DISC + cards[DISC + i]] = 1
    obs[OBS_PLAYERS] = n
    obs[OBS_SEAT] = p
    bits, other = _legal(ints)
    while bits:
        c = _lowest(bits)
        bits &= bits - 1
        a = CARD_ACTION[c]
        if c & 7 == JACK:
            mask[a] = 1
            mask[a + 1] = 1
            mask[a + 2] = 1
            mask[a + 3] = 1
        else:
            mask[a] = 1
    if other >= 0:
        mask[other] = 1


# --------------------------------------------------------------------------- batches


@njit(cache=True)
def reset_batch(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, seed: np.uint64, first: int, opts: np.ndarray,
    obs: np.ndarray, masks: np.ndarray, to_move: np.ndarray, hist: np.ndarray,
) -> None:  # fmt: skip
    """Deal games ``first .. first + N - 1`` into the N slots (game ``first + k`` in slot k)."""
    n = opts[O_PLAYERS]
    for k in range(ints.shape[0]):
        deal(ints[k], cards[k], rngs[k], seed, first + k, opts)
        for i in range(N_HIST):
            hist[k, i] = 0  # LAST_NONE, nothing lacked, nothing received
        _observe(ints[k], cards[k], n, obs[k], masks[k])
        _observe_rivals(hist[k], ints[k, I_TO_MOVE], n, obs[k])
        to_move[k] = ints[k, I_TO_MOVE]


@njit(cache=True)
def first_illegal(ints: np.ndarray, actions: np.ndarray) -> int:
    """The first slot whose action is not legal, or -1 when every one is."""
    for k in range(ints.shape[0]):
        if not is_legal(ints[k], actions[k]):
            return k
    return -1


@njit(cache=True)
def step_batch(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, seed: np.uint64, counter: np.ndarray,
    opts: np.ndarray, actions: np.ndarray,
    obs: np.ndarray, masks: np.ndarray, to_move: np.ndarray, rewards: np.ndarray, dones: np.ndarray,
    final: np.ndarray, hist: np.ndarray,
) -> None:  # fmt: skip
    """One (legal, see ``first_illegal``) action per slot. A game that ends writes its rewards,
    ``dones[k] = 1`` and its result into ``final[k]``, and slot k deals the next game (number
    ``counter[0]``, which then counts on); ``obs``, ``masks`` and ``to_move`` are the next
    decision's, in the new game for a slot that was reset; ``hist`` notes every move."""
    n = opts[O_PLAYERS]
    for k in range(ints.shape[0]):
        row = ints[k]
        for s in range(MAX_PLAYERS):
            rewards[k, s] = 0.0
        actor = row[I_TO_MOVE]
        drew_before = row[I_DRAWN] >= 0
        fit = row[I_FIT]
        before = row[I_COUNTS + actor]
        apply(row, cards[k], rngs[k], actions[k], opts)
        h = hist[k]
        note_move(
            h[H_LAST:H_LACKED], h[H_LACKED:H_RECEIVED], h[H_RECEIVED:N_HIST], actor, actions[k], drew_before, fit,
            row[I_COUNTS + actor] - before,
        )  # fmt: skip
        if row[I_OVER]:
            fk = final[k]
            fk[F_REASON] = row[I_OVER]
            fk[F_MOVES] = row[I_MOVES]
            fk[F_INDEX] = row[I_INDEX]
            result(row, n, fk[F_RANKS:F_CARDS], fk[F_CARDS:F_POINTS], fk[F_POINTS:N_FINAL])
            for s in range(n):
                better = 0
                worse = 0
                for o in range(n):
                    if fk[F_RANKS + o] < fk[F_RANKS + s]:
                        better += 1
                    elif fk[F_RANKS + o] > fk[F_RANKS + s]:
                        worse += 1
                rewards[k, s] = (worse - better) / (n - 1)
            dones[k] = 1
            deal(row, cards[k], rngs[k], seed, counter[0], opts)
            counter[0] += 1
            for i in range(N_HIST):
                h[i] = 0
        else:
            dones[k] = 0
        _observe(row, cards[k], n, obs[k], masks[k])
        _observe_rivals(h, row[I_TO_MOVE], n, obs[k])
        to_move[k] = row[I_TO_MOVE]


@njit(cache=True)
def random_legal_actions(ints: np.ndarray, gen: np.ndarray, actions: np.ndarray) -> None:
    """A uniformly random legal action per slot from the generator ``gen`` (uint64[3], an
    ``engine.Rng``'s state): a fast random policy for benchmarks and baselines."""
    for k in range(ints.shape[0]):
        bits, other = _legal(ints[k])
        actions[k] = _nth_legal(bits, other, _below(gen, 0, _legal_count(bits, other)))


# --------------------------------------------------------------------------- simulation


@njit(cache=True)
def simulate_range(
    seed: np.uint64, start: int, stop: int, opts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Games ``start .. stop - 1`` of ``mauseloch simulate mau-mau --seed seed`` with a random bot
    on every seat, each exactly ``bots.random_bot.RandomBot(derive_seed(game_seed, STREAM_BOTS + s))``
    choosing ``legal[rng.below(len(legal))]``. Returns ``(reasons, moves, ranks, cards, points)``,
    row ``i - start`` for game i."""
    n = opts[O_PLAYERS]
    g = stop - start
    reasons = np.empty(g, dtype=np.int8)
    moves = np.empty(g, dtype=np.int32)
    ranks = np.zeros((g, n), dtype=np.int64)
    hand_cards = np.zeros((g, n), dtype=np.int64)
    points = np.zeros((g, n), dtype=np.int64)
    ints = np.zeros(N_INTS, dtype=np.int64)
    cards = np.zeros(64, dtype=np.int8)
    rngs = np.zeros(N_RNGS, dtype=np.uint64)
    bots = np.zeros(3 * MAX_PLAYERS, dtype=np.uint64)
    for r in range(g):
        deal(ints, cards, rngs, seed, start + r, opts)
        for s in range(n):
            bots[3 * s] = derive_seed(rngs[R_SEED], np.uint64(STREAM_BOTS + s))
            bots[3 * s + 1] = U0
            bots[3 * s + 2] = U0
        while not ints[I_OVER]:
            bits, other = _legal(ints)
            pick = _below(bots, 3 * ints[I_TO_MOVE], _legal_count(bits, other))
            apply(ints, cards, rngs, _nth_legal(bits, other, pick), opts)
        reasons[r] = ints[I_OVER]
        moves[r] = ints[I_MOVES]
        result(ints, n, ranks[r], hand_cards[r], points[r])
    return reasons, moves, ranks, hand_cards, points


def options_array(players: int, options: Options | None = None) -> np.ndarray:
    """The kernel's option array from checked game options (defaults filled in)."""
    info = game_info("mau-mau")
    n = info.check_players(players)
    o = info.resolve_options(n, options)
    return np.array(
        [n, o["ace_skips"], o["seven_draw_then_play"], o["no_jack_on_jack"], o["no_win_with_jack"], o["move_limit"]],
        dtype=np.int64,
    )


class MauMauBatch:
    """N Mau-Mau games stepped together (see the module docstring for every array's layout).

    ``reset()`` deals games ``0..N-1``; ``step(actions)`` plays one action id per game for its
    seat to move and returns ``(obs, masks, rewards, dones)``. The returned arrays belong to the
    batch and are overwritten by the next call (copy what you keep). ``to_move[k]`` is the seat
    that ``obs[k]`` and ``masks[k]`` belong to; ``final[k]`` the result of the game that ended
    last in slot k (``F_*`` columns: reason code, moves, game number, ranks, cards, points);
    ``game_index[k]`` the number of the game now in slot k (its seed: ``derive_seed(seed, i)``);
    ``hist[k]`` the public history of its seats so far (``H_*`` columns, ``note_move``).
    """

    def __init__(self, num_games: int, players: int = 4, seed: int = 0, options: Options | None = None) -> None:
        num_games = as_int(num_games, "num_games", 1)
        seed = as_int(seed, "seed", 0, (1 << 64) - 1)
        self.opts = options_array(players, options)
        self.players = int(self.opts[O_PLAYERS])
        self.num_games = num_games
        self.seed = np.uint64(seed)
        self.ints = np.zeros((num_games, N_INTS), dtype=np.int64)
        self.cards = np.zeros((num_games, 64), dtype=np.int8)
        self.rngs = np.zeros((num_games, N_RNGS), dtype=np.uint64)
        self.counter = np.zeros(1, dtype=np.int64)
        self.obs = np.zeros((num_games, OBS_SIZE), dtype=np.int8)
        self.masks = np.zeros((num_games, NUM_ACTIONS), dtype=np.uint8)
        self.to_move = np.zeros(num_games, dtype=np.int64)
        self.rewards = np.zeros((num_games, MAX_PLAYERS), dtype=np.float32)
        self.dones = np.zeros(num_games, dtype=np.uint8)
        self.final = np.zeros((num_games, N_FINAL), dtype=np.int64)
        self.hist = np.zeros((num_games, N_HIST), dtype=np.int64)
        self.reset()

    @property
    def game_index(self) -> np.ndarray:
        return self.ints[:, I_INDEX]

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal games ``0..N-1`` again; ``(obs, masks)``."""
        self.counter[0] = self.num_games
        self.rewards[:] = 0
        self.dones[:] = 0
        self.final[:] = 0
        reset_batch(
            self.ints, self.cards, self.rngs, self.seed, 0, self.opts, self.obs, self.masks, self.to_move, self.hist
        )
        return self.obs, self.masks

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[k]`` in game k; ``ValueError`` (nothing played) if one is not legal."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_games,) or acts.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_games} whole action ids, got shape {acts.shape} {acts.dtype}")
        acts = acts.astype(np.int64, copy=False)
        bad = first_illegal(self.ints, acts)
        if bad >= 0:
            legal = np.flatnonzero(self.masks[bad]).tolist()
            raise ValueError(f"action {int(acts[bad])} is not legal in game slot {bad}; legal there: {legal}")
        step_batch(
            self.ints, self.cards, self.rngs, self.seed, self.counter, self.opts, acts,
            self.obs, self.masks, self.to_move, self.rewards, self.dones, self.final, self.hist,
        )  # fmt: skip
        return self.obs, self.masks, self.rewards, self.dones

    def random_actions(self, gen: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per game from ``gen`` (uint64[3]: state, 0, 0)."""
        actions = np.empty(self.num_games, dtype=np.int64)
        random_legal_actions(self.ints, gen, actions)
        return actions


# --------------------------------------------------------------------------- the heuristic
# The Mau-Mau heuristic bot's decision: its habits are written once, in plain Python
# (``games.maumau.bots.habits``, which the heuristic bot calls as they are), and compiled here from
# that same code for the search bot's reading of its rivals (``heuristic_agrees``) and its
# play-outs (``playout``, ``flat_deal``), which call it for every seat inside compiled code.
# Compiled, the habits read this module's names: its tables (arrays), its bit helpers and
# ``_tie``; a tie-breaking generator is an ``engine.Rng``'s state (uint64[3]).

EIGHT_R, NINE_R, ACE_R = habits.EIGHT_R, habits.NINE_R, habits.ACE_R
TIE_MASK = np.uint64(habits.TIE_BOUND - 1)  # ``Rng.below(1 << 20)``: one whole output, its low bits
ACT_STR_RANK = np.array(habits.ACT_STR_RANK, dtype=np.int64)
BYTE_POINTS = np.array(habits.BYTE_POINTS, dtype=np.int64)
RANK_POINTS = np.array(habits.RANK_POINTS, dtype=np.int64)
NO_WISHES = habits.NO_WISHES


@njit(cache=True)
def _tie(gen: np.ndarray) -> int:
    """``Rng.below(1 << 20)``: above 2**16 the engine takes a whole 64-bit output (no rejection,
    2**64 is a multiple of 2**20) and leaves its 16-bit chunks alone."""
    gen[0] = gen[0] + GOLDEN
    return int(mix64(gen[0]) & TIE_MASK)


_wish_qualities = _compiled(habits._wish_qualities)
_score = _compiled(habits._score)
_situation = _compiled(habits._situation)
heuristic_action = _compiled(habits.heuristic_action)
heuristic_agrees = _compiled(habits.heuristic_agrees)
assert [f.py_func.__name__ for f in (_wish_qualities, _score, _situation, heuristic_action, heuristic_agrees)] == [
    f.__name__ for f in habits.SHARED
]


# --------------------------------------------------------------------------- play-outs


@njit(cache=True)
def _move_heuristic(ints: np.ndarray, n: int, opts: np.ndarray, gen: np.ndarray) -> int:
    """The heuristic's action for the seat to move of the game in ``ints``."""
    bits, other = _legal(ints)
    p = ints[I_TO_MOVE]
    return heuristic_action(
        ints[I_HANDS + p], bits, other, p, ints[I_COUNTS : I_COUNTS + n], n, ints[I_DIR],
        opts[O_ACE_SKIPS] != 0, opts[O_NO_WIN_WITH_JACK] != 0, gen,
    )  # fmt: skip


@njit(cache=True)
def playout(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, opts: np.ndarray, gen: np.ndarray, limit: int,
    share: float, rewards: np.ndarray, trace: np.ndarray,
) -> int:  # fmt: skip
    """Play the game in ``ints``/``cards``/``rngs`` on with the heuristic on every seat (ties
    from ``gen``) for at most ``limit`` moves, and score it into ``rewards`` (first ``players``
    entries): an ended game 1 - ``share`` for first place and ``share * (players - rank) /
    (players - 1)`` for every rank; a game cut short by ``limit`` by the cards in hand (the
    chance to win ``~ exp(-0.6 * cards)``, ranks by cards). The actions go into ``trace`` while it
    has room (tests replay them on the engine); returns the number of moves played."""
    n = opts[O_PLAYERS]
    moves = 0
    while not ints[I_OVER] and moves < limit:
        a = _move_heuristic(ints, n, opts, gen)
        if moves < trace.shape[0]:
            trace[moves] = a
        apply(ints, cards, rngs, a, opts)
        moves += 1
    if ints[I_OVER]:
        ranks = np.zeros(n, dtype=np.int64)
        hand_cards = np.zeros(n, dtype=np.int64)
        points = np.zeros(n, dtype=np.int64)
        result(ints, n, ranks, hand_cards, points)
        for s in range(n):
            r = ranks[s]
            rewards[s] = (1.0 - share if r == 1 else 0.0) + share * (n - r) / (n - 1)
    else:
        total = 0.0
        for s in range(n):
            total += np.exp(-0.6 * ints[I_COUNTS + s])
        for s in range(n):
            c = ints[I_COUNTS + s]
            r = 1
            for o in range(n):
                if ints[I_COUNTS + o] < c:
                    r += 1
            rewards[s] = (1.0 - share) * np.exp(-0.6 * c) / total + share * (n - r) / (n - 1)
    return moves


@njit(cache=True)
def redeal(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, n: int, seat: int, ids: np.ndarray, seed: np.uint64
) -> None:
    """``MauMau.redealt`` in place for a game of ``n`` players: every card ``seat`` cannot see
    dealt as ``ids`` lists them (the other hands in seat order, each as many cards as it holds,
    then the draw pile top first), later reshuffles (MM-8) from ``seed``."""
    i = 0
    for s in range(n):
        if s != seat:
            hand = 0
            for _ in range(ints[I_COUNTS + s]):
                hand |= 1 << int(ids[i])
                i += 1
            ints[I_HANDS + s] = hand
    pile = ids.shape[0] - i
    for j in range(pile):  # top at the end
        cards[j] = ids[ids.shape[0] - 1 - j]
    ints[I_PILE] = pile
    rngs[R_SEED] = seed
    rngs[R_STATE] = derive_seed(seed, np.uint64(STREAM_RESHUFFLE))
    rngs[R_WORD] = U0
    rngs[R_CHUNKS] = U0


@njit(cache=True)
def flat_deal(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, opts: np.ndarray, seat: int, ids: np.ndarray,
    seed: np.uint64, luck: np.uint64, actions: np.ndarray, limit: int, share: float, totals: np.ndarray,
) -> None:  # fmt: skip
    """One deal of the flat search: the position in ``ints``/``cards``/``rngs`` redealt as
    ``redeal(seat, ids, seed)``, then each of ``actions`` played there and played out (ties from
    a generator seeded ``luck``, the same for every action: common random numbers), ``seat``'s
    reward added to ``totals``. The position's arrays are left as they were."""
    n = opts[O_PLAYERS]
    base_ints = ints.copy()
    base_cards = cards.copy()
    base_rngs = rngs.copy()
    redeal(base_ints, base_cards, base_rngs, n, seat, ids, seed)
    work_ints = np.empty_like(base_ints)
    work_cards = np.empty_like(base_cards)
    work_rngs = np.empty_like(base_rngs)
    gen = np.zeros(3, dtype=np.uint64)
    rewards = np.zeros(n)
    trace = np.zeros(0, dtype=np.int64)
    for i in range(actions.shape[0]):
        work_ints[:] = base_ints
        work_cards[:] = base_cards
        work_rngs[:] = base_rngs
        apply(work_ints, work_cards, work_rngs, actions[i], opts)
        gen[0] = luck
        gen[1] = U0
        gen[2] = U0
        playout(work_ints, work_cards, work_rngs, opts, gen, limit, share, rewards, trace)
        totals[i] += rewards[seat]


def state_of(game: MauMau) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's ``(ints, cards, rngs)`` of an engine game (any position, a sample from
    ``MauMau.from_view`` too): the search bot hands its positions to the play-outs this way."""
    ints = np.zeros(N_INTS, dtype=np.int64)
    cards = np.zeros(64, dtype=np.int8)
    rngs = np.zeros(N_RNGS, dtype=np.uint64)
    ints[I_TO_MOVE] = -1 if game.to_move is None else game.to_move
    if game.is_over:
        assert game.reason is not None
        ints[I_OVER] = REASON_CODES[game.reason]
    ints[I_TOP], ints[I_WISH], ints[I_PENALTY] = game.top, game.wish, game.penalty
    ints[I_DIR], ints[I_DRAWN], ints[I_FIT] = game.direction, game.drawn, game.fit
    ints[I_PILE], ints[I_DISC], ints[I_MOVES] = len(game.draw_pile), len(game.discard), game.move_count
    for s, hand in enumerate(game.hands):
        ints[I_HANDS + s] = hand
        ints[I_COUNTS + s] = hand.bit_count()
    cards[: len(game.draw_pile)] = game.draw_pile
    cards[DISC : DISC + len(game.discard)] = game.discard
    rng = game._reshuffle_rng
    rngs[R_SEED] = game.seed
    if rng is None:  # made from the seed at the first reshuffle (MM-8)
        rngs[R_STATE] = derive_seed(np.uint64(game.seed), np.uint64(STREAM_RESHUFFLE))
    else:
        rngs[R_STATE], rngs[R_WORD], rngs[R_CHUNKS] = rng.state, rng._word, rng._chunks
    return ints, cards, rngs


BOT_KERNELS = (heuristic_action, heuristic_agrees, playout, flat_deal)


def bot_kernels_need_compiling() -> bool:
    """True when the heuristic's and the search's kernels are neither loaded in this process
    nor in numba's cache: their first use compiles them (seconds), and callers say so."""
    from mauseloch.kernels.rng import needs_compiling

    return any(needs_compiling(f) for f in BOT_KERNELS)


def warm_bot_kernels() -> None:
    """Compile (the first time) or load from numba's cache every kernel the heuristic and the
    search bots call, on a small position of their own, so no decision waits for it."""
    game = MauMau.create(3, 1, game_info("mau-mau").resolve_options(3, None), None)
    ints, cards, rngs = state_of(game)
    opts = options_array(3)
    gen = np.zeros(3, dtype=np.uint64)
    counts = ints[I_COUNTS : I_COUNTS + 3].copy()
    hand = int(ints[I_HANDS])
    bits = hand & int(ints[I_FIT])
    heuristic_action(hand, bits, -1 if bits else DRAW_A, 0, counts, 3, 1, False, False, gen)
    heuristic_agrees(CARD_ACTION[_lowest(hand)], hand, hand, 0, counts, 3, 1, False, False)
    playout(ints.copy(), cards.copy(), rngs.copy(), opts, gen, 1, 0.2, np.zeros(3), np.zeros(0, dtype=np.int64))
    ids = np.array([c for s in (1, 2) for c in range(32) if game.hands[s] >> c & 1] + game.draw_pile[::-1])
    first, _ = _legal(ints)
    actions = np.array([_nth_legal(first, DRAW_A if not first else -1, 0)], dtype=np.int64)
    flat_deal(ints, cards, rngs, opts, 0, ids.astype(np.int64), U1, U1, actions, 1, 0.2, np.zeros(1))
