"""Quick reactions at a table: a fixed set from seated people, to everyone there (spectators
too), rate-limited per seat in the table's step."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from mauseloch.server.emotes import EMOTE_BURST, EMOTES, EMOTES_PER_SECOND
from mauseloch.server.protocol import ProtocolError
from mauseloch.server.table import commands as c
from mauseloch.server.table.state import TableState
from mauseloch.server.table.step import step

from .helpers import HUMAN, RANDOM_BOT, Player, create_table, join, seated
from .test_step import new_row


def test_the_step_limits_each_seats_emotes_and_refuses_others() -> None:
    state = TableState.of(new_row(7, ["human", "human", "bot"], "off"), now=1000.0)
    sent = [step(state, c.Emote(seat=0, emote="clap", now=1000.0)) for _ in range(EMOTE_BURST)]
    assert [o.frames for o in sent] == [[c.EmoteOf(0, "clap")]] * EMOTE_BURST
    with pytest.raises(ProtocolError) as over:
        step(state, c.Emote(seat=0, emote="clap", now=1000.0))
    assert over.value.code == "rate_limited"
    assert step(state, c.Emote(seat=1, emote="mau", now=1000.0)).frames == [c.EmoteOf(1, "mau")]  # per seat
    later = 1000.0 + 1.0 / EMOTES_PER_SECOND
    assert step(state, c.Emote(seat=0, emote="wow", now=later)).frames == [c.EmoteOf(0, "wow")]
    refusals = ((None, "clap", "not_your_turn"), (2, "clap", "not_your_turn"), (1, "hi mom", "bad_message"))
    for seat, emote, code in refusals:
        with pytest.raises(ProtocolError) as refused:
            step(state, c.Emote(seat=seat, emote=emote, now=later + 100))
        assert refused.value.code == code
    assert "hi mom" not in EMOTES


def test_an_emote_reaches_every_seat_and_spectator(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN, RANDOM_BOT])
    table = created["table"]
    ben = join(client, table)
    anna = seated(client, table, 0, created["token"])
    benny = seated(client, table, 1, ben["token"])
    watcher = Player(client, table)
    assert watcher.hello()["type"] == "snapshot"
    anna.send({"type": "emote", "emote": "well_played"})
    for p in (anna, benny, watcher):
        frame = p.recv()
        while frame["type"] != "emote":  # a bot's move may come first
            frame = p.recv()
        assert frame == {"type": "emote", "seat": 0, "emote": "well_played"}
    watcher.send({"type": "emote", "emote": "clap"})
    frame = watcher.recv()
    while frame["type"] == "update":
        frame = watcher.recv()
    assert frame["type"] == "error" and frame["code"] == "not_your_turn"
