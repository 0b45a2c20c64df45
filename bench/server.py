"""Web server load: many WebSocket clients playing Mau-Mau against real server processes.

Starts ``mauseloch serve`` (uvicorn) in subprocesses on 127.0.0.1, opens tables of four human
seats, and plays every seat from a client that picks a random legal move from its own view as
soon as it may move: bot speed without the bots' pause (``--think-ms 600`` adds about their
pause; a client never sends more than 15 moves a second, below the server's rate limit). When a
game ends its table starts a new one, until ``--warmup`` plus ``--duration`` seconds are up;
only moves sent after the warm-up count.

One process (``--processes 1``) uses a temporary SQLite file, or ``--db``. Several
(``--processes 2``) share PostgreSQL (``--db``, default ``$MAUSELOCH_TEST_PG_URL``) and Redis
(``--redis``, default: a redis-server started by scripts/start-redis.sh), with no sticky
sessions: a table is created on one process, joined on another, and its four seats connect to
the processes in turn, so most moves are forwarded to the table's owner. The clients run in
``--client-procs`` processes of their own, so that one client's event loop is not the limit.
``--kill-after S`` kills the first server process with SIGKILL S seconds into the measured
window: its clients reconnect to the others, and the run reports the acknowledged moves the
database lacks afterwards (``lost``) and how long after the kill each table's next update
came (``resume_max_s``: the slowest table).

Reported per run: ``conn`` the most WebSockets open at once, move round trip (a client sends a
move until its own update arrives) p50/p90/p99/max, moves per second, games finished, errors
(error frames and failed requests or connections), the CPU of the servers and of the clients
over the measured window (from /proc; all on this machine, so a busy client slows the server's
figures too) as a share of a core and in microseconds a move (``server_cpu_us_per_move``, per
process in ``server_cpu_us_per_move_by_process``, ``client_cpu_us_per_move``) with the kernel's
share of the first server's and of the clients' (``server0_kernel_share``,
``client_kernel_share``), the frames the clients got by type with their mean size and the
games' mean length (``frames``, ``frame_mean_bytes``, ``game_moves_mean``: bench/floor.py sends
the same), and with PostgreSQL and Redis their cost per move: rows written and Redis commands
per move, and their CPU milliseconds per move. PostgreSQL gets a fresh schema a run and Redis
an empty database a run, so that no run inherits another's tables. ``--against REV`` runs each
configuration first with the server of git revision REV and prints the ratios (a before and an
after on the same machine's state);
``--after REV2`` takes the after side from revision REV2 instead of the work tree.
``--metrics-ab N`` runs each configuration N times without and with ``serve --metrics`` side by side
(two servers, each with clients and a database of its own, measured over the same seconds; the
figures scraped every 15 s while a run measures, as examples/deploy's Prometheus does) and prints
the ratio of the servers' CPU a move with them to without them (``metrics_ab`` in the JSON).
``--json`` prints every run as one JSON line last.

The clients speak WebSocket through :class:`LeanSocket` and HTTP through :class:`LeanHTTP`, a few
dozen lines each on asyncio's protocol API, and read of each message only what they act on
(:class:`ServerFrame`): the ``websockets`` client cost as much CPU a move as the server it
measured, and httpx half of what was left. bench/floor.py serves these clients from a bare server,
the floor of a move's CPU on the machine.

    .venv/bin/python bench/server.py --seats 200 1000 --duration 20
    .venv/bin/python bench/server.py --seats 1000 --processes 1 2 --db postgresql://... --json
    .venv/bin/python bench/server.py --seats 2000 --processes 2 --think-ms 600 --kill-after 10
    .venv/bin/python bench/server.py --seats 400 --think-ms 600 --against 762ddc1
    .venv/bin/python bench/server.py --seats 400 --think-ms 600 --metrics-ab 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import msgspec

from _report import print_json, text_to_stderr

SEATS_PER_TABLE = 4
MAX_PER_SECOND = 15  # moves a client sends per second at most (the server refuses more than 20)
ROOT = Path(__file__).resolve().parents[1]
decode = msgspec.json.decode
encode = msgspec.json.encode


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, moves answered within the window
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0
    open_now: int = 0
    max_open: int = 0  # WebSockets open at once
    # (table, version, the moves the seat sent at that version) seen answered: a move sent just
    # before its socket dropped may be the one answered, after the seat sent another on reconnecting
    acked: list[tuple[str, int, tuple[str, ...]]] = field(default_factory=list)
    around_kill: dict[str, list[float]] = field(default_factory=dict)  # table -> [last update before, first after]
    reconnects: int = 0
    frames: Counter[str] = field(default_factory=Counter)  # frames received, by type
    frame_bytes: Counter[str] = field(default_factory=Counter)  # their bytes, by type
    game_moves: list[int] = field(default_factory=list)  # the version a game ended at (seat 0's view)


@dataclass
class Run:
    bases: list[str]
    measure_from: float  # wall-clock times: moves sent before (the warm-up) are not counted
    deadline: float
    think: float
    rng: random.Random
    kill_at: float | None = None
    dead: set[str] = field(default_factory=set)  # servers found dead (a client's connection failed)
    stats: Stats = field(default_factory=Stats)
    stopping: bool = False

    def base(self, i: int) -> str:
        if self.kill_at is not None and time.time() >= self.kill_at:
            self.dead.add(self.bases[0])  # the one the benchmark kills
        alive = [b for b in self.bases if b not in self.dead] or self.bases
        return alive[i % len(alive)]


# Every client of this benchmark comes from 127.0.0.1: the caps a public server puts on one
# address (server/limits.py; bench/abuse.py measures them) are off here.
NO_CAPS = ("--max-sockets-per-address", "0", "--max-sockets", "0", "--tables-per-minute", "0",
           "--open-tables-per-address", "0", "--requests-per-second", "0",
           "--max-heads-per-address", "0")  # fmt: skip


def start_server(
    db: str,
    profile: str | None = None,
    redis: str | None = None,
    extra: tuple[str, ...] = NO_CAPS,
    source: str | None = None,
    command: list[str] | None = None,
    port: int = 0,
) -> tuple[subprocess.Popen[str], int]:
    """A ``mauseloch serve`` process on a free port; ``source``: a folder whose ``src`` it runs
    instead of the installed package (``--against``); ``command``: another server's script and
    arguments, which takes ``--port`` and ``--db`` as ``serve`` does and prints its address first
    (bench/floor.py's); ``port``: the port to listen on (0: a free one)."""
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    entry = os.environ.get("BENCH_SERVER_ENTRY")  # e.g. a wrapper script that instruments the server
    target = [entry, "serve"] if entry else ["-m", "mauseloch.cli", "serve"]
    if command is not None:
        target, extra = command, ()
    env = None
    options = list(extra)
    if source is not None:  # ahead of the editable install's path in sys.path
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [source, os.environ.get("PYTHONPATH")]))}
        options = known_options([sys.executable, *target], env, extra)
    cmd = [sys.executable, *profiler, *target, "--port", str(port), "--db", db, *options]
    if redis:
        cmd += ["--redis", redis]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"http://[^:]+:(\d+)/", line)
    if match is None:
        proc.kill()
        raise SystemExit(f"server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}")
    if "--metrics" in options:  # its figures' address comes on the next line
        shown = re.search(r"Metrics at (http://\S+)", proc.stdout.readline())
        if shown is not None:
            METRICS_AT[proc.pid] = shown.group(1)
    return proc, int(match.group(1))


METRICS_AT: dict[int, str] = {}  # server process -> its /metrics URL (--metrics-ab)
METRICS = ("--metrics", "127.0.0.1:0")
SCRAPE_EVERY = 15.0  # seconds between two scrapes of a server's figures (examples/deploy/prometheus/scrape.yml)


def scrape(urls: list[str], stop: threading.Event, scrapes: list[int], every: float) -> None:
    """Ask each server for its figures every ``every`` seconds, as Prometheus does."""
    while not stop.wait(every):
        for url in urls:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(url, trust_env=False, timeout=10).raise_for_status()
                scrapes[0] += 1


def known_options(cmd: list[str], env: dict[str, str], extra: tuple[str, ...]) -> list[str]:
    """``extra`` (option and value pairs) without the options an older revision's ``serve`` does
    not take (``--against``: its caps are off with the options it knows)."""
    wide = {**env, "COLUMNS": "200"}  # option names whole in the help table
    shown = subprocess.run([*cmd, "--help"], env=wide, capture_output=True, text=True, check=False).stdout
    pairs = zip(extra[::2], extra[1::2], strict=True)
    return [part for name, value in pairs if name in shown for part in (name, value)]


def wait_ready(bases: list[str], limit: float = 120.0) -> None:
    """Until every server answers ``/readyz`` (it prints its address before it listens)."""
    give_up = time.monotonic() + limit
    for base in bases:
        while True:
            try:
                if httpx.get(f"http://{base}/readyz", trust_env=False, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > give_up:
                raise SystemExit(f"the server at {base} never became ready")
            time.sleep(0.2)


def cpu_seconds(pid: int) -> float | None:
    split = cpu_split(pid)
    return None if split is None else split[0] + split[1]


def cpu_split(pid: int) -> tuple[float, float] | None:
    """A process's CPU seconds so far, in user mode and in the kernel (its syscalls, and the
    loopback TCP delivery a send does on the sender's time)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def kernel_share(before: list[tuple[float, float] | None], after: list[tuple[float, float] | None]) -> float:
    """The kernel's share of some processes' CPU between two readings of :func:`cpu_split`."""
    user = kernel = 0.0
    for a, b in zip(before, after, strict=True):
        if a is not None and b is not None:
            user += b[0] - a[0]
            kernel += b[1] - a[1]
    return kernel / max(1e-9, user + kernel)


def pids_named(name: str) -> list[int]:
    """Every process whose command is ``name`` (PostgreSQL's backends, say)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def cpu_of(pids: list[int]) -> float:
    return sum(c for c in (cpu_seconds(p) for p in pids) if c is not None)


# -- a lean WebSocket client ------------------------------------------------------------------
class Closed(Exception):
    """The socket closed (by the server, or the connection dropped)."""


class LeanSocket(asyncio.Protocol):
    """A WebSocket client of the few parts this benchmark uses, on asyncio's protocol API.

    The ``websockets`` client cost about 1.2 ms of CPU a move (measured), as much as the server it
    measured on the same two cores. This one parses the server's unfragmented text frames from
    one buffer and masks its own frames with the zero key (RFC 6455 lets a client choose any key;
    XOR with zero leaves the payload as it is, so nothing is copied byte by byte). It has the
    methods :func:`seat_moves` uses of a ``websockets`` connection (``send``, ``recv``, ``async
    for``, ``wait_closed``), so bench/abuse.py's clients on ``websockets`` share that function.
    """

    def __init__(self, host: str, path: str) -> None:
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self._transport: Any = None  # an asyncio.Transport (uvloop's is one without subclassing it)
        self._buf = bytearray()
        self._inbox: deque[bytes] = deque()
        self._waiter: asyncio.Future[None] | None = None

    # asyncio's protocol callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport
        self._transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        buf = self._buf
        buf += data
        if not self.opened.done():
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")])
            del buf[: end + 4]
            if b" 101 " not in status:
                self.opened.set_exception(Closed(status.decode(errors="replace")))
                self._finish()
                return
            self.opened.set_result(None)
        while len(buf) >= 2:
            n = buf[1] & 0x7F
            start = 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, start = int.from_bytes(buf[2:4]), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, start = int.from_bytes(buf[2:10]), 10
            if len(buf) < start + n:
                return
            opcode = buf[0] & 0x0F
            payload = bytes(buf[start : start + n])
            del buf[: start + n]
            if opcode in (1, 2):
                self._inbox.append(payload)
                self._wake()
            elif opcode == 9:  # ping: pong
                self._frame(10, payload)
            elif opcode == 8:  # close: answered, then the server closes the TCP connection
                self._frame(8, payload[:2])
                self._finish()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish()

    def _finish(self) -> None:
        if not self.opened.done():
            self.opened.set_exception(Closed("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)
        if self._transport is not None:
            self._transport.close()
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _frame(self, opcode: int, payload: bytes) -> None:
        if self._transport is None or self._transport.is_closing():
            raise Closed("the socket is closed")
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 1 << 16:
            head = bytes((0x80 | opcode, 0xFE)) + n.to_bytes(2)
        else:
            head = bytes((0x80 | opcode, 0xFF)) + n.to_bytes(8)
        self._transport.write(head + b"\0\0\0\0" + payload)

    # what seat_moves uses
    async def send(self, message: str | bytes) -> None:
        self._frame(1, message.encode() if isinstance(message, str) else message)

    async def recv(self) -> bytes:
        while not self._inbox:
            if self.closed.done():
                raise Closed("the socket is closed")
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._inbox.popleft()

    def __aiter__(self) -> LeanSocket:
        return self

    async def __anext__(self) -> bytes:
        return await self.recv()

    async def wait_closed(self) -> None:
        await asyncio.shield(self.closed)

    def close(self) -> None:
        if self._transport is not None and not self._transport.is_closing():
            with contextlib.suppress(Closed):
                self._frame(8, (1000).to_bytes(2))
        self._finish()


@contextlib.asynccontextmanager
async def lean_connect(base: str, path: str, timeout: float = 60.0) -> AsyncIterator[LeanSocket]:
    host, _, port = base.rpartition(":")
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        _, sock = await loop.create_connection(lambda: LeanSocket(base, path), host, int(port))
        await sock.opened
    try:
        yield sock
    finally:
        sock.close()


class _HTTPConnection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection of :class:`LeanHTTP`: a request at a time."""

    def __init__(self) -> None:
        self.transport: Any = None
        self.buf = bytearray()
        self.answer: asyncio.Future[tuple[int, bytes, bool]] | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(Closed("the server closed the connection"))

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        end = buf.find(b"\r\n\r\n")
        if end < 0 or self.answer is None or self.answer.done():
            return
        head = bytes(buf[:end]).lower()
        size = 0
        for line in head.split(b"\r\n"):
            if line.startswith(b"content-length:"):
                size = int(line[15:])
        if len(buf) < end + 4 + size:
            return
        body = bytes(buf[end + 4 : end + 4 + size])
        del buf[: end + 4 + size]
        self.answer.set_result((int(head[9:12]), body, b"connection: close" not in head))

    async def request(self, data: bytes) -> tuple[int, bytes, bool]:
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(data)
        return await self.answer


class LeanHTTP:
    """The benchmark's HTTP client: JSON posted, JSON answered, keep-alive connections to one
    server, on asyncio's protocol API. httpx cost half of the clients' CPU with 1,000 seats
    (py-spy: its connection pool's bookkeeping on every request, and a failed ``import sniffio``
    each time httpcore asks which async library runs), for four requests a game."""

    EXPIRY = 1.0  # seconds an idle connection is used again: well within uvicorn's keep-alive of 5 s

    def __init__(self, base: str) -> None:
        host, _, port = base.rpartition(":")
        self._addr = (host, int(port))
        self._host = base.encode()
        self._idle: list[tuple[float, _HTTPConnection]] = []

    async def post(self, path: str, payload: Any) -> Any:
        """``payload`` posted to ``path``: the answer's JSON, whatever its status."""
        body = encode(payload)
        data = b"POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
            path.encode(),
            self._host,
            len(body),
            body,
        )
        async with asyncio.timeout(60):
            while True:
                conn = self._take()
                fresh = conn is None
                if conn is None:
                    loop = asyncio.get_running_loop()
                    _, conn = await loop.create_connection(_HTTPConnection, *self._addr)
                try:
                    _, answer, keep = await conn.request(data)
                except Closed:
                    if fresh:
                        raise
                    continue  # an idle connection the server closed meanwhile: again on a new one
                if keep:
                    self._idle.append((time.monotonic(), conn))
                else:
                    conn.transport.close()
                return decode(answer)

    def _take(self) -> _HTTPConnection | None:
        now = time.monotonic()
        while self._idle:
            since, conn = self._idle.pop()
            if not conn.closed and now - since < self.EXPIRY:
                return conn
            conn.transport.close()
        return None

    async def aclose(self) -> None:
        for _, conn in self._idle:
            conn.transport.close()
        self._idle.clear()


# -- the clients ------------------------------------------------------------------------------
async def play_seat(run: Run, table: str, seat: int, token: str, index: int) -> None:
    """One seat until its game ends: reconnects (to the next process alive) when its socket drops."""
    stats = run.stats
    attempt = 0
    sent: dict[int, list[str]] = {}  # version -> the moves this seat sent at it, over every connection
    while True:
        base = run.base(index + attempt)
        try:
            async with lean_connect(base, f"/ws/{table}") as ws:
                stats.open_now += 1
                stats.max_open = max(stats.max_open, stats.open_now)
                try:
                    await seat_moves(run, ws, table, seat, token, sent)
                    return
                finally:
                    stats.open_now -= 1
        except (Closed, OSError, TimeoutError):
            if run.stopping:
                return
            if run.kill_at is None or time.time() < run.kill_at:
                stats.errors["connection lost"] += 1
            stats.reconnects += 1
            attempt += 1
            await asyncio.sleep(0.2 * run.rng.random())


async def seat_moves(run: Run, ws: Any, table: str, seat: int, token: str, sent: dict[int, list[str]]) -> None:
    closed = asyncio.ensure_future(ws.wait_closed())
    try:
        await _seat_moves(run, ws, table, seat, token, sent, closed)
    finally:
        closed.cancel()


class SeatView(msgspec.Struct):
    """What a client reads of a seat's view: the rest of it is skipped unbuilt."""

    is_over: bool = False
    legal_moves: list[str] = []


class ServerFrame(msgspec.Struct):
    """What a client reads of the server's messages (docs/protocol.md): a typed decoder skips
    every other field (the view's cards, the table, the live state) without building dicts for
    them, at a fraction of decoding the whole message."""

    type: str
    version: int = -1
    code: str = ""
    message: str = ""  # an error's words (bench/rolling.py shows what a refusal said)
    by: Any = None
    view: SeatView | None = None


read_frame = msgspec.json.Decoder(ServerFrame).decode


async def _seat_moves(
    run: Run, ws: Any, table: str, seat: int, token: str, sent: dict[int, list[str]], closed: asyncio.Future[None]
) -> None:
    stats = run.stats
    recent: deque[float] = deque()  # when this seat sent its last messages: stay under the rate limit
    await ws.send(encode({"type": "hello", "token": token, "seat": seat, "last_seq": 0}))
    sent_at: float | None = None
    sent_version = -1
    sent_move = ""
    async for raw in ws:
        msg = read_frame(raw)
        kind = msg.type
        stats.frames[kind] += 1
        stats.frame_bytes[kind] += len(raw)
        if kind == "error":
            stats.errors[msg.code] += 1
            sent_at = None
            await ws.send(b'{"type": "resync"}')
            continue
        view = msg.view
        if view is None or kind not in ("snapshot", "update"):
            continue
        now = time.time()
        if kind == "update" and run.kill_at is not None:
            around = stats.around_kill.setdefault(table, [0.0, 0.0])
            if now < run.kill_at:
                around[0] = now
            elif around[1] == 0.0:
                around[1] = now
        if sent_at is not None and msg.version > sent_version:
            # acknowledged: the next version, not made by a stand-in, so by this seat's own move
            if kind == "update" and msg.version == sent_version + 1 and msg.by is None:
                stats.acked.append((table, sent_version, tuple(sent.pop(sent_version, [sent_move]))))
            if sent_at >= run.measure_from and now <= run.deadline:
                stats.latencies.append(now - sent_at)
            sent_at = None
        if view.is_over:
            if seat == 0:
                stats.game_moves.append(msg.version)
            return
        if run.stopping:
            if sent_at is None:
                return
            continue
        legal = view.legal_moves
        if legal and sent_at is None:
            if run.think:  # a socket that closes meanwhile is noticed at once, as a page hears it
                await asyncio.wait({closed}, timeout=run.think * (0.5 + run.rng.random()))
                if closed.done():
                    await ws.recv()  # raises ConnectionClosed
            t = time.time()
            while recent and t - recent[0] >= 1.0:
                recent.popleft()
            if len(recent) >= MAX_PER_SECOND:
                await asyncio.sleep(recent[0] + 1.0 - t)
            sent_version = msg.version
            sent_move = run.rng.choice(legal)
            sent.setdefault(sent_version, []).append(sent_move)
            sent_at = time.time()
            recent.append(sent_at)
            await ws.send(encode({"type": "move", "move": sent_move, "version": sent_version}))


async def run_table(run: Run, clients: list[LeanHTTP], index: int) -> None:
    # tables open one after another over the first half of the warm-up, as on a site filling up
    await asyncio.sleep(max(0.0, run.measure_from - time.time()) * 0.5 * run.rng.random())
    while not run.stopping:
        try:
            creator = run.bases.index(run.base(index))
            http = clients[creator]
            created = await http.post("/api/tables", {"game": "mau-mau", "seats": [{"kind": "human"}] * 4, "name": "A"})
            creds = [(0, created["token"])]
            invite = {"invite": created["invite_secret"]}  # a private table: joined through its invite
            for k, name in enumerate(("B", "C", "D")):
                joiner = clients[run.bases.index(run.base(index + k + 1))]
                joined = await joiner.post(f"/api/tables/{created['table']}/join", {"name": name, **invite})
                creds.append((joined["seat"], joined["token"]))
            await asyncio.gather(*(play_seat(run, created["table"], s, t, index + s) for s, t in creds))
            run.stats.games += 1
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not (run.kill_at is not None and abs(time.time() - run.kill_at) < 10):
                run.stats.errors[f"{type(exc).__name__}: {exc!r}"[:100]] += 1
            else:
                run.stats.errors["request during the kill"] += 1
            await asyncio.sleep(0.5)


async def drive(run: Run, first_table: int, tables: int) -> Stats:
    clients = [LeanHTTP(base) for base in run.bases]
    try:
        tasks = [asyncio.create_task(run_table(run, clients, first_table + i)) for i in range(tables)]
        await asyncio.sleep(max(0.0, run.deadline - time.time()))
        run.stopping = True  # moves in flight finish, then every seat leaves
        _, pending = await asyncio.wait(tasks, timeout=10)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    finally:
        for client in clients:
            await client.aclose()
    return run.stats


def client_process(run: Run, first_table: int, tables: int, out: Any) -> None:
    gc.collect()
    gc.freeze()
    gc.disable()  # the client's own collector pauses would count as server latency
    loop_factory: Callable[[], asyncio.AbstractEventLoop] = asyncio.new_event_loop
    with contextlib.suppress(ImportError):
        from uvloop import new_event_loop as loop_factory
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        out.put(runner.run(drive(run, first_table, tables)))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- PostgreSQL and Redis ---------------------------------------------------------------------
def start_redis() -> tuple[str, int | None]:
    out = subprocess.run(["sh", str(ROOT / "scripts" / "start-redis.sh")], capture_output=True, text=True, check=True)
    url = out.stdout.strip()
    if not url:
        raise SystemExit("several processes need Redis: --redis URL, or Debian's redis-server installed")
    match = re.search(r"pid file (\S+)", out.stderr)
    pid = int(Path(match.group(1)).read_text().strip()) if match else None
    return url, pid


def stop_redis(pid: int | None) -> None:
    if pid is not None:
        os.kill(pid, signal.SIGTERM)


def pg_counters(url: str, schema: str) -> tuple[int, float]:
    """Rows written to the benchmark's schema, and the CPU seconds of the PostgreSQL backends
    serving the benchmark's servers (found by their application_name; the database server is
    shared with other users of this machine, so nothing wider is counted)."""
    from sqlalchemy import create_engine, text

    from mauseloch.server.storage.store import normalise_url

    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables"
                " WHERE schemaname = :s"
            ),
            {"s": schema},
        ).scalar()
        pids = [
            r[0]
            for r in conn.execute(text("SELECT pid FROM pg_stat_activity WHERE application_name = :a"), {"a": schema})
        ]
    engine.dispose()
    return int(rows or 0), cpu_of(pids)


def redis_counters(url: str, pid: int | None) -> tuple[int, float]:
    import redis

    client = redis.Redis.from_url(url)
    stats = client.info("stats")
    client.close()
    return int(stats["total_commands_processed"]), (cpu_seconds(pid) or 0.0) if pid else 0.0


def fresh_schema(url: str) -> tuple[str, str]:
    """A schema of its own in the benchmark's PostgreSQL database (dropped afterwards)."""
    from sqlalchemy import create_engine, text

    from mauseloch.server.storage.store import normalise_url

    schema = f"bench_{os.getpid()}_{int(time.time())}"
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    joined = f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}&application_name={schema}"
    return joined, schema


BENCH_REDIS_DBS = range(15, 9, -1)  # the Redis databases a run may take (tests use 0)
CLAIM = "bench:run"


def fresh_redis_db(url: str) -> str:
    """``url`` with a Redis database of the run's own: the servers' keys (``ml:live``, the owners)
    are per database, and a run that shares one inherits the unfinished tables an earlier or a
    concurrent run left there (its servers take them over and play them with stand-ins, on the
    run's CPU, uncounted). The first of :data:`BENCH_REDIS_DBS` that is empty, claimed with a key;
    :func:`drop_redis_db` empties it after the run."""
    import redis

    parts = urlsplit(url)
    for n in BENCH_REDIS_DBS:
        candidate = urlunsplit(parts._replace(path=f"/{n}"))
        client = redis.Redis.from_url(candidate)
        try:
            if client.dbsize() == 0 and client.set(CLAIM, os.getpid(), nx=True):
                return candidate
        finally:
            client.close()
    raise SystemExit(f"no empty Redis database among {list(BENCH_REDIS_DBS)} at {url} for the run")


def drop_redis_db(url: str) -> None:
    """The keys of the run's Redis database (:func:`fresh_redis_db`) deleted: its servers' and the claim."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter("ml:*", count=1000))
        for i in range(0, len(keys), 1000):
            client.delete(*keys[i : i + 1000])
        client.delete(CLAIM)
    finally:
        client.close()


def drop_schema(url: str, schema: str) -> None:
    from sqlalchemy import create_engine, text

    from mauseloch.server.storage.store import normalise_url

    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


def lost_moves(db: str, acked: list[tuple[str, int, tuple[str, ...]]]) -> list[tuple[str, int, str, str | None]]:
    """Acknowledged moves the database does not hold at their version (where the seat sent
    several moves at one version, the stored one must be one of them)."""
    from mauseloch.server.storage.store import Store

    store = Store(db)
    try:
        by_table: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for table, version, moves in acked:
            by_table.setdefault(table, []).append((version, moves))
        lost: list[tuple[str, int, str, str | None]] = []
        for table, answered in by_table.items():
            row = store.load_table(table)
            stored = [m[1] for m in row.moves] if row is not None else []
            for v, sent in answered:
                if v >= len(stored) or stored[v].lower() not in {m.lower() for m in sent}:
                    lost.append((table, v, " or ".join(sent), stored[v] if v < len(stored) else None))
        return lost
    finally:
        store.close()


# -- one run ------------------------------------------------------------------------------------
def bench(
    seats: int,
    duration: float,
    warmup: float,
    think_ms: float,
    seed: int,
    profile: str | None = None,
    db: str | None = None,
    processes: int = 1,
    redis_url: str | None = None,
    redis_pid: int | None = None,
    client_procs: int = 2,
    kill_after: float | None = None,
    source: str | None = None,
    server_cmd: list[str] | None = None,
    metrics: bool = False,
    scrape_every: float = SCRAPE_EVERY,
) -> dict[str, Any]:
    """One run; ``server_cmd``: serve with that script instead of ``mauseloch serve`` (see
    :func:`start_server`)."""
    tables = max(1, seats // SEATS_PER_TABLE)
    with tempfile.TemporaryDirectory() as tmp:
        schema = None
        if db is None:
            db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        elif db.startswith("postgres"):
            base_db = db
            db, schema = fresh_schema(db)
        shared = fresh_redis_db(redis_url) if processes > 1 and redis_url else None
        procs = [
            start_server(
                db, profile if i == 0 else None, shared, NO_CAPS + METRICS if metrics else NO_CAPS, source, server_cmd
            )
            for i in range(processes)
        ]
        bases = [f"127.0.0.1:{port}" for _, port in procs]
        pg = db.startswith("postgres")
        try:
            wait_ready(bases)  # inside: servers that never became ready are stopped too
            start = time.time() + 1.0
            run = Run(
                bases=bases,
                measure_from=start + warmup,
                deadline=start + warmup + duration,
                think=think_ms / 1000,
                rng=random.Random(seed),
                kill_at=None if kill_after is None else start + warmup + kill_after,
            )
            ctx = multiprocessing.get_context("fork")
            out = ctx.Queue()
            share = [tables // client_procs + (1 if i < tables % client_procs else 0) for i in range(client_procs)]
            workers = []
            first = 0
            for i, n in enumerate(share):
                mine = Run(**{**run.__dict__, "rng": random.Random(seed * 1000 + i), "stats": Stats(), "dead": set()})
                workers.append(ctx.Process(target=client_process, args=(mine, first, n, out)))
                first += n
            pg0 = pg_counters(db, schema) if schema else None
            redis0 = redis_counters(shared, redis_pid) if shared else None
            for w in workers:
                w.start()
            # CPU over the measured window only (the warm-up opens the tables): the servers' and the
            # clients' from /proc, read at its start and its end
            time.sleep(max(0.0, run.measure_from - time.time()))
            scrapes = [0]
            scraping = threading.Event()
            urls = [METRICS_AT[p.pid] for p, _ in procs if p.pid in METRICS_AT]
            scraper = threading.Thread(target=scrape, args=(urls, scraping, scrapes, scrape_every), daemon=True)
            if urls:
                scraper.start()
            cpu0 = [cpu_seconds(p.pid) for p, _ in procs]
            split0 = cpu_split(procs[0][0].pid)
            client0 = [cpu_seconds(w.pid) for w in workers if w.pid is not None]
            client_split0 = [cpu_split(w.pid) for w in workers if w.pid is not None]
            killed_cpu: float | None = None
            if run.kill_at is not None:
                time.sleep(max(0.0, run.kill_at - time.time()))
                killed_cpu = cpu_seconds(procs[0][0].pid)
                procs[0][0].send_signal(signal.SIGKILL)
            time.sleep(max(0.0, run.deadline - time.time()))
            cpu1 = [cpu_seconds(p.pid) for p, _ in procs]
            scraping.set()
            split1 = cpu_split(procs[0][0].pid)
            client1 = [cpu_seconds(w.pid) for w in workers if w.pid is not None]
            client_split1 = [cpu_split(w.pid) for w in workers if w.pid is not None]
            if killed_cpu is not None:
                cpu1[0] = killed_cpu
            results = [out.get() for _ in workers]
            for w in workers:
                w.join()
            time.sleep(1.0)  # PostgreSQL publishes its table statistics about once a second
            pg1 = pg_counters(db, schema) if schema else None
            redis1 = redis_counters(shared, redis_pid) if shared else None
            alive = [p.poll() is None for p, _ in procs]
            lost = lost_moves(db, [a for s in results for a in s.acked]) if kill_after is not None else None
        finally:
            errs = []
            for proc, _ in procs:  # all at once: one stopping first would hand its tables to the others
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)  # graceful: uvicorn closes the sockets, the profile is written
            for proc, _ in procs:
                try:
                    _, err = proc.communicate(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    _, err = proc.communicate()
                errs.append(err)
            if schema is not None:
                drop_schema(base_db, schema)
            if shared is not None:
                drop_redis_db(shared)
    stats = Stats()
    for s in results:
        stats.latencies += s.latencies
        stats.errors.update(s.errors)
        stats.games += s.games
        stats.max_open += s.max_open
        stats.reconnects += s.reconnects
        stats.around_kill.update(s.around_kill)
        stats.acked += s.acked
        stats.frames.update(s.frames)
        stats.frame_bytes.update(s.frame_bytes)
        stats.game_moves += s.game_moves
    window = max(1e-9, duration)
    server_s = [b - a if a is not None and b is not None else 0.0 for a, b in zip(cpu0, cpu1, strict=True)]
    client_s = sum(b - a for a, b in zip(client0, client1, strict=True) if a is not None and b is not None)
    lat = [x * 1000 for x in stats.latencies]
    moves_all = len(lat)
    if os.environ.get("BENCH_SERVER_ENTRY"):
        print(*errs, file=sys.stderr)
    result: dict[str, Any] = {
        "seats": seats,
        "processes": processes,
        "store": "postgresql" if pg else "sqlite",
        "redis": shared is not None,
        "client_procs": client_procs,
        "tables": tables,
        "think_ms": think_ms,
        "connected": stats.max_open,
        "moves": moves_all,
        "moves_per_s": moves_all / window,
        "p50_ms": percentile(lat, 0.50),
        "p90_ms": percentile(lat, 0.90),
        "p99_ms": percentile(lat, 0.99),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "max_ms": max(lat) if lat else float("nan"),
        "games": stats.games,
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        # CPU in the measured window: a share of one core, and microseconds a move answered in it
        "server_cpu": sum(server_s) / window,
        "client_cpu": client_s / window,
        "server_cpu_us_per_move": sum(server_s) * 1e6 / max(1, moves_all),
        "server_cpu_us_per_move_by_process": [c * 1e6 / max(1, moves_all) for c in server_s],
        "client_cpu_us_per_move": client_s * 1e6 / max(1, moves_all),
        # the first server's, split into user mode and the kernel's share (syscalls, loopback TCP)
        "client_kernel_share": kernel_share(client_split0, client_split1),
        "server0_kernel_share": (split1[1] - split0[1]) / max(1e-9, sum(split1) - sum(split0))
        if split0 is not None and split1 is not None
        else float("nan"),
        "servers_alive": alive,
        "server_log": [line for err in errs for line in err.splitlines() if line.strip()][-5:],
        "takeovers": sum(err.count(" took over table ") for err in errs),  # tables that changed owner
        "leases_lost": sum(err.count(" lost the lease ") for err in errs),  # by a process that lived on
        # what the clients were sent over the whole run: frames and mean bytes by type, moves a game
        "frames": dict(stats.frames),
        "frame_mean_bytes": {k: stats.frame_bytes[k] / n for k, n in stats.frames.items()},
        "game_moves_mean": statistics.fmean(stats.game_moves) if stats.game_moves else float("nan"),
        "metrics": metrics,
        "metrics_scrapes": scrapes[0],
    }
    moves_total = max(1, len(stats.acked))  # every move answered during the run, warm-up included
    result["moves_in_run"] = len(stats.acked)
    if pg0 is not None and pg1 is not None:
        result["pg_rows_per_move"] = (pg1[0] - pg0[0]) / moves_total
        result["pg_cpu_ms_per_move"] = (pg1[1] - pg0[1]) * 1000 / moves_total
    if redis0 is not None and redis1 is not None:
        result["redis_cmds_per_move"] = (redis1[0] - redis0[0]) / moves_total
        result["redis_cpu_ms_per_move"] = (redis1[1] - redis0[1]) * 1000 / moves_total
    if kill_after is not None and run.kill_at is not None:
        gaps = [after - run.kill_at for before, after in stats.around_kill.values() if before and after]
        result["killed_at_s"] = kill_after
        result["lost"] = len(lost or [])
        result["lost_moves"] = (lost or [])[:10]  # (table, version, move acknowledged, move stored)
        result["resume_max_s"] = max(gaps) if gaps else float("nan")
        result["resume_p50_s"] = percentile(gaps, 0.5)
        result["resume_p90_s"] = percentile(gaps, 0.9)
        result["reconnects"] = stats.reconnects
    return result


def report(columns: list[tuple[str, int, Any]], r: dict[str, Any]) -> None:
    """One run's line of the table, and what went wrong in it."""
    print(" ".join(f"{f(r):>{w}}" for _, w, f in columns), flush=True)
    if r["error_kinds"]:
        print(f"       errors: {r['error_kinds']}")
    if r["takeovers"] or r["leases_lost"]:
        print(f"       tables taken over: {r['takeovers']}, leases lost by a live one: {r['leases_lost']}")
    if "lost" in r:
        print(
            f"       SIGKILL of one process at {r['killed_at_s']:.0f} s: {r['lost']} acknowledged moves lost,"
            f" every table moved again within {r['resume_max_s']:.2f} s (median {r['resume_p50_s']:.2f} s,"
            f" 90 % within {r['resume_p90_s']:.2f} s), {r['reconnects']} reconnects"
        )
    for table, version, acked, stored in r.get("lost_moves", []):
        print(f"       lost: table {table} version {version}: {acked} acknowledged, {stored} stored")
    if not all(r["servers_alive"]) and "lost" not in r:
        print("       a server died:", *r["server_log"], sep="\n       ")


def checkout(rev: str, into: Path) -> str:
    """The package's source at git revision ``rev``, unpacked into ``into`` (the repository and
    its work tree are left as they are); the folder to put on the server's PYTHONPATH."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return str(into / "src")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[200], help="client seats (4 per table); several runs")
    parser.add_argument("--processes", type=int, nargs="+", default=[1], help="server processes; several runs")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds each run is measured")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before a client moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db",
        help="database URL for the servers (default: a temporary SQLite file for one "
        "process, $MAUSELOCH_TEST_PG_URL for several)",
    )
    parser.add_argument("--redis", help="Redis URL for several processes (default: start a redis-server)")
    parser.add_argument("--client-procs", type=int, default=2, help="client processes the seats are spread over")
    parser.add_argument("--kill-after", type=float, help="SIGKILL the first server this many seconds into the window")
    parser.add_argument("--profile", metavar="FILE", help="run the (first) server under cProfile, writing FILE")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also run each configuration with the server of git revision REV, just before, and print the ratios",
    )
    parser.add_argument(
        "--after",
        metavar="REV",
        help="with --against: the after side is git revision REV, not the work tree (others' edits left out)",
    )
    parser.add_argument(
        "--metrics-ab",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="run each configuration ROUNDS times without and with serve --metrics (scraped every 15 s),"
        " side by side, and print the ratio of the servers' CPU a move",
    )
    parser.add_argument(
        "--scrape-every", type=float, default=SCRAPE_EVERY, help="with --metrics-ab: seconds between two scrapes"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    if args.metrics_ab and (args.against or args.after):
        parser.error("--metrics-ab compares the work tree with itself: not with --against or --after")
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    columns = [  # heading, width, value
        ("server", 8, lambda r: r["server"][:8]),
        ("procs", 5, lambda r: str(r["processes"])),
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
        ("srv cpu", 7, lambda r: f"{r['server_cpu'] * 100:.0f}%"),
        ("cli cpu", 7, lambda r: f"{r['client_cpu'] * 100:.0f}%"),
        ("srv µs/mv", 9, lambda r: f"{r['server_cpu_us_per_move']:.0f}"),
        ("cli µs/mv", 9, lambda r: f"{r['client_cpu_us_per_move']:.0f}"),
        ("pg rows/mv", 10, lambda r: f"{r['pg_rows_per_move']:.2f}" if "pg_rows_per_move" in r else "-"),
        ("pg ms/mv", 8, lambda r: f"{r['pg_cpu_ms_per_move']:.2f}" if "pg_cpu_ms_per_move" in r else "-"),
        ("rd cmd/mv", 9, lambda r: f"{r['redis_cmds_per_move']:.1f}" if "redis_cmds_per_move" in r else "-"),
        ("rd ms/mv", 8, lambda r: f"{r['redis_cpu_ms_per_move']:.3f}" if "redis_cpu_ms_per_move" in r else "-"),
    ]
    needs_pg = max(args.processes) > 1
    db = args.db or (os.environ.get("MAUSELOCH_TEST_PG_URL") if needs_pg else None)
    if needs_pg and not (db and db.startswith("postgres")):
        raise SystemExit("several processes share PostgreSQL: --db postgresql://... (or $MAUSELOCH_TEST_PG_URL)")
    redis_url, redis_pid = args.redis, None
    if needs_pg and redis_url is None:
        redis_url, redis_pid = start_redis()
    results = []
    print(" ".join(f"{h:>{w}}" for h, w, _ in columns))
    old_tree = tempfile.TemporaryDirectory() if args.against else None
    new_tree = tempfile.TemporaryDirectory() if args.after else None
    try:
        sources: list[tuple[str, str | None]] = [("tree", None)]
        if new_tree is not None:
            sources = [(args.after, checkout(args.after, Path(new_tree.name)))]
        if old_tree is not None:
            sources.insert(0, (args.against, checkout(args.against, Path(old_tree.name))))
        for seats in args.seats:
            for processes in args.processes:
                pair = []

                def one(
                    source: str | None, metrics: bool, seats: int = seats, processes: int = processes
                ) -> dict[str, Any]:
                    return bench(
                        seats,
                        args.duration,
                        args.warmup,
                        args.think_ms,
                        args.seed,
                        args.profile,
                        db,
                        processes,
                        redis_url,
                        redis_pid,
                        args.client_procs,
                        args.kill_after if processes > 1 else None,
                        source,
                        metrics=metrics,
                        scrape_every=args.scrape_every,
                    )

                if args.metrics_ab:
                    # without and with the figures side by side, each with its own clients and
                    # database: whatever else the machine does meanwhile, both sides meet it
                    for _ in range(args.metrics_ab):
                        with ThreadPoolExecutor(2) as pool:
                            both = list(pool.map(lambda m: one(None, m), (False, True)))
                        for metrics, r in zip((False, True), both, strict=True):
                            r["server"] = "metrics" if metrics else "plain"
                            pair.append(r)
                            results.append(r)
                            report(columns, r)
                else:
                    for name, source in sources:
                        r = one(source, False)
                        r["server"] = name
                        pair.append(r)
                        results.append(r)
                        report(columns, r)
                if args.metrics_ab:  # with the figures counted and scraped against without, side by side
                    plain = [r for r in pair if not r["metrics"]]
                    counted = [r for r in pair if r["metrics"]]
                    cost = [sum(r["server_cpu_us_per_move"] * r["moves"] for r in side) for side in (plain, counted)]
                    moves = [sum(r["moves"] for r in side) for side in (plain, counted)]
                    ratio = (cost[1] / max(1, moves[1])) / max(1e-9, cost[0] / max(1, moves[0]))
                    each = [
                        next(r for r in two if r["metrics"])["server_cpu_us_per_move"]
                        / max(1e-9, next(r for r in two if not r["metrics"])["server_cpu_us_per_move"])
                        for two in (pair[i : i + 2] for i in range(0, len(pair), 2))
                    ]
                    pair[-1]["metrics_ab"] = {
                        "rounds": args.metrics_ab,
                        "server_cpu_us_per_move_ratio": ratio,
                        "ratio_by_round": each,
                        "ratio_median": statistics.median(each),
                    }
                    print(
                        f"       with metrics against without ({args.metrics_ab} rounds side by side): server µs/move"
                        f" x{ratio:.3f} (each round: {', '.join(f'x{r:.3f}' for r in each)})"
                    )
                elif len(pair) == 2:  # the work tree against the revision, measured one after the other
                    before, after = pair
                    r["against"] = {
                        "rev": args.against,
                        **{
                            f"{key}_ratio": after[key] / before[key] if before[key] else float("nan")
                            for key in ("server_cpu_us_per_move", "client_cpu_us_per_move", "p50_ms", "p99_ms")
                        },
                    }
                    ratios = r["against"]
                    print(
                        f"       against {args.against}: server µs/move x{ratios['server_cpu_us_per_move_ratio']:.2f},"
                        f" p50 x{ratios['p50_ms_ratio']:.2f}, p99 x{ratios['p99_ms_ratio']:.2f}"
                    )
    finally:
        stop_redis(redis_pid)
        for tree in (old_tree, new_tree):
            if tree is not None:
                tree.cleanup()
    if args.json:
        print_json({"runs": results}, out)


if __name__ == "__main__":
    main()
