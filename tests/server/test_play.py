"""Playing over the WebSocket: against bots, between humans, reconnecting, refused moves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

import mauseloch
from mauseloch.server.lobby import web_games

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, play_out, seated

SHORT = {"move_limit": 150}


def test_full_game_against_bots(client: TestClient) -> None:
    created = create_table(client, [HUMAN, RANDOM_BOT, {"kind": "bot", "bot": "heuristic"}, RANDOM_BOT], options=SHORT)
    anna = seated(client, created["table"], 0, created["token"])
    rng = random.Random(1)
    seen_versions = [anna.state["version"]]  # type: ignore[index]
    while not anna.view["is_over"]:
        anna.until(lambda p: p.my_turn() or p.view["is_over"])
        if anna.my_turn():
            anna.move(rng.choice(anna.view["legal_moves"]))
            anna.recv()
        seen_versions.append(anna.state["version"])  # type: ignore[index]
    assert seen_versions == sorted(seen_versions)
    table = client.app.state.tables.get(created["table"])  # type: ignore[attr-defined]
    game = table.state.game
    assert game.is_over and anna.state["version"] == table.version == len(game.record()["moves"])  # type: ignore[index]
    assert anna.view["result"] == table.state.game.result()
    assert client.get(f"/api/tables/{created['table']}").json()["status"] == "over"
    assert client.get("/api/tables").json()["tables"] == []  # finished tables leave the list
    # The stored moves are the game: replaying them gives the same result.
    row = client.app.state.store.load_table(created["table"])  # type: ignore[attr-defined]
    assert row.status == "over" and row.result == table.state.game.result()
    assert mauseloch.replay(table.state.game.record()).result() == table.state.game.result()
    anna.close()


def test_game_between_two_humans_with_a_spectator(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN], options=SHORT)
    table = created["table"]
    anna = seated(client, table, 0, created["token"])
    assert anna.view["to_move"] == 0
    anna.move(anna.view["legal_moves"][0])
    refused = anna.recv()
    assert refused["type"] == "error" and refused["code"] == "not_started"
    ben_seat = join(client, table, "Ben")
    snap = anna.recv()  # everyone gets a fresh snapshot when a seat is taken
    assert snap["type"] == "snapshot" and snap["table"]["status"] == "playing"
    ben = seated(client, table, 1, ben_seat["token"])
    watcher = Player(client, table)
    assert watcher.hello()["seat"] is None
    play_out([anna, ben], random.Random(2), (watcher,))
    assert anna.view["result"] == ben.view["result"] == watcher.view["result"]
    assert anna.view["hands"] == watcher.view["hands"]  # at the end every hand shows
    game = client.app.state.tables.get(table).state.game  # type: ignore[attr-defined]
    assert anna.view == game.view(0) and ben.view == game.view(1) and watcher.view == game.view(None)
    for p in (anna, ben, watcher):
        p.close()


def test_refused_moves_change_nothing(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table = created["table"]
    ben_seat = join(client, table)
    anna = seated(client, table, 0, created["token"])
    ben = seated(client, table, 1, ben_seat["token"])
    watcher = Player(client, table)
    watcher.hello()
    before = client.app.state.tables.get(table).state.game.record()  # type: ignore[attr-defined]

    def refused(player: Player, message: dict[str, object]) -> dict[str, object]:
        player.send(message)
        frame = player.recv()
        assert frame["type"] == "error", frame
        assert frame["version"] == anna.state["version"] and frame["seq"] == anna.state["seq"]  # type: ignore[index]
        return frame

    legal = anna.view["legal_moves"]
    assert refused(anna, {"type": "move", "move": legal[0], "version": 5})["code"] == "stale"
    assert refused(anna, {"type": "move", "move": "ZZ", "version": 0})["code"] == "illegal"
    not_held = next(c for c in ("7C", "8C", "9C", "TC", "QC", "KC", "AC") if c not in anna.view["hand"])
    frame = refused(anna, {"type": "move", "move": not_held, "version": 0})
    assert frame["code"] == "illegal" and "legal now" in frame["message"]  # the engine's reason
    assert refused(anna, {"type": "move", "move": "timeout", "version": 0})["code"] == "illegal"
    assert refused(ben, {"type": "move", "move": "draw", "version": 0})["code"] == "not_your_turn"
    assert refused(watcher, {"type": "move", "move": legal[0], "version": 0})["code"] == "not_your_turn"
    assert client.app.state.tables.get(table).state.game.record() == before  # type: ignore[attr-defined]

    # A move in lower case is accepted and stored in its canonical spelling.
    anna.move(legal[0].lower())
    assert anna.recv()["version"] == 1 and ben.recv()["version"] == 1 and watcher.recv()["version"] == 1
    row = client.app.state.store.load_table(table)  # type: ignore[attr-defined]
    assert row.moves == [[0, legal[0]]]
    assert refused(anna, {"type": "move", "move": legal[0], "version": 0})["code"] in ("stale", "not_your_turn")
    for p in (anna, ben, watcher):
        p.close()


def test_reconnect_keeps_the_seat(client: TestClient) -> None:
    created = create_table(client, [HUMAN, RANDOM_BOT], options=SHORT)
    table = created["table"]
    anna = seated(client, table, 0, created["token"])
    rng = random.Random(3)
    for _ in range(3):
        anna.until(lambda p: p.my_turn() or p.view["is_over"])
        if anna.view["is_over"]:
            break
        anna.move(rng.choice(anna.view["legal_moves"]))
        anna.recv()
    last = anna.state
    anna.close()

    again = Player(client, table)
    snap = again.hello(created["token"], 0, last_seq=last["seq"])  # type: ignore[index]
    assert snap["type"] == "snapshot" and snap["seat"] == 0
    game = client.app.state.tables.get(table).state.game  # type: ignore[attr-defined]
    assert snap["view"] == game.view(0) and snap["version"] >= last["version"]  # type: ignore[index]
    assert len(snap["events"]) <= 50
    again.send({"type": "resync"})
    assert again.recv() == {**snap, "table": again.frames[-1]["table"], "live": again.frames[-1]["live"]}
    again.send({"type": "ping"})
    pong = again.recv()
    assert pong == {"type": "pong", "version": snap["version"], "seq": snap["seq"]}
    # two tabs of one seat both play it
    second_tab = seated(client, table, 0, created["token"])
    assert second_tab.view == again.view
    again.close()
    second_tab.close()


# reaction games are played by claims, not moves: tests/server/test_reactions.py
@pytest.mark.parametrize("game", [info.name for info in web_games() if info.dynamics == "turns"])
def test_every_offered_game_plays_to_the_end(client: TestClient, seeds: Callable[[int], None], game: str) -> None:
    seeds(3)
    info = mauseloch.GAMES[game]
    seats = [HUMAN] + [RANDOM_BOT] * (info.min_players - 1)
    created = create_table(client, seats, game=game)
    player = seated(client, created["table"], 0, created["token"])
    rng = random.Random(4)
    while not player.view["is_over"]:
        player.until(lambda p: p.my_turn() or p.view["is_over"])
        if player.my_turn():
            player.move(rng.choice(player.view["legal_moves"]))
            player.recv()
    running = client.app.state.tables.get(created["table"])  # type: ignore[attr-defined]
    assert player.view == running.state.game.view(0)
    assert mauseloch.replay(running.state.game.record()).result() == player.view["result"]


def test_a_move_the_store_refuses_changes_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table = created["table"]
    ben = join(client, table)
    anna = seated(client, table, 0, created["token"])
    bens = seated(client, table, 1, ben["token"])
    store = client.app.state.store  # type: ignore[attr-defined]
    later = store.writes.later

    def broken(plan: Any) -> Any:
        if plan[0][0] != "move":
            return later(plan)
        failed = asyncio.get_running_loop().create_future()
        failed.set_exception(OperationalError("INSERT", {}, Exception("disk full")))
        return failed

    monkeypatch.setattr(store.writes, "later", broken)
    anna.move(anna.view["legal_moves"][0])
    refused = anna.recv()
    assert refused["type"] == "error" and refused["code"] == "server_error" and refused["version"] == 0
    assert client.app.state.tables.get(table).version == 0  # type: ignore[attr-defined]
    monkeypatch.setattr(store.writes, "later", later)
    anna.move(anna.view["legal_moves"][0])
    assert anna.recv()["version"] == 1 and bens.recv()["version"] == 1  # Ben never saw the failure
    assert len(store.load_table(table).moves) == 1


def test_two_tabs_racing_for_one_version_play_once(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table = created["table"]
    join(client, table)
    tabs = [seated(client, table, 0, created["token"]) for _ in range(2)]
    legal = tabs[0].view["legal_moves"]
    for tab in tabs:
        tab.move(legal[-1], version=0)
    frames: list[dict[str, object]] = []
    for tab in tabs:  # each gets the update, and the slower one an error; a pong closes each list
        tab.send({"type": "ping"})
        frames.append(tab.recv())
        while frames[-1]["type"] != "pong":
            frames.append(tab.recv())
    kinds = sorted(str(f["type"]) for f in frames)
    assert kinds == ["error", "pong", "pong", "update", "update"]
    error = next(f for f in frames if f["type"] == "error")
    assert error["code"] == "stale" and error["version"] == 1
    assert client.app.state.store.load_table(table).moves == [[0, legal[-1]]]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["mau-mau", "aus-die-maus", "mausgeflippt"])
def test_the_declared_ranking_is_the_ranking_of_the_result(name: str) -> None:
    """The end screen explains the ranking with each game's declared ranked_by: it must be what ranks."""
    from mauseloch.core.engine import competition_ranks

    finished = 0
    for seed in range(40):
        game = mauseloch.new_game(name, players=3, seed=seed)
        rng = random.Random(seed)
        for _ in range(5000):
            if game.is_over:
                break
            seat = next(s for s in range(3) if game.legal_moves(s))
            game.play(rng.choice(game.legal_moves(seat)), seat=seat)
        if not game.is_over:
            continue
        finished += 1
        result, declared = game.result(), mauseloch.GAMES[name].ranked_by
        keys = [tuple(result[f][s] if better == "fewer" else -result[f][s] for f, better in declared) for s in range(3)]
        assert competition_ranks(keys) == result["ranks"], (seed, result)
    assert finished >= 20


def test_bots_keep_their_numbers_as_the_seats_of_a_match_rotate(make_client: Callable[..., TestClient]) -> None:
    """A bot is named by its player ("Random bot 3"), not by the seat it holds in this deal."""
    import time

    client = make_client(clock_scale=0.001)
    created = create_table(client, [HUMAN, RANDOM_BOT, RANDOM_BOT], deals=2, options={"move_limit": 80})
    first = client.get(f"/api/tables/{created['table']}").json()
    assert [s["player"] for s in first["seats"]] == [0, 1, 2]
    assert first["ranking"] == [{"figure": "cards", "better": "fewer"}, {"figure": "points", "better": "fewer"}]
    anna = seated(client, created["table"], 0, created["token"])
    rng = random.Random(2)
    while not anna.view["is_over"]:
        if anna.my_turn():
            anna.move(rng.choice(anna.view["legal_moves"]))
        frame = anna.recv()
        assert frame["type"] != "error" or frame["code"] == "stale", frame
    anna.close()
    deadline = time.monotonic() + 30  # a safety net only: the pause between deals is scaled down
    while not client.get(f"/api/tables/{created['table']}").json()["next"]:
        assert time.monotonic() < deadline, "the next deal never came"
        time.sleep(0.02)
    following = client.get(f"/api/tables/{created['table']}").json()["next"]
    second = client.get(f"/api/tables/{following}").json()
    player_of = {s["name"]: s["player"] for s in first["seats"]}
    for s in second["seats"]:  # everyone sits one seat on, and keeps the player number (and name)
        assert s["player"] == player_of[s["name"]] == (s["seat"] + 1) % 3
