"""A table's writes to the store, in the order they were asked for.

A move is stored before it counts (write-ahead), fenced by the store's key ``(table, version)``:
a second writer of the same version gets ``IntegrityError`` (session.py catches up). Writes of
one table never overtake each other, so the store never goes back to an older state and every
stored move finds what came before it stored. Both the table's authority and the proxy of a
table another process owns (a seat taken through this process) write through one of these.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from mauseloch.extras import needs
from mauseloch.server.storage.plans import BoundWrite
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger("mauseloch.server")

T = TypeVar("T")


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class WriteQueue:
    """The writes of table ``table`` to ``store``, one after the other."""

    def __init__(self, store: Store, table: str) -> None:
        self.store = store
        self.table = table
        self._last: asyncio.Future[Any] | None = None  # the table's latest write to a database server

    def send(self, fn: BoundWrite[Store, ..., None], *args: Any) -> asyncio.Future[None] | None:
        """The hot write ``fn(*args)`` (storage.plans.HotWrite) into the tick's batch without a task,
        where that keeps this table's order: on SQLite always, on a database server while none
        of the table's writes is queued (the store commits one table's hot writes in the order
        sent; later writes queue behind this one). None: use :meth:`write`."""
        if self.store.local:
            return self.store.send(fn, *args)
        if self._last is not None and not self._last.done():
            return None
        sent = self._last = self.store.send(fn, *args)
        return sent

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store, awaited, after every earlier write of this table (a move,
        a seat taken, a table loaded again): on a database server in a worker thread, so the
        event loop serves other tables meanwhile (Store.call). On SQLite the store itself keeps
        every call in the order made (one connection), and a move joins its tick's group commit."""
        if self.store.local:
            return await self.store.call(fn, *args)
        return await asyncio.shield(self._queue(fn, *args))

    def write_later(self, what: str, fn: Callable[..., Any], *args: Any) -> None:
        """A write nobody waits for (deadlines, presence, a status that follows from the moves):
        queued behind this table's earlier writes and ahead of its later ones. A process killed
        within those milliseconds loses them as if killed a moment earlier; what counts (moves,
        seat tokens, a game starting) is written with :meth:`write`."""
        try:
            if self.store.local:
                if isinstance(fn, BoundWrite) and _loop_running():  # into the tick's group commit
                    self.store.send(fn, *args).add_done_callback(lambda f: self._failed(what, f))
                else:
                    fn(*args)
                return
            asyncio.get_running_loop()
        except SQLAlchemyError:
            log.exception("%s of table %s could not be stored", what, self.table)
            return
        except RuntimeError:  # no event loop (a tool, a test): at once
            try:
                fn(*args)
            except SQLAlchemyError:
                log.exception("%s of table %s could not be stored", what, self.table)
            return
        self._queue(fn, *args).add_done_callback(lambda f: self._failed(what, f))

    def _failed(self, what: str, done: asyncio.Future[Any]) -> None:
        exc = None if done.cancelled() else done.exception()
        if exc is not None:
            log.error("%s of table %s could not be stored", what, self.table, exc_info=exc)

    def _queue(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        before = self._last

        async def run() -> T:
            if before is not None and not before.done():
                await asyncio.wait([before])  # its outcome is its caller's; only the order is ours
            return await self.store.call(fn, *args)

        task = asyncio.get_running_loop().create_task(run())
        self._last = task
        return task

    @property
    def writing(self) -> bool:
        """Whether writes are still queued (a finished table stays in memory until they are done:
        loaded from the store before, it would still look unfinished)."""
        return self._last is not None and not self._last.done()

    async def flush(self) -> None:
        """Until every write queued so far is done (a stopping server's last writes)."""
        last = self._last
        if last is not None and not last.done():
            await asyncio.wait([last])
