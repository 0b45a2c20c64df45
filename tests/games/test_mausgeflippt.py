"""Mausgeflippt: rules MG-1..MG-9 with hand-built decks, the spec vectors, bad input, hidden
information, simulated games and their replay, and the reaction bots."""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

import mauseloch
from mauseloch import IllegalMove, event_for
from mauseloch.bots import bot_kinds, make_bot
from mauseloch.games.mausgeflippt import CHEESES, CLOTHING_DECK, FULL_DECK, MICE, MOUSE_WEARS, fits
from mauseloch.games.mausgeflippt.bots.reaction import LEVELS, ReactionBot
from mauseloch.games.mausgeflippt.views import MausgeflipptView, ShownMouse
from mauseloch.study.simulate import GameStats, game_runner
from tests.paths import VECTORS as SPEC_VECTORS

GAME = "mausgeflippt"
VECTORS = SPEC_VECTORS / "mausgeflippt.jsonl"


def play_game(kinds: list[str], seed: int, options: dict[str, Any] | None = None) -> tuple[Any, GameStats]:
    """One whole simulated game as ``mauseloch simulate`` plays it: the game and its figures."""
    return game_runner(GAME)(kinds, seed, options or {})


def make_deck(
    players: int,
    hand_size: int,
    hands: list[list[str]],
    draw: list[str] | None = None,
    mice: list[str] | None = None,
    cheeses: list[str] | None = None,
) -> list[str]:
    """A full deck whose deal gives ``hands`` (hands[s][k] is seat s's k-th card), whose draw pile
    starts with ``draw``, whose mouse pile starts with ``mice`` and cheese pile with ``cheeses``;
    everything else fills up in the canonical order."""
    rest = Counter(CLOTHING_DECK)
    for card in [c for h in hands for c in h] + (draw or []):
        rest[card] -= 1
        assert rest[card] >= 0, f"too many {card}"
    filler = []
    for card in CLOTHING_DECK:
        if rest[card] > 0:
            filler.append(card)
            rest[card] -= 1
    fill = iter(filler)
    full_hands = [list(h) + [next(fill) for _ in range(hand_size - len(h))] for h in hands]
    dealt = [full_hands[i % players][i // players] for i in range(players * hand_size)]
    clothing = dealt + list(draw or []) + list(fill)
    assert len(clothing) == 58
    mice = list(mice or [])
    cheeses = list(cheeses or [])
    return clothing + mice + [m for m in MICE if m not in mice] + cheeses + [c for c in CHEESES if c not in cheeses]


def new(players: int = 2, hand_size: int = 3, **kw: Any) -> Any:
    hands = kw.pop("hands", [[] for _ in range(players)])
    deck = make_deck(players, hand_size, hands, **kw)
    return mauseloch.new_game(GAME, players=players, seed=5, options={"hand_size": hand_size}, deck=deck)


def snapshot(g: Any) -> str:
    return json.dumps(
        [g.record(), g.events, [g.view(s) for s in range(g.players)], g.to_move, g.is_over], sort_keys=True
    )


# m07 wears blazer-blue tie-blue trousers-blue and carries brie; m01: belt-brown blazer-blue dress-red, emmental.
NO_FIT_M07 = ["cap-red", "ring-green", "bag-brown"]


# ------------------------------------------------------------------------------ MG-1, MG-2
def test_mg1_players_and_first_revealer() -> None:
    for n in range(2, 7):
        g = mauseloch.new_game(GAME, players=n, seed=1)
        assert g.to_move == 0 and g.legal_moves() == ["reveal"]
        assert all(g.legal_moves(s) == [] for s in range(1, n))
    for bad in (1, 7):
        with pytest.raises(ValueError, match="2 to 6"):
            mauseloch.new_game(GAME, players=bad, seed=1)


def test_mg2_deal_from_deck_and_open_cheese() -> None:
    g = new(
        3,
        2,
        hands=[["tie-blue", "cap-red"], ["ring-green", "ring-green"], ["dress-red", "bag-brown"]],
        draw=["shoes-blue", "belt-green"],
        mice=["m07"],
        cheeses=["gouda"],
    )
    assert g.deck[:6] == ("tie-blue", "ring-green", "dress-red", "cap-red", "ring-green", "bag-brown")
    assert g.hand(0) == ["tie-blue", "cap-red"]
    assert g.hand(1) == ["ring-green", "ring-green"]
    v = g.view(None)
    assert v["open_cheese"] == "gouda" and v["cheeses_left"] == 9
    assert v["draw_pile"] == 58 - 6 and v["mouse_pile"] == 32
    g.play("reveal")
    assert g.view(None)["mouse"]["mouse"] == "m07"
    assert g.events[-1] == {
        "type": "reveal",
        "seat": 0,
        "mouse": "m07",
        "wears": list(MOUSE_WEARS[6]),
        "cheese": "brie",
        "protected": False,
    }


def test_mg2_seeded_deal_and_given_deck_play_alike() -> None:
    a = mauseloch.new_game(GAME, players=4, seed=123)
    b = mauseloch.new_game(GAME, players=4, seed=123)
    assert a.deck == b.deck and sorted(a.deck) == sorted(FULL_DECK)
    assert a.deck[:58] != tuple(CLOTHING_DECK) and a.deck[58:90] != tuple(MICE)
    assert mauseloch.new_game(GAME, players=4, seed=124).deck != a.deck
    # a game with reshuffles replays from (seed, deck) because reshuffles use their own stream
    game, _ = play_game(["hard", "easy"], seed=9, options={"hand_size": 20})
    assert any(e["type"] == "reshuffle" for e in game.events)
    again = mauseloch.replay(game.record())
    assert again.events == game.events and again.result() == game.result()


def test_mg2_deck_must_be_in_parts() -> None:
    deck = list(FULL_DECK)
    deck[0], deck[60] = deck[60], deck[0]  # a mouse among the clothing
    with pytest.raises(ValueError, match="58 clothing cards, then 32 mice, then 9 cheeses"):
        mauseloch.new_game(GAME, players=2, deck=deck)
    with pytest.raises(ValueError, match="exactly 99"):
        mauseloch.new_game(GAME, players=2, deck=list(FULL_DECK)[:-1])
    with pytest.raises(ValueError, match="not a Mausgeflippt card"):
        mauseloch.new_game(GAME, players=2, deck=["sock-pink", *FULL_DECK[1:]])
    g = mauseloch.new_game(GAME, players=2, deck=[" " + c.upper() + " " for c in FULL_DECK])
    assert g.deck == tuple(FULL_DECK)


# ------------------------------------------------------------------------------ MG-3
def test_mg3_catch_fitting_card() -> None:
    g = new(2, 3, hands=[["tie-blue", "cap-red", "ring-green"], []], draw=["shoes-blue"], mice=["m07"])
    g.play("reveal")
    assert g.to_move is None
    assert sorted(g.legal_moves(0)) == ["catch cap-red", "catch ring-green", "catch tie-blue", "flip", "timeout"]
    assert g.legal_moves() == []
    g.play("catch tie-blue", seat=0, ms=812)
    assert g.mice == [1, 0]
    assert sorted(g.hand(0)) == ["cap-red", "ring-green", "shoes-blue"]
    v = g.view(0)
    assert v["discard_top"] == "tie-blue" and v["discard_pile"] == 1 and v["mouse_pile"] == 31
    assert v["laundry"] == [[], []]
    assert g.record()["moves"] == [[0, "reveal"], [0, "catch tie-blue", 812]]
    kinds = [e["type"] for e in g.events]
    assert kinds[-5:] == ["reaction", "catch", "mouse_won", "draw", "revealer"]
    assert g.events[-5]["ms"] == 812
    draw = g.events[-2]
    assert draw["cards"] == ["shoes-blue"] and draw["private"] == 0
    assert event_for(draw, 1) == {"type": "draw", "seat": 0, "count": 1, "wanted": 1}


def test_mg3_wrong_card_is_laundry_and_mouse_goes_under() -> None:
    g = new(2, 3, hands=[[], ["cap-red", "cap-red", "ring-green"]], draw=["dress-red"], mice=["m07", "m01"])
    g.play("reveal")
    g.play("catch cap-red", seat=1)
    assert g.mice == [0, 0]
    assert g.view(None)["laundry"] == [[], ["cap-red"]]
    assert sorted(g.hand(1)) == ["cap-red", "dress-red", "ring-green"]
    assert g.to_move == 1  # MG-6: the reacting player reveals next
    assert g.view(None)["mouse_pile"] == 32
    kinds = [e["type"] for e in g.events]
    assert kinds[-6:] == ["reaction", "wrong_card", "laundry", "mouse_under", "draw", "revealer"]
    g.play("reveal", seat=1)
    assert g.view(None)["mouse"]["mouse"] == "m01"  # m07 went under the pile


# ------------------------------------------------------------------------------ MG-4
def test_mg4_flip_right_takes_the_mouse_and_keeps_the_hand() -> None:
    g = new(2, 3, hands=[[], NO_FIT_M07], mice=["m07"])
    g.play("reveal")
    g.play("flip", seat=1, ms=2000)
    assert g.mice == [0, 1]
    assert sorted(g.hand(1)) == sorted(NO_FIT_M07)
    flip = next(e for e in g.events if e["type"] == "mausgeflippt")
    assert flip["correct"] is True and flip["fitting"] == []
    assert not any(e["type"] == "draw" and e["seat"] == 1 for e in g.events[4:])


def test_mg4_flip_wrong_washes_every_fitting_card() -> None:
    g = new(
        2,
        4,
        hands=[["tie-blue", "tie-blue", "trousers-blue", "cap-red"], []],
        draw=["ring-green", "bag-brown", "belt-green", "shirt-blue"],
        mice=["m07"],
    )
    g.play("reveal")
    g.play("flip", seat=0)
    assert g.mice == [0, 0]
    assert sorted(g.view(None)["laundry"][0]) == ["tie-blue", "tie-blue", "trousers-blue"]
    assert sorted(g.hand(0)) == ["bag-brown", "belt-green", "cap-red", "ring-green"]
    assert g.view(None)["mouse_pile"] == 32 and g.to_move == 0


def test_mg4_flip_needs_a_card() -> None:
    # 2 players x 29 cards: the draw pile is empty; a wrong flip of the whole hand leaves nothing
    hand = ["blazer-blue"] * 2 + ["tie-blue"] * 2 + ["trousers-blue"] * 3
    g = new(2, 29, hands=[hand + [c for c in CLOTHING_DECK if c not in MOUSE_WEARS[6]][:22], []], mice=["m07"])
    assert g.view(None)["draw_pile"] == 0
    g.play("reveal")
    g.play("flip", seat=0)
    assert len(g.hand(0)) == 22  # seven fitting cards washed, nothing to draw, discard empty
    draw = g.events[-2]
    assert draw["type"] == "draw" and draw["count"] == 0 and draw["wanted"] == 7


def test_mg4_empty_hand_cannot_flip() -> None:
    # all clothing is dealt (2 x 29) and wrong reactions only feed the laundry, so seat 0's hand
    # empties; the mice with the open cheese (roquefort) lie at the bottom and never come up
    last = [m for m in MICE if _cheese_of(m) == "roquefort"]
    g = new(2, 29, mice=[m for m in MICE if m not in last], cheeses=["roquefort"])
    while g.hand(0):
        g.play("reveal", seat=0)
        mouse = g.view(None)["mouse"]
        assert not mouse["protected"]
        wrong = [c for c in g.hand(0) if c not in mouse["wears"]]
        g.play(f"catch {wrong[0]}" if wrong else "flip", seat=0)
    assert len(g.view(None)["laundry"][0]) == 29 and g.mice == [0, 0]
    g.play("reveal", seat=0)
    assert g.legal_moves(0) == ["timeout"]
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="holds no cards"):
        g.play("flip", seat=0)
    assert snapshot(g) == before


# ------------------------------------------------------------------------------ MG-5
def test_mg5_protected_catch_takes_cheese_and_discards() -> None:
    g = new(2, 2, hands=[["tie-blue", "cap-red"], []], draw=["ring-green"], mice=["m07"], cheeses=["brie", "gouda"])
    g.play("reveal")
    assert g.view(None)["mouse"]["protected"] is True
    g.play("catch tie-blue", seat=0)
    v = g.view(0)
    assert g.mice == [0, 0] and v["cheese"] == [["brie"], []]
    assert v["laundry"] == [[], []] and v["discard_top"] == "tie-blue"
    assert sorted(v["hand"]) == ["cap-red", "ring-green"]
    assert v["open_cheese"] == "gouda" and v["cheeses_left"] == 8 and v["mouse_pile"] == 32
    assert v["score"] == [-2, 0]
    kinds = [e["type"] for e in g.events]
    assert kinds[-7:] == [
        "reaction", "protected_catch", "cheese_taken", "mouse_under", "draw", "cheese_open", "revealer",
    ]  # fmt: skip


def test_mg5_protected_flip_washes_fitting_and_draws_back() -> None:
    g = new(
        2, 3, hands=[[], ["tie-blue", "cap-red", "ring-green"]], draw=["bag-brown", "shoes-blue"], mice=["m07"],
        cheeses=["brie"],
    )  # fmt: skip
    g.play("reveal")
    g.play("flip", seat=1)
    assert g.view(None)["laundry"] == [[], ["tie-blue"]]
    assert sorted(g.hand(1)) == ["bag-brown", "cap-red", "ring-green"]
    assert g.view(None)["cheese"] == [[], ["brie"]]
    flip = next(e for e in g.events if e["type"] == "mausgeflippt")
    assert flip["protected"] is True and flip["correct"] is False


def test_mg5_last_cheese_ends_the_game() -> None:
    # every cheese protects its mouse in turn: put the mouse with the open cheese on top each time
    order_cheese = ["brie", "emmental", "gouda", "camembert", "cheddar", "edam", "tilsiter", "parmesan", "roquefort"]
    first_mouse = {c: next(m for m in MICE if _cheese_of(m) == c) for c in order_cheese}
    mice = [first_mouse[c] for c in order_cheese]
    g = new(2, 3, mice=mice, cheeses=order_cheese)
    for i in range(9):
        assert not g.is_over
        g.play("reveal")
        assert g.view(None)["mouse"]["protected"] is True
        g.play("flip", seat=i % 2)
    assert g.is_over and g.result()["reason"] == "cheese"
    assert g.result()["cheese"] == [5, 4]
    assert g.events[-1]["type"] == "end"
    assert [e["type"] for e in g.events].count("cheese_open") == 9  # the first and eight more, none after the last


def _cheese_of(mouse: str) -> str:
    from mauseloch.games.mausgeflippt import MOUSE_CHEESE, MOUSE_ID

    return CHEESES[MOUSE_CHEESE[MOUSE_ID[mouse]]]


# ------------------------------------------------------------------------------ MG-6
def test_mg6_timeout_passes_the_reveal_on() -> None:
    g = new(3, 2, mice=["m07", "m01"])
    g.play("reveal")
    assert "timeout" in g.legal_moves(2)
    g.play("timeout", ms=6000)  # no seat: recorded under the revealer
    assert g.record()["moves"][-1] == [0, "timeout", 6000]
    assert g.to_move == 1 and g.view(None)["timeouts_in_row"] == 1
    g.play("reveal", seat=1)
    assert g.view(None)["mouse"]["mouse"] == "m01"
    g.play("timeout", seat=2)
    assert g.to_move == 2 and g.record()["moves"][-1] == [2, "timeout"]
    g.play("reveal")
    g.play("timeout")
    assert g.to_move == 0  # wraps clockwise
    ev = [e for e in g.events if e["type"] == "timeout"]
    assert [e["seat"] for e in ev] == [0, 1, 2]


# ------------------------------------------------------------------------------ MG-7
def test_mg7_reshuffle_when_the_draw_pile_is_empty() -> None:
    hand0 = ["tie-blue", *[c for c in CLOTHING_DECK if c not in MOUSE_WEARS[6]][:28]]
    g = new(2, 29, hands=[hand0, []], mice=["m07", "m01"], cheeses=["roquefort"])
    assert g.view(None)["draw_pile"] == 0
    g.play("reveal")
    g.play("catch tie-blue", seat=0)
    # the caught card went to the discard pile first, then came back through the reshuffle
    kinds = [e["type"] for e in g.events]
    assert kinds[-4:] == ["mouse_won", "reshuffle", "draw", "revealer"]
    assert g.events[-2]["cards"] == ["tie-blue"] and g.view(None)["discard_pile"] == 0
    # a wrong card: laundry, discard empty, nothing to draw (fewer cards)
    g.play("reveal")  # m01: belt-brown blazer-blue dress-red
    wrong = next(c for c in g.hand(1) if not fits(c, "m01"))
    g.play(f"catch {wrong}", seat=1)
    assert g.view(None)["hand_counts"] == [29, 28]
    draw = g.events[-2]
    assert draw["type"] == "draw" and draw["count"] == 0 and draw["wanted"] == 1


# ------------------------------------------------------------------------------ MG-8
def test_mg8_last_mouse_ends_the_game() -> None:
    g = mauseloch.new_game(GAME, players=2, seed=8, options={"hand_size": 1})
    while not g.is_over:
        if g.to_move is not None:
            g.play("reveal")
            continue
        seat = 0 if g.view(0)["hand"] else 1
        if g.view(None)["mouse"]["protected"]:
            g.play("flip", seat=1)  # take the cheese so that the protection moves on
        else:
            mouse = g.view(None)["mouse"]
            hand = g.view(seat)["hand"]
            catch = [c for c in hand if c in mouse["wears"]]
            g.play(f"catch {catch[0]}" if catch else "flip", seat=seat)
    res = g.result()
    assert res["reason"] == "mice" and sum(res["mice"]) == 32 and g.view(None)["mouse_pile"] == 0
    assert g.legal_moves(0) == [] and g.to_move is None


def test_mg8_timeouts_in_a_row_end_the_game() -> None:
    g = new(2, 3, hands=[[], NO_FIT_M07], mice=["m07"])
    g.play("reveal")
    g.play("flip", seat=1)  # 31 mice left
    for i in range(30):
        g.play("reveal")
        g.play("timeout")
        assert not g.is_over, i
    g.play("reveal")
    g.play("catch " + g.hand(0)[0], seat=0)  # any reaction restarts the count
    assert g.view(None)["timeouts_in_row"] == 0 and not g.is_over
    left = g.view(None)["mouse_pile"]
    for _ in range(left - 1):
        g.play("reveal")
        g.play("timeout")
    assert not g.is_over
    g.play("reveal")
    g.play("timeout")
    assert g.is_over and g.result()["reason"] == "mice"
    assert g.events[-1]["type"] == "end" and g.events[-1]["reason"] == "mice"


# ------------------------------------------------------------------------------ MG-9
def test_mg9_score_and_ranking() -> None:
    g = mauseloch.new_game(GAME, players=4, seed=1)
    g.mice[:] = [5, 3, 4, 3]
    g.laundry[:] = [["tie-blue", "cap-red"], [], ["cap-red"], []]
    g.cheese[:] = [["brie"], [], [], []]
    g._finish("mice")
    res = g.result()
    assert res["score"] == [1, 3, 3, 3]
    assert res["ranks"] == [4, 2, 1, 2]  # 3 points each: seat 2 has more mice; 1 and 3 share rank 2
    assert res["laundry"] == [2, 0, 1, 0] and res["cheese"] == [1, 0, 0, 0]
    assert g.events[-1] == {"type": "end", **res}


# ------------------------------------------------------------------------------ vectors
def _vectors() -> list[dict[str, Any]]:
    return [json.loads(line) for line in VECTORS.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("index", range(len(_vectors())))
def test_vector(index: int) -> None:
    v = _vectors()[index]
    g = mauseloch.new_game(GAME, players=v["players"], options=v["options"], deck=v["deck"])
    for step in v["steps"]:
        assert sorted(g.legal_moves(step["seat"])) == step["legal"]
        g.play(step["move"], seat=step["seat"])
    assert g.is_over
    res = g.result()
    for key, want in v["result"].items():
        assert res[key] == want, key
    again = mauseloch.replay(g.record())
    assert again.events == g.events


# ------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    ("players", "options", "match"),
    [
        (2, {"hand_size": 0}, "at least 1"),
        (2, {"hand_size": 30}, "at most 58"),
        (6, {"hand_size": 10}, "at most 58"),
        (2, {"hand_size": True}, "whole number"),
        (2, {"window_ms": 99}, "at least 100"),
        (2, {"window_ms": 1.5}, "whole number"),
        (2, {"speed": 3}, "unknown option"),
    ],
)
def test_bad_options(players: int, options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        mauseloch.new_game(GAME, players=players, seed=1, options=options)


def test_options_edges_and_record_defaults() -> None:
    g = mauseloch.new_game(GAME, players=2, seed=1, options={"hand_size": 29, "window_ms": 100})
    assert g.view(None)["draw_pile"] == 0
    g = mauseloch.new_game(GAME, players=3, seed=1)
    assert g.record()["options"] == {"hand_size": 7, "window_ms": 6000}


@pytest.mark.parametrize(
    ("window", "move", "kw", "match"),
    [
        (False, "catch tie-blue", {"seat": 0}, "must reveal first"),
        (False, "dance", {}, "not a move"),
        (False, "reveal", {"seat": 1}, "seat 0's turn to reveal"),
        (False, "reveal", {"ms": 5}, "only allowed on reactions"),
        (False, "reveal", {"seat": 2}, "seat must be a number from 0 to 1"),
        (False, "reveal", {"seat": False}, "seat must be a number from 0 to 1"),
        (False, 7, {}, "must be a string"),
        (True, "catch tie-blue", {}, "names its seat"),
        (True, "catch sock-pink", {"seat": 0}, "not a clothing card"),
        (True, "catch shoes-blue", {"seat": 0}, "does not hold shoes-blue"),
        (True, "reveal", {"seat": 0}, "already shown"),
        (True, "dance", {"seat": 0}, "not a move"),
        (True, "flip", {"seat": 0, "ms": -1}, "≥ 0"),
        (True, "flip", {"seat": 0, "ms": True}, "≥ 0"),
        (True, "flip", {"seat": 0, "ms": 1.5}, "≥ 0"),
        (True, "flip", {"seat": True}, "seat must be a number"),
        (True, "flip", {"seat": -1}, "seat must be a number"),
    ],
)
def test_illegal_moves_leave_the_game_unchanged(window: bool, move: Any, kw: dict[str, Any], match: str) -> None:
    g = new(2, 3, hands=[["tie-blue", "cap-red", "ring-green"], []], mice=["m07"])
    if window:
        g.play("reveal")
    before = snapshot(g)
    with pytest.raises(IllegalMove, match=match):
        g.play(move, **kw)
    assert snapshot(g) == before


def test_game_over_refuses_moves() -> None:
    game, _ = play_game(["hard", "hard"], seed=4)
    before = snapshot(game)
    for move, kw in (("reveal", {}), ("timeout", {}), ("flip", {"seat": 0})):
        with pytest.raises(IllegalMove, match="game is over"):
            game.play(move, **kw)
    assert snapshot(game) == before
    assert game.legal_moves() == [] and game.legal_moves(1) == []


def test_moves_are_case_insensitive_and_trimmed() -> None:
    g = new(2, 3, hands=[["tie-blue", "cap-red", "ring-green"], []], mice=["m07"])
    g.play("  REVEAL ")
    g.play("  Catch   Tie-Blue ", seat=0, ms=0)
    assert g.record()["moves"] == [[0, "reveal"], [0, "catch tie-blue", 0]]


def test_result_only_at_the_end() -> None:
    g = mauseloch.new_game(GAME, players=2, seed=1)
    with pytest.raises(ValueError, match="not over"):
        g.result()


# ------------------------------------------------------------------------------ hidden information
PRIVATE_KEYS = {"hand", "legal_moves", "seat"}


def test_views_hide_other_hands_and_pile_order() -> None:
    game, _ = play_game(["normal", "easy", "hard"], seed=11)
    record = game.record()
    g = mauseloch.new_game(GAME, players=3, seed=record["seed"], deck=record["deck"])
    checked = 0
    for seat, move, *ms in record["moves"]:
        spectator = g.view(None)
        for key in ("draw_pile", "discard_pile", "mouse_pile", "cheeses_left"):
            assert isinstance(spectator[key], int)
        assert "hand" not in spectator and "hands" not in spectator
        for s in range(3):
            v = g.view(s)
            assert v["hand"] == g.hand(s)
            public = {k: x for k, x in v.items() if k not in PRIVATE_KEYS}
            assert public == {k: x for k, x in spectator.items() if k not in PRIVATE_KEYS}
            checked += 1
        g.play(move, seat=seat, ms=ms[0] if ms else None)
    assert checked > 100
    assert "hands" in g.view(None)  # the end screen shows what was left
    for event in g.events:
        for s in (None, 0, 1, 2):
            visible = event_for(event, s)
            assert visible is not None
            if event.get("private") not in (None, s):
                assert "cards" not in visible
    for event in g.events:
        assert not ("private" not in event and event["type"] in ("draw", "deal"))


# ------------------------------------------------------------------------------ simulation
def test_simulated_game_replays_and_records_reaction_times() -> None:
    game, stats = play_game(["easy", "normal", "hard", "normal"], seed=2024)
    record = json.loads(json.dumps(game.record()))
    again = mauseloch.replay(record)
    assert again.result() == game.result() and again.events == game.events
    moves = record["moves"]
    reactions = [m for m in moves if m[1] != "reveal"]
    assert reactions and all(len(m) == 3 and isinstance(m[2], int) and m[2] >= 0 for m in reactions)
    assert all(len(m) == 2 for m in moves if m[1] == "reveal")
    figures = stats.figures
    assert figures["score"] == game.result()["score"]
    assert [a + b for a, b in zip(figures["mice_catch"], figures["mice_flip"], strict=True)] == figures["mice"]
    assert figures["reveals"] == sum(1 for m in moves if m[1] == "reveal")
    # deterministic from the simulator's seed
    game2, stats2 = play_game(["easy", "normal", "hard", "normal"], seed=2024)
    assert game2.record() == game.record() and stats2 == stats


def test_simulation_ties_use_the_simulators_generator() -> None:
    # random bots react at once (ms 0): every reaction is a tie, broken by the simulator's stream
    a, _ = play_game(["random"] * 3, seed=1)
    b, _ = play_game(["random"] * 3, seed=1)
    assert a.record() == b.record()
    seats = {m[0] for m in a.record()["moves"] if m[1] not in ("reveal", "timeout")}
    assert len(seats) > 1


# ------------------------------------------------------------------------------ reaction bots
def test_levels_are_registered() -> None:
    kinds = bot_kinds(GAME)
    assert {"easy", "normal", "hard"} <= set(kinds)
    assert make_bot(GAME, "Hard", seed=1).kind == "hard"
    assert "easy" not in bot_kinds("mau-mau")


@functools.cache
def _open_window() -> MausgeflipptView:
    g = new(2, 7, hands=[["cap-red"], []], mice=["m07"])
    g.play("reveal")
    return g.typed_view(0)


def _window_view(hand: list[str], mouse: str | None, protected: bool = False) -> MausgeflipptView:
    """Seat 0's view struct of an open window with ``hand`` and the shown ``mouse`` (None: none
    shown), built as the engine builds it and then given that hand and mouse."""
    from mauseloch.games.mausgeflippt import MOUSE_ID

    shown = None
    if mouse is not None:
        wears = list(MOUSE_WEARS[MOUSE_ID[mouse]])
        shown = ShownMouse(mouse=mouse, wears=wears, cheese="brie", protected=protected)
    return msgspec.structs.replace(_open_window(), hand=hand, mouse=shown)


def _legal(hand: list[str]) -> list[str]:
    return [f"catch {c}" for c in dict.fromkeys(hand)] + (["flip"] if hand else []) + ["timeout"]


def test_reaction_bot_uses_only_its_view_and_its_seed() -> None:
    hand = ["tie-blue", "cap-red", "ring-green", "bag-brown", "shoes-blue", "belt-green", "dress-yellow"]
    view = _window_view(hand, "m07", False)  # a view struct alone: no game object within reach
    a = [ReactionBot(LEVELS["normal"], seed=7).react(view, _legal(hand)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    bot1, bot2 = ReactionBot(LEVELS["normal"], seed=7), ReactionBot(LEVELS["normal"], seed=7)
    assert [bot1.react(view, _legal(hand)) for _ in range(50)] == [bot2.react(view, _legal(hand)) for _ in range(50)]
    # inside a game, the answer depends only on the view: same view, same seed, same answer
    game = new(2, 7, hands=[hand, []], mice=["m07"])
    game.play("reveal")
    v = game.typed_view(0)
    wire = msgspec.json.decode(msgspec.json.encode(v), type=MausgeflipptView)  # as a bot over the wire gets it
    assert ReactionBot(LEVELS["hard"], 3).react(v, game.legal_moves(0)) == ReactionBot(LEVELS["hard"], 3).react(
        wire, game.legal_moves(0)
    )
    with pytest.raises(ValueError):
        ReactionBot(LEVELS["hard"], 3).choose(v, [])


def test_reaction_bot_model_orders_levels_and_makes_errors() -> None:
    hand = ["tie-blue", "cap-red", "ring-green", "bag-brown", "shoes-blue", "belt-green", "dress-yellow"]
    legal = _legal(hand)
    medians = {}
    for name, level in LEVELS.items():
        bot = ReactionBot(level, seed=99)
        answers = [bot.react(_window_view(hand, "m07", False), legal) for _ in range(2000)]
        assert all(move in legal for move, _ in answers)
        times = sorted(ms for _, ms in answers)
        medians[name] = times[len(times) // 2]
        wrong = sum(1 for m, _ in answers if m != "catch tie-blue")
        assert 0 < wrong < 2000 * (level.p_wrong_card + level.p_flip_when_fits + 0.05)
        protected = [bot.react(_window_view(hand, "m07", True), legal)[0] for _ in range(2000)]
        reacted = sum(1 for m in protected if m is not None)
        assert 0 < reacted < 2000 * (level.p_protected + 0.05)
        # a hand with no fitting card: the right answer is flip
        nofit = [c for c in hand if c != "tie-blue"]
        flips = [bot.react(_window_view(nofit, "m07", False), _legal(nofit))[0] for _ in range(500)]
        assert flips.count("flip") > 400
    assert medians["hard"] < medians["normal"] < medians["easy"] < medians["child"] < medians["little"]
    # scanning a bigger hand takes longer
    small = ReactionBot(LEVELS["normal"], seed=5)
    big = ReactionBot(LEVELS["normal"], seed=5)
    nofit_small = ["cap-red"]
    nofit_big = ["cap-red", "ring-green", "bag-brown", "shoes-blue", "belt-green", "dress-yellow", "shirt-blue"]
    t_small = sorted(small.react(_window_view(nofit_small, "m07", False), _legal(nofit_small))[1] for _ in range(300))
    t_big = sorted(big.react(_window_view(nofit_big, "m07", False), _legal(nofit_big))[1] for _ in range(300))
    assert t_small[150] < t_big[150]


def test_reaction_bot_with_no_mouse_or_no_cards_keeps_still() -> None:
    bot = make_bot(GAME, "easy", seed=1)
    assert bot.react(_window_view(["cap-red"], None), ["reveal"]) == (None, 0)
    assert bot.react(_window_view([], "m07", False), ["timeout"])[0] is None
    assert bot.choose(_window_view([], None), ["reveal"]) == "reveal"


def test_simulate_command_uses_the_reaction_runner() -> None:
    from mauseloch.study.simulate import make_spec, report, simulate

    spec = make_spec(GAME, 4, "easy,normal,hard,normal", 3, [])
    rep = report(spec, simulate(spec, 6, workers=1))
    assert rep["games"] == 6
    figures = rep["seat_figures"]
    for name in ("score", "mice_catch", "mice_flip", "cheese", "laundry", "wrong_cards", "score_5_20_up"):
        assert len(figures[name]) == 4
    assert abs(sum(figures[name][0] for name in figures if name.startswith("score_")) - 1.0) < 1e-9
    assert rep["game_figures"]["reveals"] > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_play_keeps_every_card_and_replays(players: int) -> None:
    """Random reactions by random seats (random bots, ties at 0 ms): cards are never created or
    lost, the views agree with the engine, and the record replays to the same game."""
    for seed in range(6):
        hand_size = 1 + seed * 3 % (58 // players)
        game, _ = play_game(["random"] * players, seed=seed, options={"hand_size": hand_size})
        v = game.view(None)
        clothing = sum(v["hand_counts"]) + v["draw_pile"] + v["discard_pile"] + sum(len(x) for x in v["laundry"])
        assert clothing == 58
        assert sum(v["mice"]) + v["mouse_pile"] == 32
        assert sum(len(x) for x in v["cheese"]) + v["cheeses_left"] == 9
        assert Counter(c for h in v["hands"] for c in h) + Counter(c for x in v["laundry"] for c in x) <= Counter(
            CLOTHING_DECK
        )
        assert v["hand_counts"] == [len(h) for h in v["hands"]]
        again = mauseloch.replay(json.loads(json.dumps(game.record())))
        assert again.events == game.events and again.result() == game.result()
        res = game.result()
        figures = zip(res["mice"], res["laundry"], res["cheese"], strict=True)
        assert res["score"] == [m - la - 2 * c for m, la, c in figures]


def test_levels_follow_the_published_model_and_include_a_child() -> None:
    from mauseloch.games.mausgeflippt.bots.reaction import DISPLAY, HICK_BITS

    assert list(LEVELS)[:3] == ["little", "child", "easy"] and "child" in bot_kinds(GAME)
    assert DISPLAY == "text"
    for level in LEVELS.values():
        assert level.median_ms == level.simple_ms + HICK_BITS * level.bit_ms + level.read_ms
        assert 180 <= level.simple_ms <= 500  # adults about 0.2 s, young children about twice that
    order = [LEVELS[name] for name in ("hard", "normal", "easy", "child")]
    for faster, slower in itertools.pairwise(order):
        assert faster.median_ms < slower.median_ms and faster.scan_ms < slower.scan_ms
        assert faster.p_lapse < slower.p_lapse and faster.p_protected < slower.p_protected
    child = make_bot(GAME, "child", seed=1)
    assert child.kind == "child"


def test_the_memo_of_legal_reactions_stays_small() -> None:
    """Hands change with every reaction, so games meet ever new masks: the memo of each mask's
    legal reactions starts afresh when it is full instead of growing with every game (a long
    simulation filled hundreds of MiB), and the moves stay the same."""
    from mauseloch.games.mausgeflippt import rules

    rng = random.Random(3)
    for game in range(40):
        g = mauseloch.new_game(GAME, players=4, seed=game)
        while not g.is_over:
            if g.to_move is not None:
                g.play("reveal")
                continue
            seat = rng.randrange(4)
            legal = g.legal_moves(seat)
            assert legal == g.legal_moves(seat) and legal[-1] == "timeout"
            g.play(rng.choice(legal), seat=seat, ms=0)
            assert len(rules._MEMO) <= rules._MEMO_CAP
