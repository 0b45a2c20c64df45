"""A stored table as a game, a record and replay frames, and a whole match as one record:
built here, in one pure module.

Every function reads a :class:`~mauseloch.server.storage.rows.TableRow` and replays its moves
through the one replay loop (:func:`mauseloch.core.record.played`); nothing here runs, stores or
sends.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

import msgspec

import mauseloch
from mauseloch.core.engine import Game
from mauseloch.core.events import Event
from mauseloch.core.record import MatchRecord, played
from mauseloch.core.shapes import Record
from mauseloch.core.views import View
from mauseloch.realtime.referee import WindowEntry
from mauseloch.server.storage.rows import SeatRow, TableRow, now


class ServedRecord(Record):
    """A stored game's record: who played each move ("person", "bot" or "stand-in"), and in a
    reaction game per decided window its claims, what was observed, the decision."""

    played_by: list[str]
    referee: NotRequired[list[WindowEntry]]


class ReplayFrame(TypedDict):
    """One position of a finished game as the replay shows it: the move that led there (None
    first), the public view with every hand, its events, and in a reaction game the window's log."""

    move: list[Any] | None
    view: View
    events: list[Event]  # whole: a replay shows every private event too
    referee: NotRequired[WindowEntry]


class Replay(TypedDict):
    """A finished game's replay: ``GET /api/tables/{id}/replay``, and the offline page's own."""

    record: ServedRecord
    frames: list[ReplayFrame]


def new_game_of(row: TableRow) -> Game:
    """The game a stored table starts from, before any move."""
    return mauseloch.new_game(row.game, players=row.players, seed=row.seed, options=row.options, deck=row.deck)


def build(row: TableRow) -> tuple[Game, list[str | None]]:
    """The game a stored table describes, every stored move replayed, and per logged event who
    played the move that logged it ("stand-in", or None: the seat's own player)."""
    game = new_game_of(row)
    by: list[str | None] = [None] * game.event_count
    for i in played(game, row.moves):
        by += [row.by[i] if i < len(row.by) else None] * (game.event_count - len(by))
    return game, by


def record_of(row: TableRow) -> ServedRecord:
    """The game's record plus ``played_by``: per move, who played it ("person", "bot" or
    "stand-in"). ``mauseloch.replay`` reads the record as usual and ignores the extra key."""
    game = new_game_of(row)
    for _ in played(game, row.moves):
        pass
    kinds = {s.seat: "bot" if s.kind == "bot" else "person" for s in row.seats}
    record: ServedRecord = {
        **game.record(),
        "played_by": [
            by if i < len(row.by) and (by := row.by[i]) is not None else kinds[m[0]] for i, m in enumerate(row.moves)
        ],
    }
    if row.referee:  # a reaction game: per decided window its claims, what was observed, the decision
        record["referee"] = [row.referee[i] for i in sorted(row.referee)]
    return record


def replay_frames(row: TableRow) -> list[ReplayFrame]:
    """One frame per position of a finished game, every hand visible, with the events that led to it."""
    game = new_game_of(row)
    # a view that declares ``hands`` (every seat's, for the replay) gets each seat's own ``hand``;
    # Aus die Maus! has face-down stacks nobody sees, not hands
    shows_hands = "hands" in type(game.typed_view(None)).__struct_fields__

    def frame(move: list[Any] | None, seen: int) -> tuple[ReplayFrame, int]:
        view = game.typed_view(None)
        # the base View declares neither: a game's view struct does (so looked up by name)
        if shows_hands and getattr(view, "hands") is msgspec.UNSET:  # noqa: B009
            hands = [getattr(game.typed_view(s), "hand") for s in range(game.players)]  # noqa: B009
            view = msgspec.structs.replace(view, hands=hands)
        events = game.event_log(seen)
        made: ReplayFrame = {"move": move, "view": view, "events": events}
        return made, seen + len(events)

    first, seen = frame(None, 0)
    frames = [first]
    for i in played(game, row.moves):
        f, seen = frame(list(row.moves[i]), seen)
        if i in row.referee:  # every reaction of the window this move decided, with its times
            f["referee"] = row.referee[i]
        frames.append(f)
    return frames


def replay_of(row: TableRow) -> Replay:
    """A finished game's record and its frames."""
    return {"record": record_of(row), "frames": replay_frames(row)}


def match_record(rows: list[TableRow]) -> MatchRecord:
    """The whole match as one record (mauseloch.core.match): every deal's table, in order, the
    last one's row last (it holds the match)."""
    row, info = rows[-1], rows[-1].match
    assert info is not None, "a deal of a match"
    return {
        "match": 1, "game": row.game, "players": row.players, "options": row.options, "seed": info["seed"],
        "deals": info["deals"], "target": info["target"],
        "games": [game_record(record_of(r)) for r in rows],
    }  # fmt: skip


def game_record(record: ServedRecord) -> Record:
    """A stored game's record without what the server adds: a match record's deal."""
    return {"game": record["game"], "players": record["players"], "options": record["options"],
            "seed": record["seed"], "deck": record["deck"], "moves": record["moves"]}  # fmt: skip


def finished_row(record: Any, table_id: str, person: SeatRow) -> TableRow:
    """The finished table a game's record describes (a game played offline, sent afterwards):
    ``person`` at seat 0, bots at the others. The record is replayed here, by the engine: one
    that does not replay, or whose game is not over, raises ``ValueError`` saying why. A reaction
    game's window logs (``referee``) are not taken: nothing proves them on the server."""
    game = mauseloch.replay(record)  # ValueError (IllegalMove too) names what is wrong
    if not game.is_over:
        raise ValueError("the game of this record is not over")
    players = int(record["players"])
    moves: list[list[Any]] = [list(m) for m in record["moves"]]
    played_by = record.get("played_by")
    by: list[str | None] = [None] * len(moves)
    if isinstance(played_by, list) and len(played_by) == len(moves):
        by = ["stand-in" if b == "stand-in" else None for b in played_by]
    seats = [person, *(SeatRow(seat=i, kind="bot", name=f"Bot {i + 1}") for i in range(1, players))]
    return TableRow(id=table_id, game=game.name, title="", players=players, options=record["options"],
                    seed=record["seed"], deck=record["deck"], status="over", created=now(), seats=seats,
                    moves=moves, result=game.result(), by=by)  # fmt: skip
