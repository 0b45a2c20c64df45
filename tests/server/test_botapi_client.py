"""The Bot API's Python client on its own, with the lines a server would send (no server): a frame
it cannot read ends that game at once, saying why, instead of reconnecting for ever."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest

import mauseloch
from mauseloch.core.views import View
from mauseloch.server.botapi.client import BotClient
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.table import frames
from mauseloch.server.table.state import TableState


def snapshot_line(seat: int) -> bytes:
    """The snapshot a server sends ``seat`` of a fresh two-player Mau-Mau table."""
    record = mauseloch.new_game("mau-mau", players=2, seed=5).record()
    row = TableRow(
        id="t1", game="mau-mau", title="", players=2, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), moves=[], by=[],
        seats=[SeatRow(seat=s, kind="human", name=f"P{s}", token_hash=f"h{s}") for s in range(2)],
    )  # fmt: skip
    return frames.snapshot(TableState.of(row, now=time.time()), seat, time.time()).encode() + b"\n"


class Streams(BotClient):
    """A client whose game stream gives ``sent`` (each time it is opened) and whose moves are kept."""

    def __init__(self, sent: list[bytes]) -> None:
        super().__init__("http://127.0.0.1:9", "token", lambda game, seat, table: First())
        self.sent, self.opened = sent, 0
        self.moves: list[Any] = []

    def lines(self, path: str) -> Iterator[bytes]:
        self.opened += 1
        yield from self.sent

    def post(self, path: str, body: object = None) -> dict[str, object]:
        self.moves.append(body)
        return {"ok": True}


class First:
    def choose(self, view: View, legal: list[str]) -> str:
        return legal[0]


def test_the_client_plays_from_a_frame_it_reads() -> None:
    client = Streams([snapshot_line(0)])
    client.stop.wait = lambda timeout=None: True  # type: ignore[method-assign]  # the stream's end: no waiting
    client.play("t1", 0)
    assert client.moves and client.moves[0]["version"] == 0


def test_a_frame_of_another_version_ends_the_game_saying_why(caplog: pytest.LogCaptureFixture) -> None:
    frame = json.loads(snapshot_line(0))
    frame["view"]["a_field_of_a_later_version"] = 1
    client = Streams([json.dumps(frame).encode() + b"\n"])
    client.stop.wait = lambda timeout=None: client.opened >= 2  # type: ignore[method-assign]  # a second try at most
    with caplog.at_level(logging.ERROR, logger="mauseloch.botclient"):
        client.play("t1", 0)  # returns: no reconnecting to a stream it cannot read
    assert client.opened == 1 and client.moves == []
    assert "another version of mauseloch" in caplog.text and "a_field_of_a_later_version" in caplog.text
