"""The store: tables, seats and moves kept in a database (SQLAlchemy 2; SQLite by default,
PostgreSQL by URL), one short transaction per call; the hot writes of every move and turn
committed together per tick of the event loop (sqlite.py, postgres.py).

Every move is written as it is played, under its version, so a table is restored by replaying
its stored moves (:meth:`Store.load_table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from mauseloch.core.shapes import JSONObject
from mauseloch.extras import needs
from mauseloch.realtime.referee import WindowEntry
from mauseloch.server.storage.migrations import migrate
from mauseloch.server.storage.plans import BoundWrite, HotWrite, Plan, Writes, hot_write
from mauseloch.server.storage.postgres import PgWrites
from mauseloch.server.storage.rows import DeadlineEntry, SeatRow, SeatsNow, TableRow, aware, now
from mauseloch.server.storage.schema import (
    PG_MOVES,
    PG_SEATS,
    PG_TABLE,
    SEATS_NOW,
    moves_t,
    pg_seats_now,
    seats_t,
    tables_t,
)
from mauseloch.server.storage.sqlite import SqliteWrites, sqlite_pragmas

with needs("web", __name__):
    import platformdirs
    from sqlalchemy import Connection, Engine, create_engine, event, select, update

P = ParamSpec("P")
T = TypeVar("T")

# Worker threads for the other calls to a database server (Store.call: tables created, seats
# taken, tables loaded; the writes of every move go from the event loop, see PgWrites), and
# the connections they keep open: one per thread plus two for the event loop's own short calls
# and /readyz. With fewer pooled connections than threads the pool opened and closed a
# connection for every overflow call (a new PostgreSQL backend each time; seen in profiles).
# Four threads, not eight: fewer threads waiting for the GIL hold the event loop up less.
DB_THREADS = 4
URGENT_THREADS = 2  # a lane of their own for tables taken over (Store.call(..., urgent=True))
POOL_SIZE = DB_THREADS + URGENT_THREADS + 2
POOL_OVERFLOW = 4


def default_url() -> str:
    """SQLite in the user's data directory (created if needed)."""
    path = Path(platformdirs.user_data_dir("mauseloch", appauthor=False)) / "mauseloch.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def normalise_url(url: str) -> str:
    """``postgresql://`` URLs use psycopg 3 (the installed driver); a bare path means SQLite."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser()}"
    return url


class Store:
    """Synchronous access to the database; one short transaction per call."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url) if url else default_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            kwargs.update(pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)
        self.engine: Engine = create_engine(self.url, **kwargs)
        self.local = self.url.startswith("sqlite")  # a file on this machine, not a database server
        if self.url.startswith("sqlite"):
            event.listen(self.engine, "connect", sqlite_pragmas)
        migrate(self.engine)
        self.writes: Writes = SqliteWrites(self.engine) if self.local else PgWrites(self.engine)
        self._executors: dict[bool, ThreadPoolExecutor] = {}
        # On a database server a call of one statement runs in autocommit mode, its own
        # transaction: one round trip instead of BEGIN, statement, COMMIT. Each round trip also
        # waits for the GIL again in a busy process (seen in profiles: the worker threads'
        # BEGIN and COMMIT were most of their time).
        self._auto: Engine = self.engine if self.local else self.engine.execution_options(isolation_level="AUTOCOMMIT")

    def close(self) -> None:
        self.writes.close()
        for executor in self._executors.values():
            executor.shutdown(wait=True)
        self.engine.dispose()

    async def aclose(self) -> None:
        """Commit what is pending and close the event loop's own connections (the app's
        shutdown, before :meth:`close`)."""
        if self.writes.usable():
            await self.writes.aclose()

    async def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` (a method of this store) without holding up the event loop. A hot write
        (:func:`hot_write`) joins this tick's batch and returns once it is committed. Anything
        else runs on a database server in one of :data:`DB_THREADS` worker threads; on SQLite at
        once (a commit costs less than the trip to a thread), after the writes sent before it.
        ``urgent`` work (loading the tables a dead process left) has threads of its own, so a
        thousand clients reconnecting at once, each loading its table, do not queue ahead of it."""
        if isinstance(fn, BoundWrite) and self.writes.usable():
            try:
                await self.writes.later(fn.plan(*args))
            except Exception as exc:
                return fn.answer(exc)  # take_seat: False when someone was first
            return fn.answer(None)
        if self.local:
            return fn(*args)
        executor = self._executors.get(urgent)
        if executor is None:
            threads, name = (URGENT_THREADS, "mauseloch-db-urgent") if urgent else (DB_THREADS, "mauseloch-db")
            executor = self._executors[urgent] = ThreadPoolExecutor(threads, thread_name_prefix=name)
        return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(fn, *args))

    def send(self, fn: BoundWrite[Store, P, Any], *args: P.args, **kwargs: P.kwargs) -> asyncio.Future[None]:
        """A hot write (:func:`hot_write`) into this tick's batch without waiting for it (no task):
        the future is done once it is committed. The writes of one tick are committed in the order
        sent; on SQLite every batch, and every other call, in the order made (one connection), so
        a table's writes need no queue of their own there."""
        return self.writes.later(fn.plan(*args, **kwargs))

    @contextlib.contextmanager
    def _single(self) -> Iterator[Connection]:
        """A connection for one statement (or reads): autocommitted on a database server. On
        SQLite the hot writes sent before it are committed first (they are in call order)."""
        self.writes.settle()
        if self._auto is self.engine:  # SQLite: a transaction of its own
            with self.engine.begin() as conn:
                yield conn
        else:
            with self._auto.connect() as conn:
                yield conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction of several statements, after the hot writes sent before it."""
        self.writes.settle()
        with self.engine.begin() as conn:
            yield conn

    # -- writing -----------------------------------------------------------------------
    @hot_write
    def create_table(self, row: TableRow) -> Plan:
        """Store a new table with its seats (one transaction; a taken id raises ``IntegrityError``).
        Through :meth:`call` it joins the tick's batch, as the moves do, not a worker thread."""
        table = {
            "id": row.id,
            "game": row.game,
            "title": row.title,
            "players": row.players,
            "options": row.options,
            "seed": row.seed,
            "deck": row.deck,
            "status": row.status,
            "created": row.created,
            "clock": row.clock,
            "deadlines": row.deadlines,
            "deadlines_at": len(row.moves),
            "public": row.public,
            "invite_hash": row.invite_hash,
            "match": row.match,
            "joined": row.joined,
        }
        seats = [
            ("seat", {"table_id": row.id, "seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
                      "token_hash": s.token_hash, "gone": s.gone})
            for s in row.seats
        ]  # fmt: skip
        return [("table", table), *seats]

    def _seat_plan(
        self, table_id: str, seat: int, name: str, token_hash: str, joined: dt.datetime | None = None
    ) -> Plan:
        """Give a free human seat to ``name``; False when someone took it first. ``joined``: the
        moment of the join, stored with the table in the same transaction (a waiting table's
        expiry counts from there, across restarts). Through :meth:`call` it joins the tick's
        batch, as the moves do, not a worker thread."""
        plan: Plan = [("take_seat", {"of_table": table_id, "of_seat": seat, "name": name, "token_hash": token_hash})]
        if joined is not None:
            plan.append(("joined", {"table_id": table_id, "joined": joined, "token_hash": token_hash}))
        plan.append(("start", {"table_id": table_id}))
        return plan

    take_seat = HotWrite(_seat_plan, done=True, refused=False)

    def set_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """A taken seat's new token (the old one opens nothing any more)."""
        with self._single() as conn:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(token_hash=token_hash)
            )

    @hot_write
    def set_status(self, table_id: str, status: str, result: JSONObject | None = None) -> Plan:
        if status == "over":
            return [("status_over", {"table_id": table_id, "status": status, "finished": now(), "result": result})]
        return [("status", {"table_id": table_id, "status": status})]

    @hot_write
    def add_move(
        self,
        table_id: str,
        version: int,
        seat: int,
        move: str,
        ms: int | None = None,
        by: str | None = None,
        deadlines: list[DeadlineEntry] | None = None,
        referee: WindowEntry | None = None,
    ) -> Plan:
        """Store the move played at ``version``, with the table's deadlines from then on when
        given and the reaction window it decided (in the move's row: one statement); a second
        move for the same version raises ``IntegrityError``."""
        values = {
            "table_id": table_id,
            "version": version,
            "seat": seat,
            "move": move,
            "ms": ms,
            "played": now(),
            "by": by,
            "referee": referee,
            "deadlines": deadlines,
        }
        return [("move", values)]  # alone in its plan: a version stored first skips nothing else

    @hot_write
    def set_deadlines(self, table_id: str, deadlines: list[DeadlineEntry]) -> Plan:
        return [("deadlines", {"table_id": table_id, "deadlines": deadlines})]

    @hot_write
    def set_gone(self, table_id: str, seat: int, gone: bool) -> Plan:
        return [("gone", {"of_table": table_id, "of_seat": seat, "gone": gone})]

    def set_next(self, table_id: str, next_id: str) -> None:
        with self._single() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(next_id=next_id))

    # -- reading -----------------------------------------------------------------------
    def seats_now(self, table_id: str) -> SeatsNow | None:
        """Who holds each seat of a table as the store has it now, with the table's status and
        last join: one query, for a process that runs the table and must learn of seats taken
        through another process (a whole table loaded costs three, and all its moves)."""
        with self._single() as conn:
            if self.engine.dialect.name == "postgresql":  # the driver's cursor, the query prepared
                rows = _driver(conn).cursor().execute(pg_seats_now(), {"table_id": table_id}, prepare=True).fetchall()
            else:
                rows = conn.execute(SEATS_NOW, {"table_id": table_id}).all()
        if not rows:
            return None
        status, joined = rows[0][2], rows[0][3]
        return SeatsNow([(r[0], r[1]) for r in rows], status, None if joined is None else aware(joined))

    def load_table(self, table_id: str) -> TableRow | None:
        if self.engine.dialect.name == "postgresql":
            return self._pg_load_table(table_id)
        with self._single() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            return self._full_row(conn, row)

    def _pg_load_table(self, table_id: str) -> TableRow | None:
        """:meth:`load_table` on PostgreSQL through the driver's own cursor, its three queries
        prepared on the connection (366 µs of CPU against 1,075 through SQLAlchemy's execute
        path: a table is loaded for every socket of it on a process that does not own it)."""
        from psycopg.rows import dict_row

        with self._single() as conn:
            cur = _driver(conn).cursor(row_factory=dict_row)
            row = cur.execute(PG_TABLE, (table_id,), prepare=True).fetchone()
            if row is None:
                return None
            seats = cur.execute(PG_SEATS, (table_id,), prepare=True).fetchall()
            moves = cur.execute(PG_MOVES, (table_id,), prepare=True).fetchall()
        return table_row(row, seats, moves)

    def unfinished(self) -> list[str]:
        """The ids of every table still waiting or playing, oldest first (restored at start-up,
        one by one, so that one broken table cannot stop the others)."""
        with self._single() as conn:
            query = (
                select(tables_t.c.id)
                .where(tables_t.c.status.in_(("waiting", "playing")))
                .order_by(tables_t.c.created, tables_t.c.id)
            )
            return [r[0] for r in conn.execute(query).all()]

    def load_tables(self, table_ids: list[str]) -> dict[str, TableRow | Exception]:
        """Several tables in three queries however many they are (a process taking over a dead
        one's tables loads them so). A table that cannot be built (a gap in its moves) maps to
        the error; an unknown id is left out."""
        if not table_ids:
            return {}
        with self._single() as conn:
            rows = conn.execute(select(tables_t).where(tables_t.c.id.in_(table_ids))).mappings().all()
            seats: dict[str, list[Any]] = {}
            query = (
                select(seats_t).where(seats_t.c.table_id.in_(table_ids)).order_by(seats_t.c.table_id, seats_t.c.seat)
            )
            for s in conn.execute(query).mappings():
                seats.setdefault(s["table_id"], []).append(s)
            moves: dict[str, list[Any]] = {}
            query = (
                select(moves_t).where(moves_t.c.table_id.in_(table_ids)).order_by(moves_t.c.table_id, moves_t.c.version)
            )
            for m in conn.execute(query).mappings():
                moves.setdefault(m["table_id"], []).append(m)
        found: dict[str, TableRow | Exception] = {}
        for row in rows:
            try:
                found[row["id"]] = table_row(row, seats.get(row["id"], []), moves.get(row["id"], []))
            except Exception as exc:  # one broken table never stops the others
                found[row["id"]] = exc
        return found

    def _full_row(self, conn: Any, row: Any) -> TableRow:
        table_id = row["id"]
        seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))
        moves = conn.execute(select(moves_t).where(moves_t.c.table_id == table_id).order_by(moves_t.c.version))
        return table_row(row, seats.mappings().all(), moves.mappings().all())


def _driver(conn: Connection) -> Any:
    """The driver's own connection under SQLAlchemy's (psycopg's, for its prepared statements)."""
    driver = conn.connection.driver_connection
    assert driver is not None  # a connection of the pool always holds its driver's
    return driver


def table_row(row: Any, seat_rows: list[Any], move_rows: list[Any]) -> TableRow:
    table_id = row["id"]
    seats = [
        SeatRow(
            seat=s["seat"],
            kind=s["kind"],
            name=s["name"],
            bot=s["bot"],
            token_hash=s["token_hash"],
            gone=bool(s["gone"]),
        )
        for s in seat_rows
    ]
    moves: list[list[Any]] = []
    by: list[str | None] = []
    referee: dict[int, WindowEntry] = {}
    # the table's deadlines: those written with the table, unless a move stored after them
    # carries its own (a table's writes are in order, so the later one holds)
    deadlines = row["deadlines"]
    deadlines_at = row["deadlines_at"]
    for m in move_rows:
        if m["version"] != len(moves):
            raise RuntimeError(f"table {table_id}: stored move versions have a gap at {len(moves)}")
        moves.append([m["seat"], m["move"]] if m["ms"] is None else [m["seat"], m["move"], m["ms"]])
        by.append(m["by"])
        if m["referee"] is not None:
            referee[len(moves) - 1] = m["referee"]  # stored as the referee wrote it
        if m["deadlines"] is not None and (deadlines_at is None or len(moves) > deadlines_at):
            deadlines = m["deadlines"]
    return TableRow(
        id=table_id,
        game=row["game"],
        title=row["title"],
        players=row["players"],
        options=dict(row["options"]),
        seed=int(row["seed"]),
        deck=list(row["deck"]),
        status=row["status"],
        created=aware(row["created"]),
        seats=seats,
        moves=moves,
        result=row["result"],
        clock=row["clock"] or "off",
        deadlines=list(deadlines or []),
        next_id=row["next_id"],
        by=by,
        public=True if row["public"] is None else bool(row["public"]),
        invite_hash=row["invite_hash"],
        referee=referee,
        match=row["match"],
        joined=None if row["joined"] is None else aware(row["joined"]),
    )
