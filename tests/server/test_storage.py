"""The store, on SQLite and on a real PostgreSQL (MAUSELOCH_TEST_PG_URL, started by make test)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from mauseloch.server.storage.postgres import PgWrites
from mauseloch.server.storage.rows import SeatRow, TableRow
from mauseloch.server.storage.store import Store, normalise_url


def table_row(table_id: str = "t1", status: str = "waiting") -> TableRow:
    return TableRow(
        id=table_id,
        game="mau-mau",
        title="Test table",
        players=3,
        options={"ace_skips": True, "move_limit": 1000},
        seed=2**53 - 1,
        deck=["7C", "8C", "9C"],
        status=status,
        created=dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC),
        seats=[
            SeatRow(0, "human", "Anna", token_hash="a" * 64),
            SeatRow(1, "human", "Player 2"),
            SeatRow(2, "bot", "Random bot 3", bot="random"),
        ],
    )


def test_round_trip(store: Store) -> None:
    store.create_table(table_row())
    row = store.load_table("t1")
    assert row is not None
    assert row == table_row()
    assert row.created.tzinfo is not None
    assert store.load_table("nope") is None


def test_seats_are_taken_once(store: Store) -> None:
    store.create_table(table_row())
    assert store.take_seat("t1", 1, "Ben", "b" * 64)
    assert not store.take_seat("t1", 1, "Cleo", "c" * 64)  # taken
    assert not store.take_seat("t1", 0, "Cleo", "c" * 64)  # taken at creation
    assert not store.take_seat("t1", 2, "Cleo", "c" * 64)  # a bot's seat
    row = store.load_table("t1")
    assert row is not None and row.seats[1].name == "Ben" and row.seats[1].token_hash == "b" * 64
    assert all(s.taken for s in row.seats)


def test_moves_keep_their_versions(store: Store) -> None:
    store.create_table(table_row(status="playing"))
    store.add_move("t1", 0, 0, "7C")
    store.add_move("t1", 1, 1, "draw")
    store.add_move("t1", 2, 2, "catch tie-blue", ms=840)
    with pytest.raises(IntegrityError):
        store.add_move("t1", 1, 1, "pass")  # a second move for one version: refused
    row = store.load_table("t1")
    assert row is not None and row.moves == [[0, "7C"], [1, "draw"], [2, "catch tie-blue", 840]]


def test_a_decided_window_is_stored_with_its_move(store: Store) -> None:
    store.create_table(table_row(status="playing"))
    window = {"claims": [{"seat": 1, "move": "flip", "ms": 300, "at": 451.5, "time": 300, "status": "valid"}],
              "decision": {"seat": 1, "move": "flip", "ms": 300, "at": 452.0, "first": 451.5, "tied": [1]}}  # fmt: skip
    store.add_move("t1", 0, 0, "reveal")
    store.add_move("t1", 1, 1, "flip", ms=300, referee=window)
    row = store.load_table("t1")
    assert row is not None and row.referee == {1: window}  # the reveal has none


def test_unfinished_and_finished(store: Store) -> None:
    store.create_table(table_row("a", "waiting"))
    store.create_table(table_row("b", "playing"))
    store.create_table(table_row("c", "playing"))
    store.set_status("c", "over", {"reason": "out", "ranks": [1, 2, 3]})
    assert store.unfinished() == ["a", "b"]
    done = store.load_table("c")
    assert done is not None and done.status == "over" and done.result == {"reason": "out", "ranks": [1, 2, 3]}


def test_urls() -> None:
    assert normalise_url("postgresql://u:p@127.0.0.1/db") == "postgresql+psycopg://u:p@127.0.0.1/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
    assert normalise_url("/tmp/x.db") == "sqlite:////tmp/x.db"


def test_a_database_from_before_the_clocks_gets_the_new_columns(db_url: str) -> None:
    old = Store(db_url)
    old.create_table(table_row("t1", "playing"))
    old.add_move("t1", 0, 0, "7C")
    with old.engine.begin() as conn:  # the shape an older release left behind
        for table, column in (("ml_tables", "clock"), ("ml_tables", "deadlines"), ("ml_tables", "next_id"),
                              ("ml_seats", "gone"), ("ml_moves", "by")):  # fmt: skip
            conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
    old.close()
    store = Store(db_url)
    row = store.load_table("t1")
    assert row is not None and row.moves == [[0, "7C"]] and row.by == [None] and row.clock == "off"
    assert not row.seats[0].gone and row.deadlines == [] and row.next_id is None
    store.add_move("t1", 1, 1, "8C", by="stand-in", deadlines=[{"kind": "turn", "due": 1.0, "version": 2}])
    again = store.load_table("t1")
    assert again is not None and again.by == [None, "stand-in"] and again.deadlines[0]["version"] == 2
    store.close()


def test_a_database_from_before_the_waiting_time_gets_it(store: Store) -> None:
    """The moment a waiting table was last joined is added to an existing database (SQLite and
    PostgreSQL); an older table counts from its creation until someone joins it."""
    store.create_table(table_row("t1"))
    with store.engine.begin() as conn:  # the shape the release before it left behind
        conn.exec_driver_sql("ALTER TABLE ml_tables DROP COLUMN joined")
    url = store.url
    store.close()
    again = Store(url)
    try:
        row = again.load_table("t1")
        assert row is not None and row.joined is None and row.waiting_since == row.created
        when = dt.datetime(2026, 11, 29, 12, 20, tzinfo=dt.UTC)
        assert again.take_seat("t1", 1, "Ben", "b" * 64, joined=when)
        row = again.load_table("t1")
        assert row is not None and row.joined == when and row.waiting_since == when
        assert not again.take_seat("t1", 1, "Cleo", "c" * 64, joined=when + dt.timedelta(minutes=5))
        assert again.load_table("t1").joined == when  # type: ignore[union-attr]  # a refused join stamps nothing
    finally:
        again.close()


def test_many_tables_load_as_one_by_one(store: Store) -> None:
    store.create_table(table_row("t1"))
    store.create_table(table_row("t2", status="playing"))
    store.add_move("t2", 0, 0, "draw", deadlines=[{"kind": "turn", "due": 12.5, "version": 1}])
    store.add_move("t2", 1, 1, "7C", ms=40, by="stand-in")
    found = store.load_tables(["t2", "nope", "t1"])
    assert set(found) == {"t1", "t2"}  # an unknown id is left out
    assert found["t1"] == store.load_table("t1")
    assert found["t2"] == store.load_table("t2")
    row = found["t2"]
    assert isinstance(row, TableRow) and row.moves == [[0, "draw"], [1, "7C", 40]] and row.by == [None, "stand-in"]
    assert row.deadlines == [{"kind": "turn", "due": 12.5, "version": 1}]  # stored with the first move
    assert store.load_tables([]) == {}


def test_a_move_and_its_deadlines_fail_together(store: Store) -> None:
    store.create_table(table_row(status="playing"))
    store.add_move("t1", 0, 0, "draw", deadlines=[{"kind": "turn", "due": 1.0, "version": 1}])
    with pytest.raises(IntegrityError):  # the version is stored: neither the move nor its deadlines change
        store.add_move("t1", 0, 1, "8C", deadlines=[{"kind": "turn", "due": 2.0, "version": 1}])
    row = store.load_table("t1")
    assert row is not None and row.moves == [[0, "draw"]]
    assert row.deadlines == [{"kind": "turn", "due": 1.0, "version": 1}]


def test_a_broken_table_among_many_is_reported_alone(store: Store) -> None:
    store.create_table(table_row("t1", status="playing"))
    store.create_table(table_row("t2", status="playing"))
    store.add_move("t1", 1, 0, "draw")  # version 0 missing: a gap
    found = store.load_tables(["t1", "t2"])
    assert isinstance(found["t1"], RuntimeError) and isinstance(found["t2"], TableRow)


def test_the_hot_writes_survive_a_dropped_connection(pg_url: str, run_async: Callable[[Any], Any]) -> None:
    """On PostgreSQL a server's writes of every move go from the event loop through the driver's
    own connections (PgWrites): one the database dropped (a restart, an idle timeout) is opened
    again and the write goes on; a stored version is still refused."""
    store = Store(pg_url)

    async def play() -> None:
        await store.call(store.add_move, "t1", 0, 0, "draw")
        assert isinstance(store.writes, PgWrites)
        pids = store.writes.backend_pids()
        with store.engine.begin() as conn:
            dropped = conn.execute(text("SELECT count(pg_terminate_backend(pid)) FROM unnest(:p) AS pid"), {"p": pids})
            assert dropped.scalar() == len(pids) == 1
        await store.call(store.add_move, "t1", 1, 1, "8C", None, None, [{"kind": "turn", "due": 3.0, "version": 2}])
        await store.call(store.set_gone, "t1", 1, True)
        with pytest.raises(IntegrityError):  # the fence holds on the new connection too
            await store.call(store.add_move, "t1", 1, 2, "pass")
        await store.aclose()

    try:
        store.create_table(table_row(status="playing"))
        run_async(play())
        row = store.load_table("t1")
        assert row is not None and row.moves == [[0, "draw"], [1, "8C"]] and row.seats[1].gone
        assert row.deadlines == [{"kind": "turn", "due": 3.0, "version": 2}]
    finally:
        store.close()


def test_the_writes_of_one_tick_commit_together_and_fail_alone(store: Store, run_async: Callable[[Any], Any]) -> None:
    """Hot writes sent in one tick of the event loop share a transaction (a group commit): each
    sender hears of its own write once it is committed; a version stored first fails that write
    alone, not the others of its batch."""
    store.create_table(table_row("t1", status="playing"))
    store.create_table(table_row("t2", status="playing"))
    store.add_move("t2", 0, 0, "draw")
    outcomes: list[Any] = []

    async def play() -> None:
        writes = [
            store.call(store.add_move, "t1", 0, 0, "7C", None, None, [{"kind": "turn", "due": 5.0, "version": 1}]),
            store.call(store.add_move, "t2", 0, 1, "8C"),  # version 0 of t2 is stored: refused
            store.call(store.add_move, "t1", 1, 1, "draw"),
            store.call(store.set_gone, "t1", 1, True),
        ]
        outcomes.extend(await asyncio.gather(*writes, return_exceptions=True))
        await store.aclose()

    run_async(play())
    assert [type(o) for o in outcomes] == [type(None), IntegrityError, type(None), type(None)]
    row = store.load_table("t1")
    assert row is not None and row.moves == [[0, "7C"], [1, "draw"]] and row.seats[1].gone
    assert row.deadlines == [{"kind": "turn", "due": 5.0, "version": 1}]  # the second move carried none
    other = store.load_table("t2")
    assert other is not None and other.moves == [[0, "draw"]]


def test_the_newest_deadlines_hold_whether_written_with_a_move_or_alone(store: Store) -> None:
    """A move carries the table's deadlines in its own row; deadlines written alone (a pause, a
    grace time) after it replace them, and a move after those replaces them again."""
    store.create_table(table_row(status="playing"))
    turn = [{"kind": "turn", "due": 1.0, "version": 1}]
    store.add_move("t1", 0, 0, "draw", deadlines=turn)
    paused = [{"kind": "grace", "due": 9.0, "seat": 1}]
    store.set_deadlines("t1", paused)
    assert store.load_table("t1").deadlines == paused  # type: ignore[union-attr]
    store.add_move("t1", 1, 1, "8C")  # no deadlines given: they stay as they were
    assert store.load_table("t1").deadlines == paused  # type: ignore[union-attr]
    later = [{"kind": "turn", "due": 3.0, "version": 3}]
    store.add_move("t1", 2, 2, "draw", deadlines=later)
    assert store.load_table("t1").deadlines == later  # type: ignore[union-attr]
    assert store.load_tables(["t1"])["t1"].deadlines == later  # type: ignore[union-attr]


def test_a_read_sees_the_writes_sent_before_it(db_url: str, run_async: Callable[[Any], Any]) -> None:
    """On SQLite a write sent through the event loop waits for the next tick to be committed; a
    call made meanwhile (a read, a seat taken) commits it first, so the store is read in the
    order it was written."""
    store = Store(db_url)
    store.create_table(table_row(status="playing"))

    async def play() -> None:
        pending = asyncio.ensure_future(store.call(store.add_move, "t1", 0, 0, "7C"))
        await asyncio.sleep(0)  # the write is sent, its tick's commit not yet made
        row = store.load_table("t1")
        assert row is not None and row.moves == [[0, "7C"]]
        await pending

    try:
        run_async(play())
    finally:
        store.close()


def test_a_table_created_and_its_seats_taken_join_the_batch(store: Store, run_async: Callable[[Any], Any]) -> None:
    """Creating a table and taking a seat sent through Store.call join the tick's batch, as the
    moves do (no worker thread): two joins of one seat in one batch give it to the first only,
    and the refused one stamps no join time; a table id taken already is refused alone."""
    when = dt.datetime(2026, 11, 29, 12, 20, tzinfo=dt.UTC)
    outcomes: list[Any] = []

    async def play() -> None:
        await store.call(store.create_table, table_row("t1"))
        outcomes.extend(
            await asyncio.gather(
                store.call(store.take_seat, "t1", 1, "Ben", "b" * 64, when),
                store.call(store.take_seat, "t1", 1, "Cleo", "c" * 64, when + dt.timedelta(minutes=5)),
                store.call(store.create_table, table_row("t1")),  # the id is taken
                store.call(store.create_table, table_row("t2")),
                return_exceptions=True,
            )
        )
        await store.aclose()

    run_async(play())
    assert outcomes[:2] == [True, False] and isinstance(outcomes[2], IntegrityError) and outcomes[3] is None
    row = store.load_table("t1")
    assert row is not None and row.seats[1].name == "Ben" and row.seats[1].token_hash == "b" * 64
    assert row.joined == when
    assert store.load_table("t2") == table_row("t2")
