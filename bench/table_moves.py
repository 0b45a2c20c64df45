"""The CPU of a person's move inside one server process, without sockets or clients: many tables
of four people on SQLite (clock 'normal'), each seat and a spectator connected, every move sent
through ``TableSession.apply`` as the WebSocket handler sends it — checked, stored in the tick's
group commit, played, every seat's view built, encoded and handed to its connection. Prints the
process CPU a move (min of ``--reps``) and what a move costs the event loop: tasks made,
callbacks scheduled, loop timers set, futures made.

The server benchmark (bench/server.py) measures the same path with sockets and client processes,
but on a busy machine its runs differ by more than these levers (an unchanged tree measured
against itself: server CPU a move x0.83, p50 x1.63). Compare revisions by running this file
with another tree's sources: ``--against REV`` measures that revision's ``src`` (from ``git
archive``, in a child process) in the same run, before this tree, and prints the ratio:

    .venv/bin/python bench/table_moves.py --against HEAD~5 --json
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import mauseloch
from _report import print_json, text_to_stderr
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.session import Settings, TableSession

try:  # this tree's layout; a revision before server/storage/ was a package (--against) has one module
    from mauseloch.server.storage.rows import SeatRow, TableRow, now
    from mauseloch.server.storage.store import Store
except ImportError:
    from mauseloch.server.storage import SeatRow, Store, TableRow, now  # type: ignore[no-redef]


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
            state = getattr(session, "state", session)  # the table's state (before: the session itself)
            while not state.game.is_over and count < moves:
                seat = state.game.to_move
                assert seat is not None
                await session.apply(seat, rng.choice(state.game.legal_moves(seat)), session.version)
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
            state = getattr(session, "state", session)  # the table's state (before: the session itself)
            while played < moves and not state.game.is_over:
                seat = state.game.to_move
                assert seat is not None
                await session.apply(seat, state.game.legal_moves(seat)[0], session.version)
                played += 1
            loop.set_task_factory(None)
            loop.call_soon, loop.call_later, loop.create_future = soon, later, future
            store.close()
        return played

    played = asyncio.run(run())
    return {k: v / played for k, v in counts.items()}


def baseline(rev: str, args: argparse.Namespace) -> dict[str, Any]:
    """This bench's figures for revision ``rev``'s sources, measured in a child process."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "src")}
        cmd = [sys.executable, __file__, "--tables", str(args.tables), "--moves", str(args.moves)]
        out = subprocess.run([*cmd, "--reps", str(args.reps), "--json"], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"the baseline {rev} failed:\n{out.stderr}")
        figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables playing at once")
    parser.add_argument("--moves", type=int, default=4000, help="moves a repetition")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--against", metavar="REV", help="measure this git revision's sources first, in the same run")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    base = baseline(args.against, args) if args.against else None
    gc.disable()  # a collection landing in one repetition is not the move's cost
    runs = [cpu_a_move(args.tables, args.moves) for _ in range(args.reps)]
    gc.enable()
    work = loop_work_a_move(40)
    print(f"server CPU a move: {min(runs):.0f} µs (runs: {', '.join(f'{r:.0f}' for r in runs)})")
    print("a move on the event loop: " + ", ".join(f"{k} {v:.2f}" for k, v in work.items()))
    figures: dict[str, Any] = {
        "bench": "table_moves",
        "tables": args.tables,
        "moves": args.moves,
        "server_cpu_us_per_move": round(min(runs), 1),
        "runs_us": [round(r, 1) for r in runs],
        "loop_work_per_move": {k: round(v, 3) for k, v in work.items()},
    }
    if base is not None:
        ratio = figures["server_cpu_us_per_move"] / base["server_cpu_us_per_move"]
        print(f"against {args.against}: {base['server_cpu_us_per_move']:.0f} µs, this tree x{ratio:.2f}")
        figures["baseline"] = {"rev": args.against, **base}
        figures["ratio_to_baseline"] = round(ratio, 3)
    if args.json:
        print_json(figures, out)


if __name__ == "__main__":
    main()
