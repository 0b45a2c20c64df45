"""Secrets stay on the server: no frame a seat or a spectator receives names a card another seat holds."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

import mauseloch

from .helpers import HUMAN, Player, create_table, join, play_out, seated

OWN_VIEW_KEYS = ("hand", "legal_moves", "drawn")  # a seat's own cards, in its own view only


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield from value.split(":")  # "JC:S" names the jack JC
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def hands_by_version(record: dict[str, Any]) -> list[list[set[str]]]:
    """Each seat's hand after every version of the game, straight from the engine."""
    game = mauseloch.new_game(
        record["game"], players=record["players"], seed=record["seed"], options=record["options"], deck=record["deck"]
    )
    hands = [[set(game.view(s)["hand"]) for s in range(game.players)]]
    for seat, move in record["moves"]:
        game.play(move, seat=seat)
        hands.append([set(game.view(s)["hand"]) for s in range(game.players)])
    return hands


def check_frames(player: Player, seat: int | None, hands: list[list[set[str]]], tokens: list[str]) -> int:
    """Assert the secrets rule on every frame ``player`` received; returns how many cards were hidden."""
    hidden_checked = 0
    for raw, frame in zip(player.raw, player.frames, strict=True):
        for token in tokens:
            assert token not in raw
        if frame["type"] not in ("snapshot", "update"):
            continue
        for event in frame["events"]:
            cards = event.get("cards")
            if isinstance(cards, list) and any(isinstance(c, str) for c in cards):
                assert event.get("private") == seat, (seat, event)  # a hidden part reaches only its owner
        if frame["view"]["is_over"]:
            continue  # the end screen shows every hand
        others = set().union(*(h for s, h in enumerate(hands[frame["version"]]) if s != seat))
        view = {k: v for k, v in frame["view"].items() if k not in OWN_VIEW_KEYS or seat is None}
        if seat is None:
            assert not any(k in frame["view"] for k in OWN_VIEW_KEYS)
        visible = set(strings(view))
        if frame["type"] == "update":  # a snapshot's event history may name cards played long ago
            visible |= set(strings([e for e in frame["events"] if e.get("private") != seat or seat is None]))
        leaked = visible & others
        assert not leaked, (seat, frame["version"], leaked)
        hidden_checked += len(others)
    return hidden_checked


@pytest.mark.parametrize("seed", [7, 12, 13])  # games with a reshuffle
def test_no_hidden_card_reaches_an_opponent_or_a_spectator(
    client: TestClient, seeds: Callable[[int], None], seed: int
) -> None:
    seeds(seed)
    created = create_table(client, [HUMAN, HUMAN, HUMAN], options={"move_limit": 300})
    table = created["table"]
    ben, cleo = join(client, table, "Ben"), join(client, table, "Cleo")
    tokens = [created["token"], ben["token"], cleo["token"]]
    watcher = Player(client, table)
    watcher.hello()
    players = [seated(client, table, s, tokens[s]) for s in range(3)]
    play_out(players, random.Random(seed), (watcher,))
    # reconnect mid-history and at the end: snapshots obey the rule too
    late = Player(client, table)
    late.hello()
    running = client.app.state.tables.get(table)  # type: ignore[attr-defined]
    record = running.state.game.record()
    assert len(record["moves"]) > 20 and any(e["type"] == "reshuffle" for e in running.state.game.events)
    hands = hands_by_version(record)
    assert check_frames(watcher, None, hands, tokens) > 0
    assert check_frames(late, None, hands, tokens) == 0  # only the end: every hand shows
    for seat, player in enumerate(players):
        assert check_frames(player, seat, hands, [t for s, t in enumerate(tokens) if s != seat]) > 0
        own = [set(strings(f["view"]["hand"])) for f in player.frames if f["type"] in ("snapshot", "update")]
        assert any(own)  # the walk does see cards: a seat's own hand reaches it


def test_private_events_are_redacted_for_others(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table = created["table"]
    ben = join(client, table, "Ben")
    anna = seated(client, table, 0, created["token"])
    bens = seated(client, table, 1, ben["token"])
    watcher = Player(client, table)
    snap = watcher.hello()
    deals = [e for e in snap["events"] if e["type"] == "deal"]
    assert len(deals) == 2 and all("cards" not in e and "private" not in e and e["count"] == 5 for e in deals)
    own = [e for e in anna.frames[0]["events"] if e["type"] == "deal" and "cards" in e]
    assert [e["seat"] for e in own] == [0] and sorted(own[0]["cards"]) == sorted(anna.view["hand"])
    assert bens.frames[0]["view"]["hand_counts"] == [5, 5]
