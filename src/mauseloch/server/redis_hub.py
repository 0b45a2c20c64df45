"""The hub of several server processes: table messages and requests to a table's owner over Redis.

Only a table's owner (ownership.py) runs its :class:`~.session.TableSession`; every process may
hold WebSockets of any table. Two kinds of Redis pub/sub channels carry what they share:

- ``ml:p:<process>``: requests to that process (a move, a connection that came or went, a
  snapshot, a rematch vote, a seat taken), the replies to requests it made, and the messages
  of the tables it holds connections of: the owner sends every message of a table once to each
  such process, as the text for each seat that process listens to (``message_for`` is called
  once per seat, here, at the owner: the one redaction point stays the session's), and the
  process hands every connection the text of its seat. Sent to the processes the owner knows
  (their connections attached there), a message never comes back to the owner itself.
- ``ml:t:<table>``: control frames, heard by every process holding connections of the table
  (each subscribes): a seat's connections closed everywhere, a new owner announced.

Every frame is one of the tagged structs of ipc.py, with the protocol version in its header: a
process of another version is refused, never misread.

Both kinds travel on two connections of the process's own, spoken to directly (:class:`RespLink`):
one subscribes and hands each frame on as it arrives, the other publishes every frame of a loop
tick in one write. Only a request asks Redis how many heard it (nobody: its process is gone);
the other frames are sent with ``CLIENT REPLY SKIP``, so Redis writes nothing back for them.
redis-py serves the rest (leases, summaries, the ticks' sweeps).

At the owner, a connection held by another process is a :class:`RemoteConn` stand-in: the
session counts it like any connection (presence, grace times) and the hub knows which seats
to publish for. Pub/sub is fire and forget: a process that misses a frame leaves a gap in the
versions its clients see, and the client asks for a ``resync`` (docs/protocol.md), answered
with a snapshot from the owner.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from mauseloch.extras import needs
from mauseloch.server import ipc
from mauseloch.server.hub import Connection, MessageFor, seated_and_watching
from mauseloch.server.protocol import ErrorCode, ProtocolError

with needs("redis", __name__):
    import hiredis
    from redis.asyncio import Redis
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import RedisError

log = logging.getLogger("mauseloch.server")

PREFIX = "ml:"
SPECTATOR = -1  # the seat None on the wire (msgpack maps want one key type)
REPLY_WAIT = 0.5  # seconds between checks that the owner still lives while a request waits
REPLY_LIMIT = 10.0  # seconds a request waits at most for its reply
RECONNECT = 0.5  # seconds between attempts to open a direct connection to Redis again
# Seconds one answer to "does that process live?" serves every request waiting on it: at 2,000
# seats on two busy processes each waiting request asked for itself, two commands every 0.5 s,
# and those checks were 9 % of a process's CPU (py-spy, bench/server.py).
ALIVE_FOR = 0.25

# (from process, table, request) -> what the owner hands back; raises ProtocolError or NotOwner
Handler = Callable[[str, str, ipc.Op], Awaitable[ipc.Answer]]


def table_channel(table: str) -> str:
    return f"{PREFIX}t:{table}"


def process_channel(pid: str) -> str:
    return f"{PREFIX}p:{pid}"


def alive_key(pid: str) -> str:
    return f"{PREFIX}alive:{pid}"


def client_name(pid: str) -> str:
    """The name every Redis connection of process ``pid`` carries (``CLIENT SETNAME``): when none
    is left, the process is gone (the kernel closed its sockets) or cut off from Redis."""
    return f"ml-{pid}"


async def processes_gone(redis: Redis, pids: set[str]) -> set[str]:
    """The processes among ``pids`` that Redis sees no more: nothing subscribed to their channel
    and no connection under their name (a process whose subscription alone broke is not gone).
    One cheap command while every process is there."""
    if not pids:
        return set()
    order = sorted(pids)
    counts = await redis.pubsub_numsub(*(process_channel(p) for p in order))
    quiet = {p for p, (_, n) in zip(order, counts, strict=True) if int(n) == 0}
    if not quiet:
        return set()
    names = {c.get("name") for c in await redis.client_list()}
    return {p for p in quiet if client_name(p) not in names}


def processes_gone_now(redis: Any, pids: Iterable[str]) -> set[str]:
    """:func:`processes_gone` on a synchronous client (``redis.Redis``), for the limits' counts."""
    order = sorted(set(pids))
    if not order:
        return set()
    counts = redis.pubsub_numsub(*(process_channel(p) for p in order))
    quiet = {p for p, (_, n) in zip(order, counts, strict=True) if int(n) == 0}
    if not quiet:
        return set()
    names = {c.get("name") for c in redis.client_list()}
    return {p for p in quiet if client_name(p) not in names}


class Unreachable(Exception):
    """The process a request was for is not there (gone, or never was)."""


class NotOwner(Exception):
    """The process a request reached does not own the table (any more)."""


@dataclass(eq=False)
class RemoteConn(Connection):
    """At the owner: a connection another process holds. It keeps only the first text it is
    sent (the snapshot of ``attach``, returned to that process); the hub publishes the rest."""

    pid: str = ""
    cid: int = 0
    first: str | None = None

    def send(self, text: str) -> None:
        if self.first is None:
            self.first = text

    def close(self, code: int) -> None:
        self.close_code = code


# what a command sent on a link is told: Redis's answer (an int for PUBLISH), or why there is none
Told = Callable[[Any], None]


class RespLink(asyncio.Protocol):
    """One connection to Redis spoken to directly: commands go out as RESP bytes, replies are
    read with hiredis in ``data_received`` and handed to ``on_reply`` in the order they come
    (Redis answers a connection's commands in order). No task and no polling: redis-py's
    pub/sub reader woke every 10 ms and each of its commands took a pooled connection, a
    timeout context and a parse per frame (a quarter of a busy process's CPU, profiled)."""

    def __init__(self, on_reply: Callable[[Any], None]) -> None:
        self._reader = hiredis.Reader()
        self._on_reply = on_reply
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.setup = 0  # commands written by open_link whose replies come first

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no asyncio.Transport subclass

    def data_received(self, data: bytes) -> None:
        try:
            self._reader.feed(data)
            while (reply := self._reader.gets()) is not False:
                try:
                    self._on_reply(reply)
                except Exception:  # one frame's handling never ends the connection
                    log.exception("a reply from Redis could not be handled")
        except hiredis.ProtocolError:
            log.exception("Redis sent what is no RESP; the connection is opened again")
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.lost.done():
            self.lost.set_result(None)

    def write(self, data: bytes) -> bool:
        """``data`` sent (buffered by the transport); False when the connection is gone."""
        if self.transport is None or self.transport.is_closing():
            return False
        self.transport.write(data)
        return True

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def _command(*args: str | bytes) -> bytes:
    """One Redis command as RESP bytes."""
    return hiredis.pack_command(args)  # type: ignore[arg-type]  # its stub takes one-element tuples only


_SKIP = _command(b"CLIENT", b"REPLY", b"SKIP")  # no answer to the next command (nor to this one)


async def open_link(redis: Redis, name: str, on_reply: Callable[[Any], None]) -> RespLink:
    """A :class:`RespLink` to the server ``redis`` talks to (its URL's host, port or socket
    path, TLS and password), named ``name`` like this process's other connections. The
    commands that set it up (AUTH, CLIENT SETNAME) are written first: their replies come first."""
    params = redis.connection_pool.make_connection()  # the URL's parameters, not connected
    loop = asyncio.get_running_loop()
    link: RespLink
    path = getattr(params, "path", None)
    if path:
        _, link = await loop.create_unix_connection(lambda: RespLink(on_reply), path)
    else:
        context = getattr(params, "ssl_context", None)
        ssl = None if context is None else context.get()
        host = getattr(params, "host", "localhost")
        _, link = await loop.create_connection(lambda: RespLink(on_reply), host, getattr(params, "port", 6379), ssl=ssl)
    setup: list[tuple[str | bytes, ...]] = []
    password = getattr(params, "password", None)
    if password:
        username = getattr(params, "username", None)
        setup.append((b"AUTH", username, password) if username else (b"AUTH", password))
    setup.append((b"CLIENT", b"SETNAME", name))
    link.write(b"".join(_command(*c) for c in setup))
    link.setup = len(setup)
    return link


class Publish(Protocol):
    """Where the hub's frames go: ``told`` (if any) gets how many subscribers heard the frame,
    or the exception that says why it was not sent."""

    def publish(self, channel: str, data: bytes, told: Told | None) -> None: ...


class Publisher:
    """The PUBLISH commands of one loop tick written to Redis in one write, on a connection of
    their own (:class:`RespLink`): table messages, requests and replies in the order made.
    A frame with a ``told`` is told how many subscribers heard it when Redis answers; one
    without is sent after ``CLIENT REPLY SKIP``: Redis answers nothing (a reply it writes wakes
    this process to read it). A frame that cannot be sent (Redis out of reach) is told a
    ``ConnectionError`` and dropped: clients resync, requests are sent again (ownership.py).

    While a move another process asked for is being made here (``replies_coming``), the write
    waits one loop iteration more: the move's update is published from the callback that learns
    of its commit, and the reply to the request comes from the task woken by that callback, one
    iteration later; both go out in one write (two writes each woke Redis and cost a system
    call). Otherwise the tick's frames go out at once."""

    def __init__(self, redis: Redis, name: str) -> None:
        self._redis = redis
        self._name = name
        self._link: RespLink | None = None
        self._out: list[bytes] = []  # this tick's commands
        self._told_out: list[Told | None] = []  # of those, the ones Redis answers, in order
        self._waiting: collections.deque[Told | None] = collections.deque()  # sent, not answered
        self._scheduled = False
        self.sent = 0
        self.replies_coming: Callable[[], bool] = lambda: False

    def publish(self, channel: str, data: bytes, told: Told | None) -> None:
        if told is None:
            self._out.append(_SKIP + _command(b"PUBLISH", channel, data))
        else:
            self._out.append(_command(b"PUBLISH", channel, data))
            self._told_out.append(told)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush_soon if self.replies_coming() else self._flush)

    def _flush_soon(self) -> None:
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        out, told = self._out, self._told_out
        self._out, self._told_out = [], []
        link = self._link
        if link is None or not link.write(b"".join(out)):
            log.error("%d messages could not be published (Redis out of reach); clients will resync", len(out))
            _tell_all(told, RedisConnectionError("no connection to Redis"))
            return
        self.sent += len(out)
        self._waiting.extend(told)

    def _reply(self, reply: Any) -> None:
        told = self._waiting.popleft() if self._waiting else None
        if told is not None:
            told(reply if isinstance(reply, int) else RedisError(str(reply)))
        elif isinstance(reply, hiredis.ReplyError):  # a setup command: AUTH, CLIENT SETNAME
            log.error("Redis refused the publishing connection's setup: %s", reply)

    async def run(self) -> None:
        """Keep the connection open (again after Redis dropped it)."""
        while True:
            try:
                link = await open_link(self._redis, self._name, self._reply)
            except OSError as exc:
                log.error("the publishing connection to Redis cannot be opened: %s", exc)
                await asyncio.sleep(RECONNECT)
                continue
            self._waiting.extend([None] * link.setup)
            self._link = link
            try:
                await link.lost
            finally:
                self._link = None
                link.close()
                waiting, self._waiting = list(self._waiting), collections.deque()
                _tell_all(waiting, RedisConnectionError("the connection to Redis was lost"))
            log.error("the publishing connection to Redis was lost; opening it again")
            await asyncio.sleep(RECONNECT)

    def close(self) -> None:
        if self._out:
            self._flush()
        if self._link is not None:
            self._link.close()


def _tell_all(told: Iterable[Told | None], exc: Exception) -> None:
    for t in told:
        if t is not None:
            t(exc)


class RedisHub:
    """The :class:`~.hub.Hub` of one process among several sharing a Redis server."""

    def __init__(self, redis: Redis, pid: str, handler: Handler, publisher: Publish | None = None) -> None:
        self.redis = redis
        self.pid = pid
        self.handler = handler
        self._local: dict[str, set[Connection]] = {}
        self._remote: dict[str, dict[tuple[str, int], RemoteConn]] = {}
        self._syncing: dict[Connection, list[tuple[int, str]]] = {}  # waiting for their snapshot
        # where frames go out: one connection of its own, a tick's frames in one write
        self.publisher: Publish = publisher if publisher is not None else Publisher(redis, client_name(pid))
        self._moves_asked = 0  # moves other processes asked for, being made here
        if isinstance(self.publisher, Publisher):
            self.publisher.replies_coming = lambda: self._moves_asked > 0
        self._alive: dict[str, tuple[float, asyncio.Future[bool]]] = {}  # pid -> (asked at, answer)
        # the subscriptions: wanted here, asked of Redis (SUBSCRIBE sent, no UNSUBSCRIBE after
        # it), confirmed by Redis; each channel's commands not yet confirmed
        self._subscribed: set[str] = set()
        self._wanted: set[str] = set()
        self._asked: set[str] = set()
        self._unconfirmed: dict[str, int] = {}
        self._sub: RespLink | None = None  # the subscribing connection, while open
        self._sub_scheduled = False
        self._ready: dict[str, asyncio.Event] = {}
        self._pending: dict[int, asyncio.Future[ipc.Answer]] = {}
        self._sent: dict[int, tuple[str, float]] = {}  # request -> (process asked, when)
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._work: set[asyncio.Task[None]] = set()
        self.on_owner: Callable[[str, str], None] = lambda table, pid: None  # ``pid`` took ``table`` over
        self.published = 0  # frames published (metrics)
        # told of each request's round trip: its kind and seconds (metrics; None: nobody asks)
        self.on_round_trip: Callable[[str, float], None] | None = None

    # -- the Hub protocol ----------------------------------------------------------------
    def subscribe(self, table: str, conn: Connection) -> None:
        if isinstance(conn, RemoteConn):
            self._remote.setdefault(table, {})[(conn.pid, conn.cid)] = conn
            return
        self._local.setdefault(table, set()).add(conn)
        channel = table_channel(table)
        self._wanted.add(channel)
        event = self._ready.setdefault(channel, asyncio.Event())
        if channel in self._subscribed:  # still (or already) listening: nothing to wait for
            event.set()
        elif channel not in self._asked:
            self._subscriptions_changed()

    def unsubscribe(self, table: str, conn: Connection) -> None:
        if isinstance(conn, RemoteConn):
            remote = self._remote.get(table)
            if remote is not None:
                remote.pop((conn.pid, conn.cid), None)
                if not remote:
                    del self._remote[table]
            return
        self._syncing.pop(conn, None)
        conns = self._local.get(table)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._local[table]
                channel = table_channel(table)
                self._wanted.discard(channel)
                self._ready.pop(channel, None)
                self._subscriptions_changed()

    def listeners(self, table: str) -> int:
        return len(self._local.get(table, ())) + len(self._remote.get(table, ()))

    def publish(self, table: str, version: int, message_for: MessageFor) -> None:
        texts: dict[int | None, str] = {}
        for conn in self._local.get(table, ()):
            text = texts.get(conn.seat)
            if text is None:
                text = texts[conn.seat] = message_for(conn.seat)
            self._deliver(conn, version, text)
        remote = self._remote.get(table)
        if not remote:
            return
        by_process: dict[str, dict[int, str]] = {}
        for rc in remote.values():
            if rc.pid == self.pid:  # this process's own connections were served above
                continue
            pairs = by_process.get(rc.pid)
            if pairs is None:
                pairs = by_process[rc.pid] = {}
            key = SPECTATOR if rc.seat is None else rc.seat
            if key not in pairs:
                text = texts.get(rc.seat)
                if text is None:
                    text = texts[rc.seat] = message_for(rc.seat)
                pairs[key] = text
        # no count of who heard it: a process that is gone is found by the ticks (ownership.py)
        for pid, pairs in by_process.items():
            frame = ipc.encode("m", self.pid, ipc.TableMessage(table, version, pairs))
            self._send(process_channel(pid), frame, None)

    def close_seat(self, table: str, seat: int, code: int) -> None:
        self._close_local(table, seat, code)
        self._send(table_channel(table), ipc.encode("t", self.pid, ipc.CloseSeat(seat, code)), None)

    def close_all(self, code: int) -> None:
        for conns in self._local.values():
            for conn in conns:
                conn.close(code)

    def counts(self) -> dict[str, int]:
        counts = seated_and_watching(list(self._local.values()))
        counts["remote"] = sum(len(conns) for conns in list(self._remote.values()))
        return counts

    # -- beyond the protocol -----------------------------------------------------------
    def local(self, table: str) -> list[Connection]:
        return list(self._local.get(table, ()))

    def remote(self, table: str, pid: str, cid: int) -> RemoteConn | None:
        return self._remote.get(table, {}).get((pid, cid))

    def forget(self, table: str) -> None:
        """This process runs ``table`` no more: the other processes' connections attach elsewhere."""
        self._remote.pop(table, None)

    def remote_pids(self) -> set[str]:
        return {pid for conns in self._remote.values() for pid, _ in conns}

    def drop_process(self, pid: str) -> list[tuple[str, RemoteConn]]:
        """Every connection the (dead) process ``pid`` held, with its table (the caller detaches them)."""
        dropped = []
        for table, conns in list(self._remote.items()):
            for key in [k for k in conns if k[0] == pid]:
                dropped.append((table, conns[key]))
        return dropped

    def announce_owner(self, table: str) -> None:
        """Tell every process holding connections of ``table`` that this process owns it now."""
        self._send(table_channel(table), ipc.encode("t", self.pid, ipc.NewOwner()), None)

    def begin_sync(self, conn: Connection) -> None:
        """Hold back ``conn``'s messages until :meth:`end_sync` gives it its snapshot."""
        self._syncing[conn] = []

    def end_sync(self, conn: Connection, snapshot: str | None, version: int) -> None:
        held = self._syncing.pop(conn, [])
        if snapshot is not None:
            conn.send(snapshot)
        for v, text in held:
            if v >= version:  # older ones are in the snapshot
                conn.send(text)

    async def ready(self, table: str) -> None:
        """Wait until this process listens to ``table``'s channel."""
        event = self._ready.get(table_channel(table))
        if event is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), 2.0)

    def _deliver(self, conn: Connection, version: int, text: str) -> None:
        held = self._syncing.get(conn)
        if held is not None:
            held.append((version, text))
        else:
            conn.send(text)

    def _close_local(self, table: str, seat: int, code: int) -> None:
        for conn in self._local.get(table, ()):
            if conn.seat == seat:
                conn.close(code)

    # -- requests to other processes -------------------------------------------------------
    async def call(self, pid: str, table: str, op: ipc.Op) -> ipc.Answer:
        """Ask process ``pid`` to do ``op`` at ``table``; its answer, or :class:`ProtocolError`,
        :class:`NotOwner`, :class:`Unreachable` (nobody listens, or it died while we waited).

        One future a request and nothing else: the frame goes out with the tick's others, Redis's
        count of its listeners fails it when nobody heard it, and the watcher (:meth:`_watch`)
        fails it when its process is gone or it waited :data:`REPLY_LIMIT`."""
        rid = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[ipc.Answer] = loop.create_future()
        self._pending[rid] = future
        started = loop.time()
        self._sent[rid] = (pid, started)
        try:
            frame = ipc.encode("q", self.pid, ipc.Request(table, op), rid)
            self._send(process_channel(pid), frame, functools.partial(self._heard_request, rid, pid))
            return await future
        finally:
            self._pending.pop(rid, None)
            self._sent.pop(rid, None)
            if self.on_round_trip is not None:
                self.on_round_trip(f"request_{op.__struct_config__.tag}", loop.time() - started)

    def _heard_request(self, rid: int, pid: str, heard: int | Exception) -> None:
        if isinstance(heard, Exception):
            self._replied(rid, heard)
        elif heard == 0:
            self._replied(rid, Unreachable(pid))

    async def _watch(self) -> None:
        """Every :data:`REPLY_WAIT`: the requests waiting that long whose process is gone (asked
        once a process), or that waited :data:`REPLY_LIMIT`, fail with :class:`Unreachable`."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(REPLY_WAIT)
            now = loop.time()
            late: dict[str, list[int]] = {}
            for rid, (pid, since) in list(self._sent.items()):
                if now - since >= REPLY_LIMIT:
                    self._replied(rid, Unreachable(pid))
                elif now - since >= REPLY_WAIT:
                    late.setdefault(pid, []).append(rid)
            for pid, rids in late.items():
                try:
                    alive = await self.lives(pid)
                except RedisError as exc:  # not known: they wait on, up to REPLY_LIMIT
                    log.warning("whether process %s lives is not known: %s", pid, exc)
                    continue
                if not alive:
                    for rid in rids:
                        self._replied(rid, Unreachable(pid))

    async def lives(self, pid: str) -> bool:
        """Whether process ``pid`` is still there (its alive key, its subscription or its
        connections): one question to Redis answers every request that waits on it for
        :data:`ALIVE_FOR` seconds."""
        loop = asyncio.get_running_loop()
        asked = self._alive.get(pid)
        if asked is None or loop.time() - asked[0] > ALIVE_FOR:
            asked = (loop.time(), asyncio.ensure_future(self._ask_alive(pid)))
            self._alive[pid] = asked
        return await asyncio.shield(asked[1])

    async def _ask_alive(self, pid: str) -> bool:
        return bool(await self.redis.exists(alive_key(pid))) and not await processes_gone(self.redis, {pid})

    async def _answer(self, frm: str, rid: int, table: str, op: ipc.Op) -> None:
        reply: ipc.Outcome
        move = isinstance(op, ipc.Move)
        self._moves_asked += move
        try:
            reply = await self.handler(frm, table, op)
        except ProtocolError as exc:
            reply = ipc.Refused(exc.code, exc.message, exc.status, exc.refusal)
        except NotOwner:
            reply = ipc.NotOwned()
        except Exception:
            log.exception("request %s at table %s from process %s failed", type(op).__name__, table, frm)
            reply = ipc.Refused(ErrorCode.SERVER_ERROR, "the table's server failed; nothing changed", 500)
        finally:
            self._moves_asked -= move
        self._reply(frm, rid, reply)

    def _reply(self, frm: str, rid: int, reply: ipc.Outcome) -> None:
        # in this tick's write, right behind the table message of the move it answers: an owner
        # killed between the two leaves the request to be sent again, and the next owner answers
        # a move it finds played as done (Move.again)
        self._send(process_channel(frm), ipc.encode("r", self.pid, reply, rid), None)

    def _replied(self, rid: int, outcome: ipc.Outcome | Exception) -> None:
        future = self._pending.get(rid)
        if future is None or future.done():
            return
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        elif isinstance(outcome, ipc.NotOwned):
            future.set_exception(NotOwner())
        elif isinstance(outcome, ipc.Refused):  # a refused move carries the engine's reason too
            future.set_exception(ProtocolError(outcome.code, outcome.message, outcome.status, outcome.refusal))
        else:
            future.set_result(outcome)

    def _send(self, channel: str, frame: bytes, told: Told | None) -> None:
        self.published += 1
        self.publisher.publish(channel, frame, told)

    # -- running ---------------------------------------------------------------------
    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._subscriber()), asyncio.create_task(self._watch())]
        if isinstance(self.publisher, Publisher):
            self._tasks.append(asyncio.create_task(self.publisher.run()))

    async def stop(self) -> None:
        if isinstance(self.publisher, Publisher):
            self.publisher.close()  # what this tick published goes out first
        for task in self._tasks:
            task.cancel()
        for task in [*self._tasks, *self._work]:
            with contextlib.suppress(BaseException):
                await task
        if self._sub is not None:
            self._sub.close()
        for future in self._pending.values():
            future.cancel()

    async def _subscriber(self) -> None:
        """Keep the subscribing connection open (again after Redis dropped it), subscribed to
        this process's channel and to those of the tables it holds connections of; its frames
        are handled as they arrive (:meth:`_on_sub`)."""
        while True:
            try:
                link = await open_link(self.redis, client_name(self.pid), self._on_sub)
            except OSError as exc:
                log.error("the subscribing connection to Redis cannot be opened: %s", exc)
                await asyncio.sleep(RECONNECT)
                continue
            self._subscribed = set()
            self._asked = set()
            self._unconfirmed = {}
            self._sub = link
            self._ask({process_channel(self.pid)} | self._wanted, set())
            try:
                await link.lost
            finally:
                self._sub = None
                link.close()
            log.error("the Redis subscription broke; subscribing again")
            await asyncio.sleep(RECONNECT)

    def _subscriptions_changed(self) -> None:
        """Subscribe and unsubscribe at the end of the tick, in one write (what came and went
        within the tick asks nothing of Redis)."""
        if not self._sub_scheduled:
            self._sub_scheduled = True
            asyncio.get_running_loop().call_soon(self._resubscribe)

    def _resubscribe(self) -> None:
        self._sub_scheduled = False
        if self._sub is not None:
            self._ask(self._wanted - self._asked, self._asked - self._wanted - {process_channel(self.pid)})

    def _ask(self, add: set[str], gone: set[str]) -> None:
        link = self._sub
        if link is None or not (add or gone):
            return
        out = []
        if add:
            out.append(_command(b"SUBSCRIBE", *add))
        if gone:
            out.append(_command(b"UNSUBSCRIBE", *gone))
        if link.write(b"".join(out)):
            self._asked = (self._asked | add) - gone
            for channel in add | gone:
                self._unconfirmed[channel] = self._unconfirmed.get(channel, 0) + 1

    def _on_sub(self, reply: Any) -> None:
        if not isinstance(reply, list) or not reply:
            if isinstance(reply, hiredis.ReplyError):
                log.error("Redis refused the subscribing connection's command: %s", reply)
            return
        kind = reply[0]
        if kind == b"message":
            self._received(reply[1], reply[2])
            return
        if kind not in (b"subscribe", b"unsubscribe"):
            return
        channel = reply[1].decode()
        left = self._unconfirmed.get(channel, 0) - 1
        if left > 0:  # a later command for the channel is still on its way: it decides
            self._unconfirmed[channel] = left
            return
        self._unconfirmed.pop(channel, None)
        if kind == b"subscribe":
            self._subscribed.add(channel)
            event = self._ready.get(channel)
            if event is not None:
                event.set()
        else:
            self._subscribed.discard(channel)

    def _received(self, channel: bytes, data: bytes) -> None:
        try:
            header = ipc.read_header(data)
        except msgspec.DecodeError as exc:  # a process of the version that sent tuples, or no process of ours
            version = ipc.PROTOCOL_VERSION
            log.error("a frame on %s that is no frame of protocol %s was dropped: %s", channel, version, exc)
            return
        try:
            body = ipc.read_body(header)
        except ipc.VersionMismatch as exc:
            self._refuse(header, ErrorCode.SERVER_ERROR, str(exc))
            return
        except msgspec.DecodeError as exc:
            self._refuse(
                header, ErrorCode.BAD_MESSAGE, f"process {header.frm} sent a frame this one cannot read: {exc}"
            )
            return
        if isinstance(body, ipc.Request):
            task = asyncio.create_task(self._answer(header.frm, header.rid, body.table, body.op))
            self._work.add(task)
            task.add_done_callback(self._work.discard)
            return
        if isinstance(body, ipc.TableMessage):
            for conn in self._local.get(body.table, ()):
                text = body.texts.get(SPECTATOR if conn.seat is None else conn.seat)
                if text is not None:
                    self._deliver(conn, body.version, text)
            return
        if isinstance(body, ipc.OUTCOMES):
            self._replied(header.rid, body)
            return
        if header.frm == self.pid:
            return  # our own publication: our connections had it directly
        table = channel.decode()[len(PREFIX) + 2 :]
        if isinstance(body, ipc.CloseSeat):
            self._close_local(table, body.seat, body.code)
        elif isinstance(body, ipc.NewOwner):
            self.on_owner(table, header.frm)

    def _refuse(self, header: ipc.Header, code: ErrorCode, reason: str) -> None:
        """A frame whose body cannot be read (another protocol version, say): its request is
        refused with the reason, the request its reply answers fails with it, and the log names
        the process; nothing is guessed from the body."""
        log.error("%s", reason)
        if header.kind == "q":
            self._reply(header.frm, header.rid, ipc.Refused(code, reason, 500))
        elif header.kind == "r":
            self._replied(header.rid, ProtocolError(code, reason, 500))
