"""Lobby API: games, creating, joining and listing tables, seat tokens and the table page."""

from __future__ import annotations

import hashlib

from starlette.testclient import TestClient

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, open_seat, seated


def test_games_lists_every_game_with_its_bots(client: TestClient) -> None:
    answer = client.get("/api/games").json()
    names = [g["name"] for g in answer["games"]]
    assert "mau-mau" in names
    assert "mausgeflippt" in names  # the reaction game: its windows are driven by the server's clock
    # every level modelled on people, the child's too; not the random bot, which reacts at 0 ms
    assert answer["bots"]["mausgeflippt"] == ["little", "child", "easy", "normal", "hard"]
    assert answer["clocks"]["mausgeflippt"]["default"] == "normal"
    mau = next(g for g in answer["games"] if g["name"] == "mau-mau")
    assert mau["min_players"] == 2 and any(o["name"] == "move_limit" for o in mau["options"])
    assert "random" in answer["bots"]["mau-mau"]
    assert set(answer["bots"]) == set(names)


def test_create_join_list(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN, RANDOM_BOT], options={"ace_skips": True}, title="Friday", public=True)
    table = created["table"]
    assert created["seat"] == 0 and created["invite"] == f"/t/{table}"
    assert created["url"] == f"/t/{table}#seat=0&token={created['token']}"  # never sent, so never logged
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "waiting" and summary["title"] == "Friday"
    assert summary["options"]["ace_skips"] is True and summary["options"]["move_limit"] == 1000
    assert [(s["kind"], s["taken"]) for s in summary["seats"]] == [("human", True), ("human", False), ("bot", True)]
    assert summary["seats"][0]["name"] == "Anna" and summary["seats"][2]["bot"] == "random"

    joined = join(client, table, "Ben")
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    assert joined["url"] == f"/t/{table}#seat=1&token={joined['token']}"
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["status"] == "playing" and summary["seats"][1]["name"] == "Ben"

    full = client.post(f"/api/tables/{table}/join", json={"name": "Cleo"})
    assert full.status_code == 409 and "error" in full.json()

    other = create_table(client, [HUMAN, HUMAN], public=True)["table"]
    create_table(client, [HUMAN, HUMAN])  # private: never listed
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [other, table]  # newest first
    assert listed[1]["seats"][1]["taken"] is True


def test_join_a_chosen_seat(client: TestClient) -> None:
    table = create_table(client, [HUMAN, HUMAN, HUMAN], public=True)["table"]
    assert join(client, table, "Cleo", seat=2)["seat"] == 2
    assert client.post(f"/api/tables/{table}/join", json={"seat": 2}).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"seat": 0}).status_code == 409
    assert client.post(f"/api/tables/{table}/join", json={"seat": 7}).status_code == 400
    assert client.post(f"/api/tables/{table}/join", json={}).json()["seat"] == 1
    assert client.get(f"/api/tables/{table}").json()["seats"][1]["name"] == "Player 2"


def test_bad_lobby_requests(client: TestClient) -> None:
    def post(body: object) -> int:
        return client.post("/api/tables", json=body).status_code

    assert post({"game": "chess", "seats": [HUMAN, HUMAN]}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN]}) == 400  # too few players
    assert post({"game": "mau-mau", "seats": [HUMAN] * 6}) == 400  # too many
    assert post({"game": "mau-mau", "seats": [RANDOM_BOT, RANDOM_BOT]}) == 400  # nobody to play
    assert post({"game": "mau-mau", "seats": [HUMAN, {"kind": "bot", "bot": "oracle"}]}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN, {"kind": "alien"}]}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN, HUMAN], "options": {"move_limit": 0}}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN, HUMAN], "options": {"jokers": True}}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": "x" * 100}) == 400
    assert post({"game": "mau-mau", "seats": [HUMAN, HUMAN], "admin": True}) == 400
    assert post({"game": "mausgeflippt", "seats": [HUMAN, RANDOM_BOT]}) == 400  # 0 ms reactions: not offered
    as_json = {"content-type": "application/json"}
    assert client.post("/api/tables", content=b"{not json", headers=as_json).status_code == 400
    big = client.post("/api/tables", content=b'{"game": "' + b"x" * 9000 + b'"}', headers=as_json)
    assert big.status_code == 413 and "error" in big.json()
    assert client.get("/api/tables/nosuch").status_code == 404
    assert client.post("/api/tables/nosuch/join", json={}).status_code == 404
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created


def test_tokens_are_stored_hashed(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    row = client.app.state.store.load_table(created["table"])  # type: ignore[attr-defined]
    assert row.seats[0].token_hash == hashlib.sha256(created["token"].encode()).hexdigest()
    assert created["token"] not in repr(row)
    assert row.seats[1].token_hash is None


def test_opening_a_seat_link_sets_the_seat_cookie_only_for_a_good_token(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    client.cookies.clear()
    page = {"Origin": "http://testserver"}  # the table page's request; a program gets no cookie
    assert "set-cookie" not in client.post(f"/api/tables/{table}/open-seat", json={"seat": 0, "token": token}).headers
    good = client.post(f"/api/tables/{table}/open-seat", json={"seat": 0, "token": token}, headers=page)
    assert good.status_code == 200 and good.json() == {"table": table, "seat": 0}
    assert good.cookies.get(f"ml_{table}") == f"0:{token}"
    cookie = good.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    client.cookies.clear()
    for body in ({"seat": 0, "token": "not-it"}, {"seat": 1, "token": token}, {"seat": 7, "token": token}):
        bad = client.post(f"/api/tables/{table}/open-seat", json=body, headers=page)
        assert bad.status_code == 403 and bad.json()["code"] == "bad_token", body
        assert f"ml_{table}" not in bad.cookies and token not in bad.text
    assert client.post(f"/api/tables/{table}/open-seat", json={"seat": 0}).status_code == 400
    assert client.post("/api/tables/nosuch/open-seat", json={"seat": 0, "token": token}).status_code == 404
    assert client.get("/t/nosuch").status_code == 404


def test_the_old_seat_link_with_its_token_in_the_query_is_not_taken(client: TestClient) -> None:
    """``/t/<id>?seat=&token=`` put the token in every access log: even a good one opens nothing
    now, and the answer takes it out of the address without echoing it."""
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    client.cookies.clear()
    old = client.get(f"/t/{table}?seat=0&token={token}", follow_redirects=False)
    assert old.status_code == 303 and old.headers["location"] == f"/t/{table}?refused=bad_token"
    assert f"ml_{table}" not in old.cookies and token not in old.text


def test_websocket_token_checks(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    ben = join(client, table)

    for hello in (
        {"token": "wrong", "seat": 0},
        {"token": None, "seat": 0},  # a seat without a token
        {"token": token, "seat": 1},  # Anna's token does not open Ben's seat
        {"token": ben["token"], "seat": 0},
        {"token": token, "seat": 9},
        {"token": "", "seat": 0},
    ):
        player = Player(client, table)
        frame = player.hello(**hello)  # type: ignore[arg-type]
        assert frame["type"] == "error" and frame["code"] == "bad_token", (hello, frame)
        assert player.recv()["type"] == "closed"

    anna = seated(client, table, 0, token)
    assert anna.state is not None and anna.view["hand"]
    by_token = Player(client, table)
    assert by_token.hello(ben["token"])["seat"] == 1  # the token alone finds its seat
    watcher = Player(client, table)
    snap = watcher.hello()
    assert snap["type"] == "snapshot" and snap["seat"] is None and "hand" not in snap["view"]
    for p in (anna, by_token, watcher):
        p.close()


def test_cookie_opens_the_seat_on_the_websocket(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    open_seat(client, created["url"])  # sets ml_<id>
    assert client.cookies.get(f"ml_{table}") == f"0:{token}"
    player = Player(client, table)
    frame = player.hello(None, 0)
    assert frame["type"] == "snapshot" and frame["seat"] == 0
    player.close()
    ours = Player(client, table, headers={"origin": "http://testserver"})
    assert ours.hello(None, 0)["seat"] == 0
    # another site's page gets nothing from the visitor's cookie
    foreign = Player(client, table, headers={"origin": "https://evil.example"})
    assert foreign.hello(None, 0)["code"] == "bad_token"


def test_games_state_defaults_that_depend_on_the_player_count(client: TestClient) -> None:
    """The lobby's JSON is GameInfo.to_dict(): Aus die Maus!' small deck and chips per count."""
    import mauseloch

    answer = client.get("/api/games").json()
    for game in answer["games"]:
        assert game == mauseloch.GAMES[game["name"]].to_dict()
        counts = {str(n) for n in range(game["min_players"], game["max_players"] + 1)}
        for opt in game["options"]:
            assert set(opt["defaults_by_players"]) == counts


PAGE = {"origin": "http://testserver"}  # requests as our own pages send them: the seat goes into a cookie


def test_my_tables_lists_every_seat_this_browser_holds_and_nothing_else(client: TestClient) -> None:
    body = {"game": "mau-mau", "name": "Anna"}
    private = client.post("/api/tables", json={**body, "seats": [HUMAN, HUMAN]}, headers=PAGE)
    private_id = private.json()["table"]
    public = client.post("/api/tables", json={**body, "seats": [HUMAN, RANDOM_BOT], "public": True}, headers=PAGE)
    public_id = public.json()["table"]
    answer = client.get("/api/my-tables")
    assert answer.status_code == 200 and "no-store" in answer.headers["cache-control"]
    mine = {t["id"]: t for t in answer.json()["tables"]}
    assert set(mine) == {private_id, public_id}  # private ones included
    assert mine[private_id]["status"] == "waiting" and mine[private_id]["you"] == 0 and not mine[private_id]["public"]
    assert mine[public_id]["status"] == "playing"
    anna_cookies = dict(client.cookies)

    # another browser: no cookies, no tables; a guessed or borrowed token shows nothing either
    client.cookies.clear()
    assert client.get("/api/my-tables").json() == {"tables": []}
    token = anna_cookies[f"ml_{private_id}"].partition(":")[2]
    changed = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
    for forged in (f"0:{changed}", f"1:{token}", "0:", "x:y", f"9:{token}"):
        client.cookies.set(f"ml_{private_id}", forged)
        assert client.get("/api/my-tables").json() == {"tables": []}, forged
    client.cookies.set("ml_nosuchtable", f"0:{token}")
    assert client.get("/api/my-tables").json() == {"tables": []}

    # Ben joins through the invite link: his browser lists that table, and only that one
    client.cookies.clear()
    invite = private.json()["invite_secret"]
    joined = client.post(f"/api/tables/{private_id}/join", json={"name": "Ben", "invite": invite}, headers=PAGE)
    assert joined.status_code == 200, joined.text
    bens = client.get("/api/my-tables").json()["tables"]
    assert [(t["id"], t["you"], t["status"]) for t in bens] == [(private_id, 1, "playing")]

    # a finished table stays in the list, as finished
    for name, value in anna_cookies.items():
        client.cookies.set(name, value)
    anna = seated(client, public_id, 0, public.json()["token"])
    while not anna.view["is_over"]:
        if anna.my_turn():
            anna.move(anna.view["legal_moves"][0])
        frame = anna.recv()
        assert frame["type"] != "error" or frame["code"] == "stale", frame
    anna.close()
    statuses = {t["id"]: t["status"] for t in client.get("/api/my-tables").json()["tables"]}
    assert statuses[public_id] == "over" and statuses[private_id] == "playing"
