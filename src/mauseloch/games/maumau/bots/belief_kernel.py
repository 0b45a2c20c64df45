"""Compiled half of the search bot's history belief (``games.maumau.bots.belief``): how well a guess at
every hidden card of a Mau-Mau game explains the public history, and a Markov chain over such
guesses.

A *particle* gives a card to every position of the game's deck sequence (``cards_at``): the
cards dealt to each seat, the cards drawn in order, the draw pile still left, and the piles
made again by each reshuffle (MM-8), each position in its *group* (the deal, or one reshuffle)
and owned by the seat that received it. The events (``ev``, one row each, made by
``games.maumau.bots.belief.History``) replay the rivals' hands through the game and count what a particle
contradicts:

- **hard** facts, which the rules make certain: a card played was in the hand (MM-4), a rival
  who drew or passed held no card that fitted (MM-6, MM-14), a drawn card that was played
  straight away is the card drawn, one kept fitted and one not played did not (MM-7);
- **soft** facts, true when the rival plays like the heuristic bot: its free choice among the
  cards that fitted (``heuristic_agrees``), a seven countered with its lowest seven, a penalty
  taken with no seven in hand, a drawn card kept only when it is a jack and the hand is long.
"""

from __future__ import annotations

from mauseloch.extras import needs
from mauseloch.games.maumau.kernel import ACT_CARD, JACKS, SEVENS, _popcount, heuristic_agrees
from mauseloch.kernels.rng import GOLDEN, mix64

with needs("sim", __name__):
    import numpy as np
    from numba import njit

# Event kinds (column 0 of an event row); column 1 is the seat.
RECV = 0  # the seat receives the card at position col 2
PLAY_FREE = 1  # plays action col 2 by free choice; col 3 the cards that fitted; col 4 direction
PLAY_DRAWN = 2  # plays the card it has just drawn (position col 3), action col 2, col 4 direction
PLAY_COUNTER = 3  # counters a penalty with the seven of action col 2
NO_FIT = 4  # drew, or passed with nothing to draw: held none of col 3
DRAWN_NO_FIT = 5  # the card drawn (position col 2) did not fit col 3: the turn passed
DRAWN_KEPT = 6  # the card drawn (position col 2) fitted col 3 and was kept (pass)
TAKE = 7  # took a penalty: held no seven (the heuristic always counters)
EV_COLS = 5


@njit(cache=True)
def _next(gen: np.ndarray) -> np.uint64:
    gen[0] = gen[0] + GOLDEN
    return mix64(gen[0])


@njit(cache=True)
def _below(gen: np.ndarray, n: int) -> int:
    return int(_next(gen) % np.uint64(n))


@njit(cache=True)
def _uniform(gen: np.ndarray) -> float:
    return float(_next(gen) >> np.uint64(11)) / 9007199254740992.0


@njit(cache=True)
def contradictions(
    ev: np.ndarray, counts: np.ndarray, cards_at: np.ndarray, players: int, ace_skips: bool,
    no_win_with_jack: bool, hands: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """Replay ``ev`` on the particle ``cards_at``: (hard, soft) facts it contradicts; the
    rivals' hands at the end are left in ``hands``."""
    hands[:] = 0
    hard = 0
    soft = 0
    for e in range(ev.shape[0]):
        kind = ev[e, 0]
        s = ev[e, 1]
        if kind == RECV:
            hands[s] |= 1 << cards_at[ev[e, 2]]
        elif kind == PLAY_FREE:
            card = ACT_CARD[ev[e, 2]]
            bit = 1 << card
            hand = hands[s]
            if not hand & bit:
                hard += 1
            else:
                fitting = hand & ev[e, 3]
                # a real choice: two cards fitted, or a jack (one move per wish)
                if (fitting & (fitting - 1) or fitting & JACKS) and not heuristic_agrees(
                    ev[e, 2], fitting, hand, s, counts[e], players, ev[e, 4], ace_skips, no_win_with_jack
                ):
                    soft += 1
            hands[s] = hand & ~bit
        elif kind == PLAY_DRAWN:
            card = ACT_CARD[ev[e, 2]]
            bit = 1 << card
            hand = hands[s]
            if cards_at[ev[e, 3]] != card:
                hard += 1
            elif bit & JACKS and (
                # the heuristic keeps a drawn jack while it holds more than two cards, and wishes
                # as it always does
                _popcount(hand) > 2
                or not heuristic_agrees(
                    ev[e, 2], bit, hand, s, counts[e], players, ev[e, 4], ace_skips, no_win_with_jack
                )
            ):
                soft += 1
            hands[s] = hand & ~bit
        elif kind == PLAY_COUNTER:
            card = ACT_CARD[ev[e, 2]]
            bit = 1 << card
            hand = hands[s]
            if not hand & bit:
                hard += 1
            elif hand & SEVENS & (bit - 1):  # the heuristic counters with its lowest seven
                soft += 1
            hands[s] = hand & ~bit
        elif kind == NO_FIT:
            if hands[s] & ev[e, 3]:
                hard += 1
        elif kind == DRAWN_NO_FIT:
            if (1 << cards_at[ev[e, 2]]) & ev[e, 3]:
                hard += 1
        elif kind == DRAWN_KEPT:
            bit = 1 << cards_at[ev[e, 2]]
            if not bit & ev[e, 3]:
                hard += 1
            elif not (bit & JACKS and _popcount(hands[s]) > 2):
                soft += 1
        elif kind == TAKE and hands[s] & SEVENS:
            soft += 1
    return hard, soft


@njit(cache=True)
def chain(
    ev: np.ndarray, counts: np.ndarray, cards_at: np.ndarray, players: int, ace_skips: bool,
    no_win_with_jack: bool, movable: np.ndarray, partners: np.ndarray, partner_count: np.ndarray,
    group_of: np.ndarray, hard_w: float, soft_w: float, burn: int, thin: int, gen: np.ndarray,
    out_hands: np.ndarray, out_cards: np.ndarray, out_facts: np.ndarray,
) -> float:  # fmt: skip
    """Metropolis over particles: swap the cards of a rival's position (``movable``) and another
    hidden position of its group (``partners[group]``), keep the swap with probability
    ``exp(-(hard_w * Δhard + soft_w * Δsoft))``; after ``burn`` steps, every ``thin`` steps a
    sample: the rivals' hands at the end (``out_hands``), the whole particle (``out_cards``) and
    its (hard, soft) count (``out_facts``). ``cards_at`` is left at the last state. Returns the
    share of swaps kept."""
    hands = np.zeros(8, dtype=np.int64)
    hard, soft = contradictions(ev, counts, cards_at, players, ace_skips, no_win_with_jack, hands)
    energy = hard_w * hard + soft_w * soft
    samples = out_hands.shape[0]
    steps = burn + samples * thin
    kept = 0
    k = 0
    for step in range(steps):
        if movable.shape[0] > 0:
            i = movable[_below(gen, movable.shape[0])]
            g = group_of[i]
            j = partners[g, _below(gen, partner_count[g])]
            if j != i and cards_at[i] != cards_at[j]:
                a = cards_at[i]
                cards_at[i] = cards_at[j]
                cards_at[j] = a
                h2, s2 = contradictions(ev, counts, cards_at, players, ace_skips, no_win_with_jack, hands)
                e2 = hard_w * h2 + soft_w * s2
                if e2 <= energy or _uniform(gen) < np.exp(energy - e2):
                    hard, soft, energy = h2, s2, e2
                    kept += 1
                else:
                    cards_at[j] = cards_at[i]
                    cards_at[i] = a
        if step >= burn and (step - burn) % thin == thin - 1:
            contradictions(ev, counts, cards_at, players, ace_skips, no_win_with_jack, hands)
            out_hands[k, :] = hands[: out_hands.shape[1]]
            out_cards[k, :] = cards_at
            out_facts[k, 0] = hard
            out_facts[k, 1] = soft
            k += 1
    return kept / max(steps, 1)


@njit(cache=True)
def deals_of(
    out_hands: np.ndarray, out_cards: np.ndarray, out_facts: np.ndarray, seat: int, players: int, pile_from: int,
    gen: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The samples that break no rule as the search deals them, one row each: the rivals'
    hands in seat order (cards by id), then the draw pile (positions ``pile_from`` on of the
    particle) in an order drawn from ``gen`` (nobody sees it)."""
    width = out_cards.shape[1] - pile_from
    for s in range(players):
        if s != seat:
            width += _popcount(out_hands[0, s])
    good = 0
    for k in range(out_hands.shape[0]):
        if out_facts[k, 0] == 0:
            good += 1
    deals = np.empty((good, width), dtype=np.int64)
    row = 0
    for k in range(out_hands.shape[0]):
        if out_facts[k, 0]:
            continue
        i = 0
        for s in range(players):
            if s != seat:
                for c in range(32):
                    if out_hands[k, s] >> c & 1:
                        deals[row, i] = c
                        i += 1
        start = i
        for p in range(pile_from, out_cards.shape[1]):
            deals[row, i] = out_cards[k, p]
            i += 1
        for j in range(i - 1, start, -1):  # Fisher-Yates
            t = start + _below(gen, j - start + 1)
            a = deals[row, j]
            deals[row, j] = deals[row, t]
            deals[row, t] = a
        row += 1
    return deals
