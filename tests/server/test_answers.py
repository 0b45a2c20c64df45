"""The HTTP answers the pages read are the structs docs/events.schema.json is written from (its
``wire`` section): each answer decodes strictly (every field declared, nothing else) into its
struct, so the schema says what the page gets."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.testclient import TestClient

from mauseloch.core.schema import SCHEMA_PATH
from mauseloch.server.health import Ready
from mauseloch.server.protocol import Ladder, Ladders, MyTables, PageLimits, TablesPage

from .helpers import HUMAN, RANDOM_BOT

PAGE = {"origin": "http://testserver"}  # as our own pages send them: the seat goes into a cookie


def strictly(raw: bytes, kind: type[msgspec.Struct]) -> Any:
    shape = msgspec.json.decode(raw, type=kind)
    assert msgspec.json.decode(msgspec.json.encode(shape)) == msgspec.json.decode(raw)  # nothing dropped
    return shape


def test_the_answers_the_pages_read_are_their_structs(client: TestClient) -> None:
    body = {"game": "mau-mau", "name": "Anna"}
    client.post("/api/tables", json={**body, "seats": [HUMAN, HUMAN]}, headers=PAGE)
    client.post("/api/tables", json={**body, "seats": [HUMAN, RANDOM_BOT], "public": True}, headers=PAGE)

    games = msgspec.json.decode(client.get("/api/games").content)
    limits = strictly(msgspec.json.encode(games["limits"]), PageLimits)
    assert limits.waiting_minutes == 30
    listed = strictly(client.get("/api/tables").content, TablesPage)
    assert [t.seats[1].kind for t in listed.tables] == ["bot"] and listed.page == 0 and not listed.more
    mine = strictly(client.get("/api/my-tables").content, MyTables)
    assert sorted(t.status for t in mine.tables) == ["playing", "waiting"] and {t.you for t in mine.tables} == {0}
    assert strictly(client.get("/api/ladder").content, Ladders) == Ladders([])  # nothing rated yet
    nobody = strictly(client.get("/api/ladder", params={"game": "mau-mau", "players": 2}).content, Ladder)
    assert nobody == Ladder("mau-mau", 2, [])
    ready = strictly(client.get("/readyz").content, Ready)
    assert ready.ready and ready.problems == [] and ready.process is None  # one process: no cluster figures

    schema = msgspec.json.decode(SCHEMA_PATH.read_bytes())
    for name in ("page_limits", "tables_page", "my_tables", "ladder", "ladders"):
        assert schema["wire"][name]["$ref"].startswith("#/$defs/"), name
