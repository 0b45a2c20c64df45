"""The HTTP answers the pages read are the structs docs/events.schema.json is written from (its
``wire`` section): each answer decodes strictly (every field declared, nothing else) into its
struct, so the schema says what the page gets."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.testclient import TestClient

import mauseloch
from mauseloch.core.schema import SCHEMA_PATH
from mauseloch.server.bodies import (
    BotsOnline,
    Challenges,
    ErrorBody,
    Games,
    Joined,
    Ladder,
    Ladders,
    LadderSeat,
    MyTables,
    NewTable,
    OfflineBundle,
    PushKey,
    RulesPage,
    SeatHeld,
    SeatLink,
    TablesPage,
    Uploaded,
)
from mauseloch.server.health import Ready

from .helpers import HUMAN, RANDOM_BOT

PAGE = {"origin": "http://testserver"}  # as our own pages send them: the seat goes into a cookie


def strictly(raw: bytes, kind: type[msgspec.Struct]) -> Any:
    shape = msgspec.json.decode(raw, type=kind)
    assert msgspec.json.decode(msgspec.json.encode(shape)) == msgspec.json.decode(raw)  # nothing dropped
    return shape


def test_the_answers_the_pages_read_are_their_structs(client: TestClient) -> None:
    games = strictly(client.get("/api/games").content, Games)
    assert games.limits.waiting_minutes == 30 and "mau-mau" in games.bots
    body = {"game": "mau-mau", "name": "Anna"}
    created = client.post("/api/tables", json={**body, "seats": [HUMAN, HUMAN]}, headers=PAGE)
    private = strictly(created.content, NewTable)
    assert private.invite_secret is not None and not private.public
    public = client.post("/api/tables", json={**body, "seats": [HUMAN, RANDOM_BOT], "public": True}, headers=PAGE)
    assert strictly(public.content, NewTable).invite_secret is None

    listed = strictly(client.get("/api/tables").content, TablesPage)
    assert [t.seats[1].kind for t in listed.tables] == ["bot"] and listed.page == 0 and not listed.more
    mine = strictly(client.get("/api/my-tables").content, MyTables)
    assert sorted(t.status for t in mine.tables) == ["playing", "waiting"] and {t.you for t in mine.tables} == {0}
    link = strictly(client.post(f"/api/tables/{private.table}/seat-link", json={}, headers=PAGE).content, SeatLink)
    assert link.seat == 0
    renewed = strictly(client.post(f"/api/tables/{private.table}/renew", json={}, headers=PAGE).content, SeatHeld)
    assert renewed == SeatHeld(private.table, 0)
    client.cookies.clear()  # Ben's browser
    joined = client.post(f"/api/tables/{private.table}/join", json={"name": "Ben", "invite": private.invite_secret})
    ben = strictly(joined.content, Joined)
    assert ben.seat == 1
    opened = client.post(f"/api/tables/{private.table}/open-seat", json={"seat": 1, "token": ben.token}, headers=PAGE)
    assert strictly(opened.content, SeatHeld) == SeatHeld(private.table, 1)

    assert strictly(client.get("/api/ladder").content, Ladders) == Ladders([])  # nothing rated yet
    nobody = strictly(client.get("/api/ladder", params={"game": "mau-mau", "players": 2}).content, Ladder)
    assert nobody == Ladder("mau-mau", 2, [])
    rated = strictly(client.get(f"/api/tables/{private.table}/ladder").content, LadderSeat)
    assert rated == LadderSeat(rated=False, entered=None)
    challenged = strictly(client.get(f"/api/tables/{private.table}/challenges").content, Challenges)
    assert challenged == Challenges([], creator=False)  # no bot challenged: nothing for the creator to choose
    assert strictly(client.get("/api/bots/online").content, BotsOnline) == BotsOnline([])
    rules = strictly(client.get("/api/rules/mau-mau", params={"lang": "de"}).content, RulesPage)
    assert rules.game == "mau-mau" and rules.lang == "de" and rules.html
    ready = strictly(client.get("/readyz").content, Ready)
    assert ready.ready and ready.problems == [] and ready.process is None  # one process: no cluster figures

    bad = client.post("/api/tables", json={"game": "mau-mau", "seats": []}, headers=PAGE)
    assert strictly(bad.content, ErrorBody).code == "bad_message"
    foreign = client.post("/api/tables", json=body, headers={"origin": "https://elsewhere.example"})
    assert foreign.status_code == 403 and strictly(foreign.content, ErrorBody).code == "bad_origin"
    assert strictly(client.get("/api/push/key").content, PushKey).key
    missing = client.get("/api/tables/nosuch")
    assert missing.status_code == 404 and strictly(missing.content, ErrorBody).code == "not_found"
    assert isinstance(strictly(client.get("/api/offline").content, OfflineBundle).bundle, bool)

    g = mauseloch.new_game("mau-mau", players=2, seed=3)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    record = {**g.record(), "played_by": ["person", "bot"] * len(g.record()["moves"])}
    record["played_by"] = record["played_by"][: len(record["moves"])]
    uploaded = strictly(client.post("/api/records", json={"record": record}, headers=PAGE).content, Uploaded)
    assert uploaded.replay == f"/replay/{uploaded.table}"

    schema = msgspec.json.decode(SCHEMA_PATH.read_bytes())
    answers = [
        "error_body",
        "push_key",
        "push_seats",
        "offline_bundle",
        "games",
        "new_table",
        "joined",
        "seat_held",
        "seat_link",
        "uploaded",
        "rules_page",
        "page_limits",
        "tables_page",
        "my_tables",
        "ladder",
        "ladders",
        "ladder_seat",
        "ladder_entered",
        "challenges",
        "seat_changed",
        "bots_online",
        "bot_table",
        "accepted",
        "done",
        "move_taken",
        "room",
        "room_created",
        "member_token",
        "member_held",
        "member_changed",
        "member_left",
        "member_link",
        "member_removed",
        "room_settings",
        "table_hint",
    ]
    assert all(schema["wire"][name]["$ref"].startswith("#/$defs/") for name in answers)
