"""Broadcast: who is listening to which table, and delivering each seat its own message.

A table session never writes to sockets. It calls ``hub.publish(table, version, message_for)``
where ``message_for(seat)`` gives the text that seat (``None``: a spectator) may see; the hub
hands it to every connection it has for that table. :class:`LocalHub` does that inside this
process. :class:`~.redis_hub.RedisHub` spans several server processes with the same
:class:`Hub` protocol: the table's owner calls ``message_for`` once per seat and publishes the
texts on a channel per table, and each process delivers them to its own connections.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

OUTBOX_LIMIT = 500  # messages a connection may fall behind before it is dropped

MessageFor = Callable[[int | None], str]  # seat (None: spectator) -> the text it may see


@dataclass(eq=False)
class Connection:
    """One WebSocket: a seat (None: spectator) and the messages waiting to be sent.

    ``None`` in the outbox ends the connection after everything before it was sent, with
    ``close_code``.
    """

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    close_code: int | None = None

    def send(self, text: str) -> None:
        if self.close_code is not None:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # a client that stopped reading: let it go
            self.close(1008)
            return
        self.outbox.put_nowait(text)

    def close(self, code: int) -> None:
        if self.close_code is None:
            self.close_code = code
            self.outbox.put_nowait(None)


class Hub(Protocol):
    """Delivers a table's messages to the connections listening to it."""

    def subscribe(self, table: str, conn: Connection) -> None: ...

    def unsubscribe(self, table: str, conn: Connection) -> None: ...

    def listeners(self, table: str) -> int:
        """Connections this process has for ``table`` (a finished table nobody watches is unloaded)."""
        ...

    def publish(self, table: str, version: int, message_for: MessageFor) -> None:
        """Send every listener of ``table`` the message for its seat, in publishing order."""
        ...

    def close_seat(self, table: str, seat: int, code: int) -> None:
        """Close every connection of ``seat`` (the person left the table)."""
        ...

    def close_all(self, code: int) -> None: ...

    def counts(self) -> dict[str, int]:
        """This process's connections by state: ``seated`` and ``watching`` (spectators), and
        with several processes ``remote``: other processes' connections of tables run here."""
        ...


def seated_and_watching(tables: Iterable[set[Connection]]) -> dict[str, int]:
    seated = watching = 0
    for conns in tables:
        for conn in conns:
            if conn.seat is None:
                watching += 1
            else:
                seated += 1
    return {"seated": seated, "watching": watching}


class LocalHub:
    """The in-process hub: connections of this server process only."""

    def __init__(self) -> None:
        self._conns: dict[str, set[Connection]] = {}

    def subscribe(self, table: str, conn: Connection) -> None:
        self._conns.setdefault(table, set()).add(conn)

    def unsubscribe(self, table: str, conn: Connection) -> None:
        conns = self._conns.get(table)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._conns[table]

    def listeners(self, table: str) -> int:
        return len(self._conns.get(table, ()))

    def publish(self, table: str, version: int, message_for: MessageFor) -> None:
        texts: dict[int | None, str] = {}  # one encoding per seat, however many tabs watch it
        for conn in self._conns.get(table, ()):
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = message_for(conn.seat)
            conn.send(text)

    def close_seat(self, table: str, seat: int, code: int) -> None:
        for conn in self._conns.get(table, ()):
            if conn.seat == seat:
                conn.close(code)

    def close_all(self, code: int) -> None:
        for conns in self._conns.values():
            for conn in conns:
                conn.close(code)

    def counts(self) -> dict[str, int]:
        return seated_and_watching(list(self._conns.values()))
