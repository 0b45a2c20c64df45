"""A restart restores every unfinished table from the store; play continues with nothing lost."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from starlette.testclient import TestClient

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, play_out, seated, shut_down

AppFactory = Callable[..., TestClient]


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, db_url: str) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return db_url


def test_restart_restores_tables_mid_game(make_client: AppFactory, seeds: Callable[[int], None], url: str) -> None:
    seeds(12)
    first = make_client(db=url)
    duel = create_table(first, [HUMAN, HUMAN], options={"move_limit": 400}, public=True)
    ben = join(first, duel["table"], "Ben")
    tokens = [duel["token"], ben["token"]]
    players = [seated(first, duel["table"], s, tokens[s]) for s in range(2)]
    play_out(players, random.Random(5), moves=9)
    solo = create_table(first, [HUMAN, RANDOM_BOT, RANDOM_BOT], public=True)
    anna = seated(first, solo["table"], 0, solo["token"])
    anna.until(lambda p: p.my_turn())
    anna.move(anna.view["legal_moves"][0])
    anna.recv()
    waiting = create_table(first, [HUMAN, HUMAN], public=True)
    private = create_table(first, [HUMAN, HUMAN])  # restored too, and still not listed
    views = [p.view for p in players]
    shut_down(first)  # the bots may still have moved until here
    before = {
        t: first.app.state.tables.get(t).state.game.record()  # type: ignore[attr-defined]
        for t in (duel["table"], solo["table"], waiting["table"])
    }
    assert len(before[duel["table"]]["moves"]) == 9

    second = make_client(db=url)
    restored = second.app.state.tables  # type: ignore[attr-defined]
    for table_id, record in before.items():
        assert restored.get(table_id).state.game.record() == record
    assert restored.get(duel["table"]).version == 9
    listed = {t["id"]: t["status"] for t in second.get("/api/tables").json()["tables"]}
    assert restored.get(private["table"]).row.public is False
    assert listed == {duel["table"]: "playing", solo["table"]: "playing", waiting["table"]: "waiting"}
    again = [seated(second, duel["table"], s, tokens[s]) for s in range(2)]
    assert [p.view for p in again] == views  # the same hands, the same turn
    assert again[0].state["version"] == 9 and again[0].state["seq"] == players[0].state["seq"]  # type: ignore[index]
    play_out(again, random.Random(6))
    assert again[0].view["is_over"]
    final = restored.get(duel["table"]).state.game.record()
    assert final["moves"][:9] == before[duel["table"]]["moves"]

    # the bots of a restored table move again, and the human keeps the seat
    anna = seated(second, solo["table"], 0, solo["token"])
    for _ in range(3):
        anna.until(lambda p: p.my_turn() or p.view["is_over"])
        if anna.view["is_over"]:
            break
        anna.move(anna.view["legal_moves"][0])
        anna.recv()
    assert anna.state["version"] > len(before[solo["table"]]["moves"])  # type: ignore[index]
    # a waiting table can still be joined after the restart
    assert join(second, waiting["table"])["seat"] == 1
    shut_down(second)

    third = make_client(db=url)  # finished tables are not restored, but still served
    in_memory = third.app.state.tables.tables  # type: ignore[attr-defined]
    assert duel["table"] not in in_memory
    assert third.get(f"/api/tables/{duel['table']}").json()["status"] == "over"
    played_by = ["person"] * len(final["moves"])
    assert third.get(f"/api/tables/{duel['table']}/record").json() == {**final, "played_by": played_by}
    assert third.get(f"/api/tables/{duel['table']}/replay").status_code == 200
    assert duel["table"] not in in_memory  # reading a finished table does not keep it
    watcher = Player(third, duel["table"])
    end = watcher.hello()
    assert end["type"] == "snapshot" and end["view"]["is_over"] and end["version"] == len(final["moves"])
    watcher.close()
