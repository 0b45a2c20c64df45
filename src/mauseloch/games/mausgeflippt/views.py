"""Mausgeflippt's view of a seat and its result, declared once as structs (the rules build
them, ``g.view(seat)`` and ``g.result()`` are their JSON form)."""

from __future__ import annotations

from typing import Literal

import msgspec

from mauseloch.core.views import Count, Rank, Result, Seat, View
from mauseloch.games.mausgeflippt.events import Cheese, Face, Mouse

Reason = Literal["mice", "cheese"]  # MG-8: no mouse or no cheese left


class MausgeflipptResult(Result):
    """MG-9: the highest score first, then the most mice."""

    reason: Reason
    ranks: list[Rank]
    mice: list[Count]
    laundry: list[Count]
    cheese: list[Count]
    score: list[int]  # +1 a mouse, -1 a laundry card, -2 a cheese card


class ShownMouse(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The mouse shown while the reaction window is open (MG-2)."""

    mouse: Mouse
    wears: list[Face]
    cheese: Cheese
    protected: bool  # MG-5: its cheese is the open one


class MausgeflipptView(View):
    """What a seat (or a spectator) may know of a Mausgeflippt game."""

    revealer: Seat
    window_open: bool
    mouse: ShownMouse | None
    open_cheese: Cheese | None
    cheeses_left: Count
    mouse_pile: Count
    draw_pile: Count
    discard_pile: Count
    discard_top: Face | None
    discard: list[Face]  # bottom first: every card was laid face up
    hand_counts: list[Count]
    laundry: list[list[Face]]
    mice: list[Count]
    cheese: list[list[Cheese]]
    score: list[int]
    timeouts_in_row: Count
    moves_played: Count
    is_over: bool
    hand: list[Face] | msgspec.UnsetType = msgspec.UNSET  # a seat's own
    legal_moves: list[str] | msgspec.UnsetType = msgspec.UNSET
    result: MausgeflipptResult | msgspec.UnsetType = msgspec.UNSET  # once over
    hands: list[list[Face]] | msgspec.UnsetType = msgspec.UNSET
