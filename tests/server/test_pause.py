"""Pause means pause: the whole table waits (bots, stand-ins, turn clocks), everyone sees who
paused, several people pause only when everyone connected agrees, and a restart keeps the pause.

The clocks run fast here (``clock_scale`` 0.02: a fast 15 s turn lasts 0.3 s)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from mauseloch.server.clock import wall
from mauseloch.server.session import TableSession

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, seated, shut_down
from .test_cluster import Seat, new_table, redis_server, redis_url, servers  # noqa: F401 - fixtures

AppFactory = Callable[..., TestClient]
SCALE = 0.02
TURN = 15.0 * SCALE  # a fast turn at this scale


def session(client: TestClient, table: str) -> TableSession:
    found = client.app.state.lobby.get(table)  # type: ignore[attr-defined]
    assert found is not None
    return found  # type: ignore[no-any-return]


def until_live(player: Player, condition: Callable[[dict[str, Any]], bool], limit: int = 2000) -> dict[str, Any]:
    for _ in range(limit):
        if player.live is not None and condition(player.live):
            return player.live
        frame = player.recv(presence=True)
        assert frame["type"] not in ("error", "closed"), frame
    raise AssertionError("condition never met")


def settle(player: Player) -> None:
    """One round trip: everything the server had to do before answering is done."""
    player.send({"type": "ping"})
    while player.recv()["type"] != "pong":
        pass


def test_alone_a_pause_freezes_the_clock_and_the_stand_in_waits(make_client: AppFactory) -> None:
    client = make_client(clock_scale=SCALE)
    created = create_table(client, [HUMAN, RANDOM_BOT], clock="fast", options={"move_limit": 200})
    table_id = created["table"]
    anna = seated(client, table_id, 0, created["token"])
    anna.until(lambda p: p.my_turn())
    version = anna.state["version"]  # type: ignore[index]
    anna.send({"type": "pace", "paused": True, "speed": 1})
    live = until_live(anna, lambda live: live["pause"]["paused"])
    assert live["pause"]["by"] == 0 and live["pace"]["paused"]
    assert live["deadline"]["kind"] == "turn" and 0 < live["deadline"]["left"] <= TURN
    table = session(client, table_id)
    frozen = table.state.deadlines.get("turn")
    assert frozen is not None and frozen.left is not None
    time.sleep(4 * TURN)  # long past the deadline the clock had
    settle(anna)
    assert table.version == version  # no stand-in played her turn
    assert table.state.deadlines.get("turn") == frozen  # the clock did not run on
    anna.move(anna.view["legal_moves"][0])
    refused = anna.recv()
    assert refused["type"] == "error" and refused["code"] == "paused", refused
    assert table.version == version
    before = wall()
    anna.send({"type": "pace", "paused": False, "speed": 1})
    live = until_live(anna, lambda live: not live["pause"]["paused"])
    after = wall()
    # the clock runs on from the moment it resumed with the time that was left
    assert before + frozen.left - 0.001 <= live["deadline"]["due"] <= after + frozen.left + 0.001
    stood_in = anna.until  # the clock runs again: the stand-in plays once it runs out
    stood_in(lambda p: p.state is not None and p.state["version"] > version)
    assert table.row.by[version] == "stand-in"


@pytest.mark.slow
def test_bots_wait_while_paused(make_client: AppFactory) -> None:
    delay = 1.0  # seconds a bot waits before it moves: time enough to pause during its turn
    client = make_client(clock_scale=SCALE, bot_delay=delay)
    created = create_table(client, [HUMAN, RANDOM_BOT], clock="off", options={"move_limit": 200})
    table_id = created["table"]
    anna = seated(client, table_id, 0, created["token"])
    anna.until(lambda p: p.my_turn())
    while anna.my_turn():  # (a drawn card that fits is hers to decide on: the bot's turn comes after)
        version = anna.state["version"]  # type: ignore[index]
        anna.move(anna.view["legal_moves"][0])
        anna.until(lambda p, v=version: p.state is not None and p.state["version"] == v + 1)  # type: ignore[misc]
    anna.send({"type": "pace", "paused": True, "speed": 1})  # while the bot waits to move
    until_live(anna, lambda live: live["pause"]["paused"])
    table = session(client, table_id)
    paused_at = table.version
    assert table.state.game.to_move == 1 and not table.state.game.is_over
    time.sleep(delay + 0.5)  # past the moment the bot would have moved
    settle(anna)
    assert table.version == paused_at and table.state.bot is None  # the bot waits
    anna.send({"type": "pace", "paused": False, "speed": 1})
    anna.until(lambda p: p.state is not None and p.state["version"] > paused_at)  # and plays on
    assert table.row.by[paused_at] is None and table.row.moves[paused_at][0] == 1


def test_several_people_pause_when_everyone_agrees(make_client: AppFactory) -> None:
    client = make_client(clock_scale=SCALE)
    created = create_table(client, [HUMAN, HUMAN, HUMAN], clock="relaxed")
    table_id = created["table"]
    ben_token = join(client, table_id, "Ben")["token"]
    cleo_token = join(client, table_id, "Cleo")["token"]
    anna = seated(client, table_id, 0, created["token"])
    ben = seated(client, table_id, 1, ben_token)
    cleo = seated(client, table_id, 2, cleo_token)
    until_live(anna, lambda live: [s["presence"] for s in live["seats"]] == ["online"] * 3)
    table = session(client, table_id)
    ben.send({"type": "pace", "paused": True, "speed": 1})
    live = until_live(anna, lambda live: live["pause"]["asked"] == 1)
    assert not live["pause"]["paused"] and live["pause"]["waiting"] == [0, 2]
    assert table.state.deadlines.get("turn") is not None and table.state.deadlines.get("turn").left is None  # type: ignore[union-attr]
    anna.send({"type": "pace", "paused": True, "speed": 1})  # agrees
    live = until_live(anna, lambda live: live["pause"]["agreed"] == [0])
    assert not live["pause"]["paused"] and live["pause"]["waiting"] == [2]
    cleo.close()  # the last one asked leaves: everyone still here agreed
    live = until_live(anna, lambda live: live["pause"]["paused"])
    assert live["pause"]["by"] == 1 and live["pause"]["asked"] is None
    assert table.state.deadlines.get("turn").left is not None  # type: ignore[union-attr]
    anna.send({"type": "pace", "paused": False, "speed": 1})  # anyone seated resumes
    # read on Anna's socket, drained up to the pause: Ben's still holds the updates from before it
    live = until_live(anna, lambda live: not live["pause"]["paused"])
    assert table.state.deadlines.get("turn").left is None  # type: ignore[union-attr]
    # a request can be withdrawn by whoever asked
    ben.send({"type": "pace", "paused": True, "speed": 1})
    until_live(anna, lambda live: live["pause"]["asked"] == 1)
    ben.send({"type": "pace", "paused": False, "speed": 1})
    live = until_live(anna, lambda live: live["pause"]["asked"] is None)
    assert not live["pause"]["paused"]


def test_spectators_and_waiting_tables_cannot_pause(make_client: AppFactory) -> None:
    client = make_client(clock_scale=SCALE)
    created = create_table(client, [HUMAN, HUMAN])
    table_id = created["table"]
    anna = seated(client, table_id, 0, created["token"])
    anna.send({"type": "pace", "paused": True, "speed": 1})
    refused = anna.recv()
    assert refused["type"] == "error" and refused["code"] == "not_started", refused
    join(client, table_id, "Ben")
    watcher = Player(client, table_id)
    watcher.hello()
    watcher.send({"type": "pace", "paused": True, "speed": 1})
    refused = watcher.recv()
    assert refused["type"] == "error" and refused["code"] == "not_your_turn", refused
    assert not session(client, table_id).state.paused


def test_a_restart_keeps_the_pause_and_the_time_left(make_client: AppFactory, db_url: str) -> None:
    first = make_client(db=db_url, clock_scale=SCALE)
    created = create_table(first, [HUMAN, RANDOM_BOT], clock="fast", options={"move_limit": 200})
    table_id = created["table"]
    anna = seated(first, table_id, 0, created["token"])
    anna.until(lambda p: p.my_turn())
    anna.send({"type": "pace", "paused": True, "speed": 1})
    until_live(anna, lambda live: live["pause"]["paused"])
    frozen = session(first, table_id).state.deadlines.get("turn")
    assert frozen is not None and frozen.left is not None
    shut_down(first)
    second = make_client(db=db_url, clock_scale=SCALE)
    anna = seated(second, table_id, 0, created["token"])
    table = session(second, table_id)
    assert table.state.paused and table.state.deadlines.get("pause").seat == 0  # type: ignore[union-attr]
    restored = table.state.deadlines.get("turn")
    assert restored is not None and restored.left == round(frozen.left, 3)  # stored to the millisecond
    assert anna.live is not None and anna.live["deadline"]["left"] == round(frozen.left, 3)


@pytest.mark.slow
def test_a_pause_holds_the_next_mouse_back(make_client: AppFactory) -> None:
    client = make_client(clock_scale=1.0)  # a 3 s countdown before the first mouse
    created = create_table(client, [HUMAN, {"kind": "bot", "bot": "normal"}], game="mausgeflippt", clock="normal")
    table_id = created["table"]
    anna = seated(client, table_id, 0, created["token"])
    anna.send({"type": "pace", "paused": True, "speed": 1})
    until_live(anna, lambda live: live["pause"]["paused"])
    table = session(client, table_id)
    countdown = table.state.deadlines.get("turn")
    assert countdown is not None and countdown.left is not None  # the countdown is frozen
    time.sleep(countdown.left + 0.5)
    settle(anna)
    assert table.version == 0  # no mouse was shown
    anna.send({"type": "pace", "paused": False, "speed": 1})
    anna.until(lambda p: p.state is not None and p.state["version"] > 0)  # the mouse comes after the rest


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
def test_a_pause_asked_on_another_process_reaches_the_owner(servers: Callable[..., Any]) -> None:  # noqa: F811
    """Cluster mode: a pause request through a process that does not own the table is forwarded
    to the owner (whose clocks and bots are the ones that wait), like a move."""
    one, two = servers(), servers()
    table, creds = new_table(one, two)
    anna = Seat(one, table, *creds[0])  # the owner's process
    ben = Seat(two, table, *creds[1])
    anna.until(lambda s: s.state["table"]["seats"][1]["name"] == "Ben")

    def live(seat: Seat, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while True:
            frame = seat.recv()
            if frame.get("live") and condition(frame["live"]):
                return frame["live"]  # type: ignore[no-any-return]
            assert time.monotonic() < deadline, "condition never met"

    ben.ws.send(json.dumps({"type": "pace", "paused": True, "speed": 1}))
    asked = live(anna, lambda lv: lv["pause"]["asked"] == 1)
    assert not asked["pause"]["paused"] and asked["pause"]["waiting"] == [0]
    anna.ws.send(json.dumps({"type": "pace", "paused": True, "speed": 1}))
    paused = live(ben, lambda lv: lv["pause"]["paused"])
    assert paused["pause"]["by"] == 1
    ben.ws.send(json.dumps({"type": "pace", "paused": False, "speed": 1}))
    live(anna, lambda lv: not lv["pause"]["paused"])
