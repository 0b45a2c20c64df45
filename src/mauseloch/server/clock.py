"""Turn clocks and deadlines: how long a seat may take, and timers that survive a restart.

A deadline is a plain value (kind, seat or version, due time in epoch seconds) stored with its
table (``ml_tables.deadlines``), so a restarted server finds the same deadlines and keeps them.
:class:`Deadlines` keeps one table's deadlines as part of its state; :class:`Timers` arms them
on the event loop and calls back when one is due; the table's step decides what a due deadline
means (a stand-in moves, a grace time ends).

A paused table (table/step.py) keeps its pause as a ``pause`` entry (who paused, and when) and its
turn deadline frozen: ``left`` holds the seconds that were left, and a frozen deadline is never
armed until the pause ends and it is set again from the seconds left. Both are stored like the
others, so a restarted server is still paused and the clock resumes with the time that was left.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import heapq
import itertools
import math
import time
import weakref
from collections.abc import Callable, Iterator
from typing import ClassVar, Literal

import msgspec

from mauseloch.core.registry import game_info
from mauseloch.server.storage.rows import DeadlineEntry

GRACE_LEFT = 10.0  # seconds after a person leaves on purpose before a stand-in plays
GRACE_LOST = 40.0  # seconds after a lost connection before the seat counts as gone
CLOSE_WAITING = 300.0  # seconds a table still waiting for players is kept when every person is gone
RESTART_GRACE = 3.0  # a deadline that ran out while the server was down gets this long after start

Kind = Literal["turn", "grace", "close", "pause", "away", "allowance"]
KINDS: tuple[Kind, ...] = ("turn", "grace", "close", "pause", "away", "allowance")
AWAY_DAYS = 14  # days a seat over days may be away, per table and calendar month (UTC)


# A table over days: seconds per move (lichess's correspondence choices, from an hour to a week).
# Someone who closes the page stays seated (no grace, no stand-in for good): running out of time
# gives a stand-in for that move only. A reaction game has no such pace.
DAYS: dict[str, float] = {"1h": 3600.0, "1d": 86400.0, "2d": 172800.0, "3d": 259200.0, "5d": 432000.0, "7d": 604800.0}
DAYS_WAITING = 7 * 86400.0  # seconds a table over days waits for its players to join
REMINDERS = (0.5, 0.9)  # a seat over days is reminded at these parts of its move's time


def over_days(clock: str | None) -> bool:
    """Whether ``clock`` is a pace over days (:data:`DAYS`)."""
    return clock in DAYS


def _days_offered(game: str) -> bool:
    return game_info(game).dynamics != "reactions"


def clock_seconds(game: str, clock: str) -> float | None:
    """Seconds per move at ``clock`` for ``game`` (None: no clock), as the game declares them,
    or a pace over days (:data:`DAYS`)."""
    if clock in DAYS:
        return DAYS[clock] if _days_offered(game) else None
    return game_info(game).clock.seconds(clock)


def default_clock(game: str) -> str:
    """The clock setting a new table of ``game`` starts with."""
    return game_info(game).clock.default


def clock_choices(game: str) -> dict[str, float | None]:
    """Every clock setting ``game`` offers with its seconds per move (None: off), the paces over
    days last."""
    choices = game_info(game).clock.choices()
    if _days_offered(game):
        choices.update(DAYS)
    return choices


def wall() -> float:
    """Deadlines are wall-clock times, so that they mean the same after a restart."""
    return time.time()


class Deadline(msgspec.Struct, frozen=True):
    """``turn``: the seat to move at ``version`` must have moved by ``due``; ``grace``: ``seat``
    counts as gone (a stand-in plays it) from ``due`` on; ``close``: a table still waiting for
    players, that everyone left, closes; ``pause``: ``seat``'s pause (or the pause everyone
    agreed to, named after whoever asked) began at ``due``, and nothing is due while it lasts;
    ``away``: ``seat`` is away until ``due`` (the table waits as in a pause); ``allowance``:
    ``seat`` used ``version`` away days in the calendar month that begins at ``due`` (never due).
    ``left``: a frozen deadline (the table is paused), with the seconds that were left."""

    kind: Kind
    due: float
    seat: int | None = None
    version: int | None = None
    left: float | None = None

    @property
    def armed(self) -> bool:
        """Whether a timer runs for it (a pause and a frozen deadline wait)."""
        return self.kind not in ("pause", "allowance") and self.left is None

    def frozen(self, now: float) -> Deadline:
        """This deadline, held with the seconds left at ``now`` (already frozen: as it is)."""
        return self if self.left is not None else msgspec.structs.replace(self, left=max(0.0, self.due - now))

    def thawed(self, now: float) -> Deadline:
        """A frozen deadline running again from ``now`` with the seconds it had left."""
        return self if self.left is None else msgspec.structs.replace(self, due=now + self.left, left=None)

    @property
    def key(self) -> tuple[str, int | None]:
        return deadline_key(self.kind, self.seat)

    def to_dict(self) -> DeadlineEntry:
        data: DeadlineEntry = {"kind": self.kind, "due": round(self.due, 3), "seat": self.seat, "version": self.version}
        if self.left is not None:
            data["left"] = round(self.left, 3)
        return data

    @classmethod
    def from_dict(cls, data: DeadlineEntry) -> Deadline:
        kind = next((k for k in KINDS if k == data["kind"]), None)
        if kind is None:
            raise ValueError(f"unknown deadline kind {data['kind']!r}")
        seat, version, left = data.get("seat"), data.get("version"), data.get("left")
        return cls(
            kind=kind,
            due=float(data["due"]),
            seat=None if seat is None else int(seat),
            version=None if version is None else int(version),
            left=None if left is None else max(0.0, float(left)),
        )


def month_start(now: float) -> float:
    """The calendar month (UTC) ``now`` is in, as the epoch seconds it began."""
    day = dt.datetime.fromtimestamp(now, dt.UTC)
    return dt.datetime(day.year, day.month, 1, tzinfo=dt.UTC).timestamp()


def deadline_key(kind: Kind, seat: int | None) -> tuple[str, int | None]:
    """A deadline's place among a table's: one of each kind, one a seat for those of a seat."""
    return (kind, seat if kind in ("grace", "away", "allowance") else None)


class Deadlines:
    """One table's deadlines, a plain value of its state: at most one turn deadline, one grace
    deadline per seat, one close deadline and one pause. ``changed``: the keys changed since the
    table's :class:`Timers` last armed what is new (they clear it)."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale  # tests and benchmarks run the clocks faster
        self.items: dict[tuple[str, int | None], Deadline] = {}
        self.changed: set[tuple[str, int | None]] = set()

    def seconds(self, nominal: float) -> float:
        return nominal * self.scale

    def __iter__(self) -> Iterator[Deadline]:
        return iter(list(self.items.values()))

    def get(self, kind: Kind, seat: int | None = None) -> Deadline | None:
        return self.items.get(deadline_key(kind, seat))

    def to_list(self) -> list[DeadlineEntry]:
        return [d.to_dict() for d in self.items.values()]

    def load(self, stored: list[DeadlineEntry], started: float) -> None:
        """The stored deadlines of a restored table; one that ran out while the server was down
        is moved to a moment after ``started`` (nobody could move meanwhile). A pause and a
        frozen deadline stay as they were."""
        floor = started + self.seconds(RESTART_GRACE)
        for data in stored:
            d = Deadline.from_dict(data)
            if d.armed and d.due < floor:
                d = Deadline(kind=d.kind, due=floor, seat=d.seat, version=d.version)
            self.items[d.key] = d
            self.changed.add(d.key)

    def set(self, deadline: Deadline) -> None:
        key = deadline.key
        self.items[key] = deadline
        self.changed.add(key)

    def remove(self, kind: Kind, seat: int | None = None) -> Deadline | None:
        gone = self.items.pop(k := deadline_key(kind, seat), None)
        if gone is not None:
            self.changed.add(k)
        return gone

    def clear(self) -> None:
        self.changed.update(self.items)
        self.items.clear()


class Timers:
    """The timers of one table (its runner's). ``on_due(deadline)`` is called on the event loop
    when an armed deadline is reached; it stays listed until the table removes it (so that a
    deadline half handled when the server stops is found again after the restart). The armed
    ones wait in the event loop's :class:`DeadlineHeap`. Besides: one timer a ``key`` (the bot's
    pause, :meth:`once`) and wake-ups (:meth:`later`), all cancelled by :meth:`stop`."""

    def __init__(self, deadlines: Deadlines, on_due: Callable[[Deadline], None]) -> None:
        self.deadlines = deadlines
        self.on_due = on_due
        self._armed: dict[tuple[str, int | None], Deadline] = {}  # what the heap will call back for
        self._heap: DeadlineHeap | None = None
        self._once: dict[str, asyncio.TimerHandle] = {}
        self._later: set[asyncio.TimerHandle] = set()
        self.running = False

    def once(self, key: str, due: float | None, fire: Callable[[], None]) -> None:
        """``fire`` at ``due`` (wall time) instead of ``key``'s timer before; None: no timer."""
        before = self._once.pop(key, None)
        if before is not None:
            before.cancel()
        if due is not None and self.running:

            def fired() -> None:
                del self._once[key]
                fire()

            self._once[key] = asyncio.get_running_loop().call_later(max(0.0, due - wall()), fired)

    def later(self, delay: float, fire: Callable[[], None]) -> None:
        """``fire`` in ``delay`` seconds (unless the timers stop first)."""

        def fired() -> None:
            self._later.discard(timer)
            fire()

        timer = asyncio.get_running_loop().call_later(delay, fired)
        self._later.add(timer)

    def sync(self) -> None:
        """Arm what is new among the deadlines and disarm what went (after every change)."""
        changed, self.deadlines.changed = self.deadlines.changed, set()
        if not self.running:
            return
        items = self.deadlines.items
        for key in changed:
            d = items.get(key)
            if self._armed.get(key) is not d:
                if d is not None and d.armed:
                    self._arm(d)  # in place of the one before
                else:
                    self._disarm(key)

    def start(self) -> None:
        """Arm every timer (needs the running event loop)."""
        self.running = True
        self.deadlines.changed.update(self.deadlines.items)
        self.sync()

    def stop(self) -> None:
        self.running = False
        for key in list(self._armed):
            self._disarm(key)
        for timer in [*self._once.values(), *self._later]:
            timer.cancel()
        self._once.clear()
        self._later.clear()

    def _arm(self, d: Deadline) -> None:
        key = d.key
        self._disarm(key)
        if self._heap is None:
            self._heap = DeadlineHeap.of(asyncio.get_running_loop())
        self._armed[key] = d
        self._heap.push(self, d)

    def _disarm(self, key: tuple[str, int | None]) -> None:
        if self._armed.pop(key, None) is not None and self._heap is not None:
            self._heap.stale += 1  # its entry stays in the heap until it comes up or is swept

    def waiting(self, d: Deadline) -> bool:
        """Whether the heap's entry for ``d`` still stands."""
        return self._armed.get(d.key) is d

    def fire(self, d: Deadline) -> None:
        """The heap's call: ``d`` is due."""
        if self._armed.get(d.key) is d:
            del self._armed[d.key]
            if self.deadlines.items.get(d.key) is d:
                self.on_due(d)


SWEEP_AT = 1024  # entries gone stale before the heap is rebuilt without them (when they are half of it)
EARLY = 0.001  # seconds: a deadline this close to its time counts as due (the timer's resolution)


class DeadlineHeap:
    """Every armed deadline of every table on one event loop (one per server process), with one
    timer on the earliest.

    A move replaces its table's turn deadline; a timer set and cancelled for each move cost 29 µs of
    a move. Here the new deadline is pushed on the heap and the old entry is left to go stale
    (:meth:`Timers.waiting`): the timer is moved only when the new deadline is the earliest, and
    wakes only for a deadline that was still standing when it was set. Stale entries are dropped
    when they come to the top, or all at once when they are half the heap."""

    _of: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, DeadlineHeap]] = weakref.WeakKeyDictionary()

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._entries: list[tuple[float, int, Timers, Deadline]] = []
        self._order = itertools.count()  # ties keep the order the deadlines were set in
        self._timer: asyncio.TimerHandle | None = None
        self._at = math.inf  # when the timer fires
        self.stale = 0

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> DeadlineHeap:
        heap = cls._of.get(loop)
        if heap is None:
            heap = cls._of[loop] = cls(loop)
        return heap

    def __len__(self) -> int:
        return len(self._entries)

    def push(self, owner: Timers, d: Deadline) -> None:
        heapq.heappush(self._entries, (d.due, next(self._order), owner, d))
        if self.stale >= SWEEP_AT and 2 * self.stale > len(self._entries):
            self._sweep()
        if d.due < self._at:
            self._rearm()

    def _sweep(self) -> None:
        self._entries = [e for e in self._entries if e[2].waiting(e[3])]
        heapq.heapify(self._entries)
        self.stale = 0

    def _rearm(self) -> None:
        entries = self._entries
        while entries and not entries[0][2].waiting(entries[0][3]):
            heapq.heappop(entries)
            self.stale = max(0, self.stale - 1)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not entries:
            self._at = math.inf
            return
        self._at = entries[0][0]
        self._timer = self.loop.call_later(max(0.0, self._at - wall()), self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._at = math.inf
        entries = self._entries
        now = wall() + EARLY
        due: list[tuple[Timers, Deadline]] = []
        while entries and entries[0][0] <= now:
            _, _, owner, d = heapq.heappop(entries)
            if owner.waiting(d):
                due.append((owner, d))
            else:
                self.stale = max(0, self.stale - 1)
        for owner, d in due:  # in the order they were due
            owner.fire(d)
        if self._timer is None:
            self._rearm()
