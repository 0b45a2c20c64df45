"""Storage of tables, seats and moves (SQLAlchemy 2; SQLite by default, PostgreSQL by URL).

Every move is written as it is played, under its version (the number of moves before it), so a
table is restored by replaying its stored moves. Seat tokens are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import functools
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import msgspec
import platformdirs
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError

metadata = MetaData()

T = TypeVar("T")

# Worker threads for the other calls to a database server (Store.call: tables created, seats
# taken, tables loaded; the writes of every move go from the event loop, see LoopWrites), and
# the connections they keep open: one per thread plus two for the event loop's own short calls
# and /readyz. With fewer pooled connections than threads the pool opened and closed a
# connection for every overflow call (a new PostgreSQL backend each time; seen in profiles).
# Four threads, not eight: fewer threads waiting for the GIL hold the event loop up less.
DB_THREADS = 4
URGENT_THREADS = 2  # a lane of their own for tables taken over (Store.call(..., urgent=True))
POOL_SIZE = DB_THREADS + URGENT_THREADS + 2
POOL_OVERFLOW = 4

tables_t = Table(
    "ml_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("title", String(100), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("deck", JSON, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # waiting | playing | over
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True), nullable=True),
    Column("result", JSON, nullable=True),
    Column("clock", String(10), nullable=True),  # off | relaxed | normal | fast (NULL: older tables, off)
    Column("deadlines", JSON, nullable=True),  # the table's running deadlines (clock.Deadline dicts)
    Column("next_id", String(32), nullable=True),  # the rematch table, once agreed
    Column("public", Boolean, nullable=True),  # listed in the lobby (NULL: older tables, which all were)
    Column("invite_hash", String(64), nullable=True),  # sha256 hex of the invite secret of a private table
    Column("match", JSON, nullable=True),  # family match play: the match this deal belongs to (server/family.py)
    # a table waiting for players: when it was created or last joined, so that its expiry counts on
    # across a restart (NULL: older tables, counted from ``created``)
    Column("joined", DateTime(timezone=True), nullable=True),
)

seats_t = Table(
    "ml_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # human | bot
    Column("name", String(64), nullable=False),
    Column("bot", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 hex; NULL while a human seat is free
    Column("gone", Boolean, nullable=True),  # the person left (on purpose or past the grace time)
)

moves_t = Table(
    "ml_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),  # moves played before this one
    Column("seat", Integer, nullable=False),
    Column("move", String(100), nullable=False),
    Column("ms", Integer, nullable=True),
    Column("played", DateTime(timezone=True), nullable=False),
    Column("by", String(10), nullable=True),  # "stand-in" when a stand-in bot played it for the seat
    # a reaction game's decided window: every claim, what was observed and the decision
    Column("referee", JSON(none_as_null=True), nullable=True),
)

# Columns added after the first release: created on an older database at start-up (all nullable).
LATER_COLUMNS = {
    "ml_tables": [
        tables_t.c.clock,
        tables_t.c.deadlines,
        tables_t.c.next_id,
        tables_t.c.public,
        tables_t.c.invite_hash,
        tables_t.c.match,
        tables_t.c.joined,
    ],
    "ml_seats": [seats_t.c.gone],
    "ml_moves": [moves_t.c.by, moves_t.c.referee],
}


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot: str | None = None
    token_hash: str | None = None
    gone: bool = False

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class TableRow:
    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    seed: int
    deck: list[str]
    status: str
    created: dt.datetime
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[list[Any]] = field(default_factory=list)  # [seat, move] or [seat, move, ms]
    result: dict[str, Any] | None = None
    clock: str = "off"
    deadlines: list[dict[str, Any]] = field(default_factory=list)
    next_id: str | None = None
    by: list[str | None] = field(default_factory=list)  # per move: None (the seat's own player) or "stand-in"
    public: bool = False  # listed in the lobby, and anyone may join; else only through the invite link
    invite_hash: str | None = None
    referee: dict[int, dict[str, Any]] = field(default_factory=dict)  # move index -> its window's log entry
    match: dict[str, Any] | None = None  # a deal of a match (server/family.py), else None
    joined: dt.datetime | None = None  # waiting for players: created or last joined then (None: ``created``)

    @property
    def waiting_since(self) -> dt.datetime:
        """When a table waiting for players was created or last joined (its expiry counts from here)."""
        return self.joined or self.created


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


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)  # SQLite drops the zone


_MOVE_COLUMNS = ("table_id", "version", "seat", "move", "ms", "played", "by", "referee")
_move_values = {c: bindparam(c, type_=moves_t.c[c].type) for c in _MOVE_COLUMNS}
_DEADLINES = bindparam("deadlines", type_=tables_t.c.deadlines.type)

# The writes of every move and turn, built once: the hot path only binds values (building an
# update per call cost more CPU than executing it: SQLAlchemy's coercions and cache keys).
HOT = {
    "move": insert(moves_t).values(_move_values),
    # one statement, so one round trip: the insert as a data-modifying CTE of the update (it runs
    # whether or not the update reads it; a version stored already fails them both)
    "move_deadlines": update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"))
    .values(deadlines=_DEADLINES)
    .add_cte(insert(moves_t).values(_move_values).returning(moves_t.c.version).cte("stored")),
    "deadlines": update(tables_t).where(tables_t.c.id == bindparam("table_id")).values(deadlines=_DEADLINES),
    "gone": update(seats_t)
    .where(seats_t.c.table_id == bindparam("of_table"), seats_t.c.seat == bindparam("of_seat"))
    .values(gone=bindparam("gone")),
    "status": update(tables_t).where(tables_t.c.id == bindparam("table_id")).values(status=bindparam("status")),
    "status_over": update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"))
    .values(
        status=bindparam("status"),
        finished=bindparam("finished", type_=tables_t.c.finished.type),
        result=bindparam("result", type_=tables_t.c.result.type),
    ),
}
_json = msgspec.json.Encoder()
_DRIVER_OPTIONS: dict[str, Any] = {"autocommit": True, "application_name": "mauseloch-writes"}
# PostgreSQL connections of a process's hot writes (LoopWrites). Each is held for a few of the
# loop's turns per statement, so a busy process needs many (bench/server.py, 2,000 seats, one
# process: with 8 or 16 a write waited 140–290 ms for one at the median, with 32 12 ms). A
# process opens at most LOOP_CONNECTIONS + POOL_SIZE + POOL_OVERFLOW = 44 (docs/deploy.md).
LOOP_CONNECTIONS = 32


Plan = list[tuple[str, dict[str, Any]]]  # which of HOT, with which values, in one transaction
P = ParamSpec("P")


def hot_write(plan: Callable[Concatenate[Store, P], Plan]) -> Callable[Concatenate[Store, P], None]:
    """A write of every move or turn, as the statements of :data:`HOT` that ``plan`` names. Called
    as a method it runs them in one transaction; :meth:`Store.call` sends them from the event loop
    itself on a database server (:class:`LoopWrites`)."""

    @functools.wraps(plan)
    def write(self: Store, *args: P.args, **kwargs: P.kwargs) -> None:
        # a transaction on SQLite, autocommit on a database server (where a plan is one statement)
        with self._single() as conn:
            for name, params in plan(self, *args, **kwargs):
                conn.execute(HOT[name], params)

    write.plan = plan  # type: ignore[attr-defined]
    return write


class LoopWrites:
    """The hot writes on PostgreSQL, sent from the event loop through psycopg's own async
    connections (at most :data:`LOOP_CONNECTIONS`, autocommit; the SQL compiled once by
    SQLAlchemy from :data:`HOT`, and psycopg prepares each on the server after a few runs).

    The connections are handed from one write straight to the next waiting one (a list and a
    queue of futures), not through psycopg_pool: with its ``AsyncConnectionPool`` of the same 32
    connections a write waited 370 ms for one at the median in the same benchmark, here 12 ms.

    Why not the worker threads: with eight of them, a process at 2,000 seats waited on the GIL's
    hand-overs, not on the database (bench/server.py, 2026-12-02, 1 process: the event loop
    late by 20 ms at the median, a thread's result back on the loop after 33 ms, each call
    queued 20 ms; with two threads the hand-overs went (1 ms) but the calls queued behind them).
    Measured on one connection (1,500 moves with their deadlines): 573 µs of CPU per move
    through SQLAlchemy's execute path, 258 µs with the statement built once, 133–168 µs here, in
    the loop's own thread. Errors are SQLAlchemy's (``IntegrityError`` for a version stored
    first), as from every other call."""

    def __init__(self, engine: Engine) -> None:
        import psycopg  # the PostgreSQL driver, installed with the package

        self._psycopg = psycopg
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        compiled = {name: stmt.compile(dialect=engine.dialect) for name, stmt in HOT.items()}
        self._sql = {name: str(c) for name, c in compiled.items()}
        # the values psycopg gets as JSON text (SQLAlchemy's JSON type would serialise them)
        self._json = {name: {k for k, b in c.binds.items() if isinstance(b.type, JSON)} for name, c in compiled.items()}
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop the connections belong to
        self._free: list[Any] = []  # idle connections
        self._waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._count = 0  # connections open or being opened

    def usable(self) -> bool:
        """Whether this loop may use the connections (the first loop to write owns them)."""
        loop = asyncio.get_running_loop()
        if self.loop is None:
            self.loop = loop
        return self.loop is loop

    async def run(self, plan: Plan) -> None:
        """The plan's statements (one on a database server: see :meth:`Store.add_move`)."""
        for name, params in plan:
            sql = self._sql[name]
            as_json = self._json[name]
            bound = {k: _json_param(v) if k in as_json else v for k, v in params.items()}
            conn = await self._take()
            try:
                await conn.execute(sql, bound)
            except self._psycopg.Error as exc:
                if not conn.broken:
                    raise DBAPIError.instance(sql, bound, exc, self._psycopg.Error) from exc
                # the server restarted or dropped the connection: once more on a new one (a move
                # that reached the store before fails then as a stored version)
                await conn.close()
                try:
                    conn = await self._connect()
                    await conn.execute(sql, bound)
                except self._psycopg.Error as again:
                    raise DBAPIError.instance(sql, bound, again, self._psycopg.Error) from exc
            finally:
                self._give(conn)

    async def _connect(self) -> Any:
        return await self._psycopg.AsyncConnection.connect(self._conninfo, **_DRIVER_OPTIONS)

    async def _take(self) -> Any:
        """A free connection: an idle one, a new one while there are fewer than
        :data:`LOOP_CONNECTIONS`, else the next one handed back (first come, first served)."""
        while self._free:
            conn = self._free.pop()
            if not conn.closed:
                return conn
            self._count -= 1
        if self._count < LOOP_CONNECTIONS:
            self._count += 1
            try:
                return await self._connect()
            except BaseException:
                self._count -= 1
                raise
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except BaseException:  # cancelled just after a connection was handed over: pass it on
            if waiter.done() and not waiter.cancelled():
                self._give(waiter.result())
            raise

    def _give(self, conn: Any) -> None:
        if conn.closed:
            self._count -= 1
            return
        while self._waiting:  # straight to the first waiter still waiting
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._free.append(conn)

    async def close(self) -> None:
        free, self._free = self._free, []
        for conn in free:
            await conn.close()
            self._count -= 1


def _json_param(value: Any) -> str | None:
    return None if value is None else _json.encode(value).decode()


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
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        _add_later_columns(self.engine)
        self._loop_writes = None if self.local else LoopWrites(self.engine)
        self._executors: dict[bool, ThreadPoolExecutor] = {}
        # On a database server a call of one statement runs in autocommit mode, its own
        # transaction: one round trip instead of BEGIN, statement, COMMIT. Each round trip also
        # waits for the GIL again in a busy process (seen in profiles: the worker threads'
        # BEGIN and COMMIT were most of their time).
        self._auto: Engine = self.engine if self.local else self.engine.execution_options(isolation_level="AUTOCOMMIT")

    def close(self) -> None:
        for executor in self._executors.values():
            executor.shutdown(wait=True)
        self.engine.dispose()

    async def aclose(self) -> None:
        """Close the event loop's own connections (the app's shutdown, before :meth:`close`)."""
        if self._loop_writes is not None and self._loop_writes.loop is asyncio.get_running_loop():
            await self._loop_writes.close()

    async def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` (a method of this store) without holding up the event loop: on a database
        server in one of :data:`DB_THREADS` worker threads; on SQLite at once, where a commit
        costs less than the trip to a thread. ``urgent`` work (loading the tables a dead process
        left) has threads of its own, so a thousand clients reconnecting at once, each loading
        its table, do not queue ahead of it."""
        if self.local:
            return fn(*args)
        plan = getattr(fn, "plan", None)
        if plan is not None and self._loop_writes is not None and self._loop_writes.usable():
            await self._loop_writes.run(plan(self, *args))
            return None  # type: ignore[return-value]  # a hot write returns nothing
        executor = self._executors.get(urgent)
        if executor is None:
            threads, name = (URGENT_THREADS, "mauseloch-db-urgent") if urgent else (DB_THREADS, "mauseloch-db")
            executor = self._executors[urgent] = ThreadPoolExecutor(threads, thread_name_prefix=name)
        return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(fn, *args))

    @contextlib.contextmanager
    def _single(self) -> Iterator[Connection]:
        """A connection for one statement (or reads): autocommitted on a database server."""
        if self._auto is self.engine:  # SQLite: a transaction of its own
            with self.engine.begin() as conn:
                yield conn
        else:
            with self._auto.connect() as conn:
                yield conn

    # -- writing -----------------------------------------------------------------------
    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    title=row.title,
                    players=row.players,
                    options=row.options,
                    seed=row.seed,
                    deck=row.deck,
                    status=row.status,
                    created=row.created,
                    clock=row.clock,
                    deadlines=row.deadlines,
                    public=row.public,
                    invite_hash=row.invite_hash,
                    match=row.match,
                    joined=row.joined,
                )
            )
            conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "gone": s.gone,
                    }
                    for s in row.seats
                ],
            )

    def take_seat(
        self, table_id: str, seat: int, name: str, token_hash: str, joined: dt.datetime | None = None
    ) -> bool:
        """Give a free human seat to ``name``; False when someone took it first. ``joined``: the
        moment of the join, stored with the table in the same transaction (a waiting table's
        expiry counts from there, across restarts)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "human",
                    seats_t.c.token_hash.is_(None),
                )
                .values(name=name, token_hash=token_hash)
            )
            if done.rowcount != 1:
                return False
            if joined is not None:
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(joined=joined))
            return True

    def set_token(self, table_id: str, seat: int, token_hash: str) -> None:
        """A taken seat's new token (the old one opens nothing any more)."""
        with self._single() as conn:
            conn.execute(
                update(seats_t)
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(token_hash=token_hash)
            )

    @hot_write
    def set_status(self, table_id: str, status: str, result: dict[str, Any] | None = None) -> Plan:
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
        deadlines: list[dict[str, Any]] | None = None,
        referee: dict[str, Any] | None = None,
    ) -> Plan:
        """Store the move played at ``version`` (and, in the same transaction, the table's deadlines
        from then on when given); a second move for the same version raises ``IntegrityError``.
        ``referee``: the reaction window this move decided (its claims and the decision)."""
        values = {
            "table_id": table_id,
            "version": version,
            "seat": seat,
            "move": move,
            "ms": ms,
            "played": now(),
            "by": by,
            "referee": referee,
        }
        if deadlines is None:
            return [("move", values)]
        if not self.local:  # one statement: one round trip, one transaction however it is sent
            return [("move_deadlines", {**values, "deadlines": deadlines})]
        # SQLite has no data-modifying CTE: two statements (one transaction, see hot_write)
        return [("move", values), ("deadlines", {"table_id": table_id, "deadlines": deadlines})]

    @hot_write
    def set_deadlines(self, table_id: str, deadlines: list[dict[str, Any]]) -> Plan:
        return [("deadlines", {"table_id": table_id, "deadlines": deadlines})]

    @hot_write
    def set_gone(self, table_id: str, seat: int, gone: bool) -> Plan:
        return [("gone", {"of_table": table_id, "of_seat": seat, "gone": gone})]

    def set_next(self, table_id: str, next_id: str) -> None:
        with self._single() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(next_id=next_id))

    # -- reading -----------------------------------------------------------------------
    def load_table(self, table_id: str) -> TableRow | None:
        with self._single() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            return self._full_row(conn, row)

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
                found[row["id"]] = _table_row(row, seats.get(row["id"], []), moves.get(row["id"], []))
            except Exception as exc:  # one broken table never stops the others
                found[row["id"]] = exc
        return found

    def _full_row(self, conn: Any, row: Any) -> TableRow:
        table_id = row["id"]
        seats = conn.execute(select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))
        moves = conn.execute(select(moves_t).where(moves_t.c.table_id == table_id).order_by(moves_t.c.version))
        return _table_row(row, seats.mappings().all(), moves.mappings().all())


def _table_row(row: Any, seat_rows: list[Any], move_rows: list[Any]) -> TableRow:
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
    referee: dict[int, dict[str, Any]] = {}
    for m in move_rows:
        if m["version"] != len(moves):
            raise RuntimeError(f"table {table_id}: stored move versions have a gap at {len(moves)}")
        moves.append([m["seat"], m["move"]] if m["ms"] is None else [m["seat"], m["move"], m["ms"]])
        by.append(m["by"])
        if m["referee"] is not None:
            referee[len(moves) - 1] = dict(m["referee"])
    return TableRow(
        id=table_id,
        game=row["game"],
        title=row["title"],
        players=row["players"],
        options=dict(row["options"]),
        seed=int(row["seed"]),
        deck=list(row["deck"]),
        status=row["status"],
        created=_aware(row["created"]),
        seats=seats,
        moves=moves,
        result=row["result"],
        clock=row["clock"] or "off",
        deadlines=list(row["deadlines"] or []),
        next_id=row["next_id"],
        by=by,
        public=True if row["public"] is None else bool(row["public"]),
        invite_hash=row["invite_hash"],
        referee=referee,
        match=row["match"],
        joined=None if row["joined"] is None else _aware(row["joined"]),
    )


def _add_later_columns(engine: Engine) -> None:
    """Add the columns of :data:`LATER_COLUMNS` a database made by an older version lacks."""
    found = inspect(engine)
    for table, columns in LATER_COLUMNS.items():
        have = {c["name"] for c in found.get_columns(table)}
        for column in columns:
            if column.name not in have:
                kind = column.type.compile(dialect=engine.dialect)
                with engine.begin() as conn:
                    conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column.name} {kind}")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
    # a crash of the server loses nothing; a power cut may lose the last commits
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
