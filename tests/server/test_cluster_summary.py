"""The lobby summaries a cluster process keeps in Redis are built again only when what they
show changed (ownership.summary_key): a move, a seat taken, a connection that came, a seat away all change it."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.ownership import summary_key
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.store import Store
from tests.server.test_move_path import new_table

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]


def test_the_summary_key_changes_whenever_the_summary_does(tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    row = new_table(store)
    row.clock = "1d"  # over days: a seat may be away
    session = TableSession(row, store, LocalHub(), Settings())
    seen: list[tuple[tuple[Any, ...], Any]] = []

    def look() -> None:
        key, summary = summary_key(session), session.summary()
        for k, s in seen:
            assert (k == key) == (s == summary), (k, key)
        seen.append((key, summary))

    async def run() -> None:
        look()
        look()  # nothing changed: the same key
        conn = Connection(seat=0)
        session.attach(conn)  # Anna comes: her presence changes
        look()
        seat = session.state.game.to_move
        assert seat is not None
        await session.apply(seat, session.state.game.legal_moves(seat)[0], 0)  # a move
        look()
        session.row.seats[1].name = "Benedikt"  # a seat's person (a join through another process)
        look()
        session.detach(conn)
        look()
        await session.away(0, 2)  # Anna is away for two days: "My tables" says so
        look()
        await session.away(0, 0)  # and back
        look()
        await session.flush()

    run_async(run())
    assert len({k for k, _ in seen}) == 6
