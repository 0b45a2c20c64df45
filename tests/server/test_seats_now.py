"""Store.seats_now: a table's seats, status and last join as the store has them, in one query
(what the owner of a table reads when a seat may have been taken through another process)."""

from __future__ import annotations

import datetime as dt

from mauseloch.server.storage.store import Store
from tests.server.test_storage import table_row


def test_seats_now_tells_who_took_which_seat(store: Store) -> None:
    row = table_row()
    store.create_table(row)
    when = dt.datetime(2026, 12, 4, 19, 0, tzinfo=dt.UTC)
    assert store.take_seat("t1", 1, "Ben", "b" * 64, when)
    now = store.seats_now("t1")
    assert now is not None
    stored = store.load_table("t1")
    assert stored is not None
    assert now.seats == [(s.name, s.token_hash) for s in stored.seats]
    assert now.seats[1] == ("Ben", "b" * 64)
    assert now.status == stored.status and now.joined == when == stored.joined
    assert store.seats_now("nope") is None
