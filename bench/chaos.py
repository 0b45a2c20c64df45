"""Chaos: many Mau-Mau games over a real server while clients leave, drop and go silent.

Starts ``mauseloch serve`` in a subprocess (temporary SQLite file, fast clocks via
``--clock-scale``) and plays ``--games`` two- or three-seat games, ``--parallel`` at a time, every
human seat from its own WebSocket client. At least ``--disrupt`` of the clients (default 40 %)
misbehave at a random moment: they *leave* (the leave button), *drop* (the socket closes
without a word) or go *silent* (connected, no more moves); some of each come back after a
while, the rest never do. Once, when about a third of the games are done, the server is
killed with SIGKILL and started again on the same port and database (``--kills N``: N times,
spread over the second third); every client reconnects. A spectator per game watches what
happens. On PostgreSQL (``--db postgresql://…``) the run has a schema of its own.

Reported (``--json`` prints them as one JSON line last):
- ``games`` / ``finished``: games started / games whose table reached the end;
- ``lost_moves``: moves a client saw acknowledged (the update for its move arrived) that the
  final record lacks;
- ``max_standin_delay_s``: how late a stand-in's move was stored (its time in the database)
  past the deadline the server had announced for it (a turn clock running out, or the
  stand-in's own pause); ``max_standin_seen_late_s``: the same, measured when the update
  reached the spectator (adds the benchmark's own event-loop lag on this machine);
- ``resume_mismatches``: a client coming back (after a drop, a leave or the restart) got a
  snapshot whose view differs from the view the final record gives for that seat and version.

    .venv/bin/python bench/chaos.py --games 1000 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import mauseloch
from _report import print_json, text_to_stderr
from mauseloch.server.storage.store import normalise_url

BEHAVIOURS = ("leave", "drop", "silent")


@dataclass
class Totals:
    games: int = 0
    finished: int = 0
    clients: int = 0
    disrupted: int = 0
    returned: int = 0
    acked: int = 0
    lost_moves: int = 0
    resumes: int = 0
    resume_mismatches: int = 0
    standin_moves: int = 0
    max_standin_delay: float = 0.0  # stored move time minus the announced deadline (server side)
    max_standin_seen_late: float = 0.0  # arrival at the spectator minus the deadline (adds client lag)
    restarts: int = 0
    unfinished: list[str] = field(default_factory=list)


@dataclass
class Game:
    table: str
    invite: str  # the private table's invite secret: a spectator's hello carries it
    over: asyncio.Event = field(default_factory=asyncio.Event)
    acked: list[tuple[int, int, str]] = field(default_factory=list)  # (version, seat, move)
    resumes: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)  # (seat, version, view)
    trace: dict[int, list[str]] = field(default_factory=dict)  # per seat, what its client did (--verbose)
    standin_dues: dict[int, float] = field(default_factory=dict)  # version -> announced due of its stand-in move


class Server:
    def __init__(self, db: str, scale: float, bot_delay: float) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.db, self.scale, self.bot_delay = db, scale, bot_delay
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", str(self.port), "--db", self.db,
               "--bot-delay", str(self.bot_delay), "--clock-scale", str(self.scale),
               # every client comes from 127.0.0.1: no per-address caps here (bench/abuse.py tests them)
               "--max-sockets-per-address", "0", "--max-sockets", "0", "--tables-per-minute", "0",
               "--open-tables-per-address", "0", "--requests-per-second", "0",
               "--max-heads-per-address", "0"]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "serving" not in line:
            raise SystemExit(f"server did not start: {line!r}")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Chaos:
    def __init__(self, args: argparse.Namespace, server: Server) -> None:
        self.args = args
        self.server = server
        self.base = f"127.0.0.1:{server.port}"
        self.rng = random.Random(args.seed)
        self.totals = Totals()
        self.up = asyncio.Event()
        self.up.set()
        self.client: httpx.AsyncClient | None = None
        self.db_file = server.db.removeprefix("sqlite:///") if server.db.startswith("sqlite:///") else None
        # PostgreSQL: the stand-ins' stored times are read through an engine of the run's own
        self.pg = create_engine(normalise_url(server.db)) if server.db.startswith("postgresql") else None

    async def http(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A lobby request, retried while the server is down."""
        for _ in range(600):
            await self.up.wait()
            try:
                if self.client is None:  # one client, its connections reused (made again after a failure)
                    self.client = httpx.AsyncClient(base_url=f"http://{self.base}", timeout=30)
                response = await self.client.request(method, path, json=body)
                if response.status_code == 200:
                    return response.json()
                if response.status_code < 500:
                    raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
            except httpx.HTTPError:
                client, self.client = self.client, None
                if client is not None:
                    await client.aclose()
            await asyncio.sleep(0.2)
        raise RuntimeError(f"{method} {path}: the server never answered")

    # -- one game ----------------------------------------------------------------------
    async def game(self, index: int) -> None:
        rng = random.Random(self.rng.getrandbits(64))
        humans = 2 if rng.random() < 0.7 else 3
        seats: list[dict[str, Any]] = [{"kind": "human"}] * humans
        if humans == 2 and rng.random() < 0.3:
            seats = [*seats, {"kind": "bot", "bot": "random"}]
        body = {"game": "mau-mau", "seats": seats, "name": "P0", "clock": "fast", "options": {"move_limit": 120}}
        created = await self.http("POST", "/api/tables", body)
        table = created["table"]
        game = Game(table, created["invite_secret"])
        self.totals.games += 1
        tasks = [asyncio.create_task(self.watch(game))]

        def seat_client(seat: int, token: str) -> None:  # its page connects as soon as it has the link
            behaviour = rng.choice(BEHAVIOURS) if rng.random() < self.args.disrupt else None
            self.totals.clients += 1
            self.totals.disrupted += behaviour is not None
            tasks.append(asyncio.create_task(self.player(game, seat, token, behaviour, random.Random(rng.random()))))

        seat_client(created["seat"], created["token"])
        try:
            for i in range(1, humans):
                invite = {"invite": created["invite_secret"]}  # a private table: joined by its invite
                joined = await self.http("POST", f"/api/tables/{table}/join", {"name": f"P{i}", **invite})
                seat_client(joined["seat"], joined["token"])
        except RuntimeError as exc:
            print(f"table {table}: {exc}", await self.http("GET", f"/api/tables/{table}"), file=sys.stderr)
        try:
            await asyncio.wait_for(self.until_over(game, tasks[0]), self.args.game_timeout)
        except TimeoutError:
            self.totals.unfinished.append(table)
            if self.args.verbose:
                print("unfinished", await self.http("GET", f"/api/tables/{table}"), file=sys.stderr)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if game.over.is_set():
            await self.check(game)

    @staticmethod
    async def until_over(game: Game, watcher: asyncio.Task[None]) -> None:
        """Wait for the game's end; a watcher that failed (its hello refused) fails the run at once."""
        over = asyncio.ensure_future(game.over.wait())
        try:
            await asyncio.wait([over, watcher], return_when=asyncio.FIRST_COMPLETED)
        finally:
            over.cancel()
        failed = watcher.exception() if watcher.done() and not watcher.cancelled() else None
        if failed is not None:
            raise failed

    async def check(self, game: Game) -> None:
        # a snapshot can show the end a commit before the end is stored (and the record served):
        # asked again for a while; a table that never says it is over counts as unfinished
        for _ in range(100):
            try:
                record = await self.http("GET", f"/api/tables/{game.table}/record")
                break
            except RuntimeError as exc:
                if '"not_over"' not in str(exc):
                    raise
                await asyncio.sleep(0.1)
        else:
            self.totals.unfinished.append(game.table)
            if self.args.verbose:
                print("over in its view, not in its record:", game.table, file=sys.stderr)
            return
        self.totals.finished += 1
        moves = record["moves"]
        self.totals.acked += len(game.acked)
        for version, seat, move in game.acked:
            if version >= len(moves) or moves[version][:2] != [seat, move]:
                self.totals.lost_moves += 1
                if self.args.verbose:
                    found = moves[version] if version < len(moves) else None
                    print(f"lost: {game.table} v{version} seat {seat} {move}; record has {found}", file=sys.stderr)
                    print("   ", " | ".join(game.trace.get(seat, [])[-30:]), file=sys.stderr)
        self.totals.standin_moves += sum(1 for by in record["played_by"] if by == "stand-in")
        if game.standin_dues:
            for version, played in await asyncio.to_thread(self.standin_times, game.table):
                due = game.standin_dues.get(version)
                if due is not None:
                    self.totals.max_standin_delay = max(self.totals.max_standin_delay, played - due)
        if not game.resumes:
            return
        replay = mauseloch.new_game(
            record["game"],
            players=record["players"],
            seed=record["seed"],
            options=record["options"],
            deck=record["deck"],
        )
        done = 0
        for seat, version, view in sorted(game.resumes, key=lambda r: r[1]):
            while done < version:
                seat_of, move, *_ = moves[done]
                replay.play(move, seat=seat_of)
                done += 1
            self.totals.resumes += 1
            expected = json.loads(json.dumps(replay.view(seat)))
            if expected != view:
                self.totals.resume_mismatches += 1
                if self.args.verbose:
                    differ = sorted(k for k in set(expected) | set(view) if expected.get(k) != view.get(k))
                    print(f"resume mismatch: {game.table} v{version} seat {seat}, differing: {differ}", file=sys.stderr)
                    for key in differ:
                        print(f"    {key}: record {expected.get(key)!r} snapshot {view.get(key)!r}", file=sys.stderr)

    def standin_times(self, table: str) -> list[tuple[int, float]]:
        """(version, when stored, epoch seconds) of each stand-in move of ``table``, from the database."""
        if self.db_file is not None:
            with sqlite3.connect(self.db_file) as db:
                rows = db.execute(
                    "SELECT version, played FROM ml_moves WHERE table_id = ? AND by = 'stand-in'", (table,)
                ).fetchall()
            return [(v, dt.datetime.fromisoformat(p).replace(tzinfo=dt.UTC).timestamp()) for v, p in rows]
        if self.pg is None:
            return []
        with self.pg.connect() as conn:
            found = conn.execute(
                text("SELECT version, played FROM ml_moves WHERE table_id = :t AND by = 'stand-in'"), {"t": table}
            ).all()
        return [(int(v), p.timestamp()) for v, p in found]

    async def watch(self, game: Game) -> None:
        """The spectator: notices the end and how late stand-ins move past their deadline."""
        deadline: tuple[int, float] | None = None  # (version, due) as last announced
        while not game.over.is_set():
            try:
                await self.up.wait()
                async with connect(f"ws://{self.base}/ws/{game.table}", proxy=None, open_timeout=30) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": None, "seat": None, "invite": game.invite}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        now = time.time()
                        kind = msg["type"]
                        if kind not in ("snapshot", "update", "presence"):
                            continue
                        stand_in = kind == "update" and msg.get("by") == "stand-in"
                        if stand_in and deadline is not None and deadline[0] == msg["version"] - 1:
                            game.standin_dues[deadline[0]] = deadline[1]
                            late = now - deadline[1]
                            self.totals.max_standin_seen_late = max(self.totals.max_standin_seen_late, late)
                        live = msg.get("live") or {}
                        announced = live.get("deadline")
                        deadline = (msg["version"], announced["due"]) if announced else None
                        if kind != "presence" and msg["view"]["is_over"]:
                            game.over.set()
                            return
            except ConnectionClosed as exc:
                if exc.rcvd is not None and exc.rcvd.code == 4403:  # the hello was refused: a defect, not chaos
                    raise RuntimeError(f"table {game.table}: the spectator was refused ({exc.rcvd.reason})") from exc
                await asyncio.sleep(0.1)
            except (InvalidHandshake, OSError, TimeoutError):
                await asyncio.sleep(0.1)

    async def player(self, game: Game, seat: int, token: str, behaviour: str | None, rng: random.Random) -> None:
        trigger = rng.randint(1, 12)  # on which of its own turns the behaviour starts
        comes_back = rng.random() < 0.5
        turns = 0
        silent_until = 0.0
        connected_before = False
        while not game.over.is_set():
            try:
                await self.up.wait()
                async with connect(f"ws://{self.base}/ws/{game.table}", proxy=None, open_timeout=30) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": token, "seat": seat}))
                    trace = game.trace.setdefault(seat, [])
                    trace.append("connect")
                    pending: tuple[int, str] | None = None  # (version, move) sent, not yet answered
                    fresh = True  # the next snapshot is this connection's first
                    async for raw in ws:
                        msg = json.loads(raw)
                        kind = msg["type"]
                        if kind != "presence":
                            trace.append(f"{kind} v{msg['version']} {msg.get('by') or msg.get('message') or ''}")
                        if kind == "snapshot" and fresh:
                            if connected_before:
                                game.resumes.append((seat, msg["version"], msg["view"]))
                            connected_before = True
                            fresh = False
                        if kind == "error":
                            pending = None
                            await ws.send('{"type": "resync"}')
                            continue
                        if kind not in ("snapshot", "update"):
                            continue
                        # Every move is answered once: by its own update, or (even after a stand-in
                        # moved first, and then later) by an error. Only then is the next one sent.
                        answered = pending is not None and kind == "update" and msg["version"] == pending[0] + 1
                        if answered and pending is not None and msg.get("by") is None:  # only this seat's person
                            game.acked.append((pending[0], seat, pending[1]))  # could move at that version
                            pending = None
                        view = msg["view"]
                        if view["is_over"]:
                            return
                        legal = view.get("legal_moves")
                        if not legal or pending is not None or time.monotonic() < silent_until:
                            continue
                        turns += 1
                        if behaviour is not None and turns == trigger:
                            if behaviour == "silent":
                                self.totals.returned += comes_back
                                silent_until = time.monotonic() + (rng.uniform(0.5, 3) if comes_back else 1e9)
                                continue
                            if behaviour == "leave":
                                await ws.send('{"type": "leave"}')
                            break  # drop: the socket just closes
                        await asyncio.sleep(rng.uniform(0, self.args.think))
                        move = rng.choice(legal)
                        pending = (msg["version"], move)
                        trace.append(f"send v{msg['version']} {move}")
                        await ws.send(json.dumps({"type": "move", "move": move, "version": msg["version"]}))
                if turns == trigger and behaviour in ("leave", "drop"):
                    if not comes_back:
                        return
                    turns += 1  # back once, for good
                    self.totals.returned += 1
                    await asyncio.sleep(rng.uniform(0.1, 2.0))
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                await asyncio.sleep(rng.uniform(0.1, 0.4))

    # -- the run -----------------------------------------------------------------------
    async def run(self) -> None:
        games = self.args.games
        queue = list(range(games))
        kills = self.args.kills  # spread over the first two thirds of the run: the first at a third
        kill_at = [games // 3 + k * games // (3 * kills) for k in range(kills)]

        async def worker() -> None:
            while queue:
                await self.game(queue.pop())

        async def killer() -> None:
            for at in kill_at:
                while self.totals.finished < at:
                    await asyncio.sleep(0.05)
                self.up.clear()
                await asyncio.to_thread(self.server.kill)
                self.totals.restarts += 1
                await asyncio.to_thread(self.server.start)
                self.up.set()

        kill_task = asyncio.create_task(killer())
        await asyncio.gather(*(worker() for _ in range(self.args.parallel)))
        kill_task.cancel()


@contextlib.contextmanager
def fresh_database(url: str | None, tmp: Path) -> Iterator[tuple[str, str | None]]:
    """The run's database URL and PostgreSQL schema: a SQLite file in ``tmp``, or on PostgreSQL a
    schema of its own (dropped afterwards), so that a run never restores the unfinished tables of
    an earlier one."""
    if url is None:
        yield f"sqlite:///{tmp / 'chaos.db'}", None
        return
    if not url.startswith("postgresql"):
        yield url, None
        return
    schema = f"chaos_{os.getpid()}_{int(time.time())}"
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}", schema
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=24, help="games played at once")
    parser.add_argument("--disrupt", type=float, default=0.4, help="share of clients that misbehave")
    parser.add_argument("--clock-scale", type=float, default=0.05, help="server clock scale (0.05: 15 s -> 0.75 s)")
    parser.add_argument("--bot-delay", type=float, default=0.02)
    parser.add_argument("--think", type=float, default=0.02, help="most seconds a client thinks before a move")
    parser.add_argument("--game-timeout", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills", type=int, default=1, help="SIGKILLs of the server, each followed by a restart")
    parser.add_argument(
        "--db", help="database URL (default: a temporary SQLite file; PostgreSQL: a fresh schema of the run's own)"
    )
    parser.add_argument("--verbose", action="store_true", help="describe every unfinished table")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    with tempfile.TemporaryDirectory() as tmp, fresh_database(args.db, Path(tmp)) as (db, schema):
        server = Server(db, args.clock_scale, args.bot_delay)
        server.start()
        chaos = Chaos(args, server)
        started = time.perf_counter()
        try:
            asyncio.run(chaos.run())
        finally:
            server.stop()
            if chaos.pg is not None:
                chaos.pg.dispose()
        elapsed = time.perf_counter() - started
    t = chaos.totals
    figures = {
        "games": t.games,
        "finished": t.finished,
        "lost_moves": t.lost_moves,
        "max_standin_delay_s": round(t.max_standin_delay, 3),
        "max_standin_seen_late_s": round(t.max_standin_seen_late, 3),
        "resume_mismatches": t.resume_mismatches,
        "clients": t.clients,
        "disrupted_share": round(t.disrupted / max(1, t.clients), 3),
        "returned": t.returned,
        "acked_moves": t.acked,
        "resumes": t.resumes,
        "standin_moves": t.standin_moves,
        "restarts": t.restarts,
        "schema": schema,
        "clock_scale": args.clock_scale,
        "elapsed_s": round(elapsed, 1),
    }
    share = figures["disrupted_share"]
    print(f"{t.finished}/{t.games} games finished in {elapsed:.0f} s; {t.clients} clients, "
          f"{share:.0%} misbehaved ({t.returned} came back), server killed {t.restarts}x")  # fmt: skip
    print(f"lost moves {t.lost_moves} of {t.acked} acknowledged; resume mismatches {t.resume_mismatches} of "
          f"{t.resumes}; stand-in moves {t.standin_moves}, latest {t.max_standin_delay:.3f} s past its deadline "
          f"(seen by a spectator {t.max_standin_seen_late:.3f} s late)")  # fmt: skip
    if t.unfinished:
        print("unfinished:", " ".join(t.unfinished[:20]))
    if args.json:
        print_json(figures, out)


if __name__ == "__main__":
    main()
