"""The web tables' rules route, deal codes and Mau-Mau match play."""

from __future__ import annotations

import random
import time
from typing import Any

from starlette.testclient import TestClient

import mauseloch
from mauseloch.core.dealcode import code_of, decode
from mauseloch.core.match import Match, deal_seed, replay_match

from .conftest import AppFactory
from .helpers import HUMAN, RANDOM_BOT, Player, create_table, seated


def test_the_rules_route_serves_the_projects_pages(client: TestClient) -> None:
    de = client.get("/api/rules/mau-mau?lang=de").json()
    assert de["lang"] == "de" and de["html"].startswith("<h1>Mau-Mau — die Regeln")
    en = client.get("/api/rules/aus-die-maus?lang=xx").json()  # an unknown language: English
    assert en["lang"] == "en" and "<table>" in en["html"]
    assert client.get("/api/rules/skat").status_code == 404


def play_until_over(player: Player, rng: random.Random) -> None:
    """Play this seat's turns to the end; a move sent on a state a bot had just moved past is
    answered ``stale`` (nothing changed) and made again on the newer state."""
    while not player.view["is_over"]:
        if player.my_turn():
            player.move(rng.choice(player.view["legal_moves"]))
        frame = player.recv()
        assert frame["type"] != "closed" and (frame["type"] != "error" or frame["code"] == "stale"), frame


def test_a_deal_code_deals_the_same_deal_and_shows_once_it_is_over(client: TestClient) -> None:
    game = mauseloch.new_game("mau-mau", players=2, seed=4242, options={"move_limit": 60})
    code = code_of(game)
    created = create_table(client, [HUMAN, RANDOM_BOT], deal=code.lower())
    summary = client.get(f"/api/tables/{created['table']}").json()
    assert summary["options"] == game.options and summary["deal_code"] is None  # a seed tells every hand
    row = client.app.state.store.load_table(created["table"])  # type: ignore[attr-defined]
    assert row.deck == game.record()["deck"]
    anna = seated(client, created["table"], 0, created["token"])
    play_until_over(anna, random.Random(3))
    assert client.get(f"/api/tables/{created['table']}").json()["deal_code"] == code
    anna.close()
    for bad, words in (("nonsense", "not a deal code"), ("A2-12", "is for aus-die-maus"), ("M3-12", "3 players")):
        answer = client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, RANDOM_BOT], "deal": bad})
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def wait_for_next(client: TestClient, table: str) -> str:
    deadline = time.monotonic() + 30  # a safety net only: the pause is scaled to milliseconds
    while time.monotonic() < deadline:
        nxt = client.get(f"/api/tables/{table}").json()["next"]
        if nxt:
            return str(nxt)
        time.sleep(0.02)
    raise AssertionError("the next deal never came")


def test_a_match_plays_its_deals_with_the_lead_rotating_and_replays(make_client: AppFactory) -> None:
    client = make_client(clock_scale=0.001)
    created = create_table(client, [HUMAN, RANDOM_BOT, RANDOM_BOT], deals=3, options={"move_limit": 80})
    table, token, seat = created["table"], created["token"], 0
    rng = random.Random(5)
    for deal in range(1, 4):
        summary = client.get(f"/api/tables/{table}").json()
        match: dict[str, Any] = summary["match"]
        assert match["deal"] == deal and match["deals"] == 3
        assert summary["seats"][seat]["name"] == "Anna"  # Anna moved one seat on each deal
        assert seat == (0 - (deal - 1)) % 3
        anna = seated(client, table, seat, token)
        play_until_over(anna, rng)
        anna.close()
        over = client.get(f"/api/tables/{table}").json()["match"]
        assert over["booked"] == deal and over["over"] == (deal == 3)
        if deal < 3:
            table, seat = wait_for_next(client, table), (seat - 1) % 3
    assert client.get(f"/api/tables/{table}").json()["next"] is None  # the match is over: no fourth deal
    record = client.get(f"/api/tables/{table}/match").json()
    replayed = replay_match(record)
    assert isinstance(replayed, Match) and replayed.is_over and len(replayed.games) == 3
    totals = {row["name"]: row["total"] for row in over["standings"]}
    assert totals["Anna"] == replayed.totals[0]
    assert [g.seed for g in replayed.games] == [deal_seed(record["seed"], i) for i in range(3)]
    assert decode(code_of(replayed.games[0])).seed == replayed.games[0].seed


def test_a_bad_match_is_refused(client: TestClient) -> None:
    for extra, words in (({"deals": 0}, "1 to 99 deals"), ({"deals": 2, "game": "aus-die-maus"}, "match play is for")):
        body = {"game": "mau-mau", "seats": [HUMAN, RANDOM_BOT], **extra}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_the_people_at_the_table_pause_the_bots_and_set_their_speed(client: TestClient) -> None:
    created = create_table(client, [HUMAN, RANDOM_BOT], options={"move_limit": 200})
    table_id = created["table"]
    anna = seated(client, table_id, 0, created["token"])
    anna.until(lambda p: p.my_turn())
    anna.send({"type": "pace", "paused": True, "speed": 2})
    live = anna.recv(presence=True)
    assert live["type"] == "presence" and live["live"]["pace"] == {"paused": True, "speed": 2.0}
    table = client.app.state.tables.get(table_id)  # type: ignore[attr-defined]
    anna.move(anna.view["legal_moves"][0])  # a paused table takes no moves (bots waiting: test_pause.py)
    assert anna.recv()["code"] == "paused"
    anna.send({"type": "pace", "paused": False, "speed": 1})
    assert anna.recv(presence=True)["live"]["pace"] == {"paused": False, "speed": 1.0}
    watcher = Player(client, table_id)
    watcher.hello()
    # (still paused if Anna's moves alone ended the game)
    before = {"paused": table.state.paused, "speed": table.state.speed}
    watcher.send({"type": "pace", "paused": not before["paused"], "speed": 1})
    refused = watcher.recv()
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    assert {"paused": table.state.paused, "speed": table.state.speed} == before  # a spectator changes nothing
    for bad in ({"type": "pace", "paused": True, "speed": 100}, {"type": "pace", "paused": "yes"}):
        anna.send(bad)
        frame = anna.recv()
        assert frame["type"] == "error" and frame["code"] == "bad_message", frame


def test_a_rematch_after_a_match_is_a_new_match_at_the_same_seats(make_client: AppFactory) -> None:
    """Everyone back in their first deal's seats (the host at seat 0, so the table keeps its
    name, and every bot its number), a match of the same length again, from a new seed; a public
    match stays listed through its deals and its rematch."""
    client = make_client(clock_scale=0.001)
    body = {"deals": 2, "target": 90, "options": {"move_limit": 40}, "public": True}
    created = create_table(client, [HUMAN, RANDOM_BOT, RANDOM_BOT], **body)
    first = client.get(f"/api/tables/{created['table']}").json()
    table, token, seat = created["table"], created["token"], 0
    rng = random.Random(11)
    for deal in (1, 2):
        anna = seated(client, table, seat, token)
        play_until_over(anna, rng)
        if deal == 2 or client.get(f"/api/tables/{table}").json()["match"]["over"]:
            break
        anna.close()
        table, seat = wait_for_next(client, table), (seat - 1) % 3
    last = client.get(f"/api/tables/{table}").json()
    assert last["match"]["over"] and last["next"] is None and last["public"]
    anna.send({"type": "rematch"})  # the bots agree by themselves: Anna is the only person
    while anna.live is None or not anna.live.get("next"):
        anna.recv(presence=True)
    anna.close()
    again = client.get(f"/api/tables/{anna.live['next']}").json()
    assert again["match"]["deal"] == 1 and again["match"]["deals"] == 2 and again["match"]["target"] == 90
    assert again["match"]["booked"] == 0 and again["public"]
    assert [(s["seat"], s["player"], s["name"], s["bot"]) for s in again["seats"]] == [
        (s["seat"], s["player"], s["name"], s["bot"]) for s in first["seats"]
    ]
    assert seated(client, again["id"], 0, token).view["is_over"] is False  # Anna's seat link opens seat 0
    old_seed = client.app.state.store.load_table(created["table"]).match["seed"]  # type: ignore[attr-defined]
    assert client.app.state.store.load_table(again["id"]).match["seed"] != old_seed  # type: ignore[attr-defined]
