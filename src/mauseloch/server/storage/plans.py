"""A write as data: which statements of :data:`~.schema.HOT` with which values, in one
transaction (a :data:`Plan`), and the hot writes of the store built from them.

A hot write (:class:`HotWrite`) is a method of the store that only plans; called, it is committed
at once, on its own; sent from an event loop (``Store.call``, ``Store.send``) it joins that tick's
group commit (:class:`~.sqlite.SqliteWrites`, :class:`~.postgres.PgWrites`), both of which
implement :class:`Writes`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeAlias, TypeVar, overload

import msgspec

from mauseloch.extras import needs
from mauseloch.server.storage.schema import HOT, moves_t

with needs("web", __name__):
    from sqlalchemy import JSON
    from sqlalchemy.engine import Dialect
    from sqlalchemy.exc import IntegrityError


class SeatTaken(Exception):
    """The seat a join asked for was taken first (a plan's ``take_seat`` changed no row)."""


# The values bound to one SQL statement, by parameter name: the drivers' edge (sqlite3, libpq
# and SQLAlchemy take such a dict), the one place an untyped dict belongs in the storage.
SqlParams: TypeAlias = dict[str, Any]


def stopped(name: str, sql: str, params: SqlParams) -> Exception | None:
    """What a statement that changed no row means, where it stops its plan: a move at a version
    stored first, a seat someone took first."""
    if name in ("move", "move_again"):
        return stored_first(sql, params)
    if name == "take_seat":
        return SeatTaken()
    return None


_json = msgspec.json.Encoder()

Plan = list[tuple[str, SqlParams]]  # which of HOT, with which values, in one transaction
P = ParamSpec("P")
Bound = tuple[str, dict[str, Callable[[Any], Any]]]  # a statement's SQL and its values' conversions


def json_param(value: Any) -> str | None:
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
                convert[key] = json_param
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


def bind(bound: Bound, params: SqlParams) -> SqlParams:
    convert = bound[1]
    return {k: convert[k](v) if k in convert else v for k, v in params.items()}


def stored_first(sql: str, params: SqlParams) -> IntegrityError:
    """What a move at a version stored already raises (as the unique key's violation would)."""
    return IntegrityError(
        sql, params, Exception(f"version {params.get('version')} of {params.get('table_id')} is stored")
    )


def tell(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
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


# told of every group commit: its seconds from sending to committed, and its writes (metrics)
CommitWatch = Callable[[float, int], None]


class Writes(Protocol):
    """How a store commits its hot writes: SQLite's group commit or PostgreSQL's pipeline.
    ``on_commit`` (None: nobody asks) is told of each group commit that succeeded."""

    on_commit: CommitWatch | None

    def usable(self) -> bool:
        """Whether the running event loop may send writes here."""
        ...

    def later(self, plan: Plan) -> asyncio.Future[None]:
        """``plan`` in this tick's batch; the future is done once the batch is committed."""
        ...

    def now(self, plan: Plan) -> None:
        """``plan`` committed at once, on its own; raises what it raised."""
        ...

    def settle(self) -> None:
        """Before any other call of the store: what was sent before it is committed."""
        ...

    async def aclose(self) -> None: ...

    def close(self) -> None: ...


class Writer(Protocol):
    """What a hot write is a method of (the store)."""

    writes: Writes


S = TypeVar("S", bound=Writer)
R = TypeVar("R")


class HotWrite(Generic[S, P, R]):
    """A method of the store whose body plans a write (``planner``); ``done`` is what it answers
    once committed, ``refused`` what it answers when a seat it takes was taken first."""

    def __init__(self, planner: Callable[Concatenate[S, P], Plan], done: R, refused: R) -> None:
        self.planner = planner
        self.done = done
        self.refused = refused
        self.name = planner.__name__
        self.__doc__ = planner.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, store: None, owner: type) -> HotWrite[S, P, R]: ...

    @overload
    def __get__(self, store: S, owner: type) -> BoundWrite[S, P, R]: ...

    def __get__(self, store: S | None, owner: type) -> HotWrite[S, P, R] | BoundWrite[S, P, R]:
        if store is None:
            return self
        bound = BoundWrite(self, store)
        store.__dict__[self.name] = bound  # found there from now on, without this call
        return bound


class BoundWrite(Generic[S, P, R]):
    """A hot write of one store."""

    __slots__ = ("store", "write")

    def __init__(self, write: HotWrite[S, P, R], store: S) -> None:
        self.write = write
        self.store = store

    def plan(self, *args: P.args, **kwargs: P.kwargs) -> Plan:
        return self.write.planner(self.store, *args, **kwargs)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Committed at once, on its own (a tool, a test, a start-up)."""
        try:
            self.store.writes.now(self.plan(*args, **kwargs))
        except SeatTaken:
            return self.write.refused
        return self.write.done

    def answer(self, exc: BaseException | None) -> R:
        """What the write answers once its batch is done (``exc``: what failed it)."""
        if isinstance(exc, SeatTaken):
            return self.write.refused
        if exc is not None:
            raise exc
        return self.write.done


def hot_write(planner: Callable[Concatenate[S, P], Plan]) -> HotWrite[S, P, None]:
    """A hot write that answers nothing (a move, a status, deadlines, presence)."""
    return HotWrite(planner, None, None)
