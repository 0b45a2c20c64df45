"""Mau-Mau's view of a seat and its result, declared once as structs (the rules build them,
``g.view(seat)`` and ``g.result()`` are their JSON form)."""

from __future__ import annotations

from typing import Literal

import msgspec

from mauseloch.core.views import Count, Rank, Result, View
from mauseloch.games.maumau.events import Card, Suit

Reason = Literal["out", "stalemate", "move_limit"]


class MauMauResult(Result):
    """MM-16: fewest cards left first, then fewest card points."""

    reason: Reason
    ranks: list[Rank]
    cards: list[Count]  # cards left per seat
    points: list[Count]  # card points left per seat


class Played(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A move as the record holds it, ``[seat, move]``."""

    seat: int
    move: str


class MauMauView(View):
    """What a seat (or a spectator) may know of a Mau-Mau game."""

    top: Card
    wish: Suit | None  # MM-8: the open wish
    penalty: Count  # MM-9: the open seven-penalty
    direction: Literal[1, -1]
    draw_pile: Count
    discard_pile: Count
    discard: list[Card]  # bottom first: everyone saw them laid
    deciding_drawn: bool  # MM-7: the player to move drew a card that fits
    hand_counts: list[Count]
    moves_played: Count
    is_over: bool
    # a seat's own (not a spectator's)
    hand: list[Card] | msgspec.UnsetType = msgspec.UNSET
    drawn: Card | msgspec.UnsetType | None = msgspec.UNSET  # the card it just drew and may play
    legal_moves: list[str] | msgspec.UnsetType = msgspec.UNSET
    recent: list[Played] | msgspec.UnsetType = msgspec.UNSET  # the moves since its own last one
    # once over
    result: MauMauResult | msgspec.UnsetType = msgspec.UNSET
    hands: list[list[Card]] | msgspec.UnsetType = msgspec.UNSET

    @property
    def own_seat(self) -> int:
        """The seat the view is of (a spectator's has none: ValueError)."""
        if self.seat is None:
            raise ValueError("a seat's view is needed here, not a spectator's")
        return self.seat

    @property
    def own_hand(self) -> list[Card]:
        """The seat's own hand (a spectator's view has none: ValueError)."""
        if isinstance(self.hand, msgspec.UnsetType):
            raise ValueError("a seat's view is needed here, not a spectator's")
        return self.hand

    @property
    def played(self) -> list[Played]:
        """The moves since the seat's own last one (none in a spectator's view)."""
        return [] if isinstance(self.recent, msgspec.UnsetType) else self.recent


def seat_view(view: View, who: str) -> MauMauView:
    """``view`` narrowed to Mau-Mau's view struct of a seat (``g.typed_view(seat)``); ``who``
    reads it: ValueError for any other view (another game's, a spectator's, a JSON form)."""
    if not isinstance(view, MauMauView) or view.seat is None or isinstance(view.hand, msgspec.UnsetType):
        got = f"{view.game}'s view of seat {view.seat}" if isinstance(view, View) else f"a {type(view).__name__}"
        raise ValueError(f"{who} needs the view struct of a seat of a Mau-Mau game (g.typed_view(seat)), not {got}")
    return view
