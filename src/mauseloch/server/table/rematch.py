"""Rematch votes at a finished table, and a match's next deal."""

from __future__ import annotations

from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.seats import Person
from mauseloch.server.table.host import Table


class Rematch:
    """The seats that asked for a rematch; once everyone still at the table has, the lobby deals
    the next table (the same seats, names and tokens)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.votes: set[int] = set()

    def vote(self, seat: int | None) -> None:
        t = self.table
        if seat is None or t.person(seat) is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "only the people at the table can ask for a rematch")
        if t.row.status != "over":
            raise ProtocolError(ErrorCode.NOT_OVER, "a rematch is possible once the game is over")
        self.votes.add(seat)
        t.publish_live()
        self.check()

    def check(self) -> None:
        """Deal the next table once every person still here voted (someone gone holds up nothing)."""
        t = self.table
        if not self.votes or t.row.next_id is not None:
            return
        staying = [c.row.seat for c in t.seats if isinstance(c, Person) and c.row.taken and c.presence != "gone"]
        if all(s in self.votes for s in staying):
            t.next_table()
