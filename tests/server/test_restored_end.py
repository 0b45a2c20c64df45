"""A table whose stored moves end the game but whose end was not stored (its process was killed
between the last move's commit and the end's write) is finished when a server loads it: status
"over" with its result, in memory and in the store. Before, it stayed "playing" for ever and its
record was refused as "not finished yet" (bench/chaos.py with several kills on PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from mauseloch.server.hub import LocalHub
from mauseloch.server.records import build
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.store import Store
from tests.server.test_move_path import RunAsync, new_table


def played_to_the_end_unfinished(store: Store) -> None:
    """Table t1's every move stored, the game over by them, its status still "playing"."""
    row = new_table(store)
    game, _ = build(row)
    version = 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves(seat)[0]
        store.add_move("t1", version, seat, move)
        game.play(move, seat=seat)
        version += 1


def test_a_loaded_table_over_by_its_moves_is_finished(tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    try:
        played_to_the_end_unfinished(store)
        row = store.load_table("t1")
        assert row is not None and row.status == "playing"
        session = TableSession(row, store, LocalHub(), Settings())
        assert session.state.game.is_over

        async def run() -> None:
            session.start()
            await session.flush()
            await store.aclose()

        run_async(run())
        assert session.status == "over" and session.row.result == session.state.game.result()
        stored = store.load_table("t1")
        assert stored is not None and stored.status == "over" and stored.result == session.state.game.result()
    finally:
        store.close()
