"""A table run with no server and no store: one person against bots, as the offline page's Web
Worker runs it under Pyodide (and the tests under CPython).

It is the same table as a server's: the one step (table/step.py) decides everything, the frames
(table/frames.py) are the very texts a server's WebSocket sends to the person's seat, and the
page's messages are read by the server's own decoder (protocol.decode_client). The runner's
core is the server's too (table/runner.py: the timers, what an outcome asks); only the queue and
the writes differ from :class:`~.session.TableSession`: a write needs no store (the table's row,
which the step keeps, is the record), so a move written ahead is committed at once; the timers
run on the event loop there is (asyncio's, or Pyodide's in a browser, which waits with
``setTimeout``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import deque
from collections.abc import Callable
from typing import TypedDict

import msgspec

import mauseloch
from mauseloch.bots import bot_kinds
from mauseloch.core.registry import game_info
from mauseloch.core.shapes import OptionDict
from mauseloch.realtime.referee import WindowEntry
from mauseloch.server.clock import clock_choices, default_clock, wall
from mauseloch.server.hub import Connection
from mauseloch.server.match import following_row
from mauseloch.server.protocol import (
    ClockPong,
    ErrorCode,
    Hello,
    Leave,
    MoveMsg,
    PaceMsg,
    Ping,
    ProtocolError,
    ReactMsg,
    Rematch,
    Resync,
    TableSummary,
    decode_client,
)
from mauseloch.server.records import ReplayFrame, ServedRecord, build, record_of, replay_of
from mauseloch.server.seats import standin_kind
from mauseloch.server.storage.rows import SeatRow, TableRow
from mauseloch.server.table import commands as c
from mauseloch.server.table import frames
from mauseloch.server.table.runner import Runner
from mauseloch.server.table.state import TableState
from mauseloch.server.table.step import step

log = logging.getLogger("mauseloch.server")

SEAT = 0  # the person's seat; the bots take the others
OFFLINE_TOKEN = "offline"  # no secret: the person's seat counts as taken


def offline_row(
    table_id: str,
    game: str,
    bots: list[str],
    *,
    name: str,
    seed: int | None = None,
    options: OptionDict | None = None,
) -> TableRow:
    """A new table of ``game``: the person at seat 0, a bot of each kind in ``bots`` after them.
    An unknown game, bot kind, player count or option raises ``ValueError`` saying why."""
    info = game_info(game)
    kinds = bot_kinds(info.name)
    for kind in bots:
        if kind not in kinds or kind in info.seating.study_bots:
            raise ValueError(f"unknown bot {kind!r} for {info.name}; available: {', '.join(kinds)}")
    players = len(bots) + 1
    record = mauseloch.new_game(info.name, players=players, seed=seed, options=dict(options or {})).record()
    seats = [SeatRow(seat=SEAT, kind="human", name=name, token_hash=OFFLINE_TOKEN)]
    seats += [SeatRow(seat=i, kind="bot", name=f"{k.capitalize()} bot {i + 1}", bot=k) for i, k in enumerate(bots, 1)]
    return TableRow(
        id=table_id,
        game=info.name,
        title="",
        players=players,
        options=record["options"],
        seed=record["seed"],
        deck=record["deck"],
        status="playing",
        created=dt.datetime.now(dt.UTC),
        seats=seats,
        clock=default_clock(info.name),
    )


class PageReplay(TypedDict):
    """The offline replay page's data: the table's summary, its record and its frames (what the
    server's ``/api/tables/{id}`` and ``/api/tables/{id}/replay`` answer)."""

    table: TableSummary
    record: ServedRecord
    frames: list[ReplayFrame]


class Saved(msgspec.Struct, kw_only=True):
    """What the page keeps of an offline table to open it again (after a reload, offline): how
    it was set up and every move played so far; the rest follows from the seed."""

    id: str
    game: str
    bots: list[str] = msgspec.field(default_factory=list)  # none: the game's stand-in kind
    players: int = 0  # with no bots named: the seats, the person's included
    name: str
    seed: int
    options: OptionDict = msgspec.field(default_factory=dict)
    clock: str | None = None  # the turn clock's setting (server/clock.py); None: the game's default
    # the bots' pause and the clocks' factor, as `serve --bot-delay/--clock-scale` (tests, benchmarks)
    bot_delay: float | None = None
    scale: float = 1.0
    moves: list[list[object]] = msgspec.field(default_factory=list)
    by: list[str | None] = msgspec.field(default_factory=list)
    referee: dict[int, WindowEntry] = msgspec.field(default_factory=dict)
    status: str = "playing"
    record: ServedRecord | None = None  # once the game is over: its record, as the server keeps it
    next: str | None = None  # the table dealt after it (its rematch), once agreed


def saved(row: TableRow, *, bot_delay: float | None = None, scale: float = 1.0) -> Saved:
    bots = [s.bot or "" for s in row.seats if s.kind == "bot"]
    return Saved(id=row.id, game=row.game, bots=bots, name=row.seats[SEAT].name, seed=row.seed,
                 players=row.players, options=row.options, clock=row.clock, moves=row.moves, by=row.by,
                 referee=row.referee, status=row.status, bot_delay=bot_delay, scale=scale,
                 record=record_of(row) if row.status == "over" else None, next=row.next_id)  # fmt: skip


def restored(kept: Saved) -> TableRow:
    """The table ``kept`` describes, as it was (its moves are replayed by the table's state)."""
    bots = kept.bots or [standin_kind(kept.game)] * (kept.players - 1)
    row = offline_row(kept.id, kept.game, bots, name=kept.name, seed=kept.seed, options=kept.options)
    row.moves, row.by, row.referee = [list(m) for m in kept.moves], list(kept.by), dict(kept.referee)
    row.status, row.next_id = kept.status, kept.next
    if row.status == "over":  # its result, as the engine tells it
        row.result = build(row)[0].result()
    if kept.clock is not None:
        if kept.clock not in clock_choices(row.game):
            raise ValueError(f"unknown clock {kept.clock!r}; available: {', '.join(clock_choices(row.game))}")
        row.clock = kept.clock
    return row


class Page(Connection):
    """The page's one connection: what it is sent goes to ``post`` at once."""

    def __init__(self, post: Callable[[str], None]) -> None:
        super().__init__(seat=SEAT)
        self.post = post

    def send(self, text: str) -> None:
        if self.close_code is None:
            self.post(text)


class LocalTable(Runner):
    """One table, its person's page and its bots (see the module docstring). ``post(text)``
    delivers a message to the page; ``on_moved()`` after each move published; ``bot_delay``
    and ``scale``: the bots' pause and the clocks' factor (as the server's Settings);
    ``new_id()`` names the table that follows a finished one (a rematch: the server's own
    ``following_row``), told to ``on_dealt(row)`` before the page hears of it."""

    def __init__(
        self,
        row: TableRow,
        post: Callable[[str], None],
        *,
        bot_delay: float | None = None,
        scale: float = 1.0,
        on_moved: Callable[[], None] | None = None,
        new_id: Callable[[], str] | None = None,
        on_dealt: Callable[[TableRow], None] | None = None,
    ) -> None:
        super().__init__(TableState.of(row, now=wall(), scale=scale, bot_delay=bot_delay))
        self.page = Page(post)
        self.on_moved = on_moved
        self.new_id = new_id
        self.on_dealt = on_dealt
        self._queue: deque[c.Command] = deque()
        self._busy = False
        self._listening = False  # as on a server: the page hears frames once its snapshot is sent

    @property
    def row(self) -> TableRow:
        return self.state.row

    def open(self) -> None:
        """The page is there: its snapshot, then the clocks and bots run (needs the event loop)."""
        self._run(c.Attach(seat=SEAT, now=wall()))
        self._listening = True
        self.page.send(frames.snapshot(self.state, SEAT, wall()))
        if self.reactions is not None:
            self.reactions.attach(self.page)
        self.timers.start()
        self.serial(c.Start(now=wall()))

    def close(self) -> None:
        self.timers.stop()
        if self.reactions is not None:
            self.reactions.stop()
        self.state.stopping = True

    def receive(self, text: str) -> None:
        """A message of the page, as a server's WebSocket reads it; a refusal is answered with the
        server's error frame and changes nothing."""
        try:
            msg = decode_client(text)
            if isinstance(msg, Hello | Resync):
                self.page.send(frames.snapshot(self.state, SEAT, wall()))
            elif isinstance(msg, MoveMsg):
                self._answered(c.Move(seat=SEAT, move=msg.move, version=msg.version, now=wall()))
            elif isinstance(msg, ReactMsg):
                self._react(msg)
            elif isinstance(msg, ClockPong):
                if self.reactions is not None:
                    self.reactions.answer(self.page, msg.n, msg.t)
            elif isinstance(msg, Ping):
                self.page.send(frames.pong(self.state))
            elif isinstance(msg, Rematch):
                self._run(c.Vote(seat=SEAT, now=wall()))
            elif isinstance(msg, PaceMsg):
                self._run(c.Pace(seat=SEAT, paused=msg.paused, speed=msg.speed, now=wall()))
            elif isinstance(msg, Leave):  # nobody else is here: the page just goes
                pass
        except ProtocolError as exc:
            self.page.send(frames.error(self.state, exc.code, exc.message, exc.refusal))

    def _react(self, msg: ReactMsg) -> None:
        if self.reactions is None:
            raise ProtocolError(ErrorCode.ILLEGAL, f"{self.state.row.game} is played in turns, not by reactions")
        self._answered(c.React(now=wall()))
        self.reactions.claim(self.page, msg.move, msg.version, msg.ms)

    # -- the runner ----------------------------------------------------------------------
    def _answered(self, command: c.Command) -> None:
        """Step the page's ``command``; its refusal is raised to be answered."""
        if self._busy:  # only a timer steps while another command is under way, never the page
            raise ProtocolError(ErrorCode.SERVER_ERROR, "the table is busy; nothing changed")
        self._busy = True
        try:
            self._step(command)
        finally:
            self._busy = False
            self._drain()

    def _run(self, command: c.Command) -> None:
        out = step(self.state, command)
        self.effects(out)
        if out.error is not None:
            raise out.error

    def serial(self, command: c.Command) -> None:
        """Step a timer's ``command`` after the one under way (a refusal is only logged)."""
        self._queue.append(command)
        if not self._busy:
            self._drain()

    def _drain(self) -> None:
        while self._queue and not self._busy:
            self._busy = True
            try:
                self._step(self._queue.popleft())
            except ProtocolError as exc:
                log.info("offline table %s: %s", self.state.id, exc.message)
            finally:
                self._busy = False

    def _step(self, command: c.Command) -> None:
        """Step ``command``; a move written ahead is stored at once (the row is the store)."""
        out = step(self.state, command)
        while out.fence:
            out = step(self.state, c.Committed(now=wall()))
        self.effects(out)
        if out.error is not None:
            raise out.error

    def publish(self, out: c.Outcome) -> None:
        """The table that follows, then the frames to the page (no pushes: nobody else is here)."""
        if out.next_table and self.new_id is not None and self.row.next_id is None:
            following = following_row(self.row, self.new_id(), self.state.votes)
            self.row.next_id = following.id  # the live frame names it: the page goes there
            if self.on_dealt is not None:
                self.on_dealt(following)
        if out.frames and self._listening:
            now = wall()
            for frame in out.frames:
                self.page.send(frames.message_for(self.state, frame, now)(SEAT))
                if type(frame) is c.UpdateOf and self.on_moved is not None:
                    self.on_moved()


def replay_for_page(kept: str) -> str:
    """The offline replay page's data of a finished table (``kept``, the :class:`Saved` table as
    JSON), as the server answers ``GET /api/tables/{id}`` and ``GET /api/tables/{id}/replay``
    for one of its own: ``{"table": its summary, "record", "frames"}``. A game not over raises
    ``ValueError``."""
    row = restored(msgspec.json.decode(kept, type=Saved))
    if row.status != "over":
        raise ValueError("a replay is possible once the game is over")
    state = TableState.of(row, now=wall())
    replay = replay_of(row)
    page: PageReplay = {"table": frames.summary(state), "record": replay["record"], "frames": replay["frames"]}
    return msgspec.json.encode(page).decode()


def for_page(
    kept: str,
    post: Callable[[str], None],
    keep: Callable[[str], None],
    new_id: Callable[[], str] | None = None,
) -> LocalTable:
    """The offline page's table (its Web Worker calls this): ``kept``, the :class:`Saved` table
    as JSON (a new one has no moves yet); ``keep(text)`` is told it again after every move (with
    the record once the game is over), and a rematch's new table (named by ``new_id()``) before
    the page is sent there. Call :meth:`LocalTable.open` when the page listens."""
    table: Saved = msgspec.json.decode(kept, type=Saved)
    row = restored(table)

    def moved(of: TableRow = row) -> None:
        keep(msgspec.json.encode(saved(of, bot_delay=table.bot_delay, scale=table.scale)).decode())

    def dealt(following: TableRow) -> None:
        moved(following)
        moved()  # this table remembers where its rematch is

    return LocalTable(row, post, bot_delay=table.bot_delay, scale=table.scale, on_moved=moved, new_id=new_id,
                      on_dealt=dealt)  # fmt: skip
