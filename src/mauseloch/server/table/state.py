"""A table's state: all of its mutable data in one value, which only :func:`~.step.step` changes.

Built from the table's stored row by replaying its moves (:meth:`TableState.of`), so a table
loaded anywhere (another process, a restart, a browser running the engine) is the same table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec

from mauseloch.core.engine import Game
from mauseloch.core.registry import game_info
from mauseloch.realtime.referee import Decision, Referee, WindowEntry
from mauseloch.server.clock import AWAY_DAYS, Deadline, Deadlines, clock_seconds, month_start, over_days
from mauseloch.server.records import build
from mauseloch.server.seats import Controller, Person, controllers
from mauseloch.server.storage.rows import TableRow

LIVE = ("waiting", "playing")  # the statuses of a table that is still running
Origin = Literal["person", "bot", "decision"]  # who a move written ahead is answered to


class BotTurn(msgspec.Struct, frozen=True):
    """The bot or stand-in to move at ``version`` moves at ``due`` (its pause)."""

    version: int
    due: float


class Pending(msgspec.Struct):
    """A move written ahead, waiting for its commit; then, if it ended the game, for the end's."""

    seat: int
    move: str
    by: str | None
    ms: int | None
    origin: Origin
    turn: Deadline | None  # the next turn's deadline, stored with the move
    referee: WindowEntry | None = None  # a reaction window's log, stored with its decision
    decision: Decision | None = None  # the referee's, played by the referee once stored
    since: int | None = None  # played: the game ended, its end is being stored; its events from here


@dataclass(eq=False, slots=True)
class TableState:
    """One table: its stored row, the game replayed from it, ``version`` (moves played) and
    ``seq`` (events logged), the seats, deadlines, pause, rematch votes, the bot waiting to
    move, the move being stored, and ``now``: the time of the command being stepped."""

    row: TableRow
    game: Game
    by: list[str | None]  # per logged event: "stand-in" when a stand-in played its move
    seats: list[Controller]
    deadlines: Deadlines
    bot_delay: float | None = None  # the server's fixed bot pause (tests, benchmarks), or the game's
    version: int = 0
    seq: int = 0
    speed: float = 1.0  # the bots' pace, set by the people at the table
    asked: list[int] = field(default_factory=list)  # asked for a pause or agreed, the asker first
    votes: set[int] = field(default_factory=set)  # seats that asked for a rematch
    emoted: dict[int, tuple[float, float]] = field(default_factory=dict)  # each seat's emote bucket
    bot: BotTurn | None = None
    pending: Pending | None = None
    referee: Referee | None = None  # a reaction game's judge of its windows
    reactions: bool = False  # a reaction game (its dynamics)
    # its clock, as the row's game and clock setting give it (neither changes while the table runs):
    # a table over days (a closed page is no one gone, no grace; only a late move is), and the
    # seconds a turn (None: no clock); asked by every move and every seat's live state
    over_days: bool = False
    turn_seconds: float | None = None
    started: bool = False
    stopping: bool = False
    now: float = 0.0

    @classmethod
    def of(cls, row: TableRow, *, now: float, scale: float = 1.0, bot_delay: float | None = None) -> TableState:
        game, by = build(row)
        deadlines = Deadlines(scale)
        deadlines.load(row.deadlines, started=now)
        state = cls(row, game, by, controllers(row.game, row.seed, row.seats), deadlines, bot_delay,
                    version=len(row.moves), seq=game.event_count, over_days=over_days(row.clock),
                    turn_seconds=clock_seconds(row.game, row.clock), now=now)  # fmt: skip
        for d in deadlines:
            person = state.person(d.seat) if d.kind == "grace" else None
            if person is not None:
                person.grace_pending = True
        state.rebuilt()
        return state

    def rebuilt(self) -> None:
        """The game was built anew (loaded, reloaded): a reaction game's referee judges it."""
        self.reactions = game_info(self.row.game).dynamics == "reactions"
        if self.reactions:
            self.referee = Referee.for_seed(self.game, self.row.seed)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def paused(self) -> bool:
        return self.deadlines.get("pause") is not None

    @property
    def away(self) -> list[Deadline]:
        """The seats away now, each with when it is back."""
        return [d for d in self.deadlines.items.values() if d.kind == "away"]  # read only: no copy

    @property
    def stopped(self) -> bool:
        """Paused or someone away: nothing moves by itself and the turn clock stands still."""
        return self.paused or bool(self.away)

    def away_days_left(self, seat: int) -> int:
        """The away days ``seat`` may still take at this table this calendar month."""
        used = self.deadlines.get("allowance", seat)
        taken = (used.version or 0) if used is not None and used.due == month_start(self.now) else 0
        return max(0, AWAY_DAYS - taken)

    def person(self, seat: int | None) -> Person | None:
        ctl = None if seat is None else self.seats[seat]
        return ctl if isinstance(ctl, Person) else None

    def people(self) -> list[Person]:
        """The people seated (a free seat has none)."""
        return [c for c in self.seats if isinstance(c, Person) and c.row.taken]

    def present(self) -> list[int]:
        """The seats of the people connected now: a pause needs each of them."""
        return [p.row.seat for p in self.people() if p.conns > 0]

    def window_open(self) -> bool:
        """Whether a reaction game's card is shown (nobody is to move: everyone may react)."""
        return not self.game.is_over and self.game.to_move is None

    def grace(self, seat: int, seconds: float) -> None:
        """``seat`` counts as gone after ``seconds`` (nominal), unless its person comes back."""
        self.deadlines.set(Deadline("grace", self.now + self.deadlines.seconds(seconds), seat=seat))
        person = self.person(seat)
        if person is not None:
            person.grace_pending = True
