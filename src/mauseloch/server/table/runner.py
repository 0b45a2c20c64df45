"""The runner's core, shared by the server's runner (session.py: the store, the hub, group
commit) and the offline one (local.py: no store, under Pyodide): what an outcome asks beyond
its writes, and the timers that step a command when they fire (the deadlines' :class:`Timers`,
the bot's pause, an outcome's wake-ups, a reaction game's windows: reactions.py). A runner
says only how its commands are queued (:meth:`Runner.serial`) and where an outcome's frames,
pushes and next table go (:meth:`Runner.publish`). Stdlib and msgspec only (Pyodide runs it).
"""

from __future__ import annotations

import functools

import msgspec

from mauseloch.server.clock import Deadline, Timers, wall
from mauseloch.server.reactions import Reactions
from mauseloch.server.table import commands as c
from mauseloch.server.table.state import BotTurn, TableState


class Runner:
    """A table's state, its timers and its reaction windows (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.timers = Timers(state.deadlines, self._due)
        self.reactions = Reactions(state, self.serial) if state.reactions else None
        self._bot: BotTurn | None = None  # the bot turn whose timer runs

    def serial(self, command: c.Command) -> None:
        """Step ``command`` after the one under way (a timer's: nobody waits for it)."""
        raise NotImplementedError

    def publish(self, out: c.Outcome) -> None:
        """Tell the world what ``out`` asks: the next table, a seat's pages closed, the frames,
        the pushes."""
        raise NotImplementedError

    def effects(self, out: c.Outcome) -> None:
        """What an outcome asks beyond its writes, in order."""
        s = self.state
        if out.window and self.reactions is not None:
            self.reactions.opened()  # the card is sent ahead, before the update that shows it
        self.publish(out)
        if s.deadlines.changed:
            self.timers.sync()
        if s.bot is not self._bot:
            self._bot = bot = s.bot
            due, version = (None, -1) if bot is None or s.stopping else (bot.due, bot.version)
            self.timers.once("bot", due, functools.partial(self.bot_due, version))
        for delay, command in out.wake:
            self.timers.later(delay, functools.partial(self._wake, command))
        if self.reactions is not None:
            if out.window_wake:
                self.reactions.wake()
            if out.window_retry:
                self.reactions.retry()

    def bot_due(self, version: int) -> None:
        """The pause of the bot to move at ``version`` is over."""
        self.serial(c.BotDue(version=version, now=wall()))

    def _due(self, deadline: Deadline) -> None:
        self.serial(c.Due(deadline=deadline, now=wall()))

    def _wake(self, command: c.Command) -> None:
        self.serial(msgspec.structs.replace(command, now=wall()))
