"""The hot writes on PostgreSQL (storage.PgWrites): a table's writes are committed in the order
sent, even when the next is sent while the one before it is still committing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from mauseloch.server.storage import PgWrites, Store
from tests.server.test_storage import table_row


def test_a_tables_writes_go_behind_its_writes_under_way(pg_url: str, run_async: Callable[[Any], Any]) -> None:
    """Deadlines written alone in the tick after a move (a pause, say) count from that move on:
    they are sent behind it on its connection, not on another one that could commit first (then
    they would count from before the move, and the move's older deadlines would be restored)."""
    store = Store(pg_url)
    turn = [{"kind": "turn", "due": 1.0, "version": 1}]
    paused = [{"kind": "grace", "due": 9.0, "seat": 1}]

    async def play() -> None:
        assert isinstance(store._writes, PgWrites)
        # two connections open and idle: a write sent while the other commits opens the second
        first = store.send(store.add_move, "t0", 0, 0, "draw")
        await asyncio.sleep(0)
        await asyncio.gather(first, store.send(store.add_move, "t0", 1, 1, "draw"))
        assert len(store._writes.backend_pids()) == 2
        move = store.send(store.add_move, "t1", 0, 0, "draw", None, None, turn)
        await asyncio.sleep(0)  # the move is sent on one of them, not yet committed
        assert not move.done()
        deadlines = store.send(store.set_deadlines, "t1", paused)  # the other one is free
        await asyncio.gather(move, deadlines)
        await store.aclose()

    try:
        store.create_table(table_row("t0", status="playing"))
        store.create_table(table_row("t1", status="playing"))
        run_async(play())
        row = store.load_table("t1")
        assert row is not None and row.moves == [[0, "draw"]]
        assert row.deadlines == paused
    finally:
        store.close()
