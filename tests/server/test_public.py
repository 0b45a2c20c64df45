"""A server in public: limits per address, headers and origins, private tables and
their invites, waiting tables that expire, a paged lobby, seat cookies that can be renewed."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mauseloch.server import limits
from mauseloch.server.limits import (
    CLOSE_HELLO_LATE,
    CLOSE_SERVER_FULL,
    CLOSE_SIGNED_OUT,
    CLOSE_TOO_MANY,
    Guard,
    Limits,
    client_address,
)

from .conftest import AppFactory
from .helpers import HUMAN, INVITES, RANDOM_BOT, Player, create_table, join, open_seat, seated, shut_down


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def post(client: TestClient, path: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(path, json=body, headers=headers)


GAME = {"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": "Anna"}


# -- connections, tables and requests per address ---------------------------------------
def test_a_socket_that_never_says_hello_is_closed(make_client: AppFactory) -> None:
    client = make_client(limits=Limits(hello_timeout=0.2))
    table = create_table(client, [HUMAN, HUMAN])["table"]
    idle = Player(client, table)
    assert idle.recv() == {"type": "closed", "code": CLOSE_HELLO_LATE}
    talker = Player(client, table)  # one that says hello in time stays
    assert talker.hello()["type"] == "snapshot"


def test_sockets_per_address_and_in_total_are_capped(make_client: AppFactory) -> None:
    client = make_client(limits=Limits(sockets_per_address=2, sockets_total=0))
    table = create_table(client, [HUMAN, HUMAN])["table"]
    first, second = Player(client, table), Player(client, table)
    third = Player(client, table)
    assert third.recv() == {"type": "closed", "code": CLOSE_TOO_MANY}
    # within the same minute a flood is not explained again: the handshake itself is refused
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table}"):
        pass
    assert first.hello()["type"] == "snapshot" and second.hello()["type"] == "snapshot"
    first.close()
    again = Player(client, table)  # a place came free
    assert again.hello()["type"] == "snapshot"

    full = make_client(limits=Limits(sockets_per_address=0, sockets_total=1))
    table = create_table(full, [HUMAN, HUMAN])["table"]
    Player(full, table)
    assert Player(full, table).recv() == {"type": "closed", "code": CLOSE_SERVER_FULL}


def test_a_flooding_address_is_denied_before_its_handshakes_for_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: now[0])
    guard = Guard(Limits(sockets_per_address=1, sockets_total=0))
    flood, other = {"client": ("10.0.0.1", 5)}, {"client": ("10.0.0.2", 5)}
    assert guard.open_socket("10.0.0.1") is None and not guard.denied(flood)
    told = guard.open_socket("10.0.0.1")
    assert told is not None and told.first and not guard.denied(flood)  # the first is told why (4429)
    assert guard.open_socket("10.0.0.1") is not None  # then refused (403) ...
    assert guard.denied(flood) and not guard.denied(other)  # ... and not even read for a while
    now[0] += limits.DENY_FOR
    assert not guard.denied(flood)  # it is counted again, and a place may have come free
    assert guard.open_socket("10.0.0.1") is not None and guard.denied(flood)
    guard.close_socket("10.0.0.1")  # a place came free: counted again at once
    assert not guard.denied(flood) and guard.open_socket("10.0.0.1") is None


def test_tables_per_minute_are_capped_with_retry_after(make_client: AppFactory) -> None:
    clock = Clock()
    client = make_client(clock=clock, limits=Limits(tables_per_minute=3, open_tables_per_address=0))
    for _ in range(3):
        assert post(client, "/api/tables", GAME).status_code == 200
    refused = post(client, "/api/tables", GAME)
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_tables"
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    clock.now += 60
    assert post(client, "/api/tables", GAME).status_code == 200


def test_open_tables_per_address_are_capped(make_client: AppFactory) -> None:
    client = make_client(limits=Limits(open_tables_per_address=2, tables_per_minute=0))
    playing = create_table(client, [HUMAN, RANDOM_BOT])  # plays at once: never waits, never counts
    assert client.get(f"/api/tables/{playing['table']}").json()["status"] == "playing"
    bad = {**GAME, "seats": [HUMAN, {"kind": "bot", "bot": "nobody"}]}
    for _ in range(3):  # refused requests hold no place either
        assert post(client, "/api/tables", bad).status_code == 400
    first = create_table(client, [HUMAN, HUMAN])["table"]
    create_table(client, [HUMAN, HUMAN])
    refused = post(client, "/api/tables", GAME)
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_tables"
    assert "retry-after" in refused.headers
    assert post(client, "/api/tables", {**GAME, "seats": [HUMAN, RANDOM_BOT]}).status_code == 429
    join(client, first)  # the table starts: it no longer waits for players
    assert post(client, "/api/tables", GAME).status_code == 200


def test_requests_per_second_are_capped(make_client: AppFactory) -> None:
    clock = Clock()
    client = make_client(clock=clock, limits=Limits(requests_per_second=1, request_burst=3))
    assert [client.get("/api/games").status_code for _ in range(3)] == [200, 200, 200]
    refused = client.get("/api/games")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert refused.headers["retry-after"] == "1"
    assert "content-security-policy" in refused.headers  # refusals are answers like any other
    clock.now += 1
    assert client.get("/api/games").status_code == 200


def test_a_flood_waits_for_its_refusals_the_first_goes_out_at_once(make_client: AppFactory) -> None:
    caps = Limits(requests_per_second=1, request_burst=1, open_tables_per_address=1)
    client = make_client(clock=Clock(), limits=caps, refusal_delay=0.5)
    guard = client.app.state.guard  # type: ignore[attr-defined]
    held: list[float] = []

    async def sleep(seconds: float) -> None:  # what would be waited, without waiting
        assert guard.delaying == 1  # each held refusal counts while it waits
        held.append(seconds)

    guard.sleep = sleep
    assert client.get("/api/games").status_code == 200
    codes = [client.get("/api/games").status_code for _ in range(3)]
    assert codes == [429, 429, 429] and held == [0.5, 0.5]  # the first refusal of the minute is not held
    guard.delaying = limits.DELAYING_MAX  # as many held as it takes: the next is answered at once
    assert client.get("/api/games").status_code == 429 and held == [0.5, 0.5]
    guard.delaying = 0
    held.clear()
    guard.limits = Limits(requests_per_second=0, open_tables_per_address=1, refusal_delay=0.5)
    assert post(client, "/api/tables", GAME).status_code == 200
    refused = [post(client, "/api/tables", GAME).json()["code"] for _ in range(2)]
    assert refused == ["too_many_tables"] * 2 and held == [0.5]  # the app's refusals too
    assert guard.delaying == 0


def test_refusals_are_logged_once_per_address_and_minute(
    make_client: AppFactory, caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(clock=Clock(), limits=Limits(requests_per_second=1, request_burst=1))
    with caplog.at_level(logging.WARNING, logger="mauseloch.server"):
        codes = [client.get("/api/games").status_code for _ in range(20)]
    assert codes.count(429) == 19
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 1


def test_forwarded_addresses_count_only_from_a_trusted_proxy() -> None:
    def scope(peer: str, forwarded: str | None) -> dict[str, Any]:
        headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
        return {"type": "http", "client": (peer, 5000), "headers": headers}

    assert client_address(scope("10.0.0.9", "1.2.3.4")) == "10.0.0.9"  # nobody trusted: the peer
    assert client_address(scope("10.0.0.9", "1.2.3.4"), ("10.0.0.1",)) == "10.0.0.9"  # not the proxy
    trusted = ("10.0.0.1",)
    assert client_address(scope("10.0.0.1", "1.2.3.4"), trusted) == "1.2.3.4"
    # what the client wrote itself comes first; the proxy's own entry is the last one
    assert client_address(scope("10.0.0.1", "6.6.6.6, 1.2.3.4"), trusted) == "1.2.3.4"
    assert client_address(scope("10.0.0.1", "not-an-address"), trusted) == "10.0.0.1"
    assert client_address(scope("10.0.0.1", None), trusted) == "10.0.0.1"
    # IPv6: one /64 is one client (an attacker has a whole /64 to rotate through)
    assert client_address(scope("2001:db8:1:2::5", None)) == client_address(scope("2001:db8:1:2:ffff::9", None))
    assert client_address(scope("2001:db8:1:2::5", None)) == "2001:db8:1:2::/64"
    assert client_address(scope("::ffff:10.0.0.9", None)) == "10.0.0.9"


# -- headers and origins --------------------------------------------------------------
def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN])["table"]
    for path in ("/", f"/t/{table}", "/api/games", "/static/js/lobby.js", "/api/tables/nosuch"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_cross_site_and_non_json_posts_change_nothing(client: TestClient) -> None:
    body = b'{"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "public": true}'
    plain = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
    assert plain.status_code == 415 and plain.json()["code"] == "not_json"
    evil = {"origin": "https://evil.example", "content-type": "text/plain"}
    assert client.post("/api/tables", content=body, headers=evil).json()["code"] == "bad_origin"
    cross = {"origin": "https://evil.example", "content-type": "application/json"}
    assert client.post("/api/tables", content=body, headers=cross).status_code == 403
    assert client.post("/api/tables", content=body, headers={"origin": "null"}).status_code == 403
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created
    table = create_table(client, [HUMAN, HUMAN], public=True)["table"]
    form = client.post(
        f"/api/tables/{table}/join", data={"name": "Mallory"}, headers={"origin": "https://evil.example"}
    )
    assert form.status_code == 403
    same_site_form = client.post(f"/api/tables/{table}/join", data={"name": "Mallory"})
    assert same_site_form.status_code == 415
    assert client.get(f"/api/tables/{table}").json()["status"] == "waiting"  # nobody joined
    ours = post(client, f"/api/tables/{table}/join", {"name": "Ben"}, origin="http://testserver")
    assert ours.status_code == 200


ROOM_OPS = ("join", "open", "me", "leave", "renew", "member-link", "remove", "settings", "tables")


def test_every_state_changing_endpoint_refuses_other_sites_forms_and_plain_text(client: TestClient) -> None:
    """Every route that changes something, with this browser's seat cookie along (TestClient
    sends it even where SameSite=Strict would not): another site's form or ``text/plain`` POST, a
    sandboxed frame (``Origin: null``), fetch metadata naming another site, and a non-JSON body
    without ``Origin`` are all refused; a program's JSON without ``Origin`` is not."""
    created = create_table(client, [HUMAN, HUMAN], public=True)
    table = created["table"]
    open_seat(client, created["url"])
    assert f"ml_{table}" in client.cookies
    changing = {"POST", "PUT", "PATCH", "DELETE"}
    paths = sorted(
        r.path.replace("{table_id}", table)
        for r in client.app.routes  # type: ignore[attr-defined]
        if isinstance(r, Route) and changing & set(r.methods or ())
    )
    bot_api = [  # programs with a bot token (docs/bot-api.md): refused from pages of other sites too
        "/api/bot/challenge",
        *(f"/api/bot/challenge/{{challenge_id}}/{op}" for op in ("accept", "decline")),
        *(f"/api/bot/game/{table}/{op}" for op in ("move", "react", "clock")),
        f"/api/tables/{table}/ladder",
        f"/api/tables/{table}/seats/{{seat}}",  # the creator's seat cookie: another kind for a declined bot
    ]
    rooms = [  # a room member's device cookie (docs/rooms.md)
        "/api/rooms",
        *(f"/api/rooms/{{room_id}}/{op}" for op in ROOM_OPS),
        *(f"/api/rooms/{{room_id}}/tables/{table}/{op}" for op in ("join", "hint")),
    ]
    push = [f"/api/push/{op}" for op in ("subscribe", "unsubscribe")]  # the seat cookies a subscription binds
    assert paths == sorted(
        [
            "/api/tables",
            *(f"/api/tables/{table}/{op}" for op in ("join", "renew", "seat-link", "open-seat")),
            *bot_api,
            *rooms,
            *push,
            "/api/records",  # a game played offline, sent when the network is back
        ]
    )
    create = b'{"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "public": true, "name": "M"}'
    evil = "https://evil.example"
    attempts = [  # headers, body, status, code
        ({"origin": evil, "content-type": "application/x-www-form-urlencoded"}, b"name=Mallory", 403, "bad_origin"),
        ({"origin": evil, "content-type": "multipart/form-data; boundary=x"}, b"--x--", 403, "bad_origin"),
        ({"origin": evil, "content-type": "text/plain"}, create, 403, "bad_origin"),  # fetch(no-cors) or a form
        ({"origin": evil, "content-type": "application/json"}, create, 403, "bad_origin"),  # never without CORS
        ({"origin": "null", "content-type": "text/plain"}, create, 403, "bad_origin"),  # a sandboxed frame
        ({"origin": "http://testserver.evil.example", "content-type": "application/json"}, create, 403, "bad_origin"),
        ({"sec-fetch-site": "cross-site", "content-type": "application/json"}, create, 403, "bad_origin"),
        ({"sec-fetch-site": "same-site", "content-type": "application/json"}, create, 403, "bad_origin"),
        ({"content-type": "text/plain"}, create, 415, "not_json"),  # no Origin: still no form, no plain text
        ({"content-type": "application/x-www-form-urlencoded"}, b"name=Mallory", 415, "not_json"),
        ({"content-type": "text/plain; x=application/json"}, create, 415, "not_json"),
    ]
    for path in paths:
        for headers, body, status, code in attempts:
            answer = client.post(path, content=body, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (status, code), (path, headers)
            assert "set-cookie" not in answer.headers
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "waiting" and summary["you"] == 0  # nobody joined; the cookie still opens seat 0
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [table]  # nothing was created
    assert client.app.state.lobby.check_token(client.app.state.lobby.get(table), 0, created["token"]) == 0  # type: ignore[attr-defined]
    client.cookies.clear()
    program = client.post("/api/tables", content=create, headers={"content-type": "application/json"})
    assert program.status_code == 200 and "set-cookie" not in program.headers  # a program: a token, no cookie
    page = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    ours = post(client, f"/api/tables/{table}/join", {"name": "Ben"}, **page)
    assert ours.status_code == 200 and f"ml_{table}" in ours.headers["set-cookie"]  # our own page


# -- private tables and invites ------------------------------------------------------------
def test_private_tables_are_the_default_unlisted_and_joined_only_by_invite(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN, HUMAN])
    table, secret = created["table"], created["invite_secret"]
    assert created["public"] is False and secret and secret != created["token"]
    assert created["invite"] == f"/t/{table}#invite={secret}"  # never sent to the server by a browser
    assert client.get("/api/tables").json()["tables"] == []
    for invite in (None, "", "guess", created["token"], "x" * 500):
        refused = post(client, f"/api/tables/{table}/join", {"name": "Eve", "invite": invite})
        assert refused.status_code == 403 and refused.json()["code"] == "invite_needed", invite
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["taken"] is False
    ben = post(client, f"/api/tables/{table}/join", {"name": "Ben", "invite": secret})
    assert ben.status_code == 200 and ben.json()["token"] != secret
    row = client.app.state.store.load_table(table)  # type: ignore[attr-defined]
    assert row.public is False and secret not in repr(row)  # stored hashed, like seat tokens

    public = create_table(client, [HUMAN, HUMAN], public=True)
    assert public["invite"] == f"/t/{public['table']}" and public["invite_secret"] is None
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [public["table"]]
    assert post(client, f"/api/tables/{public['table']}/join", {"name": "Cleo"}).status_code == 200


# -- a small, paged lobby that expires waiting tables --------------------------------------
def test_the_lobby_list_is_paged_and_answers_304_when_nothing_changed(make_client: AppFactory) -> None:
    client = make_client(limits=Limits(open_tables_per_address=0, tables_per_minute=0))
    ids = [create_table(client, [HUMAN, HUMAN], public=True)["table"] for _ in range(25)]
    first = client.get("/api/tables")
    page0 = first.json()
    assert [t["id"] for t in page0["tables"]] == ids[::-1][:20] and page0["more"] is True
    page1 = client.get("/api/tables?page=1").json()
    assert [t["id"] for t in page1["tables"]] == ids[::-1][20:] and page1["more"] is False
    assert client.get("/api/tables?page=junk").json()["page"] == 0
    etag = first.headers["etag"]
    again = client.get("/api/tables", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    join(client, ids[-1])
    changed = client.get("/api/tables", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_a_waiting_table_expires_without_a_join_and_says_so(make_client: AppFactory) -> None:
    clock = Clock()
    client = make_client(limits=Limits(waiting_minutes=30))
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    lobby.clock = clock  # the lobby's own clock, apart from the rate limits' one
    created = create_table(client, [HUMAN, HUMAN, HUMAN], public=True)
    table = created["table"]
    watcher = Player(client, table)
    watcher.hello()
    clock.now += 29 * 60
    join(client, table, "Ben")  # a join starts the half hour again
    clock.now += 29 * 60
    assert client.portal.call(lobby.sweep) == []
    clock.now += 60
    assert client.portal.call(lobby.sweep) == [table]
    while watcher.live is None or watcher.live["status"] != "expired":
        watcher.recv(presence=True)
    assert client.get("/api/tables").json()["tables"][0]["status"] == "expired"
    assert post(client, f"/api/tables/{table}/join", {"name": "Cleo"}).status_code == 409
    assert client.app.state.store.load_table(table).status == "expired"  # type: ignore[attr-defined]
    playing = create_table(client, [HUMAN, RANDOM_BOT])["table"]  # started at once: never expires
    clock.now += 3600
    assert client.portal.call(lobby.sweep) == []
    assert client.get(f"/api/tables/{playing}").json()["status"] == "playing"


def test_a_waiting_tables_expiry_counts_on_across_a_restart(make_client: AppFactory, db_url: str) -> None:
    clock = Clock()  # both servers' lobbies read it: the restart takes no time of its own
    first = make_client(limits=Limits(waiting_minutes=30))
    first.app.state.lobby.clock = clock  # type: ignore[attr-defined]
    joined = create_table(first, [HUMAN, HUMAN, HUMAN], public=True)["table"]
    lonely = create_table(first, [HUMAN, HUMAN], public=True)["table"]
    clock.now += 20 * 60
    join(first, joined, "Ben")  # its half hour starts again here
    shut_down(first)
    stored = first.app.state.store.load_table(joined)  # type: ignore[attr-defined]
    assert stored.joined.timestamp() == pytest.approx(clock.now)
    clock.now += 9 * 60
    second = make_client(limits=Limits(waiting_minutes=30))
    lobby = second.app.state.lobby  # type: ignore[attr-defined]
    lobby.clock = clock
    assert second.portal.call(lobby.sweep) == []  # 29 minutes since each table's last join or creation
    clock.now += 2 * 60
    assert second.portal.call(lobby.sweep) == [lonely]  # 31 minutes since it was created, restart or not
    clock.now += 18 * 60
    assert second.portal.call(lobby.sweep) == []  # 29 minutes since Ben joined
    clock.now += 2 * 60
    assert second.portal.call(lobby.sweep) == [joined]  # 31 minutes since Ben joined
    assert second.get(f"/api/tables/{joined}").json()["status"] == "expired"


# -- the seat cookie, renewed on request --------------------------------------------------
def test_the_seat_cookie_opens_the_seat_and_can_be_renewed(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    assert client.get(f"/api/tables/{table}").json()["you"] is None
    assert post(client, f"/api/tables/{table}/renew", {}).json()["code"] == "not_seated"
    open_seat(client, created["url"])  # the seat link: its token after "#" traded for the cookie
    assert client.get(f"/api/tables/{table}").json()["you"] == 0
    link = post(client, f"/api/tables/{table}/seat-link", {}).json()
    assert link["url"] == created["url"]  # for another device, asked for on purpose
    here = Player(client, table)
    assert here.hello(None, 0)["seat"] == 0  # the cookie travels in the handshake
    elsewhere = seated(client, table, 0, token)  # the same seat on another device
    renewed = post(client, f"/api/tables/{table}/renew", {})
    assert renewed.status_code == 200 and "httponly" in renewed.headers["set-cookie"].lower()
    assert elsewhere.recv(presence=True)["type"] in ("presence", "closed")
    while elsewhere.closed is None:
        elsewhere.recv(presence=True)
    assert elsewhere.closed == CLOSE_SIGNED_OUT
    old = Player(client, table)
    assert old.hello(token, 0)["code"] == "bad_token"  # every copy of the old link is void
    new = Player(client, table)
    assert new.hello(None, 0)["seat"] == 0  # this browser's cookie carries the new token
    assert INVITES[table]  # the invite is not a seat's token and did not change


# -- names ---------------------------------------------------------------------------------
def test_names_are_normalised_and_bounded() -> None:
    from mauseloch.server.names import MAX_NAME, clean_name
    from mauseloch.server.protocol import ProtocolError

    def code(name: str) -> str:
        with pytest.raises(ProtocolError) as err:
            clean_name(name, "Player 1")
        return err.value.code

    assert clean_name("Jose\u0301", "x") == "Jos\u00e9"  # NFC: one letter, as typed on another keyboard
    assert clean_name("  Anna \u202e\u200b  Lena\x00 ", "x") == "Anna Lena"  # controls and bidi gone
    assert clean_name("\u200b", "Player 1") == "Player 1"
    assert clean_name("o\u0323\u0302", "x") == "\u1ed9"  # two marks on a letter are fine (NFC: one)
    assert clean_name("Le\u200bna\tK.", "x") == "Lena K."
    assert code("x" + "\u0301" * 3) == "name_marks"  # a pile of marks is not
    assert clean_name("猫" * (MAX_NAME // 2), "x") == "猫" * (MAX_NAME // 2)  # wide: two columns each
    assert code("猫" * (MAX_NAME // 2 + 1)) == "name_too_long"
    for reserved in ("Random bot 2", "BOT", "\uff22\uff4f\uff54", "Zufalls-Bot 3", "heuristic_bot", "Stand-in"):
        assert code(reserved) == "name_reserved", reserved
    for fine in ("Abbot", "Botticelli", "Robotnik", "Anna"):
        assert clean_name(fine, "x") == fine


def test_a_reserved_name_is_refused_with_its_code(client: TestClient) -> None:
    refused = post(client, "/api/tables", {**GAME, "name": "Random bot 2"})
    assert refused.status_code == 400 and refused.json()["code"] == "name_reserved"
    table = create_table(client, [HUMAN, HUMAN])["table"]
    joined = post(client, f"/api/tables/{table}/join", {"name": "Heuristic Bot", "invite": INVITES[table]})
    assert joined.json()["code"] == "name_reserved"


def test_a_rematch_carries_the_seat_cookie_to_the_new_table(make_client: AppFactory) -> None:
    from .test_standin import FAST, duel, until_live

    client = make_client(clock_scale=FAST)
    table, anna, ben, ben_token = duel(client, clock="fast", options={"move_limit": 10})
    for p in (anna, ben):
        p.until(lambda p: p.view["is_over"])
        p.send({"type": "rematch"})
    until_live(anna, lambda live: live["next"] is not None)
    new = anna.live["next"]  # type: ignore[index]
    stranger = client.get(f"/t/{new}?rematch={table}", follow_redirects=False)  # no cookie of the old table
    assert stranger.status_code == 303 and f"ml_{new}" not in stranger.cookies
    open_seat(client, f"/t/{table}#seat=1&token={ben_token}")  # Ben's browser
    moved = client.get(f"/t/{new}?rematch={table}", follow_redirects=False)
    assert moved.headers["location"] == f"/t/{new}" and moved.cookies.get(f"ml_{new}") == f"1:{ben_token}"
    assert client.get(f"/api/tables/{new}").json()["you"] == 1


def test_a_seat_taken_from_our_page_comes_as_a_cookie(client: TestClient) -> None:
    page = {"origin": "http://testserver"}
    created = client.post("/api/tables", json={**GAME, "public": True}, headers=page)
    table = created.json()["table"]
    cookie = created.headers["set-cookie"].lower()
    assert f"ml_{table}=".lower() in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert client.get(f"/api/tables/{table}").json()["you"] == 0
    client.cookies.clear()
    program = client.post(f"/api/tables/{table}/join", json={"name": "Ben"})  # no Origin: not a browser
    assert program.status_code == 200 and "set-cookie" not in program.headers


def test_serve_refuses_a_trusted_proxy_that_is_no_address() -> None:
    from typer.testing import CliRunner

    from mauseloch.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", "0", "--trusted-proxy", "proxy.example"])
    assert result.exit_code == 2 and "--trusted-proxy" in result.output
