"""The bots online in this process, the challenges waiting for them, and each token's limits.

A bot is online while its event stream (``GET /api/bot/stream``) is open. A table seat of kind
``online-bot`` challenges that bot; the challenge waits for its answer (accept or decline) for
:data:`CHALLENGE_SECONDS`, after which it counts as unanswered. The lobby asks this registry for
the seat (:meth:`OnlineBots.seat`) and hands it every table it created (:meth:`OnlineBots.created`);
it never imports the routes.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from mauseloch.core.shapes import OptionDict
from mauseloch.extras import needs
from mauseloch.server.bodies import ONLINE_BOT, ChallengeState
from mauseloch.server.botapi import ladder
from mauseloch.server.botapi.events import BotEvent, ChallengeEvent, ChallengeInfo
from mauseloch.server.hub import Connection
from mauseloch.server.limits import Refused
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.storage.rows import SeatRow, TableRow
from mauseloch.server.storage.schema import seats_t
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy import update

CHALLENGE_SECONDS = 120.0  # a challenge not answered by then counts as unanswered
CHALLENGE_KEPT = 3600.0  # seconds after it was made an answered challenge is still shown
MAX_STREAMS = 16  # open streams (events and games) per token
RATED_KNOWN = 4096  # the tables created here whose rating a join reads without the store
MOVES_PER_SECOND = 20  # moves per token and second (a whole second's worth may come at once)
MAX_OPEN_CHALLENGES = 20  # challenges one bot may have waiting for its answer
RETRY_AFTER = 1  # seconds a refused move is told to wait (a stream or a challenge: a minute)


@dataclass(eq=False)
class Challenge:
    id: str
    bot: str  # the bot challenged
    table: str
    seat: int
    game: str
    players: int
    options: OptionDict
    by: str  # who challenged: the creator's name, or the bot that created the table
    due: float  # monotonic seconds: unanswered after this
    state: ChallengeState = "open"

    def public(self) -> ChallengeInfo:
        """As the challenged bot's event stream says it."""
        return ChallengeInfo(self.id, self.game, self.players, self.options, self.by, self.table, self.seat)


@dataclass(eq=False)
class Online:
    """One bot's presence: its open event streams (each a queue of lines) and its games."""

    name: str
    streams: list[asyncio.Queue[BotEvent | None]] = field(default_factory=list)
    open_streams: int = 0  # event and game streams together (the per-token cap)
    moves: deque[float] = field(default_factory=deque)  # moment of each move within the last second
    games: set[str] = field(default_factory=set)  # tables it sits at that are not over
    # its open game stream per table: the connection its reactions and clock answers come on
    conns: dict[str, Connection] = field(default_factory=dict)


class OnlineBots:
    """Every bot known to this process since it started, online or not, and the challenges."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        ladder.create_tables(store)
        self.bots: dict[str, Online] = {}
        self.challenges: dict[str, Challenge] = {}
        self.following: set[asyncio.Task[None]] = set()  # matches watched for their next deal
        # the seat of the person who created a table with challenges: only they may put another
        # seat kind in a seat whose bot declined or did not answer
        self.creators: dict[str, int] = {}
        self.clock = clock
        # whether the tables created here lately are rated, as their creation said (it never
        # changes): their joins need no query of the ladder (the store's thread reads it)
        self.rated: dict[str, bool] = {}

    # -- presence ----------------------------------------------------------------------
    def get(self, name: str) -> Online:
        bot = self.bots.get(name)
        if bot is None:
            bot = self.bots[name] = Online(name)
        return bot

    def online(self) -> list[str]:
        """The names of the bots with an event stream open, sorted."""
        return sorted(b.name for b in self.bots.values() if b.streams)

    def opened(self, name: str) -> Online:
        """A stream of ``name`` opens; refused over :data:`MAX_STREAMS`."""
        bot = self.get(name)
        if bot.open_streams >= MAX_STREAMS:
            raise Refused(
                ErrorCode.TOO_MANY_CONNECTIONS, f"more than {MAX_STREAMS} open streams for this token", 429, 60
            )
        bot.open_streams += 1
        return bot

    def closed(self, bot: Online) -> None:
        bot.open_streams = max(0, bot.open_streams - 1)

    def listen(self, bot: Online) -> asyncio.Queue[BotEvent | None]:
        """An event stream of ``bot``: the challenges still waiting for it come first."""
        queue: asyncio.Queue[BotEvent | None] = asyncio.Queue()
        for ch in self.waiting_for(bot.name):
            queue.put_nowait(ChallengeEvent(ch.public()))
        bot.streams.append(queue)
        return queue

    def unlisten(self, bot: Online, queue: asyncio.Queue[BotEvent | None]) -> None:
        if queue in bot.streams:
            bot.streams.remove(queue)

    def tell(self, name: str, event: BotEvent) -> None:
        """One line to every event stream ``name`` has open."""
        bot = self.bots.get(name)
        if bot is not None:
            for queue in bot.streams:
                queue.put_nowait(event)

    def count_move(self, bot: Online) -> None:
        """A move of ``bot``; refused over :data:`MOVES_PER_SECOND`."""
        t = self.clock()
        while bot.moves and t - bot.moves[0] >= 1.0:
            bot.moves.popleft()
        if len(bot.moves) >= MOVES_PER_SECOND:
            raise Refused(
                ErrorCode.RATE_LIMITED, f"more than {MOVES_PER_SECOND} moves a second for this token", 429, RETRY_AFTER
            )
        bot.moves.append(t)

    # -- seats and challenges ------------------------------------------------------------
    def seat(self, index: int, name: str | None, taken_by: str | None = None) -> SeatRow:
        """The row of seat ``index`` for the online bot ``name`` (the lobby's seat kind
        ``online-bot``): free until the bot accepts, unless it is ``taken_by`` that bot itself
        (a bot creating a table). Refused when the bot is not online or has too many challenges."""
        if not name:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {index}: an online-bot seat needs the bot's name")
        if name != taken_by:
            bot = self.bots.get(name)
            if bot is None or not bot.streams:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {index}: no bot named {name!r} is online")
            if len(self.waiting_for(name)) >= MAX_OPEN_CHALLENGES:
                raise Refused(
                    ErrorCode.RATE_LIMITED,
                    f"seat {index}: {name} has {MAX_OPEN_CHALLENGES} challenges waiting",
                    429,
                    60,
                )
        return SeatRow(seat=index, kind=ONLINE_BOT, name=name, bot=name)

    async def created(self, row: TableRow, by: str, rated: bool = False) -> list[Challenge]:
        """A table was created: a rated one is entered in the ladder; every free online-bot seat
        challenges its bot."""
        if rated:
            await self.store.call(ladder.mark_rated, self.store, row)
        self.rated[row.id] = rated
        if len(self.rated) > RATED_KNOWN:
            del self.rated[next(iter(self.rated))]  # the oldest: its seats were taken long ago
        self.prune()
        made: list[Challenge] = []
        for s in row.seats:
            if s.kind != ONLINE_BOT or s.bot is None:
                continue
            if s.taken:
                self.get(s.bot).games.add(row.id)
                continue
            made.append(self.challenge(row, s.seat, by))
        creator = next((s.seat for s in row.seats if s.kind == "human" and s.taken), None)
        if made and creator is not None:
            self.creators[row.id] = creator
        return made

    # -- the ladder's entries (the lobby's BotSeats), each in the store's thread ---------
    def is_rated(self, table_id: str) -> bool:
        known = self.rated.get(table_id)
        return ladder.is_rated(self.store, table_id) if known is None else known

    def check_person(self, name: str, secret: str) -> None:
        ladder.refused_entry(ladder.check_person, self.store, name, secret)

    def enter_person(self, table_id: str, seat: int | None, name: str, secret: str) -> None:
        ladder.refused_entry(ladder.enter_person, self.store, table_id, seat, name, secret)

    def challenge(self, row: TableRow, seat: int, by: str) -> Challenge:
        """Challenge the online bot of ``row``'s free seat ``seat`` (it is told on its streams)."""
        bot = row.seats[seat].bot
        assert bot is not None
        ch = Challenge(
            id=secrets.token_urlsafe(9),
            bot=bot,
            table=row.id,
            seat=seat,
            game=row.game,
            players=row.players,
            options=row.options,
            by=by,
            due=self.clock() + CHALLENGE_SECONDS,
        )
        self.challenges[ch.id] = ch
        self.tell(ch.bot, ChallengeEvent(ch.public()))
        return ch

    def replaceable(self, table: str, seat: int) -> Challenge:
        """The latest challenge of ``seat`` at ``table`` when its bot declined or did not answer
        (the seat may then get another kind); refused while it is open, after an accept, or
        when the seat was never challenged."""
        found = [c for c in self.of_table(table) if c.seat == seat]
        if not found:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {seat} holds no challenged bot")
        ch = found[-1]
        if ch.state not in ("declined", "unanswered"):
            raise ProtocolError(
                ErrorCode.TAKEN,
                f"seat {seat}: {ch.bot}'s challenge is {ch.state}; only a declined or unanswered one",
                409,
            )
        return ch

    def forget_seat(self, table: str, seat: int) -> None:
        """The seat got another kind: its old challenges are no longer the table's answer."""
        for key in [k for k, c in self.challenges.items() if c.table == table and c.seat == seat]:
            del self.challenges[key]

    @staticmethod
    def check(seats: list[SeatRow]) -> None:
        """Refuse a table that seats one bot twice (before anything is stored)."""
        names = [s.bot for s in seats if s.kind == ONLINE_BOT]
        if len(set(names)) != len(names):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a bot takes one seat of a table")

    def state(self, ch: Challenge) -> ChallengeState:
        if ch.state == "open" and self.clock() > ch.due:
            ch.state = "unanswered"
        return ch.state

    def prune(self) -> None:
        """Forget the challenges answered (or unanswered) more than :data:`CHALLENGE_KEPT` ago:
        a long-running server keeps only what a table's creator may still look at."""
        gone = self.clock() - CHALLENGE_KEPT
        for key in [k for k, c in self.challenges.items() if c.due - CHALLENGE_SECONDS < gone and c.state != "open"]:
            del self.challenges[key]
        asked = {c.table for c in self.challenges.values()}
        for table in [t for t in self.creators if t not in asked]:
            del self.creators[table]

    def waiting_for(self, name: str) -> list[Challenge]:
        return [c for c in self.challenges.values() if c.bot == name and self.state(c) == "open"]

    def of_table(self, table: str) -> list[Challenge]:
        found = [c for c in self.challenges.values() if c.table == table]
        for c in found:
            self.state(c)  # an open one past its time is unanswered now
        return found

    def answer(self, name: str, challenge_id: str) -> Challenge:
        """The open challenge ``challenge_id`` of bot ``name``; refused when it is not (any more)."""
        ch = self.challenges.get(challenge_id)
        if ch is None or ch.bot != name:
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such challenge for this bot", 404)
        if self.state(ch) != "open":
            raise ProtocolError(ErrorCode.TAKEN, f"this challenge is {ch.state} already", 409)
        return ch


def put_seat(store: Store, table_id: str, seat: SeatRow) -> None:
    """Store a free seat's new kind (a person's, a built-in bot's, another online bot's)."""
    with store.engine.begin() as conn:
        conn.execute(
            update(seats_t)
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
            .values(kind=seat.kind, name=seat.name, bot=seat.bot, token_hash=seat.token_hash)
        )
