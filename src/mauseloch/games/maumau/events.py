"""Every event Mau-Mau logs, declared once (docs/events.schema.json is generated from these).

The rules log these structs as they happen (rules.py); a private event's ``hidden`` fields are
for its ``private`` seat alone, and the copy the other seats see is derived from it
(:func:`mauseloch.core.events.public_type`).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from mauseloch.core.events import Count, Event, PerSeat, Seat, declare

Card = Annotated[str, msgspec.Meta(pattern="^[789TJQKA][CSHD]$")]
Suit = Literal["C", "S", "H", "D"]
WISHES: tuple[Suit, ...] = ("C", "S", "H", "D")  # by suit index, as the rules count suits


class MauMauDeal(Event, tag="deal"):
    """A hand dealt (private: only its seat sees the cards)."""

    hidden = ("cards",)
    seat: Seat
    count: Count
    cards: list[Card]
    private: Seat


class MauMauStart(Event, tag="start"):
    card: Card  # the first upcard


class MauMauPlay(Event, tag="play"):
    seat: Seat
    card: Card


class MauMauWish(Event, tag="wish"):  # MM-8
    seat: Seat
    suit: Suit


class MauMauDraw(Event, tag="draw"):
    """Cards drawn (private: only its seat sees the cards)."""

    hidden = ("cards",)
    seat: Seat
    count: Count
    cards: list[Card]
    private: Seat


class MauMauPenalty(Event, tag="penalty"):  # MM-6: the open seven-penalty
    seat: Seat
    amount: Count


class MauMauTake(Event, tag="take"):  # the penalty taken; the draw event that follows has the cards
    seat: Seat
    amount: Count


class MauMauSkip(Event, tag="skip"):  # MM-7
    seat: Seat


class MauMauReverse(Event, tag="reverse"):  # MM-9
    seat: Seat
    direction: Literal[1, -1]


class MauMauPass(Event, tag="pass"):
    seat: Seat


class MauMauMau(Event, tag="mau"):
    seat: Seat


class MauMauMauMau(Event, tag="mau_mau"):
    seat: Seat


class MauMauJackNoWin(Event, tag="jack_no_win"):
    seat: Seat


class MauMauReshuffle(Event, tag="reshuffle"):
    count: Count


class MauMauEnd(Event, tag="end"):
    reason: Literal["out", "stalemate", "move_limit"]
    ranks: PerSeat
    cards: PerSeat
    points: PerSeat


EVENTS = declare(
    MauMauDeal, MauMauStart, MauMauPlay, MauMauWish, MauMauDraw, MauMauPenalty, MauMauTake, MauMauSkip,
    MauMauReverse, MauMauPass, MauMauMau, MauMauMauMau, MauMauJackNoWin, MauMauReshuffle, MauMauEnd,
)  # fmt: skip
