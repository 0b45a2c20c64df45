"""Web Push: a seat's device is pushed its turn and the game's end, through a push service on
127.0.0.1 (tests/pushservice.py) that checks the VAPID signature and decrypts every payload.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from mauseloch.server.push.sender import Job, Pusher
from mauseloch.server.push.store import push_pending_t, push_subs_t
from mauseloch.server.table.commands import Tell
from tests.pushservice import Device, PushService

from .helpers import HUMAN, LONG_DEAL, Player, create_table, join, seated, shut_down

AppFactory = Callable[..., TestClient]
GUARD = 60.0  # seconds: only so a broken server fails the test instead of hanging it


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    with PushService() as svc:
        yield svc


def cookie(table: str, seat: int, token: str) -> dict[str, str]:
    return {"Cookie": f"ml_{table}={seat}:{token}"}


def subscribe(client: TestClient, device: Device, table: str, seat: int, token: str, lang: str) -> None:
    body = {"subscription": device.subscription(), "lang": lang}
    response = client.post("/api/push/subscribe", json=body, headers=cookie(table, seat, token))
    assert response.status_code == 200, response.text
    assert response.json() == {"seats": 1}


def two_seats(client: TestClient, anna: Device | None = None, **extra: Any) -> tuple[str, list[str], list[Player]]:
    """Anna's table, her ``anna`` device subscribed while she waits (told if she moves first), and Ben.
    The deal is :data:`~.helpers.LONG_DEAL` unless ``extra`` names another."""
    created = create_table(client, [HUMAN, HUMAN], **{"deal": LONG_DEAL, **extra})
    table = created["table"]
    if anna is not None:
        subscribe(client, anna, table, 0, created["token"], "de")
    joined = join(client, table, "Ben")
    tokens = [created["token"], joined["token"]]
    return table, tokens, [seated(client, table, s, tokens[s]) for s in (0, 1)]


def subs(db_url: str) -> int:
    with create_engine(db_url).connect() as conn:
        return len(conn.execute(select(push_subs_t)).all())


def test_each_turn_pushes_the_seat_to_move_and_a_gone_device_is_dropped(
    make_client: AppFactory, service: PushService, db_url: str
) -> None:
    client = make_client(push_http=True)
    key = client.get("/api/push/key").json()["key"]
    table, tokens, players = two_seats(client)
    anna, ben = service.device("anna"), service.device("ben")
    # a device subscribes only for seats its cookies open, with an https push service (http: this machine)
    refused = client.post("/api/push/subscribe", json={"subscription": anna.subscription(), "lang": "de"})
    assert refused.status_code == 403 and subs(db_url) == 0
    elsewhere = {**anna.subscription(), "endpoint": "http://push.example/x"}
    bad = client.post("/api/push/subscribe", json={"subscription": elsewhere}, headers=cookie(table, 0, tokens[0]))
    assert bad.status_code == 400 and subs(db_url) == 0
    subscribe(client, anna, table, 0, tokens[0], "de")
    subscribe(client, ben, table, 1, tokens[1], "en")
    # the first mover's push (told as the last seat was taken) looked their devices up before or
    # after these subscriptions: once it is out, what came so far is the count to start from
    pusher: Pusher = client.app.state.pusher  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(pusher.queue.join)
    had = {0: len(anna.received), 1: len(ben.received)}

    rng = random.Random(3)
    turns = {0: 0, 1: 0}  # the turns that passed to each seat from the other
    for _ in range(6):
        mover = next(p for p in players if p.my_turn())
        seat = players.index(mover)
        mover.move(rng.choice(mover.view["legal_moves"]))
        for p in players:
            assert p.recv()["type"] == "update"
        nxt = next((i for i, p in enumerate(players) if p.my_turn()), None)
        if nxt is not None and nxt != seat:
            turns[nxt] += 1
            service.wait((anna, ben)[nxt], had[nxt] + turns[nxt])
    assert turns[0] and turns[1]
    assert service.refused == [] and service.vapid_keys == {key}
    said = {d.name: d.received[-1].payload for d in (anna, ben)}
    assert said["anna"]["title"] == "Du bist dran: Mau-Mau bei Anna"
    assert said["ben"]["title"] == "Your turn: Mau-Mau at Anna's"
    for d in (anna, ben):
        for push in d.received:  # words and the link: no card, no token, nothing else
            assert set(push.payload) == {"title", "body", "url", "tag"}
            assert push.payload["url"] == f"/t/{table}" and push.ttl > 0 and push.urgency == "high"
            assert not any(t in str(push.payload) for t in tokens)
    assert len(anna.received) == had[0] + turns[0] and len(ben.received) == had[1] + turns[1]  # one a turn

    # Ben's push service says his subscription is gone: it is removed, and nothing goes there again
    ben.answer = 410
    posts = service.posts
    while len(ben.received) == had[1] + turns[1] and subs(db_url) == 2:
        mover = next(p for p in players if p.my_turn())
        mover.move(rng.choice(mover.view["legal_moves"]))
        for p in players:
            p.recv()
        if mover is players[0] and players[1].my_turn():
            _until(lambda: subs(db_url) == 1)
    assert subs(db_url) == 1 and service.posts > posts


def _until(condition: Callable[[], bool], said: Callable[[], object] = str, limit: float = GUARD) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, said()
        time.sleep(0.01)


def test_a_refused_push_is_retried_and_outlives_a_restart(
    make_client: AppFactory, service: PushService, db_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(push_http=True)
    pusher: Any = client.app.state.pusher  # type: ignore[attr-defined]
    pusher.backoff = 30.0  # the retry waits longer than the server lives: the restart sends it
    device = service.device("later")
    device.answer = 500
    table, tokens, players = two_seats(client, device)
    subscribe(client, service.device("other"), table, 1, tokens[1], "en")
    passed = False  # until a move of Ben's gives Anna the turn (her own draw keeps it: no push)
    while not passed:
        mover = next(p for p in players if p.my_turn())
        mover.move(mover.view["legal_moves"][0])
        for p in players:
            p.recv()
        passed = mover is players[1] and players[0].my_turn()
    _until(lambda: device.posts > 0 and _pending(db_url) >= 1, lambda: (device.posts, _pending(db_url)))
    # refused once, kept to be tried again
    assert device.received == []
    shut_down(client)
    device.answer = 201
    make_client(push_http=True)
    pushes = service.wait(device, 1)
    assert pushes[0].payload["title"] == "Du bist dran: Mau-Mau bei Anna"
    _until(lambda: _pending(db_url) == 0)
    assert not any(device.endpoint in r.getMessage() for r in caplog.records)  # the endpoint is a secret


def _pending(db_url: str) -> int:
    with create_engine(db_url).connect() as conn:
        return len(conn.execute(select(push_pending_t)).all())


DAY = 1.5  # seconds a day lasts here (the server's clock scale): the test controls the clock


def test_over_days_reminders_come_then_a_stand_in_moves_once_for_a_late_seat(
    make_client: AppFactory, service: PushService
) -> None:
    client = make_client(push_http=True, clock_scale=DAY / 86400)
    devices = [service.device("days-anna"), service.device("days-ben")]
    table, tokens, players = two_seats(client, devices[0], clock="1d")
    subscribe(client, devices[1], table, 1, tokens[1], "en")
    passed = False  # one move that gives the other seat the turn
    while not passed:
        mover = next(p for p in players if p.my_turn())
        sent = time.time()  # the late seat's clock starts after this
        had = [len(d.received) for d in devices]
        mover.move(mover.view["legal_moves"][0])
        for p in players:
            assert p.recv()["type"] == "update"
        late = next(i for i, p in enumerate(players) if p.my_turn())
        passed = players[late] is not mover
    watcher = players[1 - late]
    players[late].close()  # over days a closed page is no one gone: their seat waits for them
    update = watcher.recv()
    while update["type"] != "update":
        update = watcher.recv()
    assert update["by"] == "stand-in"  # the late seat's one move, by its stand-in when time ran out
    pushes = service.wait(devices[late], had[late] + 3)[had[late] :]
    assert [p.payload["title"].split(":")[0] for p in pushes] == (
        ["Du bist dran", "Deine Zeit läuft ab", "Deine Zeit läuft ab"]
        if late == 0
        else ["Your turn", "Your time runs out", "Your time runs out"]
    )
    assert [p.payload["body"] for p in pushes[1:]] == (
        ["noch 12 Std.", "noch 2 Std. 24 Min."] if late == 0 else ["12 hrs left", "2 hrs 24 min left"]
    )
    # never before their moments: half the day, then nine tenths of it after the turn began
    assert pushes[1].at >= sent + 0.5 * DAY and pushes[2].at >= sent + 0.9 * DAY
    until_live(watcher, lambda live: live["seats"][late]["presence"] == "away")
    assert not watcher.live["seats"][late]["stand_in"]  # type: ignore[index]  # the table goes on


def until_live(player: Player, condition: Callable[[dict[str, Any]], bool], limit: int = 200) -> None:
    for _ in range(limit):
        if player.live is not None and condition(player.live):
            return
        player.recv(presence=True)
    raise AssertionError(player.live)


def test_a_slow_push_service_never_holds_up_a_move(make_client: AppFactory, service: PushService) -> None:
    client = make_client(push_http=True)
    table, tokens, players = two_seats(client)
    devices = [service.device(f"slow-{seat}") for seat in (0, 1)]
    for seat in (0, 1):
        devices[seat].held = True  # the push service takes the pushes and does not answer
        subscribe(client, devices[seat], table, seat, tokens[seat], "en")
    moved = 0
    while moved < 3 or not any(d.posts for d in devices):  # moves go on while pushes hang unanswered
        mover = next(p for p in players if p.my_turn())
        mover.move(mover.view["legal_moves"][0])
        for p in players:
            assert p.recv()["type"] == "update"
        moved += 1
    assert all(not d.received for d in devices)
    for d in devices:
        d.held = False
    _until(lambda: any(d.received for d in devices))


def test_the_games_end_is_pushed_to_every_seat(make_client: AppFactory, service: PushService) -> None:
    client = make_client(push_http=True)
    created = create_table(client, [HUMAN, HUMAN], options={"move_limit": 6})
    table = created["table"]
    tokens = [created["token"], join(client, table, "Ben")["token"]]
    players = [seated(client, table, s, tokens[s]) for s in (0, 1)]
    devices = [service.device(f"end-{seat}") for seat in (0, 1)]
    for seat in (0, 1):  # after both took their seats: whoever begins may or may not hear of it first
        subscribe(client, devices[seat], table, seat, tokens[seat], ("de", "en")[seat])
    while not players[0].view["is_over"]:
        mover = next(p for p in players if p.my_turn())
        mover.move(mover.view["legal_moves"][0])
        for p in players:
            p.recv()
    _until(lambda: all(d.received and d.received[-1].payload["title"].startswith(("Spiel", "Game")) for d in devices))
    assert devices[0].received[-1].payload["title"] == "Spiel vorbei: Mau-Mau bei Anna"
    assert devices[1].received[-1].payload["title"] == "Game over: Mau-Mau at Anna's"


def my_tables(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    """``table`` as "My tables" lists it for the browser holding ``seat``."""
    listed = client.get("/api/my-tables", headers=cookie(table, seat, token)).json()["tables"]
    assert [t["id"] for t in listed] == [table] and listed[0]["you"] == seat
    return listed[0]  # type: ignore[no-any-return]


def test_a_seat_away_stops_the_table_for_everyone_until_it_is_back(make_client: AppFactory) -> None:
    client = make_client()
    table, tokens, players = two_seats(client, clock="3d")
    anna, ben = players
    assert all("away" not in s for s in my_tables(client, table, 1, tokens[1])["seats"])
    anna.send({"type": "away", "days": 3})
    until_live(ben, lambda live: live["seats"][0].get("away") is not None)
    assert ben.live["seats"][0]["away_days"] == 11  # type: ignore[index]
    back = ben.live["seats"][0]["away"]  # type: ignore[index]
    assert back > time.time() + 3 * 86400 - GUARD
    # "My tables" says who the table waits for and until when, to each seat's browser
    for seat in (0, 1):
        listed = my_tables(client, table, seat, tokens[seat])
        assert [s.get("away") for s in listed["seats"]] == [back, None]
    mover = anna if anna.my_turn() else ben
    mover.move(mover.view["legal_moves"][0])
    answer = mover.recv()
    while answer["type"] != "error":
        answer = mover.recv()
    assert answer["code"] == "paused"  # the table waits for Anna
    anna.send({"type": "away", "days": 20})
    answer = anna.recv()
    while answer["type"] != "error":
        answer = anna.recv()
    assert answer["code"] == "not_started"  # away already
    anna.send({"type": "away", "days": 0})
    until_live(ben, lambda live: live["seats"][0].get("away") is None)
    assert ben.live["seats"][0]["away_days"] == 13  # type: ignore[index]  # the day begun counts
    assert all("away" not in s for s in my_tables(client, table, 1, tokens[1])["seats"])


def test_a_stopped_clock_voids_the_reminders_told_before(make_client: AppFactory, db_url: str) -> None:
    client = make_client(push_http=True)
    pusher: Pusher = client.app.state.pusher  # type: ignore[attr-defined]
    assert client.portal is not None
    later = time.time() + 3600
    queued: list[Job] = []

    async def tell_stop_tell() -> list[Job]:
        pusher.tell("t1", Tell(0, "remind", 100.0, later, 3))
        await asyncio.gather(*list(pusher._storing))
        told = Job("t1", 0, "remind", 100.0, later, 3)  # as the pusher holds it until its moment
        pusher.tell("t1", Tell(0, "stop"))  # the clock stopped (a pause, someone away)
        await asyncio.gather(*list(pusher._storing))
        pusher.tell("t1", Tell(0, "remind", 50.0, later + 600, 3))  # told again as the clock runs on
        await asyncio.gather(*list(pusher._storing))
        again = Job("t1", 0, "remind", 50.0, later + 600, 3, stops=1)

        def record(job: Job) -> bool:
            queued.append(job)
            return True

        put, pusher._put = pusher._put, record  # type: ignore[method-assign]
        try:
            pusher._due(told)
            pusher._due(again)
        finally:
            pusher._put = put  # type: ignore[method-assign]
        return queued

    assert [j.left for j in client.portal.call(tell_stop_tell)] == [50.0]  # the one before the stop is void
    with create_engine(db_url).connect() as conn:  # and a restart would not send it either
        assert [r.left_s for r in conn.execute(select(push_pending_t))] == [50.0]


def counted(pusher: Pusher) -> tuple[list[str], list[tuple[str, int]]]:
    """The pusher's looks at the store for a table's asked-for seats, and its workers' for a
    seat's subscriptions (each table, and each table and seat, as asked)."""
    looks: list[str] = []
    sends: list[tuple[str, int]] = []
    subscribed, subscriptions = pusher.push.subscribed, pusher.push.subscriptions
    pusher.push.subscribed = lambda t: looks.append(t) or subscribed(t)  # type: ignore[method-assign]
    pusher.push.subscriptions = lambda t, s: sends.append((t, s)) or subscriptions(t, s)  # type: ignore[method-assign]
    return looks, sends


def settle(client: TestClient, pusher: Pusher) -> None:
    """Until the looks told so far have their answer and their jobs are done."""

    async def settled() -> None:
        while pusher._storing:
            await asyncio.gather(*list(pusher._storing))
        await pusher.queue.join()

    assert client.portal is not None
    client.portal.call(settled)


def play(client: TestClient, pusher: Pusher, players: list[Player], moves: int) -> None:
    for _ in range(moves):
        mover = next(p for p in players if p.my_turn())
        mover.move(mover.view["legal_moves"][0])
        for p in players:
            assert p.recv()["type"] == "update"  # the move's tell came before its frames went
        settle(client, pusher)


def test_a_table_nobody_asked_pushes_for_is_looked_up_once_not_each_move(
    make_client: AppFactory, service: PushService
) -> None:
    """One process: which seats some device asked for is kept a table until a device subscribes
    (a look at the store each move cost more than the move): for a table made here from its
    creation (nobody could ask before), for one made before a restart after one look."""
    client = make_client(push_http=True)
    pusher: Pusher = client.app.state.pusher  # type: ignore[attr-defined]
    assert pusher.alone
    looks, sends = counted(pusher)
    table, tokens, players = two_seats(client)
    settle(client, pusher)  # the first mover was told as Ben took his seat
    play(client, pusher, players, 4)
    assert looks == [] and sends == []  # made here: no look, and no job went to the workers
    pusher.subscribed.clear()  # as after a restart: a table this process did not make
    play(client, pusher, players, 4)
    assert looks == [table] and sends == []  # one look
    anna = service.device("anna-once")
    subscribe(client, anna, table, 0, tokens[0], "de")  # forgets what was kept of this table
    had = len(anna.received)
    while len(anna.received) == had:
        play(client, pusher, players, 1)
    assert looks.count(table) == 2 and {s for _, s in sends} == {0}  # looked again once; sent for Anna only


def test_the_end_goes_to_the_workers_for_the_seats_asked_for_only(
    make_client: AppFactory, service: PushService
) -> None:
    """The game's end is told to every seat; with the table's asked-for seats kept, only those
    of a device are looked up by a worker, and the kept seats go with the game."""
    client = make_client(push_http=True)
    pusher: Pusher = client.app.state.pusher  # type: ignore[attr-defined]
    looks, sends = counted(pusher)
    table, tokens, players = two_seats(client, options={"move_limit": 6})
    ben = service.device("ben-end")
    subscribe(client, ben, table, 1, tokens[1], "en")
    while not players[0].view["is_over"]:
        play(client, pusher, players, 1)
    settle(client, pusher)
    _until(lambda: bool(ben.received) and ben.received[-1].payload["title"].startswith("Game over"))
    assert looks == [table] and {s for _, s in sends} == {1}  # Anna's end was never looked up
    assert table not in pusher.subscribed
