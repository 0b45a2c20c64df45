"""What an attacker tries against a real ``mauseloch serve`` process, over real connections.

Unfinished request heads (slowloris), heads too large to answer, the Bot API's challenges past
the table caps, a private table watched by whoever knows its id. The attacks come from 127.0.0.1
and the honest requests from 127.0.0.2+ (Linux routes all of 127/8 to this machine).
"""

from __future__ import annotations

import contextlib
import json
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from mauseloch.core import dealcode
from mauseloch.server.botapi.tokens import BotTokens
from mauseloch.server.storage.store import Store

GUARD = 30.0  # seconds: only so that a broken server fails instead of hanging
ATTACKER, HONEST = "127.0.0.1", "127.0.0.2"
PARTIAL_HEAD = b"GET / HTTP/1.1\r\nHost: x\r\n"  # no blank line: the head never ends

pytestmark = pytest.mark.slow


@contextlib.contextmanager
def serve(tmp_path: Path, *options: str) -> Iterator[int]:
    """A ``mauseloch serve`` process on a free port with ``options`` and the SQLite file
    ``tmp_path / "s.db"``; yields the port."""
    db = f"sqlite:///{tmp_path / 's.db'}"
    cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", db, *options]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        match = re.match(r"Mauseloch is serving at http://127\.0\.0\.1:(\d+)/", line)
        assert match, (line, proc.stderr.read() if proc.poll() is not None else "")
        for pipe in (proc.stdout, proc.stderr):  # read on, so a full pipe never holds the server up
            threading.Thread(target=pipe.read, daemon=True).start()
        port = int(match.group(1))
        assert get(port, "/readyz").startswith(b"HTTP/1.1 200")
        yield port
    finally:
        proc.terminate()
        proc.wait(GUARD)


def connect(port: int, source: str = ATTACKER) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=GUARD, source_address=(source, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")  # RST on close
    return sock


def get(port: int, path: str, source: str = HONEST, headers: bytes = b"") -> bytes:
    """The whole answer to one GET (the server closes the connection after it: ``Connection: close``)."""
    with connect(port, source) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode() + headers + b"\r\n")
        return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (a reset counts as a close)."""
    got = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            got += chunk
    return got


def closed_by_server(socks: list[socket.socket], count: int) -> list[socket.socket]:
    """Waits until ``count`` of ``socks`` are closed by the server (EOF or reset); returns them."""
    closed: list[socket.socket] = []
    open_ = list(socks)
    end = time.monotonic() + GUARD
    while len(closed) < count:
        assert time.monotonic() < end, f"only {len(closed)} of {len(socks)} closed by the server, not {count}"
        ready, _, _ = select.select(open_, [], [], 0.2)
        for sock in ready:
            try:
                data = sock.recv(4096)
            except ConnectionResetError:
                data = b""
            assert data == b"", data  # an unfinished head gets no answer, only a close
            closed.append(sock)
            open_.remove(sock)
    return closed


def test_one_address_holds_only_its_cap_of_unfinished_heads(tmp_path: Path) -> None:
    """Slowloris from one address: past ``--max-heads-per-address`` its connections are closed as
    they are accepted, while honest requests from another address are answered as ever."""
    cap, flood = 20, 300
    with serve(tmp_path, "--max-heads-per-address", str(cap), "--head-timeout", "600") as port:
        socks = [connect(port) for _ in range(flood)]
        for sock in socks:
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                sock.sendall(PARTIAL_HEAD)
        try:
            closed = closed_by_server(socks, flood - cap)
            held = [s for s in socks if s not in closed]
            assert len(held) == cap
            assert select.select(held, [], [], 0)[0] == []  # the cap's own are still open, unanswered
            for _ in range(10):
                assert get(port, "/healthz").startswith(b"HTTP/1.1 200")
            # one of the address's own finishes its head: a place comes free for its next connection
            held[0].sendall(b"\r\n")
            assert read_answer(held[0]).startswith(b"HTTP/1.1 200")
            again = connect(port)
            again.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_answer(again).startswith(b"HTTP/1.1 200")
            again.close()
        finally:
            for sock in socks:
                sock.close()


def read_answer(sock: socket.socket) -> bytes:
    """One whole answer (head and ``Content-Length`` body) on a kept-alive connection."""
    got = b""
    while b"\r\n\r\n" not in got or len(got) < got.index(b"\r\n\r\n") + 4 + body_length(got):
        chunk = sock.recv(65536)
        assert chunk, got
        got += chunk
    return got


def body_length(answer: bytes) -> int:
    found = re.search(rb"\r\ncontent-length: (\d+)\r\n", answer, re.IGNORECASE)
    return int(found.group(1)) if found else 0


def test_unfinished_heads_time_out(tmp_path: Path) -> None:
    """A head not finished within ``--head-timeout``, a connection that never sends a byte, and a
    kept-alive connection's unfinished second head are all closed by the server."""
    with serve(tmp_path, "--head-timeout", "1", "--max-heads-per-address", "0") as port:
        partial = [connect(port) for _ in range(100)]
        for sock in partial:
            sock.sendall(PARTIAL_HEAD)
        silent = [connect(port) for _ in range(20)]
        second = connect(port)
        second.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_answer(second).startswith(b"HTTP/1.1 200")
        second.sendall(PARTIAL_HEAD)
        everyone = [*partial, *silent, second]
        try:
            closed_by_server(everyone, len(everyone))
            assert get(port, "/healthz").startswith(b"HTTP/1.1 200")
        finally:
            for sock in everyone:
                sock.close()


def test_a_body_trickled_byte_by_byte_is_cut_off(tmp_path: Path) -> None:
    """A request body gets ``--head-timeout`` seconds once its head is whole: one sent a byte
    every 0.1 s is answered 408 and closed long before it is all sent, while a body that comes in
    two parts in time is answered as ever, and the server serves on."""
    body = json.dumps({"game": "mau-mau", "seats": [{"kind": "human"}] * 2, "name": "x" * 20}).encode()
    head = (
        f"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    with serve(tmp_path, "--head-timeout", "1") as port:
        with connect(port, HONEST) as sock:
            sock.sendall(head + body[:10])
            time.sleep(0.3)
            sock.sendall(body[10:])
            assert read_answer(sock).startswith(b"HTTP/1.1 200")
        with connect(port) as sock:
            sock.sendall(head)
            sent = 0
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                while sent < len(body) and not select.select([sock], [], [], 0.1)[0]:
                    sock.sendall(body[sent : sent + 1])
                    sent += 1
            assert sent < len(body) // 2, f"{sent} of {len(body)} bytes sent before the server cut it off"
            answer = read_all(sock)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
        assert get(port, "/healthz").startswith(b"HTTP/1.1 200")


def test_a_head_too_large_is_refused_before_it_is_all_read(tmp_path: Path) -> None:
    """A header growing to 4 MB is answered 431 (or the connection closed) after some KB; a whole
    head of 1 MB is not answered 200; a 10 KB one still is."""
    with serve(tmp_path) as port:
        with connect(port) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
            sent = 0
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                while sent < 4 << 20 and not select.select([sock], [], [], 0)[0]:
                    sock.sendall(b"a" * 8192)
                    sent += 8192
            answer = read_all(sock)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:80]
        with connect(port) as sock:
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n")
            answer = read_all(sock)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:80]
        assert get(port, "/healthz", headers=b"X-Big: " + b"a" * 10_000 + b"\r\n").startswith(b"HTTP/1.1 200")


def test_the_bot_api_s_challenges_keep_to_the_table_caps(tmp_path: Path) -> None:
    """``POST /api/bot/challenge`` in a loop: the tables a minute and the tables waiting for
    players are capped per bot and per address, as the lobby's ``POST /api/tables`` is."""
    options = ("--tables-per-minute", "6", "--open-tables-per-address", "3", "--requests-per-second", "0")
    with serve(tmp_path, *options, "--refusal-delay", "0") as port:
        store = Store(f"sqlite:///{tmp_path / 's.db'}")
        tokens = {name: BotTokens(store).create(name) for name in ("flood-a", "flood-b", "flood-c", "quick")}
        store.close()

        def challenge(name: str, source: str, against: dict[str, str]) -> httpx.Response:
            seats = [{"kind": "online-bot", "name": name}, against]
            transport = httpx.HTTPTransport(local_address=source)
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=GUARD) as http:
                return http.post(
                    "/api/bot/challenge",
                    headers={"Authorization": f"Bearer {tokens[name]}"},
                    json={"game": "mau-mau", "seats": seats, "public": True, "clock": "off"},
                )

        person, bot = {"kind": "human"}, {"kind": "bot", "bot": "random"}
        waiting = [challenge("flood-a", ATTACKER, person) for _ in range(8)]
        assert [r.status_code for r in waiting] == [200] * 3 + [429] * 5
        assert all(r.json()["code"] == "too_many_tables" and "Retry-After" in r.headers for r in waiting[3:])
        assert "this bot already has 3 tables waiting" in waiting[-1].json()["error"]
        assert challenge("flood-a", "127.0.0.3", person).status_code == 429  # the bot's cap, from anywhere
        refused = challenge("flood-b", ATTACKER, person)  # the address's cap, with any bot
        assert refused.status_code == 429 and "this address already has 3" in refused.json()["error"]
        assert challenge("flood-c", "127.0.0.4", person).status_code == 200  # neither: a table
        listed = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=GUARD).json()["tables"]
        assert len(listed) == 4
        # tables that start at once (a built-in bot in the other seat) do not wait: the rate holds them
        started = [challenge("quick", "127.0.0.5", bot) for _ in range(8)]
        assert [r.status_code for r in started] == [200] * 6 + [429] * 2
        assert all(r.json()["status"] == "playing" for r in started[:6])
        assert "more than 6 new tables a minute from this bot" in started[-1].json()["error"]


def test_watching_a_private_table_needs_its_invite(tmp_path: Path) -> None:
    """A private table's id alone opens no spectator's socket, from any origin; its invite does.
    A public table may be watched by anyone."""
    with serve(tmp_path, "--bot-delay", "5") as port:
        base = f"127.0.0.1:{port}"
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        private = httpx.post(f"http://{base}/api/tables", json={"game": "mau-mau", "seats": seats}, timeout=GUARD)
        public = httpx.post(
            f"http://{base}/api/tables", json={"game": "mau-mau", "seats": seats, "public": True}, timeout=GUARD
        )
        table, invite = private.json()["table"], private.json()["invite_secret"]
        assert invite and public.json()["invite_secret"] is None

        def watch(table: str, origin: str | None = None, **hello: str) -> dict[str, Any]:
            headers = {"Origin": origin} if origin else {}
            with ws_connect(f"ws://{base}/ws/{table}", proxy=None, additional_headers=headers) as ws:
                ws.send(json.dumps({"type": "hello", "token": None, "seat": None, **hello}))
                frame: dict[str, Any] = json.loads(ws.recv(GUARD))
                if frame["type"] == "error":
                    with pytest.raises(ConnectionClosed) as closed:
                        ws.recv(GUARD)
                    assert closed.value.rcvd is not None
                    frame["closed"] = closed.value.rcvd.code
                return frame

        for origin in (None, f"http://{base}", "https://evil.example"):
            refused = watch(table, origin)
            assert (refused["type"], refused["code"], refused["closed"]) == ("error", "invite_needed", 4403)
            assert "hand" not in json.dumps(refused)
        wrong = watch(table, invite="x" + invite[1:])
        assert wrong["code"] == "invite_needed"
        watching = watch(table, f"http://{base}", invite=invite)
        assert watching["type"] == "snapshot" and watching["seat"] is None
        assert watch(public.json()["table"])["type"] == "snapshot"


def test_a_rated_table_takes_no_chosen_deal(tmp_path: Path) -> None:
    """Ladder inflation: a deal code seen at the end of a game, then a rated table dealt from it
    against the same bot anchor. A rated table is dealt at random; an unrated one still takes the code."""
    with serve(tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
        code = dealcode.encode("mau-mau", 2, {}, 12345)  # a deal the attacker knows by heart
        entry = {"name": "Mallory", "secret": "mallory-secret"}
        for rated in (True, False):
            body = {"game": "mau-mau", "seats": seats, "deal": code, "rated": rated, "ladder": entry}
            answer = httpx.post(f"{base}/api/tables", json=body, timeout=GUARD)
            if rated:
                assert answer.status_code == 400, answer.text
                assert answer.json()["code"] == "bad_message" and "no deal code" in answer.json()["error"]
            else:
                assert answer.status_code == 200, answer.text
        body = {"game": "mau-mau", "seats": seats, "rated": True, "ladder": entry}
        rated = httpx.post(f"{base}/api/tables", json=body, timeout=GUARD)
        assert rated.status_code == 200, rated.text


def test_a_rated_tables_seats_are_bound_to_ladder_names_as_they_are_taken(tmp_path: Path) -> None:
    """Ladder entries checked: every person's seat at a rated table comes with its ladder name
    (none entered when the last card wins); one name a table, one browser a table; ``alice``,
    ``ALICE``, Cyrillic ``Аlice`` and ``AIice`` are one name, held by whoever claimed it first."""
    with serve(tmp_path) as port:
        base = f"http://127.0.0.1:{port}"

        def browser() -> httpx.Client:  # a page of this site: its seat cookies come back
            return httpx.Client(base_url=base, headers={"Origin": base}, timeout=GUARD)

        anna, ben, mallory = browser(), browser(), browser()
        secrets = {"anna": "anna-browser-secret", "ben": "ben-browser-secret", "mallory": "mallory-secret-1"}
        seats = [{"kind": "human"}, {"kind": "human"}]

        def rated_table(creator: httpx.Client, name: str, secret: str) -> dict[str, Any]:
            body = {"game": "mau-mau", "seats": seats, "rated": True, "ladder": {"name": name, "secret": secret}}
            made = creator.post("/api/tables", json=body)
            assert made.status_code == 200, made.text
            return made.json()  # type: ignore[no-any-return]

        def join(who: httpx.Client, table: dict[str, Any], ladder: dict[str, str] | None) -> httpx.Response:
            body: dict[str, Any] = {"name": "Guest", "invite": table["invite_secret"]}
            if ladder is not None:
                body["ladder"] = ladder
            return who.post(f"/api/tables/{table['table']}/join", json=body)

        unnamed = anna.post("/api/tables", json={"game": "mau-mau", "seats": seats, "rated": True})
        assert unnamed.status_code == 400 and unnamed.json()["code"] == "ladder_name"
        first = rated_table(anna, "alice", secrets["anna"])
        # a seat taken without its ladder name: refused, and the seat stays free
        refused = join(ben, first, None)
        assert refused.status_code == 400 and refused.json()["code"] == "ladder_name"
        for like in ("ALICE", "\u0410lice", "AIice", "\uff41\uff4c\uff49\uff43\uff45", "alice"):
            taken = join(ben, first, {"name": like, "secret": secrets["ben"]})
            assert (taken.status_code, taken.json()["code"]) == (409, "ladder_name_taken"), like
        # the creator's own browser: its cookie holds seat 1 already; its secret with another name
        again = join(anna, first, {"name": "Anna Zwei", "secret": secrets["anna"]})
        assert again.status_code == 409 and again.json()["code"] == "taken"
        twice = join(mallory, first, {"name": "alice", "secret": secrets["anna"]})  # the same name
        assert twice.status_code == 409 and twice.json()["code"] == "ladder_twice"
        sock = join(mallory, first, {"name": "Mallory", "secret": secrets["anna"]})  # the same browser's secret
        assert sock.status_code == 409 and sock.json()["code"] == "ladder_twice"
        assert httpx.get(f"{base}/api/tables/{first['table']}", timeout=GUARD).json()["status"] == "waiting"
        joined = join(ben, first, {"name": "Ben", "secret": secrets["ben"]})
        assert joined.status_code == 200, joined.text
        # the game runs: both seats play for their names, and nobody enters now
        table = first["table"]
        assert anna.get(f"/api/tables/{table}/ladder").json() == {"rated": True, "entered": "alice"}
        assert ben.get(f"/api/tables/{table}/ladder").json() == {"rated": True, "entered": "Ben"}
        late = ben.post(f"/api/tables/{table}/ladder", json={"name": "Ben", "secret": secrets["ben"]})
        assert late.status_code == 409 and late.json()["code"] == "taken"
        # a name is one person's on every table: Mallory cannot create one as "ALICE" either
        copy = {"game": "mau-mau", "seats": seats, "rated": True, "ladder": {"name": "ALICE", "secret": "x" * 12}}
        stolen = mallory.post("/api/tables", json=copy)
        assert stolen.status_code == 409 and stolen.json()["code"] == "ladder_name_taken"
        for client in (anna, ben, mallory):
            client.close()
