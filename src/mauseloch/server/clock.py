"""Turn clocks and deadlines: how long a seat may take, and timers that survive a restart.

A deadline is a plain value (kind, seat or version, due time in epoch seconds) stored with its
table (``ml_tables.deadlines``), so a restarted server finds the same deadlines and keeps them.
:class:`Deadlines` keeps one table's deadlines and calls back when one is due; the table session
decides what a due deadline means (a stand-in moves, a grace time ends). The same timers can
drive a real-time referee's reaction windows later.

A paused table (session.py) keeps its pause as a ``pause`` entry (who paused, and when) and its
turn deadline frozen: ``left`` holds the seconds that were left, and a frozen deadline is never
armed until the pause ends and it is set again from the seconds left. Both are stored like the
others, so a restarted server is still paused and the clock resumes with the time that was left.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from mauseloch.core.engine import game_info
from mauseloch.core.shapes import JSONObject

GRACE_LEFT = 10.0  # seconds after a person leaves on purpose before a stand-in plays
GRACE_LOST = 40.0  # seconds after a lost connection before the seat counts as gone
CLOSE_WAITING = 300.0  # seconds a table still waiting for players is kept when every person is gone
RESTART_GRACE = 3.0  # a deadline that ran out while the server was down gets this long after start

Kind = Literal["turn", "grace", "close", "pause"]
KINDS = ("turn", "grace", "close", "pause")


def clock_seconds(game: str, clock: str) -> float | None:
    """Seconds per move at ``clock`` for ``game`` (None: no clock), as the game declares them."""
    return game_info(game).clock.seconds(clock)


def default_clock(game: str) -> str:
    """The clock setting a new table of ``game`` starts with."""
    return game_info(game).clock.default


def clock_choices(game: str) -> dict[str, float | None]:
    """Every clock setting ``game`` offers with its seconds per move (None: off)."""
    return game_info(game).clock.choices()


def wall() -> float:
    """Deadlines are wall-clock times, so that they mean the same after a restart."""
    return time.time()


@dataclass(frozen=True)
class Deadline:
    """``turn``: the seat to move at ``version`` must have moved by ``due``; ``grace``: ``seat``
    counts as gone (a stand-in plays it) from ``due`` on; ``close``: a table still waiting for
    players, that everyone left, closes; ``pause``: ``seat``'s pause (or the pause everyone
    agreed to, named after whoever asked) began at ``due``, and nothing is due while it lasts.
    ``left``: a frozen deadline (the table is paused), with the seconds that were left."""

    kind: Kind
    due: float
    seat: int | None = None
    version: int | None = None
    left: float | None = None

    @property
    def armed(self) -> bool:
        """Whether a timer runs for it (a pause and a frozen deadline wait)."""
        return self.kind != "pause" and self.left is None

    def frozen(self, now: float) -> Deadline:
        """This deadline, held with the seconds left at ``now`` (already frozen: as it is)."""
        return self if self.left is not None else replace(self, left=max(0.0, self.due - now))

    def thawed(self, now: float) -> Deadline:
        """A frozen deadline running again from ``now`` with the seconds it had left."""
        return self if self.left is None else replace(self, due=now + self.left, left=None)

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.kind, self.seat if self.kind == "grace" else None)

    def to_dict(self) -> JSONObject:
        data = {"kind": self.kind, "due": round(self.due, 3), "seat": self.seat, "version": self.version}
        if self.left is not None:
            data["left"] = round(self.left, 3)
        return data

    @classmethod
    def from_dict(cls, data: JSONObject) -> Deadline:
        kind = data["kind"]
        if kind not in KINDS:
            raise ValueError(f"unknown deadline kind {kind!r}")
        seat, version, left = data.get("seat"), data.get("version"), data.get("left")
        return cls(
            kind=kind,
            due=float(data["due"]),
            seat=None if seat is None else int(seat),
            version=None if version is None else int(version),
            left=None if left is None else max(0.0, float(left)),
        )


class Deadlines:
    """One table's deadlines: at most one turn deadline, one grace deadline per seat, one close
    deadline and one pause.

    ``on_due(deadline)`` is called on the event loop when a deadline is reached; it stays listed
    until the caller removes it (so that a deadline half handled when the server stops is found
    again after the restart).
    """

    def __init__(self, on_due: Callable[[Deadline], None], scale: float = 1.0) -> None:
        self.on_due = on_due
        self.scale = scale  # tests and benchmarks run the clocks faster
        self._items: dict[tuple[str, int | None], Deadline] = {}
        self._timers: dict[tuple[str, int | None], asyncio.TimerHandle] = {}
        self.running = False

    def seconds(self, nominal: float) -> float:
        return nominal * self.scale

    def __iter__(self) -> Any:
        return iter(list(self._items.values()))

    def get(self, kind: Kind, seat: int | None = None) -> Deadline | None:
        return self._items.get((kind, seat if kind == "grace" else None))

    def to_list(self) -> list[JSONObject]:
        return [d.to_dict() for d in self._items.values()]

    def load(self, stored: list[JSONObject], started: float) -> None:
        """The stored deadlines of a restored table; one that ran out while the server was down
        is moved to a moment after ``started`` (nobody could move meanwhile). A pause and a
        frozen deadline stay as they were."""
        floor = started + self.seconds(RESTART_GRACE)
        for data in stored:
            d = Deadline.from_dict(data)
            if d.armed and d.due < floor:
                d = Deadline(kind=d.kind, due=floor, seat=d.seat, version=d.version)
            self._items[d.key] = d

    def set(self, deadline: Deadline) -> None:
        self.remove(deadline.kind, deadline.seat)
        self._items[deadline.key] = deadline
        if self.running:
            self._arm(deadline)

    def remove(self, kind: Kind, seat: int | None = None) -> Deadline | None:
        key = (kind, seat if kind == "grace" else None)
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        return self._items.pop(key, None)

    def start(self) -> None:
        """Arm every timer (needs the running event loop)."""
        self.running = True
        for d in self._items.values():
            self._arm(d)

    def stop(self) -> None:
        self.running = False
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def _arm(self, d: Deadline) -> None:
        loop = asyncio.get_running_loop()
        old = self._timers.pop(d.key, None)
        if old is not None:
            old.cancel()
        if not d.armed:
            return
        self._timers[d.key] = loop.call_later(max(0.0, d.due - wall()), self._fire, d)

    def _fire(self, d: Deadline) -> None:
        if self._items.get(d.key) is d:
            self._timers.pop(d.key, None)
            self.on_due(d)
