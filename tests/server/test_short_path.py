"""The short path of a game's own requests (app.Platform): a table's creation, its joins and its
sockets skip Starlette's router and exception layers, and must answer exactly as the whole stack
does, with every check of the security and limits middleware kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.testclient import TestClient

from mauseloch.server.app import Platform, api_create, api_join
from mauseloch.server.limits import Limits
from tests.server.conftest import AppFactory
from tests.server.helpers import HUMAN, seated

CREATE = {"game": "mau-mau", "seats": [HUMAN, HUMAN, HUMAN], "name": "Anna"}


@pytest.mark.parametrize(
    ("kind", "method", "path", "taken"),
    [
        ("http", "POST", "/api/tables", (api_create, None)),
        ("http", "POST", "/api/tables/abc/join", (api_join, "abc")),
        ("websocket", None, "/ws/abc", (None, "abc")),
        ("http", "GET", "/api/tables", None),
        ("http", "GET", "/api/tables/abc/join", None),
        ("http", "POST", "/api/tables/abc/renew", None),
        ("http", "POST", "/api/tables//join", None),
        ("http", "POST", "/api/tables/a/b/join", None),
        ("http", "POST", "/api/tables/", None),
        ("websocket", None, "/ws/", None),
        ("websocket", None, "/ws/abc/x", None),
        ("lifespan", None, None, None),
    ],
)
def test_only_a_games_own_requests_take_the_short_path(kind: str, method: str | None, path: str, taken: Any) -> None:
    scope: dict[str, Any] = {"type": kind}
    if path is not None:
        scope["path"] = path
    if method is not None:
        scope["method"] = method
    assert Platform.short(scope) == taken


def answers(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, str], Any]]:
    """What a table's creation and joins are answered, good and refused: status, the headers that
    do not change from one answer to the next, and the body (a token or an id only as its kind)."""

    def shape(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: shape(v) if k not in ("table", "token", "url", "invite", "invite_secret") else "…"
                for k, v in value.items()
            }
        return value

    def post(path: str, body: bytes, **headers: str) -> tuple[int, dict[str, str], Any]:
        answer = client.post(path, content=body, headers={"content-type": "application/json", **headers})
        fixed = {k: v for k, v in answer.headers.items() if k not in ("content-length", "set-cookie", "date")}
        cookie = "set-cookie" in answer.headers
        return answer.status_code, {**fixed, "cookie": str(cookie)}, shape(answer.json())

    created = client.post("/api/tables", json=CREATE).json()
    table, invite = created["table"], created["invite_secret"]
    join = f"/api/tables/{table}/join"
    out = [
        post("/api/tables", json.dumps(CREATE).encode()),
        post("/api/tables", json.dumps(CREATE).encode(), origin="http://testserver"),  # our page: a cookie too
        post("/api/tables", json.dumps(CREATE).encode(), origin="https://evil.example"),
        post("/api/tables", json.dumps(CREATE).encode(), **{"content-type": "text/plain"}),
        post("/api/tables", b"{not json"),
        post("/api/tables", b'{"game": "no-such-game", "seats": [{"kind": "human"}]}'),
        post("/api/tables", b" " * 100_000),
        post(join, json.dumps({"name": "Eve"}).encode()),  # private: no invite
        post(join, json.dumps({"name": "Ben", "invite": invite}).encode()),
        post(join, json.dumps({"name": "Cleo", "invite": invite}).encode(), origin="http://testserver"),
        post(join, json.dumps({"name": "Dora", "invite": invite}).encode()),  # full
        post("/api/tables/nosuch/join", b"{}"),
        post(join, b"{}", **{"sec-fetch-site": "cross-site"}),
    ]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(client.app.state.lobby, "join", broken)  # type: ignore[attr-defined]
    second = client.post("/api/tables", json=CREATE).json()
    out.append(post(f"/api/tables/{second['table']}/join", json.dumps({"invite": second["invite_secret"]}).encode()))
    return out


def test_the_short_path_answers_as_the_whole_stack(
    make_client: AppFactory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    short = answers(make_client(), monkeypatch)
    monkeypatch.setattr(Platform, "short", staticmethod(lambda scope: None))  # every request the whole way
    whole = answers(make_client(), monkeypatch)
    assert short == whole
    statuses = [status for status, _, _ in short]
    assert statuses == [200, 200, 403, 415, 400, 400, 413, 403, 200, 200, 409, 404, 403, 500]
    assert all(headers["content-security-policy"] and headers["cache-control"] == "no-store" for _, headers, _ in short)
    assert [headers["cookie"] for _, headers, _ in short][:2] == ["False", "True"]
    assert "a bug" in caplog.text  # the failure was logged, each time


def test_the_short_path_keeps_the_request_rate_limit(make_client: AppFactory) -> None:
    client = make_client(limits=Limits(requests_per_second=0.001, request_burst=2))
    assert client.post("/api/tables", json=CREATE).status_code == 200
    created = client.get("/api/games")  # one request of the whole stack counts as well
    assert created.status_code == 200
    refused = client.post("/api/tables", json=CREATE)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused.headers["retry-after"] and refused.headers["x-frame-options"] == "DENY"


def test_an_endpoint_on_the_short_path_sees_the_scope_the_router_gives(
    make_client: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its path parameters, and ``url_for`` (through the app, as the router would answer it)."""
    seen: list[tuple[dict[str, Any], str]] = []

    async def endpoint(request: Request) -> Response:
        seen.append((request.path_params, str(request.url_for("lobby_page"))))
        return PlainTextResponse("ok")

    client = make_client()
    monkeypatch.setattr(
        Platform, "short", staticmethod(lambda scope: (endpoint, "abc") if scope["type"] == "http" else None)
    )
    assert client.post("/api/tables/abc/join", json={}).text == "ok"
    assert seen == [({"table_id": "abc"}, "http://testserver/")]


def test_a_seat_plays_through_the_short_path(client: TestClient) -> None:
    created = client.post("/api/tables", json={**CREATE, "seats": [HUMAN, {"kind": "bot", "bot": "random"}]}).json()
    player = seated(client, created["table"], 0, created["token"])
    assert player.state is not None and player.state["view"]["players"] == 2
    player.close()
