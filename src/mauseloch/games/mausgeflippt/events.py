"""Every event Mausgeflippt logs, declared once (docs/events.schema.json is generated from these).

The rules log these structs as they happen (rules.py); a private event's ``hidden`` fields are
for its ``private`` seat alone, and the copy the other seats see is derived from it
(:func:`mauseloch.core.events.public_type`). Mausgeflippt's ``catch`` (a card laid on a mouse)
is not Aus die Maus!'s ``catch`` (a cat).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from mauseloch.core.events import Count, Event, PerSeat, Seat, declare
from mauseloch.games.mausgeflippt.cards import CHEESES, FACES, MICE


def _one_of(words: tuple[str, ...]) -> str:
    return "^(" + "|".join(words) + ")$"  # plain words and hyphens: nothing to escape


Face = Annotated[str, msgspec.Meta(pattern=_one_of(FACES))]
Mouse = Annotated[str, msgspec.Meta(pattern=_one_of(MICE))]
Cheese = Annotated[str, msgspec.Meta(pattern=_one_of(CHEESES))]


class MausgeflipptDeal(Event, tag="deal"):
    """A hand dealt (private: only its seat sees the cards)."""

    hidden = ("cards",)
    seat: Seat
    count: Count
    cards: list[Face]
    private: Seat


class MausgeflipptCheeseOpen(Event, tag="cheese_open"):
    cheese: Cheese  # the cheese now face up
    left: Count


class MausgeflipptReveal(Event, tag="reveal"):  # MG-2: a mouse turned face up, the window opens
    seat: Seat
    mouse: Mouse
    wears: list[Face]
    cheese: Cheese
    protected: bool


class MausgeflipptReaction(Event, tag="reaction"):  # the reaction that resolved the window
    seat: Seat
    move: str
    ms: Count | None


class MausgeflipptCatch(Event, tag="catch"):  # MG-3: a fitting card laid on the mouse
    seat: Seat
    card: Face
    mouse: Mouse


class MausgeflipptWrongCard(Event, tag="wrong_card"):  # MG-4
    seat: Seat
    card: Face
    mouse: Mouse


class MausgeflipptProtectedCatch(Event, tag="protected_catch"):  # MG-5
    seat: Seat
    card: Face
    mouse: Mouse


class MausgeflipptMausgeflippt(Event, tag="mausgeflippt"):  # the shout, right or wrong
    seat: Seat
    mouse: Mouse
    correct: bool
    fitting: list[Face]  # the fitting cards the shouter held (washed when wrong)
    hand_count: Count
    protected: bool


class MausgeflipptMouseWon(Event, tag="mouse_won"):
    seat: Seat
    mouse: Mouse
    by: Literal["catch", "flip"]
    total: Count


class MausgeflipptMouseUnder(Event, tag="mouse_under"):  # the mouse goes under the mouse pile
    mouse: Mouse
    pile: Count


class MausgeflipptLaundry(Event, tag="laundry"):
    seat: Seat
    laundry: list[Face]
    total: Count


class MausgeflipptCheeseTaken(Event, tag="cheese_taken"):
    seat: Seat
    cheese: Cheese
    mouse: Mouse
    total: Count


class MausgeflipptDraw(Event, tag="draw"):
    """Cards drawn (private: only its seat sees the cards)."""

    hidden = ("cards",)
    seat: Seat
    count: Count
    wanted: Count
    cards: list[Face]
    private: Seat


class MausgeflipptTimeout(Event, tag="timeout"):  # MG-6
    seat: Seat
    mouse: Mouse
    in_row: Count


class MausgeflipptRevealer(Event, tag="revealer"):
    seat: Seat


class MausgeflipptReshuffle(Event, tag="reshuffle"):
    count: Count


class MausgeflipptEnd(Event, tag="end"):  # MG-8, MG-9
    reason: Literal["mice", "cheese"]
    ranks: PerSeat
    mice: PerSeat
    laundry: PerSeat
    cheese: PerSeat
    score: PerSeat


EVENTS = declare(
    MausgeflipptDeal, MausgeflipptCheeseOpen, MausgeflipptReveal, MausgeflipptReaction, MausgeflipptCatch,
    MausgeflipptWrongCard, MausgeflipptProtectedCatch, MausgeflipptMausgeflippt, MausgeflipptMouseWon,
    MausgeflipptMouseUnder, MausgeflipptLaundry, MausgeflipptCheeseTaken, MausgeflipptDraw, MausgeflipptTimeout,
    MausgeflipptRevealer, MausgeflipptReshuffle, MausgeflipptEnd,
)  # fmt: skip
