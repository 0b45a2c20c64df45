"""Failover for one address: a household or a school behind one router, its owner process killed.

Starts two ``mauseloch serve --redis`` processes on one PostgreSQL and Redis (the caps at their
defaults: 32 sockets an address), creates ``--tables`` two-seat Mau-Mau tables on the first (so
it owns them), and opens every seat from 127.0.0.1: seat 1 on the first process, seat 2 on the
second, and one spectator on the first (12 tables: 25 sockets). A few moves are played, then the
first process is killed with SIGKILL. Every client reconnects as the page does (conn.js: 0.5 s,
1 s, 2 s, ... with jitter; after 4429 at least 10 s) to the survivor.

Reported: per table the seconds from the kill until a move of it is acknowledged again
(``resumed_s``: sorted), the slowest (``max_resume_s``), and the refusals the reconnects met
(``refused_4429``, ``refused_403``).

    PG=$(sh scripts/start-postgres.sh); RD=$(PYTHON=.venv/bin/python sh scripts/start-redis.sh)
    .venv/bin/python bench/failover_one_address.py --db "$PG" --redis "$RD" --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import server as real  # bench/server.py: a PostgreSQL schema and a Redis database of the run's own
from _report import print_json, text_to_stderr


class Proc:
    def __init__(self, db: str, redis_url: str) -> None:
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", db, "--redis", redis_url]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", self.proc.stdout.readline())
        assert match, "the server did not start"
        self.address = f"127.0.0.1:{match.group(1)}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://{self.address}/readyz", trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.1)


class Client:
    """One socket as the page keeps it: reconnects with the page's backoff, counts refusals."""

    def __init__(self, stats: dict[str, int], table: str, seat: int | None, token: str | None) -> None:
        self.stats, self.table, self.seat, self.token = stats, table, seat, token
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.ready = False  # the current connection got its snapshot

    async def run(self, addresses: list[str]) -> None:
        attempt = 0
        while True:
            address = addresses[0]  # the survivor once the first is gone (a proxy would do this)
            code = None
            try:
                async with connect(f"ws://{address}/ws/{self.table}", proxy=None, open_timeout=30) as ws:
                    self.ws = ws
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "seat": self.seat, "last_seq": 0}))
                    async for raw in ws:
                        frame = json.loads(raw)
                        if frame["type"] in ("snapshot", "update"):
                            attempt = 0
                            self.ready = True
                            if frame["version"] >= self.state.get("version", -1):
                                self.state = frame
                                self.changed.set()
            except InvalidStatus:
                self.stats["refused_403"] += 1
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            except OSError:
                pass
            self.ws = None
            self.ready = False
            if code == 4429:
                self.stats["refused_4429"] += 1
            base = max(10.0 if code == 4429 else 0.0, min(8.0, 0.5 * 2**attempt))
            attempt += 1
            await asyncio.sleep(base * random.uniform(0.8, 1.2))

    async def until(self, check: Any) -> None:
        while not check(self.state):
            self.changed.clear()
            await self.changed.wait()


async def move_once(seats: list[Client]) -> float:
    """Once every seat is connected again, one move at the table: the moment its update arrives."""
    while True:
        if not all(s.ready for s in seats):
            await asyncio.sleep(0.02)
            continue
        for s in seats:
            view = s.state.get("view") or {}
            legal = view.get("legal_moves") or []
            if s.ws is not None and legal and not view.get("is_over"):
                version = s.state["version"]
                try:
                    await s.ws.send(json.dumps({"type": "move", "move": legal[0], "version": version}))
                except ConnectionClosed:
                    continue
                try:
                    await asyncio.wait_for(s.until(lambda st, v=version: st.get("version", -1) > v), 1.0)
                    return time.monotonic()
                except TimeoutError:
                    continue
        await asyncio.sleep(0.05)


async def main_async(args: argparse.Namespace, db: str, redis_url: str) -> dict[str, Any]:
    one, two = Proc(db, redis_url), Proc(db, redis_url)
    stats = {"refused_4429": 0, "refused_403": 0}
    tables: list[list[Client]] = []
    addresses_one = [one.address]
    addresses_two = [two.address]
    tasks = []
    async with httpx.AsyncClient(trust_env=False, timeout=30) as http:
        for _ in range(args.tables):
            body = {"game": "mau-mau", "seats": [{"kind": "human"}] * 2, "name": "Anna", "public": True}
            made = (await http.post(f"http://{one.address}/api/tables", json=body)).json()
            joined = (
                await http.post(f"http://{one.address}/api/tables/{made['table']}/join", json={"name": "Ben"})
            ).json()
            seats = [Client(stats, made["table"], 0, made["token"]), Client(stats, made["table"], 1, joined["token"])]
            tasks.append(asyncio.create_task(seats[0].run(addresses_one)))
            tasks.append(asyncio.create_task(seats[1].run(addresses_two)))
            tables.append(seats)
        watcher = Client(stats, tables[0][0].table, None, None)
        tasks.append(asyncio.create_task(watcher.run(addresses_one)))
        for seats in tables:
            for s in seats:
                await s.until(lambda st: "version" in st)
            for _ in range(args.moves):
                await move_once(seats)
        killed = time.monotonic()
        one.proc.send_signal(signal.SIGKILL)
        one.proc.wait()
        addresses_one[0] = two.address  # the proxy sends everything to the survivor now
        resumed = await asyncio.gather(*(move_once(seats) for seats in tables))
    for t in tasks:
        t.cancel()
    two.proc.terminate()
    two.proc.wait()
    times = sorted(round(t - killed, 2) for t in resumed)
    return {
        "tables": args.tables,
        "sockets": 2 * args.tables + 1,
        "resumed_s": times,
        "max_resume_s": times[-1],
        **stats,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, help="PostgreSQL URL (scripts/start-postgres.sh)")
    parser.add_argument("--redis", required=True, help="Redis URL (scripts/start-redis.sh)")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--moves", type=int, default=3, help="moves per table before the kill")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    random.seed(args.seed)
    # A schema and a Redis database of its own: a shared one holds the unfinished tables of earlier
    # or concurrent runs and tests, which these servers would take over and play (or lose to a flush).
    db, schema = real.fresh_schema(args.db)
    redis_url = real.fresh_redis_db(args.redis)
    try:
        result = asyncio.run(main_async(args, db, redis_url))
    finally:
        real.drop_redis_db(redis_url)
        real.drop_schema(args.db, schema)
    if args.json:
        print_json(result, out)
    else:
        print("\n".join(f"{k}: {v}" for k, v in result.items()))


if __name__ == "__main__":
    main()
