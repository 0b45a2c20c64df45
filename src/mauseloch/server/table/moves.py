"""Moves: checked against the table's version, stored before they count, played, published.

A table's ``version`` is the number of moves played, its ``seq`` the number of events logged. A
move is checked against the current version under the table's lock (a move built on an older one
is ``stale``, as in boardgame.io's master), written ahead to the store, which fences it by
``(table, version)``: a second writer of the same version (another process that still thinks it
owns the table) is refused there and catches up from the store. Then it is played and published
through the hub, so two moves never race. A stored move always completes (:func:`~.work.unbroken`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, NoReturn

from mauseloch import IllegalMove
from mauseloch.core.engine import Game
from mauseloch.core.registry import game_info
from mauseloch.core.shapes import JSONObject
from mauseloch.extras import needs
from mauseloch.server.clock import Deadline, clock_seconds, wall
from mauseloch.server.hub import Connection
from mauseloch.server.protocol import ErrorCode, ProtocolError, Refusal
from mauseloch.server.seats import BotSeat
from mauseloch.server.storage.plans import BoundWrite
from mauseloch.server.table.host import Table
from mauseloch.server.table.records import build, marked
from mauseloch.server.table.work import unbroken

with needs("web", __name__):
    from sqlalchemy.exc import IntegrityError, SQLAlchemyError

log = logging.getLogger("mauseloch.server")


def refusal_params(exc: IllegalMove) -> dict[str, str | int]:
    """The placeholders of a refusal that a page words (not the list of legal moves: the view has
    it): words and numbers, as the catalogue's texts take them."""
    return _worded(exc.params)


def refusals(game: Game, seat: int | None) -> dict[str, Refusal]:
    """For the seat to move in a game whose hand cards are moves: why each card of its hand that
    is no legal move now is refused, card -> the engine's refusal key and placeholders
    (:meth:`Game.refused_cards`), so the page says why at once when the card is tapped, in its own
    language, without computing any rule. Empty for every other seat and in a reaction game."""
    # the cheap checks first: this is asked for every seat after every move
    if seat is None or game.is_over or seat != game.to_move or game_info(game.name).dynamics == "reactions":
        return {}
    return {
        card: {"reason": reason, "params": _worded(params)}
        for card, (reason, params) in game.refused_cards(seat).items()
    }


def _worded(params: dict[str, object]) -> dict[str, str | int]:
    return {k: v if isinstance(v, (str, int)) else str(v) for k, v in params.items() if k != "moves"}


class Moves:
    """A person's moves and reactions, and the one way every move is stored and played."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        """A person's move built on ``version``; raises :class:`ProtocolError` (nothing changed).
        ``again``: the same request sent anew after the process that owned the table died before
        it answered; if that process played it, it is answered as done."""
        t = self.table
        if t.lock.locked() or not isinstance(t.store.add_move, BoundWrite) or t.writes.writing:
            await unbroken(self._person_move(seat, move, version, ms, again))
            return
        # The lock is free and no write of the table is queued (a move joins the tick's group
        # commit, in the table's order, on SQLite and PostgreSQL alike): the move is checked and
        # sent to the store here, and the commit's callback plays and publishes it, without a
        # task of its own (a task, a shield and their wake-ups cost more than the checks). A
        # caller cancelled while it waits still has its move played once it is stored: the
        # callback does not need it.
        await t.lock.acquire()  # free: taken at once
        try:
            canon = self._check(seat, move, version, again)
            if canon is None:
                t.lock.release()
                return
            assert seat is not None  # _check refuses a spectator
            args, turn = self._ahead(seat, canon, None, ms, None)
            stored = t.writes.send(t.store.add_move, *args)
            assert stored is not None  # no write of the table is queued (checked above)
        except BaseException:
            t.lock.release()
            raise
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        stored.add_done_callback(functools.partial(self._stored, answer, seat, canon, ms, turn))
        await answer

    def _stored(
        self,
        answer: asyncio.Future[None],
        seat: int,
        move: str,
        ms: int | None,
        turn: Deadline | None,
        done: asyncio.Future[None],
    ) -> None:
        """A person's move sent by :meth:`apply` is committed (or failed): play and publish it,
        free the lock, answer. What must await the store again (the end of the game stored, a
        reload after another writer was first) goes on in a task: once a game, or rarer."""
        t = self.table
        try:
            exc = asyncio.CancelledError() if done.cancelled() else done.exception()
            if exc is None and not self._after(seat, move, None, ms, None, None, turn):
                self._advance(None)
                t.lock.release()
                if not answer.done():
                    answer.set_result(None)
                return
        except BaseException as error:
            t.lock.release()
            log.error("table work failed", exc_info=error)
            if not answer.done():
                answer.set_exception(error)
            return
        work = self._ended(None, self._counted(None)) if exc is None else self._failed(exc)
        task = asyncio.get_running_loop().create_task(work)
        task.add_done_callback(lambda finished: self._answer(finished, answer))

    async def _failed(self, exc: BaseException) -> None:
        try:
            self._refused(exc)
            await self._behind()
        finally:
            self.table.lock.release()

    async def _ended(self, by: str | None, since: int) -> None:
        try:
            await self._store_end()
            self._advance(by, since)
        finally:
            self.table.lock.release()

    def _answer(self, finished: asyncio.Future[None], answer: asyncio.Future[None]) -> None:
        exc = None if finished.cancelled() else finished.exception()
        if exc is not None and not isinstance(exc, ProtocolError):
            log.error("table work failed", exc_info=exc)
        if not answer.done():
            if exc is None:
                answer.set_result(None)
            else:
                answer.set_exception(exc)

    async def _person_move(self, seat: int | None, move: str, version: int, ms: int | None, again: bool) -> None:
        async with self.table.lock:  # one change at a time; the checks see the latest state
            canon = self._check(seat, move, version, again)
            if canon is not None:
                assert seat is not None  # _check refuses a spectator
                await self.play(seat, canon, None, ms)

    def _check(self, seat: int | None, move: str, version: int, again: bool) -> str | None:
        """``move`` in canonical spelling if ``seat`` may play it now (lock held), None if it
        was played already (``again``); else :class:`ProtocolError` saying why."""
        t = self.table
        if t.stopping:
            raise ProtocolError(ErrorCode.SERVER_ERROR, "the server is shutting down; nothing changed")
        if t.row.status == "waiting":
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every human seat is taken")
        if again and 0 <= version < t.version and self._played(version, seat, move):
            return None  # played once, before its first answer was lost with the owner
        if t.paused:
            raise ProtocolError(ErrorCode.PAUSED, "the table is paused; nothing changed (anyone seated can resume it)")
        if version != t.version:
            raise ProtocolError(ErrorCode.STALE, f"the table is at version {t.version}, your move was for {version}")
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "spectators cannot move")
        game = t.game
        if game.is_over or t.row.status != "playing":
            raise ProtocolError(ErrorCode.ILLEGAL, "the game is over; no more moves")
        if isinstance(t.seats[seat], BotSeat):
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat")
        legal = game.legal_moves(seat)
        if not legal:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"it is seat {game.to_move}'s turn, not yours")
        if move.strip().lower() == "timeout":
            raise ProtocolError(ErrorCode.ILLEGAL, "timeout is played by the server's clock, never by a client")
        if t.reactions is not None and t.window_open():
            raise ProtocolError(
                ErrorCode.ILLEGAL, "a reaction is sent as a react message with its time (docs/protocol.md)"
            )
        return self._canonical(seat, move)

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        """A person's reaction claim in a reaction window (reactions.py judges it); raises
        :class:`ProtocolError` when refused (nothing changed)."""
        t = self.table
        async with t.lock:
            if t.stopping:
                raise ProtocolError(ErrorCode.SERVER_ERROR, "the server is shutting down; nothing changed")
            if t.reactions is None:
                raise ProtocolError(ErrorCode.ILLEGAL, f"{t.row.game} is played in turns, not by reactions")
            if t.row.status == "waiting":
                raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every human seat is taken")
            t.reactions.claim(conn, move, version, ms)

    def _played(self, version: int, seat: int | None, move: str) -> bool:
        """Whether ``seat`` played ``move`` (in any case) at ``version``."""
        played = self.table.row.moves[version]
        return bool(played[0] == seat and str(played[1]).lower() == move.strip().lower())

    def _canonical(self, seat: int, move: str) -> str:
        """The move in the engine's canonical spelling (api.md v2 ``parse_move``); the engine
        says why when it is not legal. Nothing changes either way."""
        try:
            return self.table.game.parse_move(move, seat=seat)
        except IllegalMove as exc:
            refusal: Refusal | None = None
            if exc.reason is not None:
                refusal = {"reason": exc.reason, "params": refusal_params(exc)}
            raise ProtocolError(ErrorCode.ILLEGAL, str(exc), refusal=refusal) from None

    async def play(
        self,
        seat: int,
        move: str,
        by: str | None,
        ms: int | None = None,
        referee: JSONObject | None = None,
        play: Callable[[], Any] | None = None,
    ) -> None:
        """Store and play ``move`` (a legal move in canonical spelling), then publish it.

        Called with the lock held. The next turn's deadline is stored with the move. A write to a
        database server runs in a worker thread, so other tables play on while this one waits.
        ``play``: a referee's decision plays the move itself (the referee's commit)."""
        t = self.table
        args, turn = self._ahead(seat, move, by, ms, referee)
        try:  # stored before it counts (after this table's earlier writes)
            await t.write(t.store.add_move, *args)
        except Exception as exc:
            self._refused(exc)
            await self._behind()
        if self._after(seat, move, by, ms, referee, play, turn):
            since = self._counted(by)
            await self._store_end()
            self._advance(by, since)
        else:
            self._advance(by)

    def _ahead(
        self, seat: int, move: str, by: str | None, ms: int | None, referee: JSONObject | None
    ) -> tuple[tuple[Any, ...], Deadline | None]:
        """The move's row for the store, with the next turn's deadline."""
        t = self.table
        seconds = clock_seconds(t.row.game, t.row.clock)
        stored = [d for d in t.deadlines if d.kind != "turn"]
        turn = None
        if seconds is not None:
            turn = Deadline("turn", wall() + t.deadlines.seconds(seconds), version=t.version + 1)
        deadlines = [d.to_dict() for d in stored] + ([turn.to_dict()] if turn is not None else [])
        return (t.id, t.version, seat, move, ms, by, deadlines, referee), turn

    def _refused(self, exc: BaseException) -> None:
        """The move could not be stored: raises what the mover is told (nothing changed), except
        after another writer stored this version first — then the caller catches up from the store
        (:meth:`_reload`) and the mover is told the move was stale."""
        t = self.table
        if isinstance(exc, IntegrityError):
            # Another writer stored this version first (a second server process, say): our state
            # is behind. Catch up from the store; the client is told its move was stale.
            log.warning("table %s version %s was stored by another writer; reloading", t.id, t.version)
            return
        if isinstance(exc, SQLAlchemyError):
            log.exception("move at table %s version %s could not be stored", t.id, t.version, exc_info=exc)
            raise ProtocolError(
                ErrorCode.SERVER_ERROR, "the server could not store the move; nothing changed"
            ) from None
        raise exc

    def _after(
        self,
        seat: int,
        move: str,
        by: str | None,
        ms: int | None,
        referee: JSONObject | None,
        play: Callable[[], Any] | None,
        turn: Deadline | None,
    ) -> bool:
        """The stored move played in memory; whether it ended the game (its end is stored next)."""
        t = self.table
        if play is None:
            t.game.play(move, seat=seat, ms=ms)
        else:
            play()
        t.row.moves.append([seat, move] if ms is None else [seat, move, ms])
        t.row.by.append(by)
        if referee is not None:
            t.row.referee[len(t.row.moves) - 1] = referee
        if turn is not None:
            t.deadlines.set(turn)
        else:
            t.deadlines.remove("turn")
        return t.game.is_over and t.row.status != "over"

    async def _behind(self) -> NoReturn:
        """Another writer stored this version first: catch up from the store; the mover is told
        the move was stale."""
        await self._reload()
        raise ProtocolError(ErrorCode.STALE, f"the table moved on to version {self.table.version}; nothing changed")

    async def _store_end(self) -> None:
        """Stored before anyone hears that the game ended (another process reads it from the store)."""
        t = self.table
        try:
            await t.write(t.store.set_status, t.id, "over", t.game.result())
        except SQLAlchemyError:
            log.exception("the end of table %s could not be stored", t.id)

    async def _reload(self) -> None:
        t = self.table
        row = await t.write(t.store.load_table, t.id)
        if row is None:
            return
        t.row.moves, t.row.by, t.row.status = row.moves, row.by, row.status
        t.game, t.events = build(t.row)
        t.version = len(t.row.moves)
        t.seq = len(t.events)
        t.publish_snapshots()
        t.schedule()

    def _over(self) -> None:
        """The game is over: the table's status and result, no deadline left, a match's next deal."""
        t = self.table
        t.row.status = "over"
        t.row.result = t.game.result()
        for d in list(t.deadlines):  # the pause too: the game is over
            t.deadlines.remove(d.kind, d.seat)
        t.save_deadlines()
        t.game_over()  # a match goes on with its next deal

    def restored(self) -> None:
        """A table loaded whose stored moves end the game while its status says it is played:
        the process that stored the last move died before it stored the end. Finished now (else
        it stayed "playing" for ever, its record refused as not finished)."""
        t = self.table
        if t.row.status == "playing" and t.game.is_over:
            log.warning("table %s: its moves end the game, its end was not stored; storing it now", t.id)
            self._over()
            t.write_later("the end", t.store.set_status, t.id, "over", t.row.result)

    def _counted(self, by: str | None) -> int:
        """The move just played counted: its events logged, the version and seq one on; the seq
        before it (where its events begin in ``events``, which holds ``seq`` of them). Done with
        the play, before any await, so that a snapshot (a client connecting while the game's end
        is stored) shows the position its version names."""
        t = self.table
        since = t.seq
        new = marked(t.game.events_since(since), by)
        t.events.extend(new)
        t.version += 1
        t.seq += len(new)
        return since

    def _advance(self, by: str | None, since: int | None = None) -> None:
        """The move played is counted (unless :meth:`_counted` did it: ``since``, what it
        returned), its consequences follow and its update is published."""
        t = self.table
        game = t.game
        new = t.events[self._counted(by) if since is None else since :]
        if game.is_over and t.row.status != "over":
            self._over()  # stored by play()
        t.schedule()  # before publishing: the update tells the next deadline
        if t.reactions is not None and t.row.status == "playing" and t.window_open():
            t.reactions.opened()  # the card is sent ahead, before the update that shows it
        t.publish_update(new, by)
