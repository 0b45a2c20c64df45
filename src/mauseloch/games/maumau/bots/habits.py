"""The Mau-Mau heuristic's habits, written once, in plain Python on bit masks.

:mod:`mauseloch.games.maumau.bots.heuristic` describes the habits; this module is their one copy. The
heuristic bot calls the functions here as they are, so it needs the standard library only (the
offline page runs it in the browser). The compiled kernel (:mod:`mauseloch.games.maumau.kernel`)
compiles these same functions with numba for the search's play-outs, its reading of the rivals
and the batched environments: it gives their code its own tables (arrays) and its own bit helpers
under the names they read here.

So the functions below :data:`SHARED` read only what both homes define under one name: the
tables (``CARD_ACTION``, ``ACT_CARD``, ``ACT_WISH``, ``ACT_STR_RANK``, ``CARD_FIT_A``,
``SUIT_MASK_A``, ``CARD_POINTS``, ``BYTE_POINTS``, ``RANK_POINTS``), the constants and the bit
helpers (``_popcount``, ``_lowest``, ``_seat`` and ``_tie``, the tie-breaking draw: here
``Rng.below(1 << 20)`` of an :class:`~mauseloch.core.engine.Rng`, in the kernel the same draw on a
generator's three words). ``_legal_count`` and ``_nth_legal`` are built on those helpers alone,
so the kernel compiles them from here too.

Moves are action ids (``MauMau.ACTIONS``); the legal moves are the kernel's ``(cards, other)``
form: the mask of the cards among the moves (a jack once for its four wishes) and the one other
move's action id, or -1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mauseloch.core.engine import Rng
from mauseloch.games.maumau.rules import CARD_FIT, CARD_ID, JACK, JACKS, POINTS, SEVEN, SEVENS, SUIT_MASK, SUITS, MauMau

DRAW_A, PASS_A, TAKE_A = (MauMau._ACTION_ID[m] for m in ("draw", "pass", "take"))
_OTHER = ("draw", "pass", "take")
# The card of each action id, and its wish (-1: none); a card's first action id.
ACT_CARD = tuple(-1 if m in _OTHER else CARD_ID[m[:2]] for m in MauMau.ACTIONS)
ACT_WISH = tuple(SUITS.index(m[3]) if ":" in m else -1 for m in MauMau.ACTIONS)
CARD_ACTION = tuple(ACT_CARD.index(c) for c in range(32))
CARD_FIT_A = tuple(CARD_FIT)
SUIT_MASK_A = tuple(SUIT_MASK)
CARD_POINTS = tuple(POINTS[c & 7] for c in range(32))
EIGHT_R, NINE_R, ACE_R = 1, 2, 7
# Python's last word on an exact tie of score and random number: the greater move string.
ACT_STR_RANK = tuple(sorted(MauMau.ACTIONS).index(m) for m in MauMau.ACTIONS)
BYTE_POINTS = tuple(sum(POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))
RANK_POINTS = tuple(POINTS)
NO_WISHES = (0.0, 0.0, 0.0, 0.0)
TIE_BOUND = 1 << 20  # exact ties: one whole 64-bit output, its low 20 bits


# --------------------------------------------------------------------------- bit helpers
# Plain Python's; the kernel has compiled ones of the same names and results.


_popcount = int.bit_count


def _lowest(bits: int) -> int:
    """The index of the lowest set bit of ``bits`` (> 0)."""
    return (bits & -bits).bit_length() - 1


def _seat(x: int, n: int) -> int:
    """``x % n`` for ``-n <= x < 2 * n``."""
    return x % n


def _legal_count(bits: int, other: int) -> int:
    return _popcount(bits & ~JACKS) + 4 * _popcount(bits & JACKS) + (1 if other >= 0 else 0)


def _nth_legal(bits: int, other: int, k: int) -> int:
    """The ``k``-th legal action id in increasing id order (the engine's ``legal_moves`` order)."""
    while bits:
        c = _lowest(bits)
        bits &= bits - 1
        width = 4 if c & 7 == JACK else 1
        if k < width:
            return CARD_ACTION[c] + k
        k -= width
    return other


def _tie(gen: Rng) -> int:
    """The number that breaks an exact tie: ``Rng.below(1 << 20)``."""
    return gen.below(TIE_BOUND)


# --------------------------------------------------------------------------- the habits
# Read by the kernel too: only the names above, nothing else of this module.


def _wish_qualities(hand: int) -> tuple[float, float, float, float]:
    """How good each wish is (by suit index) for a hand about to play a jack: the suit held most
    of, then the one worth most points (jacks are no part of it: they never count)."""
    plain = hand & ~JACKS
    best = 0
    best_count = -1
    best_points = -1
    for s in range(4):
        byte = (plain >> (8 * s)) & 0xFF
        c = _popcount(byte)
        p = BYTE_POINTS[byte]
        if c > best_count or (c == best_count and p > best_points):
            best, best_count, best_points = s, c, p
    q = [0.0, 0.0, 0.0, 0.0]
    for w in range(4):
        byte = (plain >> (8 * w)) & 0xFF
        q[w] = 10.0 * _popcount(byte) + 0.05 * BYTE_POINTS[byte] + (2.0 if w == best else 0.0)
    return q[0], q[1], q[2], q[3]


def _score(
    card: int, wish: int, hand: int, players: int, counts: Sequence[int], nxt: int, prev: int,
    rival_close: bool, next_close: bool, ace_skips: bool, no_win_with_jack: bool,
    wishes: tuple[float, float, float, float],
) -> float:  # fmt: skip
    """The heuristic's score of playing ``card`` (with ``wish`` for a jack) from ``hand``."""
    rank = card & 7
    suit = card >> 3
    rest = hand & ~(1 << card)
    if rest == 0:  # going out wins, except a last jack with no_win_with_jack
        return -100.0 if rank == JACK and no_win_with_jack else 1000.0
    score = 0.0
    if rank == JACK:
        # Keep jacks for a need (every legal card is a jack) or the end of the game.
        score -= 30.0 if _popcount(rest) > 1 else -5.0
        follow = rest & (SUIT_MASK_A[wish] | JACKS)  # what fits on the wish
    else:
        follow = rest & CARD_FIT_A[card]  # same suit, same rank, or a jack
    # Flexibility: how many of my remaining cards fit on what I leave on top.
    score += 4.0 * _popcount(follow)
    # Play from long suits, keep the suit count balanced.
    score += 1.5 * _popcount(rest & SUIT_MASK_A[suit])
    if rank == JACK:
        score += wishes[wish]
    if rank == SEVEN:
        score += 12.0 if next_close else (0.0 if rest & SEVENS else -6.0)  # one seven is a shield
    if rank == EIGHT_R or (rank == ACE_R and ace_skips):
        score += 14.0 if next_close else 1.0
    if rank == NINE_R and players > 2:
        # Turn play away from a rival about to go out, towards one with many cards.
        if next_close and counts[prev] > counts[nxt]:
            score += 12.0
        elif counts[prev] <= 2 and not next_close:
            score -= 8.0
    if rank == NINE_R and players == 2:
        score += 3.0  # moves again
    # Shed points before someone goes out.
    score += (0.8 if rival_close else 0.1) * RANK_POINTS[rank]
    return score


def _situation(seat: int, counts: Sequence[int], players: int, direction: int) -> tuple[int, int, bool, bool]:
    """The next seat, the previous one, whether some rival and whether the next one is close
    to going out (two cards or fewer)."""
    nxt = _seat(seat + direction, players)
    prev = _seat(seat - direction, players)
    least = 1 << 30
    for s in range(players):
        if s != seat and counts[s] < least:
            least = counts[s]
    return nxt, prev, least <= 2, counts[nxt] <= 2


def heuristic_action(
    hand: int, bits: int, other: int, seat: int, counts: Sequence[int], players: int, direction: int,
    ace_skips: bool, no_win_with_jack: bool, gen: Any,
) -> int:  # fmt: skip
    """The heuristic's action id among the legal moves ``(bits, other)`` of ``seat`` holding
    ``hand``, with ``counts`` cards in each hand; ``gen`` breaks exact ties, one number per card
    move scored (in the legal list's order)."""
    if _legal_count(bits, other) == 1:
        return _nth_legal(bits, other, 0)
    if other == TAKE_A:
        # Counter: the penalty moves on. Shed the seven worth the most points (all are worth 7).
        best_card = -1
        rest = bits
        while rest:
            c = _lowest(rest)
            rest &= rest - 1
            if best_card < 0 or CARD_POINTS[c] > CARD_POINTS[best_card]:
                best_card = c
        return CARD_ACTION[best_card] if best_card >= 0 else TAKE_A
    if bits == 0:
        return other
    first = _lowest(bits)
    if other == PASS_A and first & 7 == JACK and _popcount(hand) > 2:
        return PASS_A  # just drew a jack that fits: keep it for later
    nxt, prev, rival_close, next_close = _situation(seat, counts, players, direction)
    wishes = _wish_qualities(hand) if bits & JACKS else NO_WISHES
    best = -1
    best_score = 0.0
    best_tie = 0
    rest = bits
    while rest:
        c = _lowest(rest)
        rest &= rest - 1
        width = 4 if c & 7 == JACK else 1
        for k in range(width):
            a = CARD_ACTION[c] + k
            score = _score(
                c, ACT_WISH[a], hand, players, counts, nxt, prev, rival_close, next_close, ace_skips,
                no_win_with_jack, wishes,
            )  # fmt: skip
            tie = _tie(gen)
            # as Python's max over (score, random number, move string) decides
            later = tie > best_tie or (tie == best_tie and ACT_STR_RANK[a] > ACT_STR_RANK[best])
            if best < 0 or score > best_score or (score == best_score and later):
                best, best_score, best_tie = a, score, tie
    return best


def heuristic_agrees(
    action: int, fitting: int, hand: int, seat: int, counts: Sequence[int], players: int, direction: int,
    ace_skips: bool, no_win_with_jack: bool,
) -> bool:  # fmt: skip
    """Whether ``heuristic_action`` may choose the card move ``action`` (ties included) for a
    seat whose cards ``fitting`` fit (a free choice: no penalty open, nothing just drawn)."""
    nxt, prev, rival_close, next_close = _situation(seat, counts, players, direction)
    wishes = _wish_qualities(hand) if fitting & JACKS else NO_WISHES
    args = (hand, players, counts, nxt, prev, rival_close, next_close, ace_skips, no_win_with_jack, wishes)
    mine = _score(ACT_CARD[action], ACT_WISH[action], *args)
    rest = fitting
    while rest:
        c = _lowest(rest)
        rest &= rest - 1
        width = 4 if c & 7 == JACK else 1
        for k in range(width):
            a = CARD_ACTION[c] + k
            if a != action and _score(c, ACT_WISH[a], *args) > mine:
                return False
    return True


# What the kernel compiles, callees first.
SHARED = (_wish_qualities, _score, _situation, heuristic_action, heuristic_agrees)


# --------------------------------------------------------------------------- why (a learner's tip)
# Plain Python only (the kernel never needs it): the reason is read off the same scores, by asking
# what the heuristic would choose if a part of the situation were otherwise.

# The reasons a card move can have, as ids (words: locale/maumau.toml, ``mm.hint.<id>``).
REASONS = (
    "only", "counter", "keep_jack", "draw", "go_out", "seven_next", "skip_next", "turn_next",
    "shed_points", "jack_need", "long_suit", "keeps_options",
)  # fmt: skip


def _best_card(
    bits: int, hand: int, players: int, counts: Sequence[int], nxt: int, prev: int, rival_close: bool,
    next_close: bool, ace_skips: bool, no_win_with_jack: bool,
) -> int:  # fmt: skip
    """The card move with the best score (ties: the first), under the situation given."""
    wishes = _wish_qualities(hand) if bits & JACKS else NO_WISHES
    best, best_score = -1, 0.0
    rest = bits
    while rest:
        c = _lowest(rest)
        rest &= rest - 1
        for k in range(4 if c & 7 == JACK else 1):
            a = CARD_ACTION[c] + k
            score = _score(
                c, ACT_WISH[a], hand, players, counts, nxt, prev, rival_close, next_close, ace_skips,
                no_win_with_jack, wishes,
            )  # fmt: skip
            if best < 0 or score > best_score:
                best, best_score = a, score
    return best


def heuristic_reason(
    action: int, hand: int, bits: int, other: int, seat: int, counts: Sequence[int], players: int,
    direction: int, ace_skips: bool, no_win_with_jack: bool,
) -> str:  # fmt: skip
    """Why :func:`heuristic_action` chose ``action``: one of :data:`REASONS`. The branch it took
    says it for a forced move, a counter, a kept jack or a draw; for a card chosen among others,
    the part of the situation without which it would choose another card (the next player about
    to go out, a rival about to go out), else what the chosen card's score gains most by."""
    if _legal_count(bits, other) == 1:
        return "only"
    if other == TAKE_A:
        return "counter" if action != TAKE_A else "only"
    if action == other or bits == 0:
        return "keep_jack" if action == PASS_A and bits else "draw"
    card = ACT_CARD[action]
    if hand & ~(1 << card) == 0:
        return "go_out"
    nxt, prev, rival_close, next_close = _situation(seat, counts, players, direction)
    args = (bits, hand, players, counts, nxt, prev)
    rank = card & 7
    if next_close and ACT_CARD[_best_card(*args, rival_close, False, ace_skips, no_win_with_jack)] != card:
        if rank == SEVEN:
            return "seven_next"
        if rank == EIGHT_R or (rank == ACE_R and ace_skips):
            return "skip_next"
        if rank == NINE_R:
            return "turn_next"
    if rival_close and ACT_CARD[_best_card(*args, False, next_close, ace_skips, no_win_with_jack)] != card:
        return "shed_points"
    if rank == JACK:
        return "jack_need"
    rest = hand & ~(1 << card)
    follow = _popcount(rest & CARD_FIT_A[card])
    same_suit = _popcount(rest & SUIT_MASK_A[card >> 3])
    return "keeps_options" if 4.0 * follow >= 1.5 * same_suit else "long_suit"
