"""Every event Aus die Maus! logs, declared once (docs/events.schema.json is generated from these).

The rules log these structs as they happen (rules.py). Aus die Maus! hides nothing: every seat
sees every event as it is.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from mauseloch.core.events import Count, Event, PerSeat, Seat, declare

Card = Annotated[str, msgspec.Meta(pattern="^(cheese|mouse[123]|cat)$")]
Reason = Literal["chips", "empty_stack", "endless"]  # why the game ended (AM-9, AM-10, AM-11)


class AusDieMausDeal(Event, tag="deal"):
    stacks: list[int]  # cards per stack, by seat (AM-3)


class AusDieMausStart(Event, tag="start"):
    card: Card


class AusDieMausFlip(Event, tag="flip"):
    seat: Seat
    card: Card


class AusDieMausCall(Event, tag="call"):  # AM-5: a mouse flipped, the chase begins
    seat: Seat  # the mouse's owner
    text: Literal["Mouse, watch out, the cat is coming!"]
    paws: Annotated[int, msgspec.Meta(ge=1, le=3)]
    chaser: Seat


class AusDieMausChase(Event, tag="chase"):
    owner: Seat
    chaser: Seat
    attempts_left: Count


class AusDieMausCatch(Event, tag="catch"):  # AM-6: the chaser's cat catches the mouse
    seat: Seat  # the catcher
    owner: Seat  # whose mouse it was


class AusDieMausEscape(Event, tag="escape"):  # AM-7
    seat: Seat  # the mouse's owner
    chaser: Seat


class AusDieMausPileWon(Event, tag="pile_won"):
    seat: Seat
    count: Count
    chip: bool
    chips: Count  # the winner's chips now
    chips_left: Count


class AusDieMausNewPile(Event, tag="new_pile"):  # AM-8
    seat: Seat
    card: Card


class AusDieMausEnd(Event, tag="end"):
    reason: Reason
    seat: Seat
    flips: Count
    ranks: PerSeat
    cards: PerSeat
    chips: PerSeat
    loop_from: Count | msgspec.UnsetType = msgspec.UNSET  # only when endless (AM-11)


EVENTS = declare(
    AusDieMausDeal, AusDieMausStart, AusDieMausFlip, AusDieMausCall, AusDieMausChase, AusDieMausCatch,
    AusDieMausEscape, AusDieMausPileWon, AusDieMausNewPile, AusDieMausEnd,
)  # fmt: skip
