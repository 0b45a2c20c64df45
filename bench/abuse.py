"""An attack on a public server while honest people play: do the limits hold?

Starts ``mauseloch serve`` with its default limits on 127.0.0.1 and a temporary SQLite file.
Honest players: ``--seats`` seats (4 per table), each table created and played from its own
address 127.0.0.2, 127.0.0.3, ... (Linux routes all of 127/8 to this machine); a seat moves
after a pause of about ``--think-ms`` (people are not bots) and measures each move's round trip
(send until its own update arrives). After ``--warmup`` seconds one attacker address, 127.0.0.1,
in a process of its own, opens ``--idle`` WebSockets that never say hello, and creates tables as
fast as it can; 15 s after its last socket was opened it counts how many of them the server
still keeps open.

Then two attacks on the HTTP layer from the same address, each in a process of its own while the
honest seats play on: **slowloris**, ``--slowloris`` connections that each send ``GET /
HTTP/1.1\r\nHost: x\r\n`` and never the blank line (a header line more every 5 s, as slowloris
keeps a head alive), counted 15 s after the last was opened; and **big heads**, ``--big-heads``
connections that each send ``X-Big:`` and up to 4 MB more of it, unfinished, with the server's
memory (RSS) before and after.

Last, **a restart**: ``--restart-tables`` two-seat tables (50) are put in play (8 moves each),
then the server is killed with SIGKILL and started again on its port and database,
``--restarts`` times (3). ``restart_s``: from the new process's start until a seat's hello gets
its snapshot (``/readyz`` answered first; the median of the restarts), with the CPU seconds the
new process had used by then (``restart_cpu_s``: less bound to the machine's load, given as
``restart_load_average``). ``--restart-only`` measures only this; ``--against REV`` makes every
restart with git revision REV's server too, in turn on the same tables (``restart_against``,
``restart_s_ratio``: this tree's over REV's).

Printed: the honest round trip p50/p99 during the attack (and before it, as the baseline from
the same run), honest errors (error frames, refused or failed requests and connections), whether
the server is up afterwards (a new table is created and joined from a fresh address), idle
sockets left after 15 s and the tables the attacker got created; for slowloris and big heads the
honest p99 during each, the attacker's connections still open after 15 s, the most head bytes
one connection got sent before the server answered 431 or closed it, and the server's RSS.
Goals: honest p99 < 100 ms (under every attack), 0 honest errors, server up, 0 idle sockets left,
attacker tables capped, at most the per-address cap of unfinished heads open after 15 s, no
connection sending 1 MB of head, the server's RSS grown by less than 100 MB, a restart under 2 s
with every table in play back.

    .venv/bin/python bench/abuse.py --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.protocol import State

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import print_json, text_to_stderr
from server import Run, checkout, cpu_seconds, percentile, seat_moves, start_server  # bench/server.py's client

ATTACKER = "127.0.0.1"
HEADS_CAP = 32  # serve's default --max-heads-per-address
SEATS_PER_TABLE = 4
LEFT_AFTER = 15.0  # seconds after the last idle socket was opened
BASELINE_MOVES = 300  # honest moves measured before the attack starts (the same run's baseline)


def raise_file_limit() -> int:
    """As many open files as the hard limit allows (10,000 sockets need 10,000 files)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def honest_address(i: int) -> str:
    return f"127.0.{2 + i // 250}.{2 + i % 250}"


# -- the attacker (its own process, so its work does not delay the honest clients' clock) ----------
async def attack(port: int, idle: int, out: Any) -> None:
    base = f"127.0.0.1:{port}"
    sockets: list[Any] = []
    refused = Counter[str]()
    stop = asyncio.Event()
    created = 0

    async def open_one(gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                ws = await connect(f"ws://{base}/ws/{target}", proxy=None, open_timeout=30, close_timeout=1)
                sockets.append(ws)
            except Exception as exc:
                refused[type(exc).__name__] += 1

    async def flood_tables(http: httpx.AsyncClient) -> None:
        nonlocal created
        body = {"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Mallory"}
        while not stop.is_set():
            try:
                res = await http.post("/api/tables", json=body)
                if res.status_code == 200:
                    created += 1
                else:
                    refused[f"http {res.status_code}"] += 1
            except httpx.HTTPError as exc:
                refused[type(exc).__name__] += 1
                await asyncio.sleep(0.01)

    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER, limits=httpx.Limits(max_connections=8))
    async with httpx.AsyncClient(base_url=f"http://{base}", transport=transport, timeout=30, trust_env=False) as http:
        body = {"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Mallory"}
        target = (await http.post("/api/tables", json=body)).json()["table"]  # a real table to sit idle at
        created += 1
        flooders = [asyncio.create_task(flood_tables(http)) for _ in range(4)]
        gate = asyncio.Semaphore(200)
        started = time.perf_counter()
        await asyncio.gather(*(open_one(gate) for _ in range(idle)))
        opened_in = time.perf_counter() - started
        print(f"attacker: {len(sockets)} sockets opened in {opened_in:.0f} s", file=sys.stderr, flush=True)
        await asyncio.sleep(LEFT_AFTER)
        left = sum(1 for ws in sockets if ws.state is State.OPEN)
        stop.set()
        await asyncio.gather(*flooders)
    for ws in sockets:
        ws.transport.abort()
    out.send(
        {
            "idle_sockets_opened": len(sockets),
            "idle_sockets_left_after_15s": left,
            "idle_open_seconds": round(opened_in, 1),
            "tables_created_by_attacker": created,
            "attacker_refused": dict(refused),
        }
    )


def attacker_process(port: int, idle: int, out: Any) -> None:
    raise_file_limit()
    asyncio.run(attack(port, idle, out))


PARTIAL_HEAD = b"GET / HTTP/1.1\r\nHost: x\r\n"  # never the blank line that ends it
TRICKLE_EVERY = 5.0  # seconds between two header lines a slowloris connection sends
BIG_HEAD_MAX = 4 << 20  # bytes of one header a big-head connection tries to send
SEND_BUFFER = 16 << 10  # a big-head connection's socket send buffer (the kernel doubles it)


async def slowloris(port: int, count: int, out: Any) -> None:
    """``count`` connections that never finish their head; how many the server still keeps 15 s
    after the last was opened."""
    opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    failed = Counter[str]()
    gate = asyncio.Semaphore(200)

    async def open_one() -> None:
        async with gate:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
                writer.write(PARTIAL_HEAD)
                await writer.drain()
                opened.append((reader, writer))
            except OSError as exc:
                failed[type(exc).__name__] += 1

    async def trickle(stop: asyncio.Event) -> None:
        while not stop.is_set():
            await asyncio.sleep(TRICKLE_EVERY)
            for _, writer in opened:
                if not writer.is_closing():
                    with contextlib.suppress(OSError):
                        writer.write(b"X-a: b\r\n")

    started = time.perf_counter()
    stop = asyncio.Event()
    trickling = asyncio.create_task(trickle(stop))
    await asyncio.gather(*(open_one() for _ in range(count)))
    opened_in = time.perf_counter() - started
    await asyncio.sleep(LEFT_AFTER)
    stop.set()
    trickling.cancel()
    left = 0
    for reader, writer in opened:
        try:  # still open: nothing to read yet (a closed one reads its end at once)
            await asyncio.wait_for(reader.read(1), 0.001)
        except TimeoutError:
            left += 1
        except OSError:
            pass
        writer.transport.abort()
    out.send(
        {
            "slowloris_connections": count,
            "slowloris_opened": len(opened),
            "slowloris_open_seconds": round(opened_in, 1),
            "slowloris_left_after_15s": left,
            "slowloris_refused": dict(failed),
        }
    )


async def big_heads(port: int, count: int, out: Any) -> None:
    """``count`` connections each sending one header of up to :data:`BIG_HEAD_MAX` bytes, never
    finished: how much each got sent before the server answered or closed it."""
    sent: list[int] = []
    answers = Counter[str]()

    async def one() -> None:
        n = 0
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
        except OSError as exc:
            answers[type(exc).__name__] += 1
            return
        # a small send buffer: a write then waits until the server's side takes the bytes, so the
        # count is what reached the server, not what this side's kernel buffered (autotuned up to
        # 4 MB: all of it "sent" whenever the server was off the CPU for a few ms)
        writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        writer.transport.set_write_buffer_limits(high=0)  # and none kept in this process either
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
            chunk = b"a" * 8192
            while n < BIG_HEAD_MAX:
                writer.write(chunk)
                await asyncio.wait_for(writer.drain(), LEFT_AFTER)  # a server that never reads: no answer
                n += len(chunk)
                if reader.at_eof() or reader._buffer:  # type: ignore[attr-defined]  # answered already
                    break
            got = await asyncio.wait_for(reader.read(64), LEFT_AFTER)
            answers["431" if got.startswith(b"HTTP/1.1 431") else ("closed" if not got else "other")] += 1
        except TimeoutError:
            answers["no answer"] += 1
        except OSError:
            answers["closed"] += 1
        finally:
            sent.append(n)
            writer.transport.abort()

    await asyncio.gather(*(one() for _ in range(count)))
    out.send(
        {
            "big_head_connections": count,
            "big_head_answers": dict(answers),
            "big_head_bytes_sent_max": max(sent, default=0),
        }
    )


def http_attacker_process(kind: str, port: int, count: int, out: Any) -> None:
    raise_file_limit()
    asyncio.run((slowloris if kind == "slowloris" else big_heads)(port, count, out))


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (Linux), MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


# -- the honest players ------------------------------------------------------------------
async def honest_table(run: Run, address: str, errors: Counter[str]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(
        base_url=f"http://{run.bases[0]}", transport=transport, timeout=30, trust_env=False
    ) as http:
        while not run.stopping:
            try:
                body = {"game": "mau-mau", "seats": [{"kind": "human"}] * SEATS_PER_TABLE, "name": "A"}
                res = await http.post("/api/tables", json=body)
                if res.status_code != 200:
                    errors[f"create {res.status_code} {res.text[:60]}"] += 1
                    await asyncio.sleep(1)
                    continue
                created = res.json()
                creds = [(0, created["token"])]
                for name in ("B", "C", "D"):
                    join = {"name": name, "invite": created["invite_secret"]}
                    joined = await http.post(f"/api/tables/{created['table']}/join", json=join)
                    if joined.status_code != 200:
                        errors[f"join {joined.status_code}"] += 1
                        break
                    creds.append((joined.json()["seat"], joined.json()["token"]))
                else:
                    await asyncio.gather(*(honest_seat(run, address, created["table"], s, t) for s, t in creds))
                    run.stats.games += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                errors[f"{type(exc).__name__}: {exc}"[:80]] += 1
                await asyncio.sleep(0.5)


async def honest_seat(run: Run, address: str, table: str, seat: int, token: str) -> None:
    url = f"ws://{run.bases[0]}/ws/{table}"
    sent: dict[int, list[str]] = {}  # the moves this seat sent at each version (bench/server.py's tally)
    async with connect(url, proxy=None, max_size=1 << 22, open_timeout=60, local_addr=(address, 0)) as ws:
        await seat_moves(run, ws, table, seat, token, sent)


async def attacked(run: Run, target: Any, args: tuple[Any, ...]) -> tuple[dict[str, Any], list[float]]:
    """Run ``target(*args, pipe)`` in a process of its own; what it reports and the honest round
    trips (ms) measured meanwhile."""
    mark = len(run.stats.latencies)
    receive, send = multiprocessing.Pipe(duplex=False)
    attacker = multiprocessing.Process(target=target, args=(*args, send), daemon=True)
    attacker.start()
    result: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(None, receive.recv)
    attacker.join(10)
    return result, [x * 1000 for x in run.stats.latencies[mark:]]


async def drive(
    port: int,
    seats: int,
    warmup: float,
    think: float,
    idle: int,
    seed: int,
    baseline_moves: int = BASELINE_MOVES,
    slow: int = 0,
    big: int = 0,
    server_pid: int | None = None,
) -> dict[str, Any]:
    tables = max(1, seats // SEATS_PER_TABLE)
    start = time.perf_counter()
    run = Run(
        bases=[f"127.0.0.1:{port}"], measure_from=start, deadline=float("inf"), think=think, rng=random.Random(seed)
    )
    errors: Counter[str] = Counter()
    players = [asyncio.create_task(honest_table(run, honest_address(i), errors)) for i in range(tables)]
    await asyncio.sleep(warmup)
    waited = 0.0
    while len(run.stats.latencies) < baseline_moves and waited < 120:  # a baseline before the attack
        await asyncio.sleep(1)
        waited += 1
    baseline = [x * 1000 for x in run.stats.latencies]
    print(f"baseline: {len(baseline)} honest moves before the attack", file=sys.stderr, flush=True)
    result, during = await attacked(run, attacker_process, (port, idle))
    if slow:
        found, meanwhile = await attacked(run, http_attacker_process, ("slowloris", port, slow))
        result |= found | {"slowloris_honest_moves": len(meanwhile)}
        result["slowloris_honest_p99_ms"] = round(percentile(meanwhile, 0.99), 1)
    if big:
        before = rss_mb(server_pid) if server_pid else 0.0
        found, meanwhile = await attacked(run, http_attacker_process, ("big-heads", port, big))
        result |= found | {"big_head_honest_moves": len(meanwhile), "server_rss_mb_before_big_heads": before}
        result["big_head_honest_p99_ms"] = round(percentile(meanwhile, 0.99), 1)
        result["server_rss_mb_after_big_heads"] = rss_mb(server_pid) if server_pid else 0.0
    run.stopping = True
    _, pending = await asyncio.wait(players, timeout=15)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    errors.update({f"error frame {k}": v for k, v in run.stats.errors.items()})
    # the server is up: a new table from a fresh address, joined and seen on a WebSocket
    up = False
    try:
        fresh = honest_address(tables + 1)
        transport = httpx.AsyncHTTPTransport(local_address=fresh)
        async with httpx.AsyncClient(base_url=f"http://{run.bases[0]}", transport=transport, timeout=10) as http:
            body = {"game": "mau-mau", "seats": [{"kind": "human"}] * 2}
            created = (await http.post("/api/tables", json=body)).json()
            join = {"invite": created["invite_secret"]}
            joined = await http.post(f"/api/tables/{created['table']}/join", json=join)
            async with connect(f"ws://{run.bases[0]}/ws/{created['table']}", proxy=None, local_addr=(fresh, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["token"], "seat": 0}))
                answer = json.loads(await asyncio.wait_for(ws.recv(), 10))
                up = joined.status_code == 200 and answer["type"] == "snapshot"
    except Exception as exc:
        errors[f"after the attack: {type(exc).__name__}"] += 1
    return {
        **result,
        "honest_seats": tables * SEATS_PER_TABLE,
        "honest_moves_during_attack": len(during),
        "honest_p50_ms": round(percentile(during, 0.5), 1),
        "honest_p99_ms": round(percentile(during, 0.99), 1),
        "baseline_moves": len(baseline),
        "baseline_p50_ms": round(percentile(baseline, 0.5), 1),
        "baseline_p99_ms": round(percentile(baseline, 0.99), 1),
        "honest_errors": sum(errors.values()),
        "honest_error_kinds": dict(errors),
        "server_up": up,
    }


# -- a restart after SIGKILL ------------------------------------------------------------
RESTART_TABLES = 50  # tables in play when the server is killed
RESTART_MOVES = 8  # moves played at each of them first
RESTART_FROM = 2000  # addresses honest_address(RESTART_FROM + i): none of the honest tables' ones


async def tables_in_play(port: int, count: int, seed: int) -> list[tuple[str, int, str]]:
    """``count`` two-seat Mau-Mau tables in play, each made and joined from an address of its own,
    with :data:`RESTART_MOVES` random moves played (a table whose game ended sooner does not count:
    another is made); the sockets then close (the tables play on with their clocks). A seat of
    each: (table, seat, token)."""
    rng = random.Random(seed)

    async def one(i: int) -> tuple[str, int, str] | None:
        address = honest_address(RESTART_FROM + i)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=30, trust_env=False
        ) as http:
            created = (
                await http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2})
            ).json()
            table = created["table"]
            joined = (await http.post(f"/api/tables/{table}/join", json={"invite": created["invite_secret"]})).json()
        seats = [(0, created["token"]), (joined["seat"], joined["token"])]

        async def play(seat: int, token: str) -> bool:
            """Whether the game is still on after the moves."""
            url = f"ws://127.0.0.1:{port}/ws/{table}"
            async with connect(url, proxy=None, max_size=1 << 22, local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "seat": seat}))
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] not in ("snapshot", "update"):
                        continue
                    if msg["view"].get("is_over"):
                        return False
                    if msg["version"] >= RESTART_MOVES:
                        return True
                    legal = msg["view"].get("legal_moves") or []
                    if legal:
                        move = rng.choice(legal)
                        await ws.send(json.dumps({"type": "move", "move": move, "version": msg["version"]}))
            return False

        on = await asyncio.gather(*(play(s, t) for s, t in seats))
        return (table, *seats[0]) if all(on) else None

    found: list[tuple[str, int, str]] = []
    made = 0
    while len(found) < count:
        wanted = count - len(found)
        found += [t for t in await asyncio.gather(*(one(made + i) for i in range(wanted))) if t is not None]
        made += wanted
    return found


async def back_after_restart(port: int, seat: tuple[str, int, str], started: float) -> tuple[float, float, int]:
    """Seconds from ``started`` until ``/readyz`` answers 200 and until the seat's hello gets its
    snapshot; the tables the server runs by then."""
    address = honest_address(RESTART_FROM - 1)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=60, trust_env=False
    ) as http:
        while True:  # the socket listens from the start: the first answer comes once the app runs
            res = await http.get("/readyz")
            if res.status_code == 200:
                break
            await asyncio.sleep(0.01)
    ready = time.perf_counter() - started
    table, number, token = seat
    async with connect(
        f"ws://127.0.0.1:{port}/ws/{table}", proxy=None, max_size=1 << 22, local_addr=(address, 0)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seat": number}))
        while json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "snapshot":
            pass
    return ready, time.perf_counter() - started, res.json()["tables"]


def measure_restarts(
    proc: subprocess.Popen[str],
    port: int,
    db: str,
    restarts: int,
    count: int,
    seed: int,
    against: tuple[str, str] | None = None,
) -> tuple[subprocess.Popen[str], dict[str, Any], str]:
    """Kill the server ``restarts`` times (SIGKILL, with ``count`` tables in play) and start it
    again on its port and database; how long each took to be ready and to give a seat its snapshot
    (from the new process's start), its CPU seconds by then, and the tables it restored. With
    ``against`` (a revision and its unpacked ``src``) each restart is made by both, in turn (ABBA),
    on the same tables. Returns the running server, the figures and what the killed servers wrote
    to stderr."""
    seats = asyncio.run(tables_in_play(port, count, seed))
    load = os.getloadavg()[0]
    sides: list[tuple[str, str | None]] = [("here", None), *([against] if against else [])]
    found: dict[str, dict[str, list[float]]] = {name: {} for name, _ in sides}
    logs = []
    for i in range(restarts):
        for name, source in sides if i % 2 == 0 else sides[::-1]:
            proc.kill()
            logs.append(proc.communicate()[1])
            started = time.perf_counter()
            proc, _ = start_server(db, extra=(), port=port, source=source)
            printed = time.perf_counter() - started
            ready, back, tables = asyncio.run(back_after_restart(port, seats[i % len(seats)], started))
            cpu = cpu_seconds(proc.pid) or 0.0
            for key, value in (
                ("address", printed),
                ("ready", ready),
                ("back", back),
                ("cpu", cpu),
                ("tables", tables),
            ):
                found[name].setdefault(key, []).append(value)
            print(f"restart {i + 1} ({name}): address printed {printed:.2f} s, ready {ready:.2f} s, "
                  f"snapshot {back:.2f} s, {cpu:.2f} s CPU, {tables} tables", file=sys.stderr, flush=True)  # fmt: skip

    def summary(side: dict[str, list[float]]) -> dict[str, Any]:
        return {
            "restart_s": round(statistics.median(side["back"]), 2),
            "restart_s_each": [round(x, 2) for x in side["back"]],
            "restart_ready_s": round(statistics.median(side["ready"]), 2),
            "restart_address_s": round(statistics.median(side["address"]), 2),
            "restart_cpu_s": round(statistics.median(side["cpu"]), 2),
            "restart_tables": int(min(side["tables"])),
        }

    figures = summary(found["here"]) | {"restart_load_average": round(load, 1)}
    if against is not None:
        old = summary(found[against[0]])
        figures["restart_against"] = {"rev": against[0], **old}
        figures["restart_s_ratio"] = round(figures["restart_s"] / old["restart_s"], 2)
        figures["restart_cpu_s_ratio"] = round(figures["restart_cpu_s"] / max(old["restart_cpu_s"], 0.01), 2)
    return proc, figures, "".join(logs)


def main() -> None:
    global LEFT_AFTER
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=200, help="honest seats (4 per table, one address per table)")
    parser.add_argument("--idle", type=int, default=10_000, help="idle WebSockets the attacker opens")
    parser.add_argument(
        "--slowloris", type=int, default=18_000, help="connections that never finish their head (each a file here)"
    )
    parser.add_argument("--big-heads", type=int, default=150, help="connections sending a 4 MB header, unfinished")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of honest play before the attack")
    parser.add_argument("--think-ms", type=float, default=500.0, help="mean pause before an honest seat moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--left-after", type=float, default=LEFT_AFTER, help="seconds after its last connection an attack counts them"
    )
    parser.add_argument(
        "--baseline-moves", type=int, default=BASELINE_MOVES, help="honest moves measured before the attack starts"
    )
    parser.add_argument("--restarts", type=int, default=3, help="SIGKILLs and restarts at the end (0: none)")
    parser.add_argument(
        "--restart-tables", type=int, default=RESTART_TABLES, help="tables in play when the server is killed"
    )
    parser.add_argument("--restart-only", action="store_true", help="only the restarts: no honest play, no attacks")
    parser.add_argument(
        "--against", metavar="REV", help="each restart also by git revision REV's server, in turn (its src/ unpacked)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    LEFT_AFTER = args.left_after  # the attackers' processes are forked from this one: they see it
    files = raise_file_limit()
    if files < max(args.idle, args.slowloris) + 2 * args.seats + 100:
        raise SystemExit(f"the open-file limit ({files}) is too low for {args.idle} sockets: raise `ulimit -Hn`")
    # the servers run as installed ones do, their modules' bytecode compiled once and kept (pip
    # compiles it), whatever this shell says: a restart otherwise compiles every module again
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    killed = ""  # what the servers killed by the restarts wrote
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'abuse.db'}"
        proc, port = start_server(db, extra=())  # the default limits
        try:
            result: dict[str, Any] = {}
            if not args.restart_only:
                result = asyncio.run(
                    drive(
                        port, args.seats, args.warmup, args.think_ms / 1000, args.idle, args.seed,
                        args.baseline_moves, args.slowloris, args.big_heads, proc.pid,
                    )
                )  # fmt: skip
                result["server_up"] = result["server_up"] and proc.poll() is None
            if args.restarts:
                against = None
                if args.against:
                    (Path(tmp) / "against").mkdir()
                    source = checkout(args.against, Path(tmp) / "against")
                    subprocess.run([sys.executable, "-m", "compileall", "-q", source], check=True)  # as pip does
                    against = (args.against, source)
                proc, restarted, killed = measure_restarts(
                    proc, port, db, args.restarts, args.restart_tables, args.seed, against
                )
                result |= restarted
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                _, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
    refusals = [line for line in (killed + err).splitlines() if "refused" in line]
    result["server_log_refusal_lines"] = len(refusals)
    goals = {}
    if not args.restart_only:
        goals = {
            "honest_p99_ms < 100": result["honest_p99_ms"] < 100,
            "0 honest errors": result["honest_errors"] == 0,
            "server up": result["server_up"],
            "0 idle sockets left": result["idle_sockets_left_after_15s"] == 0,
            "attacker tables capped": result["tables_created_by_attacker"] <= 30,
        }
    if args.restarts:
        goals["restart < 2 s"] = result["restart_s"] < 2
        goals[f"restart: {args.restart_tables} tables restored"] = result["restart_tables"] >= args.restart_tables
    if args.slowloris and not args.restart_only:
        goals["slowloris: honest p99 < 100 ms"] = result["slowloris_honest_p99_ms"] < 100
        goals["slowloris: at most the cap open after 15 s"] = result["slowloris_left_after_15s"] <= HEADS_CAP
    if args.big_heads and not args.restart_only:
        goals["big heads: honest p99 < 100 ms"] = result["big_head_honest_p99_ms"] < 100
        goals["big heads: none sent 1 MB"] = result["big_head_bytes_sent_max"] < 1 << 20
        grown = result["server_rss_mb_after_big_heads"] - result["server_rss_mb_before_big_heads"]
        goals["big heads: RSS grew < 100 MB"] = grown < 100
    result["goals_met"] = all(goals.values())
    for key, value in result.items():
        print(f"{key:>30}: {value}")
    for goal, met in goals.items():
        print(f"{'goal':>30}: {goal}: {'met' if met else 'NOT met'}")
    if args.json:
        print_json(result, out)


if __name__ == "__main__":
    main()
