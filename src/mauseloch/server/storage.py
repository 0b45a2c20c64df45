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
import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeAlias, TypeVar

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
    func,
    insert,
    inspect,
    literal_column,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import psycopg as postgresql_psycopg
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, IntegrityError

from mauseloch.core.shapes import JSONObject, OptionDict

metadata = MetaData()

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
    # the moves stored when ``deadlines`` was written: a move stored after it carries newer ones
    Column("deadlines_at", Integer, nullable=True),
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
    # the table's deadlines from this move on (NULL: as they were), in the move's own row
    Column("deadlines", JSON(none_as_null=True), nullable=True),
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
        tables_t.c.deadlines_at,
    ],
    "ml_seats": [seats_t.c.gone],
    "ml_moves": [moves_t.c.by, moves_t.c.referee, moves_t.c.deadlines],
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
    options: OptionDict
    seed: int
    deck: list[str]
    status: str
    created: dt.datetime
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[list[Any]] = field(default_factory=list)  # [seat, move] or [seat, move, ms]
    result: JSONObject | None = None
    clock: str = "off"
    deadlines: list[JSONObject] = field(default_factory=list)
    next_id: str | None = None
    by: list[str | None] = field(default_factory=list)  # per move: None (the seat's own player) or "stand-in"
    public: bool = False  # listed in the lobby, and anyone may join; else only through the invite link
    invite_hash: str | None = None
    referee: dict[int, JSONObject] = field(default_factory=dict)  # move index -> its window's log entry
    match: JSONObject | None = None  # a deal of a match (server/family.py), else None
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


_MOVE_COLUMNS = ("table_id", "version", "seat", "move", "ms", "played", "by", "referee", "deadlines")
_move_values = {c: bindparam(c, type_=moves_t.c[c].type) for c in _MOVE_COLUMNS}
_DEADLINES = bindparam("deadlines", type_=tables_t.c.deadlines.type)
# the moves stored when a table's deadlines are written (a move's own deadlines count if newer)
_MOVES_SO_FAR = (
    select(func.count()).select_from(moves_t).where(moves_t.c.table_id == bindparam("table_id")).scalar_subquery()
)

# The writes of every move and turn, built once: the hot path only binds values (building an
# update per call cost more CPU than executing it: SQLAlchemy's coercions and cache keys).
# A move carries the table's deadlines from then on in its own row: one INSERT a move, where an
# UPDATE of the table's JSON column would cost 248 µs of a move's storage (measured).
HOT = {
    "move": insert(moves_t).values(_move_values),  # "ON CONFLICT DO NOTHING" added once compiled
    "deadlines": update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"))
    .values(deadlines=_DEADLINES, deadlines_at=_MOVES_SO_FAR),
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
    # a table created and its seats taken: the lobby's writes, as cheap as a move's
    "table": insert(tables_t).values(
        {c.name: bindparam(c.name, type_=c.type) for c in tables_t.c if c.name not in ("finished", "result", "next_id")}
    ),
    "seat": insert(seats_t).values({c.name: bindparam(c.name, type_=c.type) for c in seats_t.c}),
    "take_seat": update(seats_t)
    .where(
        seats_t.c.table_id == bindparam("of_table"),
        seats_t.c.seat == bindparam("of_seat"),
        seats_t.c.kind == literal_column("'human'"),  # in the SQL: every value a write binds is its own
        seats_t.c.token_hash.is_(None),
    )
    .values(name=bindparam("name"), token_hash=bindparam("token_hash")),
    # stamped only where the join's own seat update took (its token hash is new), so that it can
    # share a batch with that update and still stamp nothing for a refused join
    "joined": update(tables_t)
    .where(
        tables_t.c.id == bindparam("table_id"),
        select(seats_t.c.seat)
        .where(seats_t.c.table_id == bindparam("table_id"), seats_t.c.token_hash == bindparam("token_hash"))
        .exists(),
    )
    .values(joined=bindparam("joined", type_=tables_t.c.joined.type)),
    # a waiting table starts in the transaction that takes its last free human seat: with a write
    # of its own after the join's commit, a process killed between the two left the table waiting
    # for ever with every seat taken (bench/chaos.py on PostgreSQL)
    "start": update(tables_t)
    .where(
        tables_t.c.id == bindparam("table_id"),
        tables_t.c.status == literal_column("'waiting'"),
        ~select(seats_t.c.seat)
        .where(
            seats_t.c.table_id == bindparam("table_id"),
            seats_t.c.kind == literal_column("'human'"),
            seats_t.c.token_hash.is_(None),
        )
        .exists(),
    )
    .values(status=literal_column("'playing'")),
}


@dataclass
class SeatsNow:
    """A table's seats as the store has them now (:meth:`Store.seats_now`)."""

    seats: list[tuple[str, str | None]]  # each seat's name and token hash, in seat order
    status: str
    joined: dt.datetime | None


_SEATS_NOW = (
    select(seats_t.c.name, seats_t.c.token_hash, tables_t.c.status, tables_t.c.joined)
    .select_from(seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id))
    .where(seats_t.c.table_id == bindparam("table_id"))
    .order_by(seats_t.c.seat)
)


_PG_TABLE = f"SELECT * FROM {tables_t.name} WHERE id = %s"
_PG_SEATS = f"SELECT * FROM {seats_t.name} WHERE table_id = %s ORDER BY seat"
_PG_MOVES = f"SELECT * FROM {moves_t.name} WHERE table_id = %s ORDER BY version"
# The same query as the driver's SQL (psycopg's named placeholders), compiled once
_PG_SEATS_NOW = str(_SEATS_NOW.compile(dialect=postgresql_psycopg.dialect()))


class SeatTaken(Exception):
    """The seat a join asked for was taken first (a plan's ``take_seat`` changed no row)."""


# The values bound to one SQL statement, by parameter name: the drivers' edge (sqlite3, libpq
# and SQLAlchemy take such a dict), the one place an untyped dict belongs in the storage.
SqlParams: TypeAlias = dict[str, Any]


def _stopped(name: str, sql: str, params: SqlParams) -> Exception | None:
    """What a statement that changed no row means, where it stops its plan: a move at a version
    stored first, a seat someone took first."""
    if name in ("move", "move_again"):
        return _stored_first(sql, params)
    if name == "take_seat":
        return SeatTaken()
    return None


_json = msgspec.json.Encoder()
_DRIVER_OPTIONS: dict[str, Any] = {"autocommit": True, "application_name": "mauseloch-writes"}
# PostgreSQL connections that commit a process's batches of hot writes at the same time. One
# batch holds every write of a loop tick and of the ticks while the batches before it commit.
# A commit waits for the WAL's flush to disk (7 ms at the median, 16 ms at the 90th percentile
# on this machine's loaded disk), so a write that finds every connection busy waits about one
# commit longer: with 4 connections the p50 round trip of a move was 2.4 times the code's
# before (bench/server.py --against, 400 seats, one process), with 16 0.7 times. A busy process
# still sends a batch per connection, not a statement each (32 connections of one each before).
WRITE_CONNECTIONS = 16

Plan = list[tuple[str, SqlParams]]  # which of HOT, with which values, in one transaction
P = ParamSpec("P")
Bound = tuple[str, dict[str, Callable[[Any], Any]]]  # a statement's SQL and its values' conversions


def _json_param(value: Any) -> str | None:
    return None if value is None else _json.encode(value).decode()


_MOVE_KEY = ", ".join(c.name for c in moves_t.primary_key)  # table_id, version
_SAME_MOVE = f"{moves_t.name}.seat = excluded.seat AND {moves_t.name}.move = excluded.move"


def compile_hot(dialect: Dialect) -> dict[str, Bound]:
    """:data:`HOT` as the driver's own SQL, each value's conversion beside it (JSON as text,
    a time as SQLite stores it), so that a write skips SQLAlchemy's execute path."""
    compiled: dict[str, Bound] = {}
    for name, stmt in HOT.items():
        c = stmt.compile(dialect=dialect)
        convert: dict[str, Callable[[Any], Any]] = {}
        for key, bind in c.binds.items():
            if isinstance(bind.type, JSON):
                convert[key] = _json_param
            else:
                process = bind.type._cached_bind_processor(dialect)
                if process is not None:
                    convert[key] = process
        # a version stored already inserts nothing (its row count tells) instead of failing the
        # transaction that the other writes of its batch share
        sql = str(c) + (" ON CONFLICT DO NOTHING" if name == "move" else "")
        compiled[name] = (sql, convert)
        if name == "move":
            # The same move sent again after its connection broke (PgWrites): the commit may have
            # landed before the break was seen. Its own row (this seat, this move) counts as
            # stored by it; another move at that version is still refused (no row changed).
            again = f"{c!s} ON CONFLICT ({_MOVE_KEY}) DO UPDATE SET seat = excluded.seat WHERE {_SAME_MOVE}"
            compiled["move_again"] = (again, convert)
    return compiled


def _bind(bound: Bound, params: SqlParams) -> SqlParams:
    convert = bound[1]
    return {k: convert[k](v) if k in convert else v for k, v in params.items()}


def _stored_first(sql: str, params: SqlParams) -> IntegrityError:
    """What a move at a version stored already raises (as the unique key's violation would)."""
    return IntegrityError(
        sql, params, Exception(f"version {params.get('version')} of {params.get('table_id')} is stored")
    )


def hot_write(plan: Callable[Concatenate[Store, P], Plan]) -> Callable[Concatenate[Store, P], None]:
    """A write of every move or turn, as the statements of :data:`HOT` that ``plan`` names. Called
    as a method it is committed at once, on its own; sent through :meth:`Store.call` on an event
    loop it joins that tick's batch (:class:`SqliteWrites`, :class:`PgWrites`)."""

    @functools.wraps(plan)
    def write(self: Store, *args: P.args, **kwargs: P.kwargs) -> None:
        self._writes.now(plan(self, *args, **kwargs))

    write.plan = plan  # type: ignore[attr-defined]
    return write


def _settle(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """Each write's future its outcome, on the future's own loop."""
    try:
        running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    for fut, exc in done:
        loop = fut.get_loop()
        if loop is running:
            _resolve(fut, exc)
        elif not loop.is_closed():
            loop.call_soon_threadsafe(_resolve, fut, exc)


def _resolve(fut: asyncio.Future[None], exc: BaseException | None) -> None:
    if fut.done():  # its waiter gave up (cancelled); the write stands
        return
    if exc is None:
        fut.set_result(None)
    else:
        fut.set_exception(exc)


class SqliteWrites:
    """The hot writes on SQLite through one held ``sqlite3`` connection: every write sent in one
    tick of the event loop is committed in one transaction at the start of the next tick, and
    each sender's await returns after that commit (a group commit: never an acknowledgement
    before its commit, at most one tick later).

    Measured: SQLAlchemy's ``engine.begin()`` a write, with an UPDATE of the
    deadlines, cost 248 µs of a move; raw sqlite3 INSERT and COMMIT 13 µs, 10 µs in a group of
    16. A direct call (a tool, a test, a start-up) commits what is pending first, then its own.
    A lock keeps the connection to one thread at a time (tests drive a loop in another thread)."""

    def __init__(self, engine: Engine) -> None:
        import sqlite3

        self._sqlite3 = sqlite3
        path = engine.url.database or ":memory:"
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        _sqlite_pragmas(self._db, None)
        self._sql = compile_hot(SQLiteDialect_pysqlite(paramstyle="named"))
        self._lock = threading.Lock()
        self._pending: list[tuple[Plan, asyncio.Future[None]]] = []

    def usable(self) -> bool:
        return True

    def later(self, plan: Plan) -> asyncio.Future[None]:
        """``plan`` in this tick's batch; the future is done once the batch is committed."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if not self._pending:
            loop.call_soon(self.flush)
        self._pending.append((plan, fut))
        return fut

    def flush(self) -> None:
        """Commit the pending writes, in the order they were sent."""
        with self._lock:
            pending, self._pending = self._pending, []
            if not pending:
                return
            outcomes = self._commit([plan for plan, _ in pending])
        _settle([(fut, exc) for (_, fut), exc in zip(pending, outcomes, strict=True)])

    def now(self, plan: Plan) -> None:
        """``plan`` committed at once, after whatever is pending; raises what it raised."""
        self.flush()
        with self._lock:
            (exc,) = self._commit([plan])
        if exc is not None:
            raise exc

    def _commit(self, plans: list[Plan]) -> list[BaseException | None]:
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            outcomes = [self._run(plan) for plan in plans]
            db.execute("COMMIT")
            return outcomes
        except Exception as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if len(plans) > 1:  # each alone: only the one at fault fails
                return [self._commit([plan])[0] for plan in plans]
            if isinstance(exc, self._sqlite3.Error):
                return [DBAPIError.instance("", None, exc, self._sqlite3.Error)]
            return [exc]

    def _run(self, plan: Plan) -> BaseException | None:
        for name, params in plan:
            bound = self._sql[name]
            cur = self._db.execute(bound[0], _bind(bound, params))
            if cur.rowcount == 0 and (stop := _stopped(name, bound[0], params)) is not None:
                return stop  # the plan's later statements are skipped
        return None

    def settle(self) -> None:
        """Before any other call of the store: what was sent before it is committed."""
        if self._pending:
            self.flush()

    async def aclose(self) -> None:
        self.flush()

    def close(self) -> None:
        self.flush()
        with self._lock:
            self._db.close()


def _pg_sql(sql: str) -> tuple[bytes, list[str]]:
    """A compiled statement of :data:`HOT` in libpq's numbered placeholders (``$1``), and the
    names of its values in their order (a name used twice is one value)."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return re.sub(r"%\((\w+)\)s", number, sql).replace("%%", "%").encode(), names


def _pg_text(value: Any) -> bytes | None:
    """A bound value in PostgreSQL's text format (the statement's casts give it its type); the
    common types first, by identity (a bool is no int here)."""
    kind = type(value)
    if kind is str:
        return value.encode()
    if value is None:
        return None
    if kind is int:
        return str(value).encode()
    if kind is bool:
        return b"t" if value else b"f"
    if kind is dt.datetime:
        return value.isoformat().encode()
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, int | float):
        return str(value).encode()
    return _json.encode(value)


def _json_text(value: Any) -> bytes | None:
    return None if value is None else _json.encode(value)


def _pg_encoder(convert: Callable[[Any], Any] | None) -> Callable[[Any], bytes | None]:
    """How a value of a :data:`HOT` statement goes to PostgreSQL: its column's conversion
    (compile_hot) and the text format in one step; JSON straight to bytes."""
    if convert is None:
        return _pg_text
    if convert is _json_param:
        return _json_text
    return lambda value: _pg_text(convert(value))


class _Segment:
    """Statements sent as one transaction (committed at their sync) and what their results are
    read into, in the order PostgreSQL answers."""

    __slots__ = ("current", "done", "left", "results")

    def __init__(self, statements: int, done: Callable[[list[Any] | Exception], None]) -> None:
        self.left = statements  # statements whose results are still to come
        self.current: Any = None  # the first result of the statement being read
        self.results: list[Any] = []
        self.done = done


class PgLink:
    """One held PostgreSQL connection in pipeline mode, read by the event loop's reader callback
    (no task, no await): a segment is sent as its statements and a sync, so that it is one
    transaction, committed at the sync, and several segments may be under way at once."""

    def __init__(
        self, pq: Any, pgconn: Any, loop: asyncio.AbstractEventLoop, on_lost: Callable[[PgLink], None]
    ) -> None:
        self._pq = pq
        self.pg = pgconn
        self.loop = loop
        self._on_lost = on_lost
        self._segments: collections.deque[_Segment] = collections.deque()
        self._writing = False
        self.closed = False
        pgconn.nonblocking = 1
        pgconn.enter_pipeline_mode()
        self.fd = pgconn.socket
        loop.add_reader(self.fd, self._readable)

    @property
    def busy(self) -> bool:
        return bool(self._segments)

    def send(
        self, statements: list[tuple[bytes, list[bytes | None]]], done: Callable[[list[Any] | Exception], None]
    ) -> None:
        """Send ``statements`` as one transaction; ``done`` gets their results (one each, the
        first of its statement) once they are committed, or the exception that ended the
        connection."""
        segment = _Segment(len(statements), done)
        self._segments.append(segment)
        try:
            for sql, params in statements:
                self.pg.send_query_params(sql, params)
            self.pg.pipeline_sync()
            self._flush()
        except Exception as exc:  # the connection broke
            self._fail(exc)

    def _flush(self) -> None:
        if self.pg.flush() and not self._writing:  # the socket's buffer is full: the rest when it drains
            self._writing = True
            self.loop.add_writer(self.fd, self._writable)

    def _writable(self) -> None:
        try:
            if self.pg.flush() == 0:
                self._writing = False
                self.loop.remove_writer(self.fd)
        except Exception as exc:
            self._fail(exc)

    def _readable(self) -> None:
        pg = self.pg
        try:
            pg.consume_input()
            while self._segments and not pg.is_busy():
                result = pg.get_result()
                segment = self._segments[0]
                if segment.left:  # a statement's results, ended by None
                    if result is None:
                        segment.results.append(segment.current)
                        segment.current = None
                        segment.left -= 1
                    elif segment.current is None:
                        segment.current = result
                    continue
                if result is None:  # nothing more to read now
                    break
                self._segments.popleft()  # its sync: committed
                segment.done(segment.results)
            if pg.status != self._pq.ConnStatus.OK:
                raise ConnectionError("the connection to PostgreSQL was closed")
        except Exception as exc:  # the server restarted or dropped the connection
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        if self.closed:
            return
        self.close()
        segments, self._segments = list(self._segments), collections.deque()
        self._on_lost(self)
        # the last first: each segment's writes are put back ahead of the writes waiting (to be
        # sent once more), so the first segment's end up first, in the order they were sent
        for segment in reversed(segments):
            segment.done(exc)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.loop.remove_reader(self.fd)
            if self._writing:
                self.loop.remove_writer(self.fd)
        with contextlib.suppress(Exception):
            self.pg.finish()


Pending = tuple[Plan, asyncio.Future[None], int]  # a write, its sender's future, the tries it had


def _table_of(plan: Plan) -> str:
    """The table a write is of (every write of :data:`HOT` names one)."""
    params = plan[0][1]
    return str(params.get("table_id") or params.get("of_table") or params.get("id"))


Shape = tuple[str, list[int], SqlParams]  # a statement sent: its kind, the writes it holds, its values


class PgWrites:
    """The hot writes on PostgreSQL, sent from the event loop on connections of their own held
    in pipeline mode and read by the loop's reader callbacks (:class:`PgLink`): no task, no
    await, no driver layers between a write and libpq (psycopg's async connection cost 110 µs
    of CPU a write one statement at a time, 24 µs pipelined; the task per batch and psycopg's
    waits were most of a PostgreSQL move's storage CPU, profiled). The SQL is compiled once
    from :data:`HOT`, its values sent as text.

    Every write sent while each of :data:`WRITE_CONNECTIONS` connections has a batch committing
    waits for the next batch; a batch is one transaction (its statements and a sync: one round
    trip), the moves first (a multi-row INSERT, told when committed) and the rest behind them on
    the same connection. A version stored first inserts nothing and fails only its own write;
    any other error fails the batch's writes one by one (each sent again alone). A connection
    the server dropped (a restart, an idle timeout) is opened again and its writes sent once
    more. Errors are SQLAlchemy's (``IntegrityError`` for a version stored first), as from
    every other call.

    Why not worker threads: with eight of them a process at 2,000 seats waited on the GIL's
    hand-overs, not on the database (bench/server.py)."""

    def __init__(self, engine: Engine) -> None:
        import psycopg  # the PostgreSQL driver, installed with the package
        import psycopg.conninfo
        import psycopg.errors

        self._psycopg = psycopg
        self._engine = engine
        conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        # a name the URL gives the connections is kept (bench/server.py finds its backends by it)
        options = {k: v for k, v in _DRIVER_OPTIONS.items() if k not in engine.url.query and k != "autocommit"}
        self._conninfo = psycopg.conninfo.make_conninfo(conninfo, **options).encode()
        self._sql = compile_hot(engine.dialect)
        # each statement's libpq SQL and its values' encoders, in placeholder order
        self._pg: dict[str, tuple[bytes, list[tuple[str, Callable[[Any], bytes | None]]]]] = {}
        for name, (sql, convert) in self._sql.items():
            pg_sql, names = _pg_sql(sql)
            self._pg[name] = (pg_sql, [(n, _pg_encoder(convert.get(n))) for n in names])
        # the INSERT of a move, taken apart for one of many rows: its head and columns
        head = self._sql["move"][0].split(" VALUES ")[0]
        self._columns = [c.strip().strip('"') for c in head[head.index("(") + 1 : head.rindex(")")].split(",")]
        self._head = head
        move_convert = self._sql["move"][1]
        self._move_encoders = [(c, _pg_encoder(move_convert.get(c))) for c in self._columns]
        self._many: dict[int, bytes] = {}  # rows -> the multi-row INSERT
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop the connections belong to
        self._links: list[PgLink] = []
        self._inflight: dict[str, tuple[PgLink, int]] = {}  # table -> its connection, its writes' segments under way
        self._held: dict[PgLink, list[Pending]] = {}  # writes waiting for a connection's transactions to end
        self._held_tables: dict[str, PgLink] = {}  # the tables of those writes
        self._connecting = 0
        self._pending: list[Pending] = []
        self._scheduled = False
        self._closing = False

    def usable(self) -> bool:
        """Whether this loop may use the connections (the first loop to write owns them)."""
        loop = asyncio.get_running_loop()
        if self.loop is None:
            self.loop = loop
        return self.loop is loop

    def later(self, plan: Plan) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        if self.loop is None:  # Store.send comes without Store.call's question (usable)
            self.loop = loop
        fut = loop.create_future()
        self._pending.append((plan, fut, 0))
        self._schedule()
        return fut

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._start)

    def _start(self) -> None:
        self._scheduled = False
        if self._pending and (self._inflight or self._held_tables):
            # a table's writes wait for its writes under way and then go on their connection, all
            # that waited for it in one transaction: a table's writes are committed in the order
            # sent (Store.send), as on SQLite. Not pipelined behind them: each transaction on one
            # connection waits for the WAL flush of the one before (bench/floor.py found such a
            # queue 240 ms behind at 2,000 seats)
            rest: list[Pending] = []
            for write in self._pending:
                table = _table_of(write[0])
                under_way = self._inflight.get(table)
                busy = under_way[0] if under_way is not None else self._held_tables.get(table)
                if busy is None:
                    rest.append(write)
                else:
                    self._held.setdefault(busy, []).append(write)
                    self._held_tables[table] = busy
            self._pending = rest
        if not self._pending:
            return
        link = next((lk for lk in self._links if not lk.busy), None)
        if link is None:
            if len(self._links) + self._connecting < WRITE_CONNECTIONS:
                self._connect()
            return  # a batch that finishes, or a connection opened, starts the next
        batch, self._pending = self._pending, []
        self._send(link, batch)

    def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        self._connecting += 1
        opening = loop.run_in_executor(None, self._psycopg.pq.PGconn.connect, self._conninfo)
        opening.add_done_callback(self._connected)

    def _connected(self, opening: asyncio.Future[Any]) -> None:
        self._connecting -= 1
        pq = self._psycopg.pq
        exc = opening.exception() if not opening.cancelled() else ConnectionError("cancelled")
        pgconn = None if exc is not None else opening.result()
        if pgconn is not None and pgconn.status != pq.ConnStatus.OK:
            exc = self._psycopg.OperationalError(pgconn.get_error_message())
            pgconn.finish()
        if exc is not None:
            if not self._links and not self._connecting:  # the database out of reach: these writes fail
                pending, self._pending = self._pending, []
                error = self._error(exc if isinstance(exc, Exception) else ConnectionError(str(exc)))
                _settle([(fut, error) for _, fut, _ in pending])
            return
        assert self.loop is not None
        self._links.append(PgLink(pq, pgconn, self.loop, self._lost))
        self._start()

    def _lost(self, link: PgLink) -> None:
        if link in self._links:
            self._links.remove(link)
        held = self._unhold(link)
        if held:  # behind the writes under way, which PgLink._fail puts back ahead of these
            self._pending[:0] = held

    def _unhold(self, link: PgLink) -> list[Pending]:
        """The writes that waited for ``link``'s transactions to end, no longer waiting."""
        held = self._held.pop(link, [])
        for plan, _, _ in held:
            if self._held_tables.get(_table_of(plan)) is link:
                del self._held_tables[_table_of(plan)]
        return held

    def _release(self, link: PgLink) -> None:
        """``link``'s transactions all ended: the writes that waited for them go on it now."""
        if not link.busy and not link.closed and link in self._held:
            self._send(link, self._unhold(link))

    def _send(self, link: PgLink, batch: list[Pending]) -> None:
        """The batch on ``link``: the moves first, their senders told as soon as they are
        committed; the rest (a table created, a seat taken, a status) behind them in a
        transaction of its own, so that a move never waits for a second commit."""
        moves = [w for w in batch if len(w[0]) == 1 and w[0][0][0] == "move"]
        if moves and len(moves) < len(batch):
            rest = [w for w in batch if not (len(w[0]) == 1 and w[0][0][0] == "move")]
            self._segment(link, moves)
            self._segment(link, rest)
        else:
            self._segment(link, batch)

    def _segment(self, link: PgLink, writes: list[Pending]) -> None:
        """``writes`` as one transaction on ``link``."""
        statements: list[tuple[bytes, list[bytes | None]]] = []
        shape: list[Shape] = []  # per statement: its kind, the writes it holds, its values
        # a move sent again after a broken connection is a statement of its own ("move_again")
        moves = [i for i, (plan, _, n) in enumerate(writes) if not n and len(plan) == 1 and plan[0][0] == "move"]
        keys = {(writes[i][0][0][1]["table_id"], writes[i][0][0][1]["version"]) for i in moves}
        many = len(moves) > 1 and len(keys) == len(moves)
        if many:  # one statement and one commit however many (a table's moves come one at a time)
            statements.append(self._insert_moves([writes[i][0][0][1] for i in moves]))
            shape.append(("many", moves, {}))
        moved = set(moves) if many else set()
        for i, (plan, _, tries) in enumerate(writes):
            if i in moved:
                continue
            for name, params in plan:
                name = "move_again" if tries and name == "move" else name
                statements.append(self._statement(name, params))
                shape.append((name, [i], params))
        for plan, _, _ in writes:
            table = _table_of(plan)
            under_way = self._inflight.get(table)
            self._inflight[table] = (link, 1 if under_way is None else under_way[1] + 1)
        link.send(statements, functools.partial(self._segment_done, link, writes, shape))

    def _statement(self, name: str, params: SqlParams) -> tuple[bytes, list[bytes | None]]:
        sql, encoders = self._pg[name]
        return sql, [encode(params[n]) for n, encode in encoders]

    def _insert_moves(self, rows: list[SqlParams]) -> tuple[bytes, list[bytes | None]]:
        """``rows`` (add_move's values) in one statement that names the keys it stored (a
        version stored first is skipped)."""
        encoders = self._move_encoders
        values: list[bytes | None] = []
        for params in rows:
            values += [encode(params[c]) for c, encode in encoders]
        sql = self._many.get(len(rows))
        if sql is None:
            width = len(self._columns)
            places = ", ".join(
                "(" + ", ".join(f"${r * width + c + 1}" for c in range(width)) + ")" for r in range(len(rows))
            )
            sql = self._many[len(rows)] = (
                f"{self._head} VALUES {places} ON CONFLICT DO NOTHING RETURNING table_id, version".encode()
            )
        return sql, values

    def _segment_done(
        self, link: PgLink, writes: list[Pending], shape: list[Shape], results: list[Any] | Exception
    ) -> None:
        pq = self._psycopg.pq
        for plan, _, _ in writes:
            table = _table_of(plan)
            under_way = self._inflight.get(table)
            if under_way is not None and under_way[1] > 1:
                self._inflight[table] = (under_way[0], under_way[1] - 1)
            else:
                self._inflight.pop(table, None)
        if isinstance(results, Exception):  # the connection broke: each write once more on another
            again = [(plan, fut, tries + 1) for plan, fut, tries in writes if tries == 0]
            _settle([(fut, self._error(results)) for _, fut, tries in writes if tries > 0])
            if again:
                self._pending[:0] = again
            self._schedule_here()
            return
        failed = next((r for r in results if r is not None and r.status == pq.ExecStatus.FATAL_ERROR), None)
        if failed is not None:
            if len(writes) == 1:
                _settle([(writes[0][1], self._error(self._result_error(failed)))])
            else:  # each write alone, so that only the one at fault fails
                for write in writes:
                    self._segment(link, [write])
            self._release(link)
            self._schedule_here()
            return
        outcomes: list[BaseException | None] = [None] * len(writes)
        for (name, held, params), result in zip(shape, results, strict=True):
            if name == "many":
                stored = {(result.get_value(r, 0).decode(), int(result.get_value(r, 1))) for r in range(result.ntuples)}
                for i in held:
                    move = writes[i][0][0][1]
                    if (move["table_id"], move["version"]) not in stored:
                        outcomes[i] = _stored_first(self._sql["move"][0], move)
                continue
            i = held[0]
            if outcomes[i] is None and not result.command_tuples:  # the first statement that stopped its plan
                outcomes[i] = _stopped(name, self._sql[name][0], params)
        _settle([(fut, exc) for (_, fut, _), exc in zip(writes, outcomes, strict=True)])
        self._release(link)
        self._schedule_here()

    def _schedule_here(self) -> None:
        if self._pending and not self._scheduled and self.loop is not None:
            self._scheduled = True
            self.loop.call_soon(self._start)

    def _result_error(self, result: Any) -> Exception:
        return self._psycopg.errors.error_from_result(result, encoding="utf-8")

    def _error(self, exc: Exception) -> Exception:
        if isinstance(exc, self._psycopg.Error):
            return DBAPIError.instance("", None, exc, self._psycopg.Error)
        return DBAPIError("", None, exc)

    def backend_pids(self) -> list[int]:
        """The server processes of the connections held now (tests drop them)."""
        return [link.pg.backend_pid for link in self._links]

    def now(self, plan: Plan) -> None:
        """``plan`` committed at once through SQLAlchemy's connections (a tool, a test)."""
        with self._engine.begin() as conn:
            for name, params in plan:
                bound = self._sql[name]
                result = conn.exec_driver_sql(bound[0], _bind(bound, params))
                if result.rowcount == 0 and (stop := _stopped(name, bound[0], params)) is not None:
                    raise stop

    def settle(self) -> None:
        """Nothing to do: a table's calls are ordered by its session (TableSession.write)."""

    async def aclose(self) -> None:
        while (
            self._pending or self._held or self._connecting or any(link.busy for link in self._links)
        ):  # the last batches first
            if self._pending and not self._scheduled:
                self._start()
            await asyncio.sleep(0.01)
        links, self._links = self._links, []
        for link in links:
            link.close()

    def close(self) -> None:
        """The loop's connections are closed by :meth:`aclose` on that loop."""


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
        self._writes: SqliteWrites | PgWrites = SqliteWrites(self.engine) if self.local else PgWrites(self.engine)
        self._executors: dict[bool, ThreadPoolExecutor] = {}
        # On a database server a call of one statement runs in autocommit mode, its own
        # transaction: one round trip instead of BEGIN, statement, COMMIT. Each round trip also
        # waits for the GIL again in a busy process (seen in profiles: the worker threads'
        # BEGIN and COMMIT were most of their time).
        self._auto: Engine = self.engine if self.local else self.engine.execution_options(isolation_level="AUTOCOMMIT")

    def close(self) -> None:
        self._writes.close()
        for executor in self._executors.values():
            executor.shutdown(wait=True)
        self.engine.dispose()

    async def aclose(self) -> None:
        """Commit what is pending and close the event loop's own connections (the app's
        shutdown, before :meth:`close`)."""
        if self._writes.usable():
            await self._writes.aclose()

    async def call(self, fn: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``fn(*args)`` (a method of this store) without holding up the event loop. A hot write
        (:func:`hot_write`) joins this tick's batch and returns once it is committed. Anything
        else runs on a database server in one of :data:`DB_THREADS` worker threads; on SQLite at
        once (a commit costs less than the trip to a thread), after the writes sent before it.
        ``urgent`` work (loading the tables a dead process left) has threads of its own, so a
        thousand clients reconnecting at once, each loading its table, do not queue ahead of it."""
        plan = getattr(fn, "plan", None)
        if plan is not None and self._writes.usable():
            try:
                await self._writes.later(plan(self, *args))
            except SeatTaken:
                return False  # type: ignore[return-value]  # take_seat: someone was first
            return getattr(fn, "done", None)  # type: ignore[return-value]  # take_seat: True
        if self.local:
            return fn(*args)
        executor = self._executors.get(urgent)
        if executor is None:
            threads, name = (URGENT_THREADS, "mauseloch-db-urgent") if urgent else (DB_THREADS, "mauseloch-db")
            executor = self._executors[urgent] = ThreadPoolExecutor(threads, thread_name_prefix=name)
        return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(fn, *args))

    def send(self, fn: Callable[..., None], *args: Any) -> asyncio.Future[None]:
        """A hot write (:func:`hot_write`) into this tick's batch without waiting for it (no task):
        the future is done once it is committed. The writes of one tick are committed in the order
        sent; on SQLite every batch, and every other call, in the order made (one connection), so
        a table's writes need no queue of their own there."""
        return self._writes.later(fn.plan(self, *args))  # type: ignore[attr-defined]

    @contextlib.contextmanager
    def _single(self) -> Iterator[Connection]:
        """A connection for one statement (or reads): autocommitted on a database server. On
        SQLite the hot writes sent before it are committed first (they are in call order)."""
        self._writes.settle()
        if self._auto is self.engine:  # SQLite: a transaction of its own
            with self.engine.begin() as conn:
                yield conn
        else:
            with self._auto.connect() as conn:
                yield conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A transaction of several statements, after the hot writes sent before it."""
        self._writes.settle()
        with self.engine.begin() as conn:
            yield conn

    # -- writing -----------------------------------------------------------------------
    def _table_plan(self, row: TableRow) -> Plan:
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

    def create_table(self, row: TableRow) -> None:
        """Store a new table with its seats (one transaction; a taken id raises ``IntegrityError``).
        Through :meth:`call` it joins the tick's batch, as the moves do, not a worker thread."""
        self._writes.now(self._table_plan(row))

    create_table.plan = _table_plan  # type: ignore[attr-defined]

    def take_seat(
        self, table_id: str, seat: int, name: str, token_hash: str, joined: dt.datetime | None = None
    ) -> bool:
        """Give a free human seat to ``name``; False when someone took it first. ``joined``: the
        moment of the join, stored with the table in the same transaction (a waiting table's
        expiry counts from there, across restarts). Through :meth:`call` it joins the tick's
        batch, as the moves do, not a worker thread."""
        try:
            self._writes.now(self._seat_plan(table_id, seat, name, token_hash, joined))
        except SeatTaken:
            return False
        return True

    def _seat_plan(
        self, table_id: str, seat: int, name: str, token_hash: str, joined: dt.datetime | None = None
    ) -> Plan:
        plan: Plan = [("take_seat", {"of_table": table_id, "of_seat": seat, "name": name, "token_hash": token_hash})]
        if joined is not None:
            plan.append(("joined", {"table_id": table_id, "joined": joined, "token_hash": token_hash}))
        plan.append(("start", {"table_id": table_id}))
        return plan

    take_seat.plan = _seat_plan  # type: ignore[attr-defined]
    take_seat.done = True  # type: ignore[attr-defined]  # what Store.call returns once it is committed

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
        deadlines: list[JSONObject] | None = None,
        referee: JSONObject | None = None,
    ) -> Plan:
        """Store the move played at ``version``, with the table's deadlines from then on when
        given (in the move's row: one statement); a second move for the same version raises
        ``IntegrityError``. ``referee``: the reaction window this move decided (its claims and
        the decision)."""
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
    def set_deadlines(self, table_id: str, deadlines: list[JSONObject]) -> Plan:
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
                cur = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
                rows = cur.execute(_PG_SEATS_NOW, {"table_id": table_id}, prepare=True).fetchall()
            else:
                rows = conn.execute(_SEATS_NOW, {"table_id": table_id}).all()
        if not rows:
            return None
        status, joined = rows[0][2], rows[0][3]
        return SeatsNow([(r[0], r[1]) for r in rows], status, None if joined is None else _aware(joined))

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
            cur = conn.connection.driver_connection.cursor(row_factory=dict_row)  # type: ignore[union-attr]
            row = cur.execute(_PG_TABLE, (table_id,), prepare=True).fetchone()
            if row is None:
                return None
            seats = cur.execute(_PG_SEATS, (table_id,), prepare=True).fetchall()
            moves = cur.execute(_PG_MOVES, (table_id,), prepare=True).fetchall()
        return _table_row(row, seats, moves)

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
    referee: dict[int, JSONObject] = {}
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
            referee[len(moves) - 1] = dict(m["referee"])
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
        created=_aware(row["created"]),
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
