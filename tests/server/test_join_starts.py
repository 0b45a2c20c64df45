"""The transaction that takes a table's last free human seat also starts it (status "playing"):
a process killed after the seat's commit and before a status write of its own left the table
waiting for ever with every seat taken (bench/chaos.py on PostgreSQL: the joiner's answer was
lost with the process, its retried join refused as taken, the game never began)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from mauseloch.server.storage.rows import SeatRow
from mauseloch.server.storage.store import Store
from tests.server.test_storage import table_row


def four_seats() -> Any:
    """A waiting table with two free human seats (Anna's taken, a bot's)."""
    row = table_row()
    return dataclasses.replace(row, players=4, seats=[*row.seats, SeatRow(3, "human", "Player 4")])


def status(store: Store) -> str:
    row = store.load_table("t1")
    assert row is not None
    return row.status


def test_the_last_seat_taken_starts_the_table(store: Store) -> None:
    store.create_table(four_seats())
    assert store.take_seat("t1", 1, "Ben", "b" * 64)
    assert status(store) == "waiting"  # seat 3 is still free
    assert not store.take_seat("t1", 1, "Cleo", "c" * 64)  # refused: changes nothing
    assert status(store) == "waiting"
    assert store.take_seat("t1", 3, "Dora", "d" * 64)
    assert status(store) == "playing"


def test_the_last_seat_taken_in_a_batch_starts_the_table(store: Store, run_async: Callable[[Any], Any]) -> None:
    """The same through the tick's batch (Store.call: a join's path in the server)."""
    store.create_table(four_seats())

    async def join() -> list[bool]:
        taken = [
            await store.call(store.take_seat, "t1", 1, "Ben", "b" * 64),
            await store.call(store.take_seat, "t1", 1, "Cleo", "c" * 64),
        ]
        before = status(store)
        taken.append(await store.call(store.take_seat, "t1", 3, "Dora", "d" * 64))
        await store.aclose()
        assert before == "waiting"
        return taken

    assert run_async(join()) == [True, False, True]
    assert status(store) == "playing"


def test_a_table_over_or_playing_keeps_its_status(store: Store) -> None:
    store.create_table(dataclasses.replace(four_seats(), status="playing"))
    assert store.take_seat("t1", 1, "Ben", "b" * 64)
    assert store.take_seat("t1", 3, "Dora", "d" * 64)
    assert status(store) == "playing"
