"""The Bot API against a real ``mauseloch serve`` process: tokens, challenges, whole games played
by bots over NDJSON streams, and every refusal (bad or revoked token, another seat, a stale
version, a flood) leaving the table as it was."""

from __future__ import annotations

import contextlib
import json
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from websockets.sync.client import connect

from mauseloch.core.views import View
from mauseloch.server.bodies import Ladder
from mauseloch.server.botapi.client import BotClient, registered
from mauseloch.server.botapi.tokens import BotTokens
from mauseloch.server.storage.store import Store

pytestmark = pytest.mark.slow

GUARD = 60.0  # seconds: only so a broken server fails instead of hanging


class Server:
    def __init__(self, base: str, db: str) -> None:
        self.base = base
        self.db = db
        self.http = httpx.Client(base_url=base, trust_env=False, timeout=GUARD)

    def token(self, name: str) -> str:
        """A new bot token, made by the command a server's admin runs."""
        out = subprocess.run(
            [sys.executable, "-m", "mauseloch.cli", "bot-token", "create", "--name", name, "--db", self.db],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return out.stdout.strip()

    def auth(self, token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def online(self) -> list[str]:
        bots: list[str] = self.http.get("/api/bots/online").json()["bots"]
        return bots

    def summary(self, table: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.http.get(f"/api/tables/{table}").json()
        return answer


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Until ``condition()`` holds; a failure after :data:`GUARD` seconds says ``what``."""
    end = time.monotonic() + GUARD
    while not condition():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('botapi') / 's.db'}"
    cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", db, "--bot-delay", "0"]
    cmd += ["--clock-scale", "0.05", "--requests-per-second", "0", "--tables-per-minute", "0"]
    cmd += ["--open-tables-per-address", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.match(r"Mauseloch is serving at (http://127\.0\.0\.1:\d+)/", line)
        assert match, (line, proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        for pipe in (proc.stdout, proc.stderr):  # read on, so a full pipe never holds the server up
            if pipe is not None:
                threading.Thread(target=pipe.read, daemon=True).start()
        yield Server(match.group(1), db)
    finally:
        proc.terminate()
        proc.wait(GUARD)


class Events:
    """A bot's event stream read in a thread: each object in ``got``."""

    def __init__(self, server: Server, token: str) -> None:
        self.got: queue.Queue[dict[str, Any]] = queue.Queue()
        self.status = 0
        self._thread = threading.Thread(target=self._read, args=(server, token), daemon=True)
        self._thread.start()

    def _read(self, server: Server, token: str) -> None:
        # the server stops at the end of the module, under a stream still open
        stream = server.http.stream("GET", "/api/bot/stream", headers=server.auth(token))
        with contextlib.suppress(httpx.HTTPError), stream as resp:
            self.status = resp.status_code
            for raw in resp.iter_lines():
                if raw.strip():
                    self.got.put(json.loads(raw))

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            event = self.got.get(timeout=GUARD)
            if event["type"] == kind:
                return event


class GameStream:
    """A bot's game stream read in a thread: each object in ``lines``, until ``game_finish``."""

    def __init__(self, server: Server, token: str, table: str) -> None:
        self.lines: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._read, args=(server, token, table), daemon=True)
        self._thread.start()

    def _read(self, server: Server, token: str, table: str) -> None:
        stream = server.http.stream("GET", f"/api/bot/game/{table}/stream", headers=server.auth(token))
        with contextlib.suppress(httpx.HTTPError), stream as resp:
            for raw in resp.iter_lines():
                if raw.strip():
                    self.lines.append(json.loads(raw))
                    if self.lines[-1]["type"] == "game_finish":
                        return

    def join(self) -> None:
        self._thread.join(GUARD)
        assert not self._thread.is_alive(), "the game stream never finished"


def playing(server: Server, token: str, kind: str, games: int = 1) -> tuple[BotClient, threading.Thread]:
    """A bot of ``kind`` run by the Bot API client in a thread, until it played ``games``."""
    client = BotClient(server.base, token, registered(kind), games=games)
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    return client, thread


def finish(client: BotClient, thread: threading.Thread, guard: float = GUARD) -> None:
    thread.join(guard)
    assert not thread.is_alive(), "the bot never finished its game"


def test_a_token_opens_the_api_until_it_is_revoked(server: Server) -> None:
    token = server.token("lifecycle")
    assert token.startswith("mlb_")
    listed = subprocess.run(
        [sys.executable, "-m", "mauseloch.cli", "bot-token", "list", "--db", server.db],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert re.search(r"^lifecycle\tactive\t", listed, re.M)
    assert token not in listed  # shown once, stored hashed
    stored = [e for e in BotTokens(Store(server.db)).list() if e.name == "lifecycle"]
    assert stored and not stored[0].revoked

    events = Events(server, token)
    wait_for(lambda: "lifecycle" in server.online(), "the bot shows as online")
    # the server lists the bot as it opens the stream; the answer's head reaches the reader a moment later
    wait_for(lambda: events.status != 0, "the stream answers")
    assert events.status == 200

    bad = server.http.get("/api/bot/stream", headers=server.auth("mlb_not-a-token"))
    assert bad.status_code == 401 and bad.json()["code"] == "bad_token"
    assert server.http.post("/api/bot/game/x/move", json={"move": "draw", "version": 0}).status_code == 401

    subprocess.run(
        [sys.executable, "-m", "mauseloch.cli", "bot-token", "revoke", "lifecycle", "--db", server.db], check=True
    )
    # a good token is remembered for at most two seconds: then the revocation holds
    body = {"game": "mau-mau", "seats": []}
    wait_for(
        lambda: server.http.post("/api/bot/challenge", headers=server.auth(token), json=body).status_code == 401,
        "the revoked token is refused",
    )
    revoked = server.http.post("/api/bot/challenge", headers=server.auth(token), json=body)
    assert revoked.json()["code"] == "bad_token"
    # the open stream ends at its next keep-alive: the bot is no longer online
    wait_for(lambda: "lifecycle" not in server.online(), "a revoked bot drops offline")


@pytest.mark.parametrize("game", ["mau-mau", "aus-die-maus"])
def test_two_bots_play_a_whole_game_through_the_api(server: Server, game: str) -> None:
    a, b = f"{game}-a", f"{game}-b"
    ta, tb = server.token(a), server.token(b)
    bot_a, thread_a = playing(server, ta, "random")
    bot_b, thread_b = playing(server, tb, "random")
    wait_for(lambda: {a, b} <= set(server.online()), "both bots online")
    seats = [{"kind": "online-bot", "name": a}, {"kind": "online-bot", "name": b}]
    # no turn clock: a stand-in never plays a seat, however slowly this machine runs the bots
    created = bot_a.post("/api/bot/challenge", {"game": game, "seats": seats, "clock": "off"})
    table = created["table"]
    assert created["seat"] == 0 and created["status"] == "waiting"  # until b accepts
    finish(bot_a, thread_a)
    finish(bot_b, thread_b)
    summary = server.summary(table)
    assert summary["status"] == "over"
    assert [s["kind"] for s in summary["seats"]] == ["online-bot", "online-bot"]
    assert [s["bot"] for s in summary["seats"]] == [a, b]  # shown as bots, with their names
    record = server.http.get(f"/api/tables/{table}/record").json()
    assert record["moves"] and "stand-in" not in record.get("played_by", [])
    challenges = server.http.get(f"/api/tables/{table}/challenges").json()["challenges"]
    assert [(c["bot"], c["state"]) for c in challenges] == [(b, "accepted")]


def hello(ws: Any, token: str, seat: int) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token, "seat": seat}))
    return frame(ws)


def frame(ws: Any, kinds: tuple[str, ...] = ("snapshot", "update")) -> dict[str, Any]:
    while True:
        got: dict[str, Any] = json.loads(ws.recv(timeout=GUARD))
        if got["type"] in kinds:
            return got


def test_a_person_plays_a_bot_that_accepted_the_lobby_s_challenge(server: Server) -> None:
    ta = server.token("lobby-bot")
    bot, thread = playing(server, ta, "heuristic")
    wait_for(lambda: "lobby-bot" in server.online(), "the bot is online")
    seats = [{"kind": "human"}, {"kind": "online-bot", "name": "lobby-bot"}]
    created = server.http.post("/api/tables", json={"game": "mau-mau", "seats": seats, "name": "Ada", "clock": "off"})
    created = created.json()
    table, token = created["table"], created["token"]
    ws_url = server.base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(ws_url) as ws:
        state = hello(ws, token, 0)
        while not state["view"]["is_over"]:
            view = state["view"]
            if view["to_move"] == 0 and view["legal_moves"]:  # refused until the bot accepted
                move = json.dumps({"type": "move", "move": view["legal_moves"][0], "version": state["version"]})
                ws.send(move)
            got = frame(ws, ("snapshot", "update", "error"))
            while got["type"] == "error":
                if got["code"] == "rate_limited":
                    # This person answers at once, faster than anyone: over the socket's 20
                    # messages a second (a loaded machine delivers updates in bursts) its move is
                    # refused, as a page's would be; it is tried again a second later.
                    time.sleep(1.0)
                    ws.send(move)
                    got = frame(ws, ("snapshot", "update", "error"))
                else:  # not started yet, or stale: the next state says what now
                    got = frame(ws)
            state = got
    finish(bot, thread)
    assert server.summary(table)["status"] == "over"
    record = server.http.get(f"/api/tables/{table}/record").json()
    assert {m[0] for m in record["moves"]} == {0, 1}  # both played, neither through a stand-in
    assert set(record["played_by"]) == {"person"}


def test_refusals_leave_the_table_as_it_was(server: Server) -> None:
    ta, tb = server.token("strict-a"), server.token("strict-b")
    Events(server, ta)
    eb = Events(server, tb)
    wait_for(lambda: {"strict-a", "strict-b"} <= set(server.online()), "both bots online")
    seats = [{"kind": "online-bot", "name": "strict-a"}, {"kind": "online-bot", "name": "strict-b"}]
    body = {"game": "mau-mau", "seats": seats, "clock": "off"}
    made = server.http.post("/api/bot/challenge", headers=server.auth(ta), json=body)
    table = made.json()["table"]
    ch = eb.next("challenge")["challenge"]
    assert ch["game"] == "mau-mau" and ch["from"] == "strict-a" and ch["players"] == 2
    # a move before the table starts is refused
    early = server.http.post(
        f"/api/bot/game/{table}/move", headers=server.auth(ta), json={"move": "draw", "version": 0}
    )
    assert early.status_code == 400 and early.json()["code"] == "not_started"
    assert (
        server.http.post(f"/api/bot/challenge/{ch['id']}/accept", headers=server.auth(tb), json={}).status_code == 200
    )
    assert eb.next("game_start")["table"] == table
    # both bots hold their game streams open: nobody's grace time runs, no stand-in moves
    streams = [GameStream(server, ta, table), GameStream(server, tb, table)]
    wait_for(lambda: all(g.lines for g in streams), "both game streams start with a snapshot")
    assert [g.lines[0]["seat"] for g in streams] == [0, 1]
    views = [[m["view"] for m in g.lines if "view" in m][-1] for g in streams]
    assert views[0]["legal_moves"] and not views[1].get("legal_moves")  # only the seat to move has moves
    assert views[0]["hand"] != views[1]["hand"] and "hands" not in views[1]  # each its own hand only
    # the challenge is answered: a second answer is refused
    again = server.http.post(f"/api/bot/challenge/{ch['id']}/decline", headers=server.auth(tb), json={})
    assert again.status_code == 409
    before = server.summary(table)
    assert before["status"] == "playing" and before["version"] == 0
    # seat 0 moves first: strict-b's move is for a seat that is not to move
    other = server.http.post(
        f"/api/bot/game/{table}/move", headers=server.auth(tb), json={"move": "draw", "version": 0}
    )
    assert other.status_code == 400 and other.json()["code"] == "not_your_turn"
    stale = server.http.post(
        f"/api/bot/game/{table}/move", headers=server.auth(ta), json={"move": "draw", "version": 7}
    )
    assert stale.status_code == 400 and stale.json()["code"] == "stale"
    illegal = server.http.post(
        f"/api/bot/game/{table}/move", headers=server.auth(ta), json={"move": "ZZ", "version": 0}
    )
    assert illegal.status_code == 400 and illegal.json()["code"] in ("illegal", "bad_message")
    stranger = server.token("strict-c")
    seated = server.http.post(
        f"/api/bot/game/{table}/move", headers=server.auth(stranger), json={"move": "draw", "version": 0}
    )
    assert seated.status_code == 403 and seated.json()["code"] == "not_seated"
    after = server.summary(table)
    assert after["version"] == before["version"] and after["status"] == "playing"

    # a flood: more moves a second than a token may send are answered 429 with Retry-After
    codes = []
    for _ in range(40):
        r = server.http.post(
            f"/api/bot/game/{table}/move", headers=server.auth(tb), json={"move": "draw", "version": 0}
        )
        codes.append(r.status_code)
        if r.status_code == 429:
            assert int(r.headers["Retry-After"]) >= 1 and r.json()["code"] == "rate_limited"
            break
    assert codes[-1] == 429 and set(codes[:-1]) == {400}
    assert server.summary(table)["version"] == before["version"]


def test_a_silent_bot_gets_the_turn_clock_and_a_stand_in(server: Server) -> None:
    token = server.token("silent")
    events = Events(server, token)
    wait_for(lambda: "silent" in server.online(), "the bot is online")
    seats = [{"kind": "online-bot", "name": "silent"}, {"kind": "bot", "bot": "random"}]
    made = server.http.post(
        "/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}, *seats], "clock": "fast"}
    ).json()
    table = made["table"]
    ch = events.next("challenge")["challenge"]
    assert ch["seat"] == 1
    server.http.post(f"/api/bot/challenge/{ch['id']}/accept", headers=server.auth(token), json={}).raise_for_status()
    # the person leaves at once: stand-ins and the turn clock play both people's seats; the bot
    # holds its game stream open and never moves
    stream = GameStream(server, token, table)
    ws_url = server.base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(ws_url) as ws:
        hello(ws, made["token"], 0)
        ws.send(json.dumps({"type": "leave"}))
    stream.join()
    lines = stream.lines
    assert lines[0]["type"] == "snapshot" and lines[0]["seat"] == 1
    assert lines[-1] == {"type": "game_finish", "table": table}
    assert server.summary(table)["status"] == "over"
    record = server.http.get(f"/api/tables/{table}/record").json()
    by = record.get("played_by", [])
    assert by and "stand-in" in by  # the bot's turns were played for it


def ladder_of(server: Server, game: str, players: int) -> dict[str, dict[str, Any]]:
    answer = server.http.get("/api/ladder", params={"game": game, "players": players})
    msgspec.json.decode(answer.content, type=Ladder)  # the answer is its schema's struct, exactly
    return {e["id"]: e for e in answer.json()["entries"]}


def test_ratings_move_after_rated_games_only(server: Server) -> None:
    a, b = "ladder-a", "ladder-b"
    bot_a, thread_a = playing(server, server.token(a), "heuristic", games=4)
    bot_b, thread_b = playing(server, server.token(b), "random", games=3)
    wait_for(lambda: {a, b} <= set(server.online()), "both bots online")
    pair = [{"kind": "online-bot", "name": a}, {"kind": "online-bot", "name": b}]

    def play(seats: list[dict[str, Any]], rated: bool) -> str:
        table: str = bot_a.post(
            "/api/bot/challenge", {"game": "mau-mau", "seats": seats, "clock": "off", "rated": rated}
        )["table"]
        wait_for(lambda: server.summary(table)["status"] == "over", f"table {table} finished")
        assert server.http.get(f"/api/tables/{table}/ladder").json() == {"rated": rated, "entered": None}
        return table

    play(pair, rated=False)
    assert ladder_of(server, "mau-mau", 2) == {}  # an unrated game moves nothing
    rated = play(pair, rated=True)
    after = ladder_of(server, "mau-mau", 2)
    assert set(after) == {f"bot:{a}", f"bot:{b}"}
    assert all(e["games"] == 1 and e["rating"] != 25 - 3 * 25 / 3 for e in after.values())
    assert after[f"bot:{a}"]["history"][0]["table"] == rated
    assert after[f"bot:{a}"]["opponents"][0]["id"] == f"bot:{b}"
    low, high = sorted(e["mu"] for e in after.values())
    assert low < 25 < high  # the winner went up, the loser down
    play(pair, rated=False)
    assert ladder_of(server, "mau-mau", 2) == after  # still only the rated game counts
    # against a built-in bot: the anchor's rating is fixed, the online bot's moves
    play([{"kind": "online-bot", "name": a}, {"kind": "bot", "bot": "random"}], rated=True)
    with_anchor = ladder_of(server, "mau-mau", 2)
    assert with_anchor["anchor:random"]["games"] == 1 and with_anchor["anchor:random"]["sigma"] == 1.0
    assert with_anchor[f"bot:{a}"]["games"] == 2 and with_anchor[f"bot:{a}"]["mu"] != after[f"bot:{a}"]["mu"]
    finish(bot_b, thread_b)
    finish(bot_a, thread_a)


def test_two_bots_play_mausgeflippt_and_the_referee_judges_their_reactions(server: Server) -> None:
    a, b = "mg-a", "mg-b"
    bot_a, thread_a = playing(server, server.token(a), "hard")
    bot_b, thread_b = playing(server, server.token(b), "hard")
    wait_for(lambda: {a, b} <= set(server.online()), "both bots online")
    seats = [{"kind": "online-bot", "name": a}, {"kind": "online-bot", "name": b}]
    # Two cards a hand: a short game, with a few windows. The referee decides a window at most
    # 300 ms after its first valid claim (COLLECT_CAP_MS): a claim later than that is not judged.
    # Bots of one level are that close in about nine windows of ten ("normal" against "hard",
    # in one window of the one-card game, left seat 1 without a claim in a full run).
    # A 1.5 s window: "hard" bots claim within about 0.5-1.3 s, so nearly every claim is still in
    # time, and a mouse that neither bot reacts to (a few in each game) costs 1.5 s, not 6.
    options = {"hand_size": 2, "window_ms": 1500}
    made = bot_a.post("/api/bot/challenge", {"game": "mausgeflippt", "seats": seats, "options": options})
    finish(bot_a, thread_a, guard=5 * GUARD)
    finish(bot_b, thread_b, guard=GUARD)
    table = made["table"]
    assert server.summary(table)["status"] == "over"
    record = server.http.get(f"/api/tables/{table}/record").json()
    # every decided window has its claims judged by what the server measured on the bot's stream
    claims = [c for w in record["referee"] for c in w.get("claims", [])]
    assert claims, record["referee"][:2]
    assert {c["seat"] for c in claims} == {0, 1}


def test_bot_connect_runs_a_class_of_ones_own_from_the_examples(server: Server) -> None:
    token = server.token("wish-keeper")
    example = str(Path(__file__).resolve().parents[2] / "examples" / "bot_wish_keeper.py")
    cmd = [sys.executable, "-m", "mauseloch.cli", "bot", "connect", "--url", server.base, "--token", token]
    proc = subprocess.Popen([*cmd, "--bot", f"{example}:WishKeeper", "--games", "1"], stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: "wish-keeper" in server.online(), "the bot connects")
        other, thread = playing(server, server.token("keeper-rival"), "heuristic")
        wait_for(lambda: "keeper-rival" in server.online(), "its rival connects")
        seats = [{"kind": "online-bot", "name": "keeper-rival"}, {"kind": "online-bot", "name": "wish-keeper"}]
        table = other.post("/api/bot/challenge", {"game": "mau-mau", "seats": seats, "clock": "off"})["table"]
        assert proc.wait(GUARD) == 0  # it played its one game and stopped
        finish(other, thread)
        record = server.http.get(f"/api/tables/{table}/record").json()
        assert {m[0] for m in record["moves"]} == {0, 1} and set(record["played_by"]) == {"person"}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_bots_reconnect_after_the_server_restarts_and_finish_their_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    port = free_port()
    cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", str(port), "--db", db, "--bot-delay", "0"]
    cmd += ["--requests-per-second", "0"]
    base = f"http://127.0.0.1:{port}"

    def start() -> subprocess.Popen[str]:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None and proc.stdout.readline().startswith("Mauseloch is serving")
        threading.Thread(target=proc.stdout.read, daemon=True).start()
        return proc

    proc = start()
    server = Server(base, db)
    try:
        bot_a, thread_a = playing(server, server.token("phoenix-a"), "random")
        bot_b, thread_b = playing(server, server.token("phoenix-b"), "random")
        wait_for(lambda: {"phoenix-a", "phoenix-b"} <= set(server.online()), "both bots online")
        seats = [{"kind": "online-bot", "name": "phoenix-a"}, {"kind": "online-bot", "name": "phoenix-b"}]
        # a game long enough to be cut: no clock, and the bots hold their moves until it is
        gate = threading.Event()
        for bot in (bot_a, bot_b):
            factory = bot.factory
            bot.factory = lambda game, seat, table, f=factory: Slow(f(game, seat, table), gate)
        table = bot_a.post("/api/bot/challenge", {"game": "mau-mau", "seats": seats, "clock": "off"})["table"]
        wait_for(lambda: server.summary(table)["version"] >= 2, "the game is under way")
        proc.kill()  # as a crash: every stream breaks at once
        proc.wait(GUARD)
        before = Store(db).load_table(table)
        assert before is not None and before.status == "playing"
        proc = start()
        gate.set()  # from now on the bots play at full speed, on the streams they opened again
        finish(bot_a, thread_a, guard=3 * GUARD)
        finish(bot_b, thread_b, guard=GUARD)
        after = server.summary(table)
        assert after["status"] == "over" and after["version"] > len(before.moves)
        record = server.http.get(f"/api/tables/{table}/record").json()
        assert record["moves"][: len(before.moves)] == [list(m) for m in before.moves]  # nothing acknowledged lost
    finally:
        proc.terminate()
        proc.wait(GUARD)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Slow:
    """A bot that, until ``gate`` is set, takes a moment over each move."""

    def __init__(self, bot: Any, gate: threading.Event) -> None:
        self.bot = bot
        self.gate = gate

    def choose(self, view: View, legal: list[str]) -> str:
        self.gate.wait(0.2)
        move: str = self.bot.choose(view, legal)
        return move


def test_two_bots_play_a_match_on_to_its_next_deal(server: Server) -> None:
    a, b = "match-a", "match-b"
    bot_a, thread_a = playing(server, server.token(a), "random", games=2)
    bot_b, thread_b = playing(server, server.token(b), "random", games=2)
    wait_for(lambda: {a, b} <= set(server.online()), "both bots online")
    seats = [{"kind": "online-bot", "name": a}, {"kind": "online-bot", "name": b}]
    first = bot_a.post("/api/bot/challenge", {"game": "mau-mau", "seats": seats, "clock": "off", "deals": 2})["table"]
    finish(bot_a, thread_a)
    finish(bot_b, thread_b)
    second = server.summary(first)["next"]
    assert second and server.summary(second)["status"] == "over"
    for table in (first, second):  # both deals played by the bots themselves, no stand-in
        assert set(server.http.get(f"/api/tables/{table}/record").json()["played_by"]) == {"person"}


def test_the_creator_puts_another_seat_kind_where_a_bot_declined(server: Server) -> None:
    """A declined challenge leaves its seat to the table's creator: refused to anyone else, while
    the challenge is open, and for an unknown kind (the table unchanged each time); then another
    online bot is challenged, and after its decline too a built-in bot takes the seat and the
    table starts."""
    ta, tb = server.token("shy-a"), server.token("shy-b")
    ea, eb = Events(server, ta), Events(server, tb)
    wait_for(lambda: {"shy-a", "shy-b"} <= set(server.online()), "both bots online")
    seats = [{"kind": "human"}, {"kind": "online-bot", "name": "shy-a"}]
    created = server.http.post("/api/tables", json={"game": "mau-mau", "seats": seats, "name": "Ada", "clock": "off"})
    table, token = created.json()["table"], created.json()["token"]
    page = {"Origin": server.base}
    creator = httpx.Client(base_url=server.base, trust_env=False, timeout=GUARD)
    opened = creator.post(f"/api/tables/{table}/open-seat", json={"seat": 0, "token": token}, headers=page)
    assert opened.status_code == 200
    change = f"/api/tables/{table}/seats/1"
    ch = ea.next("challenge")["challenge"]
    # still open: not the creator's to change yet
    early = creator.post(change, json={"kind": "bot", "bot": "random"}, headers=page)
    assert early.status_code == 409 and early.json()["code"] == "taken"
    assert (
        server.http.post(f"/api/bot/challenge/{ch['id']}/decline", headers=server.auth(ta), json={}).status_code == 200
    )
    answer = creator.get(f"/api/tables/{table}/challenges").json()
    assert [c["state"] for c in answer["challenges"]] == ["declined"]
    assert answer["creator"] is True and "random" in answer["bots"] and "shy-b" in answer["online"]
    assert "shy-a" not in answer["online"]  # it sits at this table already
    assert server.http.get(f"/api/tables/{table}/challenges").json()["creator"] is False
    # refusals: another browser (no seat cookie), an unknown level, a seat never challenged
    stranger = server.http.post(change, json={"kind": "bot", "bot": "random"}, headers=page)
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_seated"
    unknown = creator.post(change, json={"kind": "bot", "bot": "grandmaster"}, headers=page)
    assert unknown.status_code == 400 and unknown.json()["code"] == "bad_message"
    own = creator.post(f"/api/tables/{table}/seats/0", json={"kind": "human"}, headers=page)
    assert own.status_code == 400 and own.json()["code"] == "bad_message"
    summary = server.summary(table)
    assert summary["status"] == "waiting" and summary["seats"][1]["kind"] == "online-bot"
    # another online bot is challenged in that seat
    assert creator.post(change, json={"kind": "online-bot", "name": "shy-b"}, headers=page).status_code == 200
    ch_b = eb.next("challenge")["challenge"]
    assert (ch_b["table"], ch_b["seat"], ch_b["from"]) == (table, 1, "Ada")
    answer = creator.get(f"/api/tables/{table}/challenges").json()
    assert [(c["bot"], c["state"]) for c in answer["challenges"]] == [("shy-b", "open")]
    assert (
        server.http.post(f"/api/bot/challenge/{ch_b['id']}/decline", headers=server.auth(tb), json={}).status_code
        == 200
    )
    # a built-in bot: every seat is taken, the table starts
    done = creator.post(change, json={"kind": "bot", "bot": "random"}, headers=page)
    assert done.status_code == 200 and done.json()["status"] == "playing"
    summary = server.summary(table)
    assert summary["status"] == "playing" and summary["seats"][1]["kind"] == "bot"
    assert creator.get(f"/api/tables/{table}/challenges").json()["challenges"] == []
    again = creator.post(change, json={"kind": "human"}, headers=page)
    assert again.status_code == 409  # playing: no seat changes any more
    creator.close()
