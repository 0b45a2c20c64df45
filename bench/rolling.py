"""A rolling restart behind a real load balancer: every server process replaced in turn while people play.

Starts Debian's ``nginx`` in front of ``--processes`` ``mauseloch serve`` processes on one
PostgreSQL and Redis (the proxy settings of examples/deploy/nginx/mauseloch.conf, without TLS),
opens tables of four human seats through nginx and plays every seat from a light client (a
random legal move after a pause of about ``--think-ms``; a client reconnects as the page does,
0.5 s after its socket closed, then 1 s, 2 s, ...). After ``--warmup`` seconds each process in
turn gets SIGTERM, is waited for (it hands its tables to the others and sends its sockets
elsewhere: docs/operate.md), and is started again on its port; the next one follows once it is
ready. ``--after`` seconds of play close the run.

Reported (``--json``: one JSON line last, everything else on stderr):

- ``lost``: moves a client saw acknowledged (the update of the next version, made by its seat)
  that PostgreSQL does not hold at their version afterwards;
- ``errors``: error frames the clients got (any code: a move refused, stale, a server error),
  with ``error_kinds`` and ``error_messages`` (the first 20, as the server said them); lobby
  requests that failed and were sent again are ``lobby_retries``;
- ``max_reconnect_s``: the longest time from a socket closed by a server to the snapshot of its
  next connection (the page's pause of 0.5 s included), with ``reconnects`` and ``clients_back``
  (the sockets closed that came back, of all closed);
- ``p99_ms``: a move's time during the roll (from the SIGTERM of the first process to the second
  one ready again), from sending it to seeing its table's version move on (its update, or the
  snapshot after a reconnect); ``p50_ms`` likewise, ``p99_ms_before`` before the roll;
- ``drain_s``: each process's seconds from SIGTERM to its exit, ``restart_s`` to ready again;
  ``exit_codes``, and ``hung_logs``: the end of the log of a process that had not ended 30 s
  after its drain's bound, with every thread's stack (it is aborted; faulthandler writes them).

    PG=$(sh scripts/start-postgres.sh)
    .venv/bin/python bench/rolling.py --db "$PG" --seats 500 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

import server as real  # bench/server.py: its lean clients, PostgreSQL and Redis helpers
from _report import print_json, text_to_stderr

SEATS_PER_TABLE = 4
GOAL_RECONNECT_S = 2.0

# The proxy as examples/deploy/nginx/mauseloch.conf sets it up, on plain HTTP (the TLS there is
# nginx's own business): round robin without stickiness, WebSocket upgrade, next server on a
# refused connection, keep-alive to the processes.
NGINX = """
worker_processes 1;
{user}
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
worker_rlimit_nofile 16384;
events {{ worker_connections 8192; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    upstream mauseloch {{
{servers}
        keepalive 32;
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    server {{
        listen 127.0.0.1:{port};
        location /ws/ {{
            proxy_pass http://mauseloch;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Request-ID $request_id;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }}
        location / {{
            proxy_pass http://mauseloch;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Request-ID $request_id;
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""


def say(*parts: Any) -> None:
    print(*parts, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the clients -------------------------------------------------------------------------------
@dataclass
class Stats:
    errors: Counter[str] = field(default_factory=Counter)
    said: list[str] = field(default_factory=list)  # what each error frame said, for a failure's story
    lobby_retries: int = 0
    acked: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)
    moves: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds until seen)
    reconnect_s: list[float] = field(default_factory=list)
    closed: int = 0  # sockets that ended while the run went on
    seats: int = 0  # seats that said hello at least once
    games: int = 0


@dataclass
class Run:
    base: str
    think: float
    seed: int
    tables: int
    stopping: bool = False
    stats: Stats = field(default_factory=Stats)


async def post(run: Run, http: real.LeanHTTP, path: str, body: dict[str, Any]) -> Any:
    """A lobby request through the proxy, sent again (up to a minute) when it failed."""
    give_up = time.monotonic() + 60
    while True:
        try:
            answer = await http.post(path, body)
            if isinstance(answer, dict) and "code" not in answer:
                return answer
        except Exception:
            if time.monotonic() > give_up:
                raise
        run.stats.lobby_retries += 1
        await asyncio.sleep(0.2)


async def seat_plays(run: Run, table: str, seat: int, token: str, rng: random.Random) -> None:
    """One seat until its game ends, reconnecting as the page does (conn.js)."""
    stats = run.stats
    sent: dict[int, list[str]] = {}  # version -> the moves this seat sent at it, over every connection
    first_sent: dict[int, float] = {}  # version -> when a move at it was first sent
    closed_at: float | None = None
    attempt = 0
    said_hello = False
    while not run.stopping:
        try:
            async with real.lean_connect(run.base, f"/ws/{table}") as ws:
                closed = asyncio.ensure_future(ws.wait_closed())
                try:
                    await ws.send(real.encode({"type": "hello", "token": token, "seat": seat, "last_seq": 0}))
                    if not said_hello:
                        said_hello = True
                        stats.seats += 1
                    pending: int | None = None  # the version this connection's move was sent at
                    async for raw in ws:
                        msg = real.read_frame(raw)
                        if msg.type == "error":
                            stats.errors[msg.code] += 1
                            stats.said.append(f"{msg.code}: {msg.message} (seat {seat}, sent at {pending})")
                            pending = None
                            await ws.send(b'{"type": "resync"}')
                            continue
                        view = msg.view
                        if view is None or msg.type not in ("snapshot", "update"):
                            continue
                        now = time.time()
                        if msg.type == "snapshot":
                            attempt = 0
                            if closed_at is not None:
                                stats.reconnect_s.append(now - closed_at)
                                closed_at = None
                        for v in [v for v in first_sent if msg.version > v]:  # its table moved on
                            stats.moves.append((first_sent[v], now - first_sent.pop(v)))
                        if pending is not None and msg.version > pending:
                            if msg.type == "update" and msg.version == pending + 1 and msg.by is None:
                                stats.acked.append((table, pending, tuple(sent.pop(pending, []))))
                            pending = None
                        if view.is_over:
                            return
                        if view.legal_moves and pending is None and not run.stopping:
                            await asyncio.wait({closed}, timeout=run.think * (0.5 + rng.random()))
                            if closed.done():
                                break
                            move = rng.choice(view.legal_moves)
                            pending = msg.version
                            sent.setdefault(pending, []).append(move)
                            first_sent.setdefault(pending, time.time())
                            await ws.send(real.encode({"type": "move", "move": move, "version": pending}))
                finally:
                    closed.cancel()
        except (real.Closed, OSError, TimeoutError):
            pass
        if run.stopping:
            return
        if closed_at is None:
            closed_at = time.time()
            stats.closed += 1
        # the page's backoff: 0.5 s, 1 s, 2 s ... with a fifth of jitter
        await asyncio.sleep(min(8.0, 0.5 * 2**attempt) * (0.8 + 0.4 * rng.random()))
        attempt += 1


async def table_plays(run: Run, http: real.LeanHTTP, index: int) -> None:
    rng = random.Random(run.seed * 100_003 + index)
    await asyncio.sleep(rng.random() * 3.0)  # the tables open over three seconds
    while not run.stopping:
        seats = [{"kind": "human"}] * SEATS_PER_TABLE
        created = await post(run, http, "/api/tables", {"game": "mau-mau", "seats": seats, "name": "A"})
        table = created["table"]
        creds = [(created["seat"], created["token"])]
        for name in ("B", "C", "D"):
            joined = await post(
                run, http, f"/api/tables/{table}/join", {"name": name, "invite": created["invite_secret"]}
            )
            creds.append((joined["seat"], joined["token"]))
        await asyncio.gather(*(seat_plays(run, table, s, t, rng) for s, t in creds))
        run.stats.games += 1


async def clients(run: Run, stop: Any) -> Stats:
    http = real.LeanHTTP(run.base)
    tasks = [asyncio.create_task(table_plays(run, http, i)) for i in range(run.tables)]
    while not stop.is_set():
        await asyncio.sleep(0.1)
    run.stopping = True
    _, pending = await asyncio.wait(tasks, timeout=10)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    return run.stats


def client_process(run: Run, stop: Any, out: Any) -> None:
    loop_factory: Any = asyncio.new_event_loop
    with contextlib.suppress(ImportError):
        from uvloop import new_event_loop as loop_factory
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        out.put(runner.run(clients(run, stop)))


# -- the servers and the proxy -------------------------------------------------------------------
class Process:
    """One ``mauseloch serve`` on a fixed port, started again on it after each stop."""

    def __init__(self, port: int, db: str, redis: str, tmp: Path, n: int, drain_seconds: float) -> None:
        self.port, self.db, self.redis, self.n = port, db, redis, n
        self.log = tmp / f"server{n}.log"
        self.drain_seconds = drain_seconds
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db, "--redis", self.redis, "--trusted-proxy", "127.0.0.1",
               "--drain-seconds", str(self.drain_seconds), *real.NO_CAPS]  # fmt: skip
        # faulthandler: a process that never ends is sent SIGABRT, which writes every thread's
        # stack into its log first (where it hangs)
        env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)

    def ready(self, limit: float = 120.0) -> None:
        give_up = time.monotonic() + limit
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/readyz", trust_env=False, timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc is not None and self.proc.poll() is not None:
                raise SystemExit(f"server {self.n} ended: {self.log.read_text()[-2000:]}")
            if time.monotonic() > give_up:
                raise SystemExit(f"server {self.n} never became ready")
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM) -> tuple[float, int | None, str | None]:
        """Its seconds from the signal to its end, its exit code, and if it did not end within its
        drain and 30 s more: the end of its log with every thread's stack (it is then aborted)."""
        assert self.proc is not None
        began = time.monotonic()
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(self.drain_seconds + 30)
            return time.monotonic() - began, code, None
        except subprocess.TimeoutExpired:
            took = time.monotonic() - began
        self.proc.send_signal(signal.SIGABRT)  # faulthandler writes the stacks, then it ends
        try:
            code = self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        return took, code, self.log.read_text(errors="replace")[-6000:]


def start_nginx(tmp: Path, ports: list[int], port: int) -> subprocess.Popen[bytes]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("nginx is not installed (Debian package nginx; make system-deps installs it)")
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in ports)
    user = "user root;" if os.geteuid() == 0 else ""
    conf = tmp / "nginx.conf"
    conf.write_text(NGINX.format(user=user, tmp=tmp, servers=servers, port=port))
    proc = subprocess.Popen([nginx, "-p", str(tmp), "-c", str(conf), "-g", "daemon off;"], stderr=subprocess.PIPE)
    give_up = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return proc
        if proc.poll() is not None or time.monotonic() > give_up:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"nginx did not start: {err}")
        time.sleep(0.05)


# -- one run --------------------------------------------------------------------------------------
def roll(args: argparse.Namespace, db: str, redis_url: str) -> dict[str, Any]:
    tables = max(1, args.seats // SEATS_PER_TABLE)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        joined_db, schema = real.fresh_schema(db)
        shared = real.fresh_redis_db(redis_url) if args.redis else redis_url  # its own server: empty
        ports = [free_port() for _ in range(args.processes)]
        proxy_port = free_port()
        processes = [Process(p, joined_db, shared, tmp, i, args.drain_seconds) for i, p in enumerate(ports)]
        nginx: subprocess.Popen[bytes] | None = None
        worker: Any = None
        try:
            for proc in processes:
                proc.start()
            for proc in processes:
                proc.ready()
            nginx = start_nginx(tmp, ports, proxy_port)
            ctx = multiprocessing.get_context("fork")
            out, stop = ctx.Queue(), ctx.Event()
            run = Run(base=f"127.0.0.1:{proxy_port}", think=args.think_ms / 1000, seed=args.seed, tables=tables)
            worker = ctx.Process(target=client_process, args=(run, stop, out))
            worker.start()
            time.sleep(args.warmup)
            say(f"rolling {args.processes} processes under {tables * SEATS_PER_TABLE} seats")
            roll_from = time.time()
            drain_s, restart_s, codes = [], [], []
            hung_logs: list[str] = []  # the logs' ends of processes that never ended
            for proc in processes:
                took, code, hung = proc.stop()
                drain_s.append(took)
                codes.append(code)
                if hung is not None:
                    hung_logs.append(hung)
                    say(f"  process {proc.n} did not end {took:.0f} s after SIGTERM; the end of its log:\n{hung}")
                began = time.monotonic()
                proc.start()
                proc.ready()
                restart_s.append(time.monotonic() - began)
                say(
                    f"  process {proc.n}: drained in {took:.2f} s (exit {code}),"
                    f" ready again {restart_s[-1]:.2f} s later"
                )
            roll_to = time.time()
            time.sleep(args.after)
            stop.set()
            stats: Stats = out.get(timeout=120)
            worker.join(30)
            time.sleep(0.5)
            lost = real.lost_moves(joined_db, stats.acked)
        finally:
            if worker is not None and worker.is_alive():
                worker.kill()
            for proc in processes:
                if proc.proc is not None and proc.proc.poll() is None:
                    proc.proc.send_signal(signal.SIGINT)
            for proc in processes:
                if proc.proc is not None:
                    try:
                        proc.proc.wait(60)
                    except subprocess.TimeoutExpired:
                        proc.proc.kill()
            if nginx is not None:
                nginx.terminate()
                nginx.wait(30)
            logs = "\n".join(p.log.read_text(errors="replace") for p in processes if p.log.exists())
            real.drop_schema(db, schema)
            if args.redis:
                real.drop_redis_db(shared)
    during = [seconds * 1000 for sent, seconds in stats.moves if roll_from <= sent <= roll_to]
    before = [seconds * 1000 for sent, seconds in stats.moves if sent < roll_from]
    closed = max(1, stats.closed)
    result: dict[str, Any] = {
        "seats": tables * SEATS_PER_TABLE,
        "seats_seen": stats.seats,
        "processes": args.processes,
        "think_ms": args.think_ms,
        "lost": len(lost),
        "lost_moves": lost[:10],
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "error_messages": stats.said[:20],
        "lobby_retries": stats.lobby_retries,
        "max_reconnect_s": max(stats.reconnect_s, default=0.0),
        "reconnect_p50_s": real.percentile(stats.reconnect_s, 0.5) if stats.reconnect_s else 0.0,
        "reconnects": len(stats.reconnect_s),
        "clients_back": len(stats.reconnect_s) / closed if stats.closed else 1.0,
        "p99_ms": real.percentile(during, 0.99) if during else float("nan"),
        "p50_ms": real.percentile(during, 0.5) if during else float("nan"),
        "p99_ms_before": real.percentile(before, 0.99) if before else float("nan"),
        "moves_during_roll": len(during),
        "moves_acked": len(stats.acked),
        "roll_s": roll_to - roll_from,
        "drain_s": drain_s,
        "restart_s": restart_s,
        "exit_codes": codes,
        "hung_logs": hung_logs,
        "games": stats.games,
        "handed_over_lines": logs.count("took over table"),
    }
    result["goals_met"] = (
        result["lost"] == 0
        and result["errors"] == 0
        and result["clients_back"] == 1.0
        and result["max_reconnect_s"] < GOAL_RECONNECT_S
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=500, help="client seats (4 per table)")
    parser.add_argument("--processes", type=int, default=2, help="server processes behind nginx")
    parser.add_argument("--think-ms", type=float, default=1000.0, help="mean pause before a client moves")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds of play before the roll")
    parser.add_argument("--after", type=float, default=3.0, help="seconds of play after the roll")
    parser.add_argument("--drain-seconds", type=float, default=20.0, help="serve --drain-seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="PostgreSQL URL (default: $MAUSELOCH_TEST_PG_URL)")
    parser.add_argument("--redis", help="Redis URL, an empty database of it taken (default: a redis-server of its own)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line last")
    args = parser.parse_args()
    out = text_to_stderr(args.json)
    db = args.db or os.environ.get("MAUSELOCH_TEST_PG_URL")
    if not db or not db.startswith("postgres"):
        raise SystemExit("the processes share PostgreSQL: --db postgresql://... (or $MAUSELOCH_TEST_PG_URL)")
    redis_url, redis_pid = args.redis, None
    if not redis_url:
        redis_url, redis_pid = real.start_redis()
    try:
        result = roll(args, db, redis_url)
    finally:
        real.stop_redis(redis_pid)
    say(
        f"{result['seats']} seats, {result['processes']} processes rolled: {result['lost']} acknowledged moves lost,"
        f" {result['errors']} errors {result['error_kinds'] or ''}, {result['reconnects']} reconnects"
        f" (slowest {result['max_reconnect_s']:.2f} s, {result['clients_back']:.0%} back),"
        f" p99 during the roll {result['p99_ms']:.0f} ms (before: {result['p99_ms_before']:.0f} ms),"
        f" {result['lobby_retries']} lobby requests sent again"
    )
    if args.json:
        print_json(result, out)


if __name__ == "__main__":
    main()
