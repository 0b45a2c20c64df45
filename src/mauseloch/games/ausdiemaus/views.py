"""Aus die Maus!'s view of a seat and its result, declared once as structs (the rules build
them, ``g.view(seat)`` and ``g.result()`` are their JSON form)."""

from __future__ import annotations

from typing import Literal

import msgspec

from mauseloch.core.views import Count, Rank, Result, Seat, View
from mauseloch.games.ausdiemaus.events import Card, Reason

Phase = Literal["flip", "chase", "new_pile"]


class AusDieMausResult(Result):
    """AM-12: the most cards first, then the most chips."""

    reason: Reason
    ranks: list[Rank]
    cards: list[Count]  # cards in each stack
    chips: list[Count]


class Chase(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The open chase (AM-5, AM-6)."""

    owner: Seat  # the mouse's owner
    chaser: Seat
    attempts_left: Count


class AusDieMausView(View):
    """What a seat (or a spectator) may know: stack sizes (never their order), the pile, chips."""

    phase: Phase | None  # None once over
    stacks: list[Count]
    pile: list[Card]  # oldest first
    top: Card | None
    chips: list[Count]
    chips_left: Count
    chase: Chase | None
    flips: Count
    is_over: bool
    legal_moves: list[str] | msgspec.UnsetType = msgspec.UNSET  # a seat's own
    result: AusDieMausResult | msgspec.UnsetType = msgspec.UNSET  # once over
