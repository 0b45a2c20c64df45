"""The hot writes on PostgreSQL (storage.PgWrites): a table's writes are committed in the order
sent, even when the next is sent while the one before it is still committing; so a person's
move goes to the batch without a task of its own, as on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy.exc import IntegrityError

from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.postgres import PgWrites
from mauseloch.server.storage.rows import TableRow
from mauseloch.server.storage.store import Store
from tests.server.test_move_path import counting_tasks, new_table
from tests.server.test_storage import table_row


def played_on_two_tables(
    store: Store, run_async: Callable[[Any], Any], play: Callable[[], Coroutine[Any, Any, None]]
) -> TableRow:
    """Tables t0 and t1 playing, ``play()`` run, the store closed: t1's row as stored."""
    try:
        store.create_table(table_row("t0", status="playing"))
        store.create_table(table_row("t1", status="playing"))
        run_async(play())
        row = store.load_table("t1")
        assert row is not None
        return row
    finally:
        store.close()


def test_a_tables_writes_go_behind_its_writes_under_way(pg_url: str, run_async: Callable[[Any], Any]) -> None:
    """Deadlines written alone in the tick after a move (a pause, say) count from that move on:
    they are sent behind it on its connection, not on another one that could commit first (then
    they would count from before the move, and the move's older deadlines would be restored)."""
    store = Store(pg_url)
    turn = [{"kind": "turn", "due": 1.0, "version": 1}]
    paused = [{"kind": "grace", "due": 9.0, "seat": 1}]

    async def play() -> None:
        assert isinstance(store.writes, PgWrites)
        # two connections open and idle: a write sent while the other commits opens the second
        # (on a loaded machine the first may be committed already: send pairs until it opens)
        version = 0
        while len(store.writes.backend_pids()) < 2 and version < 40:
            first = store.send(store.add_move, "t0", version, version % 2, "draw")
            await asyncio.sleep(0)
            await asyncio.gather(first, store.send(store.add_move, "t0", version + 1, (version + 1) % 2, "draw"))
            version += 2
        assert len(store.writes.backend_pids()) == 2
        move = store.send(store.add_move, "t1", 0, 0, "draw", None, None, turn)
        await asyncio.sleep(0)  # the move is sent on one of them, not yet committed
        assert not move.done()
        deadlines = store.send(store.set_deadlines, "t1", paused)  # the other one is free
        await asyncio.gather(move, deadlines)
        await store.aclose()

    row = played_on_two_tables(store, run_async, play)
    assert row.moves == [[0, "draw"]] and row.deadlines == paused


def test_a_move_on_postgresql_makes_no_task_and_is_stored_before_it_is_heard(
    pg_url: str, run_async: Callable[[Any], Any]
) -> None:
    """A person's move at a table whose lock is free and whose writes are all committed is sent
    to the batch by its caller and played by the commit's callback, as on SQLite: no task a move
    (the connections' opening aside), and every move heard is stored."""
    store = Store(pg_url)
    session = TableSession(new_table(store), store, LocalHub(), Settings())
    watcher = Connection(seat=None)
    session.hub.subscribe(session.id, watcher)

    async def run() -> list[Any]:
        await store.call(store.set_gone, "t1", 0, False)  # the connection is open before counting
        made = counting_tasks(asyncio.get_running_loop())
        for version in range(6):
            seat = session.state.game.to_move
            assert seat is not None
            await session.apply(seat, session.state.game.legal_moves(seat)[0], version)
            assert len(store.load_table("t1").moves) == version + 1  # type: ignore[union-attr]
        tasks = list(made)
        await session.flush()
        await store.aclose()
        return tasks

    try:
        made = run_async(run())
        assert made == []  # the queued path makes two a move (the table's write, the unbroken play)
        assert session.version == 6 and not session.busy
        assert watcher.outbox.qsize() == 6
    finally:
        store.close()


def test_the_writes_of_a_dropped_connection_are_sent_again_in_their_order(
    pg_url: str, run_async: Callable[[Any], Any]
) -> None:
    """A connection lost with a table's move under way and its next write waiting for it puts
    both back ahead of the others, in their order, to be sent on a new connection."""
    store = Store(pg_url)

    async def play() -> None:
        writes = store.writes
        assert isinstance(writes, PgWrites)
        await store.call(store.add_move, "t0", 0, 0, "draw")  # a connection is open
        move = store.send(store.add_move, "t1", 0, 0, "draw")
        await asyncio.sleep(0)
        deadlines = store.send(store.set_deadlines, "t1", [{"kind": "grace", "due": 9.0, "seat": 1}])
        await asyncio.sleep(0)  # waits for the move's transaction
        [link] = writes._links
        assert not move.done() and not deadlines.done()
        waiting = store.send(store.add_move, "t0", 1, 1, "draw")
        link._fail(ConnectionError("dropped"))
        assert [(plan[0][0], tries) for plan, _, tries in writes._pending] == [
            ("move", 1),  # sent, to be sent once more
            ("deadlines", 0),  # waited for the move
            ("move", 0),
        ]
        await asyncio.gather(move, deadlines, waiting, return_exceptions=True)
        await store.aclose()

    row = played_on_two_tables(store, run_async, play)
    assert row.moves == [[0, "draw"]] and row.deadlines == [{"kind": "grace", "due": 9.0, "seat": 1}]


def lost_answer(writes: PgWrites) -> None:
    """The next batch on ``writes`` commits, and then its connection breaks before the answer is
    read (as when the database is restarted right after a commit): its writes are sent again."""
    done = writes._segment_done

    def once(link: Any, batch: Any, shape: Any, results: Any) -> None:
        writes._segment_done = done  # type: ignore[method-assign]
        done(link, batch, shape, ConnectionError("the answer was lost"))

    writes._segment_done = once  # type: ignore[method-assign]


def test_a_move_committed_before_its_connection_broke_counts_when_sent_again(
    pg_url: str, run_async: Callable[[Any], Any]
) -> None:
    """The move is stored by its first sending; sent again, its own row counts as stored (it is
    not refused as a version stored first), and it is stored once. Another move at a version
    stored is still refused when it is sent again."""
    store = Store(pg_url)
    outcomes: list[Any] = []

    async def play() -> None:
        writes = store.writes
        assert isinstance(writes, PgWrites)
        await store.call(store.add_move, "t0", 0, 0, "draw")  # a connection is open
        lost_answer(writes)
        outcomes.append(await asyncio.gather(store.call(store.add_move, "t1", 0, 0, "7C"), return_exceptions=True))
        lost_answer(writes)  # version 0 holds 7C: 8C at version 0 is refused, sent once or twice
        outcomes.append(await asyncio.gather(store.call(store.add_move, "t1", 0, 0, "8C"), return_exceptions=True))
        await store.aclose()

    row = played_on_two_tables(store, run_async, play)
    assert outcomes[0] == [None], outcomes
    assert len(outcomes[1]) == 1 and isinstance(outcomes[1][0], IntegrityError), outcomes
    assert row.moves == [[0, "7C"]]
