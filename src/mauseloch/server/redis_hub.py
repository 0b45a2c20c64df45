"""The hub of several server processes: table messages and requests to a table's owner over Redis.

Only a table's owner (ownership.py) runs its :class:`~.session.TableSession`; every process may
hold WebSockets of any table. Two kinds of Redis pub/sub channels carry what they share:

- ``ml:t:<table>``: the owner publishes every message of the table once, as the text for each
  seat that some other process listens to (``message_for`` is called once per seat, here, at the
  owner: the one redaction point stays the session's). Each process that holds connections of
  the table subscribes and hands every connection the text of its seat. Control frames on the
  same channel close a seat's connections everywhere, and announce a new owner.
- ``ml:p:<process>``: requests to that process (a move, a connection that came or went, a
  snapshot, a rematch vote, a seat taken) and the replies to requests it made.

Every frame is one of the tagged structs of ipc.py, with the protocol version in its header: a
process of another version is refused, never misread.

At the owner, a connection held by another process is a :class:`RemoteConn` stand-in: the
session counts it like any connection (presence, grace times) and the hub knows which seats
to publish for. Pub/sub is fire and forget: a process that misses a frame leaves a gap in the
versions its clients see, and the client asks for a ``resync`` (docs/protocol.md), answered
with a snapshot from the owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import RedisError

from mauseloch.server import ipc
from mauseloch.server.hub import Connection, MessageFor
from mauseloch.server.protocol import ErrorCode, ProtocolError

log = logging.getLogger("mauseloch.server")

PREFIX = "ml:"
SPECTATOR = -1  # the seat None on the wire (msgpack maps want one key type)
REPLY_WAIT = 0.5  # seconds between checks that the owner still lives while a request waits
REPLY_LIMIT = 10.0  # seconds a request waits at most for its reply
POLL = 0.01  # seconds the reader waits for a frame before it looks at subscription changes
# Seconds one answer to "does that process live?" serves every request waiting on it: at 2,000
# seats on two busy processes each waiting request asked for itself, two commands every 0.5 s,
# and those checks were 9 % of a process's CPU (py-spy, bench/server.py).
ALIVE_FOR = 0.25

# (from process, table, request) -> what the owner hands back; raises ProtocolError or NotOwner
Handler = Callable[[str, str, ipc.Op], Awaitable[ipc.Done | ipc.Shown]]


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


class RedisHub:
    """The :class:`~.hub.Hub` of one process among several sharing a Redis server."""

    def __init__(self, redis: Redis, pid: str, handler: Handler) -> None:
        self.redis = redis
        self.pid = pid
        self.handler = handler
        self._local: dict[str, set[Connection]] = {}
        self._remote: dict[str, dict[tuple[str, int], RemoteConn]] = {}
        self._syncing: dict[Connection, list[tuple[int, str]]] = {}  # waiting for their snapshot
        # what to publish, in order: (channel, frame, a table message?, told how many heard it)
        self._out: asyncio.Queue[tuple[str, bytes, bool, asyncio.Future[int] | None]] = asyncio.Queue()
        self._alive: dict[str, tuple[float, asyncio.Future[bool]]] = {}  # pid -> (asked at, answer)
        self._subscribed: set[str] = set()
        self._wanted: set[str] = set()
        self._ready: dict[str, asyncio.Event] = {}
        self._pending: dict[int, asyncio.Future[ipc.Done | ipc.Shown]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._work: set[asyncio.Task[None]] = set()
        self.on_owner: Callable[[str, str], None] = lambda table, pid: None  # ``pid`` took ``table`` over
        # a table's message reached no process, though some held its connections: one may be gone
        self.on_unheard: Callable[[], None] = lambda: None
        self.published = 0  # frames published (metrics)

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
        pairs: dict[int, str] = {}
        for rc in remote.values():
            if rc.pid == self.pid:  # this process's own connections were served above
                continue
            key = SPECTATOR if rc.seat is None else rc.seat
            if key not in pairs:
                text = texts.get(rc.seat)
                pairs[key] = text if text is not None else message_for(rc.seat)
        if pairs:
            frame = ipc.encode("t", self.pid, ipc.TableMessage(version, pairs))
            self._out.put_nowait((table_channel(table), frame, True, None))

    def close_seat(self, table: str, seat: int, code: int) -> None:
        self._close_local(table, seat, code)
        self._out.put_nowait((table_channel(table), ipc.encode("t", self.pid, ipc.CloseSeat(seat, code)), False, None))

    def close_all(self, code: int) -> None:
        for conns in self._local.values():
            for conn in conns:
                conn.close(code)

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
        self._out.put_nowait((table_channel(table), ipc.encode("t", self.pid, ipc.NewOwner()), False, None))

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
    async def call(self, pid: str, table: str, op: ipc.Op) -> ipc.Done | ipc.Shown:
        """Ask process ``pid`` to do ``op`` at ``table``; its answer, or :class:`ProtocolError`,
        :class:`NotOwner`, :class:`Unreachable` (nobody listens, or it died while we waited)."""
        rid = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[ipc.Done | ipc.Shown] = loop.create_future()
        self._pending[rid] = future
        try:
            # sent in order with the table messages, in the same round trip (see _publish)
            heard: asyncio.Future[int] = loop.create_future()
            frame = ipc.encode("q", self.pid, ipc.Request(table, op), rid)
            self._out.put_nowait((process_channel(pid), frame, False, heard))
            if await heard == 0:
                raise Unreachable(pid)
            waited = 0.0
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), REPLY_WAIT)
                except TimeoutError:
                    waited += REPLY_WAIT
                    if waited >= REPLY_LIMIT or not await self.lives(pid):
                        raise Unreachable(pid) from None
        finally:
            self._pending.pop(rid, None)

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
        try:
            reply = await self.handler(frm, table, op)
        except ProtocolError as exc:
            reply = ipc.Refused(exc.code, exc.message, exc.status, exc.refusal)
        except NotOwner:
            reply = ipc.NotOwned()
        except Exception:
            log.exception("request %s at table %s from process %s failed", type(op).__name__, table, frm)
            reply = ipc.Refused(ErrorCode.SERVER_ERROR, "the table's server failed; nothing changed", 500)
        await self._reply(frm, rid, reply)

    async def _reply(self, frm: str, rid: int, reply: ipc.Outcome) -> None:
        # At once, not behind the table messages in _publish: an owner killed between the update
        # and a queued reply left the request to be sent again to the next owner, which refused
        # it as stale though it was played (test_owner_killed_mid_game, 2 runs in 10).
        with contextlib.suppress(RedisError):
            await self.redis.publish(process_channel(frm), ipc.encode("r", self.pid, reply, rid))

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

    # -- running ---------------------------------------------------------------------
    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._publish())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in [*self._tasks, *self._work]:
            with contextlib.suppress(BaseException):
                await task
        for future in self._pending.values():
            future.cancel()
        while not self._out.empty():  # never to be sent: a request waiting to hear so stops waiting
            told = self._out.get_nowait()[3]
            if told is not None:
                told.cancel()

    async def _publish(self) -> None:
        """Send what the tables published and the requests to other processes, in order, batched
        into one round trip (a command of its own for each request and reply cost 7 % of a busy
        process's CPU, most of it in the socket writes; replies go at once, see _answer)."""
        while True:
            first = await self._out.get()
            batch = [first]
            while not self._out.empty():
                batch.append(self._out.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload, _, _ in batch:
                        pipe.publish(channel, payload)
                    heard = await pipe.execute()
            except RedisError as exc:
                log.exception("%d messages could not be published; clients will resync", len(batch))
                for *_, told in batch:
                    if told is not None and not told.done():
                        told.set_exception(exc)
                continue
            self.published += len(batch)
            unheard = False
            for (_, _, message, told), n in zip(batch, heard, strict=True):
                unheard = unheard or (message and n == 0)
                if told is not None and not told.done():
                    told.set_result(int(n))
            if unheard:
                self.on_unheard()

    async def _read(self) -> None:
        """The one reader of this process's subscriptions (subscribing happens here too: one
        task drives the pub/sub connection)."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            self._subscribed = set()
            try:
                await pubsub.subscribe(process_channel(self.pid))
                while True:
                    add = self._wanted - self._subscribed
                    gone = self._subscribed - self._wanted
                    if add:
                        await pubsub.subscribe(*add)
                        self._subscribed |= add
                        for channel in add:
                            event = self._ready.get(channel)
                            if event is not None:
                                event.set()
                    if gone:
                        await pubsub.unsubscribe(*gone)
                        self._subscribed -= gone
                    message = await pubsub.get_message(timeout=POLL)
                    if message is not None and message["type"] == "message":
                        self._received(message["channel"], message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception:
                log.exception("the Redis subscription broke; subscribing again")
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

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
        if isinstance(body, ipc.OUTCOMES):
            self._replied(header.rid, body)
            return
        if header.frm == self.pid:
            return  # our own publication: our connections had it directly
        table = channel.decode()[len(PREFIX) + 2 :]
        if isinstance(body, ipc.TableMessage):
            for conn in self._local.get(table, ()):
                text = body.texts.get(SPECTATOR if conn.seat is None else conn.seat)
                if text is not None:
                    self._deliver(conn, body.version, text)
        elif isinstance(body, ipc.CloseSeat):
            self._close_local(table, body.seat, body.code)
        elif isinstance(body, ipc.NewOwner):
            self.on_owner(table, header.frm)

    def _refuse(self, header: ipc.Header, code: ErrorCode, reason: str) -> None:
        """A frame whose body cannot be read (another protocol version, say): its request is
        refused with the reason, the request its reply answers fails with it, and the log names
        the process; nothing is guessed from the body."""
        log.error("%s", reason)
        if header.kind == "q":
            task = asyncio.create_task(self._reply(header.frm, header.rid, ipc.Refused(code, reason, 500)))
            self._work.add(task)
            task.add_done_callback(self._work.discard)
        elif header.kind == "r":
            self._replied(header.rid, ProtocolError(code, reason, 500))
