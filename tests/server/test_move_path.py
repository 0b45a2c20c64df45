"""A person's move at a table whose lock is free, on SQLite: checked and sent to the tick's group
commit by the connection's own task, then played and published by the commit's callback — no
task of its own — and still played when the connection's task is cancelled while it waits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.storage.store import Store

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]  # the run_async fixture (tests/conftest.py): a loop of its own


def new_table(store: Store) -> TableRow:
    """A Mau-Mau table of two people, stored, no move played yet."""
    record = mauseloch.new_game("mau-mau", players=2, seed=11).record()
    row = TableRow(
        id="t1", game="mau-mau", title="", players=2, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), moves=[], by=[],
        seats=[SeatRow(seat=0, kind="human", name="Anna", token_hash="ab"),
               SeatRow(seat=1, kind="human", name="Ben", token_hash="cd")],
    )  # fmt: skip
    store.create_table(row)
    return row


def counting_tasks(loop: asyncio.AbstractEventLoop) -> list[Any]:
    made: list[Any] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any) -> asyncio.Task[Any]:
        made.append(coro)
        return asyncio.Task(coro, loop=loop)

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    return made


def test_a_move_makes_no_task_and_every_seat_hears_it(tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    session = TableSession(new_table(store), store, LocalHub(), Settings())
    watcher = Connection(seat=None)
    session.hub.subscribe(session.id, watcher)

    async def run() -> list[Any]:
        made = counting_tasks(asyncio.get_running_loop())
        for version in range(6):
            seat = session.state.game.to_move
            assert seat is not None
            await session.apply(seat, session.state.game.legal_moves(seat)[0], version)
        return list(made)  # before asyncio.run's own shutdown tasks

    made = run_async(run())
    assert made == []  # the old path made one a move (and a shield and three more wake-ups)
    assert session.version == 6 and not session.busy
    assert len(store.load_table("t1").moves) == 6  # type: ignore[union-attr]
    assert watcher.outbox.qsize() == 6


def test_a_move_whose_sender_is_cancelled_while_it_is_stored_is_played_and_announced(
    tmp_path: Path, run_async: RunAsync
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    session = TableSession(new_table(store), store, LocalHub(), Settings())
    watcher = Connection(seat=None)
    session.hub.subscribe(session.id, watcher)

    async def run() -> None:
        seat = session.state.game.to_move
        assert seat is not None
        sender = asyncio.get_running_loop().create_task(session.apply(seat, session.state.game.legal_moves(seat)[0], 0))
        await asyncio.sleep(0)  # checked and sent; the commit comes with the next tick
        assert session.busy and session.version == 0
        sender.cancel()
        for _ in range(3):
            await asyncio.sleep(0)
        assert sender.cancelled()

    run_async(run())
    assert session.version == 1 and not session.busy  # memory and store agree
    assert len(store.load_table("t1").moves) == 1  # type: ignore[union-attr]
    assert watcher.outbox.qsize() == 1


def test_a_version_another_writer_stored_first_is_refused_as_stale_and_caught_up(
    tmp_path: Path, run_async: RunAsync
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    session = TableSession(new_table(store), store, LocalHub(), Settings())
    seat = session.state.game.to_move
    assert seat is not None
    legal = session.state.game.legal_moves(seat)
    first, second = legal[0], legal[-1]
    store.add_move("t1", 0, seat, first)  # a second process was first

    async def run() -> None:
        with pytest.raises(ProtocolError) as refused:
            await session.apply(seat, second, 0)
        assert refused.value.code is ErrorCode.STALE

    run_async(run())
    assert session.version == 1 and session.row.moves == [[seat, first]] and not session.busy


def test_a_whole_game_ends_stored_as_over(tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    session = TableSession(new_table(store), store, LocalHub(), Settings())

    async def run() -> None:
        while not session.state.game.is_over:
            seat = session.state.game.to_move
            assert seat is not None
            await session.apply(seat, session.state.game.legal_moves(seat)[0], session.version)

    run_async(run())
    stored = store.load_table("t1")
    assert stored is not None and stored.status == "over" and len(stored.moves) == session.version
    assert not session.busy
