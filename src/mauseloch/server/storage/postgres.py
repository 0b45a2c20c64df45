"""The hot writes on PostgreSQL: batches pipelined on connections the event loop holds
(:class:`PgWrites`), each batch one transaction, a table's writes committed in the order sent."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from mauseloch.extras import needs
from mauseloch.server.storage.pglink import PgLink, pg_encoder, pg_sql
from mauseloch.server.storage.plans import (
    CommitWatch,
    Plan,
    SqlParams,
    bind,
    compile_hot,
    stopped,
    stored_first,
    tell,
)

with needs("web", __name__):
    from sqlalchemy import Engine
    from sqlalchemy.exc import DBAPIError

_DRIVER_OPTIONS: dict[str, Any] = {"autocommit": True, "application_name": "mauseloch-writes"}
# PostgreSQL connections that commit a process's batches of hot writes at the same time. One
# batch holds every write of a loop tick and of the ticks while the batches before it commit.
# A commit waits for the WAL's flush to disk (7 ms at the median, 16 ms at the 90th percentile
# on this machine's loaded disk), so a write that finds every connection busy waits about one
# commit longer: with 4 connections the p50 round trip of a move was 2.4 times the code's
# before (bench/server.py --against, 400 seats, one process), with 16 0.7 times. A busy process
# still sends a batch per connection, not a statement each (32 connections of one each before).
WRITE_CONNECTIONS = 16

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
            libpq_sql, names = pg_sql(sql)
            self._pg[name] = (libpq_sql, [(n, pg_encoder(convert.get(n))) for n in names])
        # the INSERT of a move, taken apart for one of many rows: its head and columns
        head = self._sql["move"][0].split(" VALUES ")[0]
        self._columns = [c.strip().strip('"') for c in head[head.index("(") + 1 : head.rindex(")")].split(",")]
        self._head = head
        move_convert = self._sql["move"][1]
        self._move_encoders = [(c, pg_encoder(move_convert.get(c))) for c in self._columns]
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
        self.on_commit: CommitWatch | None = None

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
                tell([(fut, error) for _, fut, _ in pending])
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
        done: Callable[[list[Any] | Exception], None] = functools.partial(self._segment_done, link, writes, shape)
        if self.on_commit is not None:
            done = functools.partial(self._timed, link.loop.time(), len(writes), done)
        link.send(statements, done)

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

    def _timed(
        self, sent: float, writes: int, done: Callable[[list[Any] | Exception], None], results: list[Any] | Exception
    ) -> None:
        """A transaction's round trip told to ``on_commit`` (one that ended, not a broken connection)."""
        if self.on_commit is not None and not isinstance(results, Exception) and self.loop is not None:
            self.on_commit(self.loop.time() - sent, writes)
        done(results)

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
            tell([(fut, self._error(results)) for _, fut, tries in writes if tries > 0])
            if again:
                self._pending[:0] = again
            self._schedule_here()
            return
        failed = next((r for r in results if r is not None and r.status == pq.ExecStatus.FATAL_ERROR), None)
        if failed is not None:
            if len(writes) == 1:
                tell([(writes[0][1], self._error(self._result_error(failed)))])
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
                        outcomes[i] = stored_first(self._sql["move"][0], move)
                continue
            i = held[0]
            if outcomes[i] is None and not result.command_tuples:  # the first statement that stopped its plan
                outcomes[i] = stopped(name, self._sql[name][0], params)
        tell([(fut, exc) for (_, fut, _), exc in zip(writes, outcomes, strict=True)])
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
                result = conn.exec_driver_sql(bound[0], bind(bound, params))
                if result.rowcount == 0 and (stop := stopped(name, bound[0], params)) is not None:
                    raise stop

    def settle(self) -> None:
        """Nothing to do: a table's writes are sent in order by its runner (TableSession)."""

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
