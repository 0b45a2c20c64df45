"""``serve`` stops on SIGTERM as a rolling restart needs: it stops accepting, hands its tables to
the other processes, tells its clients to reconnect elsewhere (close code 1012) and exits.
bench/rolling.py (tests/server/test_rolling.py) does it under 500 seats behind nginx."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .serving import GUARD, RunAsync, Serve, data_dir
from .test_cluster import Leased, Server, redis_server, redis_url, servers, stored_moves

__all__ = ["redis_server", "redis_url", "servers"]  # the fixtures, shared with test_cluster

pytestmark = [
    pytest.mark.slow,  # server processes of their own
    pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager"),
]


def closed_code(seat: object) -> int:
    """The close code of a test_cluster ``Seat``'s socket, read to its end."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            seat.ws.recv(GUARD)  # type: ignore[attr-defined]
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


@pytest.mark.postgres
@pytest.mark.redis
def test_a_stopping_process_hands_its_tables_over(servers: Callable[..., Server], redis_url: str, pg_url: str) -> None:
    one, two = servers(), servers()
    t = Leased(one, two, seed=11, moves=4)  # owned by one; Anna on one, Ben on two
    one.proc.send_signal(signal.SIGTERM)
    assert closed_code(t.anna) == 1012  # "service restart": come back elsewhere
    # handed over before her socket closed (not let go after, for a sweep to find): the other
    # process holds the table already when she reconnects
    assert redis.Redis.from_url(redis_url).get(t.lease) == t.other.encode()
    log = one.stop()
    assert one.proc.returncode in (0, -signal.SIGTERM)
    assert "not handed over" not in log
    t.anna.connect(two)  # she reconnects through the proxy, to the process left
    assert t.anna.version == len(t.acknowledged)
    t.play(8)  # Ben's socket stayed open all along; no move of either is refused (Seat.recv)
    assert stored_moves(pg_url, t.table)[: len(t.acknowledged)] == t.acknowledged
    assert two.http.get("/readyz").json()["ready"]


def test_a_lone_process_stops_its_tables_and_sends_its_sockets_away(tmp_path: Path, run_async: RunAsync) -> None:
    server = Serve("--db", data_dir(tmp_path))
    created = server.http.post("/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2}).json()
    code = run_async(stopped_while_connected(server, created["table"], created["token"]))
    assert code == 1012
    assert server.proc.returncode in (0, -signal.SIGTERM)
    with pytest.raises(httpx.TransportError):  # it listens no more
        httpx.get(f"http://{server.address}/healthz", trust_env=False, timeout=GUARD)


async def stopped_while_connected(server: Serve, table: str, token: str) -> int:
    async with connect(f"ws://{server.address}/ws/{table}", proxy=None, open_timeout=GUARD) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seat": 0, "last_seq": 0}))
        assert json.loads(await asyncio.wait_for(ws.recv(), GUARD))["type"] == "snapshot"
        await asyncio.to_thread(server.stop)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), GUARD)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code
