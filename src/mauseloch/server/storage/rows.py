"""A stored table as plain values: its row, its seats, the seats as they are now, and the
writes a table's step asks of the store.

Nothing here talks to a database (only the standard library and msgspec): the table's state
machine, which also runs in a browser, is built on these.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import msgspec

from mauseloch.core.shapes import JSONObject, OptionDict
from mauseloch.realtime.referee import WindowEntry


class DeadlineEntry(TypedDict):
    """A deadline as stored (:meth:`mauseloch.server.clock.Deadline.to_dict`)."""

    kind: str
    due: float
    seat: NotRequired[int | None]
    version: NotRequired[int | None]
    left: NotRequired[float]  # a frozen deadline's seconds left


class MatchEntry(TypedDict):
    """A deal of a web match, as its table keeps it (server/match.py): the match's seed, this
    deal (0-based), its length, the booked deals' points per player and the deals before."""

    seed: int
    deal: int
    deals: int
    target: int
    scores: list[list[int]]
    tables: NotRequired[list[str]]


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot: str | None = None
    token_hash: str | None = None
    gone: bool = False

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class TableRow:
    id: str
    game: str
    title: str
    players: int
    options: OptionDict
    seed: int
    deck: list[str]
    status: str
    created: dt.datetime
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[list[Any]] = field(default_factory=list)  # [seat, move] or [seat, move, ms]
    result: JSONObject | None = None  # stored JSON (ml_tables.result): the result as g.result() gives it
    clock: str = "off"
    deadlines: list[DeadlineEntry] = field(default_factory=list)
    next_id: str | None = None
    by: list[str | None] = field(default_factory=list)  # per move: None (the seat's own player) or "stand-in"
    public: bool = False  # listed in the lobby, and anyone may join; else only through the invite link
    invite_hash: str | None = None
    referee: dict[int, WindowEntry] = field(default_factory=dict)  # move index -> its window's log entry
    match: MatchEntry | None = None  # a deal of a match (server/match.py), else None
    joined: dt.datetime | None = None  # waiting for players: created or last joined then (None: ``created``)

    @property
    def waiting_since(self) -> dt.datetime:
        """When a table waiting for players was created or last joined (its expiry counts from here)."""
        return self.joined or self.created


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)  # SQLite drops the zone


@dataclass
class SeatsNow:
    """A table's seats as the store has them now (:meth:`Store.seats_now`)."""

    seats: list[tuple[str, str | None]]  # each seat's name and token hash, in seat order
    status: str
    joined: dt.datetime | None


# -- what a table's step asks its runner to store, in order (each the arguments of its Store method)
class MoveRow(msgspec.Struct, frozen=True):
    table: str
    version: int
    seat: int
    move: str
    ms: int | None
    by: str | None
    deadlines: list[DeadlineEntry]  # the table's deadlines from this move on
    referee: WindowEntry | None  # a reaction window's log


class StatusRow(msgspec.Struct, frozen=True):
    table: str
    status: str
    result: JSONObject | None = None  # what ml_tables.result stores (JSON read back by any game's row)


class DeadlinesRow(msgspec.Struct, frozen=True):
    table: str
    deadlines: list[DeadlineEntry]


class GoneRow(msgspec.Struct, frozen=True):
    table: str
    seat: int
    gone: bool


Write = MoveRow | StatusRow | DeadlinesRow | GoneRow
