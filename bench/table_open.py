"""The server CPU of a game's per-game work: a table created over HTTP, three people joining it,
four WebSockets opened, each saying hello and getting its snapshot, and the four closing again.

bench/server.py plays whole games at bot pace, where a Mau-Mau game lasts 16 to 18 moves, so this
work weighs on every move it reports; there it is mixed with the moves and the machine's noise.
Here one ``mauseloch serve`` process (SQLite, the caps of a public server off, as bench/server.py
starts it) gets only that work, in two phases measured apart from ``/proc``: ``http`` (the
create and the three joins, for ``--tables`` tables, ``--parallel`` at a time) and ``ws`` (their
four sockets: open, hello, snapshot, close). The first ``--warmup`` tables are not measured.
Reported: the server's CPU µs a table for each phase and in all, and that total over
``--moves-per-game`` (a game's moves at bot pace) as the share of a move it costs.

``--against REV`` measures the server of git revision REV first (bench/server.py's ``checkout``),
then the work tree (or, with ``--after REV2``, that revision's), ``--reps`` times in turn, and
prints the ratios of the medians:

    .venv/bin/python bench/table_open.py --tables 400 --against HEAD~3 --json
    .venv/bin/python bench/table_open.py --tables 400 --against HEAD~3 --after HEAD
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import print_json, text_to_stderr
from server import checkout, cpu_seconds, lean_connect, start_server, wait_ready  # bench/server.py

SEATS = 4


async def open_tables(base: str, count: int, parallel: int) -> list[tuple[str, list[tuple[int, str]]]]:
    """``count`` private tables of four people, created and joined over HTTP; each table's id and
    its seats' tokens."""
    limits = httpx.Limits(max_connections=parallel, keepalive_expiry=1.0)
    opened: list[tuple[str, list[tuple[int, str]]]] = []
    async with httpx.AsyncClient(base_url=f"http://{base}", trust_env=False, limits=limits, timeout=60) as http:

        async def one() -> None:
            created = (
                await http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 4, "name": "A"})
            ).json()
            creds = [(created["seat"], created["token"])]
            for name in ("B", "C", "D"):
                joined = (
                    await http.post(
                        f"/api/tables/{created['table']}/join", json={"name": name, "invite": created["invite_secret"]}
                    )
                ).json()
                creds.append((joined["seat"], joined["token"]))
            opened.append((created["table"], creds))

        for start in range(0, count, parallel):
            await asyncio.gather(*(one() for _ in range(min(parallel, count - start))))
    return opened


async def seat_snapshot(base: str, table: str, seat: int, token: str) -> None:
    """One seat's socket: hello, the snapshot, then closed."""
    async with lean_connect(base, f"/ws/{table}") as ws:
        await ws.send(msgspec.json.encode({"type": "hello", "token": token, "seat": seat, "last_seq": 0}))
        while True:
            msg = msgspec.json.decode(await ws.recv())
            if msg["type"] == "snapshot":
                return
            if msg["type"] == "error":
                raise RuntimeError(f"seat {seat} of {table} refused: {msg}")


async def connect_tables(base: str, tables: list[tuple[str, list[tuple[int, str]]]], parallel: int) -> None:
    """Every table's four sockets at once, ``parallel`` tables at a time."""
    for start in range(0, len(tables), parallel):
        await asyncio.gather(
            *(
                seat_snapshot(base, table, seat, token)
                for table, creds in tables[start : start + parallel]
                for seat, token in creds
            )
        )


def measure(tables: int, warmup: int, parallel: int, source: str | None) -> dict[str, float]:
    """One server process: the per-table CPU of each phase, in µs."""
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(f"sqlite:///{Path(tmp) / 'bench.db'}", source=source)
        base = f"127.0.0.1:{port}"
        try:
            wait_ready([base])
            warm = asyncio.run(open_tables(base, warmup, parallel))
            asyncio.run(connect_tables(base, warm, parallel))
            time.sleep(0.5)  # what the warm-up left (writes, closes) is done before the window
            cpu0 = cpu_seconds(proc.pid) or 0.0
            opened = asyncio.run(open_tables(base, tables, parallel))
            time.sleep(0.2)
            cpu1 = cpu_seconds(proc.pid) or 0.0
            asyncio.run(connect_tables(base, opened, parallel))
            time.sleep(0.2)  # the closes' detaches run after the clients' last read
            cpu2 = cpu_seconds(proc.pid) or 0.0
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
    http_us = (cpu1 - cpu0) * 1e6 / tables
    ws_us = (cpu2 - cpu1) * 1e6 / tables
    return {"http_us_per_table": http_us, "ws_us_per_table": ws_us, "us_per_table": http_us + ws_us}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=400, help="tables measured a run")
    parser.add_argument("--warmup", type=int, default=40, help="tables opened before the window")
    parser.add_argument("--parallel", type=int, default=16, help="tables opened at once")
    parser.add_argument("--reps", type=int, default=3, help="runs of each server, in turn")
    parser.add_argument("--moves-per-game", type=float, default=16.7, help="a game's moves at bot pace")
    parser.add_argument("--against", metavar="REV", help="also measure the server of git revision REV, first")
    parser.add_argument("--after", metavar="REV", help="with --against: this revision instead of the work tree")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    if args.after and not args.against:
        parser.error("--after needs --against")
    old_tree = tempfile.TemporaryDirectory() if args.against else None
    try:
        sources: list[tuple[str, str | None]] = [("tree", None)]
        if old_tree is not None:
            for side in ("before", "after"):
                (Path(old_tree.name) / side).mkdir()
            sources.insert(0, (args.against, checkout(args.against, Path(old_tree.name) / "before")))
            if args.after:
                name = args.after if args.after != args.against else f"{args.after} again"
                sources[1] = (name, checkout(args.after, Path(old_tree.name) / "after"))
        runs: dict[str, list[dict[str, float]]] = {name: [] for name, _ in sources}
        for _ in range(args.reps):
            for name, source in sources:
                r = measure(args.tables, args.warmup, args.parallel, source)
                runs[name].append(r)
                print(
                    f"{name:>10}: http {r['http_us_per_table']:7.0f} µs a table, ws {r['ws_us_per_table']:7.0f},"
                    f" in all {r['us_per_table']:7.0f} ({r['us_per_table'] / args.moves_per_game:5.0f} µs a move)",
                    flush=True,
                )
    finally:
        if old_tree is not None:
            old_tree.cleanup()
    result: dict[str, Any] = {"tables": args.tables, "parallel": args.parallel, "reps": args.reps, "servers": {}}
    for name, rs in runs.items():
        med = {key: statistics.median(r[key] for r in rs) for key in rs[0]}
        med["us_per_move"] = med["us_per_table"] / args.moves_per_game
        result["servers"][name] = med
        print(
            f"{name:>10} median: http {med['http_us_per_table']:.0f}, ws {med['ws_us_per_table']:.0f},"
            f" in all {med['us_per_table']:.0f} µs a table = {med['us_per_move']:.0f} µs a move"
        )
    if args.against:
        before, after = result["servers"][args.against], result["servers"][sources[1][0]]
        result["ratios"] = {key: after[key] / before[key] if before[key] else float("nan") for key in before}
        print(
            f"   against {args.against}: http x{result['ratios']['http_us_per_table']:.2f},"
            f" ws x{result['ratios']['ws_us_per_table']:.2f}, in all x{result['ratios']['us_per_table']:.2f}"
        )
    if args.json:
        print_json(result, out)


if __name__ == "__main__":
    main()
