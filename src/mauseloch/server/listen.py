"""The event loop ``serve`` runs on: uvloop's, accepting new connections in batches.

libuv accepts one connection each time the loop polls (libuv/libuv#3696; so does uvloop 0.23's):
the listening socket then counts like any one of the thousands of sockets whose messages the
loop handles each round. Under load a round takes tens of milliseconds, so connections came in
at 20 to 200 a second. When a process of several was killed with 2,000 seats on the run
(bench/server.py --kill-after), the 1,000 sockets that reconnected to the one left waited in its
listen queue (900 deep) for up to 6 s, and the slowest tables took 6 to 9 s to play again though
their new owner had taken them over within 1.5 s. Here every poll accepts whatever is waiting,
up to :data:`ACCEPT_BATCH`, as asyncio's own loop does.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("mauseloch.server")

ACCEPT_BATCH = 512  # connections accepted at most each time the listening socket is ready
EMFILE_PAUSE = 0.1  # seconds without accepting when the process is out of file descriptors


class BatchAcceptServer:
    """What ``loop.create_server(sock=...)`` returns, accepting with :meth:`_accept` (the parts of
    :class:`asyncio.Server` uvicorn uses: ``close``, ``wait_closed``, ``sockets``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, protocol_factory: Callable[[], Any], sock: socket.socket):
        self._loop = loop
        self._factory = protocol_factory
        self._sock = sock
        self._serving = True
        self._opening: set[asyncio.Task[Any]] = set()
        sock.setblocking(False)
        loop.add_reader(sock.fileno(), self._accept)

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return (self._sock,) if self._serving else ()

    def is_serving(self) -> bool:
        return self._serving

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def close(self) -> None:
        if self._serving:
            self._serving = False
            self._loop.remove_reader(self._sock.fileno())

    async def wait_closed(self) -> None:
        if self._opening:
            await asyncio.wait(list(self._opening))

    def _accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                conn, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:  # out of file descriptors: let some connections close first
                log.error("cannot accept connections: %s", exc)
                self._loop.remove_reader(self._sock.fileno())
                self._loop.call_later(EMFILE_PAUSE, self._resume)
                return
            conn.setblocking(False)
            if conn.family in (socket.AF_INET, socket.AF_INET6):
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            task = self._loop.create_task(self._open(conn))
            self._opening.add(task)
            task.add_done_callback(self._opening.discard)

    def _resume(self) -> None:
        if self._serving:
            self._loop.add_reader(self._sock.fileno(), self._accept)

    async def _open(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._factory, conn)
        except Exception as exc:  # the peer went away meanwhile, or the protocol refused it
            log.debug("an accepted connection could not be opened: %s", exc)
            conn.close()


def new_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's loop factory for ``serve`` (``Config(loop="mauseloch.server.listen:new_loop")``)."""
    try:
        import uvloop
    except ImportError:  # asyncio's own loop accepts in batches already
        return asyncio.new_event_loop()

    class Loop(uvloop.Loop):
        async def create_server(self, protocol_factory: Any, *args: Any, **kwargs: Any) -> Any:
            sock = kwargs.get("sock")
            if sock is None or args or kwargs.get("ssl") is not None:
                return await super().create_server(protocol_factory, *args, **kwargs)
            return BatchAcceptServer(self, protocol_factory, sock)

    return Loop()


# What a WebSocket's write buffer may hold before its client counts as one that stopped reading
# (the hub's OUTBOX_LIMIT of 500 messages, in bytes: a view is a few KiB)
SEND_BUFFER_LIMIT = 4 << 20
SEND_NOW = "mauseloch.send_now"  # the scope extension (ASGI ``extensions``) ws.py writes frames through


class DirectWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O parser) with one addition: a connection's
    scope carries :meth:`send_now` under ``extensions[SEND_NOW]``, which writes a text frame to
    the socket at once, without the ASGI ``send`` coroutine, a queue or a task per connection.

    Through ASGI each message out cost a queue put, a task woken to drain it, Starlette's and
    uvicorn's ``send`` coroutines and websockets' frame building (measured: 130 µs of a move
    went to WebSocket framing, parsing and sending, with four messages out a move). A server's
    frame is not masked, so without an extension (``ws_per_message_deflate=False``) it is two to
    ten bytes of header and the text. Back-pressure: the transport buffers what the client has
    not read yet; past :data:`SEND_BUFFER_LIMIT` the client counts as gone (as a full outbox
    did). Reading, the handshake, pings and closing stay uvicorn's."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def send_now(self, text: str) -> bool:
        """``text`` as one frame, written now; False when the socket cannot take it (closed,
        closing, or a client that stopped reading: the caller closes the connection)."""
        if self.close_sent or self.disconnected or not self.handshake_complete or self.transport.is_closing():
            return False
        if self.transport.get_write_buffer_size() > SEND_BUFFER_LIMIT:
            return False
        data = text.encode()
        if self.conn.extensions:  # a negotiated extension (deflate) shapes every frame: websockets builds it
            self.conn.send_text(data)
            self.transport.write(b"".join(self.conn.data_to_send()))
            return True
        n = len(data)
        if n < 126:
            head = bytes((0x81, n))
        elif n < 1 << 16:
            head = b"\x81\x7e" + n.to_bytes(2, "big")
        else:
            head = b"\x81\x7f" + n.to_bytes(8, "big")
        self.transport.write(head + data)
        return True
