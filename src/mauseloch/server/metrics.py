"""The figures of a server process in Prometheus's text format (``serve --metrics HOST:PORT``).

Off unless asked for, and then on an address of their own, never on the public port: the
figures tell who plays how much, and a scrape costs a little CPU. Every figure is named
``mauseloch_…`` (docs/operate.md lists them and what to alert on):

- moves played, by game and by whom, counted where the table's runner publishes them; the
  messages a table socket refuses, by game and code, and a person's move from its receipt on
  the socket to the last frame handed out (a histogram), counted where ws.py reads them;
- tables by game and state, connections by state and the seats stand-ins play now, sampled from
  the event loop every :data:`SAMPLE_EVERY` seconds (a loop that stopped sampling is stuck:
  ``mauseloch_last_sample_timestamp_seconds``), and the loop's lag every second;
- the store's group commits (their seconds and writes), Redis round trips (requests to a table's
  owner, lease renewals, the ownership ticks), frames published to Redis, Web Push sends;
- the process's CPU, memory and open files (prometheus-client's process collector).

Several processes on one host may share one set of figures through prometheus-client's
multiprocess mode: with ``PROMETHEUS_MULTIPROC_DIR`` set (to an empty folder, before the
processes start) every process writes its values there and the ``/metrics`` of any of them
shows the sum over all of them (a process's gauges count while it lives; its counters and
histograms stay in the sum after it ends, so totals never go back during a rolling restart).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any, Protocol

from mauseloch.extras import needs

with needs("web", __name__):
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        Gauge,
        Histogram,
        ProcessCollector,
        disable_created_metrics,
        multiprocess,
    )
    from prometheus_client.exposition import start_http_server

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

log = logging.getLogger("mauseloch.server")

# Seconds between two samples of the tables and connections (a sample reads every table: 1.1 ms
# at 100 tables, a move's 1 % at 170 moves/s when taken every second; Prometheus asks every 15 s),
# and between two looks at the loop's lag (a timer: nothing to read).
SAMPLE_EVERY = 5.0
LAG_EVERY = 1.0
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # prometheus-client's own switch to its multiprocess mode
# a move's receipt to its last frame: from a local move (a millisecond) to a starved machine's seconds
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
COMMIT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Sampled(Protocol):
    """What the sampler reads of the lobby: its tables (each with ``row.game``, ``status``,
    ``paused`` and ``seats``' ``stand_in``) and its hub's ``counts()``."""

    tables: Any
    hub: Any


class Metrics:
    """One process's figures and the registry they are shown from.

    The counting methods are the hot path's: a label's child is looked up once and kept, so a
    move costs a few dictionary reads and additions under prometheus-client's locks."""

    def __init__(self) -> None:
        # prometheus-client reads the variable when it is imported: it holds for every figure
        self.multiprocess_dir = os.environ.get(MULTIPROC_ENV)
        disable_created_metrics()  # no ``_created`` series beside each counter: nobody reads them
        own = CollectorRegistry(auto_describe=True)
        self._own = own
        if self.multiprocess_dir:
            # the figures of every process writing to the folder, this one's among them
            self.registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.registry, path=self.multiprocess_dir)
        else:
            self.registry = own
        ProcessCollector(registry=self.registry)  # this process's CPU, memory and open files

        self.moves = Counter("mauseloch_moves", "Moves played, by game and by whom", ["game", "by"], registry=own)
        self.refusals = Counter(
            "mauseloch_refusals", "Moves and messages refused, by game and code", ["game", "code"], registry=own
        )
        self.move_seconds = Histogram(
            "mauseloch_move_seconds",
            "A person's move from its receipt to the last frame sent, by game",
            ["game"],
            buckets=MOVE_BUCKETS,
            registry=own,
        )
        self.tables = Gauge(
            "mauseloch_tables",
            "Tables run here, by game and state",
            ["game", "state"],
            registry=own,
            multiprocess_mode="livesum",
        )
        self.connections = Gauge(
            "mauseloch_connections", "WebSockets by state", ["state"], registry=own, multiprocess_mode="livesum"
        )
        self.stand_ins = Gauge(
            "mauseloch_stand_ins",
            "Seats a stand-in plays now, by game",
            ["game"],
            registry=own,
            multiprocess_mode="livesum",
        )
        self.commit_seconds = Histogram(
            "mauseloch_store_commit_seconds",
            "A group commit of the store's writes, from sending to committed",
            ["store"],
            buckets=COMMIT_BUCKETS,
            registry=own,
        )
        self.commit_writes = Histogram(
            "mauseloch_store_commit_writes",
            "Writes in one group commit",
            ["store"],
            buckets=BATCH_BUCKETS,
            registry=own,
        )
        self.redis_seconds = Histogram(
            "mauseloch_redis_round_trip_seconds",
            "Round trips through Redis: a request to a table's owner (by its kind), a lease renewal, an ownership tick",
            ["kind"],
            buckets=COMMIT_BUCKETS,
            registry=own,
        )
        self.redis_published = Counter(
            "mauseloch_redis_published_frames", "Frames published to the other processes through Redis", registry=own
        )
        self.pushes = Counter("mauseloch_pushes", "Web Push notifications, by outcome", ["outcome"], registry=own)
        self.loop_lag = Histogram(
            "mauseloch_event_loop_lag_seconds",
            "How late the event loop ran a timer (one each second)",
            buckets=LAG_BUCKETS,
            registry=own,
        )
        self.sampled_at = Gauge(
            "mauseloch_last_sample_timestamp_seconds",
            "When the event loop last sampled the tables and connections (a stuck loop stops it)",
            registry=own,
            multiprocess_mode="max",
        )
        self.draining = Gauge(
            "mauseloch_draining",
            "1 while the process hands its tables over to stop",
            registry=own,
            multiprocess_mode="livesum",
        )
        self.sockets = 0  # table WebSockets open here (ws.py): those not at a table yet are "opening"
        self._moves: dict[tuple[str, str], Counter] = {}  # each label set's child, looked up once
        self._move_seconds: dict[str, Histogram] = {}
        self._refusals: dict[tuple[str, str], Counter] = {}
        self._commits: dict[str, tuple[Histogram, Histogram]] = {}
        self._redis: dict[str, Histogram] = {}
        self._shown: dict[Gauge, set[tuple[str, ...]]] = {}  # gauge -> the label sets it was given
        self._published = 0
        for outcome in ("sent", "failed", "gone"):
            self.pushes.labels(outcome)

    # -- counted on the way ---------------------------------------------------------------
    def played(self, game: str, by: str | None) -> None:
        """A move played at a table of ``game`` (its update published) by ``by``: None for a
        person, else who played it (``bot``: the seat's bot, ``stand-in``: a person's stand-in)."""
        key = (game, by or "person")
        child = self._moves.get(key)
        if child is None:
            child = self._moves[key] = self.moves.labels(*key)
        child.inc()

    def answered(self, game: str, seconds: float) -> None:
        """A person's move at a table of ``game`` took ``seconds`` from its receipt to the last
        frame sent (stored, played, published)."""
        timer = self._move_seconds.get(game)
        if timer is None:
            timer = self._move_seconds[game] = self.move_seconds.labels(game)
        timer.observe(seconds)

    def refused(self, game: str, code: str) -> None:
        child = self._refusals.get((game, code))
        if child is None:
            child = self._refusals[game, code] = self.refusals.labels(game, code)
        child.inc()

    def committed(self, store: str, seconds: float, writes: int) -> None:
        """A group commit of ``writes`` writes took ``seconds`` (``store``: sqlite or postgresql)."""
        pair = self._commits.get(store)
        if pair is None:
            pair = self._commits[store] = (self.commit_seconds.labels(store), self.commit_writes.labels(store))
        pair[0].observe(seconds)
        pair[1].observe(writes)

    def round_trip(self, kind: str, seconds: float) -> None:
        child = self._redis.get(kind)
        if child is None:
            child = self._redis[kind] = self.redis_seconds.labels(kind)
        child.observe(seconds)

    def pushed(self, outcome: str) -> None:
        """A Web Push notification: ``sent``, ``failed`` (to be tried again) or ``gone`` (its
        subscription ended: 404 or 410)."""
        self.pushes.labels(outcome).inc()

    # -- sampled from the event loop -----------------------------------------------------------
    def sample(self, lobby: Sampled) -> None:
        """Set the gauges from the lobby's tables and hub (in the event loop: nothing else reads them)."""
        tables: dict[tuple[str, ...], int] = {}
        stand_ins: dict[tuple[str, ...], int] = {}
        for session in list(lobby.tables.values()):
            game = session.row.game
            state = session.status
            if state == "playing":  # stand-ins play at running tables only
                if session.paused:
                    state = "paused"
                standing = 0
                for seat in session.seats:
                    if seat.stand_in:
                        standing += 1
                stand_ins[(game,)] = stand_ins.get((game,), 0) + standing
            tables[game, state] = tables.get((game, state), 0) + 1
        by_state: dict[str, int] = lobby.hub.counts()
        counts: dict[tuple[str, ...], int] = {(k,): v for k, v in by_state.items()}
        counts["opening",] = max(0, self.sockets - by_state.get("seated", 0) - by_state.get("watching", 0))
        self._show(self.tables, tables)
        self._show(self.stand_ins, stand_ins)
        self._show(self.connections, counts)
        published = int(getattr(lobby.hub, "published", 0))
        if published > self._published:
            self.redis_published.inc(published - self._published)
        self._published = published
        self.sampled_at.set(time.time())

    def _show(self, gauge: Gauge, values: dict[tuple[str, ...], int]) -> None:
        """``gauge`` set to ``values``; a label set shown before and gone now drops to 0."""
        shown = self._shown.setdefault(gauge, set())
        for labels in shown - values.keys():
            gauge.labels(*labels).set(0)
        for labels, value in values.items():
            gauge.labels(*labels).set(value)
        shown |= values.keys()

    async def sampler(self, lobby: Sampled) -> None:
        """Sample every :data:`SAMPLE_EVERY` seconds; every :data:`LAG_EVERY`, how late the loop
        woke for its timer."""
        loop = asyncio.get_running_loop()
        failing = False
        ticks = round(SAMPLE_EVERY / LAG_EVERY)
        n = 0
        while True:
            if n % ticks == 0:
                try:
                    self.sample(lobby)
                    failing = False
                except Exception:  # said once, not at every sample; the timestamp stops telling it too
                    if not failing:
                        log.exception("the metrics could not be sampled")
                    failing = True
            n += 1
            due = loop.time() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, loop.time() - due))

    def close(self) -> None:
        """This process ends: its live gauges leave the sum of multiprocess mode."""
        if self.multiprocess_dir:
            with contextlib.suppress(OSError):
                multiprocess.mark_process_dead(os.getpid(), self.multiprocess_dir)


def check_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` of ``--metrics`` (``[::1]:9100`` for IPv6), refused (``ValueError``) unless
    HOST is a loopback or private address: the figures are never public by accident."""
    host, colon, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"--metrics {text!r} is not HOST:PORT (e.g. 127.0.0.1:9100)")
    if host == "localhost":
        host = "127.0.0.1"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"--metrics {text!r}: HOST must be an IP address (e.g. 127.0.0.1)") from None
    if address.is_unspecified:
        raise ValueError(
            f"--metrics {text!r} would listen on every address, public ones too: give a loopback or private one"
        )
    if not (address.is_loopback or address.is_private):
        raise ValueError(f"--metrics {text!r}: {host} is a public address; give a loopback or private one")
    return host, int(port_text)


class MetricsServer:
    """``/metrics`` on its own address, served by prometheus-client's HTTP server in a thread of
    its own (a scrape does not wait for the event loop: the gauges were sampled there)."""

    def __init__(self, metrics: Metrics, host: str, port: int) -> None:
        server, thread = start_http_server(port, host, registry=metrics.registry)
        self._server: WSGIServer = server
        self._thread: threading.Thread = thread
        self.port = int(server.server_address[1])

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
