"""Family rooms: members by the room's link, members-only answers, tables started and joined from
the room, the tally, and all of it after a restart (docs/rooms.md)."""

from __future__ import annotations

import dataclasses
import logging
import random
from typing import Any

import msgspec
import pytest
from starlette.testclient import TestClient

from mauseloch.server.bodies import MemberToken, Room, RoomCreated
from mauseloch.server.limits import Limits

from .conftest import AppFactory
from .helpers import Player, seated
from .test_family import play_until_over


def member(client: TestClient, token: str) -> dict[str, str]:
    return {"x-room-token": token}


def new_room(client: TestClient, name: str = "Papa", avatar: str = "bear") -> dict[str, Any]:
    answer = client.post("/api/rooms", json={"name": "Familie Maus", "member": {"name": name, "avatar": avatar}})
    assert answer.status_code == 200, answer.text
    msgspec.json.decode(answer.content, type=RoomCreated)  # the schema's struct, exactly
    body: dict[str, Any] = answer.json()
    assert body["url"] == f"/r/{body['room']}#key={body['key']}"  # the secret after '#': never sent
    client.cookies.clear()  # each member below says who they are by their own token
    return body


def join_room(client: TestClient, room: dict[str, Any], name: str, avatar: str = "mouse") -> str:
    answer = client.post(f"/api/rooms/{room['room']}/join", json={"key": room["key"], "name": name, "avatar": avatar})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return msgspec.json.decode(answer.content, type=MemberToken).token


def show(client: TestClient, room: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/rooms/{room}", headers=member(client, token))
    assert answer.status_code == 200, answer.text
    shape = msgspec.json.decode(answer.content, type=Room)  # the schema's struct, exactly: nothing more
    body: dict[str, Any] = answer.json()
    assert msgspec.to_builtins(shape) == body
    return body


def test_members_come_by_the_link_and_only_members_see_the_room(make_client: AppFactory) -> None:
    client = make_client()
    room = new_room(client)
    rid, papa = room["room"], room["token"]
    oma = join_room(client, room, "Oma", "owl")
    kind = join_room(client, room, "Kind", "fox")
    seen = show(client, rid, oma)
    assert [(m["name"], m["avatar"]) for m in seen["members"]] == [("Papa", "bear"), ("Oma", "owl"), ("Kind", "fox")]
    assert [m["here"] for m in seen["members"]] == [False, True, False]  # only Oma asked so far
    assert room["key"] not in str(seen)  # not even a member's answer carries the room's secret

    # a non-member, a wrong key, a guessed id: the same 404 as for no room at all
    nobody = client.get(f"/api/rooms/{rid}")
    guessed = client.get("/api/rooms/AAAAAAAAAAAA", headers=member(client, papa))
    assert nobody.status_code == guessed.status_code == 404 and nobody.json() == guessed.json()
    assert client.get(f"/api/rooms/{rid}", headers=member(client, "x" + papa)).status_code == 404
    wrong = client.post(f"/api/rooms/{rid}/join", json={"key": room["key"] + "x", "name": "Dieb"})
    assert wrong.status_code == 404 and room["key"] not in wrong.text
    assert client.post(f"/api/rooms/{rid}/join", json={"key": room["key"], "avatar": "unicorn"}).status_code == 400

    # rename and a new avatar; the creator removes a member, nobody else may
    r = client.post(f"/api/rooms/{rid}/me", json={"name": "Omi", "avatar": "hedgehog"}, headers=member(client, oma))
    assert r.status_code == 200, r.text
    assert (
        client.post(
            f"/api/rooms/{rid}/remove", json={"member": seen["members"][0]["id"]}, headers=member(client, oma)
        ).status_code
        == 403
    )
    kid_id = seen["members"][2]["id"]
    assert (
        client.post(f"/api/rooms/{rid}/remove", json={"member": kid_id}, headers=member(client, papa)).status_code
        == 200
    )
    assert client.get(f"/api/rooms/{rid}", headers=member(client, kind)).status_code == 404
    # a lost device: a new token here, the old one opens nothing
    client.cookies.clear()
    renewed = client.post(f"/api/rooms/{rid}/renew", json={}, headers=member(client, oma))
    new_oma = renewed.json()["token"]
    client.cookies.clear()
    assert client.get(f"/api/rooms/{rid}", headers=member(client, oma)).status_code == 404
    assert [m["name"] for m in show(client, rid, new_oma)["members"]] == ["Papa", "Omi"]
    # a member link opens the same member on another device
    link = client.post(f"/api/rooms/{rid}/member-link", json={}, headers=member(client, new_oma)).json()["url"]
    pair = dict(p.split("=", 1) for p in link.partition("#")[2].split("&"))
    assert client.post(f"/api/rooms/{rid}/open", json=pair).status_code == 200
    assert client.get(f"/api/rooms/{rid}").json()["you"] == seen["members"][1]["id"]  # by the cookie now
    client.cookies.clear()
    # leaving
    assert client.post(f"/api/rooms/{rid}/leave", json={}, headers=member(client, new_oma)).status_code == 200
    assert [m["name"] for m in show(client, rid, papa)["members"]] == ["Papa"]


def test_rooms_have_limits(make_client: AppFactory) -> None:
    client = make_client(limits=dataclasses.replace(Limits(), rooms_per_hour=2, members_per_room=2))
    room = new_room(client)
    join_room(client, room, "Oma")
    full = client.post(f"/api/rooms/{room['room']}/join", json={"key": room["key"], "name": "Kind"})
    assert full.status_code == 409 and full.json()["code"] == "room_full"
    new_room(client)
    third = client.post("/api/rooms", json={"name": "x"})
    assert third.status_code == 429 and third.json()["code"] == "too_many_rooms"


def test_a_room_plays_again_and_keeps_its_tally_across_a_restart(make_client: AppFactory, db_url: str) -> None:
    """Papa starts a Mau-Mau match of two deals for Papa, Oma and a bot; Oma takes her seat with
    one tap; after the match the rematch is a new match at the same seats; the tally counts the
    deals and the match per member, and all of it is there after a restart."""
    client = make_client(clock_scale=0.001)
    room = new_room(client)
    rid, papa = room["room"], room["token"]
    oma = join_room(client, room, "Oma", "owl")
    ids = [m["id"] for m in show(client, rid, papa)["members"]]
    plan = {
        "game": "mau-mau",
        "seats": [{"member": ids[1]}, {"member": ids[0]}, {"bot": "random", "name": "Random bot 7"}],
        "deals": 2,
        "options": {"move_limit": 40},
    }
    started = client.post(f"/api/rooms/{rid}/tables", json=plan, headers=member(client, papa))
    assert started.status_code == 200, started.text
    table = started.json()["table"]
    assert started.json()["seat"] == 1  # Papa's planned seat, not the first one
    # Papa's page opens the table, as the room page sends him there: at this test's clock a table
    # nobody has open closes in a third of a second, before Oma's tap
    at_table = seated(client, table, 1, started.json()["token"])
    seen = show(client, rid, oma)
    assert seen["tables"][0]["invited"] and seen["choices"]["mau-mau"]["deals"] == 2
    assert seen["tables"][0]["seats"][2]["name"] == "Random bot 7"  # the bot keeps the room's name
    assert not show(client, rid, papa)["tables"][0]["invited"]  # Papa sits already
    taken = client.post(f"/api/rooms/{rid}/tables/{table}/join", json={}, headers=member(client, oma))
    assert taken.status_code == 200 and taken.json()["seat"] == 0, taken.text
    tokens = {0: taken.json()["token"], 1: started.json()["token"]}
    at_table.close()
    # a stranger with the table's id cannot take a room's seat without the room
    assert client.post(f"/api/rooms/{rid}/tables/{table}/join", json={}).status_code == 404

    rng = random.Random(5)
    deals = [table]
    for _ in range(2):  # the match's deals, each person one seat on
        players = [seated(client, table, seat, token) for seat, token in tokens.items()]
        for p in players:
            play_until_over(p, rng)
        summary = client.get(f"/api/tables/{table}").json()
        for p in players:
            p.close()
        if summary["match"]["over"]:
            break
        table = wait_next(client, table)
        deals.append(table)
        tokens = {(seat - 1) % 3: token for seat, token in tokens.items()}
    players = [seated(client, table, seat, token) for seat, token in tokens.items()]
    for p in players:
        p.send({"type": "rematch"})
    rematch = wait_live_next(players[0])
    for p in players:
        p.close()
    # at this test's clock the rematch, nobody at it, is played on by stand-ins at once: its deals
    # may be counted too by the time the tally is read (they add to it, never take)
    tally = show(client, rid, papa)["tally"]["mau-mau"]
    ours = [result for result in tally["last"] if result["table"] in deals]
    assert len(ours) == summary["match"]["booked"] and ours[0]["match"], tally  # newest first: the match's end
    assert tally["matches"] >= 1 and tally["games"] >= len(ours)
    assert sum(tally["match_wins"].values()) >= 1 and set(tally["match_wins"]) <= {*ids, "seat:Random bot 7"}
    assert sum(tally["wins"].values()) >= tally["games"]
    assert len(tally["last"]) == tally["games"]

    # after a restart: the members, the tables (the rematch among them) and the same tally to
    # both; nothing it had is lost (the rematch's stand-ins may add to it meanwhile)
    client.__exit__(None, None, None)
    again = make_client(db=db_url)
    for who in (oma, papa):
        after = show(again, rid, who)
        assert {t["id"] for t in after["tables"]} >= {table, rematch}
        kept = after["tally"]["mau-mau"]
        assert kept["games"] >= tally["games"] and kept["matches"] >= tally["matches"], (kept, tally)
        assert all(result in kept["last"] for result in tally["last"]), (kept["last"], tally["last"])
    for result in after["tally"]["mau-mau"]["last"]:
        assert again.get(f"/api/tables/{result['table']}/replay").status_code == 200


def wait_next(client: TestClient, table: str) -> str:
    from .test_family import wait_for_next

    return wait_for_next(client, table)


def wait_live_next(player: Player) -> str:
    while player.live is None or not player.live.get("next"):
        player.recv(presence=True)
    return str(player.live["next"])


def test_the_room_store_on_sqlite_and_postgresql(store: Any) -> None:
    """The rooms' tables on both databases: a member cap counted in the transaction, members
    changed and removed, tables and seat tokens kept."""
    import datetime as dt

    from mauseloch.server.storage.rooms import MemberRow, RoomRow, RoomStore

    rooms = RoomStore(store)
    when = dt.datetime(2026, 12, 7, tzinfo=dt.UTC)
    first = MemberRow(id="m1", name="Papa", avatar="bear", token_hash="a" * 64, joined=when)
    rooms.create_room(RoomRow("r1", "Maus", "b" * 64, when, "m1", {"hints": False}), first)
    second = MemberRow(id="m2", name="Oma", avatar="owl", token_hash="c" * 64, joined=when)
    assert rooms.add_member("r1", second, 2)
    assert not rooms.add_member("r1", MemberRow("m3", "Kind", "fox", "d" * 64, when), 2)
    assert rooms.update_member("r1", "m2", {"name": "Omi"}) and not rooms.update_member("r1", "zz", {"name": "x"})
    rooms.add_seat("r1", "e" * 64, "m2")
    assert rooms.seat_members("r1") == {"e" * 64: "m2"}
    assert rooms.remove_member("r1", "m1")
    got = rooms.room("r1")
    assert got is not None and [(m.id, m.name) for m in got.members] == [("m2", "Omi")]
    assert got.settings == {"hints": False} and rooms.room("r2") is None and rooms.tables("r1") == []


def test_a_learning_member_gets_a_tip_from_the_strongest_bot(make_client: AppFactory) -> None:
    client = make_client()
    room = new_room(client)
    rid, papa = room["room"], room["token"]
    oma = join_room(client, room, "Oma", "owl")
    ids = [m["id"] for m in show(client, rid, papa)["members"]]
    plan = {"game": "mau-mau", "seats": [{"member": ids[1]}, {"member": ids[0]}, {"bot": "heuristic"}]}
    table = client.post(f"/api/rooms/{rid}/tables", json=plan, headers=member(client, papa)).json()["table"]
    taken = client.post(f"/api/rooms/{rid}/tables/{table}/join", json={}, headers=member(client, oma)).json()
    tip = f"/api/rooms/{rid}/tables/{table}/hint"
    assert client.post(tip, json={}, headers=member(client, oma)).status_code == 403  # hints are off
    learning = {"hints": True, "learning": [ids[1]]}
    assert client.post(f"/api/rooms/{rid}/settings", json=learning, headers=member(client, papa)).status_code == 200
    assert client.post(tip, json={}, headers=member(client, papa)).status_code == 403  # Papa is not learning
    answer = client.post(tip, json={}, headers=member(client, oma))
    assert answer.status_code == 200, answer.text
    oma_seat = seated(client, table, taken["seat"], taken["token"])
    got = answer.json()
    assert got["seat"] == 0 and got["hint"]["move"] in oma_seat.view["legal_moves"]  # seat 0 leads
    assert got["hint"]["reason"].startswith("mm.hint.")
    oma_seat.close()
    assert client.post(f"/api/rooms/{rid}/tables/nosuch/hint", json={}, headers=member(client, oma)).status_code == 404


def test_no_log_line_holds_a_rooms_secret(make_client: AppFactory, caplog: pytest.LogCaptureFixture) -> None:
    """The room's key and the members' tokens travel in bodies, headers and cookies only: the
    access log (paths) and every other log line of a room's whole life never hold them."""
    caplog.set_level(logging.DEBUG)
    client = make_client()
    room = new_room(client)
    oma = join_room(client, room, "Oma")
    show(client, room["room"], oma)
    link = client.post(f"/api/rooms/{room['room']}/member-link", json={}, headers=member(client, oma)).json()["url"]
    assert client.get(link).status_code == 200  # the page: a browser sends only the part before '#'
    text = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert f"GET /r/{room['room']} 200" in text  # the access log saw the room's requests
    for secret in (room["key"], room["token"], oma):
        assert secret not in text


def test_a_rooms_next_game_may_be_played_over_days(make_client: AppFactory) -> None:
    client = make_client()
    room = new_room(client)
    me = show(client, room["room"], room["token"])["you"]
    plan = {"game": "mau-mau", "seats": [{"member": me}, {"bot": "random"}], "clock": "1d"}
    started = client.post(f"/api/rooms/{room['room']}/tables", json=plan, headers=member(client, room["token"]))
    assert started.status_code == 200, started.text
    assert client.get(f"/api/tables/{started.json()['table']}").json()["clock"] == "1d"
    assert show(client, room["room"], room["token"])["choices"]["mau-mau"]["clock"] == "1d"  # remembered
    plan["clock"] = "forever"
    refused = client.post(f"/api/rooms/{room['room']}/tables", json=plan, headers=member(client, room["token"]))
    assert refused.status_code == 400
