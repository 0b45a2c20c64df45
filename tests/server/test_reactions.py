"""Mausgeflippt at a table: reaction windows driven by the server's clock (server/reactions.py).

A person's page is played here by a WebSocket client that waits for the card's show time and
claims a reaction time; bots react through their ``react`` at the server.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

import mauseloch
from mauseloch.server.records import record_of, replay_frames
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.table import frames
from mauseloch.server.table.state import TableState

from .conftest import AppFactory
from .helpers import HUMAN, Player, create_table, join, seated

REACT_MS = 150
SKIP_EVERY = 3  # the person keeps still at every 3rd mouse: the bots' reactions (or the clock) decide
MICE = 9
HOLD_S = 1.0  # how long the table is kept busy while a claim waits


def wait_window(player: Player) -> dict[str, Any]:
    """Receive until the window message and the update that shows its mouse are both here."""
    window: dict[str, Any] | None = None
    while True:
        frame = player.recv()
        assert frame["type"] not in ("error", "closed"), frame
        if frame["type"] == "window":
            window = frame
        state = player.state
        if (
            window is not None
            and state is not None
            and state["version"] == window["version"]
            and state["view"]["window_open"]
        ):
            return window
        if player.state is not None and player.view["is_over"]:
            return {}


def fitting(view: dict[str, Any]) -> str:
    """The reaction a sharp player makes (the test knows the rules; the server does not tell)."""
    wears = view["mouse"]["wears"]
    card = next((c for c in view["hand"] if c in wears), None)
    return f"catch {card}" if card else "flip"


def react(player: Player, window: dict[str, Any], move: str, ms: int = REACT_MS) -> None:
    time.sleep(window["in_ms"] / 1000 + ms / 1000)  # the mouse is painted at the show time
    player.send({"type": "react", "move": move, "version": window["version"], "ms": ms})


@pytest.mark.slow
def test_people_and_bots_react_and_every_claim_is_recorded(
    make_client: AppFactory, seeds: Callable[[int], None]
) -> None:
    seeds(21)
    client = make_client(clock_scale=0.02)  # the countdown before each mouse: 40 ms
    created = create_table(
        client,
        [HUMAN, {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "child"}],
        game="mausgeflippt",
        clock="fast",
        options={"window_ms": 1200},
    )
    table = created["table"]
    anna = seated(client, table, 0, created["token"])
    watcher = Player(client, table)
    assert watcher.hello()["type"] == "snapshot"
    for windows in range(1, MICE + 1):
        window = wait_window(anna)
        if windows % SKIP_EVERY:
            react(anna, window, fitting(anna.view))
    anna.until(lambda p: not p.view["window_open"])
    running = client.app.state.lobby.get(table)  # type: ignore[attr-defined]
    # The bots flip the next mouse 40 ms on: stop the table's clock and bots (its moves stored),
    # so that the running game, the store and Anna's page are compared at one version.
    client.portal.call(running.stop)
    anna.until(lambda p: p.state["version"] == running.version)
    row = client.app.state.store.load_table(table)  # type: ignore[attr-defined]
    record = record_of(row)
    game = mauseloch.replay(record)
    assert game.view(0) == running.state.game.view(0) == anna.view
    # a mouse flipped before the stop is one window more, with no reaction yet (or one)
    assert 0 <= len(record["referee"]) - MICE <= 1
    record["referee"] = record["referee"][:MICE]
    reactions = [m for m in record["moves"] if m[1] != "reveal"][:MICE]
    assert len(record["referee"]) == len(reactions) == MICE
    for entry, move in zip(record["referee"], reactions, strict=True):
        decision = entry["decision"]
        assert [decision["move"], decision["ms"]] == move[1:]  # the decision is the move played
        assert decision["seat"] in (None, move[0])
    claims = [c for e in record["referee"] for c in e["claims"]]
    assert {c["seat"] for c in claims} == {0, 1, 2}  # the person and both bots reacted
    mine = [c for c in claims if c["seat"] == 0]
    assert all(c["ms"] == REACT_MS and "observed" in c and c["at"] >= REACT_MS for c in mine)
    won_by_bots = [e for e in record["referee"] if e["decision"]["seat"] in (1, 2)]
    assert won_by_bots  # when the person keeps still, a bot takes the mouse
    # the replay shows every window's claims with their times
    frames = replay_frames(row)
    assert [f["referee"] for f in frames if "referee" in f][:MICE] == record["referee"]
    # nobody was sent anyone's claim: a claim names a card of its hand
    for player in (anna, watcher):
        assert not any("claims" in raw or "observed" in raw for raw in player.raw)


def test_reactions_are_claims_and_bad_ones_change_nothing(make_client: AppFactory) -> None:
    client = make_client(clock_scale=0.02)
    created = create_table(client, [HUMAN, HUMAN], game="mausgeflippt", clock="fast")
    table = created["table"]
    ben = join(client, table, "Ben")
    anna = seated(client, table, 0, created["token"])
    bens = seated(client, table, 1, ben["token"])
    watcher = Player(client, table)
    watcher.hello()
    window = wait_window(anna)
    version = window["version"]

    def refused(player: Player, msg: dict[str, Any]) -> str:
        player.send(msg)
        while True:
            frame = player.recv()
            if frame["type"] == "error":
                return str(frame["code"])

    move = anna.view["legal_moves"][0]
    assert refused(anna, {"type": "move", "move": move, "version": version}) == "illegal"  # first message never wins
    assert refused(watcher, {"type": "react", "move": move, "version": version, "ms": 300}) == "not_your_turn"
    assert refused(anna, {"type": "react", "move": move, "version": version - 1, "ms": 300}) == "stale"
    assert refused(anna, {"type": "react", "move": "catch nonsense", "version": version, "ms": 300}) == "illegal"
    assert refused(anna, {"type": "react", "move": move, "version": version, "ms": -5}) == "bad_message"
    assert refused(anna, {"type": "react", "move": move, "version": version, "ms": 300, "at": 1}) == "bad_message"
    # a guess (under 100 ms) is taken but never wins; Ben's real reaction does
    anna.send({"type": "react", "move": move, "version": version, "ms": 60})
    assert wait_window(bens)["version"] == version
    react(bens, window, bens.view["legal_moves"][0], ms=200)
    bens.until(lambda p: p.state is not None and p.state["version"] > version)
    won = [e for e in bens.state["events"] if e["type"] == "reaction"]  # type: ignore[index]
    assert [e["seat"] for e in won] == [1] and won[0]["ms"] >= 200  # judged by when it arrived


def test_a_turn_game_refuses_reactions(client: TestClient) -> None:
    created = create_table(client, [HUMAN, {"kind": "bot", "bot": "random"}])
    anna = seated(client, created["table"], 0, created["token"])
    anna.send({"type": "react", "move": "draw", "version": anna.state["version"], "ms": 300})  # type: ignore[index]
    frame = anna.recv()
    assert frame["type"] == "error" and frame["code"] == "illegal"
    assert not any(f["type"] in ("clock_ping", "window") for f in anna.frames)  # turn games are not measured


def test_with_the_clock_off_the_revealer_turns_the_mouse(make_client: AppFactory) -> None:
    client = make_client()
    created = create_table(client, [HUMAN, {"kind": "bot", "bot": "normal"}], game="mausgeflippt", clock="off")
    anna = seated(client, created["table"], 0, created["token"])
    assert anna.view["legal_moves"] == ["reveal"] and anna.live is not None and anna.live["deadline"] is None
    anna.move("reveal")
    window = wait_window(anna)
    assert window["window_ms"] == 6000 and anna.view["mouse"] is not None


def test_a_stand_ins_mark_is_the_frames_not_the_events() -> None:
    """Mausgeflippt's mouse_won says how the mouse was won (``by``: catch or flip); a stand-in's
    move is said beside its events (per event in a snapshot, per move in an update), never in
    them, so an event's own ``by`` keeps its meaning."""
    game = mauseloch.new_game("mausgeflippt", players=2, seed=4)
    seats = [SeatRow(seat=s, kind="human", name=f"P{s}", token_hash=f"h{s}") for s in range(2)]
    row = TableRow(id="t", game="mausgeflippt", title="", players=2, options=dict(game.options), seed=game.seed,
                   deck=list(game.deck), status="playing", created=now(), moves=[[0, "reveal"]], by=["stand-in"],
                   seats=seats)  # fmt: skip
    state = TableState.of(row, now=1.0)
    sent = json.loads(frames.snapshot(state, 0, 1.0))
    assert len(sent["by"]) == len(sent["events"]) == state.seq > 1
    assert sent["by"][0] is None and sent["by"][-1] == "stand-in"  # the deal, then the stand-in's reveal
    assert all("by" not in e or e["type"] == "mouse_won" for e in sent["events"])


def test_a_claim_that_waits_for_the_tables_turn_is_judged_by_its_arrival(make_client: AppFactory) -> None:
    """A claim that comes while the table is busy (a slow write ahead of it in the table's turn)
    counts from when it came, not from when the table got to it."""
    client = make_client(clock_scale=0.02)
    created = create_table(client, [HUMAN, HUMAN], game="mausgeflippt", clock="fast", options={"window_ms": 3000})
    table = created["table"]
    ben = join(client, table, "Ben")
    anna = seated(client, table, 0, created["token"])
    seated(client, table, 1, ben["token"])
    window = wait_window(anna)
    running = client.app.state.lobby.get(table)  # type: ignore[attr-defined]
    assert client.portal is not None

    def hold() -> None:  # as a write under way does: what comes now waits in the table's queue
        assert not running.busy
        running.busy = True

    client.portal.call(hold)
    react(anna, window, fitting(anna.view))
    time.sleep(HOLD_S)
    client.portal.call(running._end, None, None)  # the write is done: the queue steps on
    anna.until(lambda p: not p.view["window_open"])
    row = client.app.state.store.load_table(table)  # type: ignore[attr-defined]
    claim = next(c for e in row.referee.values() for c in e["claims"] if c["seat"] == 0)
    assert REACT_MS <= claim["at"] < REACT_MS + HOLD_S * 1000 / 2, claim
