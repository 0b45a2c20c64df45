"""One PostgreSQL connection held in pipeline mode and read by the event loop (:class:`PgLink`),
and how a bound value goes to libpq in PostgreSQL's text format."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import msgspec

from mauseloch.server.storage.plans import json_param

_json = msgspec.json.Encoder()


def pg_sql(sql: str) -> tuple[bytes, list[str]]:
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


def pg_encoder(convert: Callable[[Any], Any] | None) -> Callable[[Any], bytes | None]:
    """How a value of a :data:`HOT` statement goes to PostgreSQL: its column's conversion
    (compile_hot) and the text format in one step; JSON straight to bytes."""
    if convert is None:
        return _pg_text
    if convert is json_param:
        return _json_text
    return lambda value: _pg_text(convert(value))


class Segment:
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
        self._segments: collections.deque[Segment] = collections.deque()
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
        segment = Segment(len(statements), done)
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
