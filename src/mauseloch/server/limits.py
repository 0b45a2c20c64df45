"""Limits that keep one client from taking the server away from everyone else.

All caps are one :class:`Limits` value (``mauseloch serve`` options set them). Who a client is:
its address, :func:`client_address`; a reverse proxy's ``X-Forwarded-For`` counts only when the
proxy's own address is listed in ``trusted_proxies``. The counting itself is behind the small
:class:`Counters` protocol; :class:`LocalCounters` counts inside this process and
:class:`RedisCounters` for every process behind one address (``serve --redis``).

Over a cap a client gets a clear refusal: HTTP 429 (its own too many) or 503 (the server is
full) with ``Retry-After``, or a WebSocket close code the page explains (:data:`CLOSE_CODES`).
Each refusal is logged at most once per address, kind and minute.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from mauseloch.extras import needs
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import ErrorBody
from mauseloch.server.protocol import ErrorCode
from mauseloch.server.security import HEADERS as SECURITY_HEADERS

with needs("web", __name__):
    from starlette.responses import Response
    from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger("mauseloch.server")

# WebSocket close codes (4000-4999 are the application's own); the page names each (conn.js).
CLOSE_HELLO_LATE = 4408  # no hello within ``hello_timeout``
CLOSE_TOO_MANY = 4429  # this address has too many WebSockets open
CLOSE_SERVER_FULL = 4503  # the server has as many WebSockets open as it takes
CLOSE_SIGNED_OUT = 4401  # the seat's token was renewed elsewhere: this connection's token is void
CLOSE_CODES = (CLOSE_HELLO_LATE, CLOSE_TOO_MANY, CLOSE_SERVER_FULL, CLOSE_SIGNED_OUT)

LOG_EVERY = 60.0  # seconds between two log lines about one address and kind of refusal
DENY_FOR = 5.0  # seconds an address refused a WebSocket is refused before its handshakes are read
DELAYING_MAX = 1000  # refusals held back at once (each holds a connection); beyond, answered at once
# bytes a request head (request line and headers) may take; beyond, 431 and the connection closed
# (the limit of h11, Node and nginx's default buffers; httptools itself has none)
MAX_HEAD = 16 * 1024
# bytes the body of ``POST /api/records`` may take: a game played offline comes in one request,
# and its record can outgrow the 8 KiB of other bodies (a full-deck Aus die Maus! game of random
# moves takes up to ~6.6 KB, a Mau-Mau game at its 1,000-move limit ~13 KB); the server replays
# it once, as it would have played those moves
MAX_RECORD = 64 * 1024


@dataclass(frozen=True)
class Limits:
    """Every cap of the public server; 0 switches a cap off (tests, benchmarks, closed networks)."""

    hello_timeout: float = 10.0  # seconds a new WebSocket has to say hello
    # seconds a connection has to send a whole request head, from its first byte (from being
    # accepted for its first request), and as long again for the request's body once the head is
    # whole; uvicorn's own timeout starts only after a first answer
    head_timeout: float = 10.0
    heads_per_address: int = 32  # connections of one address whose request head is not yet whole
    sockets_per_address: int = 32  # open WebSockets per client address
    sockets_total: int = 4000  # open WebSockets in all (stays well under the process's file limit)
    tables_per_minute: int = 20  # tables one address may create per minute
    open_tables_per_address: int = 10  # tables created by one address that still wait for players
    requests_per_second: float = 30.0  # HTTP requests per address, on average ...
    request_burst: int = 120  # ... with this many at once (a page load fetches a dozen files)
    waiting_minutes: float = 30.0  # a table waiting for players closes after this long without a join
    rooms_per_hour: int = 10  # family rooms one address may create per hour
    members_per_room: int = 12  # members of one room (devices of a family)
    # seconds a repeated refusal is held back before it is answered: a client that floods waits for
    # its answers (at most :data:`DELAYING_MAX` at once), so it cannot make the server refuse faster
    refusal_delay: float = 1.0
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)  # addresses whose X-Forwarded-For counts


class Refused(Exception):
    """A request over a cap: ``status`` 429 or 503, ``code`` for the page, ``retry_after`` seconds."""

    def __init__(self, code: ErrorCode, message: str, status: int = 429, retry_after: float = 1.0) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = max(1, math.ceil(retry_after))
        self.first = False  # the first of its kind for this address this minute (Guard.refuse)


class Counters(Protocol):
    """Shared counts: rates (how often in a window) and gauges (how many at once)."""

    def take(self, key: str, rate: float, burst: int, now: float) -> float:
        """One more event for ``key`` (a token bucket of ``burst`` refilled at ``rate`` a second):
        0 if allowed, else the seconds until it would be."""
        ...

    def acquire(self, key: str, limit: int) -> bool:
        """One more of ``key`` at once, unless ``limit`` are held already (then False)."""
        ...

    def release(self, key: str) -> None: ...

    # Sets: what one address has open, by name (its waiting tables), with a cap on their number.
    def members(self, key: str) -> list[str]:
        """The names held under ``key``."""
        ...

    def claim(self, key: str, member: str, limit: int, drop: Iterable[str] = ()) -> bool:
        """Forget ``drop``, then hold ``member`` under ``key`` unless ``limit`` are held already
        (then False); all at once. A name starting with ``pending:`` is forgotten by itself after
        :data:`PENDING_FOR` seconds (a creation that never finished)."""
        ...

    def unclaim(self, key: str, member: str) -> None: ...


PENDING = "pending:"  # a table being created: it counts before it has an id
PENDING_FOR = 60.0  # seconds after which a pending claim whose creation never finished is forgotten


class LocalCounters:
    """:class:`Counters` inside this process."""

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self._held: dict[str, int] = {}
        self._sets: dict[str, dict[str, float]] = {}  # key -> member -> when claimed
        self._swept = 0.0

    def take(self, key: str, rate: float, burst: int, now: float) -> float:
        tokens, when = self._buckets.get(key, (float(burst), now))
        tokens = min(float(burst), tokens + (now - when) * rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / rate
        self._buckets[key] = (tokens - 1.0, now)
        if now - self._swept > 60.0:  # forget full buckets, so that passing addresses cost nothing
            self._swept = now
            self._buckets = {k: (t, w) for k, (t, w) in self._buckets.items() if t + (now - w) * rate < burst}
        return 0.0

    def acquire(self, key: str, limit: int) -> bool:
        held = self._held.get(key, 0)
        if held >= limit:
            return False
        self._held[key] = held + 1
        return True

    def release(self, key: str) -> None:
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)

    def held(self, key: str) -> int:
        return self._held.get(key, 0)

    def members(self, key: str) -> list[str]:
        return list(self._sets.get(key, ()))

    def claim(self, key: str, member: str, limit: int, drop: Iterable[str] = ()) -> bool:
        now = time.monotonic()
        held = self._sets.setdefault(key, {})
        for name in drop:
            held.pop(name, None)
        for name in [n for n, when in held.items() if n.startswith(PENDING) and now - when > PENDING_FOR]:
            del held[name]
        if member not in held and len(held) >= limit:
            if not held:
                del self._sets[key]
            return False
        held[member] = now
        return True

    def unclaim(self, key: str, member: str) -> None:
        held = self._sets.get(key)
        if held is not None:
            held.pop(member, None)
            if not held:
                del self._sets[key]


def counted(address: str) -> str:
    """The unit a cap counts: an IPv4 address, or an IPv6 address's /64 network (one household or
    one rented server gets a whole /64, so single IPv6 addresses cost an attacker nothing).
    Remembered for the last :data:`COUNTED_KEPT` addresses: every request and every WebSocket
    asks, and parsing the address was a tenth of a table's requests."""
    unit = _counted.get(address)
    if unit is None:
        if len(_counted) >= COUNTED_KEPT:  # many addresses (a flood from many): start afresh
            _counted.clear()
        unit = _counted[address] = _counted_unit(address)
    return unit


COUNTED_KEPT = 4096
_counted: dict[str, str] = {}


def _counted_unit(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(scope: Scope, trusted_proxies: tuple[str, ...] = ()) -> str:
    """The client's address as the caps count it (:func:`counted`); behind a trusted proxy the
    last address it forwarded that is not itself a trusted proxy (the rest of ``X-Forwarded-For``
    is whatever the client claimed)."""
    client = scope.get("client")
    address = client[0] if client else "unknown"
    if not trusted_proxies or address not in trusted_proxies:
        return counted(address)
    forwarded = ""
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            forwarded = f"{forwarded},{value.decode('latin-1')}" if forwarded else value.decode("latin-1")
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return counted(address)  # a malformed header: count the proxy itself
        if hop not in trusted_proxies:
            return counted(hop)
    return counted(address)


class Guard:
    """The limits of one server: checks for the app (tables) and the middleware (requests, sockets)."""

    def __init__(
        self,
        limits: Limits | None = None,
        counters: Counters | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits or Limits()
        self.counters: Counters = counters or LocalCounters()
        self.clock = clock
        self._logged: dict[tuple[str, str], float] = {}
        self._denied: dict[str, float] = {}  # address -> until when its handshakes are refused outright
        self.delaying = 0  # refusals being held back now
        self.heads: dict[str, int] = {}  # address -> its connections amid a request head (this process)
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def address(self, scope: Scope) -> str:
        return client_address(scope, self.limits.trusted_proxies)

    def refuse(self, address: str, exc: Refused) -> Refused:
        """Log the refusal once per address, kind and minute; return it for raising."""
        now = time.monotonic()
        key = (address, exc.code)
        if now - self._logged.get(key, -LOG_EVERY) >= LOG_EVERY:
            self._logged[key] = now
            if len(self._logged) > 10_000:  # an attack from many addresses: keep the memory small
                self._logged = {k: v for k, v in self._logged.items() if now - v < LOG_EVERY}
            log.warning("refused %s: %s (%s)", address, exc.message, exc.code)
            exc.first = True
        return exc

    # -- holding refusals back -------------------------------------------------------------
    def hold(self) -> float:
        """Seconds to hold the next refusal back (0: answer at once, when it is switched off or
        :data:`DELAYING_MAX` are held already); a held one is let go with :meth:`let_go`."""
        delay = self.limits.refusal_delay
        if delay <= 0 or self.delaying >= DELAYING_MAX:
            return 0.0
        self.delaying += 1
        return delay

    def let_go(self) -> None:
        self.delaying = max(0, self.delaying - 1)

    async def slow_down(self, exc: Refused) -> None:
        """Before a refusal repeated within the minute is answered (the first goes out at once):
        wait, so that a flood gets its refusals no faster than :data:`DELAYING_MAX` a delay."""
        if exc.first:
            return
        delay = self.hold()
        if delay:
            try:
                await self.sleep(delay)
            finally:
                self.let_go()

    # -- HTTP --------------------------------------------------------------------------
    def check_request(self, address: str) -> None:
        lim = self.limits
        if lim.requests_per_second <= 0:
            return
        wait = self.counters.take(f"req:{address}", lim.requests_per_second, lim.request_burst, self.clock())
        if wait:
            raise self.refuse(
                address, Refused(ErrorCode.RATE_LIMITED, "too many requests from this address", 429, wait)
            )

    def check_create(self, address: str, still_open: Callable[[str], bool], who: str = "this address") -> str | None:
        """Before a table is created by ``address`` (or by another creator counted the same way,
        ``who`` in the refusal: a bot of the Bot API): its tables per minute and its tables waiting
        for players (counted in the shared counters, so across every process; ``still_open(id)``
        says whether one of them still waits). Returns the claim the new table holds meanwhile:
        give it to :meth:`created` with the table's id, or to :meth:`abandoned`."""
        lim = self.limits
        claim: str | None = None
        key = f"open:{address}"
        if lim.open_tables_per_address > 0:
            held = self.counters.members(key)
            drop = [t for t in held if not t.startswith(PENDING) and not still_open(t)]
            claim = PENDING + secrets.token_hex(8)
            if not self.counters.claim(key, claim, lim.open_tables_per_address, drop):
                message = f"{who} already has {lim.open_tables_per_address} tables waiting for players"
                raise self.refuse(address, Refused(ErrorCode.TOO_MANY_TABLES, message, 429, 60.0))
        if lim.tables_per_minute > 0:
            wait = self.counters.take(
                f"create:{address}", lim.tables_per_minute / 60.0, lim.tables_per_minute, self.clock()
            )
            if wait:
                self.abandoned(address, claim)
                message = f"more than {lim.tables_per_minute} new tables a minute from {who}"
                raise self.refuse(address, Refused(ErrorCode.TOO_MANY_TABLES, message, 429, wait))
        return claim

    def check_room(self, address: str) -> None:
        """Before a family room is created by ``address``: its rooms per hour (on every process)."""
        lim = self.limits
        if lim.rooms_per_hour > 0:
            wait = self.counters.take(f"room:{address}", lim.rooms_per_hour / 3600.0, lim.rooms_per_hour, self.clock())
            if wait:
                message = f"more than {lim.rooms_per_hour} new rooms an hour from this address"
                raise self.refuse(address, Refused(ErrorCode.TOO_MANY_ROOMS, message, 429, wait))

    def created(self, address: str, claim: str | None, table_id: str, waiting: bool = True) -> None:
        """The table of ``claim`` exists: it counts under its id while it waits for players."""
        if claim is None:
            return
        key = f"open:{address}"
        if waiting:
            self.counters.claim(key, table_id, 2**31, [claim])  # in the claim's place: never refused
        else:
            self.counters.unclaim(key, claim)

    def abandoned(self, address: str, claim: str | None) -> None:
        """The table of ``claim`` was not created after all."""
        if claim is not None:
            self.counters.unclaim(f"open:{address}", claim)

    # -- request heads -------------------------------------------------------------------
    def head_key(self, peer: str | None) -> str | None:
        """What a connection from ``peer`` counts under while its head is unfinished (None: not
        counted; the cap is off, or the peer is a trusted proxy, which has many people behind it
        and a head timeout of its own)."""
        lim = self.limits
        if lim.heads_per_address <= 0 or peer is None or peer in lim.trusted_proxies:
            return None
        return counted(peer)

    def enter_head(self, key: str) -> bool:
        """One more connection of ``key`` amid a head, unless it has as many as it may (False)."""
        held = self.heads.get(key, 0)
        if held >= self.limits.heads_per_address:
            message = f"more than {self.limits.heads_per_address} unfinished requests from this address"
            self.refuse(key, Refused(ErrorCode.TOO_MANY_CONNECTIONS, message))
            return False
        self.heads[key] = held + 1
        return True

    def leave_head(self, key: str) -> None:
        held = self.heads.get(key, 0) - 1
        if held > 0:
            self.heads[key] = held
        else:
            self.heads.pop(key, None)

    # -- WebSockets --------------------------------------------------------------------
    def denied(self, scope: Scope) -> bool:
        """Whether a WebSocket handshake of this connection is refused before it is even read: its
        address was refused one (past the first refusal of the minute, which is explained) less
        than :data:`DENY_FOR` seconds ago. A flood costs the server almost nothing then."""
        if not self._denied:
            return False
        address = self.address(scope)
        until = self._denied.get(address)
        if until is None:
            return False
        if time.monotonic() < until:
            return True
        del self._denied[address]
        return False

    def open_socket(self, address: str) -> Refused | None:
        """Count a new WebSocket of ``address``; a refusal (with its close code) when over a cap."""
        lim = self.limits
        refused: Refused | None = None
        if lim.sockets_total > 0 and not self.counters.acquire("ws", lim.sockets_total):
            refused = Refused(ErrorCode.SERVER_FULL, "the server has no room for more connections", 503, 30)
        elif lim.sockets_per_address > 0 and not self.counters.acquire(f"ws:{address}", lim.sockets_per_address):
            if lim.sockets_total > 0:
                self.counters.release("ws")
            message = f"more than {lim.sockets_per_address} connections from this address"
            refused = Refused(ErrorCode.TOO_MANY_CONNECTIONS, message, 429, 10)
        if refused is None:
            return None
        self.refuse(address, refused)
        if not refused.first:  # told why already this minute: the next ones are not even read
            now = time.monotonic()
            if len(self._denied) > 10_000:
                self._denied = {a: t for a, t in self._denied.items() if t > now}
            self._denied[address] = now + DENY_FOR
        return refused

    def close_socket(self, address: str) -> None:
        self._denied.pop(address, None)  # a place came free: its next handshake is counted again
        if self.limits.sockets_total > 0:
            self.counters.release("ws")
        if self.limits.sockets_per_address > 0:
            self.counters.release(f"ws:{address}")


SOCKET_CLOSE = {ErrorCode.TOO_MANY_CONNECTIONS: CLOSE_TOO_MANY, ErrorCode.SERVER_FULL: CLOSE_SERVER_FULL}


class LimitsMiddleware:
    """Counts every HTTP request and WebSocket of an address before the app sees it."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            address = self.guard.address(scope)
            scope.setdefault("state", {})["address"] = address
            try:
                self.guard.check_request(address)
            except Refused as exc:
                await self.guard.slow_down(exc)
                await refusal_response(exc)(scope, receive, send)
                return
            await self.app(scope, receive, send)
        elif kind == "websocket":
            address = self.guard.address(scope)
            scope.setdefault("state", {})["address"] = address
            refused = self.guard.open_socket(address)
            if refused is not None:
                if refused.first:  # once a minute the page is told why, with a close code
                    await refuse_socket(receive, send, SOCKET_CLOSE[refused.code], refused.code)
                else:  # a flood: the handshake is denied (HTTP 403), the cheapest answer there is
                    await deny_socket(scope, receive, send)
                return
            try:
                await self.app(scope, receive, send)
            finally:
                self.guard.close_socket(address)
        else:
            await self.app(scope, receive, send)


BODY_HEADERS = (b"content-length", b"transfer-encoding")  # a request with a body says one of them


def closing_answer(status: str, content_type: str | None = None, text: str = "") -> bytes:
    """An HTTP/1.1 answer written straight to a transport, which then closes: with the headers
    every answer carries (security.py), and its length counted here."""
    typed = f"content-type: {content_type}\r\n" if content_type else ""
    return (
        f"HTTP/1.1 {status}\r\n{typed}content-length: {len(text.encode())}\r\nconnection: close\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in SECURITY_HEADERS.items())
        + "\r\n"
        + text
    ).encode()


DENIED = closing_answer("403 Forbidden")  # no body
BODY_LATE = closing_answer("408 Request Timeout", "text/plain; charset=utf-8", "request body late")
HEAD_TOO_LARGE = closing_answer(
    "431 Request Header Fields Too Large", "text/plain; charset=utf-8", "request head too large"
)


class HeadTooLarge(Exception):
    """Raised inside the parser's callback for a whole head over :data:`MAX_HEAD`."""


def http_protocol(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (httptools) with what it lacks against a client that never finishes
    a request head, and against one that floods:

    * a connection amid a request head counts for its address (at most ``heads_per_address`` at
      once: the next is closed as it is accepted), and has ``head_timeout`` seconds to finish it
      (else it is closed); a head larger than :data:`MAX_HEAD` is answered 431 and closed, before
      more of it is kept in memory (uvicorn's only timeout starts after a first answer, and
      httptools takes heads of any size);
    * a request's body has ``head_timeout`` seconds more, from the end of its head: one trickled
      byte by byte (a slow body holds a handler and its memory as a slow head holds a socket) is
      answered 408 and closed, its handler told the client is gone;
    * the WebSocket handshakes of an address that floods (:meth:`Guard.denied`) are refused
      before uvicorn builds a WebSocket for them: no handshake parsed twice, no task, no
      application call; a 403 and the connection is closed."""
    from httptools import HttpParserError, HttpParserUpgrade
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    lim = guard.limits

    class GatedHttpProtocol(HttpToolsProtocol):
        _in_head = False  # amid a request head
        _head_timer: asyncio.TimerHandle | None = None
        _head_key: str | None = None  # what the head counts under (Guard.head_key), while it does
        _head_bytes = 0  # bytes read of the unfinished head
        _too_large = False
        _body_timer: asyncio.TimerHandle | None = None  # the body's deadline, while it comes

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not self._start_head():
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            self._end_head()
            self._end_body()
            super().connection_lost(exc)

        def _start_head(self) -> bool:
            """A head begins (the connection's first, or the next on a kept-alive connection)."""
            key = guard.head_key(self.client[0] if self.client else None)
            if key is not None:
                if not guard.enter_head(key):
                    return False
                self._head_key = key
            self._in_head = True
            self._head_bytes = 0
            if lim.head_timeout > 0:
                self._head_timer = self.loop.call_later(lim.head_timeout, self._head_late)
            return True

        def _end_head(self) -> None:
            self._in_head = False
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            if self._head_key is not None:
                guard.leave_head(self._head_key)
                self._head_key = None

        def _head_late(self) -> None:
            self._head_timer = None
            self._end_head()
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if not self._in_head and not self._start_head():  # a pipelined request's head
                self.transport.abort()

        def on_headers_complete(self) -> None:
            self._end_head()
            size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
            if size > MAX_HEAD:
                self._too_large = True
                raise HeadTooLarge
            super().on_headers_complete()
            if lim.head_timeout > 0 and any(name in BODY_HEADERS for name, _ in self.headers):
                self._body_timer = self.loop.call_later(lim.head_timeout, self._body_late)

        def on_message_complete(self) -> None:
            self._end_body()
            super().on_message_complete()

        def _end_body(self) -> None:
            if self._body_timer is not None:
                self._body_timer.cancel()
                self._body_timer = None

        def _body_late(self) -> None:
            self._body_timer = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None:
                if not cycle.response_started:
                    self.transport.write(BODY_LATE)
                # the handler reading the body hears that the client is gone; its answer goes nowhere
                cycle.disconnected = True
                cycle.message_event.set()
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._too_large or self.transport.is_closing():
                return
            cycle = self.cycle
            idle = cycle is None or (cycle.response_complete and not cycle.more_body)
            if idle and not self._in_head and not self._start_head():  # bytes of a next request
                self.transport.abort()
                return
            self._unset_keepalive_if_required()
            try:
                self.parser.feed_data(data)
            except HttpParserUpgrade:
                if self._should_upgrade():
                    self.handle_websocket_upgrade()
                else:
                    self._unsupported_upgrade_warning()
                return
            except HttpParserError:
                if not self._too_large:  # (a HeadTooLarge comes as the parser's callback error)
                    msg = "Invalid HTTP request received."
                    self.logger.warning(msg)
                    self.send_400_response(msg)
                    return
            if not self._too_large and self._in_head:
                self._head_bytes += len(data)
                self._too_large = self._head_bytes > MAX_HEAD
            if self._too_large:
                self._end_head()
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()

        def handle_websocket_upgrade(self) -> None:
            scope: Any = self.scope  # the request's: client address and headers
            if not guard.denied(scope):
                super().handle_websocket_upgrade()
                # handed over to the WebSocket protocol, this one never hears connection_lost,
                # where uvicorn drops the parser that holds its callbacks: dropped here, so
                # that it is freed at once and not by the collector (a cycle a socket)
                self.parser = None  # type: ignore[assignment]
                return
            self.transport.pause_reading()  # nothing more is read from it
            delay = guard.hold()  # held back: a flood waits for its refusals
            if delay:
                asyncio.get_running_loop().call_later(delay, self._deny, True)
            else:
                self._deny(False)

        def _deny(self, held: bool) -> None:
            if held:
                guard.let_go()
            if not self.transport.is_closing():
                self.transport.write(DENIED)
                self.transport.close()

    return GatedHttpProtocol


def refusal_response(exc: Refused) -> Response:
    return JSON(ErrorBody(exc.message, exc.code), status_code=exc.status, headers={"Retry-After": str(exc.retry_after)})


async def deny_socket(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse the handshake itself: no WebSocket is opened (the server answers 403, with the
    headers of every answer where the server lets the application write the answer)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008})
        return
    headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
    await send({"type": "websocket.http.response.start", "status": 403, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": b""})


async def refuse_socket(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Accept and close at once with ``code``: a browser sees the code (a refused handshake would
    only show as 1006), so the page can say why and when it tries again."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code, "reason": reason})


# The same counts kept in Redis, for several server processes behind one address (ownership.py).
# Rates use Redis's own clock (the processes' monotonic clocks cannot be compared); a gauge is
# held per process, and a process whose "alive" key ran out (killed) no longer counts.
_TAKE = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 'tokens', 'when')
local tokens = math.min(burst, (tonumber(v[1]) or burst) + (now - (tonumber(v[2]) or now)) * rate)
local wait = 0
if tokens < 1 then wait = (1 - tokens) / rate else tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'when', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return tostring(wait)
"""
_ACQUIRE = """
local limit, me, alive = tonumber(ARGV[1]), ARGV[2], ARGV[3]
local fields = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #fields, 2 do
  if fields[i] == me or redis.call('EXISTS', alive .. fields[i]) == 1 then
    total = total + tonumber(fields[i + 1])
  else
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
if total >= limit then return 0 end
redis.call('HINCRBY', KEYS[1], me, 1)
return 1
"""
_RELEASE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
"""


_CLAIM = """
local limit, member, pending, stale = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
for i = 6, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
for _, name in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - stale)) do
  if string.sub(name, 1, #pending) == pending then redis.call('ZREM', KEYS[1], name) end
end
if not redis.call('ZSCORE', KEYS[1], member) and redis.call('ZCARD', KEYS[1]) >= limit then return 0 end
redis.call('ZADD', KEYS[1], now, member)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


SET_KEEP_MS = 24 * 3600 * 1000  # a set nobody claimed in for a day is forgotten (its tables have expired)


class RedisCounters:
    """:class:`Counters` shared by every process on one Redis server (``client``: a synchronous
    ``redis.Redis``; ``pid``: this process; ``alive_prefix + pid`` exists while a process lives).

    ``gone(pids)`` names the processes among ``pids`` that Redis sees no more (killed: the kernel
    closed their connections). Before a gauge refuses, the processes holding part of it are
    asked after: a dead one's part stops counting at once, not when its alive key runs out, so
    the people whose sockets it held reconnect elsewhere without being refused."""

    def __init__(
        self,
        client: Any,
        pid: str,
        alive_prefix: str,
        prefix: str = "ml:limit:",
        gone: Callable[[Iterable[str]], set[str]] | None = None,
    ) -> None:
        self.pid, self.alive_prefix, self.prefix = pid, alive_prefix, prefix
        self.gone = gone
        self._take = client.register_script(_TAKE)
        self._acquire = client.register_script(_ACQUIRE)
        self._release = client.register_script(_RELEASE)
        self._claim = client.register_script(_CLAIM)
        self._client = client

    def take(self, key: str, rate: float, burst: int, now: float) -> float:
        return float(self._take(keys=[self.prefix + key], args=[rate, burst]))

    def acquire(self, key: str, limit: int) -> bool:
        if self._acquire(keys=[self.prefix + key], args=[limit, self.pid, self.alive_prefix]):
            return True
        if self.gone is None:
            return False
        holders = {_text(p) for p in self._client.hkeys(self.prefix + key)} - {self.pid}
        dead = self.gone(holders)
        if not dead:
            return False
        # its alive key goes, so that every gauge drops its part (the script forgets the fields
        # of a process without one), then this one is asked again
        self._client.delete(*(self.alive_prefix + p for p in dead))
        return bool(self._acquire(keys=[self.prefix + key], args=[limit, self.pid, self.alive_prefix]))

    def release(self, key: str) -> None:
        self._release(keys=[self.prefix + key], args=[self.pid])

    def members(self, key: str) -> list[str]:
        return [m.decode() if isinstance(m, bytes) else str(m) for m in self._client.zrange(self.prefix + key, 0, -1)]

    def claim(self, key: str, member: str, limit: int, drop: Iterable[str] = ()) -> bool:
        args = [limit, member, PENDING, PENDING_FOR, SET_KEEP_MS, *drop]
        return bool(self._claim(keys=[self.prefix + key], args=args))

    def unclaim(self, key: str, member: str) -> None:
        self._client.zrem(self.prefix + key, member)
