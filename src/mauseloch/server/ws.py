"""The table WebSocket ``/ws/<id>`` (docs/protocol.md): hello, then moves, leave, rematch, pings.

The endpoint only reads messages, checks who is talking and hands the rest to the table
session; what each connection is sent comes through the hub. Served by ``mauseloch serve``
(listen.DirectWebSocket) a message is written to the socket as the hub hands it over; under
another ASGI server (a test client, say) it goes through the connection's outbox, drained here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mauseloch.extras import needs
from mauseloch.server.handle import TableHandle
from mauseloch.server.hub import Connection
from mauseloch.server.limits import CLOSE_HELLO_LATE, Guard
from mauseloch.server.listen import SEND_NOW
from mauseloch.server.lobby import Lobby
from mauseloch.server.protocol import (
    AwayMsg,
    ClockPong,
    EmoteMsg,
    ErrorCode,
    ErrorMsg,
    Hello,
    Leave,
    MoveMsg,
    PaceMsg,
    Ping,
    ProtocolError,
    ReactMsg,
    Rematch,
    Resync,
    decode_client,
    encode,
)

with needs("web", __name__):
    from starlette.websockets import WebSocket, WebSocketDisconnect

if TYPE_CHECKING:  # prometheus-client: imported only by serve --metrics
    from mauseloch.server.metrics import Metrics

log = logging.getLogger("mauseloch.server")

RATE_LIMIT = 20  # messages per second and connection
FLOOD_CLOSE = 200  # refused messages in a row before a flooding connection is closed
HANG_UP = (ErrorCode.BAD_TOKEN, ErrorCode.INVITE_NEEDED)  # a hello refused so is answered, then closed (4403)


def same_origin(websocket: WebSocket) -> bool:
    """Whether the handshake comes from one of our own pages (browsers always send ``Origin``), so
    that another site's page cannot play a seat through the visitor's cookie."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


def identify(websocket: WebSocket, table: TableHandle, hello: Hello) -> int | None:
    """The seat a hello opens; None for a spectator. A bad or missing token is refused, and so
    is a spectator of a private table without the secret of its invite link (the table's id
    alone, from a lobby's link or a shared replay, is no ticket to watch)."""
    token, seat = hello.token, hello.seat
    if token is None and seat is not None and same_origin(websocket):  # the cookie set by /t/<id>
        cookie = websocket.cookies.get(f"ml_{table.id}", "")
        cookie_seat, _, cookie_token = cookie.partition(":")
        if cookie_seat == str(seat) and cookie_token:
            token = cookie_token
    if token is None:
        if seat is not None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"a token is needed to play seat {seat}")
        if not Lobby.invited(table, hello.invite):
            raise ProtocolError(ErrorCode.INVITE_NEEDED, "this table is private: watch it through its invite link")
        return None
    if seat is not None and seat >= table.row.players:
        raise ProtocolError(ErrorCode.BAD_TOKEN, f"this table has no seat {seat}")
    found = Lobby.check_token(table, seat, token)
    if found is None:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this token does not open that seat")
    return found


class DirectConnection(Connection):
    """A connection whose messages are written to the socket at once (listen.DirectWebSocket):
    no queue and no task per connection. A socket that cannot take a message (its client
    stopped reading, or it is closing) ends the connection, as a full outbox does."""

    def __init__(self, seat: int | None, websocket: WebSocket, send_now: Callable[[str], bool]) -> None:
        super().__init__(seat=seat)
        self._websocket = websocket
        self._send_now = send_now
        self.closing: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        if self.close_code is None and not self._send_now(text):
            self.close(1008)

    def close(self, code: int) -> None:
        if self.close_code is None:
            self.close_code = code
            self.closing = asyncio.get_running_loop().create_task(self._close(code))

    async def _close(self, code: int) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self._websocket.close(code=code)


async def drain(websocket: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            text = await conn.outbox.get()
            if text is None:
                await websocket.close(code=conn.close_code or 1000)
                return
            await websocket.send_text(text)


def no_table_error(code: ErrorCode, message: str) -> str:
    return encode(ErrorMsg(version=0, seq=0, code=code, message=message))


async def table_socket(websocket: WebSocket) -> None:
    lobby: Lobby = websocket.app.state.lobby
    clock = websocket.app.state.rate_clock
    rate_limit: int = websocket.app.state.rate_limit
    guard: Guard = websocket.app.state.guard
    metrics: Metrics | None = lobby.metrics
    if metrics is None:
        await _table_socket(websocket, lobby, clock, rate_limit, guard)
        return
    metrics.sockets += 1
    try:
        await _table_socket(websocket, lobby, clock, rate_limit, guard)
    finally:
        metrics.sockets -= 1


async def _table_socket(
    websocket: WebSocket, lobby: Lobby, clock: Callable[[], float], rate_limit: int, guard: Guard
) -> None:
    await websocket.accept()
    metrics = lobby.metrics
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + guard.limits.hello_timeout  # an idle socket holds a file: not for long
    table = await lobby.find(websocket.path_params["table_id"])
    if table is None:
        await websocket.send_text(no_table_error(ErrorCode.BAD_MESSAGE, "no such table"))
        await websocket.close(code=4404)
        return
    conn: Connection | None = None
    sender: asyncio.Task[None] | None = None
    recent: deque[float] = deque()  # arrival times within the last second
    refused_in_a_row = 0
    left = False
    everywhere = False
    try:
        while conn is None or conn.close_code is None:
            if conn is None and guard.limits.hello_timeout > 0:
                try:
                    async with asyncio.timeout_at(hello_by):
                        message = await websocket.receive()
                except TimeoutError:
                    await websocket.close(code=CLOSE_HELLO_LATE, reason="hello_late")
                    return
            else:
                message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if conn is not None and lobby.closing:  # not read: its client asks again where the table runs now
                conn.close(1012)
                break
            received = time.perf_counter() if metrics is not None else 0.0
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            t = clock()  # the rate limit comes first: a flood costs one comparison a message
            while recent and t - recent[0] >= 1.0:
                recent.popleft()
            reply: str | None = None
            if len(recent) >= rate_limit:
                reply = table.error(ErrorCode.RATE_LIMITED, f"more than {rate_limit} messages a second")
                if metrics is not None:
                    metrics.refused(table.row.game, ErrorCode.RATE_LIMITED)
            else:
                recent.append(t)
                try:
                    msg = decode_client(raw)
                    if conn is None:
                        if not isinstance(msg, Hello):
                            raise ProtocolError(ErrorCode.BAD_MESSAGE, "say hello first")
                        if lobby.draining or table.stopping:  # this process is leaving: come back elsewhere
                            await websocket.close(code=1012)
                            return
                        seat = identify(websocket, table, msg)
                        send_now = websocket.scope.get("extensions", {}).get(SEND_NOW)
                        if send_now is not None:
                            conn = DirectConnection(seat, websocket, send_now)
                        else:
                            conn = Connection(seat=seat)
                            sender = asyncio.create_task(drain(websocket, conn))
                        table = lobby.hold(table)
                        table.attach(conn)
                    elif isinstance(msg, Hello):
                        raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello was already said on this connection")
                    elif isinstance(msg, MoveMsg):
                        await table.apply(conn.seat, msg.move, msg.version)
                        if metrics is not None:  # stored, played and its frames handed to every seat
                            metrics.answered(table.row.game, time.perf_counter() - received)
                    elif isinstance(msg, ReactMsg):
                        await table.react(conn, msg.move, msg.version, msg.ms)
                    elif isinstance(msg, ClockPong):
                        table.clock_answer(conn, msg.n, msg.t)
                    elif isinstance(msg, Resync):
                        await table.resync(conn)
                    elif isinstance(msg, Ping):
                        conn.send(table.pong())
                    elif isinstance(msg, Leave):
                        if conn.seat is None:
                            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a spectator has no seat to leave")
                        left = True
                        everywhere = not msg.tab_closed
                        break
                    elif isinstance(msg, Rematch):
                        table.vote_rematch(conn.seat)
                    elif isinstance(msg, PaceMsg):
                        table.set_pace(conn.seat, msg.paused, msg.speed)
                    elif isinstance(msg, AwayMsg):
                        await table.away(conn.seat, msg.days)
                    elif isinstance(msg, EmoteMsg):
                        table.emote(conn.seat, msg.emote)
                    refused_in_a_row = 0
                except ProtocolError as exc:
                    if conn is not None and table.stopping:
                        # refused because the table stopped here (handed over, its lease lost):
                        # nothing changed, and the client asks again where it runs now
                        conn.close(1012)
                        break
                    reply = table.error(exc.code, exc.message, exc.refusal)
                    if metrics is not None:
                        metrics.refused(table.row.game, exc.code)
                    if exc.code in HANG_UP and conn is None:  # a second hello is only refused
                        log.info("table %s: a hello was refused: %s", table.id, exc.message)
                        await websocket.send_text(reply)
                        await websocket.close(code=4403)
                        return
            if reply is not None:
                refused_in_a_row += 1
                if conn is None:
                    await websocket.send_text(reply)
                else:
                    conn.send(reply)
                if refused_in_a_row >= FLOOD_CLOSE:  # it will not stop: hang up
                    if conn is None:
                        await websocket.close(code=1008)
                        return
                    conn.close(1008)
    except WebSocketDisconnect:
        pass
    finally:
        if conn is not None:
            # a server shutting down, or a table that moved to another process, is not the
            # person going away: where the table runs now, their seat waits for them
            if lobby.running and not table.stopping:
                table.detach(conn, left=left, everywhere=everywhere)
            else:
                lobby.hub.unsubscribe(table.id, conn)
            conn.close(1000)
            lobby.release(table)
        if sender is not None:  # let it send what is queued, then close
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5.0)
        if isinstance(conn, DirectConnection) and conn.closing is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.closing, 5.0)
