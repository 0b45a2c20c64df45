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
import base64
import binascii
import logging
import re
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from mauseloch.extras import needs

with needs("web", __name__):
    import uvicorn
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.datastructures import Headers
    from websockets.http11 import Request, Response
    from websockets.protocol import Protocol, State
    from websockets.utils import accept_key

    try:
        from websockets.speedups import apply_mask
    except ImportError:  # websockets without its C extension
        from websockets.utils import apply_mask

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
# Messages read and not yet taken by the endpoint before the socket stops reading (uvicorn stops
# after each one, and starts again when the endpoint takes it: two calls into libuv a message)
READ_AHEAD = 16
# a request line or header as websockets' parser takes it (http11: MAX_NUM_HEADERS, MAX_LINE_LENGTH)
PLAIN_LINE = re.compile(r"[\t\x20-\x7e]{0,8190}")
HEADER_NAME = re.compile(r"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
MAX_HEADERS = 128


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
    did).

    Reading: a client's frame, a whole unfragmented text message in one masked frame within the
    size limit, is parsed here in :meth:`data_received` and handed to the endpoint's queue; every
    other frame (ping, pong, close, binary, a fragment) goes whole to websockets' parser, which
    is then at a frame's start as it expects. Through the parser a move's frame cost a generator
    run, a ``Frame`` and its event, and reading was paused and resumed for each message. A frame
    that breaks the rules (unmasked, reserved bits, over the size limit, a 64-bit length) or any
    byte once the connection is closing sends the rest of the stream to the parser for good, so
    its errors and close codes are websockets' own. With an extension negotiated every frame
    goes to the parser. Pings and closing stay uvicorn's.

    The handshake: uvicorn's HTTP protocol hands over the request it has parsed already, joined
    again into bytes, and websockets parsed it anew and checked it (a third of the CPU a socket's
    opening cost, measured). A plain request (GET, HTTP/1.1, printable ASCII, one
    ``Upgrade: websocket``, ``Connection: upgrade``, version 13 and a key of 16 bytes) is read
    here and answered with the same 101 websockets builds; any other goes to websockets, which
    answers it as before."""

    fast_read = True  # False: every byte through websockets' parser (bench/floor.py compares the two)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._own_frames: bool | None = None  # None: not yet open; then whether frames are read here
        self._partial = bytearray()  # the start of a frame not yet all received (read here)

    def data_received(self, data: bytes) -> None:
        own = self._own_frames
        if own is None and not self.handshake_initiated and self.fast_read and self._plain_handshake(data):
            return
        if own is None:
            if self.conn.state is State.OPEN:  # the first bytes after the handshake's answer
                self._own_frames = own = self.fast_read and not self.conn.extensions
            elif self.handshake_initiated:
                # bytes after the request, before its answer: a client that did not wait for the
                # handshake (RFC 6455, 4.1) is read by the parser alone
                self._own_frames = False
        if not own:
            super().data_received(data)
            if self._own_frames is None and self.handshake_initiated and not data.endswith(b"\r\n\r\n"):
                self._own_frames = False  # frames came with the request: the parser may be amid one
            return
        partial = self._partial
        if partial:
            partial += data
            data = bytes(partial)
            partial.clear()
        pos, n = 0, len(data)
        limit = self.conn.max_message_size
        while n - pos >= 2:
            if self.conn.state is not State.OPEN:
                return self._to_parser(data[pos:])
            b0, b1 = data[pos], data[pos + 1]
            size, at = b1 & 0x7F, pos + 6  # past the two bytes, and the mask key
            if size == 126:
                if n - pos < 4:
                    break
                size, at = int.from_bytes(data[pos + 2 : pos + 4], "big"), at + 2
            if size == 127 or not b1 & 0x80 or b0 & 0x70 or (limit is not None and size > limit):
                return self._to_parser(data[pos:])
            end = at + size
            if end > n:
                break
            if b0 == 0x81:  # FIN and text: a whole message
                payload = apply_mask(data[at:end], data[at - 4 : at])
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    return self._to_parser(data[pos:])  # the parser closes with 1007
                self._message(text)
            elif b0 & 0x80 and b0 & 0x0F:  # a whole control or binary frame: websockets handles it
                super().data_received(data[pos:end])
            else:  # a fragment: the parser puts the message together, from here on
                return self._to_parser(data[pos:])
            pos = end
        if pos < n:
            partial += data[pos:]

    def _plain_handshake(self, data: bytes) -> bool:
        """Whether ``data`` is a whole plain handshake request, now handed to uvicorn's
        ``handle_connect`` with its answer built here (False: websockets' parser is to read it)."""
        if not data.endswith(b"\r\n\r\n") or self.conn.state is not State.CONNECTING:
            return False
        try:
            lines = data[:-4].decode("ascii").split("\r\n")
        except UnicodeDecodeError:
            return False
        parts = lines[0].split(" ")
        if len(parts) != 3 or parts[0] != "GET" or parts[2] != "HTTP/1.1" or len(lines) > MAX_HEADERS + 1:
            return False
        raw: list[tuple[str, str]] = []
        found: dict[str, list[str]] = {}
        for line in lines:
            if not PLAIN_LINE.fullmatch(line):
                return False
        for line in lines[1:]:
            name, colon, value = line.partition(":")
            if not colon or not HEADER_NAME.fullmatch(name):
                return False
            value = value.strip(" \t")
            raw.append((name, value))
            found.setdefault(name.lower(), []).append(value)
        upgrade, connection = found.get("upgrade", []), found.get("connection", [])
        key, version = found.get("sec-websocket-key", []), found.get("sec-websocket-version", [])
        if (
            [u.lower() for u in upgrade] != ["websocket"]
            or "upgrade" not in (t.strip().lower() for c in connection for t in c.split(","))
            or version != ["13"]
            or len(key) != 1
        ):
            return False
        try:
            if len(base64.b64decode(key[0].encode(), validate=True)) != 16:
                return False
        except binascii.Error:
            return False
        answer = Headers()  # as websockets' accept builds it (uvicorn replaces the Date with its own)
        answer["Date"] = ""
        answer["Upgrade"] = "websocket"
        answer["Connection"] = "Upgrade"
        answer["Sec-WebSocket-Accept"] = accept_key(key[0])
        response = Response(101, "Switching Protocols", answer)
        conn: Any = self.conn
        conn.parser = Protocol.parse(conn)  # the request is read: frames come next
        next(conn.parser)
        conn.accept = lambda _request: response  # what handle_connect asks websockets for
        try:
            self.handle_connect(Request(parts[1], Headers(raw)))
        finally:
            del conn.accept
        return True

    def _to_parser(self, data: bytes) -> None:
        self._own_frames = False
        super().data_received(data)

    def _message(self, text: str) -> None:
        """What uvicorn's ``send_receive_event_to_app`` does with a text message, but reading
        stops only when :data:`READ_AHEAD` messages wait (uvicorn's ``receive`` starts it again
        once they are taken)."""
        if self.close_sent:  # the endpoint is past its close: the message is dropped, as uvicorn does
            return
        self.queue.put_nowait({"type": "websocket.receive", "text": text})
        if not self.read_paused and self.queue.qsize() >= READ_AHEAD:
            self.read_paused = True
            self.transport.pause_reading()

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # The scope's send_now is bound to this protocol, which holds the scope: a cycle that
        # left every closed socket (this protocol, websockets' parser, the transport, ~50
        # objects) to the collector's middle passes. Without it they go when the endpoint ends.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"].pop(SEND_NOW, None)

    def send_now(self, text: str | bytes) -> bool:
        """``text`` as one frame, written now; False when the socket cannot take it (closed,
        closing, or a client that stopped reading: the caller closes the connection). Bytes are
        taken as UTF-8 text already encoded (a message msgspec encoded is written as it is)."""
        if self.close_sent or self.disconnected or not self.handshake_complete or self.transport.is_closing():
            return False
        if self.transport.get_write_buffer_size() > SEND_BUFFER_LIMIT:
            return False
        data = text if isinstance(text, bytes) else text.encode()
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


class DrainingServer(uvicorn.Server):
    """uvicorn's server, stopping (SIGTERM, SIGINT) as a rolling restart needs: it stops accepting
    at once, lets idle HTTP connections go (busy ones after their answer), then ``drain`` hands
    the tables over and sends the WebSockets elsewhere (lobby.py, ownership.py); only then does
    uvicorn's own shutdown run (what is left of the HTTP answers and streams, the lifespan)."""

    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self._drain = drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()  # what waits in the backlog is refused: the proxy tries another process
        for connection in list(self.server_state.connections):
            if not isinstance(connection, WebSocketsSansIOProtocol):
                connection.shutdown()
        if not self.force_exit:
            try:
                await self._drain()
            except Exception:
                log.exception("the drain failed; stopping anyway")
        await super().shutdown(sockets=None)
