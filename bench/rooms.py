"""Family rooms under load: ``--rooms`` rooms of ``--members`` members each on one ``serve``
process, every room at a Mau-Mau table of its members, every member's WebSocket open; then each
room sends quick reactions (emotes) from its seats in turn for ``--seconds``.

Figures: ``reaction_p99_ms`` (and p50): from an emote's sending to its arrival at the last of the
room's other seats; ``server_cpu_us_per_reaction``: the server process's CPU time over the
emote phase per emote, its idle CPU over as long a quiet phase subtracted. The baseline in the
same run is a ping answered by the same server over the same sockets (``server_cpu_us_per_ping``,
``ping_p99_ms``): an emote is a ping fanned out to the whole table.

    python bench/rooms.py --json            # 500 rooms of 4 members
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import print_json, text_to_stderr
from server import NO_CAPS, cpu_seconds, start_server, wait_ready

NAMES = ("Papa", "Mama", "Oma", "Kind", "Opa", "Tante")


async def answer(response: httpx.Response) -> Any:
    if response.status_code != 200:
        raise SystemExit(
            f"{response.request.method} {response.request.url.path}: {response.status_code} {response.text[:300]}"
        )
    return response.json()


async def setup_room(client: httpx.AsyncClient, members: int, i: int) -> tuple[str, list[tuple[int, str]]]:
    """A room, its members, a table of all of them; each member's (seat, seat token)."""
    made = (await client.post("/api/rooms", json={"name": f"Room {i}", "member": {"name": NAMES[0]}})).json()
    room, tokens = made["room"], [made["token"]]
    for m in range(1, members):
        joined = await client.post(f"/api/rooms/{room}/join", json={"key": made["key"], "name": NAMES[m % len(NAMES)]})
        tokens.append(joined.json()["token"])
    ids = [
        m["id"] for m in (await client.get(f"/api/rooms/{room}", headers={"x-room-token": tokens[0]})).json()["members"]
    ]
    plan = {"game": "mau-mau", "seats": [{"member": m} for m in ids]}
    started = (await client.post(f"/api/rooms/{room}/tables", json=plan, headers={"x-room-token": tokens[0]})).json()
    table = started["table"]
    seats = [(started["seat"], started["token"])]
    for token in tokens[1:]:
        taken = await answer(
            await client.post(f"/api/rooms/{room}/tables/{table}/join", json={}, headers={"x-room-token": token})
        )
        seats.append((taken["seat"], taken["token"]))
    return table, seats


GUARD = 60.0  # seconds: only so that a broken server ends the run instead of hanging it


async def until(done: Callable[[], bool]) -> float:
    """Wait until ``done()`` (checked every 10 ms, at most :data:`GUARD` s); the seconds waited."""
    start = time.perf_counter()
    while not done() and time.perf_counter() - start < GUARD:
        await asyncio.sleep(0.01)
    return time.perf_counter() - start


class Seat:
    """One member's socket: when each emote arrived (by sender seat, in order) and each pong."""

    def __init__(self, table: str, seat: int, ws: Any) -> None:
        self.table, self.seat, self.ws = table, seat, ws
        self.events: list[tuple[int, float]] = []
        self.pongs: list[float] = []

    async def read(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            if raw.startswith('{"type":"emote"'):
                self.events.append((json.loads(raw)["seat"], now))
            elif raw.startswith('{"type":"pong"'):
                self.pongs.append(now)


async def connect(base: str, table: str, seat: int, token: str) -> Seat:
    ws = await websockets.connect(base.replace("http", "ws") + f"/ws/{table}", max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "seat": seat, "token": token}))
    await ws.recv()  # the snapshot
    return Seat(table, seat, ws)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    out = sys.stderr
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(f"sqlite:///{tmp}/rooms.db", extra=(*NO_CAPS, "--rooms-per-hour", "0"))
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready([f"127.0.0.1:{port}"])
            limits = httpx.Limits(max_connections=32)
            # the members say who they are by header: no cookie is kept (2,000 of them made one head too large)
            jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
            async with httpx.AsyncClient(
                base_url=base, limits=limits, timeout=60, trust_env=False, cookies=jar
            ) as client:
                sem = asyncio.Semaphore(16)

                async def one(i: int) -> tuple[str, list[tuple[int, str]]]:
                    async with sem:
                        return await setup_room(client, args.members, i)

                rooms = await asyncio.gather(*(one(i) for i in range(args.rooms)))
            print(f"{args.rooms} rooms of {args.members} members at their tables", file=out)
            tables: list[list[Seat]] = []
            for table, seats in rooms:
                tables.append([await connect(base, table, seat, token) for seat, token in seats])
            sockets = [s for t in tables for s in t]
            readers = [asyncio.create_task(s.read()) for s in sockets]
            print(f"{len(sockets)} sockets open", file=out)
            await asyncio.sleep(1.0)

            # idle: the server's CPU with every socket open and nothing sent
            idle0 = cpu_seconds(proc.pid) or 0.0
            await asyncio.sleep(args.seconds)
            idle = (cpu_seconds(proc.pid) or 0.0) - idle0

            # emotes: each room one emote per interval, its seats in turn (within the seat's rate)
            rng = random.Random(1)
            sent: list[tuple[list[Seat], int, float]] = []
            interval = args.interval
            cpu0 = cpu_seconds(proc.pid) or 0.0
            stop = time.perf_counter() + args.seconds
            turn = 0
            while time.perf_counter() < stop:
                tick = time.perf_counter()
                for t in tables:
                    sender = t[turn % len(t)]
                    sent.append((t, sender.seat, time.perf_counter()))
                    await sender.ws.send(json.dumps({"type": "emote", "emote": rng.choice(("clap", "mau", "wow"))}))
                turn += 1
                await asyncio.sleep(max(0.0, interval - (time.perf_counter() - tick)))
            # every emote at every other seat of its room (a guard only against a broken server)
            expected = len(sent) * (args.members - 1)
            waited = await until(lambda: sum(len(s.events) for s in sockets) >= expected)
            cpu = (cpu_seconds(proc.pid) or 0.0) - cpu0 - idle * (args.seconds + waited) / args.seconds
            latencies = []
            lost = 0
            cursor: dict[int, int] = {}
            for t, seat, at in sent:
                last = 0.0
                for s in t:
                    if s.seat == seat:
                        continue
                    k = cursor.get(id(s), 0)
                    while k < len(s.events) and s.events[k][0] != seat:
                        k += 1
                    if k == len(s.events):
                        lost += 1
                        continue
                    last = max(last, s.events[k][1] - at)
                    cursor[id(s)] = k + 1
                latencies.append(last * 1000)

            # baseline: a ping from one seat of each room, answered to that seat alone
            pings = 0
            cpu1 = cpu_seconds(proc.pid) or 0.0
            stop = time.perf_counter() + args.seconds
            starts: list[tuple[Seat, int, float]] = []  # who pinged, its pongs before, when
            sent_pings: dict[int, int] = {}
            while time.perf_counter() < stop:
                tick = time.perf_counter()
                for t in tables:
                    s = t[turn % len(t)]
                    before = sent_pings.get(id(s), 0)
                    sent_pings[id(s)] = before + 1
                    starts.append((s, before, time.perf_counter()))
                    await s.ws.send('{"type":"ping"}')
                    pings += 1
                turn += 1
                await asyncio.sleep(max(0.0, interval - (time.perf_counter() - tick)))
            waited = await until(lambda: sum(len(s.pongs) for s in sockets) >= pings)
            ping_lat = [(s.pongs[k] - at) * 1000 for s, k, at in starts if k < len(s.pongs)]
            ping_cpu = (cpu_seconds(proc.pid) or 0.0) - cpu1 - idle * (args.seconds + waited) / args.seconds
            for r in readers:
                r.cancel()
            for s in sockets:
                await s.ws.close()
        finally:
            proc.terminate()
            proc.wait(20)
    latencies.sort()
    ping_lat.sort()

    def pct(xs: list[float], q: float) -> float:
        return round(xs[min(len(xs) - 1, int(q * len(xs)))], 2) if xs else float("nan")

    emotes = len(sent)
    figures = {
        "rooms": args.rooms,
        "members": args.members,
        "reactions": emotes,
        "reactions_lost": lost,
        "reaction_p50_ms": pct(latencies, 0.5),
        "reaction_p99_ms": pct(latencies, 0.99),
        "server_cpu_us_per_reaction": round(max(cpu, 0.0) / max(emotes, 1) * 1e6, 1),
        "pings": pings,
        "ping_p99_ms": pct(ping_lat, 0.99),
        "server_cpu_us_per_ping": round(max(ping_cpu, 0.0) / max(pings, 1) * 1e6, 1),
        "server_idle_cpu_percent": round(idle / args.seconds * 100, 1),
    }
    figures["reaction_vs_ping_cpu"] = round(
        figures["server_cpu_us_per_reaction"] / max(figures["server_cpu_us_per_ping"], 0.1), 2
    )
    print(f"emotes: {emotes} sent, p50 {figures['reaction_p50_ms']} ms, p99 {figures['reaction_p99_ms']} ms, "
          f"{figures['server_cpu_us_per_reaction']} µs server CPU each",
          file=out)  # fmt: skip
    print(f"pings: p99 {figures['ping_p99_ms']} ms, {figures['server_cpu_us_per_ping']} µs each", file=out)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--members", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase (idle, emotes, pings)")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between two emotes of a room")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)
    figures = asyncio.run(run(args))
    print_json(figures, out)


if __name__ == "__main__":
    main()
