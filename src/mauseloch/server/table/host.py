"""What the parts of a running table see of it: the narrow host protocol they are written against.

The session (server/session.py) composes the parts (moves, presence, pause, bots, deadlines,
rematch) and implements :class:`Table`; a part asks another part only through these methods,
so no part imports another one or the session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from mauseloch.core.engine import Game
from mauseloch.core.shapes import JSONObject
from mauseloch.server.clock import Deadlines
from mauseloch.server.hub import Connection, Hub
from mauseloch.server.seats import Controller, Person
from mauseloch.server.storage.rows import TableRow
from mauseloch.server.storage.store import Store
from mauseloch.server.table.writes import WriteQueue

LIVE = ("waiting", "playing")


class Windows(Protocol):
    """A reaction game's windows (server/reactions.py), as the parts drive them."""

    def opened(self) -> None: ...

    def attach(self, conn: Connection) -> None: ...

    def detach(self, conn: Connection) -> None: ...

    def claim(self, conn: Connection, move: str, version: int, ms: int) -> None: ...

    def answer(self, conn: Connection, n: int, t: float) -> None: ...

    def stop(self) -> None: ...


class Table(Protocol):
    """One running table: its state, its lock, and the steps its parts ask of each other."""

    row: TableRow
    store: Store
    writes: WriteQueue
    hub: Hub
    game: Game
    events: list[JSONObject]
    version: int
    seq: int
    seats: list[Controller]
    lock: asyncio.Lock
    deadlines: Deadlines
    stopping: bool
    started: bool
    reactions: Windows | None

    @property
    def id(self) -> str: ...

    @property
    def paused(self) -> bool: ...

    @property
    def speed(self) -> float: ...

    @property
    def bot_delay(self) -> float | None:
        """The server's fixed bot pause (tests, benchmarks), or None for the game's own."""
        ...

    def person(self, seat: int) -> Person | None: ...

    def present(self) -> list[int]:
        """The seats of the people connected now."""
        ...

    def window_open(self) -> bool:
        """Whether a reaction game's card is shown (nobody is to move: everyone may react)."""
        ...

    # -- the steps the parts ask of each other --------------------------------------------
    def schedule(self) -> None:
        """After any change: the bot or stand-in to move moves after its pause, or the clock of
        the person to move runs (deadlines.py)."""
        ...

    def save_deadlines(self) -> None: ...

    def freeze(self) -> None:
        """Hold the running turn clock (pause.py)."""
        ...

    def presence_changed(self) -> None:
        """Someone came or went: a pause request or a pause may end (pause.py)."""
        ...

    def game_over(self) -> None:
        """The game just ended: the pause ends, a match deals on (pause.py, rematch.py)."""
        ...

    def check_rematch(self) -> None: ...

    def gone(self, seat: int) -> None:
        """A grace time ran out (presence.py)."""
        ...

    def close(self, why: str, status: str = "closed") -> None: ...

    async def play(
        self,
        seat: int,
        move: str,
        by: str | None,
        ms: int | None = None,
        referee: JSONObject | None = None,
        play: Callable[[], Any] | None = None,
    ) -> None:
        """Store, play and publish a legal move (moves.py); the lock is held."""
        ...

    async def bot_play(self, seat: int, ctl: Controller, due: float | None) -> None:
        """The bot or stand-in of ``seat`` moves now (bots.py); the lock is held."""
        ...

    def start_bot(self) -> None: ...

    @property
    def bot_due(self) -> float | None:
        """When the bot or stand-in to move moves (None: none is waiting to)."""
        ...

    def clear_bot_due(self) -> None:
        """No bot or stand-in is due to move (a pause, a person's clock)."""
        ...

    # -- what the seats are sent ------------------------------------------------------------
    def snapshot(self, seat: int | None) -> str: ...

    def publish_live(self) -> None: ...

    def publish_snapshots(self) -> None: ...

    def publish_update(self, new: list[JSONObject], by: str | None) -> None: ...

    def write_later(self, what: str, fn: Callable[..., Any], *args: Any) -> None: ...

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def next_table(self) -> None:
        """Everyone agreed, or a match goes on: the lobby deals the next table."""
        ...
