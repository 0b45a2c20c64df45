"""The lobby: creating, joining, finding and listing tables, and the sessions this server runs."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

import msgspec

import mauseloch
from mauseloch.bots import bot_kinds
from mauseloch.core.registry import GameInfo, game_info
from mauseloch.extras import needs
from mauseloch.server.bodies import ONLINE_BOT, CreateTable, GameClocks, LadderEntry, MyTable, MyTables
from mauseloch.server.clock import DAYS_WAITING, clock_choices, default_clock, over_days
from mauseloch.server.handle import TableHandle
from mauseloch.server.hub import Hub, LocalHub
from mauseloch.server.limits import CLOSE_SIGNED_OUT
from mauseloch.server.match import family_setup, following_row
from mauseloch.server.names import MAX_NAME, RESERVED_NAME, clean_name, clean_title
from mauseloch.server.protocol import MAX_INVITE, ErrorCode, ProtocolError, TableSummary, encode
from mauseloch.server.records import finished_row
from mauseloch.server.session import LIVE, Settings, TableSession
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy.exc import IntegrityError
    from starlette.requests import Request
    from starlette.responses import Response

if TYPE_CHECKING:  # prometheus-client: imported only by serve --metrics
    from mauseloch.server.metrics import Metrics

log = logging.getLogger("mauseloch.server")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def web_games() -> list[GameInfo]:
    """Every game, turn-based and reaction games alike (reactions.py drives the windows)."""
    return list(mauseloch.GAMES.values())


def web_bots(game: str) -> list[str]:
    """The bot kinds a table offers: every kind registered for the game but those it declares
    for simulations only (``GameInfo.seating.study_bots``: in a reaction game the random bot
    reacts at 0 ms and would take every card before anyone saw it)."""
    study = game_info(game).seating.study_bots
    return [k for k in bot_kinds(game) if k not in study]


def game_clocks(game: str) -> GameClocks:
    """The clock settings a game offers (seconds per move, None: off) and its default."""
    return {"choices": clock_choices(game), "default": default_clock(game)}


PAGE_SIZE = 20  # tables per page of the lobby's list
MY_TABLES = 40  # seat cookies one "My tables" answer looks at (each one loads its table)
MAX_TABLE_ID = 32  # characters: longer is no table id of ours
NEW_ID_TRIES = 5  # a new table's id met a stored one (48 random bits: practically never)
SWEEP_EVERY = 30.0  # seconds between two looks for waiting tables that expired


class Created(NamedTuple):
    table: TableHandle
    seat: int
    token: str
    invite: str | None  # the invite secret of a private table (None: a public one)


class BotSeats(Protocol):
    """The bots that play through the Bot API, as the lobby seats them, and the ladder a rated
    seat is entered in (server/botapi/online.py gives them to it: the lobby knows nothing above it)."""

    def seat(self, index: int, name: str | None, taken_by: str | None = None) -> SeatRow:
        """The row of an online bot's seat; refused when that bot cannot be seated."""
        ...

    def check(self, seats: list[SeatRow]) -> None:
        """Refuse a table that seats one bot twice (before anything is stored)."""
        ...

    async def created(self, row: TableRow, by: str, rated: bool = False) -> object:
        """A table was created: its online-bot seats challenge their bots."""
        ...

    # the ladder's entries (the Bot API keeps the ladder), each in the store's thread
    def is_rated(self, table_id: str) -> bool:
        """Whether ``table_id`` counts for the ladder."""
        ...

    def check_person(self, name: str, secret: str) -> None:
        """Refuse (ProtocolError) a ladder name a person may not play a rated seat for."""
        ...

    def enter_person(self, table_id: str, seat: int | None, name: str, secret: str) -> None:
        """Seat ``seat`` of a rated table plays for ``name`` (None: only check that it may)."""
        ...


class NoBotSeats:
    """A lobby without the Bot API: no bot plays online here."""

    def seat(self, index: int, name: str | None, taken_by: str | None = None) -> SeatRow:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {index}: no bot plays online here")

    def check(self, seats: list[SeatRow]) -> None:
        pass

    async def created(self, row: TableRow, by: str, rated: bool = False) -> object:
        return None

    def is_rated(self, table_id: str) -> bool:
        return False  # no table is rated without the ladder

    def check_person(self, name: str, secret: str) -> None:
        pass

    def enter_person(self, table_id: str, seat: int | None, name: str, secret: str) -> None:
        pass


class Lobby:
    """All tables this server runs, backed by a :class:`Store`, published through a :class:`Hub`.

    ``waiting_expiry``: seconds a table waiting for players stays open without anyone joining,
    counted by ``clock`` (epoch seconds) from the moment stored with the table (``joined``), so
    that a restart does not start the count again.
    """

    def __init__(
        self,
        store: Store,
        settings: Settings | None = None,
        hub: Hub | None = None,
        waiting_expiry: float = 1800.0,
        clock: Callable[[], float] = time.time,
        online: BotSeats | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.hub: Hub = hub or LocalHub()
        self.tables: dict[str, TableSession] = {}
        self.skipped: list[str] = []  # tables that could not be restored (logged)
        self.running = False
        self.draining = False  # handing its tables over to stop (drain): sockets are sent elsewhere
        self.closing = False  # the drain's end: the sockets' requests are no longer read
        self.waiting_expiry = waiting_expiry
        self.clock = clock
        self._sweeper: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()  # finished tables waiting for their writes
        self.online: BotSeats = online or NoBotSeats()  # bots playing through the Bot API (botapi/online.py)
        self.metrics: Metrics | None = None  # the figures counted here (app.py sets them; metrics.py)
        self.on_created: Callable[[str], None] | None = None  # told each table made here (the pusher)

    # -- life cycle --------------------------------------------------------------------
    def _session(self, row: TableRow) -> TableSession:
        return TableSession(row, self.store, self.hub, self.settings, on_rematch=self.rematch)

    def restore(self) -> int:
        """Load every unfinished table from the store by replaying its moves. A table that cannot
        be restored (corrupt moves, say) is skipped and logged; the others start as usual."""
        count = 0
        for table_id in self.store.unfinished():
            try:
                row = self.store.load_table(table_id)
                if row is None:
                    continue
                self.tables[table_id] = self._session(row)
                count += 1
            except Exception as exc:  # any broken table: never stop the server over it
                log.error("table %s cannot be restored, skipped: %s", table_id, exc)
                self.skipped.append(table_id)
        return count

    def start(self) -> None:
        """Start every restored table's clocks and bots (needs the running event loop)."""
        self.running = True
        for session in list(self.tables.values()):
            session.start()
        if self.waiting_expiry > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def drain(self, bound: float) -> None:
        """Stop for a restart (SIGTERM): every table's moves under way stored and published,
        then every socket closed with 1012 ("service restart") so that its client comes back (to
        this process once it runs again; several processes hand their tables over instead:
        ownership.py). ``bound``: seconds this may take at most."""
        self.draining = True
        sessions = list(self.tables.values())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(s.stop() for s in sessions)), bound)
        self.hub.close_all(1012)

    async def stop(self) -> None:
        self.running = False
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for session in list(self.tables.values()):
            await session.stop()
        self.hub.close_all(1001)  # going away

    # -- creating and joining ----------------------------------------------------------
    async def upload(self, record: object, name: str | None) -> tuple[str, str]:
        """Store a game played elsewhere (offline, in a browser) from its record, replayed here
        first: its table id and the token of the person's seat (seat 0). A record that does not
        replay is refused with the engine's reason, and nothing is stored."""
        token = secrets.token_urlsafe(24)
        person = SeatRow(seat=0, kind="human", name=clean_name(name, "Player 1"), token_hash=hash_token(token))
        try:
            row = finished_row(record, self._new_id(), person)
        except (ValueError, KeyError, TypeError) as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"the record does not replay: {exc}") from None
        await self._insert(row)
        for version, move in enumerate(row.moves):
            ms = int(move[2]) if len(move) > 2 and move[2] is not None else None
            await self.store.call(self.store.add_move, row.id, version, move[0], move[1], ms, row.by[version])
        await self.store.call(self.store.set_status, row.id, "over", row.result)
        log.info("table %s stored from a record sent in: %s, %d moves", row.id, row.game, len(row.moves))
        return row.id, token

    async def create(self, req: CreateTable, bot: str | None = None, first: int | None = None) -> Created:
        """A new table; the creator takes its first human seat (``bot``: the online bot that
        creates it, its own seat; ``first``: the human seat a room planned for its creator). A
        private table (the default) gets an invite secret of its own, separate from every seat's
        token. An online-bot seat challenges that bot (botapi)."""
        try:
            info = game_info(req.game)
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(exc)) from None
        if req.rated and req.deal:
            # a deal code names the deck: whoever has seen that deal plays it knowing every card
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a rated table is dealt at random: it takes no deal code")
        if req.rated and bot is None:  # the person who creates it plays for their ladder name from the start
            entry = needed(req.ladder)
            await self.store.call(self.online.check_person, entry.name, entry.secret)
        kinds = web_bots(info.name)
        # the creator's seat comes first: a person's, or the creating bot's own
        first_kind = ONLINE_BOT if bot else "human"
        humans = [i for i, s in enumerate(req.seats) if s.kind == first_kind and (bot is None or s.name == bot)]
        if not humans:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a table needs at least one human seat")
        seats: list[SeatRow] = []
        for i, spec in enumerate(req.seats):
            if spec.kind == "bot":
                kind = (spec.bot or "").strip().lower()
                if kind not in kinds:
                    allowed = ", ".join(kinds)
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE, f"seat {i}: unknown bot {spec.bot!r}; available: {allowed}"
                    )
                seats.append(SeatRow(seat=i, kind="bot", name=bot_name(spec.name, kind, i), bot=kind))
            elif spec.kind == ONLINE_BOT:
                seats.append(self.online.seat(i, spec.name, bot))
            else:
                if spec.bot is not None:
                    raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {i}: a human seat has no bot")
                seats.append(SeatRow(seat=i, kind="human", name=f"Player {i + 1}"))
        try:
            seed, options, match = family_setup(info.name, len(req.seats), req)
            game = mauseloch.new_game(info.name, players=len(req.seats), seed=seed, options=options)
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(exc)) from None
        record = game.record()
        self.online.check(seats)
        if first is not None and first not in humans:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {first} is not a seat of a person")
        first = humans[0] if first is None else first
        if req.clock is not None and req.clock not in clock_choices(info.name):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{info.name} offers no clock {req.clock!r}")
        token = secrets.token_urlsafe(24)
        if seats[first].kind == "human":
            seats[first].name = clean_name(req.name, f"Player {first + 1}")
        seats[first].token_hash = hash_token(token)
        invite = None if req.public else secrets.token_urlsafe(16)
        row = TableRow(
            id=self._new_id(),
            game=info.name,
            title=clean_title(req.title, ""),  # none given: the page names it in its own language
            players=len(seats),
            options=record["options"],
            seed=record["seed"],
            deck=record["deck"],
            status="playing" if all(s.taken for s in seats) else "waiting",
            created=now(),
            seats=seats,
            clock=req.clock or default_clock(info.name),
            public=req.public,
            invite_hash=None if invite is None else hash_token(invite),
            match=match,
            joined=self._stamp(),
        )
        await self._insert(row)
        table = await self._open(row)
        await self.online.created(row, bot or seats[first].name, rated=req.rated)
        log.info(
            "table %s created: %s, %d seats, %s",
            row.id,
            info.name,
            len(seats),
            "public" if req.public else "private",
            extra={"table": row.id},
        )
        if req.rated and req.ladder is not None and bot is None:
            await self._enter(table, first, req.ladder)
        return Created(table, first, token, invite)

    async def _enter(self, table: TableHandle, seat: int, entry: LadderEntry) -> None:
        """The seat just taken at a rated table plays for ``entry``'s name (checked before the
        seat was taken: only a like name entered meanwhile at another seat refuses it now, and
        then the seat plays unrated)."""
        try:
            await self.store.call(self.online.enter_person, table.id, seat, entry.name, entry.secret)
        except ProtocolError as exc:
            log.warning("table %s seat %d plays unrated: %s", table.id, seat, exc)

    async def _insert(self, row: TableRow) -> None:
        """Store a new table (in a worker thread on a database server); an id that is taken in
        the store already (the primary key says so) is drawn again."""
        for attempt in range(NEW_ID_TRIES):
            try:
                await self.store.call(self.store.create_table, row)
                return
            except IntegrityError:
                if attempt == NEW_ID_TRIES - 1:
                    raise
                row.id = self._new_id()

    async def _open(self, row: TableRow) -> TableSession:
        """Run a table just stored (ClusterLobby takes its lease first)."""
        return self._run(row)

    def _run(self, row: TableRow) -> TableSession:
        if self.on_created is not None:
            self.on_created(row.id)
        session = self._session(row)
        self.tables[row.id] = session
        if self.running:
            session.start()
        return session

    def _new_id(self) -> str:
        """A fresh table id. Only this process's tables are looked at: a whole table loaded from
        the store per new id cost a round trip per created table; the store's primary key
        refuses a stored one (:meth:`_insert` draws again)."""
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    async def join(
        self,
        table: TableHandle,
        name: str | None,
        seat: int | None,
        invite: str | None = None,
        entry: LadderEntry | None = None,
        invited: bool = False,
    ) -> tuple[int, str]:
        """Take a free human seat (``seat``, or the first free one). A private table needs the
        secret of its invite link (or ``invited``: a room's member joins its room's table); a rated
        table the ladder name the seat plays for (``entry``)."""
        if table.status not in LIVE:
            raise ProtocolError(ErrorCode.TAKEN, "this table is not open any more", 409)
        if not invited and not self.invited(table, invite):
            raise ProtocolError(ErrorCode.INVITE_NEEDED, "this table is private: join through its invite link", 403)
        rated = await self.store.call(self.online.is_rated, table.id)
        if rated:  # the seat plays for its ladder name from the start: asked with the join, checked first
            entry = needed(entry)
            await self.store.call(self.online.enter_person, table.id, None, entry.name, entry.secret)
        free = [s.seat for s in table.row.seats if s.kind == "human" and not s.taken]
        if seat is not None:
            if not 0 <= seat < table.row.players or table.row.seats[seat].kind != "human":
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {seat} is not a human seat of this table")
            if seat not in free:
                raise ProtocolError(ErrorCode.TAKEN, f"seat {seat} is taken", 409)
            choices = [seat]
        else:
            choices = free
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        for s in choices:
            clean = clean_name(name, f"Player {s + 1}")
            joined = self._stamp()
            # the store decides who gets a seat two people ask for at once (on any process)
            if await table.write(self.store.take_seat, table.id, s, clean, digest, joined):
                seat_row = table.row.seats[s]
                seat_row.name = clean
                seat_row.token_hash = digest
                table.row.joined = joined
                if all(r.taken for r in table.row.seats) and table.row.status == "waiting":
                    table.row.status = "playing"  # at once: a second join here sees it
                    await table.write(self.store.set_status, table.id, "playing")
                table.seat_taken(s)
                log.info("table %s: seat %d taken", table.id, s, extra={"table": table.id})
                if rated and entry is not None:
                    await self._enter(table, s, entry)
                return s, token
        raise ProtocolError(ErrorCode.TAKEN, "no human seat is free at this table", 409)

    def rematch(self, old: TableSession) -> None:
        """Everyone still at a finished table agreed, or a match deals again: the table that
        follows (server/match.py following_row: the same seats, names, bots and seat tokens, so
        every page plays its seat there too), stored and run."""
        row = following_row(old.row, self._new_id(), old.state.votes)
        self._insert_now(row)
        self.store.set_next(old.id, row.id)
        old.row.next_id = row.id
        self._run(row)

    def _insert_now(self, row: TableRow) -> None:
        """:meth:`_insert` from synchronous code (a rematch, agreed once per game)."""
        for attempt in range(NEW_ID_TRIES):
            try:
                self.store.create_table(row)
                return
            except IntegrityError:
                if attempt == NEW_ID_TRIES - 1:
                    raise
                row.id = self._new_id()

    # -- finding -----------------------------------------------------------------------
    def get(self, table_id: str) -> TableHandle | None:
        """A table by id. Finished tables are loaded from the store on demand and kept in memory
        only while connections watch them (see :meth:`release`). The requests use :meth:`find`."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        try:
            row = self.store.load_table(table_id)
        except Exception as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            return None
        return self._loaded(table_id, row)

    async def find(self, table_id: str) -> TableHandle | None:
        """:meth:`get` for a request: a table not in memory is loaded in a worker thread."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        try:
            row = await self.store.call(self.store.load_table, table_id)
        except Exception as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            return None
        return self._loaded(table_id, row)

    def _loaded(self, table_id: str, row: TableRow | None) -> TableSession | None:
        if row is None:
            return None
        running = self.tables.get(table_id)
        if running is not None:  # another request loaded it meanwhile: one session per table
            return running
        try:
            table = self._session(row)
        except (ValueError, KeyError) as exc:
            log.error("table %s cannot be loaded: %s", table_id, exc)
            return None
        if table.status in LIVE:
            self.tables[table_id] = table
            if self.running:
                table.start()
        return table

    def waiting(self, table_id: str) -> bool:
        """Whether the table still waits for players (the cap on an address's waiting tables)."""
        table = self.tables.get(table_id)
        return table is not None and table.status == "waiting"

    def hold(self, table: TableHandle) -> TableHandle:
        """The instance of ``table`` kept in memory while a connection uses it."""
        if not isinstance(table, TableSession):  # a table owned elsewhere: its owner holds it
            return table
        held = self.tables.setdefault(table.id, table)
        if self.running:
            held.start()
        return held

    def release(self, table: TableHandle) -> None:
        if table.status not in LIVE and not self.hub.listeners(table.id):
            if table.writing:  # its status may not be stored yet: let go once it is
                task = asyncio.get_running_loop().create_task(self._release_later(table))
                self._releasing.add(task)
                task.add_done_callback(self._releasing.discard)
                return
            if self.tables.get(table.id) is table:
                self.tables.pop(table.id, None)  # finished and unwatched: the store keeps it
                log.info("table %s is %s and unwatched: let go", table.id, table.status, extra={"table": table.id})

    async def _release_later(self, table: TableHandle) -> None:
        await table.flush()
        self.release(table)

    def listing(self, page: int = 0, size: int = PAGE_SIZE) -> tuple[list[TableSummary], bool]:
        """One page of the public tables that are open, running or just closed, newest first, and
        whether older ones follow. Private tables are never listed."""
        live = [t for t in self.tables.values() if t.row.public and t.status != "over"]
        live.sort(key=lambda t: (t.row.created, t.id), reverse=True)
        start = page * size
        return [t.summary() for t in live[start : start + size]], len(live) > start + size

    # -- expiry ------------------------------------------------------------------------
    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_EVERY, self.waiting_expiry))
            try:
                await self.sweep()
            except Exception:  # never let one bad table stop the sweeping
                log.exception("sweeping expired tables failed")

    async def sweep(self) -> list[str]:
        """Close every table that waited ``waiting_expiry`` seconds without a join; their ids."""
        now = self.clock()
        expired: list[str] = []
        for table in list(self.tables.values()):
            # the stored moment, so a restarted server counts on where the last one was
            expiry = max(self.waiting_expiry, DAYS_WAITING) if over_days(table.row.clock) else self.waiting_expiry
            if table.status == "waiting" and now - table.row.waiting_since.timestamp() >= expiry:
                await table.expire()
                expired.append(table.id)
        return expired

    def _stamp(self) -> dt.datetime:
        """Now by the lobby's clock, as stored with a table waiting for players."""
        return dt.datetime.fromtimestamp(self.clock(), dt.UTC)

    # -- seats -------------------------------------------------------------------------
    @staticmethod
    def invited(table: TableHandle, invite: str | None) -> bool:
        """Whether ``invite`` lets someone join ``table`` (anyone may join a public table)."""
        if table.row.public or table.row.invite_hash is None:
            return True
        if not invite or len(invite) > MAX_INVITE:
            return False
        return hmac.compare_digest(hash_token(invite), table.row.invite_hash)

    async def renew(self, table: TableHandle, seat: int) -> str:
        """A new token for a taken seat; every connection that opened it with the old one ends."""
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        await table.write(self.store.set_token, table.id, seat, digest)
        table.row.seats[seat].token_hash = digest
        self.hub.close_seat(table.id, seat, CLOSE_SIGNED_OUT)
        return token

    async def my_tables(self, cookies: Mapping[str, str]) -> list[MyTable]:
        """The lobby's "My tables": every table the browser with these cookies holds a seat at
        (its ``ml_<id>`` cookie, ``seat:token``, opens that seat), waiting, running and finished,
        private ones included, newest first, each summary with ``you``: the seat. Only a seat's
        own token shows a table, so nobody learns of a table they have no seat at; a table that
        is gone, or whose seat was signed out with a new token elsewhere, is left out."""
        found: list[MyTable] = []
        held = [(name[3:], value) for name, value in cookies.items() if name.startswith("ml_")]
        for table_id, value in held[:MY_TABLES]:
            seat_text, _, token = value.partition(":")
            if not token or not seat_text.isdigit() or len(table_id) > MAX_TABLE_ID or len(token) > MAX_INVITE:
                continue
            table = await self.find(table_id)
            if table is None or int(seat_text) >= table.row.players:
                continue
            seat = self.check_token(table, int(seat_text), token)
            if seat is not None:
                found.append(MyTable(**msgspec.structs.asdict(table.summary()), you=seat))
        found.sort(key=lambda s: (s.created, s.id), reverse=True)
        return found

    @staticmethod
    def check_token(table: TableHandle, seat: int | None, token: str) -> int | None:
        """The seat ``token`` opens (``seat`` if given), or None; constant-time comparison."""
        digest = hash_token(token)
        candidates = table.row.seats if seat is None else table.row.seats[seat : seat + 1]
        found: int | None = None
        for s in candidates:
            if s.token_hash is not None and hmac.compare_digest(digest, s.token_hash):
                found = s.seat
        return found


async def api_my_tables(request: Request) -> Response:
    """``GET /api/my-tables``: the tables this browser holds a seat at, from the seat cookies it
    sends (:meth:`Lobby.my_tables`); never cached, since it is this browser's own list."""
    lobby: Lobby = request.app.state.lobby
    tables = await lobby.my_tables(request.cookies)
    body = encode(MyTables(tables))
    return Response(body, media_type="application/json", headers={"Cache-Control": "private, no-store"})


def bot_name(asked: str | None, kind: str, seat: int) -> str:
    """A bot seat's name: the one asked for when it is a bot's name (a room's bots keep theirs
    from game to game), else its kind and seat ("Heuristic bot 3")."""
    folded = (asked or "").casefold()
    if asked is not None and len(asked) <= MAX_NAME and "bot" in folded and RESERVED_NAME.fullmatch(folded):
        return asked
    return f"{kind.capitalize()} bot {seat + 1}"


def needed(entry: LadderEntry | None) -> LadderEntry:
    """The ladder entry of a person's seat at a rated table (refused when there is none)."""
    if entry is None:
        raise ProtocolError(ErrorCode.LADDER_NAME, "this table is rated: say the ladder name the seat plays for")
    return entry
