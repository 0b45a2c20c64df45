"""A bot whose game stream and moves reach another server process than the table's owner
(``serve --redis``, PostgreSQL and Redis shared): the owner decides its moves, as for a page."""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from mauseloch.server.botapi.client import BotClient, registered
from mauseloch.server.botapi.tokens import BotTokens
from mauseloch.server.storage.store import Store

from .test_cluster import Server, redis_server, redis_url, servers  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

GUARD = 60.0


class Split(BotClient):
    """A bot client whose game streams and moves go to ``games`` (another process)."""

    def __init__(self, url: str, games: str, token: str) -> None:
        super().__init__(url, token, registered("random"), games=1)
        self.games_url = games.rstrip("/")

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> urllib.request.Request:
        req = super()._request(method, path, body)
        if path.startswith("/api/bot/game/"):
            req.full_url = self.games_url + path
        return req


def test_a_bot_plays_through_a_process_that_does_not_own_its_table(
    pg_url: str,
    servers: Callable[..., Server],  # noqa: F811  (the fixture imported above)
) -> None:
    owner, other = servers(), servers()
    tokens = BotTokens(Store(pg_url))
    ta, tb = tokens.create("owner-side"), tokens.create("far-side")
    near = BotClient(f"http://{owner.address}", ta, registered("random"), games=1)
    far = Split(f"http://{owner.address}", f"http://{other.address}", tb)
    threads = [threading.Thread(target=c.run, daemon=True) for c in (near, far)]
    for t in threads:
        t.start()
    http = httpx.Client(base_url=f"http://{owner.address}", trust_env=False, timeout=GUARD)
    end = time.monotonic() + GUARD
    while {"owner-side", "far-side"} - set(http.get("/api/bots/online").json()["bots"]):
        assert time.monotonic() < end, "the bots never came online"
        time.sleep(0.05)
    seats = [{"kind": "online-bot", "name": "owner-side"}, {"kind": "online-bot", "name": "far-side"}]
    table = near.post("/api/bot/challenge", {"game": "mau-mau", "seats": seats, "clock": "off"})["table"]
    for t in threads:
        t.join(2 * GUARD)
        assert not t.is_alive(), "a bot never finished its game"
    record = httpx.get(f"http://{other.address}/api/tables/{table}/record", trust_env=False, timeout=GUARD).json()
    assert {m[0] for m in record["moves"]} == {0, 1} and set(record["played_by"]) == {"person"}
