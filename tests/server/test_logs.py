"""``serve --log-format json``: one JSON object a line, naming the process, the table and the
request, and never a secret: a whole game is played with every line logged (``--log-level
debug``) and each line is searched for every token, invite secret and seat cookie the game used."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .serving import GUARD, RunAsync, Serve, data_dir, play_seat

pytestmark = pytest.mark.slow  # a server process of its own


def test_no_log_line_of_a_whole_game_holds_a_secret(tmp_path: Path, run_async: RunAsync) -> None:
    server = Serve("--db", data_dir(tmp_path), "--log-format", "json", "--log-level", "debug")
    secrets: list[str] = []
    try:
        http = server.http
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
        created = http.post("/api/tables", json={"game": "mau-mau", "seats": seats}).json()
        table = created["table"]
        secrets += [created["token"], created["invite_secret"]]
        page = httpx.Headers({"origin": f"http://{server.address}"})
        # a seat taken from a page (its cookie set), its link opened elsewhere, then signed out
        joined = http.post(
            f"/api/tables/{table}/join", json={"name": "Ben", "invite": created["invite_secret"]}, headers=page
        )
        first_token = joined.json()["token"]
        secrets.append(first_token)
        cookie = joined.cookies[f"ml_{table}"]
        secrets.append(cookie)
        opened = http.post(
            f"/api/tables/{table}/open-seat", json={"seat": 1, "token": first_token}, headers=page
        ).status_code
        assert opened == 200
        http.cookies.set(f"ml_{table}", cookie)
        assert http.post(f"/api/tables/{table}/seat-link", json={}, headers=page).status_code == 200
        renewed = http.post(f"/api/tables/{table}/renew", json={}, headers=page)
        http.cookies.clear()
        token = renewed.cookies[f"ml_{table}"].partition(":")[2]
        secrets += [token, renewed.cookies[f"ml_{table}"]]
        # the old form of a seat link, its token in the query: redirected, and not logged
        assert http.get(f"/t/{table}", params={"token": first_token}).status_code == 303
        # a hello with the signed-out token is refused (and logged as such, without it)
        assert run_async(refused_hello(server.address, table, first_token)) == 4403
        last = run_async(both(server.address, table, created["token"], token))
        assert last["view"]["is_over"]
        assert http.get(f"/api/tables/{table}/record").status_code == 200
    finally:
        assert server.stop() in (0, -signal.SIGTERM)  # uvicorn ends by the signal it caught
    lines = server.lines
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all(isinstance(r, dict) for r in records)
    for secret in secrets:
        assert len(secret) >= 16
        leaked = [line for line in lines if secret in line]
        assert not leaked, leaked[:3]
    # no frame is ever written down (websockets logs each at debug level)
    assert not [r for r in records if r["message"].startswith(("< TEXT", "> TEXT", "< BINARY"))]
    # what an operator filters by: the process, the table, the request
    assert all(r["process"] and r["pid"] and r["level"] and r["time"] for r in records)
    requests = [r for r in records if r["logger"] == "mauseloch.access"]
    assert {r["path"] for r in requests} >= {"/api/tables", f"/api/tables/{table}/join", f"/ws/{table}"}
    assert all(r["table"] == table for r in requests if table in r["path"])
    assert any(r["table"] == table for r in records if r["logger"] != "mauseloch.access")  # the game's own lines
    ids = [r["request_id"] for r in requests]
    assert len(set(ids)) == len(ids) and all(ids)


async def refused_hello(address: str, table: str, token: str) -> int:
    async with connect(f"ws://{address}/ws/{table}", proxy=None, open_timeout=GUARD) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "seat": 1, "last_seq": 0}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), GUARD)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def both(address: str, table: str, first: str, second: str) -> dict[str, object]:
    ends = await asyncio.gather(play_seat(address, table, 0, first), play_seat(address, table, 1, second))
    return ends[0]
