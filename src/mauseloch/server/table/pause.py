"""Pause and pace: the people seated pause the whole table and set the bots' speed.

Alone (the only person connected), a pause starts at once; with others connected it is a request
that starts the pause once every person connected has agreed. While paused nothing happens by
itself (no bot, no stand-in, no card turned in a reaction game), the turn clock is frozen with the
time it had left, and moves are refused with ``paused``; any person seated resumes it. A pause
ends by itself only when no person is left at the table (everyone gone: the stand-ins finish the
game, as without a pause).
"""

from __future__ import annotations

from typing import TypedDict

from mauseloch.server.clock import Deadline, wall
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.seats import Person
from mauseloch.server.table.host import Table


class Pace(TypedDict):
    paused: bool
    speed: float


class PauseState(TypedDict):
    """What everyone sees of a pause: who paused, or who asked, who agreed and who is still asked."""

    paused: bool
    by: int | None
    asked: int | None
    agreed: list[int]
    waiting: list[int]


class Pause:
    """A table's pause (kept as its ``pause`` deadline, so a restart keeps it) and the bots' pace."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.asked: list[int] = []  # seats that asked for a pause or agreed to it, the asker first
        self.speed = 1.0  # the bots' pace, set by the people at the table

    @property
    def paused(self) -> bool:
        return self.table.deadlines.get("pause") is not None

    @property
    def by(self) -> int | None:
        """The seat whose pause holds the table (the asker of an agreed pause), or None."""
        pause = self.table.deadlines.get("pause")
        return None if pause is None else pause.seat

    @property
    def pace(self) -> Pace:
        return {"paused": self.paused, "speed": self.speed}

    def state(self) -> PauseState:
        asked = self.asked
        return {
            "paused": self.paused,
            "by": self.by,
            "asked": asked[0] if asked else None,
            "agreed": asked[1:],
            "waiting": [s for s in self.table.present() if s not in asked] if asked else [],
        }

    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        """Someone seated sets the bots' ``speed`` and, with ``paused``, where they stand on a
        pause: asking for one or agreeing to it (``True``), resuming or withdrawing (``False``);
        the same stand sent again changes only the speed. Spectators change nothing."""
        t = self.table
        person = t.person(seat) if seat is not None else None
        if seat is None or person is None or not person.row.taken:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, "only the people seated at the table pause it or set the bots' pace"
            )
        stands = self.paused or seat in self.asked
        if paused and not stands:
            if t.row.status != "playing" or t.game.is_over:
                raise ProtocolError(ErrorCode.NOT_STARTED, "only a game being played can be paused")
            self.asked.append(seat)
        elif not paused and stands:
            if self.paused:
                self.resume()
            elif self.asked[0] == seat:  # the asker withdraws the request
                self.asked = []
            else:
                self.asked.remove(seat)
        self.speed = speed
        self.check()
        t.schedule()
        t.publish_live()

    def check(self) -> None:
        """A request everyone connected agreed to (alone: one's own) pauses the table; a request
        nobody connected stands by any more is dropped."""
        if self.paused or not self.asked:
            return
        present = self.table.present()
        self.asked = [s for s in self.asked if s in present]
        if self.asked and all(s in self.asked for s in present):
            self.table.deadlines.set(Deadline("pause", wall(), seat=self.asked[0]))
            self.asked = []
            self.freeze()
            self.table.save_deadlines()

    def freeze(self) -> None:
        """Hold the running turn clock with the seconds it has left (stored: a restart keeps them)."""
        deadlines = self.table.deadlines
        turn = deadlines.get("turn")
        if turn is not None and turn.left is None:
            deadlines.set(turn.frozen(wall()))
            self.table.save_deadlines()

    def resume(self) -> None:
        """End the pause: the turn clock runs on with the time it had left."""
        deadlines = self.table.deadlines
        deadlines.remove("pause")
        turn = deadlines.get("turn")
        if turn is not None and turn.left is not None:
            deadlines.set(turn.thawed(wall()))
        self.asked = []
        self.table.save_deadlines()
        self.table.schedule()

    def presence_changed(self) -> None:
        """Someone came or went: a request may now be agreed by everyone still here; a pause with
        no person left at the table ends (the stand-ins finish the game)."""
        seats = self.table.seats
        if self.paused and not any(isinstance(c, Person) and c.row.taken and not c.row.gone for c in seats):
            self.resume()
        self.check()

    def game_over(self) -> None:
        """The game ended: a request asks for nothing any more (the deadlines, the pause with
        them, are cleared by the move that ended it)."""
        self.asked = []
