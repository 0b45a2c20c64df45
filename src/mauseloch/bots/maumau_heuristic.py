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
"""

from __future__ import annotations

from typing import Any

from ..engine import Rng
from ..games.maumau import POINTS, RANKS, SUITS
from . import register_bot

SEVEN, EIGHT, NINE, JACK, ACE = "7", "8", "9", "J", "A"


def _points(card: str) -> int:
    return POINTS[RANKS.index(card[0])]


class HeuristicBot:
    kind = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)  # only to break exact ties, so bots at one table differ

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("the heuristic bot was asked to move with no legal moves")
        if len(legal) == 1:
            return legal[0]
        hand: list[str] = view["hand"]
        if "take" in legal:
            sevens = [m for m in legal if m != "take"]
            # Counter: the penalty moves on. Shed the seven worth the most points.
            return max(sevens, key=_points) if sevens else "take"

        cards = [m for m in legal if m not in ("draw", "pass", "take")]
        if "pass" in legal and cards:  # just drew a card that fits
            drawn = cards[0]
            if drawn[0] == JACK and len(hand) > 2:
                return "pass"  # keep the jack for later
            return self._best(view, hand, cards)
        if not cards:
            return legal[0]
        return self._best(view, hand, cards)

    def react(self, view: dict[str, Any], legal: list[str]) -> tuple[str | None, int]:
        """Mau-Mau is played in turns and never opens a reaction window: keep still."""
        return None, 0

    # ------------------------------------------------------------------ scoring
    def _best(self, view: dict[str, Any], hand: list[str], moves: list[str]) -> str:
        scored = [(self._score(view, hand, m), self._rng.below(1 << 20), m) for m in moves]
        return max(scored)[2]

    def _score(self, view: dict[str, Any], hand: list[str], move: str) -> float:
        card, _, wish = move.partition(":")
        rank, suit = card[0], card[1]
        rest = list(hand)
        rest.remove(card)
        players: int = view["players"]
        seat: int = view["seat"]
        counts: list[int] = view["hand_counts"]
        direction: int = view["direction"]
        options: dict[str, Any] = view["options"]
        nxt = (seat + direction) % players
        prev = (seat - direction) % players
        rival_close = min(c for s, c in enumerate(counts) if s != seat) <= 2
        next_close = counts[nxt] <= 2
        score = 0.0

        if not rest:  # going out wins, except a last jack with no_win_with_jack
            return -100.0 if rank == JACK and options.get("no_win_with_jack") else 1000.0

        if rank == JACK:
            # Keep jacks for a need (every legal card is a jack) or the end of the game.
            score -= 30.0 if len(rest) > 1 else -5.0
            suit_after = wish
        else:
            suit_after = suit

        # Flexibility: how many of my remaining cards fit on what I leave on top.
        follow = sum(1 for c in rest if c[1] == suit_after or (rank != JACK and c[0] == rank) or c[0] == JACK)
        score += 4.0 * follow
        # Play from long suits, keep the suit count balanced.
        same_suit = sum(1 for c in rest if c[1] == suit)
        score += 1.5 * same_suit

        if rank == JACK:
            score += self._wish_quality(rest, wish)

        if rank == SEVEN:
            sevens_left = sum(1 for c in rest if c[0] == SEVEN)
            score += 12.0 if next_close else (0.0 if sevens_left else -6.0)  # one seven is a shield
        if rank == EIGHT or (rank == ACE and options.get("ace_skips")):
            score += 14.0 if next_close else 1.0
        if rank == NINE and players > 2:
            # Turn play away from a rival about to go out, towards one with many cards.
            if next_close and counts[prev] > counts[nxt]:
                score += 12.0
            elif counts[prev] <= 2 and not next_close:
                score -= 8.0
        if rank == NINE and players == 2:
            score += 3.0  # moves again

        if rival_close:
            score += 0.8 * _points(card)  # shed points before someone goes out
        else:
            score += 0.1 * _points(card)
        return score

    @staticmethod
    def _wish_quality(rest: list[str], wish: str) -> float:
        """How good a wish is: the suit I hold most of, then the one worth most points."""
        if not wish:
            return 0.0
        counts = {s: 0 for s in SUITS}
        points = {s: 0 for s in SUITS}
        for c in rest:
            if c[0] != JACK:
                counts[c[1]] += 1
                points[c[1]] += _points(c)
        best = max(SUITS, key=lambda s: (counts[s], points[s]))
        return 10.0 * counts[wish] + 0.05 * points[wish] + (2.0 if wish == best else 0.0)


register_bot("heuristic", HeuristicBot, game="mau-mau")
