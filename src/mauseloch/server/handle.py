"""The one interface to a table, wherever its authority runs.

The WebSocket endpoint (ws.py), the HTTP routes (app.py), the lobby and the hubs speak to a table
only through :class:`TableHandle`. Two classes implement it, neither inheriting the other: the
table's authority in this process (:class:`~.session.TableSession`) and the proxy of a table another
process owns (:class:`~.ownership.RemoteTable`), which forwards each change to the owner as a
request (ipc.py). A caller never asks which one it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from mauseloch.server.hub import Connection
from mauseloch.server.protocol import ErrorCode, Refusal, TableSummary
from mauseloch.server.storage.rows import TableRow

T = TypeVar("T")


class TableHandle(Protocol):
    """A table as its callers see it: its stored facts, what a seat may do, and its life cycle.

    Every change raises :class:`~.protocol.ProtocolError` when it is refused, and then nothing
    changed. ``row`` holds the stored facts (seats, tokens, options, status, the next table); the
    lobby writes a seat taken into it after the store took it (:meth:`write`)."""

    @property
    def row(self) -> TableRow: ...

    @property
    def id(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def version(self) -> int:
        """The number of moves played, as this process knows it."""
        ...

    @property
    def stopping(self) -> bool: ...

    @property
    def writing(self) -> bool:
        """Whether writes of this table are still queued here."""
        ...

    # -- what the lobby and the pages read -----------------------------------------------
    def summary(self) -> TableSummary:
        """The table as the lobby lists it and the page's header shows it."""
        ...

    def error(self, code: ErrorCode, message: str, refusal: Refusal | None = None) -> str:
        """The encoded refusal a connection is sent."""
        ...

    def pong(self) -> str: ...

    # -- what a connection does ------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        """A connection joins the table; it is sent a snapshot first."""
        ...

    def detach(self, conn: Connection, left: bool = False, everywhere: bool = False) -> None:
        """A connection ends; ``left``: on purpose; ``everywhere``: every page of its seat leaves."""
        ...

    async def resync(self, conn: Connection) -> None:
        """A fresh snapshot for ``conn`` (its client missed something)."""
        ...

    async def apply(
        self, seat: int | None, move: str, version: int, ms: int | None = None, *, again: bool = False
    ) -> None:
        """A person's move built on ``version``; ``again``: the same request sent anew after the
        process that owned the table died before it answered."""
        ...

    async def react(self, conn: Connection, move: str, version: int, ms: int) -> None:
        """A reaction claim in a reaction game's window."""
        ...

    def clock_answer(self, conn: Connection, n: int, t: float) -> None:
        """A page answered clock ping ``n`` with its clock ``t`` (reaction games)."""
        ...

    def vote_rematch(self, seat: int | None) -> None: ...

    def set_pace(self, seat: int | None, paused: bool, speed: float) -> None:
        """Pause, agree, resume or withdraw, and the bots' speed."""
        ...

    async def away(self, seat: int | None, days: int) -> None:
        """``seat`` is away for ``days`` at a table over days, or back (0); a refusal (no days
        left) is raised where the seat's page hears it, whichever process runs the table."""
        ...

    def emote(self, seat: int | None, emote: str) -> None:
        """A quick reaction from ``seat`` (server/emotes.py)."""
        ...

    # -- what the lobby does -----------------------------------------------------------------
    def seat_taken(self, seat: int) -> None:
        """The store gave ``seat`` away (its name and token are in :attr:`row`)."""
        ...

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store, after every earlier write of this table."""
        ...

    def start(self) -> None:
        """Run the clocks and bots (where the table's authority runs)."""
        ...

    async def stop(self) -> None: ...

    async def expire(self) -> None:
        """Nobody joined in time: a table still waiting closes as expired."""
        ...

    async def flush(self) -> None:
        """Until every write queued so far is done."""
        ...
