"""What a table is told (commands) and what its step answers (:class:`Outcome`): plain values.

Every command carries ``now``, the wall-clock time it is stepped at (epoch seconds), so that the
step reads no clock. The runner steps a move's command (``Move``, ``BotDue``, ``Due``, ``Decide``,
``React``, ``Retry``, ``NextDeal``, ``Expire``, ``Stop``) only once the move before it is stored
and published; the others (presence, votes, pace, seats) at once, whatever is under way.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from mauseloch.core.events import Event
from mauseloch.server.clock import Deadline
from mauseloch.server.protocol import ProtocolError
from mauseloch.server.storage.rows import TableRow, Write


class Command(msgspec.Struct, frozen=True, kw_only=True):
    now: float


class Start(Command, frozen=True):
    """The server runs the table: its clocks, bots and stand-ins."""


class Stop(Command, frozen=True):
    pass


class Move(Command, frozen=True):
    """A person's move built on ``version``; ``again``: sent anew after its owner died unanswered."""

    seat: int | None
    move: str
    version: int
    ms: int | None = None
    again: bool = False


class Committed(Command, frozen=True):
    """The move written ahead is stored (``failed`` None), or another writer stored its version
    first (``"stale"``), or the store failed (``"error"``); then, if it ended the game, the end."""

    failed: Literal["stale", "error"] | None = None


class Reloaded(Command, frozen=True):
    """The table as the store holds it now (after another writer was first); None: not found."""

    row: TableRow | None


class BotDue(Command, frozen=True):
    """The pause of the bot or stand-in to move at ``version`` is over."""

    version: int


class Due(Command, frozen=True):
    deadline: Deadline


class Retry(Command, frozen=True):
    """A bot move the store refused is tried again."""


class NextDeal(Command, frozen=True):
    """A match's standings have shown long enough: its next deal."""


class Attach(Command, frozen=True):
    seat: int | None


class Detach(Command, frozen=True):
    """A connection ended; ``left``: on purpose; ``everywhere``: every page of its seat leaves."""

    seat: int | None
    left: bool = False
    everywhere: bool = False


class SeatTaken(Command, frozen=True):
    seat: int


class Reseated(Command, frozen=True):
    """The row's ``seat`` has another player now (its kind, name or bot changed)."""

    seat: int


class Playing(Command, frozen=True):
    """Every seat was taken, some through another process; ``stored``: the store says so already;
    ``joined``: the seat just taken, whose :class:`SeatTaken` follows (it tells the first mover)."""

    stored: bool
    joined: int | None = None


class Vote(Command, frozen=True):
    seat: int | None


class Pace(Command, frozen=True):
    seat: int | None
    paused: bool
    speed: float


class Away(Command, frozen=True):
    """A seat over days is away for ``days`` (the table waits), or back now (``days`` 0)."""

    seat: int | None
    days: int


class Emote(Command, frozen=True):
    """A quick reaction from a seat (server/emotes.py), rate-limited per seat."""

    seat: int | None
    emote: str


class Expire(Command, frozen=True):
    """Nobody joined in time (the lobby's sweep)."""


class React(Command, frozen=True):
    """A reaction claim's table checks (the window judges the claim itself: server/reactions.py)."""


class Decide(Command, frozen=True):
    """The referee of the window opened at ``version`` is due at ``at`` (ms on its clock)."""

    version: int
    at: float


# -- what it asks to publish (each seat's frame is built when the hub asks for it) -------------
class UpdateOf(msgspec.Struct, frozen=True):
    """The update of the move just played: its events and who played it."""

    events: list[Event]
    by: str | None


class LiveOf(msgspec.Struct, frozen=True):
    """What changed without a move: presence, clocks, pause, votes."""


class SnapshotsOf(msgspec.Struct, frozen=True):
    """Everyone's whole table again (a seat taken, a reload)."""


class EmoteOf(msgspec.Struct, frozen=True):
    """A seat's quick reaction, the same message for everyone."""

    seat: int
    emote: str


Frame = UpdateOf | LiveOf | SnapshotsOf | EmoteOf


class Tell(msgspec.Struct, frozen=True):
    """A seat's person must be told (by Web Push, to the devices that asked: server/push/):
    ``turn``: it is their turn now; ``remind``: their time runs out (``left`` seconds, nominal),
    told ``at`` that moment (epoch seconds) if the seat is still to move at ``version``;
    ``end``: the game ended; ``stop``: the clock stopped, so the reminders told before are void
    (those of the time left are told again when it runs on)."""

    seat: int
    kind: Literal["turn", "remind", "end", "stop"]
    left: float = 0.0
    at: float = 0.0
    version: int = -1


LIVE_FRAME = LiveOf()
SNAPSHOTS = SnapshotsOf()


class Outcome(msgspec.Struct):
    """What a step asks of the world, in order: ``writes`` (a ``fence``: the last one is stored
    before anything more, then :class:`Committed` is stepped); the reaction window shown, the
    next table dealt, a seat's pages closed; ``frames`` published; ``tell``: the people to push
    to; ``wake``: commands stepped
    that many seconds later; the window's referee woken or retried; the table read again from
    the store (``reload``); ``error``: what the command's sender is told."""

    writes: list[Write] = msgspec.field(default_factory=list)
    fence: bool = False
    window: bool = False
    next_table: bool = False
    close_seat: int | None = None
    frames: list[Frame] = msgspec.field(default_factory=list)
    tell: list[Tell] = msgspec.field(default_factory=list)
    wake: list[tuple[float, Command]] = msgspec.field(default_factory=list)
    window_wake: bool = False
    window_retry: bool = False
    reload: bool = False
    error: ProtocolError | None = None
