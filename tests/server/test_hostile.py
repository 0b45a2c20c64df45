"""Hostile input is refused with an error; the table stays as it was and the server stays up."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.testclient import TestClient

from mauseloch.server.app import FLOOD_CLOSE
from mauseloch.server.protocol import MAX_MESSAGE, Hello, MoveMsg, ProtocolError, decode_client

from .helpers import HUMAN, Player, create_table, join, seated

TableMaker = Callable[..., TestClient]


def started_table(client: TestClient) -> tuple[str, Player, Player]:
    created = create_table(client, [HUMAN, HUMAN])
    ben = join(client, created["table"])
    anna = seated(client, created["table"], 0, created["token"])
    return created["table"], anna, seated(client, created["table"], 1, ben["token"])


def error_code(player: Player, message: dict[str, object] | str | bytes) -> str:
    player.send(message)
    frame = player.recv()
    assert frame["type"] == "error", frame
    assert set(frame) == {"type", "version", "seq", "code", "message"} and frame["message"]
    return str(frame["code"])


def test_decoder_accepts_only_the_listed_messages() -> None:
    assert decode_client('{"type": "hello", "token": null, "seat": null, "last_seq": 0}') == Hello()
    assert decode_client(b'{"type": "move", "move": "7H", "version": 3}') == MoveMsg("7H", 3)
    for raw, code in (
        ("", "bad_message"),
        ("[]", "bad_message"),
        ("null", "bad_message"),
        ('{"type": "shout"}', "bad_message"),
        ('{"move": "7H", "version": 0}', "bad_message"),
        ('{"type": "move", "move": 7, "version": 0}', "bad_message"),
        ('{"type": "move", "move": "7H", "version": "0"}', "bad_message"),
        ('{"type": "move", "move": "7H", "version": 0, "seat": 1}', "bad_message"),
        ('{"type": "move", "move": "", "version": 0}', "bad_message"),
        ('{"type": "hello", "seat": -1}', "bad_message"),
        ('{"type": "hello", "token": 5}', "bad_message"),
        ('{"type": "hello", "token": ""}', "bad_token"),
        (b"\xff\xfe\x00garbage", "bad_message"),
        ('{"type": "ping", "pad": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
    ):
        try:
            decode_client(raw)
        except ProtocolError as exc:
            assert exc.code == code, (raw, exc.code)
        else:
            raise AssertionError(f"accepted {raw!r}")


def test_hostile_messages_on_a_seat(client: TestClient) -> None:
    table, anna, ben = started_table(client)
    state = client.app.state.tables.get(table)  # type: ignore[attr-defined]
    before = state.state.game.record()
    legal = anna.view["legal_moves"]
    assert error_code(anna, "{not json") == "bad_message"
    assert error_code(anna, b"\x00\x01binary junk") == "bad_message"
    assert error_code(anna, {"type": "teleport"}) == "bad_message"
    assert error_code(anna, {"type": "move", "move": legal[0]}) == "bad_message"  # no version
    assert error_code(anna, {"type": "move", "move": legal[0], "version": 0, "seat": 1}) == "bad_message"
    assert error_code(anna, {"type": "hello", "token": "again", "seat": 0}) == "bad_message"  # said already
    assert error_code(anna, {"type": "move", "move": legal[0], "version": 0, "pad": "x" * 9000}) == "too_large"
    assert error_code(anna, "x" * (MAX_MESSAGE + 1)) == "too_large"
    assert error_code(ben, {"type": "move", "move": legal[0], "version": 0}) == "not_your_turn"
    assert state.state.game.record() == before and state.version == 0
    # still alive and still in the seat
    anna.send({"type": "ping"})
    assert anna.recv()["type"] == "pong"
    anna.move(legal[0])
    assert anna.recv()["version"] == 1 and ben.recv()["version"] == 1


def test_first_message_must_be_hello(client: TestClient) -> None:
    table, anna, _ = started_table(client)
    stranger = Player(client, table)
    assert error_code(stranger, {"type": "move", "move": anna.view["legal_moves"][0], "version": 0}) == "bad_message"
    assert error_code(stranger, {"type": "ping"}) == "bad_message"
    assert stranger.hello()["type"] == "snapshot"  # the connection survived
    assert client.app.state.tables.get(table).version == 0  # type: ignore[attr-defined]


def test_bad_tokens_close_the_connection(client: TestClient) -> None:
    table, _, _ = started_table(client)
    for hello in ({"token": "guess", "seat": 0}, {"token": None, "seat": 1}, {"token": "x" * 300, "seat": 0}):
        player = Player(client, table)
        assert error_code(player, {"type": "hello", **hello}) == "bad_token"
        assert player.recv() == {"type": "closed", "code": 4403}
    unknown = Player(client, "nosuchtable")
    assert error_code(unknown, {"type": "hello", "token": None, "seat": None}) == "bad_message"
    assert client.get("/api/tables").status_code == 200


def test_flood_is_rate_limited(make_client: TableMaker) -> None:
    client = make_client(clock=lambda: 0.0)  # every message arrives in the same instant
    table, anna, ben = started_table(client)
    codes = []
    for _ in range(40):
        anna.send({"type": "ping"})
        frame = anna.recv()
        codes.append(frame.get("code", frame["type"]))
    # hello was the first of 20 messages allowed in the second; everything beyond is refused
    assert codes[:19] == ["pong"] * 19 and set(codes[19:]) == {"rate_limited"}
    anna.move(anna.view["legal_moves"][0])
    assert anna.recv()["code"] == "rate_limited"
    assert client.app.state.tables.get(table).version == 0  # type: ignore[attr-defined]
    # other connections are not affected
    ben.send({"type": "ping"})
    assert ben.recv()["type"] == "pong"


def test_a_flood_that_never_stops_is_disconnected(make_client: TableMaker) -> None:
    client = make_client(clock=lambda: 0.0)
    table, anna, _ = started_table(client)
    for _ in range(400):
        anna.send(json.dumps({"type": "ping"}))
    frames = [anna.recv()]
    while frames[-1]["type"] != "closed":
        frames.append(anna.recv())
    assert frames[-1] == {"type": "closed", "code": 1008}
    assert len(frames) == 19 + FLOOD_CLOSE + 1 and frames[-2]["code"] == "rate_limited"
    watcher = Player(client, table)
    assert watcher.hello()["type"] == "snapshot"
