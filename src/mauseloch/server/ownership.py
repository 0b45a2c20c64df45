"""Several server processes behind one address (``mauseloch serve --db postgresql://… --redis redis://…``).

PostgreSQL keeps the record of every move, Redis what the processes share (as Colyseus and lichess
do). Every table has exactly one owner process: the one holding its lease ``ml:owner:<table>``,
a Redis key that expires after :data:`LEASE_MS` unless the owner renews it (every :data:`TICK`).
Only the owner runs the table's :class:`~.session.TableSession`: its clocks, stand-ins, bots and
reaction referee. A lease taken is always followed by loading the table from the store,
and the store's key ``(table, version)`` of every move fences a stale owner out: a process that
lost its lease without noticing (paused, cut off) cannot store a move the new owner stored first,
it gets ``stale`` and catches up (session.py), so no acknowledged move is ever lost.

A WebSocket may land on any process (no sticky sessions). Where the table is owned elsewhere the
socket talks to a :class:`RemoteTable`: moves, comings and goings, snapshots and rematch votes go
to the owner as requests, and the owner's messages come back through the :class:`~.redis_hub.RedisHub`.
When the owner dies (SIGKILL), every process sweeps the set of live tables ``ml:live`` each tick
and takes over tables nobody owns: those whose lease expired, and at once those of a process
that Redis no longer sees (no subscriber on its channel, no connection under its name: the kernel
closed its sockets). A request that finds the owner gone wakes the sweep, so such tables play on
within a tick or so plus the time to load them; a process that stopped answering but still holds
its connections loses its tables when its leases run out (``LEASE_MS + TICK``). Connections on
the surviving processes are re-attached to the new owner; those of the dead one reconnect anywhere.

The lobby holds across processes: the table list is read from the summaries every owner keeps in
the Redis hash ``ml:summary``; creating and joining write the store first, then tell the owner.

The limits of "Safe in public" count in Redis (limits.RedisCounters, set up in app.py), except
the per-connection rate (a connection lives on one process) and the waiting tables per address.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec

from mauseloch.extras import needs
from mauseloch.server import ipc
from mauseloch.server.clock import wall
from mauseloch.server.handle import TableHandle
from mauseloch.server.hub import Connection
from mauseloch.server.lobby import PAGE_SIZE, BotSeats, Lobby
from mauseloch.server.protocol import ErrorCode, ErrorMsg, Pong, ProtocolError, Refusal, TableSummary, encode
from mauseloch.server.redis_hub import (
    PREFIX,
    NotOwner,
    RedisHub,
    RemoteConn,
    Unreachable,
    alive_key,
    client_name,
    processes_gone,
)
from mauseloch.server.session import LIVE, Settings, TableSession
from mauseloch.server.storage.rows import SeatsNow, TableRow
from mauseloch.server.storage.store import Store
from mauseloch.server.summary import stored_away, stored_presence, table_summary
from mauseloch.server.table.commands import Playing

with needs("redis", __name__):
    import redis
    import redis.asyncio
    from redis.exceptions import RedisError

log = logging.getLogger("mauseloch.server")
T = TypeVar("T")

LEASE_MS = 2000  # a dead owner's tables are free after this long (four missed renewals)
TICK = 0.5  # seconds between lease renewals, sweeps for orphaned tables and lobby summaries
RESCAN_TICKS = 120  # every minute: the store's unfinished tables are put into ml:live again
REDIS_CONNECTIONS = 64  # per process, for requests, fan-out and the ticks (one more: the subscriber)
LOOP_STALL = 10.0  # seconds without a tick after which a process lets its leases run out
FAILOVER = 10.0  # seconds a request keeps looking for a table's owner before it gives up
WAKE_GAP = 0.1  # seconds at least between sweeps woken early (by requests that found an owner gone)
LOAD_BATCH = 25  # tables taken over are loaded this many to a query (three queries a batch)
# Seconds of replaying tables taken over before the loop serves others. One table a round took
# 1.5 s for the 248 tables of a killed process while 1,000 sockets reconnected (a round took
# 6 ms then); a table takes 1-3 ms to replay.
ADOPT_SLICE = 0.01
SUMMARY_AGAIN = 20  # every this many ticks every owned table's summary is built again, changed or not
# Every this many ticks a summary whose only change is the moves played is written again: the
# lobby's count of a table's moves may lag two seconds (at 400 seats every running table moved
# within a tick, and its summary was built, encoded and written every tick: a move's worth).
VERSION_AGAIN = 4
HANDOVER_BATCH = 50  # tables a stopping process hands over at a time (each batch waits for its moves)
LIVE_SET = f"{PREFIX}live"
SUMMARIES = f"{PREFIX}summary"

# Renew this process's alive key (ARGV[3]) and each lease it holds; one that lapsed and nobody
# took is taken again (the store fences anyway). Returns the 1-based indexes of the leases another
# process holds now.
RENEW = """
redis.call('SET', ARGV[3], '1', 'PX', ARGV[2])
local lost = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] or not owner then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
# Take each lease whose owner is still the one the sweep saw (ARGV[2 + i]; "" for none): free, or
# held by a process found gone. Returns the 1-based indexes of the leases taken.
TAKE = """
local won = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if (not owner and ARGV[2 + i] == '') or owner == ARGV[2 + i] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    table.insert(won, i)
  end
end
return won
"""
# The sweep's look at the live tables (KEYS[1]), in Redis: those nobody owns, and those of the
# processes ARGV[3..] (found gone), as pairs of table and owner ("" for none); then every other
# owner but this process (ARGV[1]) once, for the caller to ask whether it is gone. ARGV[2]: the
# prefix of the lease keys. Two short arrays come back where the whole set and a lease per table
# came back before, each parsed in Python twice a second (at 2,000 seats 500 of each).
SWEEP = """
local gone, seen, free, others = {}, {}, {}, {}
for i = 3, #ARGV do gone[ARGV[i]] = true end
for _, t in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local owner = redis.call('GET', ARGV[2] .. t)
  if not owner then
    table.insert(free, t)
    table.insert(free, '')
  elseif gone[owner] then
    table.insert(free, t)
    table.insert(free, owner)
  elseif owner ~= ARGV[1] and not seen[owner] then
    seen[owner] = true
    table.insert(others, owner)
  end
end
return {free, others}
"""
RELEASE = """
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
"""


def lease_key(table: str) -> str:
    return f"{PREFIX}owner:{table}"


def draining_key(pid: str) -> str:
    """Set while process ``pid`` hands its tables over to stop: nobody hands it tables then."""
    return f"{PREFIX}draining:{pid}"


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class RemoteTable:
    """A table another process owns, as this process's sockets and HTTP API see it
    (:class:`~.handle.TableHandle`, beside the owner's :class:`~.session.TableSession`).

    It holds the table's stored row (seats, tokens, records) and never replays the game: every
    change and every snapshot is a request to the owner (:meth:`call`), whose messages come back
    through the hub."""

    def __init__(self, lobby: ClusterLobby, row: TableRow) -> None:
        self.row = row
        self.lobby = lobby
        self.hub = lobby.cluster_hub
        self.version = len(row.moves)  # as stored when loaded: refusals and pongs carry it
        self.stopping = False

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def writing(self) -> bool:
        return False  # a seat taken through this process is written and awaited at once

    def summary(self) -> TableSummary:
        """From the store (just read), with the presence the owner last wrote to Redis."""
        presence, away = stored_presence(self.row), stored_away(self.row)
        kept = self.lobby.summary_of(self.id)
        if kept is not None and len(kept.seats) == len(presence):
            presence = [(known.presence, known.stand_in) for known in kept.seats]
            away = {known.seat: known.away for known in kept.seats if known.away is not None}
        # whose turn it is: the owner's word; the stored row alone cannot say without a replay
        to_move = kept.to_move if kept is not None else None
        return table_summary(self.row, self.version, presence, to_move, away)

    def error(self, code: ErrorCode, message: str, refusal: Refusal | None = None) -> str:
        return encode(ErrorMsg(version=self.version, seq=0, code=code, message=message, refusal=refusal))

    def pong(self) -> str:
        return encode(Pong(version=self.version, seq=0))

    async def call(self, op: ipc.Op) -> ipc.Answer:
        return await self.lobby.call(self.id, op)

    # -- what a socket does, as requests ----------------------------------------------------
    def attach(self, conn: Connection) -> None:
        self.hub.subscribe(self.id, conn)
        self.lobby.spawn(self.lobby.attach_remote(self.id, conn, wait=True))

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        self.hub.unsubscribe(self.id, conn)
        self.lobby.spawn(self.call(ipc.Detach(id(conn), left, everywhere)))

    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        await self.call(ipc.Move(seat, move, version, ms, again))

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        """A reaction claim: judged at the owner with the link of this connection (its pings
        went the same way, through this process, so the round trip they measured includes it)."""
        await self.call(ipc.React(id(conn), move, version, ms))

    def clock_answer(self, conn: Connection, n: int, t: float) -> None:
        self.lobby.spawn(self.call(ipc.ClockAnswer(id(conn), n, t)))

    async def resync(self, conn: Connection) -> None:
        shown = await self.call(ipc.Snapshot(conn.seat))
        if isinstance(shown, ipc.Shown):
            conn.send(shown.text)

    def vote_rematch(self, seat: int | None) -> None:
        self.lobby.spawn(self.call(ipc.RematchVote(seat)))

    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        # the owner keeps the pause and the pace: its clocks and bots are the ones that wait
        if seat is None:  # refused here, where the spectator hears it
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, "only the people seated at the table pause it or set the bots' pace"
            )
        self.lobby.spawn(self.call(ipc.Pace(seat, paused, speed)))

    async def away(self, seat: int | None, days: int) -> None:
        if seat is None:  # refused here, where the spectator hears it
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "only the people seated at the table can be away")
        await self.call(ipc.Away(seat, days))  # awaited: a refusal at the owner reaches the seat's page

    def emote(self, seat: int | None, emote: str) -> None:
        if seat is None:  # refused here, where the spectator hears it
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "only the people seated at the table send reactions")
        self.lobby.spawn(self.call(ipc.Emote(seat, emote)))

    def seat_taken(self, seat: int) -> None:
        # what the store now holds for the seat travels with the news: the owner need not read
        # the table back (a full row, three queries, once for every join through another process)
        taken = self.row.seats[seat]
        joined = None if self.row.joined is None else self.row.joined.isoformat()
        self.lobby.spawn(self.call(ipc.Joined(seat, taken.name, taken.token_hash, joined)))

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.lobby.store.call(fn, *args)

    # -- the life cycle runs at the owner ---------------------------------------------------
    def start(self) -> None:  # the owner runs the clocks and the bots
        pass

    async def stop(self) -> None:
        pass

    async def expire(self) -> None:  # the owner's lobby sweeps its waiting tables
        pass

    async def flush(self) -> None:
        pass


class ClusterLobby(Lobby):
    """The lobby of one server process among several sharing a store and a Redis server."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        redis_url: str,
        waiting_expiry: float = 1800.0,
        online: BotSeats | None = None,
    ) -> None:
        self.pid = secrets.token_hex(6)
        # every connection carries this process's name: the others see at once when none is left
        named = client_name(self.pid)
        self.redis = redis.Redis.from_url(redis_url, client_name=named)  # short lobby calls from synchronous code
        # a request waits for a free connection rather than failing when many are under way
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            redis_url, max_connections=REDIS_CONNECTIONS, timeout=20, client_name=named
        )
        self.aredis = redis.asyncio.Redis(connection_pool=pool)
        self.redis.ping()  # refuse to start without Redis
        self.cluster_hub = RedisHub(self.aredis, self.pid, self.handle)
        super().__init__(store, settings, self.cluster_hub, waiting_expiry=waiting_expiry, online=online)
        self.cluster_hub.on_owner = self._new_owner
        self.owners: dict[str, str] = {}  # table -> owner process, as last seen (a cache)
        self._lease_client = redis.Redis.from_url(redis_url, client_name=named)  # the renewer thread's own
        self._renew = self._lease_client.register_script(RENEW)
        self._take = self.aredis.register_script(TAKE)
        self._look = self.aredis.register_script(SWEEP)
        self._release = self.redis.register_script(RELEASE)
        self._written: dict[str, bytes] = {}  # the summary last written per owned table
        self._seen: dict[str, tuple[Any, ...]] = {}  # what that summary was made from (summary_key)
        self._summary_rounds = 0
        # tables whose lease this process took and which it is loading: renewed like its own,
        # and every request for one waits for that one load instead of loading it again
        self._loading: dict[str, asyncio.Future[TableSession | None]] = {}
        # a table owned elsewhere, as loaded for the requests asking for it at the same moment
        self._remote_loads: dict[str, asyncio.Future[TableHandle | None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # a request found a table's owner gone: sweep now
        # requests on their way to a table's owner (call): a process that stops answers them
        # before it closes the sockets they came on
        self._under_way = 0
        self._none_under_way = asyncio.Event()
        self._none_under_way.set()
        self._heart: asyncio.Task[None] | None = None
        self._loop_seen = time.monotonic()  # when the event loop last ran a tick
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = threading.Event()
        self._renewer = threading.Thread(target=self._renew_leases, name="mauseloch-leases", daemon=True)
        # told of the Redis round trips of the ticks and the renewals: kind, seconds (metrics)
        self.on_round_trip: Callable[[str, float], None] | None = None
        # told of the running tables this process took over from another, and (before their
        # leases go back) of those it hands on: whatever a table's owner alone does follows it
        # (the pushes it has pending: push/sender.py)
        self.on_adopted: Callable[[list[str]], None] | None = None
        self.on_let_go: Callable[[list[str]], None] | None = None

    # -- life cycle --------------------------------------------------------------------
    def restore(self) -> int:
        """Nothing is loaded here: the ticks' sweeps take over the unfinished tables nobody owns
        (the first tick lists them in ``ml:live``)."""
        return 0

    def start(self) -> None:
        super().start()
        self.redis.set(alive_key(self.pid), b"1", px=LEASE_MS)
        self.cluster_hub.start()
        self._loop = asyncio.get_running_loop()
        self._ticker = self._loop.create_task(self._tick())
        self._heart = self._loop.create_task(self._heartbeat())
        self._renewer.start()

    async def stop(self) -> None:
        self._stopped.set()
        if self._renewer.is_alive():
            await asyncio.to_thread(self._renewer.join, 2 * TICK)
        for task in (self._ticker, self._heart):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        owned = list(self.tables)
        if owned and self.on_let_go is not None:
            self.on_let_go(owned)
        await super().stop()  # sessions stop, sockets close with 1001: clients reconnect elsewhere
        with contextlib.suppress(RedisError):
            if owned:  # hand the tables over now rather than after the lease runs out
                self._release(keys=[lease_key(t) for t in owned], args=[self.pid])
            self.redis.delete(alive_key(self.pid))
        for task in list(self._tasks):
            task.cancel()
        await self.cluster_hub.stop()
        await self.aredis.aclose()
        self.redis.close()
        self._lease_client.close()

    async def drain(self, bound: float) -> None:
        """Stop for a rolling restart: every table run here goes to the other processes (in
        batches: its moves under way stored and published, its lease given back, a live process
        asked to take it at once), then every socket here is closed with 1012 so that its client
        reconnects elsewhere (the proxy sends it to a process still listening). Tables left after
        ``bound`` seconds are let go as :meth:`stop` lets them go (the sweeps take them)."""
        self.draining = True
        loop = asyncio.get_running_loop()
        give_up = loop.time() + bound
        with contextlib.suppress(RedisError):  # the others choose no process that is leaving
            await self.aredis.set(draining_key(self.pid), b"1", px=int(bound * 1000) + LEASE_MS)
        peers = await self._peers()
        while (self.tables or self._loading) and (left := give_up - loop.time()) > 0:
            if self._loading:  # tables being taken over here are handed on once loaded
                await asyncio.wait(list(self._loading.values()), timeout=left)
                continue
            batch = list(self.tables)[:HANDOVER_BATCH]
            try:
                await asyncio.wait_for(self._hand_over(batch, peers), left)
            except TimeoutError:
                break
        if self.tables:
            log.warning("process %s: %d tables were not handed over in %s s", self.pid, len(self.tables), bound)
        # No socket's request is read from here on, and those read before are answered first. A
        # move still on its way to its table's new owner when its socket closed could land after
        # the snapshot its client reconnects to, and the client's next move there were stale.
        self.closing = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._none_under_way.wait(), max(give_up - loop.time(), 1.0))
        self.cluster_hub.close_all(1012)  # "service restart": every client reconnects elsewhere

    async def _peers(self) -> list[str]:
        """The other processes that live and are not leaving themselves."""
        with contextlib.suppress(RedisError):
            alive = [_text(k) or "" async for k in self.aredis.scan_iter(match=alive_key("*"), count=1000)]
            pids = sorted({k.removeprefix(alive_key("")) for k in alive} - {self.pid})
            if pids:
                leaving = await self.aredis.mget([draining_key(p) for p in pids])
                return [p for p, gone in zip(pids, leaving, strict=True) if gone is None]
        return []

    async def _hand_over(self, tables: list[str], peers: list[str]) -> None:
        """``tables`` to ``peers`` (spread over them), then their sockets here closed."""
        sessions = [self.tables.pop(t) for t in tables]  # nothing renews, serves or sweeps them here now
        await asyncio.gather(*(session.stop() for session in sessions))  # moves under way stored, announced
        if self.on_let_go is not None:
            self.on_let_go(tables)
        with contextlib.suppress(RedisError):
            await self.aredis.eval(RELEASE, len(tables), *[lease_key(t) for t in tables], self.pid)
        self._forget(tables)
        for t in tables:
            self.cluster_hub.forget(t)
        if peers:
            shares = {p: tables[i :: len(peers)] for i, p in enumerate(peers)}
            asked = [self.cluster_hub.call(p, share[0], ipc.Adopt(share)) for p, share in shares.items() if share]
            for answer in await asyncio.gather(*asked, return_exceptions=True):
                if isinstance(answer, Exception):  # the sweeps take its share instead
                    log.warning("process %s: a process did not take tables over: %r", self.pid, answer)
        for t in tables:
            for conn in self.cluster_hub.local(t):
                conn.close(1012)

    async def adopt(self, tables: list[str]) -> None:
        """Take ``tables`` over now (their owner is leaving and gave their leases back): their
        leases, then their loads under way (:meth:`_load_taken`)."""
        won = await self._take(keys=[lease_key(t) for t in tables], args=[self.pid, LEASE_MS, *([""] * len(tables))])
        taken = [tables[int(i) - 1] for i in won]
        for t in taken:
            self.owners[t] = self.pid
        self._load_taken(taken)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            if isinstance(exc, ProtocolError):
                log.info("request refused: %s", exc.message)
            else:
                log.error("cluster work failed", exc_info=exc)

    # -- ownership ---------------------------------------------------------------------
    async def call(self, table: str, op: ipc.Op) -> ipc.Answer:
        """Do ``op`` at the owner of ``table``, finding the owner again (or taking the table over)
        when it went away; :class:`ProtocolError` if none answers within :data:`FAILOVER` seconds."""
        self._under_way += 1
        self._none_under_way.clear()
        try:
            return await self._call(table, op)
        finally:
            self._under_way -= 1
            if not self._under_way:
                self._none_under_way.set()

    async def _call(self, table: str, op: ipc.Op) -> ipc.Answer:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + FAILOVER
        while True:
            try:
                owner = self.owners.get(table) or await self._owner(table)
                if owner == self.pid:
                    return await self.handle(owner, table, op)
                if owner is not None:
                    return await self.cluster_hub.call(owner, table, op)
            except Unreachable:
                self._wake.set()  # the owner may be dead: take its tables over now, not when its leases lapse
                if isinstance(op, ipc.Move) and not op.again:
                    # It may have played the move and died before its answer left: the next owner
                    # is told this is the same request again, so it answers a move already played
                    # as done instead of stale (test_owner_killed_mid_game, 1 run in 20 on CI).
                    op = msgspec.structs.replace(op, again=True)
            except NotOwner:
                pass
            except RedisError as exc:
                log.warning("request %s for table %s: %s", type(op).__name__, table, exc)
            if loop.time() > give_up:
                raise ProtocolError(
                    ErrorCode.SERVER_ERROR, "the table's server does not answer; nothing changed, try again"
                )
            self.owners.pop(table, None)
            await asyncio.sleep(TICK / 2)

    def owner_of(self, table_id: str) -> str | None:
        """The process owning ``table_id``; a table nobody owns is taken over by this process
        (synchronous: for tools and tests; requests use :meth:`_owner`)."""
        owner = _text(self.redis.get(lease_key(table_id)))
        if owner is None and self.redis.set(lease_key(table_id), self.pid, nx=True, px=LEASE_MS):
            owner = self.pid
            self._adopt(self.store.load_table(table_id))
        if owner is not None:
            self.owners[table_id] = owner
        return owner

    async def _owner(self, table_id: str) -> str | None:
        """:meth:`owner_of` without holding up the event loop: Redis asked asynchronously, a table
        taken over loaded in a worker thread (once, however many ask at the same time)."""
        owner = _text(await self.aredis.get(lease_key(table_id)))
        if owner is None and await self.aredis.set(lease_key(table_id), self.pid, nx=True, px=LEASE_MS):
            owner = self.pid
            self.owners[table_id] = owner
            await asyncio.shield(self._load_taken([table_id])[0])
        if owner is not None:
            self.owners[table_id] = owner
        return owner

    def _load_taken(self, tables: list[str]) -> list[asyncio.Future[TableSession | None]]:
        """Load and run tables whose leases this process just took, :data:`LOAD_BATCH` to a query
        in worker threads; one future per table (requests for one wait for its batch only)."""
        futures = []
        fresh = []
        for t in tables:
            pending = self._loading.get(t)
            if pending is None:
                pending = self._loading[t] = asyncio.get_running_loop().create_future()
                fresh.append(t)
            futures.append(pending)
        for i in range(0, len(fresh), LOAD_BATCH):
            self.spawn(self._load_batch(fresh[i : i + LOAD_BATCH]))
        return futures

    async def _load_batch(self, tables: list[str]) -> None:
        done: list[str] = []  # finished, missing or broken: their leases go back at once
        running: list[str] = []  # taken over and run here now
        loop = asyncio.get_running_loop()
        try:
            try:
                rows = await self.store.call(self.store.load_tables, tables, urgent=True)
                # still ours? A lease lost while loading (a stalled process) must not make two owners
                owners = [_text(o) for o in await self.aredis.mget([lease_key(t) for t in tables])]
            except Exception as exc:
                log.error("tables %s could not be loaded: %s", ", ".join(tables), exc)
                done = list(tables)
                return
            pause_at = loop.time() + ADOPT_SLICE
            for t, owner in zip(tables, owners, strict=True):
                session: TableSession | None = None
                row = rows.get(t)
                try:
                    if owner != self.pid:
                        self.owners.pop(t, None)
                    elif isinstance(row, TableRow):
                        session = self._adopt(row)
                        if row.status not in LIVE:  # finished: served while watched, nothing to run
                            done.append(t)
                        elif session is not None:
                            running.append(t)
                    else:
                        if row is not None:
                            log.error("table %s cannot be restored, skipped: %s", t, row)
                        done.append(t)
                except Exception as exc:  # one broken table never stops the others
                    log.error("table %s cannot be restored, skipped: %s", t, exc)
                    done.append(t)
                future = self._loading.pop(t, None)
                if future is not None and not future.done():
                    future.set_result(session)
                if loop.time() >= pause_at:  # tables are replayed on the loop: let requests in between
                    await asyncio.sleep(0)
                    pause_at = loop.time() + ADOPT_SLICE
        finally:
            for t in tables:
                future = self._loading.pop(t, None)
                if future is not None and not future.done():
                    future.set_result(None)
            if running and self.on_adopted is not None:
                self.on_adopted(running)
            await self._let_go_soon(done)

    def _adopt(self, row: TableRow | None) -> TableSession | None:
        """Run ``row`` (loaded after its lease was taken) here; its listeners get snapshots."""
        if row is None:
            return None
        running = self.tables.get(row.id)
        if running is not None:  # taken over already (a sweep and a connection met): one session only
            return running
        session = self._session(row)
        self.owners[row.id] = self.pid
        if session.status in LIVE:
            self.tables[row.id] = session
            if self.running:
                session.start()
            log.warning("process %s took over table %s at version %s", self.pid, row.id, session.version)
        self.cluster_hub.announce_owner(row.id)
        self._new_owner(row.id, self.pid)
        return session

    def _new_owner(self, table: str, pid: str) -> None:
        """``pid`` owns ``table`` now: its connections here are attached there again."""
        self.owners[table] = pid
        for conn in self.cluster_hub.local(table):
            self.spawn(self.attach_remote(table, conn, wait=False))

    async def attach_remote(self, table: str, conn: Connection, wait: bool) -> None:
        """Attach this process's ``conn`` at the owner; it gets the owner's snapshot first."""
        hub = self.cluster_hub
        hub.begin_sync(conn)
        text: str | None = None
        version = 0
        try:
            if wait:
                await hub.ready(table)
            shown = await self.call(table, ipc.Attach(id(conn), conn.seat))
            if isinstance(shown, ipc.Shown):
                text, version = shown.text, shown.version
            if conn not in hub.local(table):  # it closed while attaching: its detach may have come first
                await self.call(table, ipc.Detach(id(conn)))
        except ProtocolError as exc:
            conn.send(encode(ErrorMsg(version=0, seq=0, code=exc.code, message=exc.message)))
        finally:
            hub.end_sync(conn, text, version)

    # -- the owner's side of requests ---------------------------------------------------------
    async def handle(self, frm: str, table: str, op: ipc.Op) -> ipc.Answer:
        """Carry out request ``op`` from process ``frm`` at ``table``, which this process owns.
        A table stopping here (handed over, or its lease lost) answers :class:`NotOwner`: the
        asker finds the next owner and sends the request there, so nothing is refused."""
        if isinstance(op, ipc.Adopt):
            if self.draining or not self.running:
                raise NotOwner
            await self.adopt(op.tables)
            return ipc.Done()
        try:
            return await self._handle(frm, table, op)
        except ProtocolError:
            session = self.tables.get(table)
            if session is None or session.stopping:
                raise NotOwner from None
            raise

    async def _handle(self, frm: str, table: str, op: ipc.Op) -> ipc.Answer:
        session = self.tables.get(table)
        if session is None and table in self._loading:  # being taken over here: wait for its load
            session = await asyncio.shield(self._loading[table])
        if session is None:
            if self.draining or _text(await self.aredis.get(lease_key(table))) != self.pid:
                raise NotOwner
            found = await Lobby.find(self, table)  # a finished table, owned here, loaded again
            if not isinstance(found, TableSession):
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "no such table")
            held = self.hold(found)
            session = held if isinstance(held, TableSession) else None
        if session is None or session.stopping:
            raise NotOwner
        hub = self.cluster_hub
        match op:
            case ipc.Attach(cid=cid, seat=seat):
                conn = hub.remote(table, frm, cid)
                if conn is None:
                    conn = RemoteConn(seat=seat, pid=frm, cid=cid)
                    session.attach(conn)
                    if conn.first is not None:
                        return ipc.Shown(conn.first, session.version)
                return ipc.Shown(session.snapshot(seat), session.version)
            case ipc.Detach(cid=cid, left=left, everywhere=everywhere):
                gone = hub.remote(table, frm, cid)
                if gone is not None:
                    session.detach(gone, left=left, everywhere=everywhere)
            case ipc.Move(seat=seat, move=move, version=version, ms=ms, again=again):
                await session.apply(seat, move, version, ms, again=again)
            case ipc.Snapshot(seat=seat):
                return ipc.Shown(session.snapshot(seat), session.version)
            case ipc.Load():  # with the seats taken through other processes, as find() gives them
                return ipc.Loaded((await self._with_seats(session)).row)
            case ipc.React(cid=cid, move=move, version=version, ms=ms):
                await session.react(self._remote_conn(table, frm, cid), move, version, ms)
            case ipc.ClockAnswer(cid=cid, n=n, t=t):
                session.clock_answer(self._remote_conn(table, frm, cid), n, t)
            case ipc.RematchVote(seat=seat):
                session.vote_rematch(seat)
            case ipc.Pace(seat=seat, paused=paused, speed=speed):
                session.set_pace(seat, paused, speed)
            case ipc.Emote(seat=seat, emote=emote):
                session.emote(seat, emote)
            case ipc.Away(seat=seat, days=days):
                await session.away(seat, days)
            case ipc.Joined(seat=seat, name=name, token_hash=token_hash, joined=joined):
                if not 0 <= seat < len(session.row.seats):
                    raise ProtocolError(ErrorCode.BAD_MESSAGE, f"no seat {seat!r} at table {session.id}")
                taken = session.row.seats[seat]
                taken.name, taken.token_hash = name, token_hash
                if joined is not None:  # a join through another process counts for the expiry here
                    session.row.joined = dt.datetime.fromisoformat(joined)
                self._seats_changed(session, None, seat)
                session.seat_taken(seat)
        return ipc.Done()

    def _remote_conn(self, table: str, frm: str, cid: int) -> RemoteConn:
        conn = self.cluster_hub.remote(table, frm, cid)
        if conn is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "this connection is not attached to the table")
        return conn

    async def refresh_seats(self, session: TableSession) -> None:
        """Another process gave a seat away (in the store): take over names, tokens and status."""
        self._take_seats(session, await self.store.call(self.store.seats_now, session.id))

    def _take_seats(self, session: TableSession, now: SeatsNow | None) -> None:
        if now is None:
            return
        for mine, (name, token_hash) in zip(session.row.seats, now.seats, strict=True):
            mine.name, mine.token_hash = name, token_hash
        session.row.joined = now.joined  # a join through another process counts for the expiry here
        self._seats_changed(session, now.status)

    def _seats_changed(self, session: TableSession, stored: str | None, joined: int | None = None) -> None:
        """A waiting table plays once the store says so (``stored``: its status there, when just
        read) or its seats are all taken (then the status is written, again maybe: no harm);
        ``joined``: the seat just taken, told to the table next (its first mover is told then)."""
        if stored == "playing" or all(s.taken for s in session.row.seats):
            session.run(Playing(stored=stored == "playing", joined=joined, now=wall()))

    # -- the lobby across processes --------------------------------------------------------
    def _session(self, row: TableRow) -> TableSession:
        """A table this process owns. Seats may be taken through any process (in the store): a
        move at a table still waiting looks there first, so that it never waits for the other
        process's "joined" request."""
        return TableSession(
            row, self.store, self.hub, self.settings, on_rematch=self.rematch, before_move=self.refresh_seats
        )

    def _run(self, row: TableRow) -> TableSession:
        self.redis.set(lease_key(row.id), self.pid, px=LEASE_MS)  # a new id: nobody else has it
        self.owners[row.id] = self.pid
        session = super()._run(row)
        self._write_summaries([row.id])
        return session

    async def _open(self, row: TableRow) -> TableSession:
        """:meth:`_run` for a new table without waiting on Redis synchronously. Its lease, its
        summary and its place among the live tables go in one round trip, the lease first:
        nobody hears of the table (its id is new) before the creator is answered, after it."""
        self.owners[row.id] = self.pid
        session = Lobby._run(self, row)
        text = encode(session.summary()).encode()
        self._written[row.id] = text
        async with self.aredis.pipeline(transaction=False) as pipe:
            pipe.set(lease_key(row.id), self.pid, px=LEASE_MS)
            pipe.hset(SUMMARIES, row.id, text)
            pipe.sadd(LIVE_SET, row.id)
            await pipe.execute()
        return session

    def get(self, table_id: str) -> TableHandle | None:
        session = self.tables.get(table_id)
        if session is not None and not session.stopping:
            if any(s.kind == "human" and not s.taken for s in session.row.seats):
                # a seat may have been taken through another process a moment ago: its token
                # must open the seat here even before that process's "joined" arrives
                self._take_seats(session, self.store.seats_now(table_id))
            return session
        try:
            owner = self.owner_of(table_id)
        except RedisError as exc:
            log.error("table %s: Redis does not answer: %s", table_id, exc)
            return None
        if owner == self.pid:  # taken over just now, or being loaded by a sweep, or finished
            running = self.tables.get(table_id)
            return running if running is not None else self._adopt(self.store.load_table(table_id))
        row = self.store.load_table(table_id)
        if row is None:
            return None
        try:
            return RemoteTable(self, row)
        except (ValueError, KeyError) as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            return None

    async def find(self, table_id: str) -> TableHandle | None:
        """:meth:`get` without holding up the event loop (the requests' and sockets' way)."""
        session = self.tables.get(table_id)
        if session is not None and not session.stopping:
            return await self._with_seats(session)
        # another process's table as last seen (a new owner announces itself; a request that
        # finds the owner gone or no owner asks Redis again): no round trip for each socket
        owner = self.owners.get(table_id)
        if owner is None or owner == self.pid:
            try:
                owner = await self._owner(table_id)
            except RedisError as exc:
                log.error("table %s: Redis does not answer: %s", table_id, exc)
                return None
        if owner == self.pid:  # taken over just now, or being loaded by a sweep, or finished
            running = self.tables.get(table_id)
            if running is None and table_id in self._loading:
                running = await asyncio.shield(self._loading[table_id])
            elif running is None:
                running = self._adopt(await self.store.call(self.store.load_table, table_id))
            # loaded before a seat was taken through another process, maybe (a takeover while
            # someone joins): the seat's token must open it all the same
            return None if running is None else await self._with_seats(running)
        pending = self._remote_loads.get(table_id)
        if pending is None:  # the seats of one table reconnecting together share one load
            pending = asyncio.ensure_future(self._load_remote(table_id, owner))
            self._remote_loads[table_id] = pending
            pending.add_done_callback(lambda _: self._remote_loads.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _with_seats(self, session: TableSession) -> TableSession:
        """``session``, with the seats taken through other processes (as :meth:`get`)."""
        if any(s.kind == "human" and not s.taken for s in session.row.seats):
            await self.refresh_seats(session)
        return session

    async def _load_remote(self, table_id: str, owner: str | None) -> TableHandle | None:
        """The proxy of a table ``owner`` runs, with the row the owner holds: one request, fresher
        than the store's row (it has the seats taken through every process) and without the
        three queries and the worker thread a load from the store costs (4-7 % of a process's
        CPU at 400 and 2,000 seats, one load for every join and socket of a table owned
        elsewhere). From the store when the owner does not answer it."""
        row: TableRow | None = None
        if owner is not None:
            try:
                loaded = await self.cluster_hub.call(owner, table_id, ipc.Load())
                if isinstance(loaded, ipc.Loaded):
                    row = loaded.row
            except (NotOwner, Unreachable) as exc:
                self.owners.pop(table_id, None)
                if isinstance(exc, Unreachable):
                    self._wake.set()  # the owner may be dead: take its tables over now
            except (ProtocolError, RedisError) as exc:
                log.warning("table %s: its owner did not hand its row over: %s", table_id, exc)
        try:
            if row is None:
                row = await self.store.call(self.store.load_table, table_id)
            return None if row is None else RemoteTable(self, row)
        except Exception as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            return None

    def hold(self, table: TableHandle) -> TableHandle:
        # a table handed over (or lost) is not run here again: its sockets go elsewhere
        return table if isinstance(table, RemoteTable) or table.stopping else super().hold(table)

    def release(self, table: TableHandle) -> None:
        if isinstance(table, RemoteTable):
            return
        held = table.id in self.tables
        super().release(table)
        if held and table.id not in self.tables:
            self._let_go([table.id])

    def _let_go(self, tables: list[str]) -> None:
        with contextlib.suppress(RedisError):
            pipe = self.redis.pipeline(transaction=False)  # one round trip, not three
            pipe.eval(RELEASE, len(tables), *[lease_key(t) for t in tables], self.pid)
            pipe.hdel(SUMMARIES, *tables)
            pipe.srem(LIVE_SET, *tables)
            pipe.execute()
        self._forget(tables)

    async def _let_go_soon(self, tables: list[str]) -> None:
        """:meth:`_let_go` with Redis asked asynchronously (the loop's batches of many tables)."""
        if not tables:
            return
        with contextlib.suppress(RedisError):
            async with self.aredis.pipeline(transaction=False) as pipe:
                pipe.eval(RELEASE, len(tables), *[lease_key(t) for t in tables], self.pid)
                pipe.hdel(SUMMARIES, *tables)
                pipe.srem(LIVE_SET, *tables)
                await pipe.execute()
        self._forget(tables)

    def _forget(self, tables: list[str]) -> None:
        for t in tables:
            self._written.pop(t, None)
            self._seen.pop(t, None)
            if self.owners.get(t) == self.pid:
                del self.owners[t]

    def summary_of(self, table_id: str) -> TableSummary | None:
        session = self.tables.get(table_id)
        if session is not None:
            return session.summary()
        raw = self.redis.hget(SUMMARIES, table_id)
        return None if raw is None else _decode_summary(raw)

    def waiting(self, table_id: str) -> bool:
        """Whether the table still waits for players, whichever process owns it (its summary in
        Redis, which its owner keeps up to date every tick; a table no process lists waits no more)."""
        summary = self.summary_of(table_id)
        return summary is not None and summary.status == "waiting"

    def listing(self, page: int = 0, size: int = PAGE_SIZE) -> tuple[list[TableSummary], bool]:
        """One page of every process's public tables that are open, running or just closed, newest
        first, and whether older ones follow (as :meth:`Lobby.listing`)."""
        found: dict[str, TableSummary | None] = {
            _text(k) or "": _decode_summary(v) for k, v in self.redis.hgetall(SUMMARIES).items()
        }
        for session in self.tables.values():
            found[session.id] = session.summary()
        live = [s for s in found.values() if s is not None and s.public and s.status != "over"]
        live.sort(key=lambda s: (s.created, s.id), reverse=True)
        start = page * size
        return live[start : start + size], len(live) > start + size

    def _write_summaries(self, tables: list[str]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for t in tables:
            session = self.tables.get(t)
            if session is not None:
                text = encode(session.summary()).encode()
                pipe.hset(SUMMARIES, t, text)
                pipe.sadd(LIVE_SET, t)
                self._written[t] = text
        pipe.execute()

    # -- every tick ------------------------------------------------------------------------
    async def _tick(self) -> None:
        ticks = 0
        loop = asyncio.get_running_loop()
        while True:
            if ticks % RESCAN_TICKS == 0:  # the store's unfinished tables, in case Redis forgot some
                with contextlib.suppress(Exception):
                    unfinished = await self.store.call(self.store.unfinished)
                    if unfinished:
                        await self.aredis.sadd(LIVE_SET, *unfinished)
            ticks += 1
            await self._guarded(self._tick_once())
            # until the next tick, a request that found an owner unreachable asks for a sweep at
            # once (not in a busy loop: WAKE_GAP)
            next_tick = loop.time() + TICK
            while (left := next_tick - loop.time()) > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), left)
                if self._wake.is_set():
                    self._wake.clear()
                    await self._guarded(self._sweep_now())
                    await asyncio.sleep(WAKE_GAP)

    async def _guarded(self, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("process %s: the ownership tick failed", self.pid)

    async def _heartbeat(self) -> None:
        """Tell the renewer thread that the event loop runs (however slow its work is)."""
        while True:
            self._loop_seen = time.monotonic()
            await asyncio.sleep(TICK)

    async def _tick_once(self) -> None:
        started = time.perf_counter()
        await self._summaries()
        await self._sweep_now()
        if self.on_round_trip is not None:
            self.on_round_trip("tick", time.perf_counter() - started)

    async def _sweep_now(self) -> None:
        gone: dict[str, bool] = {}  # process -> gone, asked of Redis once for the sweep and the drops
        await self._sweep(gone)
        await self._drop_dead(gone)

    async def _gone(self, pids: set[str], known: dict[str, bool]) -> set[str]:
        """The processes among ``pids`` that are gone (:func:`processes_gone`), asking Redis only
        about those not in ``known``, which is filled in."""
        ask = pids - known.keys()
        found = await processes_gone(self.aredis, ask)
        known.update((p, p in found) for p in ask)
        return {p for p in pids if known[p]}

    def _renew_leases(self) -> None:
        """The renewer thread: this process's leases and its ``alive`` key, every :data:`TICK`.

        A thread, so that a event loop held up by a slow database call (seconds, on a loaded
        machine) does not lose its tables; but only while the loop still ticks now and then
        (:data:`LOOP_STALL`): a process that is stuck gives its tables up. SIGKILL ends the
        thread too, and the leases run out."""
        while not self._stopped.wait(TICK):
            if time.monotonic() - self._loop_seen > LOOP_STALL:
                log.warning("process %s: the event loop is stuck; its leases are left to run out", self.pid)
                continue
            try:
                # one step each under the GIL: copies the loop may change after
                owned = list(self.tables) + [t for t in list(self._loading) if t not in self.tables]
                # one round trip: the alive key and every lease
                started = time.perf_counter()
                lost = self._renew(keys=[lease_key(t) for t in owned], args=[self.pid, LEASE_MS, alive_key(self.pid)])
                if self.on_round_trip is not None:
                    self.on_round_trip("renew", time.perf_counter() - started)
                for i in lost:
                    table = owned[int(i) - 1]
                    if self._loop is not None:
                        self._loop.call_soon_threadsafe(self._lease_lost, table)
            except RedisError as exc:
                log.warning("process %s could not renew its leases: %s", self.pid, exc)

    def _lease_lost(self, table: str) -> None:
        self.spawn(self._lost(table))

    async def _lost(self, table: str) -> None:
        """Another process holds the lease of a table this one ran: stop it here; its sockets
        here close (1012) and reconnect to whoever owns it now."""
        session = self.tables.pop(table, None)
        log.warning("process %s lost the lease of table %s", self.pid, table)
        if self.on_let_go is not None:
            self.on_let_go([table])
        self.owners.pop(table, None)
        self._written.pop(table, None)
        self._seen.pop(table, None)
        if session is not None:
            await session.stop()
        self.cluster_hub.forget(table)
        for conn in self.cluster_hub.local(table):
            conn.close(1012)

    async def _summaries(self) -> None:
        """Keep every owned table's lobby summary in Redis; let finished tables nobody watches go."""
        finished: list[str] = []
        over: list[str] = []
        changed: dict[str, bytes] = {}
        live: list[str] = []
        self._summary_rounds += 1
        every = self._summary_rounds % SUMMARY_AGAIN == 0
        versions = self._summary_rounds % VERSION_AGAIN == 0
        for t, session in list(self.tables.items()):
            if session.status not in LIVE:
                over.append(t)
                if not self.hub.listeners(t) and not session.writing:  # its end stored: let it go
                    finished.append(t)
                    continue
            # a summary is built and encoded only when what it shows changed (every table's,
            # every tick, was a tenth of a process's CPU at 400 seats); all of them now and then
            key = summary_key(session)
            seen = self._seen.get(t)
            if not every and seen is not None and (seen == key or (not versions and seen[1:] == key[1:])):
                continue
            self._seen[t] = key
            text = encode(session.summary()).encode()
            if self._written.get(t) != text:
                self._written[t] = changed[t] = text
                if session.status in LIVE:
                    live.append(t)  # again: a Redis that restarted forgot it
        # three commands a tick, not two a table: redis-py packs each command in Python
        pipe = self.aredis.pipeline(transaction=False)
        if over:
            pipe.srem(LIVE_SET, *over)
        if changed:
            pipe.hset(SUMMARIES, mapping=changed)  # type: ignore[arg-type]  # bytes values are sent as they are
        if live:
            pipe.sadd(LIVE_SET, *live)
        if over or changed or live:
            await pipe.execute()
        # the leases go back before the sessions: meanwhile a request still finds them here
        await self._let_go_soon(finished)
        for t in finished:
            if self.tables.get(t) is not None and self.tables[t].status not in LIVE:
                del self.tables[t]

    async def _sweep(self, known: dict[str, bool]) -> None:
        """Take over the live tables nobody owns: their lease lapsed, or their owner is gone."""
        found, others = await self._look(keys=[LIVE_SET], args=[self.pid, lease_key("")])
        gone = await self._gone({_text(o) or "" for o in others}, known)
        if gone:  # and the tables of the processes found gone
            found, _ = await self._look(keys=[LIVE_SET], args=[self.pid, lease_key(""), *sorted(gone)])
        pairs = [(_text(found[i]) or "", _text(found[i + 1]) or "") for i in range(0, len(found), 2)]
        free = [(t, o) for t, o in pairs if t not in self.tables and t not in self._loading]
        if not free:
            return
        if gone:
            log.warning("process %s: process %s is gone; taking over its tables", self.pid, ", ".join(sorted(gone)))
            # and its sockets stop counting against the caps of their addresses now (limits.py)
            await self.aredis.delete(*(alive_key(p) for p in gone))
        # one round trip, and only where the owner is still the one seen here (a lease renewed
        # or taken by another process meanwhile stays theirs)
        won = await self._take(keys=[lease_key(t) for t, _ in free], args=[self.pid, LEASE_MS, *(o for _, o in free)])
        taken = [free[int(i) - 1][0] for i in won]
        for t in taken:
            self.owners[t] = self.pid
        # loaded after their leases were taken, in batches side by side in worker threads; the
        # tick does not wait for them (the leases are renewed meanwhile, see _renew_leases)
        self._load_taken(taken)

    async def _drop_dead(self, known: dict[str, bool]) -> None:
        """Connections held by a process that died count as lost (grace time, then a stand-in)."""
        others = self.cluster_hub.remote_pids() - {self.pid}
        gone = await self._gone(others, known)
        for pid in others:
            if pid not in gone and await self.aredis.exists(alive_key(pid)):
                continue
            for table, conn in self.cluster_hub.drop_process(pid):
                session = self.tables.get(table)
                if session is not None:
                    session.detach(conn)
                else:
                    self.cluster_hub.unsubscribe(table, conn)


def summary_key(session: TableSession) -> tuple[Any, ...]:
    """What a table's lobby summary shows that changes while it runs (its moves first, then its
    status, next table, the seats' people, presence, stand-ins and who is away): the summary is
    built again when this differs (when only the moves differ, every :data:`VERSION_AGAIN` ticks)."""
    row = session.row
    return (
        session.version,
        row.status,
        row.next_id,
        tuple((c.presence, c.stand_in) for c in session.state.seats),
        tuple((s.name, s.kind, s.bot, s.taken) for s in row.seats),
        tuple((d.seat, d.due) for d in session.state.away),
    )


def _decode_summary(raw: bytes | str) -> TableSummary | None:
    """A summary as an owner wrote it to Redis (None: not one, as another version wrote it)."""
    try:
        return msgspec.json.decode(raw, type=TableSummary)
    except msgspec.ValidationError:
        return None
