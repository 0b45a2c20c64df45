"""Who is at the table: connections coming and going, grace times, seats taken, a table closing.

A person whose last connection ends keeps the seat for a grace time (longer for a lost connection
than for leaving on purpose); once it runs out they count as gone and a stand-in plays for them.
"""

from __future__ import annotations

import logging

from mauseloch.server.clock import CLOSE_WAITING, GRACE_LEFT, GRACE_LOST, Deadline, wall
from mauseloch.server.hub import Connection
from mauseloch.server.seats import Person
from mauseloch.server.table.host import LIVE, Table

log = logging.getLogger("mauseloch.server")


class Presence:
    """The connections, grace times and closing of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def restarted(self) -> None:
        """Nobody is connected to a freshly started server: every person who was here gets the
        grace of a lost connection (not stored: a second restart gives it again)."""
        t = self.table
        if t.row.status not in LIVE:
            return
        for ctl in t.seats:
            seat = ctl.row.seat
            if not isinstance(ctl, Person) or not ctl.row.taken or ctl.row.gone or ctl.conns:
                continue
            if t.deadlines.get("grace", seat) is None:
                t.deadlines.set(Deadline("grace", wall() + t.deadlines.seconds(GRACE_LOST), seat=seat))
                ctl.grace_pending = True

    def attach(self, conn: Connection) -> None:
        """A connection joins (the person of its seat is back); it gets a snapshot."""
        t = self.table
        seat = conn.seat
        person = t.person(seat) if seat is not None else None
        if person is not None:
            person.conns += 1
            if person.conns == 1:
                self._returned(person)
        t.hub.subscribe(t.id, conn)
        conn.send(t.snapshot(seat))
        if t.reactions is not None:
            t.reactions.attach(conn)

    def _returned(self, person: Person) -> None:
        t = self.table
        seat = person.row.seat
        changed = person.grace_pending or person.row.gone
        person.grace_pending = False
        had = [t.deadlines.remove("grace", seat), t.deadlines.remove("close")] != [None, None]
        if person.row.gone:
            person.row.gone = False
            t.write_later("presence", t.store.set_gone, t.id, seat, False)
        if had:
            t.save_deadlines()
        if changed:
            t.schedule()
        t.publish_live()

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        """A connection ends. ``left``: the person left on purpose (gone at once, unless another
        of their pages is still open); ``everywhere``: every page of the seat leaves with it."""
        t = self.table
        t.hub.unsubscribe(t.id, conn)
        if t.reactions is not None:
            t.reactions.detach(conn)
        seat = conn.seat
        person = t.person(seat) if seat is not None else None
        if person is None or not person.row.taken:
            return
        person.conns = max(0, person.conns - 1)
        if left and everywhere:
            t.hub.close_seat(t.id, person.row.seat, 1000)  # the leave button: every tab goes
            person.conns = 0
        if person.conns > 0:
            return
        if left and not person.row.gone:
            person.row.gone = True
            t.write_later("presence", t.store.set_gone, t.id, person.row.seat, True)
        # after the game too: someone who is gone does not hold up a rematch
        if t.row.status in (*LIVE, "over") and (left or t.deadlines.get("grace", person.row.seat) is None):
            grace = GRACE_LEFT if left else GRACE_LOST
            t.deadlines.set(Deadline("grace", wall() + t.deadlines.seconds(grace), seat=person.row.seat))
            person.grace_pending = True
            t.save_deadlines()
        t.presence_changed()
        t.publish_live()
        if t.row.status == "over":
            t.check_rematch()

    def gone(self, seat: int) -> None:
        """A grace time ran out: the person counts as gone; a stand-in plays from now on."""
        t = self.table
        person = t.person(seat)
        if person is None:
            return
        person.grace_pending = False
        if person.conns > 0:
            return
        if not person.row.gone:
            person.row.gone = True
            t.write_later("presence", t.store.set_gone, t.id, seat, True)
        humans = [c for c in t.seats if isinstance(c, Person) and c.row.taken]
        if t.row.status == "waiting" and all(c.row.gone and not c.grace_pending for c in humans):
            t.deadlines.set(Deadline("close", wall() + t.deadlines.seconds(CLOSE_WAITING)))
            t.save_deadlines()
        t.presence_changed()
        t.schedule()
        t.publish_live()
        if t.row.status == "over":
            t.check_rematch()

    def close(self, why: str, status: str = "closed") -> None:
        t = self.table
        log.info("table %s %s: %s", t.id, status, why)
        t.row.status = status
        t.write_later("status", t.store.set_status, t.id, status)
        t.deadlines.stop()
        for d in list(t.deadlines):
            t.deadlines.remove(d.kind, d.seat)
        t.save_deadlines()
        t.publish_live()

    async def expire(self) -> None:
        """Nobody joined for too long (Lobby.sweep): a table still waiting closes as "expired"."""
        t = self.table
        async with t.lock:
            if t.row.status == "waiting" and not t.stopping:
                self.close("nobody joined in time", status="expired")

    def seat_taken(self, seat: int) -> None:
        """A free seat was taken (lobby.join): everyone gets a fresh snapshot. Until the newcomer's
        page connects, the seat has the grace of a lost connection."""
        t = self.table
        person = t.person(seat)
        t.deadlines.remove("close")  # someone new sat down
        if person is not None and person.conns == 0 and t.deadlines.get("grace", seat) is None:
            t.deadlines.set(Deadline("grace", wall() + t.deadlines.seconds(GRACE_LOST), seat=seat))
            person.grace_pending = True
            t.save_deadlines()
        t.schedule()
        t.publish_snapshots()
