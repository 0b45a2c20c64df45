"""The CPU of a person's move inside one server process, without sockets or clients: many tables
of four people on SQLite (clock 'normal'), each seat and a spectator connected, every move sent
through ``TableSession.apply`` as the WebSocket handler sends it — checked, stored in the tick's
group commit, played, every seat's view built, encoded and handed to its connection. Prints the
process CPU a move (min of ``--reps``) and what a move costs the event loop: tasks made,
callbacks scheduled, loop timers set, futures made.

The server benchmark (bench/server.py) measures the same path with sockets and client processes,
but on a busy machine its runs differ by more than these levers (an unchanged tree measured
against itself: server CPU a move x0.83, p50 x1.63). Compare revisions by running this file
with another tree's sources first on the path:

    .venv/bin/python bench/table_moves.py
    git archive REV src | tar -x -C /tmp/rev && PYTHONPATH=/tmp/rev/src .venv/bin/python bench/table_moves.py
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
from typing import Any

import mauseloch
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage import SeatRow, Store, TableRow, now


def new_row(store: Store, table: str, seed: int) -> TableRow:
    record = mauseloch.new_game("mau-mau", players=4, seed=seed).record()
    row = TableRow(
        id=table, game="mau-mau", title="", players=4, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), moves=[], by=[], clock="normal",
        seats=[SeatRow(seat=s, kind="human", name=f"P{s}", token_hash=f"h{s}") for s in range(4)],
    )  # fmt: skip
    store.create_table(row)
    return row


async def play(store: Store, tables: int, moves: int) -> int:
    """``moves`` moves over ``tables`` tables playing at once; returns the moves played."""
    hub = LocalHub()
    count = 0

    async def table_loop(i: int) -> None:
        nonlocal count
        seed = i
        while count < moves:
            session = TableSession(new_row(store, f"t{i}-{seed}", seed), store, hub, Settings())
            session.start()
            conns = [Connection(seat=s) for s in (0, 1, 2, 3, None)]
            for c in conns:
                hub.subscribe(session.id, c)
            rng = random.Random(seed)
            while not session.game.is_over and count < moves:
                seat = session.game.to_move
                assert seat is not None
                await session.apply(seat, rng.choice(session.game.legal_moves(seat)), session.version)
                count += 1
                for c in conns:  # the socket's part is not measured here
                    while not c.outbox.empty():
                        c.outbox.get_nowait()
                await asyncio.sleep(0)
            for c in conns:
                hub.unsubscribe(session.id, c)
            await session.stop()
            seed += 1000

    await asyncio.gather(*(table_loop(i) for i in range(tables)))
    return count


def cpu_a_move(tables: int, moves: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{d}/m.db")
        start = time.process_time()
        played = asyncio.run(play(store, tables, moves))
        used = time.process_time() - start
        store.close()
    return used / played * 1e6


def loop_work_a_move(moves: int) -> dict[str, float]:
    """Tasks, callbacks, timers and futures the event loop sees a move (one table)."""
    counts = {"tasks": 0, "callbacks": 0, "timers": 0, "futures": 0}

    async def run() -> int:
        loop: Any = asyncio.get_running_loop()
        soon, later, future = loop.call_soon, loop.call_later, loop.create_future

        def call_soon(*args: Any, **kwargs: Any) -> Any:
            counts["callbacks"] += 1
            return soon(*args, **kwargs)

        def call_later(*args: Any, **kwargs: Any) -> Any:
            counts["timers"] += 1
            return later(*args, **kwargs)

        def create_future() -> Any:
            counts["futures"] += 1
            return future()

        def task(loop: asyncio.AbstractEventLoop, coro: Any) -> asyncio.Task[Any]:
            counts["tasks"] += 1
            return asyncio.Task(coro, loop=loop)

        with tempfile.TemporaryDirectory() as d:
            store = Store(f"sqlite:///{d}/m.db")
            session = TableSession(new_row(store, "t", 1), store, LocalHub(), Settings())
            session.start()
            loop.call_soon, loop.call_later, loop.create_future = call_soon, call_later, create_future
            loop.set_task_factory(task)
            for c in counts:
                counts[c] = 0
            played = 0
            while played < moves and not session.game.is_over:
                seat = session.game.to_move
                assert seat is not None
                await session.apply(seat, session.game.legal_moves(seat)[0], session.version)
                played += 1
            loop.set_task_factory(None)
            loop.call_soon, loop.call_later, loop.create_future = soon, later, future
            store.close()
        return played

    played = asyncio.run(run())
    return {k: v / played for k, v in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=4000, help="moves a repetition")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    gc.disable()  # a collection landing in one repetition is not the move's cost
    runs = [cpu_a_move(args.tables, args.moves) for _ in range(args.reps)]
    gc.enable()
    work = loop_work_a_move(40)
    print(f"server CPU a move: {min(runs):.0f} µs (runs: {', '.join(f'{r:.0f}' for r in runs)})")
    print("a move on the event loop: " + ", ".join(f"{k} {v:.2f}" for k, v in work.items()))


if __name__ == "__main__":
    main()
