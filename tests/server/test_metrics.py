"""``serve --metrics HOST:PORT``: Prometheus's text format on an address of its own, never on the
public port, never on a public address; the figures docs/operate.md names, from a real server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from websockets.asyncio.client import connect

from mauseloch.server.metrics import Metrics, check_address

from .conftest import AppFactory
from .helpers import create_table, join, seated
from .serving import GUARD, RunAsync, Serve, data_dir, figure, play_seat, wait_for


@pytest.mark.parametrize(
    ("given", "taken"),
    [("127.0.0.1:9100", ("127.0.0.1", 9100)), ("localhost:0", ("127.0.0.1", 0)), ("[::1]:9100", ("::1", 9100)),
     ("10.1.2.3:9100", ("10.1.2.3", 9100)), ("192.168.0.2:1", ("192.168.0.2", 1))],
)  # fmt: skip
def test_a_loopback_or_private_address_is_taken(given: str, taken: tuple[str, int]) -> None:
    assert check_address(given) == taken


@pytest.mark.parametrize(
    ("given", "why"),
    [("0.0.0.0:9100", "every address"), ("[::]:9100", "every address"), ("8.8.8.8:9100", "public"),
     ("9100", "HOST:PORT"), ("metrics.example.org:9100", "IP address"), ("127.0.0.1:99999", "HOST:PORT")],
)  # fmt: skip
def test_a_public_or_unclear_address_is_refused(given: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_address(given)


def test_serve_refuses_public_metrics_before_it_listens(tmp_path: Path) -> None:
    for args, why in (
        (["--metrics", "0.0.0.0:9100"], "every address"),
        (["--port", "8123", "--metrics", "127.0.0.1:8123"], "public port"),
    ):
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--db", data_dir(tmp_path), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD, check=False)
        assert done.returncode == 2 and why in done.stderr, done.stderr


@pytest.mark.slow
def test_the_figures_of_a_game_and_none_on_the_public_port(tmp_path: Path, run_async: RunAsync) -> None:
    server = Serve("--db", data_dir(tmp_path), "--metrics", "127.0.0.1:0")
    try:
        assert server.http.get("/metrics").status_code == 404  # the public port has none
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
        created = server.http.post("/api/tables", json={"game": "mau-mau", "seats": seats, "public": True}).json()
        joined = server.http.post(f"/api/tables/{created['table']}/join", json={}).json()
        table, first = created["table"], created["token"]
        code = run_async(refused_move(server.address, table, first))
        run_async(game(server.address, table, first, joined["token"]))
        wait_for(
            lambda: figure(server.scrape(), "mauseloch_store_commit_seconds_count", store="sqlite") > 0, "a commit"
        )
        text = server.scrape()
    finally:
        server.stop()
    for family in (
        "mauseloch_moves_total",
        "mauseloch_refusals_total",
        "mauseloch_move_seconds",
        "mauseloch_tables",
        "mauseloch_connections",
        "mauseloch_stand_ins",
        "mauseloch_store_commit_seconds",
        "mauseloch_store_commit_writes",
        "mauseloch_redis_round_trip_seconds",
        "mauseloch_redis_published_frames_total",
        "mauseloch_pushes_total",
        "mauseloch_event_loop_lag_seconds",
        "mauseloch_last_sample_timestamp_seconds",
        "mauseloch_draining",
        "process_open_fds",
    ):
        assert f"# TYPE {family} " in text, family
    assert figure(text, "mauseloch_store_commit_writes_sum", store="sqlite") >= 3  # a table, a seat, moves
    assert figure(text, "mauseloch_last_sample_timestamp_seconds") > 0
    assert figure(text, "mauseloch_pushes_total", outcome="sent") == 0
    # the move path: each person's move timed from its receipt, the refused one by its code
    assert figure(text, "mauseloch_refusals_total", game="mau-mau", code=code) == 1
    answered = figure(text, "mauseloch_move_seconds_count", game="mau-mau")
    assert answered >= 2  # both people moved at least once
    assert figure(text, "mauseloch_move_seconds_bucket", game="mau-mau", le="+Inf") == answered
    # every move played, by whom (a move is counted as played before its answer is timed)
    assert figure(text, "mauseloch_moves_total", game="mau-mau", by="person") >= answered
    assert figure(text, "mauseloch_moves_total", game="mau-mau", by="bot") >= 1


async def refused_move(address: str, table: str, token: str) -> str:
    """A move at a version the table is not at: refused, with the code it gives."""
    async with connect(f"ws://{address}/ws/{table}", proxy=None, open_timeout=GUARD) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seat": 0, "last_seq": 0}))
        assert json.loads(await asyncio.wait_for(ws.recv(), GUARD))["type"] == "snapshot"
        await ws.send(json.dumps({"type": "move", "move": "draw", "version": 99}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), GUARD))
            if msg["type"] == "error":
                return str(msg["code"])


async def game(address: str, table: str, first: str, second: str) -> None:
    await asyncio.gather(play_seat(address, table, 0, first), play_seat(address, table, 1, second))


def test_the_gauges_count_the_tables_connections_and_stand_ins(make_client: AppFactory) -> None:
    """Sampled from the lobby as the event loop does it every second."""
    metrics = Metrics()
    client = make_client(metrics=metrics)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    waiting = create_table(client, [{"kind": "human"}, {"kind": "human"}])
    playing = create_table(client, [{"kind": "human"}, {"kind": "human"}])
    ben = join(client, playing["table"])
    for table, seat, token in ((playing, 0, playing["token"]), (playing, 1, ben["token"]), (waiting, 0, None)):
        seated(client, table["table"], seat, token or table["token"])  # each has its snapshot: attached
    metrics.sample(lobby)
    text = generate_latest(metrics.registry).decode()
    assert figure(text, "mauseloch_tables", game="mau-mau", state="waiting") == 1
    assert figure(text, "mauseloch_tables", game="mau-mau", state="playing") == 1
    assert figure(text, "mauseloch_connections", state="seated") == 3
    assert figure(text, "mauseloch_stand_ins", game="mau-mau") == 0
    assert figure(text, "mauseloch_last_sample_timestamp_seconds") > 0


def test_the_move_path_figures_count_by_game_by_whom_and_code() -> None:
    """What the table's runner tells of each move: played (by whom), answered (its time), refused."""
    metrics = Metrics()
    metrics.played("mau-mau", None)
    metrics.played("mau-mau", "stand-in")
    metrics.answered("mau-mau", 0.004)
    metrics.refused("mau-mau", "stale")
    text = generate_latest(metrics.registry).decode()
    assert figure(text, "mauseloch_moves_total", game="mau-mau", by="person") == 1
    assert figure(text, "mauseloch_moves_total", game="mau-mau", by="stand-in") == 1
    assert figure(text, "mauseloch_move_seconds_bucket", game="mau-mau", le="0.005") == 1
    assert figure(text, "mauseloch_move_seconds_bucket", game="mau-mau", le="0.0025") == 0
    assert figure(text, "mauseloch_refusals_total", game="mau-mau", code="stale") == 1
