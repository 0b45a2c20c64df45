"""Several ``mauseloch serve --redis`` processes behind one address, sharing PostgreSQL and Redis.

Real server processes on 127.0.0.1, real redis-server and PostgreSQL (``make test`` starts both;
the tests skip only when those are absent), WebSocket clients on different processes.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from mauseloch.server.storage.store import Store

from .helpers import LONG_DEAL

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,  # every test starts server processes of its own
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]

GUARD = 30.0  # seconds: only so a broken server fails the test instead of hanging it
REDIS_ENV = "MAUSELOCH_TEST_REDIS_URL"
PACE = 0.07  # seconds before each move: a seat stays under the server's 20 messages a second
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def redis_server() -> str:
    """The test redis-server: the one ``make test`` started, or one started here."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        found = subprocess.run(
            ["sh", str(ROOT / "scripts" / "start-redis.sh")], capture_output=True, text=True, check=True
        ).stdout.strip()
        if not found:
            pytest.skip("no redis-server (Debian package redis-server; make system-deps installs it)")
        url = found
    return url


TEST_REDIS_DBS = range(1, 10)  # the databases a test may take: 0 is shared, 10-15 are the benches'
CLAIM = "test:claim"


@pytest.fixture
def redis_url(redis_server: str) -> Iterator[str]:
    """A database of its own on the test server, claimed with a key so that tests in other
    workers never pick it (or flush it) at the same time, and emptied afterwards."""
    base = redis_server.rsplit("/", 1)[0]
    for n in random.sample(TEST_REDIS_DBS, len(TEST_REDIS_DBS)):
        url = f"{base}/{n}"
        client = redis.Redis.from_url(url)
        # a claim expires: a worker killed mid-test does not hold its database for ever
        if client.set(CLAIM, os.getpid(), nx=True, ex=900):
            for key in client.scan_iter(count=1000):
                if key != CLAIM.encode():
                    client.delete(key)
            client.close()
            break
        client.close()
    else:
        pytest.fail(f"no free Redis database among {list(TEST_REDIS_DBS)} at {base}")
    try:
        yield url
    finally:
        client = redis.Redis.from_url(url)
        client.flushdb()
        client.close()


class Server:
    """One ``mauseloch serve`` process."""

    def __init__(self, db: str, redis_url: str, extra: tuple[str, ...] = ()) -> None:
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", db, "--redis", redis_url]
        cmd += ["--bot-delay", "0", *extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.match(r"Mauseloch is serving at http://127\.0\.0\.1:(\d+)/", line)
        if match is None:
            self.proc.kill()
            raise AssertionError((line, self.proc.communicate()[1]))
        self.address = f"127.0.0.1:{match.group(1)}"
        self.http = httpx.Client(base_url=f"http://{self.address}", trust_env=False, timeout=GUARD)
        deadline = time.monotonic() + GUARD  # it prints its address before it listens
        while True:
            try:
                if self.http.get("/readyz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server never became ready"
            time.sleep(0.1)

    def stop(self) -> str:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            return self.proc.communicate(timeout=GUARD)[1]
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.communicate()[1]


@pytest.fixture
def servers(pg_url: str, redis_url: str) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(*extra: str) -> Server:
        server = Server(pg_url, redis_url, extra)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


class Seat:
    """A seat's WebSocket on one process, and the last state it got."""

    def __init__(self, server: Server, table: str, seat: int, token: str) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.state: dict[str, Any] = {}
        self.connect(server)

    def connect(self, server: Server) -> None:
        self.ws: ClientConnection = connect(f"ws://{server.address}/ws/{self.table}", proxy=None, open_timeout=GUARD)
        self.ws.send(json.dumps({"type": "hello", "token": self.token, "seat": self.seat, "last_seq": 0}))
        self.until(lambda s: s.state.get("type") == "snapshot")

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(GUARD))
        assert frame["type"] != "error", json.dumps(frame)
        if frame["type"] in ("snapshot", "update") and frame["version"] >= self.state.get("version", -1):
            self.state = frame
        return frame

    def until(self, condition: Callable[[Seat], bool]) -> None:
        deadline = time.monotonic() + GUARD
        while not condition(self):
            assert time.monotonic() < deadline, "condition never met"
            self.recv()

    @property
    def version(self) -> int:
        return int(self.state["version"])

    def legal(self) -> list[str]:
        view = self.state["view"]
        return [] if view["is_over"] else list(view.get("legal_moves") or [])


def play(seats: list[Seat], rng: random.Random, moves: int, acknowledged: list[str]) -> None:
    """``moves`` moves (fewer if the game ends); every move counts once each seat saw its update."""
    for _ in range(moves):
        version = max(s.version for s in seats)
        for s in seats:
            s.until(lambda s, v=version: s.version >= v)
        if seats[0].state["view"]["is_over"]:
            return
        mover = next(s for s in seats if s.legal())
        move = rng.choice(mover.legal())
        time.sleep(PACE)
        mover.ws.send(json.dumps({"type": "move", "move": move, "version": version}))
        for s in seats:
            s.until(lambda s, v=version: s.version > v)
        acknowledged.append(move)


def new_table(creator: Server, joiner: Server) -> tuple[str, list[tuple[int, str]]]:
    made = creator.http.post(
        "/api/tables",
        json={"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Anna", "public": True},
    ).json()
    table = made["table"]
    assert table in [t["id"] for t in joiner.http.get("/api/tables").json()["tables"]]  # one lobby
    joined = joiner.http.post(f"/api/tables/{table}/join", json={"name": "Ben", "invite": made["invite_secret"]}).json()
    return table, [(made["seat"], made["token"]), (joined["seat"], joined["token"])]


def stored_moves(db: str, table: str) -> list[str]:
    store = Store(db)
    try:
        row = store.load_table(table)
        assert row is not None
        return [m[1] for m in row.moves]
    finally:
        store.close()


def test_two_processes_play_one_table(servers: Callable[[], Server]) -> None:
    one, two = servers(), servers()
    for server in (one, two):
        assert server.http.get("/healthz").text == "ok"
        ready = server.http.get("/readyz").json()
        assert ready["ready"] and ready["problems"] == []
    table, creds = new_table(one, two)
    anna = Seat(one, table, *creds[0])  # the owner's process
    ben = Seat(two, table, *creds[1])  # another process: moves are forwarded, updates fan out
    # the owner hears of Ben's seat (taken through the other process) and sends everyone a snapshot
    anna.until(lambda s: s.state["table"]["seats"][1]["name"] == "Ben")
    acknowledged: list[str] = []
    play([anna, ben], random.Random(3), 400, acknowledged)
    assert anna.state["view"]["is_over"] and ben.state["view"]["is_over"]
    assert ben.state["view"]["hand"] != anna.state["view"]["hand"] or not ben.state["view"]["hand"]
    assert "hand" not in json.dumps(anna.state["view"].get("hands", ""))  # only its own hand
    assert two.http.get(f"/api/tables/{table}").json()["status"] == "over"
    record = two.http.get(f"/api/tables/{table}/record").json()
    assert [m[1] for m in record["moves"]] == acknowledged


def test_owner_killed_mid_game(servers: Callable[[], Server], pg_url: str) -> None:
    one, two = servers(), servers()
    table, creds = new_table(one, two)
    anna, ben = Seat(one, table, *creds[0]), Seat(two, table, *creds[1])
    rng = random.Random(5)
    acknowledged: list[str] = []
    play([anna, ben], rng, 6, acknowledged)
    one.proc.send_signal(signal.SIGKILL)  # the owner dies without a word
    one.proc.wait(GUARD)
    with pytest.raises(ConnectionClosed):  # Anna's socket went with it
        while True:
            anna.recv()
    anna.connect(two)  # she reconnects: the only process left takes the table over
    assert anna.version == len(acknowledged)
    play([anna, ben], rng, 6, acknowledged)
    assert stored_moves(pg_url, table)[: len(acknowledged)] == acknowledged  # no acknowledged move lost
    three = servers()  # a process started later serves the same table
    carl = Seat(three, table, *creds[0])
    assert carl.version == anna.version


# Lengthen a lease to two minutes if the given process still holds it (a CAS: never the taker's).
LENGTHEN = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], 120000) end return 0"


class Leased:
    """A table created on process ``one`` (its owner) and joined on ``two``, a few moves in."""

    def __init__(self, one: Server, two: Server, seed: int, moves: int) -> None:
        self.owner, self.other = (p.http.get("/readyz").json()["process"] for p in (one, two))
        self.table, self.creds = new_table(one, two)
        self.anna, self.ben = Seat(one, self.table, *self.creds[0]), Seat(two, self.table, *self.creds[1])
        self.rng = random.Random(seed)
        self.acknowledged: list[str] = []
        self.play(moves)
        self.lease = f"ml:owner:{self.table}"

    def play(self, moves: int) -> None:
        play([self.anna, self.ben], self.rng, moves, self.acknowledged)


def test_a_dead_owners_tables_are_taken_over_before_its_leases_run_out(
    servers: Callable[[], Server], redis_url: str, pg_url: str
) -> None:
    """A process killed with SIGKILL leaves Redis at once (the kernel closes its connections):
    the others take its tables over then, not when its leases would have run out."""
    one, two = servers(), servers()
    t = Leased(one, two, seed=8, moves=4)
    client = redis.Redis.from_url(redis_url)
    assert client.get(t.lease) == t.owner.encode()
    one.proc.send_signal(signal.SIGKILL)
    one.proc.wait(GUARD)
    # as if its lease had two minutes left: only the owner's being gone can free the table now
    assert client.eval(LENGTHEN, 1, t.lease, t.owner) == 1 or client.get(t.lease) == t.other.encode()
    t.anna.connect(two)  # her reconnect finds the owner gone: the survivor takes over at once
    assert client.get(t.lease) == t.other.encode()
    assert t.anna.version == len(t.acknowledged)
    t.play(4)
    assert stored_moves(pg_url, t.table)[: len(t.acknowledged)] == t.acknowledged
    client.close()


def test_a_process_whose_subscription_drops_keeps_its_tables(servers: Callable[[], Server], redis_url: str) -> None:
    """No subscriber on a process's channel alone does not make it gone: its other connections
    to Redis still carry its name, and the other processes leave its tables alone."""
    t = Leased(servers(), servers(), seed=9, moves=2)
    client = redis.Redis.from_url(redis_url)
    client.eval(LENGTHEN, 1, t.lease, t.owner)
    killed = 0
    deadline = time.monotonic() + 2.0  # four ticks of the other process's sweep
    while time.monotonic() < deadline:
        for c in client.client_list():
            if c.get("name") == f"ml-{t.owner}" and int(c.get("sub", 0)) > 0:  # its subscriber
                killed += client.client_kill_filter(_id=c["id"])
        time.sleep(0.05)
    assert killed > 0
    assert client.get(t.lease) == t.owner.encode()
    t.play(4)  # the table plays on, still with its owner
    assert client.get(t.lease) == t.owner.encode()
    client.close()


def test_the_caps_of_one_address_hold_across_processes(servers: Callable[..., Server]) -> None:
    """Two sockets per address in all, wherever they land; a killed process's stop counting."""
    caps = ("--max-sockets-per-address", "2", "--tables-per-minute", "3", "--open-tables-per-address", "0")
    one, two = servers(*caps), servers(*caps)
    made = [p.http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2}) for p in (one, two)]
    assert [r.status_code for r in made] == [200, 200]
    third, fourth = one.http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2}), None
    assert third.status_code == 200
    fourth = two.http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2})
    assert fourth.status_code == 429 and fourth.json()["code"] == "too_many_tables"  # 3 a minute, both together
    assert int(fourth.headers["retry-after"]) >= 1
    table = made[0].json()["table"]
    held = [connect(f"ws://{p.address}/ws/{table}", proxy=None, open_timeout=GUARD) for p in (one, two)]
    refused = connect(f"ws://{one.address}/ws/{table}", proxy=None, open_timeout=GUARD)
    with pytest.raises(ConnectionClosed) as closed:
        refused.recv(GUARD)
    assert closed.value.rcvd is not None and closed.value.rcvd.reason == "too_many_connections"
    two.proc.send_signal(signal.SIGKILL)  # its socket no longer counts once its alive key runs out
    two.proc.wait(GUARD)
    deadline = time.monotonic() + GUARD
    while True:
        try:  # over the cap again within the minute: the handshake itself is refused (403)
            again = connect(f"ws://{one.address}/ws/{table}", proxy=None, open_timeout=GUARD)
            invite = made[0].json()["invite_secret"]  # a private table is watched with its invite
            watch = {"type": "hello", "token": None, "seat": None, "last_seq": 0, "invite": invite}
            again.send(json.dumps(watch))
            assert json.loads(again.recv(GUARD))["type"] == "snapshot"
            break
        except (ConnectionClosed, InvalidStatus):
            assert time.monotonic() < deadline, "the killed process's socket still counts"
            time.sleep(0.5)
    again.close()
    held[0].close()


def test_a_dead_processs_sockets_stop_counting_at_once(servers: Callable[..., Server]) -> None:
    """One address (a family behind one router) fills its cap across two
    processes; the owner is killed. Its sockets stop counting as soon as Redis sees it gone, so
    every reconnect is taken on the first try: no 4429, no 403 while its alive key would live."""
    caps = ("--max-sockets-per-address", "4", "--tables-per-minute", "0", "--open-tables-per-address", "0")
    one, two = servers(*caps), servers(*caps)
    tables = [new_table(two, one) for _ in range(2)]  # owned by two, the process to be killed
    seats = [Seat(p, table, *creds[i]) for table, creds in tables for i, p in enumerate((two, one))]
    spare = connect(f"ws://{one.address}/ws/{tables[0][0]}", proxy=None, open_timeout=GUARD)
    with pytest.raises(ConnectionClosed) as closed:  # the cap is full: four sockets, two on each
        spare.recv(GUARD)
    assert closed.value.rcvd is not None and closed.value.rcvd.reason == "too_many_connections"
    rng = random.Random(11)
    for i in range(2):
        play(seats[2 * i : 2 * i + 2], rng, 2, [])
    two.proc.send_signal(signal.SIGKILL)
    two.proc.wait(GUARD)
    for seat in seats[0::2]:  # the sockets that were on the dead process, each reconnecting once
        with pytest.raises(ConnectionClosed):
            while True:
                seat.recv()
        seat.connect(one)  # taken at once (a refusal would raise here)
    for i in range(2):  # and every table plays on
        play(seats[2 * i : 2 * i + 2], rng, 2, [])


def test_the_waiting_tables_of_one_address_are_capped_across_processes(servers: Callable[..., Server]) -> None:
    """Two tables waiting for players per address in all, wherever they were created; one that
    starts playing (its last seat taken through the other process) no longer counts."""
    caps = ("--open-tables-per-address", "2", "--tables-per-minute", "0")
    one, two = servers(*caps), servers(*caps)
    body = {"game": "mau-mau", "seats": [{"kind": "human"}] * 2, "public": True}
    made = [p.http.post("/api/tables", json=body) for p in (one, two)]
    assert [r.status_code for r in made] == [200, 200]
    for p in (one, two):
        over = p.http.post("/api/tables", json=body)
        assert over.status_code == 429 and over.json()["code"] == "too_many_tables", over.text
        assert int(over.headers["retry-after"]) >= 1
    table = made[0].json()["table"]
    assert two.http.post(f"/api/tables/{table}/join", json={"name": "Ben"}).status_code == 200
    deadline = time.monotonic() + GUARD
    while (again := one.http.post("/api/tables", json=body)).status_code != 200:
        assert again.status_code == 429, again.text  # until the owner has told everyone it plays
        assert time.monotonic() < deadline, "a table that plays still counts as waiting"
        time.sleep(0.2)
    assert two.http.post("/api/tables", json=body).status_code == 429  # two waiting again


def test_serve_refuses_what_several_processes_cannot_share(tmp_path: Path, pg_url: str) -> None:
    from typer.testing import CliRunner

    from mauseloch.cli import app

    runner = CliRunner()
    sqlite = f"sqlite:///{tmp_path / 's.db'}"
    for args, message in (
        (["--db", sqlite, "--redis", "redis://127.0.0.1:6379/0"], "needs a database server every process shares"),
        (["--db", pg_url, "--redis", "localhost:6379"], "is not a Redis URL"),
        (["--db", pg_url, "--redis", "redis://127.0.0.1:1/0"], "cannot use Redis at redis://127.0.0.1:1/0"),
    ):
        out = runner.invoke(app, ["serve", "--port", "0", *args])
        assert out.exit_code == 2, out.output
        assert message in out.output


def test_a_room_and_its_emotes_span_two_processes(servers: Callable[..., Server]) -> None:
    """A room made on one process is joined and read on the other (it lives in the database); an
    emote sent through the process that does not own the table reaches both seats."""
    one, two = servers("--rooms-per-hour", "0"), servers("--rooms-per-hour", "0")
    made = one.http.post("/api/rooms", json={"name": "Maus", "member": {"name": "Papa"}}).json()
    oma = two.http.post(f"/api/rooms/{made['room']}/join", json={"key": made["key"], "name": "Oma"}).json()
    papa_h, oma_h = {"x-room-token": made["token"]}, {"x-room-token": oma["token"]}
    ids = [m["id"] for m in two.http.get(f"/api/rooms/{made['room']}", headers=oma_h).json()["members"]]
    assert one.http.get(f"/api/rooms/{made['room']}", headers=oma_h).json()["members"][1]["name"] == "Oma"
    plan = {"game": "mau-mau", "seats": [{"member": ids[0]}, {"member": ids[1]}]}
    started = one.http.post(f"/api/rooms/{made['room']}/tables", json=plan, headers=papa_h).json()
    table = started["table"]
    taken = two.http.post(f"/api/rooms/{made['room']}/tables/{table}/join", json={}, headers=oma_h).json()
    papa = Seat(one, table, started["seat"], started["token"])  # the owner's process
    omi = Seat(two, table, taken["seat"], taken["token"])
    papa.until(lambda s: s.state["table"]["seats"][1]["name"] == "Oma")
    omi.ws.send(json.dumps({"type": "emote", "emote": "good_luck"}))
    for s in (papa, omi):
        frame = s.recv()
        while frame["type"] != "emote":
            frame = s.recv()
        assert frame == {"type": "emote", "seat": taken["seat"], "emote": "good_luck"}


class Player(Seat):
    """A seat whose page keeps the table's live state and hears refusals."""

    def connect(self, server: Server) -> None:
        self.live: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        super().connect(server)

    def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(GUARD))
        if frame["type"] == "error":
            self.errors.append(frame)
        elif frame["type"] in ("snapshot", "update") and frame["version"] >= self.state.get("version", -1):
            self.state = frame
        if frame.get("live"):
            self.live = frame["live"]
        return frame

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def refused(self) -> dict[str, Any]:
        """The next refusal this page hears."""
        had = len(self.errors)
        self.until(lambda s: len(s.errors) > had)
        return self.errors[-1]


def pending(db: str, table: str) -> list[tuple[int, str]]:
    """The pushes stored to be sent for ``table``: (seat, kind)."""
    from mauseloch.server.push.store import PushStore

    store = Store(db)
    try:
        return [(p.seat, p.kind) for p in PushStore(store).pending([table])]
    finally:
        store.close()


def waits_for(server: Server, table: str, token: str, back: float | None) -> None:
    """Until seat 0's "My tables", asked of ``server``, shows seat 1 away until ``back`` (None: here)."""
    until = time.monotonic() + GUARD
    while True:
        listed = server.http.get("/api/my-tables", headers={"Cookie": f"ml_{table}=0:{token}"}).json()["tables"]
        if [t["seats"][1].get("away") for t in listed] == [back]:
            return
        assert time.monotonic() < until, listed
        time.sleep(0.05)


def test_over_days_the_tables_owner_pushes_and_stops_for_an_away_seat(
    servers: Callable[..., Server], pg_url: str, redis_url: str
) -> None:
    """A table over days owned by one process, both pages talking to another: each turn is pushed
    once (by the owner), an away seat stops the owner's clock (moves refused with the reason,
    reminders void) until it is back, and a push pending when the owner stops goes out once from
    the process that takes the table over."""
    from tests.pushservice import PushService

    with PushService() as service:
        one, two = servers("--push-http"), servers("--push-http")
        made = one.http.post(
            "/api/tables",
            json={
                "game": "mau-mau",
                "seats": [{"kind": "human"}] * 2,
                "name": "Anna",
                "clock": "1d",
                "public": True,
                "deal": LONG_DEAL,  # the whole story is played (a random deal may end sooner)
            },
        ).json()
        table = made["table"]
        devices = [service.device("c-anna"), service.device("c-ben")]

        def subscribe(seat: int, token: str) -> None:
            body = {"subscription": devices[seat].subscription(), "lang": "de" if seat == 0 else "en"}
            answer = two.http.post("/api/push/subscribe", json=body, headers={"Cookie": f"ml_{table}={seat}:{token}"})
            assert answer.status_code == 200, answer.text

        subscribe(0, made["token"])  # before the game begins: told of her first turn, if it is hers
        joined = two.http.post(f"/api/tables/{table}/join", json={"name": "Ben", "invite": made["invite_secret"]})
        subscribe(1, joined.json()["token"])
        anna, ben = Player(two, table, 0, made["token"]), Player(two, table, 1, joined.json()["token"])
        players = [anna, ben]
        for p in players:
            p.until(lambda s: s.state["view"].get("to_move") is not None)
        first = anna.state["view"]["to_move"]
        told = [int(first == 0), 0]  # the turns pushed to each seat; Ben's first one raced his subscription
        rng = random.Random(4)

        def move(mover: Player) -> None:
            version = mover.version
            mover.send(type="move", move=rng.choice(mover.legal()), version=version)
            for p in players:
                p.until(lambda s: s.version > version)
            to_move = next((i for i, p in enumerate(players) if p.legal()), None)
            if to_move is not None and to_move != mover.seat:
                told[to_move] += 1

        while not (told[0] >= 2 and told[1] >= 1):  # moves through the process that does not own it
            move(next(p for p in players if p.legal()))
        service.wait(devices[0], told[0])
        service.wait(devices[1], told[1])
        assert devices[0].received[-1].payload["title"] == "Du bist dran: Mau-Mau bei Anna"
        assert len(service.vapid_keys) == 1  # every process signs with the one stored key

        # Ben goes away through `two`: the owner's clock stops, Anna's reminders are void
        while not anna.legal():
            move(ben)
        until = time.monotonic() + GUARD
        while (0, "remind") not in pending(pg_url, table):  # her turn's reminders, stored as told
            assert time.monotonic() < until, pending(pg_url, table)
            time.sleep(0.05)
        ben.send(type="away", days=15)  # more than a month's days: refused, and he hears why
        assert ben.refused()["code"] == "away_used_up"
        ben.send(type="away", days=2)
        anna.until(lambda s: s.live["seats"][1].get("away") is not None)
        assert "left" in anna.live["deadline"] and "due" not in anna.live["deadline"]  # the clock stands still
        anna.send(type="move", move=anna.legal()[0], version=anna.version)
        refusal = anna.refused()
        assert refusal["code"] == "paused" and "away" in refusal["message"], refusal
        assert (0, "remind") not in pending(pg_url, table)
        # Anna's "My tables", asked of `two`, says whom the table waits for (the owner's summary)
        waits_for(two, table, made["token"], anna.live["seats"][1]["away"])
        ben.send(type="away", days=0)  # back: the clock runs on, with reminders of the time left
        anna.until(lambda s: s.live["seats"][1].get("away") is None)
        waits_for(two, table, made["token"], None)
        until = time.monotonic() + GUARD
        while (0, "remind") not in pending(pg_url, table):
            assert time.monotonic() < until, pending(pg_url, table)
            time.sleep(0.05)
        move(anna)

        # Anna's next turn is refused by her push service for now: kept to be tried again...
        while not ben.legal():
            move(anna)
        devices[0].answer, posts = 500, devices[0].posts
        while not anna.legal():
            move(ben)
        until = time.monotonic() + GUARD
        while devices[0].posts == posts or (0, "turn") not in pending(pg_url, table):
            assert time.monotonic() < until, (devices[0].posts, pending(pg_url, table))
            time.sleep(0.05)
        # ... and its owner stops (a rolling restart): `two` takes the table over and sends it
        log = one.stop()  # SIGTERM
        assert one.proc.returncode in (0, -signal.SIGTERM) and "not handed over" not in log
        owner = two.http.get("/readyz").json()["process"]
        assert redis.Redis.from_url(redis_url).get(f"ml:owner:{table}") == owner.encode()
        devices[0].answer = 201
        service.wait(devices[0], told[0])
        move(anna)  # and the table plays on, its pushes sent by its new owner
        service.wait(devices[1], told[1])
        until = time.monotonic() + GUARD
        while any(kind != "remind" for _, kind in pending(pg_url, table)):  # nothing else left to send
            assert time.monotonic() < until, pending(pg_url, table)
            time.sleep(0.05)
        assert len(devices[0].received) == told[0]  # each turn once: none twice, none lost
        assert len(devices[1].received) - told[1] in ((0, 1) if first == 1 else (0,))
        assert all(p.payload["url"] == f"/t/{table}" for d in devices for p in d.received)
        assert service.refused == []
