"""Web server load: many WebSocket clients playing Mau-Mau against one real server.

Starts ``mauseloch serve`` (uvicorn) in a subprocess on 127.0.0.1 with a temporary SQLite
database (``--db`` for another), opens tables of four human seats, and plays every seat from a
client that picks a random legal move from its own view as soon as it may move: bot speed
without the bots' pause (``--think-ms 600`` adds about their pause; a client never sends more
than 15 moves a second, below the server's rate limit). When a game ends its table starts a new
one, until ``--warmup`` plus ``--duration`` seconds are up; only moves sent after the warm-up
count.

Reported per run: ``conn`` the most WebSockets open at once, move round trip (a client sends a
move until its own update arrives) p50/p90/p99/max, moves per second, games finished, errors
(error frames and failed requests or connections) and the CPU share of server and client (both
on this machine, so a busy client slows the server's figures too).

    .venv/bin/python bench/server.py --seats 200 1000 --duration 20
    .venv/bin/python bench/server.py --seats 200 1000 --duration 20 --think-ms 600
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec
from websockets.asyncio.client import connect

SEATS_PER_TABLE = 4
MAX_PER_SECOND = 15  # moves a client sends per second at most (the server refuses more than 20)
decode = msgspec.json.decode
encode = msgspec.json.encode


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, moves answered within the window
    done_at: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0
    open_now: int = 0
    max_open: int = 0  # WebSockets open at once


@dataclass
class Run:
    base: str
    measure_from: float  # moves sent before this (the warm-up: connecting every seat) are not counted
    deadline: float
    think: float
    rng: random.Random
    stats: Stats = field(default_factory=Stats)
    stopping: bool = False


# Every client of this benchmark comes from 127.0.0.1: the caps a public server puts on one
# address (server/limits.py; bench/abuse.py measures them) are off here.
NO_CAPS = ("--max-sockets-per-address", "0", "--max-sockets", "0", "--tables-per-minute", "0",
           "--open-tables-per-address", "0", "--requests-per-second", "0")  # fmt: skip


def start_server(
    db: str, profile: str | None = None, extra: tuple[str, ...] = NO_CAPS
) -> tuple[subprocess.Popen[str], int]:
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    entry = os.environ.get("BENCH_SERVER_ENTRY")  # e.g. a wrapper script that instruments the server
    target = [entry] if entry else ["-m", "mauseloch.cli"]
    cmd = [sys.executable, *profiler, *target, "serve", "--port", "0", "--db", db, *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://[^:]+:(\d+)/", line)
    if match is None:
        proc.kill()
        raise SystemExit(f"server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    return proc, int(match.group(1))


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play_seat(run: Run, table: str, seat: int, token: str) -> None:
    stats = run.stats
    url = f"ws://{run.base}/ws/{table}"
    async with connect(url, proxy=None, max_size=1 << 22, open_timeout=60) as ws:
        stats.open_now += 1
        stats.max_open = max(stats.max_open, stats.open_now)
        try:
            await seat_moves(run, ws, seat, token)
        finally:
            stats.open_now -= 1


async def seat_moves(run: Run, ws: Any, seat: int, token: str) -> None:
    stats = run.stats
    recent: deque[float] = deque()  # when this seat sent its last messages: stay under the rate limit
    await ws.send(encode({"type": "hello", "token": token, "seat": seat, "last_seq": 0}))
    sent_at: float | None = None
    sent_version = -1
    async for raw in ws:
        msg: dict[str, Any] = decode(raw)
        kind = msg["type"]
        if kind == "error":
            stats.errors[msg["code"]] += 1
            sent_at = None
            await ws.send(b'{"type": "resync"}')
            continue
        if kind not in ("snapshot", "update"):
            continue
        now = time.perf_counter()
        if sent_at is not None and msg["version"] > sent_version:
            if sent_at >= run.measure_from and now <= run.deadline:
                stats.latencies.append(now - sent_at)
                stats.done_at.append(now)
            sent_at = None
        view = msg["view"]
        if view["is_over"]:
            return
        if run.stopping:
            if sent_at is None:
                return
            continue
        legal = view.get("legal_moves")
        if legal and sent_at is None:
            if run.think:
                await asyncio.sleep(run.think * (0.5 + run.rng.random()))
            t = time.perf_counter()
            while recent and t - recent[0] >= 1.0:
                recent.popleft()
            if len(recent) >= MAX_PER_SECOND:
                await asyncio.sleep(recent[0] + 1.0 - t)
            sent_version = msg["version"]
            sent_at = time.perf_counter()
            recent.append(sent_at)
            await ws.send(encode({"type": "move", "move": run.rng.choice(legal), "version": sent_version}))


async def run_table(run: Run, http: httpx.AsyncClient) -> None:
    while not run.stopping:
        try:
            created = (
                await http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 4, "name": "A"})
            ).json()
            creds = [(0, created["token"])]
            invite = {"invite": created["invite_secret"]}  # a private table: joined through its invite
            for name in ("B", "C", "D"):
                joined = (
                    await http.post(f"/api/tables/{created['table']}/join", json={"name": name, **invite})
                ).json()
                creds.append((joined["seat"], joined["token"]))
            await asyncio.gather(*(play_seat(run, created["table"], s, t) for s, t in creds))
            run.stats.games += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            run.stats.errors[f"{type(exc).__name__}: {exc!r}"[:100]] += 1
            await asyncio.sleep(0.5)


async def drive(
    port: int, seats: int, duration: float, warmup: float, think: float, seed: int
) -> tuple[Stats, float, float]:
    tables = max(1, seats // SEATS_PER_TABLE)
    start = time.perf_counter()
    run = Run(
        base=f"127.0.0.1:{port}",
        measure_from=start + warmup,
        deadline=start + warmup + duration,
        think=think,
        rng=random.Random(seed),
    )
    # idle connections expire well before uvicorn's 5 s keep-alive ends: no request meets a closing socket
    limits = httpx.Limits(max_connections=100, keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=f"http://{run.base}", trust_env=False, limits=limits, timeout=60) as http:
        tasks = [asyncio.create_task(run_table(run, http)) for _ in range(tables)]
        await asyncio.sleep(max(0.0, run.deadline - time.perf_counter()))
        run.stopping = True  # moves in flight finish, then every seat leaves
        _, pending = await asyncio.wait(tasks, timeout=10)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    return run.stats, run.measure_from, run.deadline


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(
    seats: int,
    duration: float,
    warmup: float,
    think_ms: float,
    seed: int,
    profile: str | None = None,
    db: str | None = None,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(db or f"sqlite:///{Path(tmp) / 'bench.db'}", profile)
        try:
            gc.collect()
            gc.freeze()
            gc.disable()  # the client's own collector pauses would count as server latency
            cpu0, t0, own0 = cpu_seconds(proc.pid), time.perf_counter(), time.process_time()
            stats, window_start, window_end = asyncio.run(drive(port, seats, duration, warmup, think_ms / 1000, seed))
            cpu1, t1, own1 = cpu_seconds(proc.pid), time.perf_counter(), time.process_time()
            alive = proc.poll() is None
            gc.enable()
            gc.unfreeze()
        finally:
            proc.send_signal(signal.SIGINT)  # graceful: uvicorn closes the sockets, the profile is written
            try:
                _, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
    window = max(1e-9, window_end - window_start)
    lat = [x * 1000 for x in stats.latencies]
    if os.environ.get("BENCH_SERVER_ENTRY"):
        print(err, file=sys.stderr)
    return {
        "seats": seats,
        "tables": max(1, seats // SEATS_PER_TABLE),
        "think_ms": think_ms,
        "connected": stats.max_open,
        "moves": len(lat),
        "moves_per_s": len(lat) / window,
        "p50_ms": percentile(lat, 0.50),
        "p90_ms": percentile(lat, 0.90),
        "p99_ms": percentile(lat, 0.99),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "max_ms": max(lat) if lat else float("nan"),
        "games": stats.games,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "server_cpu": None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / (t1 - t0),
        "client_cpu": (own1 - own0) / (t1 - t0),
        "server_alive": alive,
        "server_log": [line for line in err.splitlines() if line.strip()][-5:],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[200], help="client seats (4 per table); several runs")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds each run is measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before a client moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="database URL for the server (default: a temporary SQLite file)")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, writing FILE")
    args = parser.parse_args()
    columns = [  # heading, width, value
        ("seats", 6, lambda r: str(r["seats"])),
        ("think", 6, lambda r: f"{r['think_ms']:.0f}"),
        ("conn", 5, lambda r: str(r["connected"])),
        ("moves", 7, lambda r: str(r["moves"])),
        ("moves/s", 8, lambda r: f"{r['moves_per_s']:.0f}"),
        ("p50 ms", 7, lambda r: f"{r['p50_ms']:.1f}"),
        ("p90 ms", 7, lambda r: f"{r['p90_ms']:.1f}"),
        ("p99 ms", 7, lambda r: f"{r['p99_ms']:.1f}"),
        ("max ms", 7, lambda r: f"{r['max_ms']:.0f}"),
        ("games", 6, lambda r: str(r["games"])),
        ("errors", 6, lambda r: str(r["errors"])),
        ("srv cpu", 7, lambda r: "-" if r["server_cpu"] is None else f"{r['server_cpu'] * 100:.0f}%"),
        ("cli cpu", 7, lambda r: f"{r['client_cpu'] * 100:.0f}%"),
    ]
    print(" ".join(f"{h:>{w}}" for h, w, _ in columns))
    for seats in args.seats:
        r = bench(seats, args.duration, args.warmup, args.think_ms, args.seed, args.profile, args.db)
        print(" ".join(f"{f(r):>{w}}" for _, w, f in columns), flush=True)
        if r["error_kinds"]:
            print(f"       errors: {r['error_kinds']}")
        if not r["server_alive"]:
            print("       the server died:", *r["server_log"], sep="\n       ")


if __name__ == "__main__":
    main()
