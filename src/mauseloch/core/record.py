"""Records: the JSON form of a game (api.md), checked on the way in, and replay."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypedDict

from mauseloch.core.engine import Game, IllegalMove, whole_number
from mauseloch.core.registry import new_game
from mauseloch.core.shapes import OptionDict, Record

RECORD_KEYS = ("game", "players", "options", "seed", "deck", "moves")


class MatchRecord(TypedDict):
    """A whole match as one record (:meth:`mauseloch.core.match.Match.record`): its setup and
    every deal's record."""

    match: int  # the version of the match record
    game: str
    players: int
    options: OptionDict
    seed: int
    deals: int
    target: int
    games: list[Record]


class Recorded(Protocol):
    """Anything with a record: a game, or a whole match (mauseloch.core.match)."""

    def record(self) -> Record | MatchRecord: ...


def played(game: Game, moves: Sequence[Any], *, check: bool = False) -> Iterator[int]:
    """Play ``moves`` (``[seat, move]`` or ``[seat, move, ms]``) on ``game`` one after another,
    yielding each move's index once it is played: the one replay loop, for records, stored tables
    and replay frames alike (each caller looks at the game between moves).

    ``check``: the moves come from outside (a record file): an entry of the wrong shape or a move
    that is not legal raises ``ValueError`` naming it. Unchecked, the engine's own errors pass.
    """
    for i, entry in enumerate(moves):
        if check:
            if not isinstance(entry, list) or len(entry) not in (2, 3):
                raise ValueError(f"record move {i}: expected [seat, move] or [seat, move, ms], got {entry!r}")
            seat = whole_number(entry[0])
            if seat is None:
                raise ValueError(f"record move {i}: the seat must be a whole number, got {entry[0]!r}")
        else:
            seat = entry[0]
        ms = entry[2] if len(entry) > 2 else None
        try:
            game.play(entry[1], seat=seat, ms=ms)
        except IllegalMove as exc:
            if not check:
                raise
            raise ValueError(f"record move {i} ({entry!r}) is not legal: {exc}") from None
        yield i


def replay(record: Any) -> Game:
    """The game a record describes: same state, same events, same result.

    A record that is not one (wrong shape, foreign game, a move that is not legal) raises
    ``ValueError`` naming what is wrong.
    """
    if not isinstance(record, dict):
        raise ValueError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise ValueError(f"not a Mauseloch record: missing {', '.join(missing)}")
    moves = record["moves"]
    if not isinstance(moves, list):
        raise ValueError("record moves must be a list of [seat, move] pairs")
    game = new_game(
        record["game"],
        players=record["players"],
        seed=record["seed"],
        options=record["options"],
        deck=record["deck"],
    )
    for _ in played(game, moves, check=True):
        pass
    return game


def save(game: Recorded, path: str | Path, record: Record | MatchRecord | None = None) -> Path:
    """Write ``game``'s record (or ``record``, e.g. a referee's, which adds its log) as JSON."""
    target = Path(path)
    target.write_text(json.dumps(game.record() if record is None else record, indent=1) + "\n", encoding="utf-8")
    return target


def read_json(path: str | Path) -> Any:
    """A record file's JSON; every problem becomes a ``ValueError`` with the file named."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot read {source}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{source} is not a text file, so not a Mauseloch record") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{source} is not valid JSON ({exc.msg} at line {exc.lineno}), so not a record") from None


def load(path: str | Path) -> Game:
    """Read and replay a record file; every problem becomes a ``ValueError`` with the file named."""
    data = read_json(path)
    try:
        return replay(data)
    except ValueError as exc:
        raise ValueError(f"{Path(path)}: {exc}") from None
