"""A table owned by another process is served from the row its owner holds (one request,
ipc.Load), and from the store only when the owner does not hand it over."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from mauseloch.server import ipc
from mauseloch.server.ownership import ClusterLobby, RemoteTable
from mauseloch.server.redis_hub import NotOwner
from mauseloch.server.storage.rows import TableRow
from tests.server.test_storage import table_row

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]


class Hub:
    def __init__(self, answer: ipc.Answer | Exception) -> None:
        self.answer = answer
        self.asked: list[tuple[str, str, ipc.Op]] = []

    async def call(self, pid: str, table: str, op: ipc.Op) -> ipc.Answer:
        self.asked.append((pid, table, op))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class Store:
    local = False

    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.loads = 0

    def load_table(self, table_id: str) -> TableRow | None:
        self.loads += 1
        return self.row if table_id == self.row.id else None

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args)


def lobby(hub: Hub, store: Store) -> ClusterLobby:
    made = ClusterLobby.__new__(ClusterLobby)  # no Redis: only what _load_remote uses
    made.cluster_hub = hub  # type: ignore[assignment]
    made.store = store  # type: ignore[assignment]
    made.owners = {}
    made._wake = asyncio.Event()
    return made


def test_a_table_owned_elsewhere_comes_from_its_owners_row(run_async: RunAsync) -> None:
    async def main() -> None:
        held = table_row()
        held.moves = [[0, "QH"], [1, "7S"]]  # the owner is ahead of what this process knows
        stored = table_row()
        hub, store = Hub(ipc.Loaded(held)), Store(stored)
        table = await lobby(hub, store)._load_remote(held.id, "owner")
        assert isinstance(table, RemoteTable) and table.row == held and table.version == 2
        assert hub.asked == [("owner", held.id, ipc.Load())]
        assert store.loads == 0

    run_async(main())


def test_the_store_serves_when_the_owner_does_not_hand_its_row_over(run_async: RunAsync) -> None:
    async def main() -> None:
        stored = table_row()
        hub, store = Hub(NotOwner()), Store(stored)
        made = lobby(hub, store)
        made.owners[stored.id] = "owner"
        table = await made._load_remote(stored.id, "owner")
        assert isinstance(table, RemoteTable) and table.row == stored
        assert store.loads == 1 and stored.id not in made.owners  # asked again next time
        nobody = await lobby(Hub(ipc.Done()), Store(stored))._load_remote(stored.id, None)
        assert isinstance(nobody, RemoteTable)  # no owner known: the store, no request

    run_async(main())
