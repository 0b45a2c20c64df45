"""The floor of a move's server CPU on this machine: bench/server.py's traffic, served by almost nothing.

bench/server.py measures the real server (``mauseloch serve``) a move. This script serves the
same traffic from the leanest server it can be: uvloop, one raw asyncio protocol per connection,
HTTP and WebSocket framing by hand, every frame it sends built before the run, no engine, no
views, no timers. Per game it answers an HTTP create and three joins and four WebSocket
handshakes, sends each seat a snapshot on its hello and a presence frame to the seats already
there; per move it reads one frame, writes one update to each of the four seats, and INSERTs the
move into SQLite (WAL, ``synchronous=NORMAL`` as the real server) on one held connection with
one commit per loop tick for every write of that tick, the acknowledgement sent after it. The
frames have the real server's sizes and a game its number of moves: measured from the real
server's run just before, in the same invocation (or the defaults below with ``--no-real``).
With ``--db postgresql://…`` both servers write to PostgreSQL (the floor: a tick's rows in one
pipelined transaction on a held libpq connection); with ``--processes 2`` (and ``--redis``)
both run as a cluster without sticky sessions: a floor table lives on the process that created
it, and the joins, hellos and moves that reach another process go to it through Redis pub/sub,
the frames for that process's seats back (one PUBLISH a process and loop tick).

The clients are bench/server.py's own (imported): so ``floor_server_cpu_us_per_move`` is what
the syscalls, the loopback TCP, the SQLite commit and a minimal Python loop cost here, beside
the real server's ``server_cpu_us_per_move`` in the same run. A goal below the floor cannot be
met on this machine; the distance between the two is what the server's own code costs.

It also measures, in this process, the parts the issue's table of floors names: a ~2 KiB
frame written to N loopback TCP sockets (µs a write, by ``socket.send`` and by uvloop's
transport), an SQLite INSERT and COMMIT (alone, and a group commit of 16), a move's frame read
by the server's DirectWebSocket (through websockets' parser, and read by itself), and with
``--pg URL`` PostgreSQL's INSERT and COMMIT, in this process and in its backend, and with
``--redis URL`` a message through Redis pub/sub.

    .venv/bin/python bench/floor.py --seats 1000 --think-ms 600 --duration 20 --warmup 10
    .venv/bin/python bench/floor.py --seats 400 --think-ms 600 --no-real --json
    .venv/bin/python bench/floor.py --seats 1000 --no-real --moves-per-game 400 --pg postgresql://...
    .venv/bin/python bench/floor.py --seats 1000 --processes 2 --db postgresql://... --redis redis://...
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import hashlib
import itertools
import json
import math
import os
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))
import server as real  # bench/server.py: its clients and its run
from _report import print_json, text_to_stderr

WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC11B65"
SEATS = real.SEATS_PER_TABLE


@dataclass
class Traffic:
    """What the floor server sends: the real server's frame sizes and game length. The defaults
    are a real run's (``--seats 400 --think-ms 600``, 2026-12-04)."""

    snapshot_bytes: int = 2080
    update_bytes: int = 1090
    presence_bytes: int = 460
    moves_per_game: int = 17

    @classmethod
    def of(cls, run: dict[str, Any]) -> Traffic:
        """The traffic of a bench/server.py run (its frames' mean sizes, its games' mean length)."""
        mean = run["frame_mean_bytes"]
        t = cls()
        return cls(
            snapshot_bytes=round(mean.get("snapshot", t.snapshot_bytes)),
            update_bytes=round(mean.get("update", t.update_bytes)),
            presence_bytes=round(mean.get("presence", t.presence_bytes)),
            moves_per_game=t.moves_per_game if math.isnan(run["game_moves_mean"]) else round(run["game_moves_mean"]),
        )


# -- the frames, all built before the run ------------------------------------------------------
def frame(payload: bytes) -> bytes:
    """A server's text frame: unmasked, unfragmented."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 1 << 16:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


def padded(message: dict[str, Any], size: int) -> bytes:
    """``message`` as JSON, its view padded to ``size`` bytes (what bench/server.py's client reads
    of a view: ``is_over`` and ``legal_moves``; the rest is the size of the real one)."""
    bare = msgspec.json.encode(message)
    message["view"]["pad"] = "x" * max(0, size - len(bare) - 10)
    return msgspec.json.encode(message)


class Frames:
    """Every frame a game sends, by version and by whether its seat is the one to move."""

    def __init__(self, t: Traffic) -> None:
        def view(version: int, mover: bool) -> dict[str, Any]:
            over = version >= t.moves_per_game
            return {"is_over": over, "legal_moves": ["7H", "D"] if mover and not over else []}

        versions = range(t.moves_per_game + 1)
        self.update = [
            [frame(padded({"type": "update", "version": v, "view": view(v, m), "by": None}, t.update_bytes))
             for m in (False, True)]
            for v in versions
        ]  # fmt: skip
        self.snapshot = [
            [
                frame(padded({"type": "snapshot", "version": v, "view": view(v, m)}, t.snapshot_bytes))
                for m in (False, True)
            ]
            for v in versions
        ]
        presence = {"type": "presence", "live": {"pad": "x" * max(0, t.presence_bytes - 40)}}
        self.presence = frame(msgspec.json.encode(presence))
        self.moves_per_game = t.moves_per_game


# -- the server ----------------------------------------------------------------------------------
class Table:
    __slots__ = ("conns", "id", "joined", "over", "to_move", "tokens", "version")

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.joined = 1
        self.conns: list[Any] = [None] * SEATS  # a Conn here, a Remote on another process, or None
        self.version = 0
        self.to_move = 0
        self.over = False


SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, created DOUBLE PRECISION)",
    "CREATE TABLE IF NOT EXISTS seats (table_id TEXT, seat INTEGER, name TEXT, token TEXT,"
    " PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS moves (table_id TEXT, version INTEGER, seat INTEGER, move TEXT,"
    " at DOUBLE PRECISION, deadline DOUBLE PRECISION, PRIMARY KEY (table_id, version))",
)


class PgPipe:
    """One held PostgreSQL connection in libpq's pipeline mode, read by the loop's reader callback
    (as the real server's PgLink): the writes are sent as a segment (their statements and a sync,
    so one transaction, committed at the sync), one segment at a time: what comes meanwhile waits
    for the next, so that a segment holds more writes the longer a commit takes (the WAL's flush
    here takes milliseconds, and a connection's transactions flush one after the other). A
    segment's answers are sent when its sync comes back; then ``idle`` is called."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, idle: Any) -> None:
        import psycopg
        from psycopg import pq

        with psycopg.connect(url, autocommit=True) as conn:
            for statement in SCHEMA:
                conn.execute(statement)
        self.pq = pq
        self.pg = pq.PGconn.connect(url.encode())
        self.pg.nonblocking = 1
        self.pg.enter_pipeline_mode()
        self.loop = loop
        self.idle = idle
        self.segments: collections.deque[list[tuple[Any, ...]]] = collections.deque()
        self.writing = False
        loop.add_reader(self.pg.socket, self.readable)

    def send(self, statements: list[tuple[bytes, list[bytes]]], after: list[tuple[Any, ...]]) -> None:
        for sql, params in statements:
            self.pg.send_query_params(sql, params)
        self.pg.pipeline_sync()
        self.segments.append(after)
        if self.pg.flush() and not self.writing:  # the socket is full: the rest when it drains
            self.writing = True
            self.loop.add_writer(self.pg.socket, self.writable)

    def writable(self) -> None:
        if self.pg.flush() == 0:
            self.writing = False
            self.loop.remove_writer(self.pg.socket)

    def readable(self) -> None:
        pg = self.pg
        pg.consume_input()
        while self.segments and not pg.is_busy():
            result = pg.get_result()
            if result is None:  # a statement's results end
                continue
            if result.status == self.pq.ExecStatus.PIPELINE_SYNC:  # committed
                for then in self.segments.popleft():
                    then[0](*then[1:])
                if not self.segments:
                    self.idle()
            elif result.status not in (self.pq.ExecStatus.COMMAND_OK, self.pq.ExecStatus.TUPLES_OK):
                raise SystemExit(f"floor server: PostgreSQL refused a write: {result.error_message!r}")


class Server:
    """The state, the database connection and the group commit of one floor server."""

    def __init__(self, db_url: str, frames: Frames) -> None:
        self.frames = frames
        self.tables: dict[str, Table] = {}
        self.ids = itertools.count(1)
        self.loop = asyncio.get_event_loop()
        self.pipe = PgPipe(db_url, self.loop, self.commit) if db_url.startswith("postgres") else None
        if self.pipe is None:
            self.db = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            for statement in SCHEMA:
                self.db.execute(statement)
        self.tables_in: list[tuple[str, float]] = []
        self.seats_in: list[tuple[str, int, str, str]] = []
        self.moves_in: list[tuple[str, int, int, str, float, float]] = []
        self.after: list[tuple[Any, ...]] = []  # what to send once the tick's writes are committed
        self.scheduled = False
        self.cluster: Cluster | None = None
        self.prefix = "f"  # of table ids: the owning process's name in a cluster

    def later(self, *then: Any) -> None:
        self.after.append(then)
        if not self.scheduled:
            self.scheduled = True
            self.loop.call_soon(self.commit)

    def commit(self) -> None:
        """The tick's writes in one transaction, then their answers (acknowledged once committed)."""
        self.scheduled = False
        if self.pipe is not None:
            if self.pipe.segments or not self.after:  # the next segment when this one is committed
                return
            statements = [
                *((b"INSERT INTO tables VALUES ($1, $2)", [str(v).encode() for v in row]) for row in self.tables_in),
                *(
                    (b"INSERT INTO seats VALUES ($1, $2, $3, $4)", [str(v).encode() for v in row])
                    for row in self.seats_in
                ),
                *(
                    (b"INSERT INTO moves VALUES ($1, $2, $3, $4, $5, $6)", [str(v).encode() for v in row])
                    for row in self.moves_in
                ),
            ]
            self.tables_in, self.seats_in, self.moves_in = [], [], []
            after, self.after = self.after, []
            self.pipe.send(statements, after)
            return
        db = self.db
        db.execute("BEGIN")
        if self.tables_in:
            db.executemany("INSERT INTO tables VALUES (?, ?)", self.tables_in)
            self.tables_in = []
        if self.seats_in:
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)", self.seats_in)
            self.seats_in = []
        if self.moves_in:
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", self.moves_in)
            self.moves_in = []
        db.execute("COMMIT")
        after, self.after = self.after, []
        for then in after:
            then[0](*then[1:])

    # what the connections ask
    def create(self, conn: Conn, name: str) -> None:
        table_id = f"{self.prefix}{next(self.ids):07d}"
        tokens = [os.urandom(12).hex() for _ in range(SEATS)]
        self.tables[table_id] = Table(table_id, tokens)
        self.tables_in.append((table_id, time.time()))
        self.seats_in.append((table_id, 0, name, tokens[0]))
        body = msgspec.json.encode({"table": table_id, "seat": 0, "token": tokens[0], "invite_secret": tokens[0]})
        self.later(conn.respond, 200, body)

    def join(self, conn: Any, table_id: str, name: str) -> None:
        table = self.tables.get(table_id)
        if table is None and self.cluster is not None and self.cluster.elsewhere(table_id):
            self.cluster.forward_join(conn, table_id, name)
            return
        if table is None or table.joined >= SEATS:
            conn.respond(404, b'{"error":"no seat"}')
            return
        seat = table.joined
        table.joined += 1
        self.seats_in.append((table_id, seat, name, table.tokens[seat]))
        self.later(
            conn.respond, 200, msgspec.json.encode({"table": table_id, "seat": seat, "token": table.tokens[seat]})
        )

    def hello(self, conn: Any, table: Table, seat: int, token: str) -> None:
        if not 0 <= seat < SEATS or table.tokens[seat] != token:
            conn.close_ws(4401)
            return
        for other in table.conns:  # the seats already there hear that this one came
            if other is not None:
                other.write(self.frames.presence)
        table.conns[seat] = conn
        conn.seat = seat
        conn.write(self.frames.snapshot[table.version][seat == table.to_move])

    def move(self, table: Table, seat: int, version: int, move: str) -> None:
        if table.over or seat != table.to_move or version != table.version:
            return  # stale: the client sends on when it hears the next update
        now = time.time()
        self.moves_in.append((table.id, version, seat, move, now, now + 30.0))
        table.version += 1
        table.to_move = (seat + 1) % SEATS
        table.over = table.version >= self.frames.moves_per_game
        self.later(self.announce, table)

    def announce(self, table: Table) -> None:
        updates = self.frames.update[table.version]
        for seat, conn in enumerate(table.conns):
            if conn is not None:
                conn.write(updates[seat == table.to_move])
        if table.over:
            self.tables.pop(table.id, None)


class RedisPipe(asyncio.Protocol):
    """A Redis connection whose replies (hiredis parses them) go to ``handler``."""

    def __init__(self, handler: Any) -> None:
        import hiredis

        self.reader = hiredis.Reader()
        self.handler = handler
        self.transport: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            self.handler(reply)


class Remote:
    """A seat's connection on another process, as the table's process writes to it: through Redis."""

    __slots__ = ("cluster", "conn_id", "proc", "seat")

    def __init__(self, cluster: Cluster, proc: str, conn_id: int) -> None:
        self.cluster, self.proc, self.conn_id, self.seat = cluster, proc, conn_id, -1

    def write(self, data: bytes) -> None:
        self.cluster.frame(self.proc, self.conn_id, data)

    def close_ws(self, code: int) -> None:
        self.cluster.send(self.proc, ["close", self.conn_id])


class RemoteAsker:
    """A join forwarded from another process, answered there."""

    def __init__(self, cluster: Cluster, proc: str, request: int) -> None:
        self.cluster, self.proc, self.request = cluster, proc, request

    def respond(self, status: int, body: bytes) -> None:
        self.cluster.send(self.proc, ["answer", self.request, status, body])


class Cluster:
    """Floor processes sharing the database and a Redis, without sticky sessions (as the real
    server's cluster): a table lives on the process that created it (its id names it); a join,
    a hello or a move that reaches another process is forwarded to it, and the frames for the
    seats connected elsewhere go back, one PUBLISH a process and loop tick (msgpack), each
    process subscribed to a channel of its own."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.name = f"p{os.getpid()}"
        server.prefix = self.name + "-"
        self.conns: dict[int, Conn] = {}
        self.ids = itertools.count(1)
        self.asked: dict[int, Conn] = {}  # forwarded joins, by request
        self.outbox: dict[str, tuple[list[Any], list[Any]]] = {}  # process -> (messages, frames) this tick
        self.flushing = False
        self.subscribed: asyncio.Future[None] | None = None

    async def connect(self, url: str) -> None:
        loop = asyncio.get_running_loop()
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 6379
        _, self.pub = await loop.create_connection(lambda: RedisPipe(lambda _reply: None), host, port)
        _, self.sub = await loop.create_connection(lambda: RedisPipe(self.received), host, port)
        self.subscribed = loop.create_future()
        self.sub.transport.write(_resp(b"SUBSCRIBE", b"floor:" + self.name.encode()))
        await self.subscribed

    def elsewhere(self, table_id: str) -> bool:
        owner = table_id.split("-", 1)[0]
        return owner != self.name and owner.startswith("p")

    # sending
    def send(self, proc: str, message: list[Any]) -> None:
        self._box(proc)[0].append(message)

    def frame(self, proc: str, conn_id: int, data: bytes) -> None:
        self._box(proc)[1].append((conn_id, data))

    def _box(self, proc: str) -> tuple[list[Any], list[Any]]:
        box = self.outbox.get(proc)
        if box is None:
            box = self.outbox[proc] = ([], [])
            if not self.flushing:
                self.flushing = True
                self.server.loop.call_soon(self.flush)
        return box

    def flush(self) -> None:
        self.flushing = False
        out = []
        for proc, (messages, frames) in self.outbox.items():
            if frames:
                messages.append(["frames", frames])
            out.append(_resp(b"PUBLISH", b"floor:" + proc.encode(), msgspec.msgpack.encode(messages)))
        self.outbox = {}
        self.pub.transport.write(b"".join(out))

    # what this process's connections ask of a table elsewhere
    def attach(self, conn: Conn) -> None:
        conn.conn_id = next(self.ids)
        self.conns[conn.conn_id] = conn

    def forward(self, conn: Conn, kind: str, msg: dict[str, Any]) -> None:
        owner = conn.table_id.split("-", 1)[0]
        if kind == "hello":
            self.send(owner, ["hello", self.name, conn.conn_id, conn.table_id, conn.seat, msg.get("token", "")])
        else:
            self.send(owner, ["move", conn.table_id, conn.seat, msg.get("version", -1), msg.get("move", "")])

    def forward_join(self, conn: Conn, table_id: str, name: str) -> None:
        request = next(self.ids)
        self.asked[request] = conn
        self.send(table_id.split("-", 1)[0], ["join", self.name, request, table_id, name])

    def left(self, conn: Conn) -> None:
        self.conns.pop(conn.conn_id, None)
        if conn.seat >= 0:
            owner = conn.table_id.split("-", 1)[0]
            self.send(owner, ["gone", conn.table_id, conn.seat, self.name, conn.conn_id])

    # what the other processes say
    def received(self, reply: Any) -> None:
        if reply[0] != b"message":  # the subscription's confirmation
            if self.subscribed is not None and not self.subscribed.done():
                self.subscribed.set_result(None)
            return
        server = self.server
        for msg in msgspec.msgpack.decode(reply[2]):
            kind = msg[0]
            if kind == "frames":
                for conn_id, data in msg[1]:
                    conn = self.conns.get(conn_id)
                    if conn is not None:
                        conn.write(data)
            elif kind == "move":
                table = server.tables.get(msg[1])
                if table is not None:
                    server.move(table, msg[2], msg[3], msg[4])
            elif kind == "hello":
                _, proc, conn_id, table_id, seat, token = msg
                table = server.tables.get(table_id)
                if table is None:
                    self.send(proc, ["close", conn_id])
                else:
                    server.hello(Remote(self, proc, conn_id), table, seat, token)
            elif kind == "join":
                _, proc, request, table_id, name = msg
                server.join(RemoteAsker(self, proc, request), table_id, name)
            elif kind == "answer":
                asker = self.asked.pop(msg[1], None)
                if asker is not None:
                    asker.respond(msg[2], msg[3])
            elif kind == "gone":
                _, table_id, seat, proc, conn_id = msg
                table = server.tables.get(table_id)
                held = table.conns[seat] if table is not None and 0 <= seat < SEATS else None
                if isinstance(held, Remote) and held.proc == proc and held.conn_id == conn_id:
                    table.conns[seat] = None  # type: ignore[union-attr]
            elif kind == "close":
                conn = self.conns.get(msg[1])
                if conn is not None:
                    conn.close_ws(4401)


class Conn(asyncio.Protocol):
    """One TCP connection: HTTP/1.1 requests until it upgrades to a WebSocket."""

    server: Server

    def __init__(self) -> None:
        self.buf = bytearray()
        self.transport: Any = None
        self.ws = False  # upgraded to a WebSocket
        self.table: Table | None = None  # a table of this process
        self.table_id = ""
        self.conn_id = 0  # in a cluster, for another process to address this connection
        self.seat = -1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def connection_lost(self, exc: Exception | None) -> None:
        table = self.table
        if table is not None and 0 <= self.seat < SEATS and table.conns[self.seat] is self:
            table.conns[self.seat] = None
        cluster = self.server.cluster
        if table is None and self.ws and cluster is not None:
            cluster.left(self)

    def write(self, data: bytes) -> None:
        if not self.transport.is_closing():
            self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        if self.ws:
            self.frames_in(data)
            return
        buf = self.buf
        buf += data
        while not self.ws:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end]).decode("latin-1").split("\r\n")
            method, target, _ = head[0].split(" ", 2)
            headers = {}
            for line in head[1:]:
                key, _, value = line.partition(":")
                headers[key.strip().lower()] = value.strip()
            size = int(headers.get("content-length", "0"))
            if len(buf) < end + 4 + size:
                return
            body = bytes(buf[end + 4 : end + 4 + size])
            del buf[: end + 4 + size]
            self.request(method, target, headers, body)
        if buf:  # frames sent right behind the handshake
            rest = bytes(buf)
            buf.clear()
            self.frames_in(rest)

    def request(self, method: str, target: str, headers: dict[str, str], body: bytes) -> None:
        parts = target.split("/")
        if method == "GET" and target == "/readyz":
            self.respond(200, b'{"ready":true}')
        elif method == "POST" and target == "/api/tables":
            self.server.create(self, msgspec.json.decode(body).get("name", ""))
        elif method == "POST" and len(parts) == 5 and parts[1:3] == ["api", "tables"] and parts[4] == "join":
            self.server.join(self, parts[3], msgspec.json.decode(body).get("name", ""))
        elif method == "GET" and len(parts) == 3 and parts[1] == "ws" and "sec-websocket-key" in headers:
            table = self.server.tables.get(parts[2])
            cluster = self.server.cluster
            remote = table is None and cluster is not None and cluster.elsewhere(parts[2])
            if table is None and not remote:
                self.respond(404, b'{"error":"no table"}')
                return
            accept = base64.b64encode(hashlib.sha1(headers["sec-websocket-key"].encode() + WS_GUID).digest())
            self.transport.write(
                b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
            )
            self.ws, self.table, self.table_id = True, table, parts[2]
            if remote and cluster is not None:
                cluster.attach(self)
        else:
            self.respond(404, b'{"error":"not found"}')

    def respond(self, status: int, body: bytes) -> None:
        reason = b"OK" if status == 200 else b"Not Found"
        self.write(
            b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (status, reason, len(body), body)
        )

    # the WebSocket
    def frames_in(self, data: bytes) -> None:
        buf = self.buf
        if buf:
            buf += data
            data = bytes(buf)
            buf.clear()
        pos, n = 0, len(data)
        while n - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            size, at = b1 & 0x7F, pos + 2
            if size == 126:
                size, at = int.from_bytes(data[at : at + 2], "big"), at + 2
            elif size == 127:
                size, at = int.from_bytes(data[at : at + 8], "big"), at + 8
            mask = data[at : at + 4] if b1 & 0x80 else b""
            at += len(mask)
            if n < at + size:
                break
            payload = data[at : at + size]
            pos = at + size
            if mask and mask != b"\0\0\0\0":
                key = int.from_bytes((mask * (size // 4 + 1))[:size], "little")
                payload = (int.from_bytes(payload, "little") ^ key).to_bytes(size, "little")
            opcode = b0 & 0x0F
            if opcode == 1:
                self.message(payload)
            elif opcode == 8:
                self.close_ws(1000)
                return
            elif opcode == 9:
                self.write(bytes((0x8A, len(payload))) + payload)
        if pos < n:
            buf += data[pos:]

    def message(self, payload: bytes) -> None:
        table = self.table
        msg = msgspec.json.decode(payload)
        kind = msg.get("type")
        if table is None:  # the table's process is another: the message goes there
            if kind == "hello" and self.seat < 0:
                self.seat = msg.get("seat", -1)
            if kind in ("hello", "move") and self.server.cluster is not None:
                self.server.cluster.forward(self, kind, msg)
            return
        if kind == "move" and self.seat >= 0:
            self.server.move(table, self.seat, msg.get("version", -1), msg.get("move", ""))
        elif kind == "hello" and self.seat < 0:
            self.server.hello(self, table, msg.get("seat", -1), msg.get("token", ""))
        elif kind == "resync" and self.seat >= 0:
            self.write(self.server.frames.snapshot[table.version][self.seat == table.to_move])

    def close_ws(self, code: int) -> None:
        if not self.transport.is_closing():
            self.transport.write(b"\x88\x02" + code.to_bytes(2, "big"))
            self.transport.close()


def serve(port: int, db_url: str, traffic: Traffic, redis_url: str | None) -> None:
    import uvloop

    async def main() -> None:
        Conn.server = Server(db_url, Frames(traffic))
        if redis_url:
            Conn.server.cluster = Cluster(Conn.server)
            await Conn.server.cluster.connect(redis_url)
        loop = asyncio.get_running_loop()
        srv = await loop.create_server(Conn, "127.0.0.1", port, backlog=4096)
        print(f"floor server on http://127.0.0.1:{srv.sockets[0].getsockname()[1]}/", flush=True)
        stop = asyncio.Event()
        for sig in (2, 15):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        srv.close()

    uvloop.run(main())


# -- floors of the parts, in this process ----------------------------------------------------------
def loopback_pairs(n: int) -> list[tuple[socket.socket, socket.socket]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(n)
    pairs = []
    for _ in range(n):
        a = socket.create_connection(listener.getsockname())
        b, _ = listener.accept()
        b.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        b.setblocking(False)
        a.setblocking(False)
        pairs.append((b, a))  # (the server's end, the client's end)
    listener.close()
    return pairs


def write_floor(n: int, rounds: int, size: int = 2048) -> dict[str, float]:
    """CPU µs to write one ``size``-byte frame to a loopback TCP socket, over ``n`` sockets: by
    ``socket.send`` and by uvloop's transport (which sends at once when its buffer is empty); and
    to read it on the other end (the client's share)."""
    import uvloop

    data = frame(b"x" * (size - 4))
    pairs = loopback_pairs(n)
    try:
        sent = read = 0.0
        for _ in range(rounds):
            t0 = time.thread_time()
            for srv, _ in pairs:
                srv.send(data)
            t1 = time.thread_time()
            for _, cli in pairs:
                while True:
                    try:
                        cli.recv(65536)
                    except BlockingIOError:
                        break
            sent += t1 - t0
            read += time.thread_time() - t1

        async def by_transport() -> float:
            loop = asyncio.get_running_loop()
            transports = []
            for srv, _ in pairs:
                transport, _ = await loop.connect_accepted_socket(asyncio.Protocol, srv.dup())
                transports.append(transport)
            spent = 0.0
            for _ in range(rounds):
                t0 = time.thread_time()
                for transport in transports:
                    transport.write(data)
                spent += time.thread_time() - t0
                for _, cli in pairs:
                    while True:
                        try:
                            cli.recv(65536)
                        except BlockingIOError:
                            break
                await asyncio.sleep(0)
            for transport in transports:
                transport.close()
            await asyncio.sleep(0)
            return spent

        by_uvloop = uvloop.run(by_transport())
    finally:
        for a, b in pairs:
            a.close()
            b.close()
    writes = n * rounds
    return {
        "sockets": n,
        "frame_bytes": len(data),
        "send_us": sent * 1e6 / writes,
        "uvloop_write_us": by_uvloop * 1e6 / writes,
        "recv_us": read * 1e6 / writes,
    }


def wake_floor(writes: int = 400, size: int = 2048) -> dict[str, float]:
    """CPU µs of a ``size``-byte frame sent to a loopback socket whose reader, another process,
    sleeps in ``epoll_wait`` (as a client between moves): the send then also wakes it, on the
    sender's time. One write every 2 ms."""
    import selectors

    data = frame(b"x" * (size - 4))
    ((srv, cli),) = loopback_pairs(1)
    child = os.fork()
    if child == 0:  # the reader: asleep until a frame comes, reads it, sleeps again
        srv.close()
        with selectors.DefaultSelector() as sel:
            sel.register(cli, selectors.EVENT_READ)
            while True:
                sel.select()
                try:
                    if not cli.recv(65536):
                        os._exit(0)
                except BlockingIOError:
                    continue
    cli.close()
    spent = 0.0
    try:
        for _ in range(writes):
            time.sleep(0.002)
            t0 = time.thread_time()
            srv.send(data)
            spent += time.thread_time() - t0
    finally:
        srv.close()
        os.waitpid(child, 0)
    return {"frame_bytes": len(data), "send_waking_us": spent * 1e6 / writes}


def sqlite_floor(moves: int = 4000) -> dict[str, float]:
    """CPU µs a move of an INSERT and a COMMIT on a held sqlite3 connection (WAL,
    ``synchronous=NORMAL``): each move its own commit, and a group commit of 16."""
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(str(Path(tmp) / "floor.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(
            "CREATE TABLE moves (table_id TEXT, version INTEGER, seat INTEGER, move TEXT, at REAL, deadline REAL,"
            " PRIMARY KEY (table_id, version))"
        )
        rows = [(f"t{i // 17:06d}", i % 17, i % 4, "7H", 1.0, 31.0) for i in range(moves * 2)]
        t0 = time.process_time()
        for row in rows[:moves]:
            db.execute("BEGIN")
            db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", row)
            db.execute("COMMIT")
        alone = time.process_time() - t0
        t0 = time.process_time()
        for i in range(moves, 2 * moves, 16):
            db.execute("BEGIN")
            db.executemany("INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)", rows[i : i + 16])
            db.execute("COMMIT")
        grouped = time.process_time() - t0
        db.close()
    return {"commit_us": alone * 1e6 / moves, "group16_us_per_move": grouped * 1e6 / moves}


def pg_floor(url: str, moves: int = 2000) -> dict[str, float]:
    """CPU µs a move of an INSERT and a COMMIT on one held PostgreSQL connection, in this process
    and in its backend (from /proc; the database on this machine): through psycopg, a statement
    in autocommit; and through libpq's pipeline mode (psycopg.pq, as the server's PgLink sends),
    a transaction a move and one of 16 moves. In a schema of its own, dropped afterwards."""
    import psycopg
    from psycopg import pq

    schema = f"floor_{os.getpid()}"
    rows = [(f"t{i // 17:06d}", i % 17, i % 4, "7H", 1.0, 31.0) for i in range(moves * 3)]
    spent: dict[str, tuple[float, float]] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
        try:
            conn.execute(
                f"CREATE TABLE {schema}.moves (table_id TEXT, version INTEGER, seat INTEGER, move TEXT, at REAL,"
                " deadline REAL, PRIMARY KEY (table_id, version))"
            )
            backend = conn.execute("SELECT pg_backend_pid()").fetchone()
            pid = int(backend[0]) if backend else 0
            t0, b0 = time.process_time(), real.cpu_seconds(pid) or 0.0
            for row in rows[:moves]:
                conn.execute(f"INSERT INTO {schema}.moves VALUES (%s, %s, %s, %s, %s, %s)", row)
            spent["statement"] = (time.process_time() - t0, (real.cpu_seconds(pid) or 0.0) - b0)

            pg = pq.PGconn.connect(conn.info.dsn.encode() + b" password=" + (conn.info.password or "").encode())
            try:
                backend_pid = pg.backend_pid
                pg.enter_pipeline_mode()
                sql = f"INSERT INTO {schema}.moves VALUES ($1, $2, $3, $4, $5, $6)".encode()
                for k, group in ((1, 1), (2, 16)):
                    todo = [[str(v).encode() for v in row] for row in rows[k * moves : (k + 1) * moves]]
                    t0, b0 = time.process_time(), real.cpu_seconds(backend_pid) or 0.0
                    for i in range(0, moves, group):
                        for params in todo[i : i + group]:
                            pg.send_query_params(sql, params)
                        pg.pipeline_sync()  # the segment's end: one transaction, committed here
                        pg.flush()
                        while True:
                            result = pg.get_result()
                            if result is not None and result.status == pq.ExecStatus.PIPELINE_SYNC:
                                break
                    spent[f"pipelined{group}"] = (
                        time.process_time() - t0,
                        (real.cpu_seconds(backend_pid) or 0.0) - b0,
                    )
            finally:
                pg.finish()
        finally:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")
    figures: dict[str, float] = {}
    for name, (here, there) in spent.items():
        figures[f"{name}_us"] = here * 1e6 / moves
        figures[f"{name}_backend_us"] = there * 1e6 / moves
    return figures


def _resp(*parts: bytes) -> bytes:
    """A Redis command in RESP."""
    return b"*%d\r\n" % len(parts) + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)


class _RedisLink(RedisPipe):
    """A Redis connection that hands each reply to the one waiting."""

    def __init__(self) -> None:
        super().__init__(self._reply)
        self.waiter: asyncio.Future[Any] | None = None

    def _reply(self, reply: Any) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(reply)

    async def call(self, command: bytes) -> Any:
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(command)
        return await self.waiter


async def _redis_messages(host: str, port: int, messages: int, payload: bytes) -> tuple[float, float]:
    """CPU seconds of this process and of the Redis server (its ``INFO cpu``) for ``messages``
    PUBLISHes of ``payload``, each awaited until its subscriber (here too) has it."""
    loop = asyncio.get_running_loop()
    _, pub = await loop.create_connection(_RedisLink, host, port)
    _, sub = await loop.create_connection(_RedisLink, host, port)
    channel = f"floor-{os.getpid()}".encode()
    await sub.call(_resp(b"SUBSCRIBE", channel))
    publish = _resp(b"PUBLISH", channel, payload)

    async def redis_cpu() -> float:
        info = (await pub.call(_resp(b"INFO", b"cpu"))).decode()
        fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
        return float(fields["used_cpu_sys"]) + float(fields["used_cpu_user"])

    r0, t0 = await redis_cpu(), time.thread_time()
    for _ in range(messages):
        heard = loop.create_future()
        sub.waiter = heard
        await pub.call(publish)
        await heard
    spent = time.thread_time() - t0
    redis = await redis_cpu() - r0
    pub.transport.close()
    sub.transport.close()
    return spent, redis


def redis_floor(url: str, messages: int = 2000, size: int = 1100) -> dict[str, float]:
    """CPU µs of a message of ``size`` bytes from one process to another through Redis pub/sub
    (what a forwarded move and its update cost a cluster twice): the PUBLISH and its reply, and
    the subscriber reading it, both in this process on raw connections with hiredis; and the
    Redis server's own CPU a message (from ``INFO cpu``: a Redis shared with other work counts
    that too)."""
    import uvloop

    parts = urlsplit(url)
    spent, redis = uvloop.run(_redis_messages(parts.hostname or "127.0.0.1", parts.port or 6379, messages, b"x" * size))
    return {"message_bytes": size, "both_ends_us": spent * 1e6 / messages, "redis_server_us": redis * 1e6 / messages}


class _Transport:
    """What DirectWebSocket uses of a transport, writing nowhere; counts the pauses of reading."""

    def __init__(self) -> None:
        self.pauses = 0

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_write_buffer_size(self) -> int:
        return 0


async def _read_session(fast: bool, request: bytes, data: bytes, messages: int) -> tuple[float, int, int]:
    """``messages`` times ``data`` read by a DirectWebSocket and taken by its endpoint: the CPU
    seconds, the pauses of reading, the messages taken."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from mauseloch.server.listen import DirectWebSocket

    taken = 0

    async def endpoint(scope: Any, receive: Any, send: Any) -> None:
        nonlocal taken
        await receive()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] == "websocket.receive":
            taken += 1

    config = Config(
        app=endpoint, ws_max_size=1 << 16, ws_per_message_deflate=False, lifespan="off", log_level="warning"
    )
    config.load()
    state = ServerState()
    proto = DirectWebSocket(config=config, server_state=state, app_state={})
    proto.fast_read = fast
    transport = _Transport()
    proto.connection_made(transport)  # type: ignore[arg-type]
    proto.data_received(request)
    for _ in range(5):
        await asyncio.sleep(0)
    t0 = time.thread_time()
    for _ in range(messages):
        proto.data_received(data)
        await asyncio.sleep(0)  # the endpoint takes it
    spent = time.thread_time() - t0
    proto.connection_lost(None)
    await asyncio.gather(*state.tasks)
    return spent, transport.pauses, taken


async def _handshakes(fast: bool, request: bytes, sockets: int) -> float:
    """CPU seconds of ``sockets`` DirectWebSockets opened with ``request``, accepted by a bare
    endpoint, and dropped."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from mauseloch.server.listen import DirectWebSocket

    async def endpoint(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await receive()

    config = Config(
        app=endpoint, ws_max_size=1 << 16, ws_per_message_deflate=False, lifespan="off", log_level="warning"
    )
    config.load()
    state = ServerState()
    t0 = time.thread_time()
    for _ in range(sockets):
        proto = DirectWebSocket(config=config, server_state=state, app_state={})
        proto.fast_read = fast
        proto.connection_made(_Transport())  # type: ignore[arg-type]
        proto.data_received(request)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert proto.handshake_complete
        proto.connection_lost(None)
        await asyncio.sleep(0)
    return time.thread_time() - t0


def read_floor(messages: int = 20000, sockets: int = 3000) -> dict[str, float]:
    """CPU µs the server's read path costs a client's move frame, from ``data_received`` to the
    endpoint's ``receive`` (uvicorn's ASGI receive, the same for both): through websockets'
    parser (``DirectWebSocket.fast_read = False``), and read by DirectWebSocket itself. The
    transport is a stand-in: uvloop's pause and resume of reading, which uvicorn does for each
    message, are counted, not timed. And a socket's opening, from the handshake's request (as
    uvicorn hands it over) to its 101, and its drop: websockets' parser and checks, and read
    by DirectWebSocket itself."""
    import uvloop

    move = msgspec.json.encode({"type": "move", "move": "7H", "version": 12})
    key = b"\x9a\x17\x3c\x55"  # a browser's frame: masked with a random key
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(move))
    data = bytes((0x81, 0x80 | len(move))) + key + masked
    request = (
        b"GET /ws/t HTTP/1.1\r\nHost: floor\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    result: dict[str, float] = {"frame_bytes": len(data)}
    for fast in (False, True):
        spent, pauses, taken = uvloop.run(_read_session(fast, request, data, messages))
        assert taken == messages
        name = "own" if fast else "parser"
        result[f"{name}_us"] = spent * 1e6 / messages
        result[f"{name}_pauses_per_message"] = pauses / messages
        result[f"{name}_handshake_us"] = uvloop.run(_handshakes(fast, request, sockets)) * 1e6 / sockets
    return result


# -- the run -------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the server process
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument(
        "--db", help="a postgresql:// URL both servers write to (a schema of their own); default: a SQLite file"
    )
    parser.add_argument("--traffic", help=argparse.SUPPRESS)  # a Traffic as JSON
    parser.add_argument("--seats", type=int, default=400, help="client seats (4 per table)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds each run is measured")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds of play before measuring")
    parser.add_argument("--think-ms", type=float, default=600.0, help="mean pause before a client moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--client-procs", type=int, default=2, help="client processes the seats are spread over")
    parser.add_argument("--no-real", action="store_true", help="the floor server only (the default traffic)")
    parser.add_argument("--moves-per-game", type=int, help="the floor's games this long (default: the real ones')")
    parser.add_argument("--sockets", type=int, nargs="+", default=[4, 100, 1000], help="sockets written to")
    parser.add_argument("--rounds", type=int, default=50, help="frames written to each socket")
    parser.add_argument("--pg", metavar="URL", help="also measure PostgreSQL's INSERT and COMMIT there")
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="measure a message through Redis pub/sub there; the servers' Redis with --processes",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (several: --db postgresql://… and --redis URL)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    if args.processes > 1 and not (args.db and args.db.startswith("postgres") and args.redis):
        raise SystemExit("several processes share PostgreSQL and Redis: --db postgresql://… --redis URL")
    if args.serve:
        serve(args.port, args.db, Traffic(**json.loads(args.traffic)) if args.traffic else Traffic(), args.redis)
        return

    def run(server_cmd: list[str] | None) -> dict[str, Any]:
        return real.bench(
            args.seats, args.duration, args.warmup, args.think_ms, args.seed,
            db=args.db, processes=args.processes, redis_url=args.redis if args.processes > 1 else None,
            client_procs=args.client_procs, server_cmd=server_cmd,
        )  # fmt: skip

    traffic = Traffic()
    result: dict[str, Any] = {"seats": args.seats, "think_ms": args.think_ms, "duration_s": args.duration}
    if not args.no_real:
        got = run(None)
        result["real"] = got
        traffic = Traffic.of(got)
        result["server_cpu_us_per_move"] = got["server_cpu_us_per_move"]
        result["client_cpu_us_per_move"] = got["client_cpu_us_per_move"]
    if args.moves_per_game:
        traffic.moves_per_game = args.moves_per_game
    floor = run([str(Path(__file__).resolve()), "--serve", "--traffic", json.dumps(asdict(traffic))])
    result["floor"] = floor
    result["traffic"] = asdict(traffic)
    result["floor_server_cpu_us_per_move"] = floor["server_cpu_us_per_move"]
    result["floor_client_cpu_us_per_move"] = floor["client_cpu_us_per_move"]
    result["write_floor"] = [write_floor(n, args.rounds) for n in args.sockets]
    result["wake_floor"] = wake_floor()
    result["sqlite_floor"] = sqlite_floor()
    result["read_floor"] = read_floor()
    if args.pg:
        result["pg_floor"] = pg_floor(args.pg)
    if args.redis:
        result["redis_floor"] = redis_floor(args.redis)
    with contextlib.suppress(OSError):
        result["load_average"] = os.getloadavg()

    print(f"traffic: {asdict(traffic)}")
    print(
        f"{'server':>8} {'moves':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}"
        f" {'srv µs/mv':>9} {'cli µs/mv':>9} {'kernel':>6} {'cli kernel':>10} {'pg backend µs/mv':>16}"
    )
    for name in ("real", "floor"):
        if name in result:
            r = result[name]
            print(
                f"{name:>8} {r['moves']:>7} {r['moves_per_s']:>8.0f} {r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f}"
                f" {r['errors']:>6} {r['server_cpu_us_per_move']:>9.0f} {r['client_cpu_us_per_move']:>9.0f}"
                f" {r['server0_kernel_share'] * 100:>5.0f}% {r['client_kernel_share'] * 100:>9.0f}%"
                f" {r['pg_cpu_ms_per_move'] * 1000 if 'pg_cpu_ms_per_move' in r else float('nan'):>16.0f}"
            )
            if r["error_kinds"]:
                print(f"         errors: {r['error_kinds']}")
    for w in result["write_floor"]:
        print(
            f"a {w['frame_bytes']} B frame to {w['sockets']} loopback sockets: send {w['send_us']:.1f} µs,"
            f" uvloop write {w['uvloop_write_us']:.1f} µs, the reader's recv {w['recv_us']:.1f} µs a frame"
        )
    wake = result["wake_floor"]
    print(
        f"a {wake['frame_bytes']} B frame to a loopback socket whose reader (another process) sleeps in epoll:"
        f" send {wake['send_waking_us']:.1f} µs"
    )
    sq = result["sqlite_floor"]
    print(
        f"SQLite INSERT + COMMIT: {sq['commit_us']:.1f} µs a move alone,"
        f" {sq['group16_us_per_move']:.1f} in a group of 16"
    )
    if "pg_floor" in result:
        pg = result["pg_floor"]
        print(
            f"PostgreSQL INSERT + COMMIT, µs a move here and in the backend: psycopg's statement"
            f" {pg['statement_us']:.1f} + {pg['statement_backend_us']:.1f}, libpq pipelined alone"
            f" {pg['pipelined1_us']:.1f} + {pg['pipelined1_backend_us']:.1f}, 16 in a transaction"
            f" {pg['pipelined16_us']:.1f} + {pg['pipelined16_backend_us']:.1f}"
        )
    if "redis_floor" in result:
        rf = result["redis_floor"]
        print(
            f"a {rf['message_bytes']} B message through Redis pub/sub: {rf['both_ends_us']:.1f} µs for its publisher"
            f" and subscriber (one process here), {rf['redis_server_us']:.1f} µs in the Redis server"
        )
    rd = result["read_floor"]
    print(
        f"a move's {rd['frame_bytes']:.0f} B frame read to the endpoint: {rd['parser_us']:.1f} µs through websockets'"
        f" parser ({rd['parser_pauses_per_message']:.0f} pause of reading a message), {rd['own_us']:.1f} µs read by"
        f" DirectWebSocket ({rd['own_pauses_per_message']:.0f})"
    )
    print(
        f"a socket opened (handshake to 101, a bare endpoint) and dropped: {rd['parser_handshake_us']:.0f} µs"
        f" through websockets' parser and checks, {rd['own_handshake_us']:.0f} µs read by DirectWebSocket"
    )
    if args.json:
        print_json(result, out, default=lambda x: statistics.fmean(x) if isinstance(x, list) else str(x))


if __name__ == "__main__":
    main()
