"""Bot API load: many bots connected at once to one server process, playing Mau-Mau in pairs.

Starts ``mauseloch serve`` on 127.0.0.1 with a temporary SQLite file, makes ``--bots`` bot tokens
in it, and runs every bot in this process (asyncio, httpx): each keeps its event stream open; one
bot of each pair challenges the other to a two-player table without a turn clock, and both play
it through their game streams, a random legal move from their own view as soon as they may move.
When a game ends the pair starts a new one, until ``--warmup`` plus ``--duration`` seconds are
up; only moves sent after the warm-up count.

Reported: ``bots`` connected (event streams open at the end of the warm-up), move round trip (a
bot posts a move until its own game stream delivers the update of it) p50/p99/max in ms, the
POST's answer (``ack``: the move is stored) p50/p99, moves
per second, games finished, errors, and the server's CPU milliseconds per move (from /proc,
over the measured window; the clients run on the same machine). ``--json`` prints the figures
as one JSON line last.

    .venv/bin/python bench/botapi.py --bots 200 --duration 20 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from _report import print_json, text_to_stderr

GUARD = 60.0  # seconds: a server that does not start or a stream that says nothing fails the run


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Figures:
    measuring: bool = False
    rtts: list[float] = field(default_factory=list)  # move posted -> its update on the bot's stream
    acks: list[float] = field(default_factory=list)  # move posted -> the POST answered (stored)
    error_codes: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # moves refused as a race allows (stale, not started)
    limited: int = 0  # moves answered 429 (and sent again after Retry-After)
    moves: int = 0
    games: int = 0
    errors: int = 0
    online: int = 0


class Bot:
    def __init__(self, http: httpx.AsyncClient, name: str, token: str, figures: Figures, rng: random.Random) -> None:
        self.http = http
        self.name = name
        self.headers = {"Authorization": f"Bearer {token}"}
        self.figures = figures
        self.rng = rng
        self.started: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self.online = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def events(self) -> None:
        """The event stream: accept every challenge, play every game that starts."""
        async with self.http.stream("GET", "/api/bot/stream", headers=self.headers, timeout=None) as resp:
            resp.raise_for_status()
            self.online.set()
            async for raw in resp.aiter_lines():
                if not raw.strip():
                    continue
                event = json.loads(raw)
                if event["type"] == "challenge":
                    r = await self.http.post(
                        f"/api/bot/challenge/{event['challenge']['id']}/accept", headers=self.headers, json={}
                    )
                    if r.status_code != 200:
                        self.figures.errors += 1
                elif event["type"] == "game_start":
                    task = asyncio.create_task(self.play(event["table"], int(event["seat"])))
                    self.tasks.add(task)
                    task.add_done_callback(self.tasks.discard)

    async def play(self, table: str, seat: int) -> None:
        sent: dict[int, float] = {}  # version a move was built on -> when it was posted
        path = f"/api/bot/game/{table}/stream"
        async with self.http.stream("GET", path, headers=self.headers, timeout=None) as resp:
            async for raw in resp.aiter_lines():
                if not raw.strip():
                    continue
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "game_finish":
                    self.figures.games += self.figures.measuring and seat == 0
                    await self.started.put((table, seat))
                    return
                if kind == "error":
                    self.figures.errors += 1
                    continue
                if kind not in ("snapshot", "update"):
                    continue
                version = int(msg["version"])
                posted = sent.pop(version - 1, None)
                if posted is not None and self.figures.measuring:
                    self.figures.rtts.append((time.perf_counter() - posted) * 1000.0)
                    self.figures.moves += 1
                view = msg["view"]
                legal = view.get("legal_moves") or []
                if view.get("to_move") == seat and legal and not view.get("is_over"):
                    # posted beside the stream, which goes on reading: the update may come first
                    sent[version] = time.perf_counter()
                    task = asyncio.create_task(self.move(table, version, self.rng.choice(legal), sent))
                    self.tasks.add(task)
                    task.add_done_callback(self.tasks.discard)

    async def move(self, table: str, version: int, move: str, sent: dict[int, float]) -> None:
        posted = time.perf_counter()
        while True:
            r = await self.http.post(
                f"/api/bot/game/{table}/move", headers=self.headers, json={"move": move, "version": version}
            )
            if r.status_code != 429:
                break
            self.figures.limited += 1  # over the token's moves a second: wait as told, then again
            await asyncio.sleep(float(r.headers.get("retry-after", "1")))
        if r.status_code == 200:
            if self.figures.measuring:
                self.figures.acks.append((time.perf_counter() - posted) * 1000.0)
            return
        sent.pop(version, None)
        code = r.json().get("code", str(r.status_code))
        if code in ("not_started", "stale"):  # before the accept, or a snapshot sent again: refused, harmless
            self.figures.refused[code] += 1
        else:
            self.figures.errors += 1
            self.figures.error_codes[code] += 1


async def challenger(bot: Bot, other: Bot, until: float) -> None:
    """Challenge ``other`` to one game after another until ``until``."""
    seats = [{"kind": "online-bot", "name": bot.name}, {"kind": "online-bot", "name": other.name}]
    while time.monotonic() < until:
        r = await bot.http.post(
            "/api/bot/challenge", headers=bot.headers, json={"game": "mau-mau", "seats": seats, "clock": "off"}
        )
        if r.status_code != 200:
            bot.figures.errors += 1
            await asyncio.sleep(0.5)
            continue
        await bot.started.get()  # its game finished


def own(base: str) -> httpx.AsyncClient:
    """A bot's own HTTP client, without Nagle: a POST's body would otherwise wait for the ACK of its
    headers."""
    transport = httpx.AsyncHTTPTransport(socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    return httpx.AsyncClient(base_url=base, trust_env=False, transport=transport, timeout=GUARD)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(base: str, tokens: list[tuple[str, str]], warmup: float, duration: float, pid: int) -> dict[str, Any]:
    figures = Figures()
    async with own(base) as http:
        # each bot its own client, as separate programs would be: one pool shared by 200 bots' streams
        # was itself the bottleneck (7x fewer moves a second, measured)
        bots = [Bot(own(base), name, token, figures, random.Random(i)) for i, (name, token) in enumerate(tokens)]
        streams = [asyncio.create_task(b.events()) for b in bots]
        await asyncio.wait_for(asyncio.gather(*(b.online.wait() for b in bots)), GUARD)
        figures.online = len((await http.get("/api/bots/online")).json()["bots"])
        start = time.monotonic()
        until = start + warmup + duration
        pairs = [asyncio.create_task(challenger(bots[i], bots[i + 1], until)) for i in range(0, len(bots) - 1, 2)]
        await asyncio.sleep(warmup)
        figures.measuring = True
        cpu0, t0, mine0 = cpu_seconds(pid), time.monotonic(), time.process_time()
        await asyncio.sleep(duration)
        cpu1, t1, mine1 = cpu_seconds(pid), time.monotonic(), time.process_time()
        figures.measuring = False
        for task in [*pairs, *streams, *(t for b in bots for t in b.tasks)]:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*pairs, *streams, return_exceptions=True)
        for b in bots:
            with contextlib.suppress(Exception):
                await b.http.aclose()
    moves = figures.moves
    return {
        "bots": len(tokens),
        "online": figures.online,
        "moves": moves,
        "moves_per_s": round(moves / (t1 - t0), 1),
        "games": figures.games,
        "rtt_ms_p50": round(statistics.median(figures.rtts), 2) if figures.rtts else 0.0,
        "rtt_ms_p99": round(percentile(figures.rtts, 0.99), 2),
        "rtt_ms_max": round(max(figures.rtts, default=0.0), 2),
        "ack_ms_p50": round(statistics.median(figures.acks), 2) if figures.acks else 0.0,
        "ack_ms_p99": round(percentile(figures.acks, 0.99), 2),
        "server_cpu_ms_per_move": round((cpu1 - cpu0) * 1000.0 / moves, 3) if moves else None,
        "server_cpu_share": round((cpu1 - cpu0) / (t1 - t0), 3),
        "client_cpu_share": round((mine1 - mine0) / (t1 - t0), 3),
        "limited": figures.limited,
        "refused": dict(figures.refused),
        "errors": figures.errors,
        "error_codes": dict(figures.error_codes),
    }


def make_tokens(db: str, count: int) -> list[tuple[str, str]]:
    from mauseloch.server.botapi.tokens import BotTokens
    from mauseloch.server.storage.store import Store

    store = Store(db)
    tokens = BotTokens(store)
    made = [(f"bench-{i:04d}", tokens.create(f"bench-{i:04d}")) for i in range(count)]
    store.close()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=200, help="bots connected at once (pairs play each other)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the measuring starts")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds measured")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        tokens = make_tokens(db, args.bots - args.bots % 2)
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", db, "--bot-delay", "0"]
        cmd += ["--requests-per-second", "0", "--tables-per-minute", "0", "--open-tables-per-address", "0"]
        cmd += ["--max-heads-per-address", "0"]  # every bot's connections come from 127.0.0.1
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout is not None
            match = re.match(r"Mauseloch is serving at (http://127\.0\.0\.1:\d+)/", proc.stdout.readline())
            if match is None:
                raise SystemExit("the server did not start")
            # read whatever else it prints, so that a full pipe never holds the server up
            threading.Thread(target=proc.stdout.read, daemon=True).start()
            figures = asyncio.run(run(match.group(1), tokens, args.warmup, args.duration, proc.pid))
        finally:
            proc.terminate()
            proc.wait(GUARD)
    for key, value in figures.items():
        print(f"{key:>24}: {value}")
    if args.json:
        print_json(figures, out)


if __name__ == "__main__":
    main()
