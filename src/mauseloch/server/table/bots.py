"""Bots and stand-ins: the seat to move moves by itself after its pause."""

from __future__ import annotations

import asyncio
import logging

from mauseloch import IllegalMove
from mauseloch.bots.random_bot import pause_factor
from mauseloch.core.registry import game_info
from mauseloch.server.clock import wall
from mauseloch.server.protocol import ProtocolError
from mauseloch.server.seats import STAND_IN, BotSeat, Controller
from mauseloch.server.table.host import Table
from mauseloch.server.table.work import unbroken

log = logging.getLogger("mauseloch.server")

BOT_RETRY = 2.0  # seconds before a bot tries again when its move could not be stored


class Bots:
    """The one bot move a table waits for at a time: its task, the version it is for, when it is due."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.task: asyncio.Task[None] | None = None
        self.version = -1
        self.due: float | None = None

    def delay(self) -> float:
        t = self.table
        if t.bot_delay is not None:
            return t.bot_delay
        return game_info(t.row.game).seating.bot_delay / float(t.speed)

    def start(self) -> None:
        t = self.table
        if self.task is not None and self.version == t.version:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop yet: start() schedules again
            return
        mover = t.seats[t.game.to_move or 0].mover()
        delay = self.delay() * pause_factor(getattr(mover, "bot", None))  # slower bots for the youngest
        self.version = t.version
        self.due = wall() + delay
        self.task = loop.create_task(self._turn(t.version, delay))

    def stop(self) -> asyncio.Task[None] | None:
        """Forget the waiting move; its task, for the caller to cancel."""
        task, self.task = self.task, None
        return task

    async def _turn(self, version: int, delay: float) -> None:
        await asyncio.sleep(delay)
        await unbroken(self._move(version))

    async def _move(self, version: int) -> None:
        t = self.table
        async with t.lock:
            if t.stopping:
                return
            if self.version == version:
                self.task = None
            game = t.game
            seat = game.to_move
            if t.version != version or game.is_over or seat is None or t.row.status != "playing":
                return
            ctl = t.seats[seat]
            if t.paused:  # it moves once the pause ends (the resume schedules it again)
                self.task = None
                return
            if ctl.mover() is None:  # the person came back in time: their move
                t.schedule()
                return
            await self.play(seat, ctl, self.due)

    async def play(self, seat: int, ctl: Controller, due: float | None) -> None:
        """The bot or stand-in of ``seat`` moves now (lock held)."""
        t = self.table
        legal = t.game.legal_moves(seat)
        view = t.game.view(seat)
        by: str | None = None
        if isinstance(ctl, BotSeat):
            try:
                move = ctl.choose(view, legal)
                if move not in legal:
                    raise IllegalMove(f"bot chose {move!r}, not a legal move")
            except Exception:
                log.exception("bot at table %s seat %s failed; its stand-in makes this move", t.id, seat)
                move, by = ctl.standin.choose(view, legal), STAND_IN
        else:
            move, by = ctl.standin.choose(view, legal), STAND_IN
        if by == STAND_IN and due is not None and wall() - due > 1.0:
            log.warning("table %s: a stand-in moved %.2f s past its deadline", t.id, wall() - due)
        try:
            await t.play(seat, move, by)
        except ProtocolError:  # stale: another writer was first; the reload scheduled what comes next
            return
        except Exception:  # the store failed, say: nothing changed, try again in a while
            log.exception("bot move at table %s could not be played; retrying", t.id)
            self.task = None
            asyncio.get_running_loop().call_later(BOT_RETRY, self._retry)

    def _retry(self) -> None:
        self.version = -1
        self.table.schedule()
