"""A table run by this process: its runner, and the :class:`~.handle.TableHandle` of it (the
proxy of a table another process owns is :class:`~.ownership.RemoteTable`).

:class:`TableSession` turns everything that happens to its table into commands for the one step
(table/step.py): ws → handle → runner → step → store → publish. It alone carries out what the
step asks: the order (a move's command is stepped once the move before it is stored and
published: the table's lock), the writes (into the store's batch of this tick of the event loop;
a fenced one awaited by the commit's callback, without a task), the hub (each seat's frame built
when the hub asks: table/frames.py) and, through the runner's core it shares with the offline
runner (table/runner.py), the timers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec

from mauseloch.extras import needs
from mauseloch.server import warmup
from mauseloch.server.clock import wall
from mauseloch.server.hub import Connection, Hub
from mauseloch.server.protocol import ErrorCode, ProtocolError, Refusal, TableSummary
from mauseloch.server.seats import BotSeat, Controller
from mauseloch.server.storage.plans import BoundWrite
from mauseloch.server.storage.rows import DeadlinesRow, GoneRow, MoveRow, StatusRow, TableRow, Write
from mauseloch.server.storage.store import Store
from mauseloch.server.table import commands as c
from mauseloch.server.table import frames
from mauseloch.server.table.runner import Runner
from mauseloch.server.table.state import LIVE, TableState
from mauseloch.server.table.step import step

with needs("web", __name__):
    from sqlalchemy.exc import IntegrityError, SQLAlchemyError

if TYPE_CHECKING:  # prometheus-client: imported only by serve --metrics
    from mauseloch.server.metrics import Metrics

__all__ = ["LIVE", "Settings", "TableSession"]

log = logging.getLogger("mauseloch.server")
T = TypeVar("T")
After = Callable[[], None] | None  # run when a serial command is done, before the next one
Tell = Callable[[str, c.Tell], object]  # the table's id, who is told what


@dataclass
class Settings:
    """Server-wide knobs: ``bot_delay`` replaces the bots' pause; ``clock_scale`` multiplies every
    clock and grace time (tests and benchmarks run them fast); ``metrics``: the figures counted
    (metrics.py; None: none are); ``tell``: who pushes what the steps ask to be told."""

    bot_delay: float | None = None
    clock_scale: float = 1.0
    metrics: Metrics | None = None
    tell: Tell | None = None  # pushes a seat's devices (server/push/sender.py; None: no pushes)


class TableSession(Runner):
    """The one authority over a table while this process runs it (see the module docstring)."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        hub: Hub,
        settings: Settings,
        on_rematch: Callable[[TableSession], None] | None = None,
        before_move: Callable[[TableSession], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(TableState.of(row, now=wall(), scale=settings.clock_scale, bot_delay=settings.bot_delay))
        self.store = store
        self.hub = hub
        self.on_rematch = on_rematch  # the lobby deals the next table (a rematch, a match's next deal)
        # awaited before a person's move at a table still waiting (ownership.py: seats taken
        # through another process are read from the store first)
        self.before_move = before_move
        self.busy = False  # a serial command is under way (its move being stored)
        self._queue: deque[tuple[c.Command, asyncio.Future[None] | None, After]] = deque()
        self._draining = False
        self._last: asyncio.Future[None] | None = None  # the table's latest write
        self.metrics = settings.metrics
        self.tell = settings.tell
        self._mover = 0  # the seat of the move last sent to the store: its update tells who played
        self._warming: asyncio.Task[None] | None = None  # a compiled bot's turn waiting for warmup.py
        self._store_as: dict[type[Write], BoundWrite[Store, ..., None]] = {
            MoveRow: store.add_move, StatusRow: store.set_status,
            DeadlinesRow: store.set_deadlines, GoneRow: store.set_gone,
        }  # fmt: skip

    # -- facts (TableHandle) -----------------------------------------------------------
    @property
    def row(self) -> TableRow:
        return self.state.row

    @property
    def id(self) -> str:
        return self.state.row.id

    @property
    def status(self) -> str:
        return self.state.row.status

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def stopping(self) -> bool:
        return self.state.stopping

    @property
    def paused(self) -> bool:
        return self.state.paused

    @property
    def seats(self) -> list[Controller]:
        """The seats' controllers (the metrics count the stand-ins among them)."""
        return self.state.seats

    @property
    def writing(self) -> bool:
        return self._last is not None and not self._last.done()

    def summary(self) -> TableSummary:
        return frames.summary(self.state)

    def snapshot(self, seat: int | None) -> str:
        return frames.snapshot(self.state, seat, wall())

    def error(self, code: ErrorCode, message: str, refusal: Refusal | None = None) -> str:
        return frames.error(self.state, code, message, refusal)

    def pong(self) -> str:
        return frames.pong(self.state)

    # -- what a connection and the lobby do (TableHandle) --------------------------------------
    def attach(self, conn: Connection) -> None:
        self.run(c.Attach(seat=conn.seat, now=wall()))
        self.hub.subscribe(self.id, conn)
        conn.send(self.snapshot(conn.seat))
        if self.reactions is not None:
            self.reactions.attach(conn)

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        self.hub.unsubscribe(self.id, conn)
        if self.reactions is not None:
            self.reactions.detach(conn)
        self.run(c.Detach(seat=conn.seat, left=left, everywhere=everywhere, now=wall()))

    async def resync(self, conn: Connection) -> None:
        conn.send(self.snapshot(conn.seat))

    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        if self.before_move is not None and self.state.row.status == "waiting":
            await self.before_move(self)
        await self.submit(c.Move(seat=seat, move=move, version=version, ms=ms, again=again, now=wall()))

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        # judged by when it came, not when the table got to it: a slow write ahead of it in the
        # table's turn would otherwise count as the player's time
        arrived = None if self.reactions is None else self.reactions.now()

        def claim() -> None:  # judged by the window with the link of the connection it came on
            assert self.reactions is not None
            self.reactions.claim(conn, move, version, ms, arrived)

        await self.submit(c.React(now=wall()), claim)

    def clock_answer(self, conn: Connection, n: int, t: float) -> None:
        if self.reactions is not None:
            self.reactions.answer(conn, n, t)

    def vote_rematch(self, seat: int | None) -> None:
        self.run(c.Vote(seat=seat, now=wall()))

    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        self.run(c.Pace(seat=seat, paused=paused, speed=speed, now=wall()))

    async def away(self, seat: int | None, days: int) -> None:
        self.run(c.Away(seat=seat, days=days, now=wall()))

    def emote(self, seat: int | None, emote: str) -> None:
        self.run(c.Emote(seat=seat, emote=emote, now=wall()))

    def seat_taken(self, seat: int) -> None:
        self.run(c.SeatTaken(seat=seat, now=wall()))

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store after this table's earlier writes (the store keeps the
        order of its hot writes; anything else waits for them)."""
        if isinstance(fn, BoundWrite) and self.store.writes.usable():
            sent = self._last = self.store.send(fn, *args)
            try:
                await sent
            except Exception as exc:
                return fn.answer(exc)  # take_seat: False when someone was first
            return fn.answer(None)
        await self.flush()
        return await self.store.call(fn, *args)

    def start(self) -> None:
        """Arm the deadlines and let whoever is to move move (needs the running event loop)."""
        if not self.state.started:
            self.timers.start()
            self.run(c.Start(now=wall()))

    async def stop(self) -> None:
        """After the move being stored: the clocks, bots and windows stop (deadlines stay stored)."""
        await self.submit(c.Stop(now=wall()))
        self.timers.stop()
        if self.reactions is not None:
            self.reactions.stop()
        await self.flush()

    async def expire(self) -> None:
        await self.submit(c.Expire(now=wall()))

    async def flush(self) -> None:
        """Until every write sent so far is done (the store keeps a table's writes in order)."""
        last = self._last
        if last is not None and not last.done():
            await asyncio.wait([last])

    # -- the runner --------------------------------------------------------------------
    def run(self, command: c.Command) -> None:
        """Step ``command`` now, whatever is under way; raises :class:`ProtocolError` if refused."""
        out = step(self.state, command)
        self._send(out.writes)
        self.effects(out)
        if out.error is not None:
            raise out.error

    async def submit(self, command: c.Command, after: After = None) -> None:
        """Step a serial ``command`` after those before it; returns once what it played is stored
        and published (raises what it was refused with). The work goes on if the caller is
        cancelled: a stored move is always played and announced."""
        done = asyncio.get_running_loop().create_future()
        self.serial(command, done, after)
        await done

    def serial(self, command: c.Command, done: asyncio.Future[None] | None = None, after: After = None) -> None:
        """Step ``command`` once the move before it is stored and published (a timer's: nobody waits)."""
        if self.busy:
            self._queue.append((command, done, after))
        else:
            self.busy = True
            self._step_on(command, done, after)

    def _step_on(self, command: c.Command, done: asyncio.Future[None] | None, after: After) -> None:
        try:
            out = step(self.state, command)
        except BaseException as exc:
            self._end(done, exc)
            return
        self._go(out, done, after)

    def _go(self, out: c.Outcome, done: asyncio.Future[None] | None, after: After) -> None:
        exc: BaseException | None = None
        try:
            fenced = self._send(out.writes, out.fence) if out.writes else None
            if out.fence:  # stored before anything more: the commit's callback steps on
                assert fenced is not None
                fenced.add_done_callback(functools.partial(self._stored, done, after))
                return
            self.effects(out)
            if out.reload:  # another writer was first: the table as the store holds it
                asyncio.get_running_loop().create_task(self._reload(done, after))
                return
            exc = out.error
            if exc is None and after is not None:
                after()
        except BaseException as error:
            exc = error
        self._end(done, exc)

    def _stored(self, done: asyncio.Future[None] | None, after: After, sent: asyncio.Future[None]) -> None:
        exc = asyncio.CancelledError() if sent.cancelled() else sent.exception()
        failed: Literal["stale", "error"] | None = None
        if exc is not None:
            failed = "stale" if isinstance(exc, IntegrityError) else "error"
        if failed == "error":
            log.error("a write of table %s at version %s could not be stored", self.id, self.version, exc_info=exc)
        self._step_on(c.Committed(failed=failed, now=wall()), done, after)

    async def _reload(self, done: asyncio.Future[None] | None, after: After) -> None:
        try:
            row = await self.store.call(self.store.load_table, self.id)
        except Exception:
            log.exception("table %s could not be read again", self.id)
            row = None
        self._step_on(c.Reloaded(row=row, now=wall()), done, after)

    def _end(self, done: asyncio.Future[None] | None, exc: BaseException | None) -> None:
        """A serial command is done: its sender answered, the next one begins."""
        self.busy = False
        if done is None:
            if exc is not None and not isinstance(exc, ProtocolError):
                log.error("table %s: work failed", self.id, exc_info=exc)
        elif not done.done():  # its sender may have gone: the work stood all the same
            if exc is None:
                done.set_result(None)
            else:
                done.set_exception(exc)
        if self._draining:
            return
        self._draining = True
        try:
            while not self.busy and self._queue:
                self.serial(*self._queue.popleft())
        finally:
            self._draining = False

    def _send(self, writes: list[Write], fence: bool = False) -> asyncio.Future[None] | None:
        """The writes into this tick's batch, in order; the future of the last one (with
        ``fence``, the step hears of its failure: it is not logged here)."""
        sent = None
        for i, w in enumerate(writes):
            if type(w) is MoveRow:
                self._mover = w.seat
            fn, args = self._store_as[type(w)], msgspec.structs.astuple(w)
            try:
                sent = self.store.send(fn, *args)
            except RuntimeError:  # no event loop (a tool, a test): at once
                try:
                    fn(*args)
                except SQLAlchemyError:
                    log.exception("a write of table %s could not be stored", self.id)
                continue
            if not (fence and i == len(writes) - 1):
                sent.add_done_callback(self._written)
            self._last = sent
        return sent

    def _written(self, sent: asyncio.Future[None]) -> None:
        exc = None if sent.cancelled() else sent.exception()
        if exc is not None:
            log.error("a write of table %s could not be stored", self.id, exc_info=exc)

    def publish(self, out: c.Outcome) -> None:
        s = self.state
        if out.next_table and self.on_rematch is not None:
            self.on_rematch(self)
        if out.close_seat is not None:
            self.hub.close_seat(s.id, out.close_seat, 1000)
        if out.frames:
            now = wall()
            for frame in out.frames:
                self.hub.publish(s.id, s.version, frames.message_for(s, frame, now))
                if self.metrics is not None and type(frame) is c.UpdateOf:
                    by_bot = frame.by is None and isinstance(s.seats[self._mover], BotSeat)
                    self.metrics.played(s.row.game, "bot" if by_bot else frame.by)
        if self.tell is not None:
            for tell in out.tell:
                self.tell(s.id, tell)

    # -- timers ------------------------------------------------------------------------
    def bot_due(self, version: int) -> None:
        s = self.state
        seat = s.game.to_move
        mover = s.seats[seat].mover() if seat is not None else None
        if isinstance(mover, BotSeat) and warmup.waits(s.row.game, mover.row.bot):
            # its compiled code is still being made ready (warmup.py): it moves after that, in a
            # task of its own; the event loop never waits for it
            self._warming = asyncio.get_running_loop().create_task(self._bot_due_warm(version))
            return
        super().bot_due(version)

    async def _bot_due_warm(self, version: int) -> None:
        await warmup.ready()
        super().bot_due(version)
