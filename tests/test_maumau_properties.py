"""Properties of Mau-Mau over seeds, options and player counts (hypothesis).

Games are played at random through the public API; the checks hold after every move.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import mauseloch

ALL = frozenset(r + s for s in "CSHD" for r in "789TJQKA")
CARD = re.compile(r"\b[789TJQKA][CSHD]\b")
WORDS = ("draw", "pass", "take")

seeds = st.integers(min_value=0, max_value=2**53 - 1)
player_counts = st.integers(min_value=2, max_value=5)
option_sets = st.fixed_dictionaries(
    {
        "ace_skips": st.booleans(),
        "seven_draw_then_play": st.booleans(),
        "no_jack_on_jack": st.booleans(),
        "no_win_with_jack": st.booleans(),
    },
    optional={"move_limit": st.integers(min_value=1, max_value=300)},
)
EXAMPLES = 40


def new(seed: int, players: int, options: dict[str, Any]) -> mauseloch.Game:
    return mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)


def hands(g: mauseloch.Game) -> list[set[str]]:
    return [set(g.view(s)["hand"]) for s in range(g.players)]


def snapshot(g: mauseloch.Game) -> str:
    return json.dumps(
        [g.record(), g.events, [g.view(s) for s in [None, *range(g.players)]], g.to_move, g.is_over], sort_keys=True
    )


def games(seed: int, players: int, options: dict[str, Any], policy: int) -> Any:
    """Yield the game after every move (and once before the first) until it ends."""
    g = new(seed, players, options)
    rng = random.Random(policy)
    limit = g.record()["options"]["move_limit"]
    yield g
    for _ in range(limit):
        if g.is_over:
            return
        g.play(rng.choice(g.legal_moves()))
        yield g
    assert g.is_over, "not over after move_limit moves"


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_cards_are_conserved_and_hands_match_the_events(
    seed: int, players: int, options: dict[str, Any], policy: int
) -> None:
    for g in games(seed, players, options, policy):
        hs = hands(g)
        v = g.view(None)
        assert sum(len(h) for h in hs) == sum(v["hand_counts"])
        assert [len(h) for h in hs] == v["hand_counts"]
        assert len(set().union(*hs)) == sum(len(h) for h in hs), "a card in two hands"
        assert set().union(*hs) <= ALL
        assert v["top"] not in set().union(*hs)
        assert sum(len(h) for h in hs) + v["draw_pile"] + v["discard_pile"] == 32
        # the full event log explains every hand: dealt + drawn - played
        rebuilt: list[set[str]] = [set() for _ in range(players)]
        for e in g.events:
            if e["type"] in ("deal", "draw"):
                assert e["private"] == e["seat"]
                assert not rebuilt[e["seat"]] & set(e["cards"])
                rebuilt[e["seat"]] |= set(e["cards"])
            elif e["type"] == "play":
                rebuilt[e["seat"]].remove(e["card"])
        assert rebuilt == hs


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_views_show_no_hidden_card(seed: int, players: int, options: dict[str, Any], policy: int) -> None:
    discard: set[str] = set()  # cards face up on the discard pile, followed through public events
    seen = 0
    for g in games(seed, players, options, policy):
        evs = g.events
        for i in range(seen, len(evs)):
            e = evs[i]
            if e["type"] == "start":
                discard = {e["card"]}
            elif e["type"] == "play":
                discard.add(e["card"])
            elif e["type"] == "reshuffle":  # all but the top card went back face down
                discard = {last_play(evs[:i])}
        seen = len(evs)
        if g.is_over:
            break
        hs = hands(g)
        for viewer in [None, *range(players)]:
            own = hs[viewer] if viewer is not None else set()
            shown = set(CARD.findall(json.dumps(g.view(viewer))))
            hidden = ALL - own - discard  # other hands and the draw pile
            assert not shown & hidden, f"view({viewer}) shows {sorted(shown & hidden)}"
        # every redacted copy of a private event hides its cards
        for e in evs:
            if "private" in e:
                for s in [None, *range(players)]:
                    if s != e["private"]:
                        assert not set(CARD.findall(json.dumps(mauseloch.event_for(e, s)))) & set(e["cards"])


def last_play(evs: list[dict[str, Any]]) -> str:
    """The top card at a point of the log: the last card played, else the starter."""
    for e in reversed(evs):
        if e["type"] in ("play", "start"):
            return str(e["card"])
    raise AssertionError("no starter in the log")


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_every_listed_move_plays(seed: int, players: int, options: dict[str, Any], policy: int) -> None:
    rng = random.Random(policy + 1)
    for g in games(seed, players, options, policy):
        if g.is_over:
            assert g.legal_moves() == []
            break
        moves = g.legal_moves()
        assert moves and len(moves) == len(set(moves))
        assert g.view(g.to_move)["legal_moves"] == moves
        if rng.random() < 0.2:  # a sample of positions: every move, from a fresh copy
            rec = g.record()
            for move in moves:
                copy = mauseloch.replay(rec)
                copy.play(move)
                assert copy.record()["moves"][-1] == [g.to_move, move]


@settings(max_examples=EXAMPLES)
@given(
    seed=seeds,
    players=player_counts,
    options=option_sets,
    policy=st.integers(0, 2**32),
    junk=st.lists(st.text(max_size=8), min_size=1, max_size=6),
)
def test_other_strings_and_other_seats_are_refused_and_change_nothing(
    seed: int, players: int, options: dict[str, Any], policy: int, junk: list[str]
) -> None:
    rng = random.Random(policy + 2)
    for g in games(seed, players, options, policy):
        if rng.random() > 0.25 and not g.is_over:
            continue
        before = snapshot(g)
        legal_now = set(g.legal_moves())
        canon = {m.lower() if m.lower() in WORDS else m.upper() for m in legal_now}
        tries: list[tuple[str, int | None]] = [(j, None) for j in junk if j.strip().lower() not in canon
                                               and j.strip().upper() not in canon]  # fmt: skip
        tries += [(c, None) for c in sorted(ALL) if c not in legal_now]
        if g.to_move is not None:
            tries += [(m, s) for m in legal_now for s in range(players) if s != g.to_move]
        for move, seat in tries:
            try:
                g.play(move, seat=seat)
            except mauseloch.IllegalMove:
                pass
            else:
                raise AssertionError(f"{move!r} (seat {seat}) was accepted; legal: {sorted(legal_now)}")
        assert snapshot(g) == before


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_replay_equals_the_game_and_every_game_ends(
    seed: int, players: int, options: dict[str, Any], policy: int
) -> None:
    g = None
    for i, g in enumerate(games(seed, players, options, policy)):
        if i % 25 == 0:
            again = mauseloch.replay(json.loads(json.dumps(g.record())))
            assert snapshot(again) == snapshot(g)
    assert g is not None and g.is_over
    rec = g.record()
    assert len(rec["moves"]) <= rec["options"]["move_limit"]
    res = g.result()
    if res["reason"] == "move_limit":
        assert len(rec["moves"]) == rec["options"]["move_limit"]
        assert all(c > 0 for c in res["cards"])
    else:
        assert res["reason"] == "out"
        assert res["cards"].count(0) == 1 and res["ranks"][res["cards"].index(0)] == 1
    again = mauseloch.replay(rec)
    assert again.events == g.events and again.result() == res and snapshot(again) == snapshot(g)
