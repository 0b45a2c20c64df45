"""Mausgeflippt through the real server over unequal connections: the truly faster reactor wins.

The real server runs in a subprocess on 127.0.0.1; two WebSocket clients (``websockets``) sit
behind injected delays, one with a 20 ms round trip, one with 300 ms. Each client behaves as
the page does (web/js/conn.js and mausgeflippt.js): it answers the server's clock pings at
once with its own clock (each client's clock is off the server's by a different amount), shows
the mouse at the start time the server sent ahead, and claims the reaction time it measured.
The player on the slow line reacts faster, but by less than the difference of the lines: the
first message to reach the server is the slower reactor's every time, and the referee must
still give every mouse to the faster one.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
import websockets

from mauseloch.server.storage.store import Store

from ..browser.conftest import Server, server_fixture  # the real server in a subprocess, as the browser tests start it

MICE = 4  # windows the test judges
MOST_MICE = 12  # windows it may play to find MICE in which this process kept its own timing
# How late this test process may be, in all, at playing the far player's part of one window (its
# timers and its handling of the window's message), for that window to count: the far player wins by
# 110 ms of true reaction, less at most the lag quota (25 ms), so a harness that lags more than that
# plays another race than the one it stages. Such windows are shown, not judged.
HARNESS_LATE_MS = 40.0
FAST_MS, SLOW_MS = 300, 410  # true reaction times: the slow line's player is 110 ms faster
GUARD = 30.0  # seconds: only so that a broken server fails the test instead of hanging it


# a short countdown (fast clock × 0.5 = 1 s): long enough for the first clock pings
server = server_fixture("reactions-server", "--clock-scale", "0.5")


def post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())  # type: ignore[no-any-return]


class DelayedClient:
    """A seat behind a line with ``rtt_ms`` round trip (half each way), reacting in ``react_ms``."""

    def __init__(self, url: str, seat: int, token: str, rtt_ms: float, react_ms: int, clock_off_ms: float) -> None:
        self.url, self.seat, self.token = url, seat, token
        self.one_way = rtt_ms / 2000.0
        self.react_ms = react_ms
        self.clock_off_ms = clock_off_ms
        self.version = -1
        self.view: dict[str, Any] = {}
        self.winners: list[int | None] = []  # per decided window: the seat whose reaction won
        self.errors: list[dict[str, Any]] = []
        self.windows: dict[int, dict[str, Any]] = {}
        self.reacted: set[int] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.late_ms: dict[int, float] = {}  # per window (its version): how late this process played it
        self.handling_late_ms = 0.0

    def add_late(self, version: int | None, ms: float) -> None:
        if version is not None:
            self.late_ms[version] = self.late_ms.get(version, 0.0) + max(0.0, ms)

    def on_time(self, versions: list[int]) -> list[int]:
        """Indexes (in window order) of the windows this client played on time."""
        return [i for i, v in enumerate(versions) if self.late_ms.get(v, 0.0) <= HARNESS_LATE_MS]

    def clock(self) -> float:
        """This client's own clock in ms (like performance.now(): its own zero)."""
        return time.monotonic() * 1000.0 + self.clock_off_ms

    def later(self, seconds: float, coro: Coroutine[Any, Any, None], version: int | None = None) -> None:
        due = time.monotonic() + seconds

        async def run() -> None:
            await asyncio.sleep(seconds)
            self.add_late(version, (time.monotonic() - due) * 1000.0)
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def send(self, ws: Any, msg: dict[str, Any], version: int | None = None) -> None:
        """Sent now, arriving one way later (messages keep their order: equal delays)."""
        self.later(self.one_way, ws.send(json.dumps(msg)), version)

    async def run(self, done: Callable[[], bool]) -> None:
        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token, "seat": self.seat}))
            line: asyncio.Queue[tuple[float, str]] = asyncio.Queue()

            async def read() -> None:  # stamps each message as it comes off the socket
                async for raw in ws:
                    line.put_nowait((time.monotonic() + self.one_way, str(raw)))

            reader = asyncio.get_running_loop().create_task(read())
            try:
                async with asyncio.timeout(GUARD):  # a stalled game fails with TimeoutError
                    while not done():
                        due, raw = await line.get()
                        # the message spends one way on the line: handled when it "arrives"
                        await asyncio.sleep(max(0.0, due - time.monotonic()))
                        self.handling_late_ms = (time.monotonic() - due) * 1000.0
                        self.handle(ws, json.loads(raw))
            finally:
                reader.cancel()

    def handle(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "clock_ping":
            self.send(ws, {"type": "clock_pong", "n": msg["n"], "t": self.clock()})
        elif kind in ("snapshot", "update"):
            self.version, self.view = msg["version"], msg["view"]
            for ev in msg["events"]:
                if ev["type"] == "reaction":
                    self.winners.append(ev["seat"])
                elif ev["type"] == "timeout":
                    self.winners.append(None)
            self.maybe_react(ws)
        elif kind == "window":
            show = self.clock() + msg["in_ms"] if msg["start"] is None else msg["start"]
            if msg["start"] is None:  # shown relative to when it was handled: late handling shows late
                self.add_late(msg["version"], self.handling_late_ms)
            self.windows[msg["version"]] = {"show": show}
            self.maybe_react(ws)
        elif kind == "error":
            self.errors.append(msg)

    def maybe_react(self, ws: Any) -> None:
        """Once the window and the update that shows the mouse are both here: at the show time
        the mouse is "painted"; the player reacts ``react_ms`` later and claims that time."""
        window = self.windows.get(self.version)
        if window is None or not self.view.get("window_open") or self.version in self.reacted:
            return
        self.reacted.add(self.version)
        legal = self.view["legal_moves"]
        move = next((m for m in legal if m.startswith("catch")), legal[0])
        wait = (window["show"] - self.clock() + self.react_ms) / 1000.0
        msg = {"type": "react", "move": move, "version": self.version, "ms": self.react_ms}
        self.add_late(self.version, -wait * 1000.0)  # the update came after the reaction was due
        self.later(max(0.0, wait), self._claim(ws, msg), self.version)

    async def _claim(self, ws: Any, msg: dict[str, Any]) -> None:
        self.send(ws, msg, msg["version"])


def two_seat_table(server: Server) -> tuple[str, dict[str, Any], dict[str, Any], str]:
    """A Mausgeflippt table for two people on the fast clock: its id, the creator's and the
    joiner's answers (seat, token) and the WebSocket address."""
    created = post(server, "/api/tables", {"game": "mausgeflippt", "seats": [{"kind": "human"}] * 2, "clock": "fast"})
    table = created["table"]
    joined = post(server, f"/api/tables/{table}/join", {"name": "Ben", "invite": created["invite_secret"]})
    return table, created, joined, server.url.replace("http://", "ws://") + f"/ws/{table}"


def play_duel(
    run_async: Callable[[Coroutine[Any, Any, None]], None], a: DelayedClient, b: DelayedClient, timed: DelayedClient
) -> tuple[list[int], dict[int, int]]:
    """Both play until ``MICE`` windows are decided in which this process played ``timed``'s part
    on time (or ``MOST_MICE`` are decided); those windows, and how late its part was in each."""

    def judged() -> list[int]:
        decided = min(len(a.winners), len(b.winners))
        return timed.on_time(sorted(timed.windows)[:decided])

    def done() -> bool:
        decided = min(len(a.winners), len(b.winners))
        return len(judged()) >= MICE or decided >= MOST_MICE

    async def play() -> None:
        await asyncio.gather(a.run(done), b.run(done))

    run_async(play())
    played = sorted(timed.windows)[: min(len(a.winners), len(b.winners))]
    return judged(), {v: round(timed.late_ms.get(v, 0.0)) for v in played}


def referee_windows(server: Server, table: str, counted: list[int]) -> list[dict[str, Any]]:
    """The server's own log of the ``counted`` windows (decision and claims), from its store."""
    store = Store(server.db)
    row = store.load_table(table)
    store.close()
    assert row is not None
    logged = [row.referee[i] for i in sorted(row.referee)]
    return [logged[i] for i in counted]


@pytest.mark.slow
def test_the_truly_faster_reactor_wins_over_a_slower_line(
    server: Server, run_async: Callable[[Coroutine[Any, Any, None]], None]
) -> None:
    table, created, joined, ws_url = two_seat_table(server)
    near = DelayedClient(ws_url, 0, created["token"], rtt_ms=20, react_ms=SLOW_MS, clock_off_ms=-7000.0)
    far = DelayedClient(ws_url, joined["seat"], joined["token"], rtt_ms=300, react_ms=FAST_MS, clock_off_ms=5000.0)
    counted, lateness = play_duel(run_async, near, far, timed=far)
    # first-message-wins would give every mouse to the near player: 410 + 10 < 300 + 150 ms
    assert SLOW_MS + 10 < FAST_MS + 150
    # fewer means this process could not keep time on this machine, not that the referee erred
    assert len(counted) >= MICE // 2, f"the far player's part was played late in most windows: {lateness}"
    assert [near.winners[i] for i in counted] == [far.seat] * len(counted), (near.winners, lateness)
    assert [far.winners[i] for i in counted] == [far.seat] * len(counted), (far.winners, lateness)
    # the server's own log: the near player's claim reached it first, and lost
    windows = referee_windows(server, table, counted)
    first_and_lost = 0
    for window in windows:
        assert window["decision"]["seat"] == far.seat, window
        at = {c["seat"]: c["at"] for c in window["claims"]}
        # on a loaded machine the near player's timer may fire late, its claim then arriving
        # after the far one's (or after the decision): such a window proves nothing either way
        first_and_lost += near.seat in at and at[near.seat] < at[far.seat]
    assert first_and_lost >= 1, windows
    # the near player's claims came too late to win, never as broken messages
    assert all(e["code"] == "stale" for e in near.errors + far.errors), near.errors + far.errors
