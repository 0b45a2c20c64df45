"""One table's authority: its game, version, seats, deadlines, and every change to them.

A table's ``version`` is the number of moves played, its ``seq`` the number of events logged.
Everything here runs on the server's event loop, and every change happens under the table's
lock: a move is checked against the current version (a move built on an older one is ``stale``,
as in boardgame.io's master), stored, played, then published through the hub, so two moves never
race. A stored move always completes (see :func:`unbroken`). What a seat may see is decided in
one place, :meth:`TableSession.message_for` and friends, which ask the engine for the seat's view
and redact events with :func:`mauseloch.event_for`.

Who moves: a person, a bot, or, for a person who is gone or whose clock ran out, a stand-in
(seats.py). Deadlines (clock.py) are stored with the table, the next turn's in the same
transaction as the move that starts it.

Pause: the people seated pause the whole table. Alone (the only person connected), a pause
starts at once; with others connected it is a request that starts the pause once every person
connected has agreed. While paused nothing happens by itself (no bot, no stand-in, no card
turned in a reaction game), the turn clock is frozen with the time it had left, and moves are
refused with ``paused``; any person seated resumes it. A pause ends by itself only when no person
is left at the table (everyone gone: the stand-ins finish the game, as without a pause).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from mauseloch import IllegalMove, event_for
from mauseloch.bots.random_bot import pause_factor
from mauseloch.core.engine import Game, game_info
from mauseloch.server.clock import CLOSE_WAITING, GRACE_LEFT, GRACE_LOST, Deadline, Deadlines, clock_seconds, wall
from mauseloch.server.family import deal_ended, match_state
from mauseloch.server.hub import Connection, Hub
from mauseloch.server.protocol import (
    ErrorCode,
    ErrorMsg,
    Pong,
    PresenceMsg,
    ProtocolError,
    Snapshot,
    Update,
    encode,
)
from mauseloch.server.reactions import Reactions
from mauseloch.server.seats import STAND_IN, BotSeat, Controller, Person, controllers
from mauseloch.server.storage import Store, TableRow
from mauseloch.server.table.records import build, marked
from mauseloch.server.table.summary import table_summary
from mauseloch.server.table.work import unbroken
from mauseloch.server.table.writes import WriteQueue

log = logging.getLogger("mauseloch.server")

SNAPSHOT_EVENTS = 50
BOT_RETRY = 2.0  # seconds before a bot tries again when its move could not be stored
LIVE = ("waiting", "playing")
T = TypeVar("T")


@dataclass
class Settings:
    """Server-wide knobs: ``bot_delay`` replaces the bots' pause; ``clock_scale`` multiplies every
    clock and grace time (tests and benchmarks run them fast)."""

    bot_delay: float | None = None
    clock_scale: float = 1.0


def refusal_params(exc: IllegalMove) -> dict[str, Any]:
    """The placeholders of a refusal that a page words (not the list of legal moves: the view has it)."""
    return {k: v for k, v in exc.params.items() if k != "moves"}


def refusals(game: Game, seat: int | None) -> dict[str, dict[str, Any]]:
    """For the seat to move in a game whose hand cards are moves: why each card of its hand that is
    no legal move now is refused, card -> the engine's refusal key and placeholders
    (``IllegalMove.reason``/``params``), so the page says why at once when the card is tapped, in
    its own language, without computing any rule. Empty for every other seat."""
    if seat is None or game.is_over or game_info(game.name).dynamics == "reactions":
        return {}
    legal = game.legal_moves(seat)
    hand = game.view(seat).get("hand") if legal else None
    if not hand:
        return {}
    playable = {m.partition(":")[0] for m in legal}
    refused: dict[str, dict[str, Any]] = {}
    for card in hand:
        if card in playable:
            continue
        try:
            game.parse_move(card, seat=seat)  # checks only: the game is left as it was
        except IllegalMove as exc:
            if exc.reason:
                refused[card] = {"reason": exc.reason, "params": refusal_params(exc)}
    return refused


class TableSession:
    """The one authority over a table while this server runs it."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        hub: Hub,
        settings: Settings,
        on_rematch: Callable[[TableSession], None] | None = None,
    ) -> None:
        self.row = row
        self.store = store
        self.hub = hub
        self.settings = settings
        self.on_rematch = on_rematch
        self.game, self.events = build(row)
        self.version = len(row.moves)
        self.seq = len(self.events)
        self.seats: list[Controller] = controllers(row.game, row.seed, row.seats)
        self.lock = asyncio.Lock()  # held while anything at the table changes
        self.deadlines = Deadlines(self._due, settings.clock_scale)
        self.deadlines.load(row.deadlines, started=wall())
        for d in self.deadlines:
            if d.kind == "grace" and d.seat is not None and isinstance(self.seats[d.seat], Person):
                self.seats[d.seat].grace_pending = True
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_version = -1
        self.bot_due: float | None = None
        self.rematch: set[int] = set()
        self.speed = 1.0  # the bots' pace, set by the people at the table
        self.pause_asked: list[int] = []  # seats that asked for a pause or agreed to it, the asker first
        self.stopping = False
        self.started = False
        self.writes = WriteQueue(store, row.id)
        # a reaction game's windows, driven with this server's clock (reactions.py)
        self.reactions = Reactions(self) if game_info(row.game).dynamics == "reactions" else None

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

    @property
    def paused_by(self) -> int | None:
        """The seat whose pause holds the table (the asker of an agreed pause), or None."""
        pause = self.deadlines.get("pause")
        return None if pause is None else pause.seat

    @property
    def paused(self) -> bool:
        return self.deadlines.get("pause") is not None

    @property
    def pace(self) -> dict[str, Any]:
        return {"paused": self.paused, "speed": self.speed}

    def _present(self) -> list[int]:
        """The seats of the people connected now: a pause needs each of them."""
        return [c.row.seat for c in self.seats if isinstance(c, Person) and c.row.taken and c.conns > 0]

    def pause_state(self) -> dict[str, Any]:
        """What everyone sees of a pause: who paused, or who asked, who agreed and who is still asked."""
        asked = self.pause_asked
        return {
            "paused": self.paused,
            "by": self.paused_by,
            "asked": asked[0] if asked else None,
            "agreed": asked[1:],
            "waiting": [s for s in self._present() if s not in asked] if asked else [],
        }

    def summary(self) -> dict[str, Any]:
        return table_summary(self.row, self.version, [(c.presence, c.stand_in) for c in self.seats])

    def live(self) -> dict[str, Any]:
        """What changes without a move: presence, stand-ins, the running clock, rematch votes."""
        deadline: dict[str, Any] | None = None
        seat = self.game.to_move
        turn = self.deadlines.get("turn")
        if self.row.status == "playing" and not self.game.is_over and seat is not None and self.paused:
            # the frozen clock with the seconds it has left (a reaction game's countdown just waits)
            if self.reactions is None and turn is not None and turn.version == self.version and turn.left is not None:
                deadline = {"seat": seat, "kind": "turn", "left": round(turn.left, 3)}
        elif self.row.status == "playing" and not self.game.is_over and seat is not None:
            if self.reactions is not None:  # the countdown to the next card, whoever turns it
                due = turn.due if turn is not None and turn.version == self.version else self.bot_due
                if due is not None:
                    deadline = {"seat": seat, "kind": "reveal", "due": round(due, 3)}
            elif self.seats[seat].stand_in and self.bot_due is not None:
                deadline = {"seat": seat, "kind": STAND_IN, "due": round(self.bot_due, 3)}
            elif turn is not None and turn.version == self.version:
                deadline = {"seat": seat, "kind": "turn", "due": round(turn.due, 3)}
        return {
            "status": self.row.status,
            "seats": [{"presence": c.presence, "stand_in": c.stand_in} for c in self.seats],
            "deadline": deadline,
            "rematch": sorted(self.rematch),
            "next": self.row.next_id,
            "match": match_state(self.row),
            "pace": self.pace,
            "pause": self.pause_state(),
            "now": round(wall(), 3),
        }

    # -- the one place that decides what a seat sees ----------------------------------------
    def _events_for(self, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
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

    def _update_for(
        self, new: list[dict[str, Any]], by: str | None, live: dict[str, Any]
    ) -> Callable[[int | None], str]:
        def message(seat: int | None) -> str:
            return encode(
                Update(
                    version=self.version,
                    seq=self.seq,
                    view=self.game.view(seat),
                    refused=refusals(self.game, seat),
                    events=self._events_for(new, seat),
                    by=by,
                    live=live,
                )
            )

        return message

    def error(self, code: ErrorCode, message: str, refusal: dict[str, Any] | None = None) -> str:
        return encode(ErrorMsg(version=self.version, seq=self.seq, code=code, message=message, refusal=refusal))

    def pong(self) -> str:
        return encode(Pong(version=self.version, seq=self.seq))

    def publish_live(self) -> None:
        text = encode(PresenceMsg(version=self.version, seq=self.seq, live=self.live()))
        self.hub.publish(self.id, self.version, lambda seat: text)

    def publish_snapshots(self) -> None:
        self.hub.publish(self.id, self.version, self.snapshot)

    # -- life cycle --------------------------------------------------------------------
    def start(self) -> None:
        """Arm the deadlines and let whoever is to move move (needs the running event loop).

        Nobody is connected to a freshly started server: every person who was here gets the grace
        of a lost connection (not stored: a second restart gives it again)."""
        if self.started:
            return
        self.started = True
        if self.row.status in LIVE:
            for ctl in self.seats:
                seat = ctl.row.seat
                if not isinstance(ctl, Person) or not ctl.row.taken or ctl.row.gone or ctl.conns:
                    continue
                if self.deadlines.get("grace", seat) is None:
                    self.deadlines.set(Deadline("grace", wall() + self.deadlines.seconds(GRACE_LOST), seat=seat))
                    ctl.grace_pending = True
        self.deadlines.start()
        self._schedule()
        if self.reactions is not None and self.row.status == "playing" and self._window_open():
            self.reactions.opened()  # restored with a card shown: shown again, judged afresh

    def _window_open(self) -> bool:
        return not self.game.is_over and self.game.to_move is None

    async def stop(self) -> None:
        """Cancel the bots once no move is half done; the deadlines stay stored."""
        async with self.lock:  # a move being stored finishes first
            self.stopping = True
            self.deadlines.stop()
            if self.reactions is not None:
                self.reactions.stop()
            task, self.bot_task = self.bot_task, None
            if task is not None:
                task.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.flush()

    def _save_deadlines(self) -> None:
        # the timers run on in memory; a failed write is logged, only a restart would forget them
        self.write_later("deadlines", self.store.set_deadlines, self.id, self.deadlines.to_list())

    # -- writes to the store, in order (table/writes.py) ---------------------------------------
    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.writes.write(fn, *args)

    def write_later(self, what: str, fn: Callable[..., Any], *args: Any) -> None:
        self.writes.write_later(what, fn, *args)

    @property
    def writing(self) -> bool:
        return self.writes.writing

    async def flush(self) -> None:
        await self.writes.flush()

    # -- connections and presence ------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        """A connection joins (the person of its seat is back); it gets a snapshot."""
        seat = conn.seat
        person = self.person(seat) if seat is not None else None
        if person is not None:
            person.conns += 1
            if person.conns == 1:
                self._returned(person)
        self.hub.subscribe(self.id, conn)
        conn.send(self.snapshot(seat))
        if self.reactions is not None:
            self.reactions.attach(conn)

    async def resync(self, conn: Connection) -> None:
        """A fresh snapshot for ``conn`` (its client missed something)."""
        conn.send(self.snapshot(conn.seat))

    def _returned(self, person: Person) -> None:
        seat = person.row.seat
        changed = person.grace_pending or person.row.gone
        person.grace_pending = False
        had = [self.deadlines.remove("grace", seat), self.deadlines.remove("close")] != [None, None]
        if person.row.gone:
            person.row.gone = False
            self.write_later("presence", self.store.set_gone, self.id, seat, False)
        if had:
            self._save_deadlines()
        if changed:
            self._schedule()
        self.publish_live()

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        """A connection ends. ``left``: the person left on purpose (gone at once, unless another
        of their pages is still open); ``everywhere``: every page of the seat leaves with it."""
        self.hub.unsubscribe(self.id, conn)
        if self.reactions is not None:
            self.reactions.detach(conn)
        seat = conn.seat
        person = self.person(seat) if seat is not None else None
        if person is None or not person.row.taken:
            return
        person.conns = max(0, person.conns - 1)
        if left and everywhere:
            self.hub.close_seat(self.id, person.row.seat, 1000)  # the leave button: every tab goes
            person.conns = 0
        if person.conns > 0:
            return
        if left and not person.row.gone:
            person.row.gone = True
            self.write_later("presence", self.store.set_gone, self.id, person.row.seat, True)
        # after the game too: someone who is gone does not hold up a rematch
        if self.row.status in (*LIVE, "over") and (left or self.deadlines.get("grace", person.row.seat) is None):
            grace = GRACE_LEFT if left else GRACE_LOST
            self.deadlines.set(Deadline("grace", wall() + self.deadlines.seconds(grace), seat=person.row.seat))
            person.grace_pending = True
            self._save_deadlines()
        self._pause_presence()
        self.publish_live()
        if self.row.status == "over":
            self._check_rematch()

    def _gone(self, seat: int) -> None:
        """A grace time ran out: the person counts as gone; a stand-in plays from now on."""
        person = self.person(seat)
        if person is None:
            return
        person.grace_pending = False
        if person.conns > 0:
            return
        if not person.row.gone:
            person.row.gone = True
            self.write_later("presence", self.store.set_gone, self.id, seat, True)
        humans = [c for c in self.seats if isinstance(c, Person) and c.row.taken]
        if self.row.status == "waiting" and all(c.row.gone and not c.grace_pending for c in humans):
            self.deadlines.set(Deadline("close", wall() + self.deadlines.seconds(CLOSE_WAITING)))
            self._save_deadlines()
        self._pause_presence()
        self._schedule()
        self.publish_live()
        if self.row.status == "over":
            self._check_rematch()

    def _close(self, why: str, status: str = "closed") -> None:
        log.info("table %s %s: %s", self.id, status, why)
        self.row.status = status
        self.write_later("status", self.store.set_status, self.id, status)
        self.deadlines.stop()
        for d in list(self.deadlines):
            self.deadlines.remove(d.kind, d.seat)
        self._save_deadlines()
        self.publish_live()

    async def expire(self) -> None:
        """Nobody joined for too long (Lobby.sweep): a table still waiting closes as "expired"."""
        async with self.lock:
            if self.row.status == "waiting" and not self.stopping:
                self._close("nobody joined in time", status="expired")

    def seat_taken(self, seat: int) -> None:
        """A free seat was taken (lobby.join): everyone gets a fresh snapshot. Until the newcomer's
        page connects, the seat has the grace of a lost connection."""
        person = self.person(seat)
        self.deadlines.remove("close")  # someone new sat down
        if person is not None and person.conns == 0 and self.deadlines.get("grace", seat) is None:
            self.deadlines.set(Deadline("grace", wall() + self.deadlines.seconds(GRACE_LOST), seat=seat))
            person.grace_pending = True
            self._save_deadlines()
        self._schedule()
        self.publish_snapshots()

    # -- rematch -----------------------------------------------------------------------
    def vote_rematch(self, seat: int | None) -> None:
        if seat is None or self.person(seat) is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "only the people at the table can ask for a rematch")
        if self.row.status != "over":
            raise ProtocolError(ErrorCode.NOT_OVER, "a rematch is possible once the game is over")
        self.rematch.add(seat)
        self.publish_live()
        self._check_rematch()

    def _check_rematch(self) -> None:
        if not self.rematch or self.row.next_id is not None or self.on_rematch is None:
            return
        staying = [c.row.seat for c in self.seats if isinstance(c, Person) and c.row.taken and c.presence != "gone"]
        if all(s in self.rematch for s in staying):
            self.on_rematch(self)
            self.publish_live()

    # -- moves -------------------------------------------------------------------------
    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        """A person's move built on ``version``; raises :class:`ProtocolError` (nothing changed).
        ``again``: the same request sent anew after the process that owned the table died before
        it answered; if that process played it, it is answered as done."""
        await unbroken(self._person_move(seat, move, version, ms, again))

    async def _person_move(self, seat: int | None, move: str, version: int, ms: int | None, again: bool) -> None:
        async with self.lock:  # one change at a time; the checks see the latest state
            if self.stopping:
                raise ProtocolError(ErrorCode.SERVER_ERROR, "the server is shutting down; nothing changed")
            if self.row.status == "waiting":
                raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every human seat is taken")
            if again and 0 <= version < self.version and self._played(version, seat, move):
                return  # played once, before its first answer was lost with the owner
            if self.paused:
                raise ProtocolError(
                    ErrorCode.PAUSED, "the table is paused; nothing changed (anyone seated can resume it)"
                )
            if version != self.version:
                raise ProtocolError(
                    ErrorCode.STALE, f"the table is at version {self.version}, your move was for {version}"
                )
            if seat is None:
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "spectators cannot move")
            game = self.game
            if game.is_over or self.row.status != "playing":
                raise ProtocolError(ErrorCode.ILLEGAL, "the game is over; no more moves")
            if isinstance(self.seats[seat], BotSeat):
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat")
            legal = game.legal_moves(seat)
            if not legal:
                raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"it is seat {game.to_move}'s turn, not yours")
            if move.strip().lower() == "timeout":
                raise ProtocolError(ErrorCode.ILLEGAL, "timeout is played by the server's clock, never by a client")
            if self.reactions is not None and self._window_open():
                raise ProtocolError(
                    ErrorCode.ILLEGAL, "a reaction is sent as a react message with its time (docs/protocol.md)"
                )
            await self._play(seat, self._canonical(seat, move), None, ms)

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        """A person's reaction claim in a reaction window (reactions.py judges it); raises
        :class:`ProtocolError` when refused (nothing changed)."""
        async with self.lock:
            if self.stopping:
                raise ProtocolError(ErrorCode.SERVER_ERROR, "the server is shutting down; nothing changed")
            if self.reactions is None:
                raise ProtocolError(ErrorCode.ILLEGAL, f"{self.row.game} is played in turns, not by reactions")
            if self.row.status == "waiting":
                raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every human seat is taken")
            self.reactions.claim(conn, move, version, ms)

    def clock_answer(self, conn: Connection, n: int, t: float) -> None:
        """A page answered the clock ping ``n`` with its clock ``t`` (reaction games only)."""
        if self.reactions is not None:
            self.reactions.answer(conn, n, t)

    async def play_decided(
        self, seat: int, move: str, by: str | None, ms: int, referee: dict[str, Any], play: Callable[[], Any]
    ) -> None:
        """Store a reaction window's decision with its log, then ``play`` it (the referee's commit);
        called by reactions.py with the lock held."""
        await self._play(seat, move, by, ms, referee=referee, play=play)

    def _played(self, version: int, seat: int | None, move: str) -> bool:
        """Whether ``seat`` played ``move`` (in any case) at ``version``."""
        played = self.row.moves[version]
        return bool(played[0] == seat and str(played[1]).lower() == move.strip().lower())

    def _canonical(self, seat: int, move: str) -> str:
        """The move in the engine's canonical spelling (api.md v2 ``parse_move``); the engine
        says why when it is not legal. Nothing changes either way."""
        try:
            return self.game.parse_move(move, seat=seat)
        except IllegalMove as exc:
            refusal = None if exc.reason is None else {"reason": exc.reason, "params": refusal_params(exc)}
            raise ProtocolError(ErrorCode.ILLEGAL, str(exc), refusal=refusal) from None

    async def _play(
        self,
        seat: int,
        move: str,
        by: str | None,
        ms: int | None = None,
        referee: dict[str, Any] | None = None,
        play: Callable[[], Any] | None = None,
    ) -> None:
        """Store and play ``move`` (a legal move in canonical spelling), then publish it.

        Called with the lock held. The next turn's deadline is stored with the move. A write to a
        database server runs in a worker thread, so other tables play on while this one waits."""
        seconds = clock_seconds(self.row.game, self.row.clock)
        stored = [d for d in self.deadlines if d.kind != "turn"]
        turn = None
        if seconds is not None:
            turn = Deadline("turn", wall() + self.deadlines.seconds(seconds), version=self.version + 1)
        deadlines = [d.to_dict() for d in stored] + ([turn.to_dict()] if turn is not None else [])
        args = (self.id, self.version, seat, move, ms, by, deadlines, referee)
        try:  # stored before it counts (after this table's earlier writes)
            await self.write(self.store.add_move, *args)
        except IntegrityError:
            # Another writer stored this version first (a second server process, say): our state
            # is behind. Catch up from the store; the client is told its move was stale.
            log.warning("table %s version %s was stored by another writer; reloading", self.id, self.version)
            await self._reload()
            raise ProtocolError(
                ErrorCode.STALE, f"the table moved on to version {self.version}; nothing changed"
            ) from None
        except SQLAlchemyError:
            log.exception("move at table %s version %s could not be stored", self.id, self.version)
            raise ProtocolError(
                ErrorCode.SERVER_ERROR, "the server could not store the move; nothing changed"
            ) from None
        if play is None:
            self.game.play(move, seat=seat, ms=ms)
        else:  # a referee's decision: it plays the move itself
            play()
        self.row.moves.append([seat, move] if ms is None else [seat, move, ms])
        self.row.by.append(by)
        if referee is not None:
            self.row.referee[len(self.row.moves) - 1] = referee
        if turn is not None:
            self.deadlines.set(turn)
        else:
            self.deadlines.remove("turn")
        if self.game.is_over and self.row.status != "over":
            # stored before anyone hears that the game ended (another process reads it from the store)
            try:
                await self.write(self.store.set_status, self.id, "over", self.game.result())
            except SQLAlchemyError:
                log.exception("the end of table %s could not be stored", self.id)
        self._advance(by)

    async def _reload(self) -> None:
        row = await self.write(self.store.load_table, self.id)
        if row is None:
            return
        self.row.moves, self.row.by, self.row.status = row.moves, row.by, row.status
        self.game, self.events = build(self.row)
        self.version = len(self.row.moves)
        self.seq = len(self.events)
        self.publish_snapshots()
        self._schedule()

    def _advance(self, by: str | None) -> None:
        game = self.game
        new = marked(game.events_since(self.seq), by)
        self.events.extend(new)
        self.version += 1
        self.seq += len(new)
        if game.is_over and self.row.status != "over":
            self.row.status = "over"
            self.row.result = game.result()  # stored by _play
            for d in list(self.deadlines):  # the pause too: the game is over
                self.deadlines.remove(d.kind, d.seat)
            self.pause_asked = []
            self._save_deadlines()
            deal_ended(self)  # a match goes on with its next deal
        self._schedule()  # before publishing: the update tells the next deadline
        if self.reactions is not None and self.row.status == "playing" and self._window_open():
            self.reactions.opened()  # the card is sent ahead, before the update that shows it
        self.hub.publish(self.id, self.version, self._update_for(new, by, self.live()))

    # -- who moves next ----------------------------------------------------------------
    def _schedule(self) -> None:
        """After any change: let the bot or stand-in to move move after its pause, or run the
        clock of the person to move."""
        if self.stopping or not self.started:
            return
        game = self.game
        if self.row.status != "playing" or game.is_over or game.to_move is None:
            self.deadlines.remove("turn")
            return
        seat = game.to_move
        if self.paused:  # nothing moves by itself; a turn that began meanwhile keeps its whole time
            self.bot_due = None
            self._freeze()
            return
        if self.reactions is not None and any(
            isinstance(c, Person) and c.row.taken and c.conns == 0 and not c.stand_in for c in self.seats
        ):  # a reaction game shows no card while someone is not at the table (nor yet replaced)
            self.deadlines.remove("turn")
            self.bot_due = None
            return
        countdown = self.reactions is not None and clock_seconds(self.row.game, self.row.clock) is not None
        if self.seats[seat].mover() is not None and not countdown:  # reaction games: everyone's countdown
            self.deadlines.remove("turn")  # in memory only: a bot's turn has no clock
            self._start_bot()
            return
        self.bot_due = None
        seconds = clock_seconds(self.row.game, self.row.clock)
        if seconds is None:
            self.deadlines.remove("turn")
            return
        turn = self.deadlines.get("turn")
        if turn is None or turn.version != self.version:  # no stored deadline for this turn yet
            self.deadlines.set(Deadline("turn", wall() + self.deadlines.seconds(seconds), version=self.version))
            self._save_deadlines()

    def _delay(self) -> float:
        if self.settings.bot_delay is not None:
            return self.settings.bot_delay
        return game_info(self.row.game).seating.bot_delay / float(self.speed)

    # -- pause -------------------------------------------------------------------------
    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        """Someone seated sets the bots' ``speed`` and, with ``paused``, where they stand on a
        pause: asking for one or agreeing to it (``True``), resuming or withdrawing (``False``);
        the same stand sent again changes only the speed. Spectators change nothing."""
        person = self.person(seat) if seat is not None else None
        if seat is None or person is None or not person.row.taken:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, "only the people seated at the table pause it or set the bots' pace"
            )
        stands = self.paused or seat in self.pause_asked
        if paused and not stands:
            if self.row.status != "playing" or self.game.is_over:
                raise ProtocolError(ErrorCode.NOT_STARTED, "only a game being played can be paused")
            self.pause_asked.append(seat)
        elif not paused and stands:
            if self.paused:
                self._resume()
            elif self.pause_asked[0] == seat:  # the asker withdraws the request
                self.pause_asked = []
            else:
                self.pause_asked.remove(seat)
        self.speed = speed
        self._check_pause()
        self._schedule()
        self.publish_live()

    def _check_pause(self) -> None:
        """A request everyone connected agreed to (alone: one's own) pauses the table; a request
        nobody connected stands by any more is dropped."""
        if self.paused or not self.pause_asked:
            return
        present = self._present()
        self.pause_asked = [s for s in self.pause_asked if s in present]
        if self.pause_asked and all(s in self.pause_asked for s in present):
            self.deadlines.set(Deadline("pause", wall(), seat=self.pause_asked[0]))
            self.pause_asked = []
            self._freeze()
            self._save_deadlines()

    def _freeze(self) -> None:
        """Hold the running turn clock with the seconds it has left (stored: a restart keeps them)."""
        turn = self.deadlines.get("turn")
        if turn is not None and turn.left is None:
            self.deadlines.set(turn.frozen(wall()))
            self._save_deadlines()

    def _resume(self) -> None:
        """End the pause: the turn clock runs on with the time it had left."""
        self.deadlines.remove("pause")
        turn = self.deadlines.get("turn")
        if turn is not None and turn.left is not None:
            self.deadlines.set(turn.thawed(wall()))
        self.pause_asked = []
        self._save_deadlines()
        self._schedule()

    def _pause_presence(self) -> None:
        """Someone came or went: a request may now be agreed by everyone still here; a pause with
        no person left at the table ends (the stand-ins finish the game)."""
        if self.paused and not any(isinstance(c, Person) and c.row.taken and not c.row.gone for c in self.seats):
            self._resume()
        self._check_pause()

    def _start_bot(self) -> None:
        if self.bot_task is not None and self.bot_version == self.version:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet: start() schedules again
            return
        mover = self.seats[self.game.to_move or 0].mover()
        delay = self._delay() * pause_factor(getattr(mover, "bot", None))  # slower bots for the youngest
        self.bot_version = self.version
        self.bot_due = wall() + delay
        self.bot_task = loop.create_task(self._bot_turn(self.version, delay))

    async def _bot_turn(self, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await unbroken(self._bot_move(version))

    async def _bot_move(self, version: int) -> None:
        async with self.lock:
            if self.stopping:
                return
            if self.bot_version == version:
                self.bot_task = None
            game = self.game
            seat = game.to_move
            if self.version != version or game.is_over or seat is None or self.row.status != "playing":
                return
            ctl = self.seats[seat]
            if self.paused:  # it moves once the pause ends (_resume schedules it again)
                self.bot_task = None
                return
            mover = ctl.mover()
            if mover is None:  # the person came back in time: their move
                self._schedule()
                return
            due = self.bot_due
            await self._bot_play(seat, ctl, due)

    async def _bot_play(self, seat: int, ctl: Controller, due: float | None) -> None:
        """The bot or stand-in of ``seat`` moves now (lock held)."""
        legal = self.game.legal_moves(seat)
        view = self.game.view(seat)
        by: str | None = None
        if isinstance(ctl, BotSeat):
            try:
                move = ctl.choose(view, legal)
                if move not in legal:
                    raise IllegalMove(f"bot chose {move!r}, not a legal move")
            except Exception:
                log.exception("bot at table %s seat %s failed; its stand-in makes this move", self.id, seat)
                move, by = ctl.standin.choose(view, legal), STAND_IN
        else:
            move, by = ctl.standin.choose(view, legal), STAND_IN
        if by == STAND_IN and due is not None and wall() - due > 1.0:
            log.warning("table %s: a stand-in moved %.2f s past its deadline", self.id, wall() - due)
        try:
            await self._play(seat, move, by)
        except ProtocolError:  # stale: another writer was first; _reload scheduled what comes next
            return
        except Exception:  # the store failed, say: nothing changed, try again in a while
            log.exception("bot move at table %s could not be played; retrying", self.id)
            self.bot_task = None
            asyncio.get_running_loop().call_later(BOT_RETRY, self._retry)

    def _retry(self) -> None:
        self.bot_version = -1
        self._schedule()

    # -- deadlines ---------------------------------------------------------------------
    def _due(self, d: Deadline) -> None:
        asyncio.get_running_loop().create_task(unbroken(self._handle_due(d)))

    async def _handle_due(self, d: Deadline) -> None:
        async with self.lock:
            if self.stopping or self.deadlines.get(d.kind, d.seat) is not d:
                return
            if d.kind == "grace" and d.seat is not None:
                self.deadlines.remove("grace", d.seat)
                self._save_deadlines()
                self._gone(d.seat)
                return
            if d.kind == "close":
                self.deadlines.remove("close")
                if self.row.status == "waiting":
                    self._close("everyone left before the game began")
                return
            # a turn clock ran out: the stand-in plays this one move for the seat
            seat = self.game.to_move
            if d.version != self.version or seat is None or self.game.is_over or self.row.status != "playing":
                self.deadlines.remove("turn")
                return
            if self.reactions is not None:  # the countdown ended: the next card is turned for the revealer
                await self._play(seat, "reveal", None)
                return
            if self.seats[seat].mover() is not None:
                self.deadlines.remove("turn")
                return
            log.info("table %s: seat %s ran out of time; the stand-in moves", self.id, seat)
            await self._bot_play(seat, self.seats[seat], d.due)
