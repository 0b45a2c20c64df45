"""Running tables: the game object, its connections, its bots, and their store.

A table's ``version`` is the number of moves played, its ``seq`` the number of events logged.
Everything here runs on the server's event loop. A move is checked, stored and played under its
table's lock, so two moves never race and a stale one is refused; a stored move always completes
(see :func:`unbroken`). Each connection has an outbox (a queue of JSON texts) that the WebSocket
handler drains; messages are put there in the order things happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

import mauseloch
from mauseloch import IllegalMove, event_for
from mauseloch.bots import Bot, bot_kinds, make_bot
from mauseloch.engine import Game, GameInfo, derive_seed, game_info

from .protocol import (
    CreateTable,
    ErrorMsg,
    Pong,
    ProtocolError,
    Snapshot,
    Update,
    clean_name,
    clean_title,
    encode,
)
from .storage import SeatRow, Store, TableRow, now

log = logging.getLogger("mauseloch.server")

SNAPSHOT_EVENTS = 50
OUTBOX_LIMIT = 500  # messages a connection may fall behind before it is dropped
BOT_DELAY = {"aus-die-maus": 0.8}  # seconds before a bot moves, per game
DEFAULT_BOT_DELAY = 0.6
BOT_RETRY = 2.0  # seconds before a bot tries again when its move could not be stored


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def realtime(info: GameInfo) -> bool:
    """Games with a reaction window need a server clock; the web platform does not offer them yet."""
    return info.dynamics == "reactions"


def web_games() -> list[GameInfo]:
    return [info for info in mauseloch.GAMES.values() if not realtime(info)]


@dataclass(eq=False)
class Connection:
    """One WebSocket: a seat (None: spectator) and the messages waiting to be sent.

    ``None`` in the outbox ends the connection after everything before it was sent, with
    ``close_code``.
    """

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    close_code: int | None = None

    def send(self, text: str) -> None:
        if self.close_code is not None:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # a client that stopped reading: let it go
            self.close(1008)
            return
        self.outbox.put_nowait(text)

    def close(self, code: int) -> None:
        if self.close_code is None:
            self.close_code = code
            self.outbox.put_nowait(None)


@dataclass(eq=False)
class RunningTable:
    row: TableRow
    game: Game
    version: int
    seq: int
    events: list[dict[str, Any]]
    conns: set[Connection] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # held while a move is checked and stored

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    def summary(self) -> dict[str, Any]:
        row = self.row
        return {
            "id": row.id,
            "game": row.game,
            "title": row.title,
            "players": row.players,
            "options": row.options,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot, "taken": s.taken} for s in row.seats
            ],
            "status": row.status,
            "version": self.version,
            "created": row.created.isoformat().replace("+00:00", "Z"),
        }


def build_game(row: TableRow) -> Game:
    """The game a stored table describes, with every stored move replayed."""
    game = mauseloch.new_game(row.game, players=row.players, seed=row.seed, options=row.options, deck=row.deck)
    for entry in row.moves:
        game.play(entry[1], seat=entry[0], ms=entry[2] if len(entry) > 2 else None)
    return game


def replay_frames(row: TableRow) -> list[dict[str, Any]]:
    """One frame per position of a finished game, every hand visible, with the events that led to it."""
    game = mauseloch.new_game(row.game, players=row.players, seed=row.seed, options=row.options, deck=row.deck)

    has_hands = "hand" in game.view(0)  # Aus die Maus! has face-down stacks nobody sees, not hands

    def frame(move: list[Any] | None, seen: int) -> tuple[dict[str, Any], int]:
        view = game.view(None)
        if has_hands and "hands" not in view:
            view["hands"] = [game.view(s)["hand"] for s in range(game.players)]
        events = game.events_since(seen)
        return {"move": move, "view": view, "events": events}, seen + len(events)

    first, seen = frame(None, 0)
    frames = [first]
    for entry in row.moves:
        game.play(entry[1], seat=entry[0], ms=entry[2] if len(entry) > 2 else None)
        f, seen = frame(list(entry), seen)
        frames.append(f)
    return frames


class Tables:
    """All tables this server runs, backed by a :class:`Store`."""

    def __init__(self, store: Store, bot_delay: float | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, RunningTable] = {}
        self.stopping = False  # shutting down: no more moves

    # -- life cycle --------------------------------------------------------------------
    def restore(self) -> int:
        """Load every unfinished table from the store by replaying its moves."""
        count = 0
        for row in self.store.unfinished():
            try:
                self.tables[row.id] = self._running(row)
                count += 1
            except (ValueError, KeyError) as exc:
                log.error("table %s cannot be restored: %s", row.id, exc)
        return count

    def start(self) -> None:
        """Let the bots of every restored table move (needs the running event loop)."""
        for table in list(self.tables.values()):
            self.kick(table)

    async def stop(self) -> None:
        """Cancel the bots once no move is half done, then close every connection."""
        self.stopping = True
        for table in list(self.tables.values()):
            async with table.lock:  # a move being stored finishes first
                task, table.bot_task = table.bot_task, None
                if task is not None:
                    task.cancel()
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for conn in table.conns:
                conn.close(1001)  # going away

    def _running(self, row: TableRow) -> RunningTable:
        game = build_game(row)
        events = game.events
        table = RunningTable(row=row, game=game, version=len(row.moves), seq=len(events), events=events)
        for s in row.seats:
            if s.kind == "bot" and s.bot is not None:
                table.bots[s.seat] = make_bot(row.game, s.bot, seed=derive_seed(row.seed, 1000 + s.seat))
        return table

    # -- lobby -------------------------------------------------------------------------
    def create(self, req: CreateTable) -> tuple[RunningTable, int, str]:
        """A new table; the creator takes its first human seat. Returns (table, seat, token)."""
        try:
            info = game_info(req.game)
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        if realtime(info):
            raise ProtocolError("bad_message", f"{info.title} is not offered in the browser yet")
        kinds = bot_kinds(info.name)
        humans = [i for i, s in enumerate(req.seats) if s.kind == "human"]
        if not humans:
            raise ProtocolError("bad_message", "a table needs at least one human seat")
        seats: list[SeatRow] = []
        for i, spec in enumerate(req.seats):
            if spec.kind == "bot":
                kind = (spec.bot or "").strip().lower()
                if kind not in kinds:
                    allowed = ", ".join(kinds)
                    raise ProtocolError("bad_message", f"seat {i}: unknown bot {spec.bot!r}; available: {allowed}")
                seats.append(SeatRow(seat=i, kind="bot", name=f"{kind.capitalize()} bot {i + 1}", bot=kind))
            else:
                if spec.bot is not None:
                    raise ProtocolError("bad_message", f"seat {i}: a human seat has no bot")
                seats.append(SeatRow(seat=i, kind="human", name=f"Player {i + 1}"))
        try:
            game = mauseloch.new_game(info.name, players=len(req.seats), options=req.options)
        except ValueError as exc:
            raise ProtocolError("bad_message", str(exc)) from None
        record = game.record()
        first = humans[0]
        name = clean_name(req.name, f"Player {first + 1}")
        token = secrets.token_urlsafe(24)
        seats[first].name = name
        seats[first].token_hash = hash_token(token)
        table_id = self._new_id()
        row = TableRow(
            id=table_id,
            game=info.name,
            title=clean_title(req.title, ""),  # none given: the page names it in its own language
            players=len(seats),
            options=record["options"],
            seed=record["seed"],
            deck=record["deck"],
            status="playing" if len(humans) == 1 else "waiting",
            created=now(),
            seats=seats,
        )
        self.store.create_table(row)
        table = self._running(row)
        self.tables[table_id] = table
        self.kick(table)
        return table, first, token

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and self.store.load_table(table_id) is None:
                return table_id

    def join(self, table: RunningTable, name: str | None, seat: int | None) -> tuple[int, str]:
        free = [s.seat for s in table.row.seats if s.kind == "human" and not s.taken]
        if seat is not None:
            if not 0 <= seat < table.row.players or table.row.seats[seat].kind != "human":
                raise ProtocolError("bad_message", f"seat {seat} is not a human seat of this table")
            if seat not in free:
                raise ProtocolError("taken", f"seat {seat} is taken", 409)
            choices = [seat]
        else:
            choices = free
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        for s in choices:
            clean = clean_name(name, f"Player {s + 1}")
            if self.store.take_seat(table.id, s, clean, digest):
                seat_row = table.row.seats[s]
                seat_row.name = clean
                seat_row.token_hash = digest
                if all(r.taken for r in table.row.seats) and table.row.status == "waiting":
                    table.row.status = "playing"
                    self.store.set_status(table.id, "playing")
                for conn in table.conns:  # everyone sees who sat down (and that the game began)
                    conn.send(self.snapshot(table, conn.seat))
                self.kick(table)
                return s, token
        raise ProtocolError("taken", "no human seat is free at this table", 409)

    def get(self, table_id: str) -> RunningTable | None:
        """A table by id. Finished tables are loaded from the store on demand and kept in memory
        only while connections watch them (see :meth:`attach`)."""
        table = self.tables.get(table_id)
        if table is None:
            row = self.store.load_table(table_id)
            if row is None:
                return None
            try:
                table = self._running(row)
            except (ValueError, KeyError) as exc:
                log.error("table %s cannot be loaded: %s", table_id, exc)
                return None
            if table.status != "over":
                self.tables[table_id] = table
        return table

    def listing(self) -> list[dict[str, Any]]:
        """Open and running tables, newest first."""
        live = [t for t in self.tables.values() if t.status != "over"]
        live.sort(key=lambda t: t.row.created, reverse=True)
        return [t.summary() for t in live]

    # -- seats and connections ---------------------------------------------------------
    @staticmethod
    def check_token(table: RunningTable, seat: int | None, token: str) -> int | None:
        """The seat ``token`` opens (``seat`` if given), or None; constant-time comparison."""
        digest = hash_token(token)
        candidates = table.row.seats if seat is None else table.row.seats[seat : seat + 1]
        found: int | None = None
        for s in candidates:
            if s.token_hash is not None and hmac.compare_digest(digest, s.token_hash):
                found = s.seat
        return found

    def attach(self, table: RunningTable, conn: Connection) -> RunningTable:
        """Add a connection (and send it a snapshot); returns the table instance it is attached to."""
        table = self.tables.setdefault(table.id, table)
        table.conns.add(conn)
        conn.send(self.snapshot(table, conn.seat))
        self.kick(table)
        return table

    def detach(self, table: RunningTable, conn: Connection) -> None:
        table.conns.discard(conn)
        if table.status == "over" and not table.conns:
            self.tables.pop(table.id, None)  # finished and unwatched: the store keeps it

    # -- messages ----------------------------------------------------------------------
    def snapshot(self, table: RunningTable, seat: int | None) -> str:
        events = [e for e in (event_for(ev, seat) for ev in table.events[-SNAPSHOT_EVENTS:]) if e is not None]
        return encode(
            Snapshot(
                version=table.version,
                seq=table.seq,
                seat=seat,
                view=table.game.view(seat),
                events=events,
                table=table.summary(),
            )
        )

    @staticmethod
    def error(table: RunningTable | None, code: str, message: str) -> str:
        version, seq = (table.version, table.seq) if table is not None else (0, 0)
        return encode(ErrorMsg(version=version, seq=seq, code=code, message=message))

    @staticmethod
    def pong(table: RunningTable) -> str:
        return encode(Pong(version=table.version, seq=table.seq))

    # -- moves -------------------------------------------------------------------------
    async def move(self, table: RunningTable, seat: int | None, move: str, version: int) -> None:
        """A client's move; raises :class:`ProtocolError` (nothing changed) when refused."""
        await unbroken(self._move(table, seat, move, version))

    async def _move(self, table: RunningTable, seat: int | None, move: str, version: int) -> None:
        async with table.lock:  # one move at a time per table; the checks see the latest state
            if self.stopping:
                raise ProtocolError("server_error", "the server is shutting down; nothing changed")
            if table.status == "waiting":
                raise ProtocolError("not_started", "the game starts when every human seat is taken")
            if version != table.version:
                raise ProtocolError("stale", f"the table is at version {table.version}, your move was for {version}")
            if seat is None:
                raise ProtocolError("not_your_turn", "spectators cannot move")
            game = table.game
            if game.is_over:
                raise ProtocolError("illegal", "the game is over; no more moves")
            if seat in table.bots:
                raise ProtocolError("not_your_turn", "a bot plays this seat")
            legal = game.legal_moves(seat)
            if not legal:
                raise ProtocolError("not_your_turn", f"it is seat {game.to_move}'s turn, not yours")
            if move.strip().lower() == "timeout":
                raise ProtocolError("illegal", "timeout is played by the server's clock, never by a client")
            await self._apply(table, seat, move, legal)

    async def _apply(self, table: RunningTable, seat: int, move: str, legal: list[str]) -> None:
        """Store and play ``move`` for ``seat``, then tell every connection what it may see.

        Called with the table's lock held. A write to a database server runs in a worker thread,
        so other tables play on while this one waits for it.
        """
        game = table.game
        wanted = move.strip().lower()
        canon = next((m for m in legal if m.lower() == wanted), None)
        if canon is None:
            try:
                game.play(move, seat=seat)  # not in the list: the engine says why
            except IllegalMove as exc:
                raise ProtocolError("illegal", str(exc)) from None
            # accepted under another spelling: undo by rebuilding, then play it the usual way
            canon = game.record()["moves"][-1][1]
            table.game = build_game(table.row)
            game = table.game
        try:  # stored before it counts
            if self.store.local:  # SQLite: a commit costs less than a trip to a worker thread
                self.store.add_move(table.id, table.version, seat, canon)
            else:
                await asyncio.to_thread(self.store.add_move, table.id, table.version, seat, canon)
        except SQLAlchemyError:
            log.exception("move at table %s version %s could not be stored", table.id, table.version)
            raise ProtocolError("server_error", "the server could not store the move; nothing changed") from None
        game.play(canon, seat=seat)
        table.row.moves.append([seat, canon])
        self._advance(table)

    def _advance(self, table: RunningTable) -> None:
        game = table.game
        new = game.events_since(table.seq)
        table.events.extend(new)
        table.version += 1
        table.seq += len(new)
        if game.is_over and table.row.status != "over":
            table.row.status = "over"
            table.row.result = game.result()
            self.store.set_status(table.id, "over", table.row.result)
        texts: dict[int | None, str] = {}
        for conn in table.conns:
            text = texts.get(conn.seat)
            if text is None:
                events = [e for e in (event_for(ev, conn.seat) for ev in new) if e is not None]
                text = encode(Update(version=table.version, seq=table.seq, view=game.view(conn.seat), events=events))
                texts[conn.seat] = text
            conn.send(text)
        self.kick(table)

    # -- bots --------------------------------------------------------------------------
    def kick(self, table: RunningTable) -> None:
        """Schedule the bot whose turn it is, once, after its pause."""
        game = table.game
        if self.stopping or table.status != "playing" or game.is_over or table.bot_task is not None:
            return
        if game.to_move not in table.bots:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (restored at start-up): start() kicks again
            return
        table.bot_task = loop.create_task(self._bot_turn(table, table.version))

    def _delay(self, game: str) -> float:
        return self.bot_delay if self.bot_delay is not None else BOT_DELAY.get(game, DEFAULT_BOT_DELAY)

    async def _bot_turn(self, table: RunningTable, version: int) -> None:
        await asyncio.sleep(self._delay(table.row.game))
        await unbroken(self._bot_move(table, version))

    async def _bot_move(self, table: RunningTable, version: int) -> None:
        async with table.lock:
            if self.stopping:
                return
            table.bot_task = None
            game = table.game
            seat = game.to_move
            if table.version != version or game.is_over or seat is None or seat not in table.bots:
                self.kick(table)
                return
            legal = game.legal_moves(seat)
            try:
                move = table.bots[seat].choose(game.view(seat), legal)
                if move not in legal:
                    raise IllegalMove(f"bot chose {move!r}, not a legal move")
            except Exception:
                log.exception("bot at table %s seat %s failed; playing its first legal move", table.id, seat)
                move = legal[0]
            try:
                await self._apply(table, seat, move, legal)
            except Exception:  # the store failed, say: nothing changed, try again in a while
                log.exception("bot move at table %s could not be played; retrying", table.id)
                asyncio.get_running_loop().call_later(BOT_RETRY, self.kick, table)


async def unbroken(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` to its end even if the caller is cancelled: a move that was written to the
    store is always played and announced, so memory and store never disagree."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(_retrieve)
    await asyncio.shield(task)


def _retrieve(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()  # seen, so an error nobody awaited any more is not reported twice
