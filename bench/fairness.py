"""Can a client lie its way to a faster reaction? Cheating and honest clients against the real
server, over real WebSockets.

The real server (``mauseloch serve``) runs in a subprocess; every player is a WebSocket client
(``websockets``) behind a simulated line: each message waits its line's one-way delay plus
jitter (uniform 0..``--jitter`` ms) before it is handled or sent, in order, as on a TCP
connection. Honest clients behave as the page does (``web/js/conn.js``, ``mausgeflippt.js``):
they answer ``clock_ping`` at once with their own clock, show the mouse at the ``start`` the
server sent ahead, and claim the reaction time they measured. Every figure comes from the
server's own log of every window (the claims with their arrival ``at`` and judged ``time``),
read from its database after the run.

**Cheats** (one table each, the cheater on a line of 50 ms each way, reacting 400–500 ms after
the server's show moment — it knows that moment: the window's ``in_ms`` on the server's clock —
against a partner who never reacts, so that every claim is judged):

* ``held-300``, ``held-500``: 2 of every 3 ping answers held 300 (500) ms, stamped with the
  moment the ping arrived, the third at once; claims that much less than its true time;
* ``reordered``: every other answer waits for the next ping, then both go, the later first;
* ``duplicated``: every answer at once and again 300 ms later;
* ``forged-t``: answers at once, 2 of 3 stamped 300 ms early or late;
* ``fake-lag-200``, ``fake-lag-300``, ``fake-lag-500``: every answer held 200 (300, 500) ms from
  the very first ping, stamped when sent, as a slow line would be;
* ``lag-grows``: honest for two windows, then every answer held 40 ms longer per window, up to
  300 ms;
* ``claim-past``: honest pings, always claims 100 ms; ``claim-lower``: claims 150 ms less than
  its true time; ``claim-future``: claims 400 ms more (a reaction after its message arrived).
  The clock cheats claim 100 ms, the most they could hope to have believed.

A claim's *gain* is its true reaction minus the time it was judged at; its true reaction is its
arrival after the server's show moment less the time from the reaction until the message left
the client (the line's delay and any lateness of the bench's own event loop): what remains, the
local socket and the server's own delays, can only make a gain look larger.
``gain_ms_by_cheat`` is the largest gain over the cheat's windows (``gain_ms_mean_by_cheat``:
the mean); ``honest_gain_ms`` is the same for an honest client on the same line, the baseline.

**The held cheat's duel**: the ``held-300`` cheat, really reacting in 450 ms and claiming 150 ms,
against an honest player reacting in 350 ms, both 50 ms each way: ``held_cheat_wins`` says how
many of the windows both reacted in the cheat won (before the referee credited only what the
server measured: every one).

**Far against near** (``--tables`` tables, played before the cheats): an honest player 150 ms
each way who truly reacts 20 ms faster than an honest player 10 ms each way (reactions drawn
from 300–600 ms, the same draw for both); ``faster_wins_share`` is the share of windows both
reacted in that the far player won. Each claims what it really measured, as the page does; a
window in which the bench's own busy event loop made the far player react less than 15 ms
sooner after all is left out (``far_near_windows_skipped``). On a busy machine the server's own
event loop may take a claim in late, which no referee can tell from a slow line:
``far_near_windows_server_late`` counts the windows whose far claim the server took in more than
25 ms after it left the client (or not in time at all), ``faster_wins_share_server_on_time`` is
the share over the others; the goal is judged on ``faster_wins_share``, all windows.

Goal: ``faster_wins_share`` ≥ 0.99 and every gain ≤ 50 ms. The ``fake-lag`` cheats cannot be
told apart from a slow line (see ``mauseloch.realtime.fairness``): ``largest_gain_ms_detectable``
leaves them out, and ``fake_lag_bound_ms`` says what each may gain at most: the transit ceiling
(``MAX_TRANSIT_MS``) less the line's true one-way time, or half the time held if that is less,
plus the lag quota.

**The transit ceiling** (``--ceilings 125,150,175,200``): the far/near tables and the three
``fake-lag`` cheats again on a server whose ceiling is each of these (the server process sets
``MAX_TRANSIT_MS`` before it starts): ``by_ceiling`` gives, per ceiling, the far player's
``faster_wins_share`` and the ``fake-lag`` gains. The ceiling is the lowest that keeps the far
player's share at the goal: every ms above it is a ms more for a faked slow line.

    python bench/fairness.py --json                                # about a minute
    python bench/fairness.py --ceilings 125,150,175,200 --json     # and each ceiling: a few minutes
    python bench/fairness.py --smoke --json                        # a few seconds: two windows a table
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from _report import print_json, text_to_stderr
from mauseloch.realtime.fairness import MAX_TRANSIT_MS, QUOTA_MAX_MS
from mauseloch.server.storage.store import Store

FAKE_LAG = ("fake-lag-200", "fake-lag-300", "fake-lag-500")  # held from the first ping: a slow line
CHEATS = (
    "held-300", "held-500", "reordered", "duplicated", "forged-t", *FAKE_LAG, "lag-grows",
    "claim-past", "claim-lower", "claim-future",
)  # fmt: skip
UNDETECTABLE = FAKE_LAG  # looks exactly like a slow line
CHEAT_LINE_MS = 50.0
FAR_MS, NEAR_MS = 150.0, 10.0
EDGE_MS = 20  # the far player's true advantage
EDGE_SLACK_MS = 5  # a window counts if the far player really reacted at least EDGE_MS less this sooner
STALL_MS = 25.0  # the server took the far claim in this much later than it left the client: its own delay
CLOCK_SCALE = 0.25  # the countdown before each mouse: fast clock (2 s) × 0.25
WINDOW_MS = 1500
GUARD_S = 300.0  # only so that a broken server ends the run instead of hanging it
ONE_ADDRESS = ("--tables-per-minute", "0", "--open-tables-per-address", "0", "--max-sockets-per-address", "0",
               "--requests-per-second", "0", "--max-heads-per-address", "0")  # fmt: skip


def now_ms() -> float:
    """The machine's monotonic clock in ms: the server's event loop reads the same clock."""
    return time.monotonic() * 1000.0


class Line:
    """One direction of a simulated line: a base delay plus jitter per message, in order."""

    def __init__(self, base_ms: float, jitter_ms: float, rng: random.Random) -> None:
        self.base, self.jitter, self.rng = base_ms, jitter_ms, rng
        self.last = 0.0

    def due(self, sent: float) -> float:
        """When a message put on the line at ``sent`` (ms) comes off it."""
        self.last = max(self.last, sent + self.base + self.rng.uniform(0.0, self.jitter))
        return self.last


@dataclass
class Sent:
    version: int
    ms: int  # claimed
    fired: float  # when the client reacted (its clock, ms)
    actual: float  # that moment after its own show (its timer may fire late)
    up: float = 0.0  # from then until the message reached the socket: the line's delay and the bench's own


@dataclass
class Client:
    url: str
    seat: int
    token: str
    cheat: str  # honest, silent (never reacts) or one of CHEATS
    one_way: float
    jitter: float
    seed: int  # the line's jitter
    react_seed: int  # the true reactions (the same for a far/near pair: they race the same draw)
    react: tuple[int, int] = (400, 500)  # true reaction range (ms)
    edge: int = 0  # ms added to the shared reaction of a window (the slower of a far/near pair)
    clock_off: float = 0.0
    windows: int = 0  # decided windows seen
    sent: list[Sent] = field(default_factory=list)
    done: bool = False

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        self.down = Line(self.one_way, self.jitter, rng)
        self.up = Line(self.one_way, self.jitter, rng)
        self.outbox: asyncio.Queue[tuple[float, str, Sent | None]] = asyncio.Queue()
        self.version = -1
        self.view: dict[str, Any] = {}
        self.shows: dict[int, float] = {}
        self.server_shows: dict[int, float] = {}  # the server's show moment (when it said, plus in_ms)
        self.reacted: set[int] = set()
        self.pings = 0
        self.parked: dict[str, Any] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()

    def clock(self) -> float:
        """This client's own clock (like performance.now(): its own zero)."""
        return now_ms() + self.clock_off

    def later(self, ms: float, msg: dict[str, Any]) -> None:
        """Send ``msg`` after holding it ``ms`` in the client."""

        async def run() -> None:
            await asyncio.sleep(ms / 1000.0)
            self.send(msg)

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def send(self, msg: dict[str, Any], claim: Sent | None = None) -> None:
        """Put ``msg`` on the line now (a ``claim``'s record learns when it left the line)."""
        self.outbox.put_nowait((self.up.due(now_ms()), json.dumps(msg), claim))

    async def run(self, windows: int) -> None:
        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token, "seat": self.seat}))
            inbox: asyncio.Queue[tuple[float, float, str]] = asyncio.Queue()

            async def read() -> None:  # stamps each message as it comes off the socket
                async for raw in ws:
                    got = now_ms()
                    inbox.put_nowait((self.down.due(got), got, str(raw)))

            async def write() -> None:
                while True:
                    due, raw, claim = await self.outbox.get()
                    await asyncio.sleep(max(0.0, due - now_ms()) / 1000.0)
                    if claim is not None:
                        claim.up = now_ms() - claim.fired
                    await ws.send(raw)

            loop = asyncio.get_running_loop()
            helpers = [loop.create_task(read()), loop.create_task(write())]
            try:
                while self.windows < windows and not self.done:
                    due, got, raw = await inbox.get()
                    await asyncio.sleep(max(0.0, due - now_ms()) / 1000.0)
                    self.handle(json.loads(raw), got)
            finally:
                for task in [*helpers, *self.tasks]:
                    task.cancel()

    # -- the page, honest or not ----------------------------------------------------------
    def handle(self, msg: dict[str, Any], got: float) -> None:
        kind = msg["type"]
        if kind == "clock_ping":
            self.answer(msg["n"])
            self.pings += 1
        elif kind in ("snapshot", "update"):
            self.version, self.view = msg["version"], msg["view"]
            self.windows += sum(ev["type"] in ("reaction", "timeout") for ev in msg["events"])
            self.done = bool(self.view.get("is_over"))
            self.maybe_react()
        elif kind == "window":
            if self.cheat == "honest" or msg["start"] is None:  # the page: at start, on its own clock
                show = (msg["start"] - self.clock_off) if msg["start"] is not None else now_ms() + msg["in_ms"]
            else:  # a cheater knows the server's moment: in_ms after the server sent this
                show = got + msg["in_ms"]
            self.shows[msg["version"]] = show
            self.server_shows[msg["version"]] = got + msg["in_ms"]
            self.maybe_react()

    def answer(self, n: int) -> None:
        k, cheat, t = self.pings, self.cheat, self.clock()
        pong = {"type": "clock_pong", "n": n, "t": t}
        if cheat.startswith("held-"):
            hold = float(cheat.removeprefix("held-"))
            self.later(hold, pong) if k % 3 else self.send(pong)
        elif cheat == "reordered":
            if k % 2 == 0:
                self.parked = pong
            else:
                self.send(pong)
                if self.parked is not None:
                    self.send(self.parked)
                    self.parked = None
        elif cheat == "duplicated":
            self.send(pong)
            self.later(300.0, pong)
        elif cheat == "forged-t":
            self.send(pong | {"t": t + (0.0, -300.0, 300.0)[k % 3]})
        elif cheat in FAKE_LAG:
            hold = float(cheat.removeprefix("fake-lag-"))
            self.later(hold, pong | {"t": t + hold})  # stamped when it is sent
        elif cheat == "lag-grows":
            hold = min(300.0, 40.0 * max(0, self.windows - 2))
            self.later(hold, pong) if hold else self.send(pong)
        else:
            self.send(pong)

    def claim_of(self, true_ms: int) -> int:
        cheat = self.cheat
        if cheat.startswith("held-"):
            return max(100, true_ms - int(cheat.removeprefix("held-")))
        if cheat == "claim-lower":
            return max(100, true_ms - 150)
        if cheat == "claim-future":
            return true_ms + 400
        return true_ms if cheat == "honest" else 100

    def maybe_react(self) -> None:
        """Once the window and the update that shows the mouse are both here: the player reacts
        at its true time after the show (an unprotected mouse only: never the cheese)."""
        show = self.shows.get(self.version)
        view = self.view
        if self.cheat == "silent" or show is None or not view.get("window_open") or self.version in self.reacted:
            return
        self.reacted.add(self.version)
        if view["mouse"] is None or view["mouse"].get("protected"):
            return
        wears = view["mouse"]["wears"]
        card = next((c for c in view["hand"] if c in wears), None)
        move = f"catch {card}" if card else "flip"
        true_ms = random.Random(self.react_seed * 1009 + self.version).randint(*self.react) + self.edge
        version = self.version

        async def fire() -> None:
            await asyncio.sleep(max(0.0, show + true_ms - now_ms()) / 1000.0)
            fired = now_ms()
            actual = fired - show  # what the page measures: a busy machine makes it react later
            sent = Sent(version, self.claim_of(round(actual)), fired, actual)
            self.sent.append(sent)
            self.send({"type": "react", "move": move, "version": version, "ms": sent.ms}, sent)

        task = asyncio.get_running_loop().create_task(fire())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


# -- the server -------------------------------------------------------------------------------
# a server whose transit ceiling is set before it starts (argv[1]: the ceiling in ms, then serve's)
CEILING_ENTRY = """
import sys
import mauseloch.realtime.fairness as fairness
fairness.MAX_TRANSIT_MS = float(sys.argv.pop(1))
from mauseloch.cli import main
sys.argv[0] = "mauseloch"
main()
"""


class Server:
    def __init__(self, workdir: Path, ceiling: float | None = None) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.db = f"sqlite:///{workdir / 'fairness.db'}"
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "server.log"
        entry = ["-m", "mauseloch.cli"] if ceiling is None else ["-c", CEILING_ENTRY, str(ceiling)]
        cmd = [sys.executable, *entry, "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db, "--clock-scale", str(CLOCK_SCALE), *ONE_ADDRESS]  # fmt: skip
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        req = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())

    def table(self) -> tuple[str, list[tuple[int, str]]]:
        """A fresh two-person Mausgeflippt table: its id and (seat, token) of both persons."""
        created = self.post("/api/tables", {"game": "mausgeflippt", "seats": [{"kind": "human"}] * 2,
                                            "clock": "fast", "options": {"window_ms": WINDOW_MS}})  # fmt: skip
        joined = self.post(f"/api/tables/{created['table']}/join", {"name": "B", "invite": created["invite_secret"]})
        return created["table"], [(0, created["token"]), (joined["seat"], joined["token"])]

    def windows(self, table: str) -> dict[int, dict[str, Any]]:
        """The server's log of every decided window of ``table``: window version -> log."""
        store = Store(self.db)
        try:
            row = store.load_table(table)
        finally:
            store.close()
        return dict(row.referee) if row is not None else {}

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# -- the run ----------------------------------------------------------------------------------
def gains_of(client: Client, log: dict[int, dict[str, Any]]) -> list[float]:
    """Per judged claim of ``client``: its true reaction minus the time it was judged at."""
    out = []
    for sent in client.sent:
        window = log.get(sent.version)
        claim = next((c for c in (window or {}).get("claims", []) if c["seat"] == client.seat), None)
        if claim is None or claim["status"] != "valid":
            continue  # too late for the decision, or refused: no gain
        out.append(claim["at"] - sent.up - claim["time"])
    return out


async def play(clients: list[Client], windows: int) -> None:
    async with asyncio.timeout(GUARD_S):
        await asyncio.gather(*(c.run(windows) for c in clients))


def far_near(server: Server, ws: str, tables: int, jitter: float, seed: int) -> list[tuple[str, Client, Client]]:
    """The far/near tables: an honest player ``FAR_MS`` away who truly reacts ``EDGE_MS`` sooner
    than one ``NEAR_MS`` away (both draw the same reaction per window)."""
    pairs = []
    for i in range(tables):
        table, (a, b) = server.table()
        common = seed * 1000 + 500 + i
        far = Client(ws + table, a[0], a[1], "honest", FAR_MS, jitter, common + 1, common, (300, 600),
                     clock_off=7000.0)  # fmt: skip
        near = Client(ws + table, b[0], b[1], "honest", NEAR_MS, jitter, common + 2, common, (300, 600),
                      EDGE_MS, -9000.0)  # fmt: skip
        pairs.append((table, far, near))
    return pairs


def cheating(
    server: Server, ws: str, cheats: tuple[str, ...], jitter: float, seed: int
) -> tuple[list[Client], dict[str, tuple[str, Client]]]:
    """A table per cheat (and one honest client, the baseline), each against a partner who never
    reacts, so that every claim is judged."""
    cheaters: dict[str, tuple[str, Client]] = {}
    clients: list[Client] = []
    for i, cheat in enumerate(cheats):
        table, (me, partner) = server.table()
        mine = seed * 100 + i
        c = Client(ws + table, me[0], me[1], cheat, CHEAT_LINE_MS, jitter, mine, mine, clock_off=-4000.0 * i)
        p = Client(ws + table, partner[0], partner[1], "silent", CHEAT_LINE_MS, jitter, mine + 50, mine + 50)
        cheaters[cheat] = (table, c)
        clients += [c, p]
    return clients, cheaters


def tally(server: Server, pairs: list[tuple[str, Client, Client]]) -> dict[str, Any]:
    """The far/near windows as the server decided them."""
    judged = won = skipped = stalled = won_unstalled = 0
    for table, far, near in pairs:
        log = server.windows(table)
        nears = {s.version: s for s in near.sent}
        for f in far.sent:
            n = nears.get(f.version)
            window = log.get(f.version, {})
            if n is None or "decision" not in window:
                continue
            if n.actual - f.actual < EDGE_MS - EDGE_SLACK_MS:  # the bench's own timers were late
                skipped += 1
                continue
            judged += 1
            wins = window["decision"]["seat"] == far.seat
            won += wins
            # the far claim's arrival as the server logged it, against when it left the client
            claim = next((c for c in window["claims"] if c["seat"] == far.seat), None)
            late = STALL_MS + 1 if claim is None else far.server_shows[f.version] + claim["at"] - f.fired - f.up
            if late > STALL_MS:
                stalled += 1
            else:
                won_unstalled += wins
    return {
        "far_near_windows": judged,
        "far_near_windows_skipped": skipped,
        "faster_wins_share": round(won / judged, 4) if judged else 0.0,
        "far_near_windows_server_late": stalled,
        "faster_wins_share_server_on_time": round(won_unstalled / (judged - stalled), 4) if judged > stalled else 0.0,
    }


def fake_lag_bound(cheat: str, ceiling: float) -> float:
    """The most a client holding every answer from the first ping may gain: the transit it is
    credited beyond its true one-way time (half of what it holds, at most the ceiling less that
    time), plus the lag quota."""
    held = float(cheat.removeprefix("fake-lag-"))
    return min(held / 2, ceiling - CHEAT_LINE_MS) + QUOTA_MAX_MS


def run(windows: int, tables: int, jitter: float, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            ws = server.url.replace("http://", "ws://") + "/ws/"
            pairs = far_near(server, ws, tables, jitter, seed)
            asyncio.run(play([c for _, far, near in pairs for c in (far, near)], windows))
            # the cheats after the far/near tables (created now: a table's countdown runs from its
            # start), so that fewer of the bench's own clients load the shared machine meanwhile
            clients, cheaters = cheating(server, ws, ("honest", *CHEATS), jitter, seed)
            # the duel: the held-300 cheat reacting in 450 ms (claiming 150) against an
            # honest player reacting in 350 ms, both 50 ms each way
            duel, (a, b) = server.table()
            liar = Client(ws + duel, a[0], a[1], "held-300", CHEAT_LINE_MS, jitter, seed + 7, seed + 7, (450, 450))
            rival = Client(ws + duel, b[0], b[1], "honest", CHEAT_LINE_MS, jitter, seed + 8, seed + 8, (350, 350))
            clients += [liar, rival]
            asyncio.run(play(clients, windows))
            duel_log = server.windows(duel)
            rivals = {s.version for s in rival.sent}
            duels = [duel_log[s.version]["decision"]["seat"] for s in liar.sent if s.version in rivals & set(duel_log)]
            by_cheat = {cheat: gains_of(c, server.windows(table)) for cheat, (table, c) in cheaters.items()}
            far_near_figures = tally(server, pairs)
        finally:
            server.stop()
    gains = {k: v for k, v in by_cheat.items() if k != "honest"}
    largest = max(gains, key=lambda k: max(gains[k], default=float("-inf")))
    detectable = [max(v, default=0.0) for k, v in gains.items() if k not in UNDETECTABLE]
    return {
        "windows_per_table": windows,
        "jitter_ms": jitter,
        "judged_claims_by_cheat": {k: len(v) for k, v in gains.items()},
        "gain_ms_by_cheat": {k: round(max(v, default=0.0), 1) for k, v in gains.items()},
        "gain_ms_mean_by_cheat": {k: round(sum(v) / len(v), 1) if v else 0.0 for k, v in gains.items()},
        "honest_gain_ms": round(max(by_cheat["honest"], default=0.0), 1),
        "largest_gain_ms": round(max(gains[largest], default=0.0), 1),
        "largest_cheat": largest,
        "largest_gain_ms_detectable": round(max(detectable, default=0.0), 1),
        "transit_ceiling_ms": MAX_TRANSIT_MS,
        "fake_lag_bound_ms": {k: fake_lag_bound(k, MAX_TRANSIT_MS) for k in FAKE_LAG},
        **far_near_figures,
        "held_cheat_wins": f"{sum(seat == liar.seat for seat in duels)} of {len(duels)}",
        "seconds": round(time.perf_counter() - start, 1),
    }


def run_ceiling(ceiling: float, windows: int, tables: int, jitter: float, seed: int) -> dict[str, Any]:
    """The far/near tables and the fake-lag cheats on a server with transit ceiling ``ceiling``."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), ceiling)
        try:
            ws = server.url.replace("http://", "ws://") + "/ws/"
            pairs = far_near(server, ws, tables, jitter, seed)
            asyncio.run(play([c for _, far, near in pairs for c in (far, near)], windows))
            clients, cheaters = cheating(server, ws, FAKE_LAG, jitter, seed)
            asyncio.run(play(clients, windows))
            gains = {cheat: gains_of(c, server.windows(table)) for cheat, (table, c) in cheaters.items()}
            figures = tally(server, pairs)
        finally:
            server.stop()
    return {
        "faster_wins_share": figures["faster_wins_share"],
        "faster_wins_share_server_on_time": figures["faster_wins_share_server_on_time"],
        "far_near_windows": figures["far_near_windows"],
        "fake_lag_gain_ms": {k: round(max(v, default=0.0), 1) for k, v in gains.items()},
        "fake_lag_gain_ms_mean": {k: round(sum(v) / len(v), 1) if v else 0.0 for k, v in gains.items()},
        "fake_lag_bound_ms": {k: fake_lag_bound(k, ceiling) for k in FAKE_LAG},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=24, help="decided windows per table (at most ~30: a game)")
    parser.add_argument("--tables", type=int, default=5, help="far-against-near tables")
    parser.add_argument("--jitter", type=float, default=20.0, help="jitter per message, ms (uniform 0..this)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="two windows a table, one far/near table")
    parser.add_argument(
        "--ceilings", default="", help="transit ceilings (ms, comma-separated): the far player and fake lag at each"
    )
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    if args.smoke:
        args.windows, args.tables = 2, 1
    if not 1 <= args.windows <= 30 or args.tables < 1 or args.jitter < 0:
        parser.error("--windows must be 1..30, --tables at least 1, --jitter at least 0")
    try:
        ceilings = [float(c) for c in args.ceilings.split(",") if c.strip()]
    except ValueError:
        parser.error("--ceilings takes numbers in ms, e.g. 150,175,200")
    if any(not 50 <= c <= 1000 for c in ceilings):
        parser.error("--ceilings must be 50..1000 ms")
    figures = run(args.windows, args.tables, args.jitter, args.seed)
    figures["by_ceiling"] = {}
    for ceiling in ceilings:
        figures["by_ceiling"][f"{ceiling:g}"] = run_ceiling(ceiling, args.windows, args.tables, args.jitter, args.seed)
    for key, value in figures.items():
        if not isinstance(value, dict):
            print(f"{key:34} {value}")
    for cheat, gain in figures["gain_ms_by_cheat"].items():
        mean, claims = figures["gain_ms_mean_by_cheat"][cheat], figures["judged_claims_by_cheat"][cheat]
        print(f"  gain {cheat:18} max {gain:7.1f} ms  mean {mean:7.1f} ms  ({claims} claims)")
    for ceiling, at in figures["by_ceiling"].items():
        lag = ", ".join(f"{k.removeprefix('fake-lag-')} ms held: {v:.1f} (bound {at['fake_lag_bound_ms'][k]:.0f})"
                        for k, v in at["fake_lag_gain_ms"].items())  # fmt: skip
        print(f"  ceiling {ceiling:>5} ms: far share {at['faster_wins_share']:.3f}; fake-lag gain {lag}")
    print("goal: faster_wins_share >= 0.99, every gain <= 50 ms (the fake-lag ones: within their bound)")
    if args.json:
        print_json(figures, out)


if __name__ == "__main__":
    main()
