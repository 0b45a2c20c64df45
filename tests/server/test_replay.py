"""Replays and record downloads of finished games."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest
from starlette.testclient import TestClient

import mauseloch
from mauseloch.core.schema import event_types, view_types
from mauseloch.server.lobby import web_games
from mauseloch.server.records import replay_frames

from .helpers import HUMAN, RANDOM_BOT, create_table, join, play_out, seated


def test_replay_frames_and_record(client: TestClient, seeds: Callable[[int], None]) -> None:
    seeds(7)
    created = create_table(client, [HUMAN, HUMAN, HUMAN])
    table = created["table"]
    tokens = [created["token"], join(client, table)["token"], join(client, table)["token"]]
    players = [seated(client, table, s, tokens[s]) for s in range(3)]
    play_out(players, random.Random(1), moves=4)
    assert client.get(f"/api/tables/{table}/replay").status_code == 409  # not finished
    assert client.get(f"/api/tables/{table}/record").status_code == 409
    assert client.get(f"/replay/{table}", follow_redirects=False).status_code == 303
    play_out(players, random.Random(1))

    answer = client.get(f"/api/tables/{table}/replay").json()
    record = answer["record"]
    game = client.app.state.tables.get(table).state.game  # type: ignore[attr-defined]
    assert record == {**game.record(), "played_by": ["person"] * len(record["moves"])}  # who played each move
    frames = answer["frames"]
    assert len(frames) == len(record["moves"]) + 1
    assert frames[0]["move"] is None and [f["move"] for f in frames[1:]] == record["moves"]
    assert [e for f in frames for e in f["events"]] == game.events  # nothing hidden, nothing twice
    check = mauseloch.new_game("mau-mau", players=3, seed=record["seed"], options=record["options"])
    for frame in frames:
        if frame["move"] is not None:
            check.play(frame["move"][1], seat=frame["move"][0])
        assert frame["view"]["hands"] == [check.view(s)["hand"] for s in range(3)]  # every hand visible
        assert frame["view"]["to_move"] == check.to_move
    assert frames[-1]["view"]["result"] == game.result()
    # the frames are the game's view struct and its event structs (the schema's), sent as they are
    typed = replay_frames(client.app.state.tables.get(table).state.row)  # type: ignore[attr-defined]
    assert all(isinstance(f["view"], view_types("mau-mau")[0]) for f in typed)
    assert all(isinstance(e, event_types("mau-mau")) for f in typed for e in f["events"])
    assert msgspec.json.decode(msgspec.json.encode(typed)) == frames

    download = client.get(f"/api/tables/{table}/record")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    assert mauseloch.replay(download.json()).result() == game.result()
    assert client.get("/api/tables/nosuch/replay").status_code == 404
    assert client.get("/replay/nosuch").status_code == 404


# reaction games are played by claims, not moves: tests/server/test_reactions.py
@pytest.mark.parametrize("game", [info.name for info in web_games() if info.dynamics == "turns"])
def test_every_offered_game_replays(client: TestClient, seeds: Callable[[int], None], game: str) -> None:
    seeds(5)
    info = mauseloch.GAMES[game]
    created = create_table(client, [HUMAN] + [RANDOM_BOT] * (info.min_players - 1), game=game)
    player = seated(client, created["table"], 0, created["token"])
    rng = random.Random(6)
    while not player.view["is_over"]:
        player.until(lambda p: p.my_turn() or p.view["is_over"])
        if player.my_turn():
            player.move(rng.choice(player.view["legal_moves"]))
            player.recv()
    frames = client.get(f"/api/tables/{created['table']}/replay").json()["frames"]
    final = client.app.state.tables.get(created["table"]).state.game.view(None)  # type: ignore[attr-defined]
    assert {k: v for k, v in frames[-1]["view"].items() if k != "hands"} == {
        k: v for k, v in final.items() if k != "hands"
    }
    assert frames[-1]["view"]["result"] == player.view["result"]
    if "hand" in player.view:
        assert all(isinstance(h, list) for h in frames[0]["view"]["hands"])
