"""A snapshot's view is the view of its version: a client that connects while the game's last
move is played and its end is being stored gets the position that version names, never the
next one under the old number (bench/chaos.py's resume check found "top: record '7C' snapshot
'7S'" on PostgreSQL, where storing the end takes a commit's round trip)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch.server.clock import wall
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.records import build
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.store import Store
from mauseloch.server.table.commands import BotDue
from mauseloch.server.table.state import BotTurn
from tests.server.test_move_path import RunAsync, new_table


def replayed_view(session: TableSession, version: int, seat: int | None) -> Any:
    """What the stored record says ``seat`` sees at ``version`` (as chaos.py checks it)."""
    row = session.row
    game = mauseloch.new_game(row.game, players=row.players, seed=row.seed, options=row.options, deck=row.deck)
    for seat_of, move, *_ in row.moves[:version]:
        game.play(move, seat=seat_of)
    return json.loads(json.dumps(game.view(seat)))


async def stand_in(session: TableSession, seat: int, move: str) -> None:
    """The last move played by the seat's stand-in (a move the table's clock makes)."""
    person = session.state.person(seat)
    assert person is not None
    person.row.gone = True  # away past the grace time: the stand-in plays the seat
    person.standin.choose = lambda view, legal: move  # type: ignore[method-assign]
    session.state.bot = BotTurn(session.version, wall())
    await session.submit(BotDue(version=session.version, now=wall()))


def play_to_the_end(store: Store, run_async: RunAsync, by_stand_in: bool) -> list[dict[str, Any]]:
    """Every snapshot a spectator connecting at each turn of the loop gets, from the game's last
    move sent until it is answered."""
    session = TableSession(new_table(store), store, LocalHub(), Settings())
    snapshots: list[dict[str, Any]] = []

    async def run() -> None:
        game = session.state.game
        while True:
            seat = game.to_move
            assert seat is not None
            move = game.legal_moves(seat)[0]
            probe, _ = build(session.row)  # is this move the last?
            probe.play(move, seat=seat)
            if probe.is_over:
                break
            await session.apply(seat, move, session.version)
        last = asyncio.ensure_future(
            stand_in(session, seat, move) if by_stand_in else session.apply(seat, move, session.version)
        )
        # a client connects at every turn of the loop until the end is heard (a spectator: a
        # person's coming and going would queue writes of its own ahead of the end)
        for _ in range(10_000):
            conn = Connection(seat=None)
            session.attach(conn)
            sent = conn.outbox.get_nowait()
            assert sent is not None
            snapshots.append(json.loads(sent))
            session.detach(conn)
            if last.done():
                break
            await asyncio.sleep(0)
        await last
        await session.flush()
        await store.aclose()

    run_async(run())
    assert session.state.game.is_over
    for snap in snapshots:
        snap["expected"] = replayed_view(session, snap["version"], snap["seat"])
    return snapshots


def check(snapshots: list[dict[str, Any]]) -> None:
    assert len(snapshots) > 1  # some came while the end was being stored
    for snap in snapshots:
        assert snap["view"] == snap["expected"], f"snapshot v{snap['version']} shows another position"


@pytest.mark.parametrize("by_stand_in", [False, True], ids=["person", "stand-in"])
def test_a_snapshot_while_the_end_is_stored_shows_its_own_version_sqlite(
    tmp_path: Path, run_async: RunAsync, by_stand_in: bool
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        check(play_to_the_end(store, run_async, by_stand_in))
    finally:
        store.close()


@pytest.mark.parametrize("by_stand_in", [False, True], ids=["person", "stand-in"])
def test_a_snapshot_while_the_end_is_stored_shows_its_own_version_postgresql(
    pg_url: str, run_async: RunAsync, by_stand_in: bool
) -> None:
    store = Store(pg_url)
    try:
        check(play_to_the_end(store, run_async, by_stand_in))
    finally:
        store.close()
