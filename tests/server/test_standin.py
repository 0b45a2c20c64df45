"""Tables that never stall: presence, turn clocks, stand-ins, leaving, returning, rematch.

The server's clocks run fast here (``clock_scale``): a 15 s turn lasts 0.15 s, the 10 s grace
after leaving 0.1 s, the 40 s grace after a lost connection 0.4 s.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

import mauseloch
from mauseloch.server.clock import GRACE_LEFT, GRACE_LOST, wall
from mauseloch.server.protocol import ProtocolError
from mauseloch.server.session import TableSession

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, open_seat, seated, shut_down

AppFactory = Callable[..., TestClient]
FAST = 0.01


def session(client: TestClient, table: str) -> TableSession:
    found = client.app.state.lobby.get(table)  # type: ignore[attr-defined]
    assert found is not None
    return found  # type: ignore[no-any-return]


def until_live(player: Player, condition: Callable[[dict[str, Any]], bool], limit: int = 2000) -> None:
    """Receive (presence frames included) until the latest live information meets ``condition``."""
    for _ in range(limit):
        if player.live is not None and condition(player.live):
            return
        frame = player.recv(presence=True)
        assert frame["type"] not in ("error", "closed"), frame
    raise AssertionError("condition never met")


def until_update(player: Player, condition: Callable[[dict[str, Any]], bool], limit: int = 5000) -> dict[str, Any]:
    for _ in range(limit):
        frame = player.recv()
        assert frame["type"] not in ("error", "closed"), frame
        if frame["type"] == "update" and condition(frame):
            return frame
    raise AssertionError("no such update")


def play_until(player: Player, condition: Callable[[dict[str, Any]], bool], limit: int = 500) -> dict[str, Any]:
    """``player`` makes a move whenever it is their turn, until an update meets ``condition``."""
    for _ in range(limit):
        if player.my_turn():
            player.move(player.view["legal_moves"][0])
        frame = player.recv()
        assert frame["type"] == "update", frame
        if condition(frame):
            return frame
    raise AssertionError("no such update")


def duel(client: TestClient, **extra: Any) -> tuple[str, Player, Player, str]:
    created = create_table(client, [HUMAN, HUMAN], **extra)
    table = created["table"]
    ben = join(client, table)
    return table, seated(client, table, 0, created["token"]), seated(client, table, 1, ben["token"]), ben["token"]


def test_presence_is_shown_to_everyone_and_in_the_api(make_client: AppFactory) -> None:
    client = make_client(clock_scale=1.0)  # graces of 10 s and 40 s: nothing runs out here
    table, anna, ben, _ = duel(client, clock="off")
    until_live(anna, lambda live: [s["presence"] for s in live["seats"]] == ["online", "online"])
    ben.close()
    until_live(anna, lambda live: live["seats"][1]["presence"] == "away")
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["presence"] for s in seats] == ["online", "away"] and not seats[1]["stand_in"]
    anna.send({"type": "leave"})
    assert anna.recv(presence=True) == {"type": "closed", "code": 1000}
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [s["presence"] for s in seats] == ["gone", "away"]  # leaving on purpose: gone at once
    assert session(client, table).row.seats[0].gone and client.app.state.store.load_table(table).seats[0].gone  # type: ignore[attr-defined]


def test_a_leaver_is_replaced_by_a_stand_in_and_the_record_says_so(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    table, anna, ben, _ = duel(client, clock="off", options={"move_limit": 60})
    ben.send({"type": "leave"})
    ben.close()
    until_live(anna, lambda live: live["seats"][1]["stand_in"])
    rng = random.Random(1)
    while not anna.view["is_over"]:
        if anna.my_turn():
            anna.move(rng.choice(anna.view["legal_moves"]))
        frame = anna.recv()
        assert frame["type"] == "update", frame
        if frame["view"]["is_over"]:
            break
    record = client.get(f"/api/tables/{table}/record").json()
    by_seat = {(seat, by) for (seat, *_), by in zip(record["moves"], record["played_by"], strict=True)}
    assert (1, "stand-in") in by_seat and (1, "person") not in by_seat and (0, "person") in by_seat
    assert (0, "stand-in") not in by_seat  # clock off: Anna played every move of hers
    assert mauseloch.replay(record).result() == anna.view["result"]  # still a plain, replayable record
    # who made a move is said beside its events, never in them: an event's fields are its game's
    stand_in_updates = [e for e in anna.frames if e["type"] == "update" and e["by"] == "stand-in"]
    assert stand_in_updates and all("by" not in ev for e in stand_in_updates for ev in e["events"])
    again = Player(client, table)
    again.hello()  # a spectator's snapshot: the log with who made each move
    snap = again.state
    assert snap is not None and len(snap["by"]) == len(snap["events"]) and "stand-in" in snap["by"]


def test_a_turn_clock_that_runs_out_lets_the_stand_in_play_one_move(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    table, anna, _ben, _ = duel(client, clock="fast")
    assert anna.state["live"]["deadline"]["kind"] == "turn"  # type: ignore[index]
    assert anna.state["live"]["deadline"]["seat"] == anna.view["to_move"]  # type: ignore[index]
    seat = anna.view["to_move"]
    frame = until_update(anna, lambda f: f["version"] == 1)
    assert frame["by"] == "stand-in"
    # still online and still theirs: the next turn of that seat is not given away
    assert frame["live"]["seats"][seat]["presence"] == "online"
    assert not any(s["stand_in"] for s in frame["live"]["seats"])
    assert session(client, table).row.by == ["stand-in"]


def test_a_returning_person_gets_the_seat_back_from_the_next_move(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    created = create_table(client, [HUMAN, HUMAN], clock="off")
    table = created["table"]
    ben = join(client, table)
    anna = seated(client, table, 0, created["token"])
    bens = seated(client, table, 1, ben["token"])
    bens.send({"type": "leave"})
    until_live(anna, lambda live: live["seats"][1]["stand_in"])
    play_until(anna, lambda f: f["by"] == "stand-in")  # the stand-in played for Ben
    back = seated(client, table, 1, ben["token"])
    assert back.state["live"]["seats"][1] == {"presence": "online", "stand_in": False}  # type: ignore[index]
    # from now on nobody moves for Ben: when his turn comes, the table waits for him
    # Each seat receives until it holds the other's version: a frame read is not always the move's
    # update (a presence or live frame may come first), so one recv() a move can leave a stale view.
    anna.until(lambda p: p.state["version"] >= back.state["version"])  # type: ignore[index]
    back.until(lambda p: p.state["version"] >= anna.state["version"])  # type: ignore[index]
    while not back.my_turn():
        assert anna.my_turn()
        before = anna.state["version"]  # type: ignore[index]
        anna.move(anna.view["legal_moves"][0])
        anna.until(lambda p, before=before: p.state["version"] > before)  # type: ignore[index,misc]
        back.until(lambda p: p.state["version"] >= anna.state["version"])  # type: ignore[index]
    version = back.state["version"]  # type: ignore[index]
    back.move(back.view["legal_moves"][0])
    frame = until_update(back, lambda f: f["version"] == version + 1)
    assert frame["by"] is None
    assert session(client, table).row.by[version] is None


def test_a_table_everyone_left_finishes_with_stand_ins(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    created = create_table(client, [HUMAN, RANDOM_BOT], clock="off", options={"move_limit": 80})
    table = created["table"]
    anna = seated(client, table, 0, created["token"])
    anna.send({"type": "leave"})
    watcher = Player(client, table)
    watcher.hello()
    watcher.until(lambda p: p.view["is_over"])
    row = client.app.state.store.load_table(table)  # type: ignore[attr-defined]
    assert row.status == "over"
    assert {b for (seat, *_), b in zip(row.moves, row.by, strict=True) if seat == 0} <= {"stand-in"}


def test_a_lost_connection_gets_the_longer_grace(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    table, anna, ben, _ = duel(client, clock="off")
    ben.close()  # no leave: the connection was lost
    until_live(anna, lambda live: live["seats"][1]["presence"] == "away")
    grace = session(client, table).state.deadlines.get("grace", 1)
    assert grace is not None
    until_live(anna, lambda live: live["seats"][1] == {"presence": "gone", "stand_in": True})


def test_the_grace_is_10_s_after_leaving_and_40_s_after_a_lost_connection(make_client: AppFactory) -> None:
    client = make_client(clock_scale=1.0)  # real graces: nothing runs out while this test looks
    table, anna, ben, _ = duel(client, clock="off")
    ben.close()  # a lost connection
    until_live(anna, lambda live: live["seats"][1]["presence"] == "away")
    lost = session(client, table).state.deadlines.get("grace", 1)
    assert lost is not None and GRACE_LOST - 5 < lost.due - wall() <= GRACE_LOST + 0.5
    anna.send({"type": "leave"})  # leaving on purpose
    while anna.recv(presence=True)["type"] != "closed":
        pass
    left = session(client, table).state.deadlines.get("grace", 0)
    assert left is not None and GRACE_LEFT - 5 < left.due - wall() <= GRACE_LEFT + 0.5
    stored = {d["seat"]: d["due"] for d in client.app.state.store.load_table(table).deadlines if d["kind"] == "grace"}  # type: ignore[attr-defined]
    assert stored == {0: pytest.approx(left.due, abs=0.01), 1: pytest.approx(lost.due, abs=0.01)}
    assert (GRACE_LEFT, GRACE_LOST) == (10.0, 40.0)


def test_a_waiting_table_everyone_left_is_closed_and_the_lobby_says_so(make_client: AppFactory) -> None:
    client = make_client(clock_scale=0.001)  # closed 300 s after everyone left: 0.3 s
    created = create_table(client, [HUMAN, HUMAN], public=True)
    anna = seated(client, created["table"], 0, created["token"])
    anna.send({"type": "leave"})
    anna.recv(presence=True)
    watcher = Player(client, created["table"])
    watcher.hello()
    until_live(watcher, lambda live: live["status"] == "closed")
    listed = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
    assert listed[created["table"]] == "closed"
    response = client.post(f"/api/tables/{created['table']}/join", json={"name": "Ben"})
    assert response.status_code == 409


def test_a_deadline_survives_a_restart(make_client: AppFactory, db_url: str) -> None:
    first = make_client(clock_scale=0.1)  # a fast turn lasts 1.5 s: longer than the restart
    table, _anna, _ben, _ = duel(first, clock="fast")
    due = session(first, table).state.deadlines.get("turn").due  # type: ignore[union-attr]
    shut_down(first)
    stored = first.app.state.store.load_table(table).deadlines  # type: ignore[attr-defined]
    turns = [d for d in stored if d["kind"] == "turn"]
    assert len(turns) == 1 and turns[0]["version"] == 0 and turns[0]["due"] == pytest.approx(due, abs=0.01)
    second = make_client(clock_scale=0.1)
    restored = session(second, table).state.deadlines.get("turn")
    assert restored is not None and abs(restored.due - due) < 0.01 and restored.version == 0
    # the deadline runs on after the restart: the stand-in moves when it is due
    watcher = Player(second, table)
    watcher.hello()
    frame = until_update(watcher, lambda f: f["version"] == 1)
    assert frame["by"] == "stand-in"


def test_a_table_with_corrupt_moves_is_skipped_at_start_up(
    make_client: AppFactory, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    first = make_client()
    broken = create_table(first, [HUMAN, RANDOM_BOT])
    fine = create_table(first, [HUMAN, RANDOM_BOT])
    anna = seated(first, broken["table"], 0, broken["token"])
    anna.until(lambda p: p.my_turn())
    anna.move(anna.view["legal_moves"][0])
    anna.recv()
    shut_down(first)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE ml_moves SET move = 'no-such-move' WHERE table_id = :t"), {"t": broken["table"]})
    engine.dispose()
    with caplog.at_level(logging.ERROR, logger="mauseloch.server"):
        second = make_client()
    assert broken["table"] in second.app.state.lobby.skipped  # type: ignore[attr-defined]
    assert any(broken["table"] in r.getMessage() for r in caplog.records)
    again = seated(second, fine["table"], 0, fine["token"])  # the other tables play on
    assert again.state["view"]["game"] == "mau-mau"  # type: ignore[index]


def test_a_second_writer_of_a_version_gets_stale(client: TestClient) -> None:
    table, anna, ben, _ = duel(client, clock="off")
    mover = anna if anna.my_turn() else ben
    legal = mover.view["legal_moves"]
    client.app.state.store.add_move(table, 0, mover.state["seat"], legal[0])  # type: ignore[attr-defined, index]
    mover.move(legal[-1])
    frames = [mover.recv()]
    while frames[-1]["type"] != "error":
        frames.append(mover.recv())
    assert frames[-1]["code"] == "stale" and frames[-1]["version"] == 1
    assert session(client, table).version == 1  # caught up with the store
    assert client.app.state.store.load_table(table).moves == [[mover.state["seat"], legal[0]]]  # type: ignore[attr-defined, index]


def test_a_move_sent_again_after_its_owner_died_is_answered_as_played(client: TestClient) -> None:
    """A process whose table's owner died before answering sends the move to the next owner
    marked ``again``: if it was played, that is the answer; anything else stays stale."""
    table, anna, ben, _ = duel(client, clock="off")
    mover = anna if anna.my_turn() else ben
    seat, legal = mover.state["seat"], mover.view["legal_moves"]  # type: ignore[index]
    s = session(client, table)
    client.portal.call(s.apply, seat, legal[0], 0)
    assert s.version == 1
    client.portal.call(lambda: s.apply(seat, legal[0], 0, again=True))  # played: answered as done
    assert s.version == 1
    refusals = [
        lambda: s.apply(seat, legal[0], 0),  # not marked again: a second tab's move is stale
        lambda: s.apply(seat, "pass" if legal[0] == "draw" else "draw", 0, again=True),  # another move
        lambda: s.apply(1 - seat, legal[0], 0, again=True),  # the other seat did not play it
    ]
    for refused in refusals:
        with pytest.raises(ProtocolError) as err:
            client.portal.call(refused)
        assert err.value.code == "stale"
    assert s.version == 1 and client.app.state.store.load_table(table).moves == [[seat, legal[0]]]  # type: ignore[attr-defined]


def test_a_failing_bot_is_logged_and_its_stand_in_moves(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    created = create_table(client, [HUMAN, RANDOM_BOT], clock="off")
    table = created["table"]
    running = session(client, table)

    def broken(view: dict[str, Any], legal: list[str]) -> str:
        raise RuntimeError("bot crashed")

    anna = seated(client, table, 0, created["token"])
    anna.until(lambda p: p.my_turn())  # the bot cannot move now: break it
    running.state.seats[1].bot.choose = broken  # type: ignore[union-attr]
    with caplog.at_level(logging.ERROR, logger="mauseloch.server"):
        frame = play_until(anna, lambda f: f["by"] is not None)  # Anna plays until the bot had a turn
    assert frame["by"] == "stand-in"
    assert any("its stand-in makes this move" in r.getMessage() for r in caplog.records)


def test_one_browser_never_takes_two_seats_of_one_table(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN, HUMAN])
    table = created["table"]
    open_seat(client, created["url"])  # the creator's browser opens her seat: it gets the cookie
    assert f"ml_{table}" in client.cookies
    refused = client.post(f"/api/tables/{table}/join", json={"name": "Anna again"})
    assert refused.status_code == 409 and "already holds seat 1" in refused.json()["error"]
    client.cookies.clear()  # another browser
    assert join(client, table)["seat"] == 1


def test_clocks_are_chosen_per_table(client: TestClient) -> None:
    games = client.get("/api/games").json()
    days = {"1h": 3600, "1d": 86400, "2d": 172800, "3d": 259200, "5d": 432000, "7d": 604800}  # over days
    assert games["clocks"]["mau-mau"]["choices"] == {"off": None, "relaxed": 60, "normal": 30, "fast": 15, **days}
    assert "1d" not in games["clocks"]["mausgeflippt"]["choices"]  # a reaction game is never over days
    refused = {"game": "mausgeflippt", "seats": [HUMAN, RANDOM_BOT], "clock": "1d"}
    assert client.post("/api/tables", json=refused).status_code == 400
    flips = games["clocks"]["aus-die-maus"]["choices"]
    assert flips["fast"] < 15 and flips["off"] is None  # flips have their own short clock
    created = create_table(client, [HUMAN, RANDOM_BOT])
    assert client.get(f"/api/tables/{created['table']}").json()["clock"] == games["clocks"]["mau-mau"]["default"]
    body = {"game": "mau-mau", "seats": [HUMAN, RANDOM_BOT], "clock": "glacial"}
    assert client.post("/api/tables", json=body).status_code == 400


def test_rematch_with_the_same_seats(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    table, anna, ben, ben_token = duel(client, clock="fast", options={"move_limit": 10})
    anna.until(lambda p: p.view["is_over"])
    ben.until(lambda p: p.view["is_over"])
    anna.send({"type": "rematch"})
    until_live(ben, lambda live: live["rematch"] == [0])
    assert live_next(ben) is None
    ben.send({"type": "rematch"})
    until_live(anna, lambda live: live["next"] is not None)
    new = anna.live["next"]  # type: ignore[index]
    assert new != table
    summary = client.get(f"/api/tables/{new}").json()
    assert summary["status"] == "playing" and [s["name"] for s in summary["seats"]] == ["Anna", "Ben"]
    again = seated(client, new, 1, ben_token)  # the same seat link opens the seat at the new table
    assert again.view["is_over"] is False


def live_next(player: Player) -> str | None:
    assert player.live is not None
    return player.live["next"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_someone_gone_after_the_game_does_not_hold_up_a_rematch(make_client: AppFactory) -> None:
    client = make_client(clock_scale=FAST)
    _table, anna, ben, _ = duel(client, clock="fast", options={"move_limit": 10})
    anna.until(lambda p: p.view["is_over"])
    ben.until(lambda p: p.view["is_over"])
    anna.send({"type": "rematch"})
    ben.close()  # Ben's tab is gone for good: after the grace, the rematch goes ahead without him
    until_live(anna, lambda live: live["next"] is not None)
    seats = client.get(f"/api/tables/{anna.live['next']}").json()["seats"]  # type: ignore[index]
    assert seats[1]["presence"] == "gone" and seats[1]["stand_in"]  # his stand-in plays from the start


def test_a_closed_tab_leaves_only_when_it_was_the_seats_last_page(make_client: AppFactory) -> None:
    client = make_client(clock_scale=1.0)
    created = create_table(client, [HUMAN, HUMAN], clock="off")
    table = created["table"]
    join(client, table)
    anna = seated(client, table, 0, created["token"])
    phone = seated(client, table, 0, created["token"])  # the same seat open on a second device
    watcher = Player(client, table)
    watcher.hello()
    anna.send({"type": "leave", "tab_closed": True})
    assert anna.recv(presence=True)["type"] == "closed"  # sent once the server has let the page go
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["presence"] == "online"  # the phone stays
    phone.send({"type": "leave", "tab_closed": True})
    until_live(watcher, lambda live: live["seats"][0]["presence"] == "gone")
