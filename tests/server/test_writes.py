"""A table's writes to a database server: off the event loop, in worker threads, yet in order.

The store here is SQLite told to behave as a database server (``local = False``), so every call
goes through Store.call's worker threads as it does on PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
import pytest

from mauseloch.server.bodies import CreateTable
from mauseloch.server.lobby import Lobby
from mauseloch.server.storage.store import Store

# tests/conftest.py: a fresh loop in its own thread (a browser test in this worker keeps a loop running)
RunAsync = Callable[[Coroutine[Any, Any, None]], None]


@pytest.fixture
def threaded(db_url: str) -> Store:
    store = Store(db_url)
    store.local = False  # every call in a worker thread, as with PostgreSQL
    return store


def new_table(seats: int = 2) -> CreateTable:
    return msgspec.convert({"game": "mau-mau", "seats": [{"kind": "human"}] * seats, "name": "Anna"}, CreateTable)


def test_queued_writes_are_stored_in_the_order_they_were_made(threaded: Store, run_async: RunAsync) -> None:
    async def main() -> None:
        lobby = Lobby(threaded)
        created = await lobby.create(new_table())
        table = created.table
        sent = []
        for n in range(60):  # eight threads would reorder some of these without the store's batches
            deadlines = [{"kind": "close", "due": float(n)}]
            sent.append(asyncio.ensure_future(table.write(threaded.set_deadlines, table.id, deadlines)))
        await asyncio.sleep(0)  # each sent
        row = await table.write(threaded.load_table, table.id)  # after every write sent before it
        assert all(s.done() for s in sent)
        assert row is not None and row.deadlines == [{"kind": "close", "due": 59.0}]
        assert not table.writing

    try:
        run_async(main())
    finally:
        threaded.close()


def test_joins_at_once_get_different_seats(threaded: Store, run_async: RunAsync) -> None:
    async def main() -> None:
        lobby = Lobby(threaded)
        created = await lobby.create(new_table(seats=4))
        table = created.table
        invite = created.invite
        joined = await asyncio.gather(*(lobby.join(table, f"P{i}", None, invite) for i in range(3)))
        assert sorted(seat for seat, _ in joined) == [1, 2, 3]
        assert table.status == "playing"
        stored = threaded.load_table(table.id)
        assert stored is not None and stored.status == "playing"
        assert [s.token_hash for s in stored.seats] == [s.token_hash for s in table.row.seats]

    try:
        run_async(main())
    finally:
        threaded.close()


def test_a_new_id_taken_in_the_store_is_drawn_again(
    threaded: Store, monkeypatch: pytest.MonkeyPatch, run_async: RunAsync
) -> None:
    async def main() -> None:
        first = await Lobby(threaded).create(new_table())
        other = Lobby(threaded)  # another process: it does not hold the first table in memory
        ids = iter([first.table.id, "fresh-id"])
        monkeypatch.setattr(other, "_new_id", lambda: next(ids))
        second = await other.create(new_table())
        assert second.table.id == "fresh-id"
        assert threaded.load_table("fresh-id") is not None

    try:
        run_async(main())
    finally:
        threaded.close()
