"""Who moves next and when: the turn clock, the bots' turn, and what happens when a deadline is due.

Deadlines (server/clock.py) are stored with the table, the next turn's in the same transaction as
the move that starts it (moves.py); grace times of people who went away, and the closing of a
table everyone left before it began, are deadlines too.
"""

from __future__ import annotations

import asyncio
import logging

from mauseloch.server.clock import Deadline, clock_seconds, wall
from mauseloch.server.seats import Person
from mauseloch.server.table.host import Table
from mauseloch.server.table.work import unbroken

log = logging.getLogger("mauseloch.server")


class Timekeeper:
    """The table's turn clock and the handler of its deadlines."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def schedule(self) -> None:
        """After any change: let the bot or stand-in to move move after its pause, or run the
        clock of the person to move."""
        t = self.table
        if t.stopping or not t.started:
            return
        game, deadlines = t.game, t.deadlines
        if t.row.status != "playing" or game.is_over or game.to_move is None:
            deadlines.remove("turn")
            return
        seat = game.to_move
        if t.paused:  # nothing moves by itself; a turn that began meanwhile keeps its whole time
            t.clear_bot_due()
            t.freeze()
            return
        if t.reactions is not None and any(
            isinstance(c, Person) and c.row.taken and c.conns == 0 and not c.stand_in for c in t.seats
        ):  # a reaction game shows no card while someone is not at the table (nor yet replaced)
            deadlines.remove("turn")
            t.clear_bot_due()
            return
        seconds = clock_seconds(t.row.game, t.row.clock)
        countdown = t.reactions is not None and seconds is not None
        if t.seats[seat].mover() is not None and not countdown:  # reaction games: everyone's countdown
            deadlines.remove("turn")  # in memory only: a bot's turn has no clock
            t.start_bot()
            return
        t.clear_bot_due()
        if seconds is None:
            deadlines.remove("turn")
            return
        turn = deadlines.get("turn")
        if turn is None or turn.version != t.version:  # no stored deadline for this turn yet
            deadlines.set(Deadline("turn", wall() + deadlines.seconds(seconds), version=t.version))
            self.save()

    def save(self) -> None:
        # the timers run on in memory; a failed write is logged, only a restart would forget them
        t = self.table
        t.write_later("deadlines", t.store.set_deadlines, t.id, t.deadlines.to_list())

    def due(self, d: Deadline) -> None:
        """The deadlines' timer: ``d`` is due (handled under the table's lock)."""
        asyncio.get_running_loop().create_task(unbroken(self._handle(d)))

    async def _handle(self, d: Deadline) -> None:
        t = self.table
        async with t.lock:
            if t.stopping or t.deadlines.get(d.kind, d.seat) is not d:
                return
            if d.kind == "grace" and d.seat is not None:
                t.deadlines.remove("grace", d.seat)
                self.save()
                t.gone(d.seat)
                return
            if d.kind == "close":
                t.deadlines.remove("close")
                if t.row.status == "waiting":
                    t.close("everyone left before the game began")
                return
            # a turn clock ran out: the stand-in plays this one move for the seat
            seat = t.game.to_move
            if d.version != t.version or seat is None or t.game.is_over or t.row.status != "playing":
                t.deadlines.remove("turn")
                return
            if t.reactions is not None:  # the countdown ended: the next card is turned for the revealer
                await t.play(seat, "reveal", None)
                return
            if t.seats[seat].mover() is not None:
                t.deadlines.remove("turn")
                return
            log.info("table %s: seat %s ran out of time; the stand-in moves", t.id, seat)
            await t.bot_play(seat, t.seats[seat], d.due)
