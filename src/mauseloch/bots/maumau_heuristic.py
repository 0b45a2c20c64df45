"""The Mau-Mau heuristic bot: plays like a good family player.

It sees only its own view and its legal moves. What it knows of the rules is what a player
reads off the table: a move's string names the card, the view names the top card, the wish and
the penalty. Its habits, in the order they usually decide:

- counters a seven with a seven rather than taking the penalty;
- keeps jacks for a need (no other card fits) or for the end of the game, and wishes the suit it
  holds most of (ties: the suit with more points, which it would rather shed);
- when a rival is close to going out, stops them: sevens make them draw, eights (and aces with
  ``ace_skips``) skip them, a nine turns play away from them; and it sheds high-point cards, since
  it may be caught with them;
- otherwise keeps its hand flexible: it plays the card after which it still holds the most
  cards that fit, leaning towards the suits it is long in, and keeps one seven as a shield.

The decision itself is :func:`heuristic_move`, on the hand as a bit mask and the public counts:
the bot calls it with its view, and the search bot's play-outs call the very same function on
the positions they imagine (one copy of these habits).
"""

from __future__ import annotations

from typing import Any

from ..engine import Rng
from ..games.maumau import ACE, CARD_FIT, CARD_ID, EIGHT, JACK, JACKS, NINE, POINTS, SEVEN, SEVENS, SUIT_MASK, SUITS
from . import register_bot

_TIE = 1 << 20  # exact ties are broken by a random number below this


def heuristic_move(
    legal: list[str],
    hand: int,
    seat: int,
    counts: list[int],
    direction: int,
    ace_skips: bool,
    no_win_with_jack: bool,
    rng: Rng,
) -> str:
    """The heuristic's move among ``legal`` for ``seat`` holding ``hand`` (a mask of card ids),
    with ``counts`` cards in each seat's hand and play going in ``direction``. ``rng`` breaks
    exact ties (one draw per card move scored)."""
    if len(legal) == 1:
        return legal[0]
    if "take" in legal:
        sevens = [m for m in legal if m != "take"]
        # Counter: the penalty moves on. Shed the seven worth the most points (all are worth 7).
        return max(sevens, key=lambda m: POINTS[CARD_ID[m] & 7]) if sevens else "take"
    cards = [m for m in legal if m != "draw" and m != "pass"]
    if not cards:
        return legal[0]
    if "pass" in legal and cards[0][0] == "J" and hand.bit_count() > 2:
        return "pass"  # just drew a jack that fits: keep it for later
    scores = _card_scores(cards, hand, seat, counts, direction, ace_skips, no_win_with_jack)
    best = max(zip(scores, [rng.below(_TIE) for _ in cards], cards, strict=True))
    return best[2]


def heuristic_agrees(
    move: str,
    cards: list[str],
    hand: int,
    seat: int,
    counts: list[int],
    direction: int,
    ace_skips: bool,
    no_win_with_jack: bool,
) -> bool:
    """Whether :func:`heuristic_move` may choose ``move`` (ties included) among ``cards``, a legal
    list of card plays only (nothing drawn, no penalty open). A search that models its rivals as
    this heuristic asks it which hands explain the card a rival played."""
    players = len(counts)
    nxt = (seat + direction) % players
    prev = (seat - direction) % players
    rival_close = min(c for s, c in enumerate(counts) if s != seat) <= 2
    next_close = counts[nxt] <= 2
    wishes = _wish_qualities(hand) if any(m[0] == "J" for m in cards) else _NO_WISHES
    args = (hand, players, counts, nxt, prev, rival_close, next_close, ace_skips, no_win_with_jack, wishes)
    mine = _score(move, *args)
    return all(m == move or _score(m, *args) <= mine for m in cards)


def _card_scores(
    cards: list[str], hand: int, seat: int, counts: list[int], direction: int, ace_skips: bool, no_win_with_jack: bool
) -> list[float]:
    players = len(counts)
    nxt = (seat + direction) % players
    prev = (seat - direction) % players
    rival_close = min(c for s, c in enumerate(counts) if s != seat) <= 2
    next_close = counts[nxt] <= 2
    wishes = _wish_qualities(hand) if any(m[0] == "J" for m in cards) else _NO_WISHES
    return [
        _score(m, hand, players, counts, nxt, prev, rival_close, next_close, ace_skips, no_win_with_jack, wishes)
        for m in cards
    ]


def _score(
    move: str,
    hand: int,
    players: int,
    counts: list[int],
    nxt: int,
    prev: int,
    rival_close: bool,
    next_close: bool,
    ace_skips: bool,
    no_win_with_jack: bool,
    wishes: tuple[float, ...],
) -> float:
    cid = CARD_ID[move[:2]]
    rank, suit = cid & 7, cid >> 3
    rest = hand & ~(1 << cid)
    if not rest:  # going out wins, except a last jack with no_win_with_jack
        return -100.0 if rank == JACK and no_win_with_jack else 1000.0
    score = 0.0
    if rank == JACK:
        # Keep jacks for a need (every legal card is a jack) or the end of the game.
        score -= 30.0 if rest.bit_count() > 1 else -5.0
        wish = SUITS.index(move[3])
        follow = rest & (SUIT_MASK[wish] | JACKS)  # what fits on the wish
    else:
        follow = rest & CARD_FIT[cid]  # same suit, same rank, or a jack
    # Flexibility: how many of my remaining cards fit on what I leave on top.
    score += 4.0 * follow.bit_count()
    # Play from long suits, keep the suit count balanced.
    score += 1.5 * (rest & SUIT_MASK[suit]).bit_count()
    if rank == JACK:
        score += wishes[wish]
    if rank == SEVEN:
        score += 12.0 if next_close else (0.0 if rest & SEVENS else -6.0)  # one seven is a shield
    if rank == EIGHT or (rank == ACE and ace_skips):
        score += 14.0 if next_close else 1.0
    if rank == NINE and players > 2:
        # Turn play away from a rival about to go out, towards one with many cards.
        if next_close and counts[prev] > counts[nxt]:
            score += 12.0
        elif counts[prev] <= 2 and not next_close:
            score -= 8.0
    if rank == NINE and players == 2:
        score += 3.0  # moves again
    # Shed points before someone goes out.
    score += (0.8 if rival_close else 0.1) * POINTS[rank]
    return score


def _wish_qualities(hand: int) -> tuple[float, ...]:
    """How good each wish is (by suit index) for a hand about to play a jack: the suit held most
    of, then the one worth most points (the jack played is no part of it: jacks never count)."""
    plain = hand & ~JACKS
    counts = [(plain >> (8 * s) & 0xFF).bit_count() for s in range(4)]
    points = [_BYTE_POINTS[plain >> (8 * s) & 0xFF] for s in range(4)]
    best = max(range(4), key=lambda s: (counts[s], points[s]))
    return tuple(10.0 * counts[w] + 0.05 * points[w] + (2.0 if w == best else 0.0) for w in range(4))


_BYTE_POINTS = tuple(sum(POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))  # one suit's cards
_NO_WISHES = (0.0, 0.0, 0.0, 0.0)


class HeuristicBot:
    kind = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)  # only to break exact ties, so bots at one table differ

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("the heuristic bot was asked to move with no legal moves")
        hand = 0
        for c in view["hand"]:
            hand |= 1 << CARD_ID[c]
        options: dict[str, Any] = view["options"]
        return heuristic_move(
            legal,
            hand,
            view["seat"],
            view["hand_counts"],
            view["direction"],
            bool(options.get("ace_skips")),
            bool(options.get("no_win_with_jack")),
            self._rng,
        )

    def react(self, view: dict[str, Any], legal: list[str]) -> tuple[str | None, int]:
        """Mau-Mau is played in turns and never opens a reaction window: keep still."""
        return None, 0


register_bot("heuristic", HeuristicBot, game="mau-mau")
