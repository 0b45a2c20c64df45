"""Family rooms in the database: the room, its members, its tables and the seat tokens its members
were given (schema.py's ``ml_room*`` tables). Plain values out; every call one short transaction
(through :meth:`Store.call <mauseloch.server.storage.store.Store.call>`, off the event loop on a
database server). Nothing is kept in a process: several processes share a room by the database.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypedDict

from mauseloch.extras import needs
from mauseloch.server.bodies import PlannedSeat, RoomChoice
from mauseloch.server.storage.rows import aware
from mauseloch.server.storage.schema import (
    room_members_t,
    room_seats_t,
    room_tables_t,
    rooms_t,
    seats_t,
    tables_t,
)
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy import Connection, Row, delete, func, insert, select, update

# a room's tables followed through their rematches and a match's deals, at most this many rounds
# per read (each round one query; a chain grows by one table per game)
FOLLOW_ROUNDS = 64


class Plan(TypedDict):
    seats: list[PlannedSeat]


NO_PLAN: Plan = {"seats": []}  # a table found by following a rematch: its seats are its tokens' members


class Settings(TypedDict, total=False):
    hints: bool  # "Tipp" for the seats of learning members
    learning: list[str]  # member ids
    choices: dict[str, RoomChoice]  # the last next game asked for, per game


@dataclass
class MemberRow:
    id: str
    name: str
    avatar: str
    token_hash: str
    joined: dt.datetime
    seen: dt.datetime | None = None


@dataclass
class RoomRow:
    id: str
    name: str
    secret_hash: str
    created: dt.datetime
    creator: str
    settings: Settings
    members: list[MemberRow] = field(default_factory=list)


@dataclass
class RoomTable:
    """One table of a room, as the tally and the room page need it."""

    id: str
    game: str
    status: str
    created: dt.datetime
    finished: dt.datetime | None
    result: Any  # the stored JSON
    match: Any
    next_id: str | None
    seats: list[tuple[str, str | None]]  # each seat's name and token hash, in seat order
    kinds: list[str]  # each seat's kind (human, bot, …)
    public: bool
    plan: Plan


class RoomStore:
    """The rooms' reads and writes on a :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Connection]:
        self.store.writes.settle()  # the table writes sent before it first (SQLite: in call order)
        with self.store.engine.begin() as conn:
            yield conn

    # -- rooms and members -------------------------------------------------------------
    def create_room(self, room: RoomRow, first: MemberRow) -> None:
        """A new room with its first member (a taken id raises ``IntegrityError``)."""
        with self._tx() as conn:
            conn.execute(
                insert(rooms_t).values(
                    id=room.id,
                    name=room.name,
                    secret_hash=room.secret_hash,
                    created=room.created,
                    creator=room.creator,
                    settings=room.settings,
                )
            )
            conn.execute(insert(room_members_t).values(room_id=room.id, **_member_values(first)))

    def room(self, room_id: str) -> RoomRow | None:
        with self._tx() as conn:
            row = conn.execute(select(rooms_t).where(rooms_t.c.id == room_id)).first()
            if row is None:
                return None
            members = conn.execute(
                select(room_members_t).where(room_members_t.c.room_id == room_id).order_by(room_members_t.c.joined)
            ).all()
        return RoomRow(
            id=row.id,
            name=row.name,
            secret_hash=row.secret_hash,
            created=aware(row.created),
            creator=row.creator,
            settings=Settings(**(row.settings or {})),
            members=[
                MemberRow(
                    id=m.id,
                    name=m.name,
                    avatar=m.avatar,
                    token_hash=m.token_hash,
                    joined=aware(m.joined),
                    seen=None if m.seen is None else aware(m.seen),
                )
                for m in members
            ],
        )

    def add_member(self, room_id: str, member: MemberRow, limit: int) -> bool:
        """A new member unless the room has ``limit`` already (0: no cap); False then."""
        with self._tx() as conn:
            # the room's row locked first on PostgreSQL: two joins at once count one after the other
            conn.execute(select(rooms_t.c.id).where(rooms_t.c.id == room_id).with_for_update())
            count = conn.execute(
                select(func.count()).select_from(room_members_t).where(room_members_t.c.room_id == room_id)
            ).scalar_one()
            if limit and count >= limit:
                return False
            conn.execute(insert(room_members_t).values(room_id=room_id, **_member_values(member)))
            return True

    def update_member(self, room_id: str, member_id: str, values: dict[str, object]) -> bool:
        """Change a member's ``name``, ``avatar``, ``token_hash`` or ``seen``; False: no such member."""
        with self._tx() as conn:
            done = conn.execute(
                update(room_members_t)
                .where(room_members_t.c.room_id == room_id, room_members_t.c.id == member_id)
                .values(**values)
            )
            return bool(done.rowcount)

    def remove_member(self, room_id: str, member_id: str) -> bool:
        with self._tx() as conn:
            done = conn.execute(
                delete(room_members_t).where(room_members_t.c.room_id == room_id, room_members_t.c.id == member_id)
            )
            return bool(done.rowcount)

    def set_settings(self, room_id: str, settings: Settings) -> None:
        with self._tx() as conn:
            conn.execute(update(rooms_t).where(rooms_t.c.id == room_id).values(settings=settings))

    # -- tables ------------------------------------------------------------------------
    def add_table(self, room_id: str, table_id: str, plan: Plan, created: dt.datetime) -> None:
        with self._tx() as conn:
            conn.execute(insert(room_tables_t).values(room_id=room_id, table_id=table_id, created=created, plan=plan))

    def add_seat(self, room_id: str, token_hash: str, member_id: str) -> None:
        """A seat token given to a member: every table holding it is that member's seat."""
        with self._tx() as conn:
            conn.execute(insert(room_seats_t).values(room_id=room_id, token_hash=token_hash, member=member_id))

    def seat_members(self, room_id: str) -> dict[str, str]:
        """Seat token hash -> member id, for every seat token the room's members were given."""
        with self._tx() as conn:
            rows = conn.execute(
                select(room_seats_t.c.token_hash, room_seats_t.c.member).where(room_seats_t.c.room_id == room_id)
            ).all()
        return {r.token_hash: r.member for r in rows}

    def tables(self, room_id: str) -> list[RoomTable]:
        """The room's tables, oldest first, with the rematches and a match's later deals that
        followed them (added to the room as they are found)."""
        with self._tx() as conn:
            linked = conn.execute(
                select(room_tables_t.c.table_id, room_tables_t.c.plan).where(room_tables_t.c.room_id == room_id)
            ).all()
            plans: dict[str, Plan] = {r.table_id: Plan(seats=(r.plan or NO_PLAN)["seats"]) for r in linked}
            found: dict[str, Row[Any]] = {}
            wanted = set(plans)
            for _ in range(FOLLOW_ROUNDS):
                if not wanted:
                    break
                rows = conn.execute(select(tables_t).where(tables_t.c.id.in_(wanted))).all()
                found.update({r.id: r for r in rows})
                wanted = {r.next_id for r in rows if r.next_id and r.next_id not in found and r.next_id not in wanted}
                wanted -= set(found)
                for table_id in wanted - set(plans):
                    later = conn.execute(select(tables_t.c.created).where(tables_t.c.id == table_id)).scalar()
                    if later is None:
                        continue
                    conn.execute(
                        insert(room_tables_t).values(
                            room_id=room_id, table_id=table_id, created=later, plan={"seats": []}
                        )
                    )
                    plans[table_id] = {"seats": []}
            seat_rows = (
                conn.execute(
                    select(seats_t.c.table_id, seats_t.c.name, seats_t.c.token_hash, seats_t.c.kind)
                    .where(seats_t.c.table_id.in_(list(found)))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                ).all()
                if found
                else []
            )
        seats: dict[str, list[Any]] = {}
        for s in seat_rows:
            seats.setdefault(s.table_id, []).append(s)
        out = [
            RoomTable(
                id=r.id,
                game=r.game,
                status=r.status,
                created=aware(r.created),
                finished=None if r.finished is None else aware(r.finished),
                result=r.result,
                match=r.match,
                next_id=r.next_id,
                seats=[(s.name, s.token_hash) for s in seats.get(r.id, [])],
                kinds=[s.kind for s in seats.get(r.id, [])],
                public=bool(r.public),
                plan=plans.get(r.id, {"seats": []}),
            )
            for r in found.values()
        ]
        out.sort(key=lambda t: (t.created, t.id))
        return out


def _member_values(m: MemberRow) -> dict[str, object]:
    return {
        "id": m.id,
        "name": m.name,
        "avatar": m.avatar,
        "token_hash": m.token_hash,
        "joined": m.joined,
        "seen": m.seen,
    }
