"""The queue pushes go out from: a move never waits for a push service.

:meth:`Pusher.tell` only puts a job on a bounded queue (full: the job is dropped and counted);
a few worker tasks look up the seat's subscriptions, encrypt the words for each (RFC 8291
aes128gcm, by pywebpush) and post them, signed with the server's VAPID key. A service that
refuses for now (429, 5xx) or does not answer in time is tried again later with a growing
back-off, a bounded number of times; the job is stored meanwhile (``ml_push_pending``), so a
restart sends it still, and so does the process that takes a table over from another (the
owner sends a table's pushes: :meth:`Pusher.adopt`, :meth:`Pusher.let_go`). A subscription
its service says is gone (404, 410) is removed. The endpoint URL is a capability: it is never
logged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import msgspec

from mauseloch.extras import needs
from mauseloch.server.protocol import TableSummary
from mauseloch.server.push.store import PushStore, Subscription
from mauseloch.server.push.words import Kind, payload
from mauseloch.server.storage.store import Store
from mauseloch.server.table.commands import Tell

with needs("web", __name__):
    import aiohttp
    from py_vapid import Vapid02 as Vapid
    from pywebpush import WebPushException, webpush_async

if TYPE_CHECKING:
    from mauseloch.server.metrics import Metrics

log = logging.getLogger("mauseloch.server.push")

QUEUE = 10_000  # jobs waiting at once; more are dropped (and counted as failed)
WORKERS = 8  # pushes under way at once
TIMEOUT = 10.0  # seconds a push service has to answer
TRIES = 5  # sends of one push before it is given up
KEPT = 100_000  # tables whose subscribed seats are kept at most (see Pusher.subscribed)
BACKOFF = 2.0  # seconds before the first retry; doubled each time
TTL = 24 * 3600  # how long a push service keeps a push for a device that is off
SIGNED_FOR = 12 * 3600  # seconds a VAPID signature is good for (RFC 8292: at most 24 hours)
GONE = (404, 410)
RETRY = (429, 500, 502, 503, 504)


class Job(msgspec.Struct):
    table_id: str
    seat: int
    kind: Kind
    left: float = 0.0  # seconds left (a reminder)
    at: float = 0.0  # sent from then on (epoch seconds)
    version: int = -1  # sent only if the seat is still to move at this version (-1: whatever)
    pending: int | None = None  # its row in ml_push_pending once stored
    tries: int = 0
    only: str | None = None  # a retry: to this subscription (endpoint hash) only
    stops: int = 0  # the table's clock stops told before it (a reminder of a stop before is void)


Find = Callable[[str], Awaitable[TableSummary | None]]


class Pusher:
    """Sends the pushes of the tables this process runs (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        push: PushStore,
        vapid: Vapid,
        subject: str,
        find: Find,
        *,
        metrics: Metrics | None = None,
        size: int = QUEUE,
        workers: int = WORKERS,
        timeout: float = TIMEOUT,
        tries: int = TRIES,
        backoff: float = BACKOFF,
        alone: bool = True,
    ) -> None:
        self.store = store
        self.push = push
        self.vapid = vapid
        self.subject = subject
        self.find = find
        self.metrics = metrics
        self.timeout = timeout
        self.tries = tries
        self.backoff = backoff
        self.queue: asyncio.Queue[Job] = asyncio.Queue(size)
        self._workers = workers
        self._tasks: list[asyncio.Task[None]] = []
        self._later: dict[asyncio.TimerHandle, Job] = {}  # jobs waiting for their moment
        self._mine: set[int] = set()  # the stored jobs (ml_push_pending ids) this process will send
        self._gone: set[str] = set()  # tables handed to another process: their stored jobs are its
        self._storing: set[asyncio.Task[None]] = set()
        self._signatures: dict[str, tuple[dict[str, str], int]] = {}  # audience -> VAPID header, expiry
        self._session: aiohttp.ClientSession | None = None
        # table -> the seats some device asked for, kept between moves while this process is the
        # only one that takes subscriptions (``alone``): most seats never ask, and a look at the
        # store for each move's "your turn" cost more than the move. Several processes look each
        # time: a device may subscribe through any of them.
        self.alone = alone
        self.subscribed: dict[str, set[int]] = {}
        self._epoch = 0  # counts what made a kept set wrong: a look begun before it is not kept
        self._stops: dict[str, int] = {}  # table -> its clock's stops told (voids reminders told before)
        self.sent = 0  # pushes a service took (tests, the bench)

    # -- life --------------------------------------------------------------------------------
    async def start(self, tables: list[str] | None = None) -> None:
        """The workers, and the pushes a process before this one left pending (of ``tables``:
        those this process runs; None: all)."""
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        self._tasks = [asyncio.get_running_loop().create_task(self._work()) for _ in range(self._workers)]
        await self._load(tables)

    async def _load(self, tables: list[str] | None) -> None:
        for p in await self.store.call(self.push.pending, tables):
            if p.id in self._mine or p.table_id in self._gone:
                continue  # loaded already (a table taken over twice at once), or given away meanwhile
            kind: Kind = "end" if p.kind == "end" else "remind" if p.kind == "remind" else "turn"
            due = p.due if kind == "remind" else 0.0  # a retry: tried again at once after a restart
            self._at(Job(p.table_id, p.seat, kind, p.left, due, p.version, pending=p.id))

    def adopt(self, tables: list[str]) -> None:
        """This process runs ``tables`` now (taken over from another): it sends what they had
        pending (the process before stopped sending them when it let them go)."""
        self._gone.difference_update(tables)
        self._spawn(self._load(tables))

    def let_go(self, tables: list[str]) -> None:
        """Another process runs ``tables`` from now on and sends their stored pushes: none of
        them goes out from here any more (called before their leases are given back)."""
        gone = set(tables)
        self._gone |= gone
        for handle, job in list(self._later.items()):
            if job.table_id in gone:
                handle.cancel()
                del self._later[handle]
                self._mine.discard(job.pending or -1)
        for table_id in gone:
            self._stops.pop(table_id, None)

    async def stop(self) -> None:
        for task in self._storing:
            task.cancel()
        for handle in self._later:
            handle.cancel()
        self._later.clear()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if self._session is not None:
            await self._session.close()
            self._session = None

    # -- what the tables ask -------------------------------------------------------------------
    def tell(self, table_id: str, tell: Tell) -> bool:
        """Push what ``tell`` says to the devices of its seat (never waits; False: the queue is
        full). One for later (a reminder) is stored first, so that a restart sends it still."""
        kind = tell.kind
        if kind == "stop":
            return self._stop(table_id, tell.seat)
        if tell.at > time.time():  # for later: stored first
            task = asyncio.get_running_loop().create_task(self._store_later(self._job(table_id, tell, kind)))
            self._storing.add(task)
            task.add_done_callback(self._storing.discard)
            return True
        if not self.alone:  # several processes keep nothing: the worker looks
            return self._put(self._job(table_id, tell, kind))
        seats = self.subscribed.get(table_id)
        if kind == "end":  # the game is over: its end is told to every seat in one outcome
            self._ended(table_id)
        elif seats is None:
            self._spawn(self._put_if_asked(self._job(table_id, tell, kind)))
            return True
        if seats is not None and tell.seat not in seats:
            return True  # no device of the seat asked (most tables, every move): no job is made
        return self._put(self._job(table_id, tell, kind))

    def _job(self, table_id: str, tell: Tell, kind: Kind) -> Job:
        return Job(table_id, tell.seat, kind, tell.left, tell.at, tell.version, stops=self._stops.get(table_id, 0))

    def _stop(self, table_id: str, seat: int) -> bool:
        """The table's clock stopped: the reminders told so far are sent never (the step tells
        those of the time left again when the clock runs on), nor after a restart."""
        self._stops[table_id] = self._stops.get(table_id, 0) + 1
        self._spawn(self.store.call(self.push.drop_pending, table_id, seat, "remind"))
        return True

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def _store_later(self, job: Job) -> None:
        job.pending = await self.store.call(
            self.push.add_pending, job.table_id, job.seat, job.kind, job.at, job.left, job.version
        )
        self._at(job)

    def _at(self, job: Job) -> None:
        """``job`` goes on the queue at its moment (unless its table went to another process)."""
        if job.table_id in self._gone:
            return  # stored: the process running the table now sends it
        if job.pending is not None:
            self._mine.add(job.pending)
        delay = job.at - time.time()
        if delay <= 0:
            self._put(job)
        else:
            self._later[asyncio.get_running_loop().call_later(delay, self._due, job)] = job

    async def _put_if_asked(self, job: Job) -> None:
        """``job`` goes out if some device asked for its seat (one look at the store a table, kept)."""
        epoch = self._epoch
        seats = await self.store.call(self.push.subscribed, job.table_id)
        changed = epoch != self._epoch  # a device subscribed or went meanwhile: this look may be old
        if not changed:
            self._keep(job.table_id, seats)
        if job.seat in seats or changed:  # the worker looks at the store again before it sends
            self._put(job)

    def created(self, table_id: str) -> None:
        """A table this process made: no device asked for its seats yet (a device asks for the
        seats of running tables its browser holds, and :meth:`forget` follows), so its first
        move needs no look at the store."""
        if self.alone:
            self._keep(table_id, set())

    def _keep(self, table_id: str, seats: set[int]) -> None:
        if len(self.subscribed) >= KEPT:  # tables whose games never ended: start again
            self.subscribed.clear()
        self.subscribed[table_id] = seats

    def _ended(self, table_id: str) -> None:
        """The table's kept seats go once the end told now has been told to every seat (in the
        same outcome: before the event loop runs anything else)."""
        try:
            asyncio.get_running_loop().call_soon(self.subscribed.pop, table_id, None)
        except RuntimeError:  # no event loop (a tool): nothing else can come between
            self.subscribed.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        """A device subscribed or went for seats of ``table_id``: its kept set is wrong now."""
        self.subscribed.pop(table_id, None)
        self._epoch += 1

    def _put(self, job: Job) -> bool:
        try:
            self.queue.put_nowait(job)
        except asyncio.QueueFull:
            self._count("failed")
            return False
        return True

    def _count(self, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.pushed(outcome)

    # -- the workers -------------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            try:
                await self._send(job)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # its words only: a traceback could name the endpoint, a secret
                log.error("a push of table %s could not be sent: %s", job.table_id, type(exc).__name__)
            finally:
                self.queue.task_done()

    async def _send(self, job: Job) -> None:
        if job.pending is not None and job.pending not in self._mine:
            return  # its table went to another process while it waited in the queue: sent there
        subs = await self.store.call(self.push.subscriptions, job.table_id, job.seat)
        if job.only is not None:
            subs = [s for s in subs if s.key == job.only]
        table = await self.find(job.table_id) if subs else None
        if table is not None and job.version >= 0 and (table.version != job.version or table.status != "playing"):
            table = None  # the seat moved meanwhile (or the game ended): nothing to remind of
        again: list[Subscription] = []
        for sub in subs:
            if table is not None and not await self._post(sub, payload(table, job.kind, sub.lang, job.left)):
                again.append(sub)
        for sub in again if job.tries + 1 < self.tries else ():  # each on its own: the others have theirs
            at = time.time() + self.backoff * 2**job.tries
            pending = await self.store.call(
                self.push.add_pending, job.table_id, job.seat, job.kind, at, job.left, job.version
            )
            self._at(msgspec.structs.replace(job, tries=job.tries + 1, only=sub.key, pending=pending, at=at))
        if job.pending is not None:
            await self.store.call(self.push.done_pending, job.pending)
            self._mine.discard(job.pending)

    def _due(self, job: Job) -> None:
        now = asyncio.get_running_loop().time()
        self._later = {h: j for h, j in self._later.items() if h.when() > now}
        if job.kind == "remind" and job.stops < self._stops.get(job.table_id, 0):
            return  # told before the clock stopped (its stored row went with the stop)
        self._put(job)

    def _signed(self, endpoint: str) -> dict[str, str]:
        """The VAPID ``Authorization`` for ``endpoint``'s push service: one signature per service
        for :data:`SIGNED_FOR` seconds (an ECDSA signature a push costs more than its encryption)."""
        url = urlsplit(endpoint)
        aud = f"{url.scheme}://{url.netloc}"
        now = time.time()
        kept = self._signatures.get(aud)
        if kept is None or kept[1] - now < SIGNED_FOR / 2:
            exp = int(now + SIGNED_FOR)
            headers = self.vapid.sign({"sub": self.subject, "aud": aud, "exp": exp})
            kept = self._signatures[aud] = ({k: str(v) for k, v in headers.items()}, exp)
        return kept[0]

    async def _post(self, sub: Subscription, data: bytes) -> bool:
        """One push to one device; False: to be tried again."""
        try:
            await webpush_async(
                sub.info(),
                data=data.decode(),
                ttl=TTL,
                timeout=self.timeout,
                headers={**self._signed(sub.endpoint), "Urgency": "high"},
                aiohttp_session=self._session,
            )
        except WebPushException as exc:
            status = exc.response.status if exc.response is not None else 0
            if status in GONE:
                await self.store.call(self.push.unsubscribe, sub.key, None)
                self.subscribed.clear()
                self._epoch += 1
                self._count("gone")
                return True
            self._count("failed")
            if status in RETRY:
                return False
            log.warning("a push service refused a push with %s", status)  # not the endpoint: a secret
            return True
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            self._count("failed")
            log.info("a push service did not answer: %s", type(exc).__name__)
            return False
        self.sent += 1
        self._count("sent")
        return True
