"""One table's authority while this server runs it: the parts of a table, composed, and what each
seat is sent.

:class:`TableSession` implements :class:`~.handle.TableHandle` for a table owned here (the proxy
of one owned elsewhere is :class:`~.ownership.RemoteTable`). It holds the table's state — its
stored row, the game replayed from it, ``version`` (moves played) and ``seq`` (events logged),
the seats, the deadlines and the lock every change happens under — and hands each concern to a
part of its own (server/table/):

- ``moves``: a move checked, written ahead (fenced by ``(table, version)``), played, published;
- ``presence``: connections coming and going, grace times, seats taken, a table closing;
- ``pause``: the people seated pause the table and set the bots' pace;
- ``bots``: the bot or stand-in to move moves after its pause;
- ``clock``: who moves next and when, and what happens when a deadline is due;
- ``rematch``: rematch votes and a match's next deal;
- ``writes``: the table's writes to the store, in order.

The parts see the table through the narrow :class:`~.table.host.Table` protocol, which this
class implements. What a seat may see is decided here, in one place: :meth:`snapshot` and the
updates ask the engine for the seat's view and redact events with :func:`mauseloch.event_for`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

from mauseloch import event_for
from mauseloch.core.events import OWNER
from mauseloch.core.registry import game_info
from mauseloch.core.shapes import JSONObject
from mauseloch.server.clock import Deadlines, wall
from mauseloch.server.family import deal_ended, match_state
from mauseloch.server.hub import Connection, Hub
from mauseloch.server.protocol import (
    ErrorCode,
    ErrorMsg,
    Pong,
    PresenceMsg,
    Refusal,
    Snapshot,
    UpdateFrame,
    encode,
    encode_raw,
)
from mauseloch.server.reactions import Reactions
from mauseloch.server.seats import STAND_IN, Controller, Person, controllers
from mauseloch.server.storage.rows import TableRow
from mauseloch.server.storage.store import Store
from mauseloch.server.table.bots import Bots
from mauseloch.server.table.deadlines import Timekeeper
from mauseloch.server.table.host import LIVE, Windows
from mauseloch.server.table.moves import Moves, refusals
from mauseloch.server.table.pause import Pace, Pause
from mauseloch.server.table.presence import Presence
from mauseloch.server.table.records import build
from mauseloch.server.table.rematch import Rematch
from mauseloch.server.table.summary import table_summary
from mauseloch.server.table.writes import WriteQueue

__all__ = ["LIVE", "Settings", "TableSession"]

SNAPSHOT_EVENTS = 50
T = TypeVar("T")


@dataclass
class Settings:
    """Server-wide knobs: ``bot_delay`` replaces the bots' pause; ``clock_scale`` multiplies every
    clock and grace time (tests and benchmarks run them fast)."""

    bot_delay: float | None = None
    clock_scale: float = 1.0


class TableSession:
    """The one authority over a table while this server runs it."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        hub: Hub,
        settings: Settings,
        on_rematch: Callable[[TableSession], None] | None = None,
        before_move: Callable[[TableSession], Awaitable[None]] | None = None,
    ) -> None:
        self.row = row
        self.store = store
        self.hub = hub
        self.settings = settings
        self.on_rematch = on_rematch
        # awaited before a person's move at a table still waiting (ownership.py: seats taken
        # through another process are read from the store first)
        self.before_move = before_move
        self.game, self.events = build(row)
        self.version = len(row.moves)
        self.seq = len(self.events)
        self.seats: list[Controller] = controllers(row.game, row.seed, row.seats)
        self.lock = asyncio.Lock()  # held while anything at the table changes
        self.stopping = False
        self.started = False
        self.writes = WriteQueue(store, row.id)
        self.moves = Moves(self)
        self.presence = Presence(self)
        self.pause = Pause(self)
        self.bots = Bots(self)
        self.clock = Timekeeper(self)
        self.rematch = Rematch(self)
        self.deadlines = Deadlines(self.clock.due, settings.clock_scale)
        self.deadlines.load(row.deadlines, started=wall())
        for d in self.deadlines:
            if d.kind == "grace" and d.seat is not None and isinstance(self.seats[d.seat], Person):
                self.seats[d.seat].grace_pending = True
        # a reaction game's windows, driven with this server's clock (reactions.py)
        self.reactions: Windows | None = Reactions(self) if game_info(row.game).dynamics == "reactions" else None

    # -- facts -------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    def person(self, seat: int) -> Person | None:
        ctl = self.seats[seat]
        return ctl if isinstance(ctl, Person) else None

    def present(self) -> list[int]:
        """The seats of the people connected now: a pause needs each of them."""
        return [c.row.seat for c in self.seats if isinstance(c, Person) and c.row.taken and c.conns > 0]

    def window_open(self) -> bool:
        return not self.game.is_over and self.game.to_move is None

    @property
    def paused(self) -> bool:
        return self.pause.paused

    @property
    def paused_by(self) -> int | None:
        return self.pause.by

    @property
    def pace(self) -> Pace:
        return self.pause.pace

    @property
    def speed(self) -> float:
        return self.pause.speed

    @property
    def bot_delay(self) -> float | None:
        return self.settings.bot_delay

    @property
    def bot_due(self) -> float | None:
        return self.bots.due

    @property
    def bot_task(self) -> asyncio.Task[None] | None:
        return self.bots.task

    # -- what everyone sees -----------------------------------------------------------------
    def summary(self) -> JSONObject:
        return table_summary(self.row, self.version, [(c.presence, c.stand_in) for c in self.seats])

    def live(self) -> JSONObject:
        """What changes without a move: presence, stand-ins, the running clock, rematch votes."""
        deadline: JSONObject | None = None
        seat = self.game.to_move
        turn = self.deadlines.get("turn")
        bot_due = self.bots.due
        if self.row.status == "playing" and not self.game.is_over and seat is not None and self.paused:
            # the frozen clock with the seconds it has left (a reaction game's countdown just waits)
            if self.reactions is None and turn is not None and turn.version == self.version and turn.left is not None:
                deadline = {"seat": seat, "kind": "turn", "left": round(turn.left, 3)}
        elif self.row.status == "playing" and not self.game.is_over and seat is not None:
            if self.reactions is not None:  # the countdown to the next card, whoever turns it
                due = turn.due if turn is not None and turn.version == self.version else bot_due
                if due is not None:
                    deadline = {"seat": seat, "kind": "reveal", "due": round(due, 3)}
            elif self.seats[seat].stand_in and bot_due is not None:
                deadline = {"seat": seat, "kind": STAND_IN, "due": round(bot_due, 3)}
            elif turn is not None and turn.version == self.version:
                deadline = {"seat": seat, "kind": "turn", "due": round(turn.due, 3)}
        return {
            "status": self.row.status,
            "seats": [{"presence": c.presence, "stand_in": c.stand_in} for c in self.seats],
            "deadline": deadline,
            "rematch": sorted(self.rematch.votes),
            "next": self.row.next_id,
            "match": match_state(self.row),
            "pace": self.pause.pace,
            "pause": self.pause.state(),
            "now": round(wall(), 3),
        }

    # -- the one place that decides what a seat sees ----------------------------------------
    def _events_for(self, events: list[JSONObject], seat: int | None) -> list[JSONObject]:
        return [e for e in (event_for(ev, seat) for ev in events) if e is not None]

    def snapshot(self, seat: int | None) -> str:
        return encode(
            Snapshot(
                version=self.version,
                seq=self.seq,
                seat=seat,
                view=self.game.view(seat),
                refused=refusals(self.game, seat),
                events=self._events_for(self.events[-SNAPSHOT_EVENTS:], seat),
                table=self.summary(),
                live=self.live(),
            )
        )

    def _update_for(self, new: list[JSONObject], by: str | None) -> Callable[[int | None], str]:
        """Each seat's update of this version; the hub asks once per seat that listens, while it
        publishes (nothing is built for a table nobody watches: a game of bots, say)."""
        game, version, seq = self.game, self.version, self.seq
        live: list[msgspec.Raw] = []  # the same in every seat's frame: encoded once, when first asked
        private = any(OWNER in e for e in new)

        def message(seat: int | None) -> str:
            if not live:
                live.append(encode_raw(self.live()))
            return encode(
                UpdateFrame(
                    version=version,
                    seq=seq,
                    view=game.typed_view(seat),
                    events=self._events_for(new, seat) if private else new,
                    by=by,
                    live=live[0],
                    refused=refusals(game, seat),
                )
            )

        return message

    def error(self, code: ErrorCode, message: str, refusal: Refusal | None = None) -> str:
        return encode(ErrorMsg(version=self.version, seq=self.seq, code=code, message=message, refusal=refusal))

    def pong(self) -> str:
        return encode(Pong(version=self.version, seq=self.seq))

    def publish_live(self) -> None:
        texts: list[str] = []  # built when the hub first asks: nobody listening, nothing built

        def message(seat: int | None) -> str:
            if not texts:
                texts.append(encode(PresenceMsg(version=self.version, seq=self.seq, live=self.live())))
            return texts[0]

        self.hub.publish(self.id, self.version, message)

    def publish_snapshots(self) -> None:
        self.hub.publish(self.id, self.version, self.snapshot)

    def publish_update(self, new: list[JSONObject], by: str | None) -> None:
        self.hub.publish(self.id, self.version, self._update_for(new, by))

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> None:
        """Arm the deadlines and let whoever is to move move (needs the running event loop)."""
        if self.started:
            return
        self.started = True
        self.moves.restored()
        self.presence.restarted()
        self.deadlines.start()
        self.schedule()
        if self.reactions is not None and self.row.status == "playing" and self.window_open():
            self.reactions.opened()  # restored with a card shown: shown again, judged afresh

    async def stop(self) -> None:
        """Cancel the bots once no move is half done; the deadlines stay stored."""
        async with self.lock:  # a move being stored finishes first
            self.stopping = True
            self.deadlines.stop()
            if self.reactions is not None:
                self.reactions.stop()
            task = self.bots.stop()
            if task is not None:
                task.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.flush()

    async def expire(self) -> None:
        await self.presence.expire()

    # -- writes to the store, in order ---------------------------------------------------------
    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.writes.write(fn, *args)

    def write_later(self, what: str, fn: Callable[..., Any], *args: Any) -> None:
        self.writes.write_later(what, fn, *args)

    @property
    def writing(self) -> bool:
        return self.writes.writing

    async def flush(self) -> None:
        await self.writes.flush()

    # -- what a connection does (TableHandle) --------------------------------------------------
    def attach(self, conn: Connection) -> None:
        self.presence.attach(conn)

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        self.presence.detach(conn, left=left, everywhere=everywhere)

    async def resync(self, conn: Connection) -> None:
        """A fresh snapshot for ``conn`` (its client missed something)."""
        conn.send(self.snapshot(conn.seat))

    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        if self.before_move is not None and self.row.status == "waiting":
            await self.before_move(self)
        await self.moves.apply(seat, move, version, ms, again=again)

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        await self.moves.react(conn, move, version, ms)

    def clock_answer(self, conn: Connection, n: int, t: float) -> None:
        """A page answered the clock ping ``n`` with its clock ``t`` (reaction games only)."""
        if self.reactions is not None:
            self.reactions.answer(conn, n, t)

    def vote_rematch(self, seat: int | None) -> None:
        self.rematch.vote(seat)

    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        self.pause.set_pace(seat, paused, speed)

    def seat_taken(self, seat: int) -> None:
        self.presence.seat_taken(seat)

    # -- what the parts ask of each other (table/host.py) ---------------------------------------
    def schedule(self) -> None:
        self.clock.schedule()

    def save_deadlines(self) -> None:
        self.clock.save()

    def freeze(self) -> None:
        self.pause.freeze()

    def presence_changed(self) -> None:
        self.pause.presence_changed()

    def game_over(self) -> None:
        self.pause.game_over()
        deal_ended(self)  # a match goes on with its next deal

    def check_rematch(self) -> None:
        self.rematch.check()

    def next_table(self) -> None:
        if self.on_rematch is None:
            return
        self.on_rematch(self)
        self.publish_live()

    def gone(self, seat: int) -> None:
        self.presence.gone(seat)

    def close(self, why: str, status: str = "closed") -> None:
        self.presence.close(why, status)

    async def play(
        self,
        seat: int,
        move: str,
        by: str | None,
        ms: int | None = None,
        referee: JSONObject | None = None,
        play: Callable[[], Any] | None = None,
    ) -> None:
        await self.moves.play(seat, move, by, ms, referee, play)

    async def play_decided(
        self, seat: int, move: str, by: str | None, ms: int, referee: JSONObject, play: Callable[[], Any]
    ) -> None:
        """Store a reaction window's decision with its log, then ``play`` it (the referee's commit);
        called by reactions.py with the lock held."""
        await self.moves.play(seat, move, by, ms, referee=referee, play=play)

    async def bot_play(self, seat: int, ctl: Controller, due: float | None) -> None:
        await self.bots.play(seat, ctl, due)

    def start_bot(self) -> None:
        self.bots.start()

    def clear_bot_due(self) -> None:
        self.bots.due = None
