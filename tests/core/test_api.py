"""The public API of api.md, checked on Mau-Mau: arguments, spelling, refusals, seeds, records."""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest

import mauseloch

ALL = [r + s for s in "CSHD" for r in "789TJQKA"]
DEFAULTS = {
    "ace_skips": False,
    "seven_draw_then_play": False,
    "no_jack_on_jack": False,
    "no_win_with_jack": False,
    "move_limit": 1000,
}


def snapshot(g: mauseloch.Game) -> Any:
    """Everything observable, to prove a refused move left the game exactly as it was."""
    return json.dumps(
        {
            "record": g.record(),
            "events": g.events,
            "views": [g.view(s) for s in [None, *range(g.players)]],
            "to_move": g.to_move,
            "over": g.is_over,
            "legal": [g.legal_moves(s) for s in range(g.players)],
        },
        sort_keys=True,
    )


def random_play(g: mauseloch.Game, rng: random.Random, moves: int | None = None) -> mauseloch.Game:
    count = 0
    while not g.is_over and (moves is None or count < moves):
        g.play(rng.choice(g.legal_moves()))
        count += 1
    return g


def assert_value_error(match: list[str], fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    msg = str(info.value)
    for part in match:
        assert part.lower() in msg.lower(), f"{part!r} not named in {msg!r}"
    return msg


# --------------------------------------------------------------------------- bad arguments


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(mauseloch.IllegalMove, ValueError)


@pytest.mark.parametrize("name", ["uno", "mau mau", "maumau", ""])
def test_unknown_game(name: str) -> None:
    msg = assert_value_error(["mau-mau"], mauseloch.new_game, name, players=2)
    assert repr(name) in msg


@pytest.mark.parametrize("players", [0, 1, 6, -2, 100])
def test_players_out_of_range(players: int) -> None:
    assert_value_error([str(players), "2", "5"], mauseloch.new_game, "mau-mau", players=players)


@pytest.mark.parametrize("players", [True, 3.0, "3", [3]])
def test_players_of_the_wrong_type(players: Any) -> None:
    with pytest.raises(ValueError):
        mauseloch.new_game("mau-mau", players=players)


def test_unknown_option_names_it_and_the_allowed_ones() -> None:
    options = {"ace_skip": True}
    msg = assert_value_error(["ace_skip", "ace_skips", "move_limit"], mauseloch.new_game, "mau-mau", options=options)
    assert "no_win_with_jack" in msg


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"move_limit": True}, ["move_limit", "True"]),  # bool is not an int
        ({"move_limit": False}, ["move_limit", "False"]),
        ({"move_limit": 10.0}, ["move_limit", "10.0"]),
        ({"move_limit": "10"}, ["move_limit", "10"]),
        ({"move_limit": 0}, ["move_limit", "0", "1"]),
        ({"move_limit": -5}, ["move_limit", "-5", "1"]),
        ({"ace_skips": 1}, ["ace_skips", "1"]),  # an int is not a bool
        ({"ace_skips": 0}, ["ace_skips", "0"]),
        ({"no_jack_on_jack": "true"}, ["no_jack_on_jack", "true"]),
        ({"no_win_with_jack": None}, ["no_win_with_jack", "None"]),
    ],
)
def test_options_of_the_wrong_type_or_range(options: dict[str, Any], named: list[str]) -> None:
    assert_value_error(named, mauseloch.new_game, "mau-mau", players=2, seed=1, options=options)


def test_move_limit_one_is_allowed() -> None:
    g = mauseloch.new_game("mau-mau", players=2, seed=1, options={"move_limit": 1})
    g.play(g.legal_moves()[0])
    assert g.is_over


def test_options_must_be_a_dict() -> None:
    with pytest.raises(ValueError):
        mauseloch.new_game("mau-mau", players=2, options=[("ace_skips", True)])  # type: ignore[arg-type]


def test_bad_deck_wrong_size() -> None:
    assert_value_error(["32", "31"], mauseloch.new_game, "mau-mau", players=2, deck=ALL[:31])
    assert_value_error(["32", "33"], mauseloch.new_game, "mau-mau", players=2, deck=[*ALL, "7C"])
    assert_value_error(["32"], mauseloch.new_game, "mau-mau", players=2, deck=[])


def test_bad_deck_duplicate_names_the_card_and_the_missing_one() -> None:
    deck = list(ALL)
    deck[deck.index("8H")] = "7H"
    assert_value_error(["7H", "8H"], mauseloch.new_game, "mau-mau", players=2, deck=deck)


@pytest.mark.parametrize("bad", ["1X", "7Z", "11H", "T", "JOKER", "", "7 H"])
def test_bad_deck_unknown_card(bad: str) -> None:
    deck = list(ALL)
    deck[5] = bad
    msg = assert_value_error([], mauseloch.new_game, "mau-mau", players=2, deck=deck)
    assert repr(bad) in msg or (bad and bad in msg), msg


@pytest.mark.parametrize("deck", ["7C 8C", 7, [7, *ALL[1:]], [None, *ALL[1:]]])
def test_bad_deck_of_the_wrong_type(deck: Any) -> None:
    with pytest.raises(ValueError):
        mauseloch.new_game("mau-mau", players=2, deck=deck)


# --------------------------------------------------------------------------- spelling


def test_input_is_case_insensitive_and_trimmed_output_canonical() -> None:
    deck = mauseloch.new_game("mau-mau", players=2, seed=3).record()["deck"]
    messy = [f"  {c.lower()}\t" if i % 2 else c.lower() for i, c in enumerate(deck)]
    g = mauseloch.new_game("  MAU-mau ", players=2, seed=3, deck=messy)
    ref = mauseloch.new_game("mau-mau", players=2, seed=3)
    assert g.record() == ref.record()
    assert g.record()["game"] == "mau-mau"
    rng = random.Random(3)
    while not g.is_over:
        moves = g.legal_moves()
        for m in moves:  # canonical output: cards and wishes upper case, words lower case
            assert m in ("draw", "pass", "take") or re.fullmatch(r"[789TJQKA][CSHD](:[CSHD])?", m), m
        move = rng.choice(moves)
        spelled = rng.choice([move.lower(), move.upper(), f"  {move.swapcase()} ", f"\t{move}\n"])
        g.play(spelled)
        ref.play(move)
    assert g.record() == ref.record()
    assert g.events == ref.events
    for seat in range(2):
        assert all(re.fullmatch(r"[789TJQKA][CSHD]", c) for c in g.view(seat)["hand"])


# --------------------------------------------------------------------------- refused moves


@pytest.fixture
def midgame() -> mauseloch.Game:
    g = mauseloch.new_game("mau-mau", players=3, seed=42)
    return random_play(g, random.Random(1), moves=6)


def test_illegal_moves_change_nothing(midgame: mauseloch.Game) -> None:
    g = midgame
    assert not g.is_over
    before = snapshot(g)
    seat = g.to_move
    others = [s for s in range(3) if s != seat]
    legal_now = g.legal_moves()
    not_legal_cards = [c for c in ALL if c not in legal_now and not any(m.startswith(c) for m in legal_now)]
    attempts: list[tuple[Any, dict[str, Any]]] = [
        ("", {}), ("nonsense", {}), ("7X", {}), ("JC:Z", {}), ("draw draw", {}), (None, {}), (7, {}),
        *[(c, {}) for c in not_legal_cards],
        *[(m, {"seat": s}) for m in legal_now for s in others],  # wrong seat
        *[(legal_now[0], {"seat": bad}) for bad in (-1, 3, True, "0")],
        *[(m, {"ms": ms}) for m in legal_now for ms in (0, 100)],  # ms is only for Mausgeflippt
        (legal_now[0], {"seat": seat, "ms": 5}),
    ]  # fmt: skip
    for move, kwargs in attempts:
        with pytest.raises(mauseloch.IllegalMove) as info:
            g.play(move, **kwargs)
        assert str(info.value), "an IllegalMove must say why"
        assert snapshot(g) == before, (move, kwargs)
    g.play(legal_now[0], seat=seat)  # the game still plays on
    assert g.record()["moves"][-1] == [seat, legal_now[0]]


def test_moves_after_the_end_are_refused_and_change_nothing() -> None:
    g = random_play(mauseloch.new_game("mau-mau", players=2, seed=8), random.Random(8))
    assert g.is_over and g.to_move is None and g.legal_moves() == []
    before = snapshot(g)
    for move in ["draw", "pass", "take", *ALL, *[f"J{s}:H" for s in "CSHD"]]:
        for seat in (None, 0, 1):
            with pytest.raises(mauseloch.IllegalMove):
                g.play(move, seat=seat)
    assert snapshot(g) == before


def test_legal_moves_for_other_seats_is_empty(midgame: mauseloch.Game) -> None:
    g = midgame
    for s in range(3):
        if s == g.to_move:
            assert g.legal_moves(s) == g.legal_moves() != []
        else:
            assert g.legal_moves(s) == []


# --------------------------------------------------------------------------- seeds


def test_seed_none_draws_a_json_safe_seed_and_keeps_it() -> None:
    seeds = set()
    for _ in range(5):
        g = mauseloch.new_game("mau-mau", players=4)
        seed = g.record()["seed"]
        assert isinstance(seed, int) and not isinstance(seed, bool)
        assert 0 <= seed < 2**53
        seeds.add(seed)
        random_play(g, random.Random(seed))
        again = mauseloch.replay(json.loads(json.dumps(g.record())))
        assert again.record() == g.record() and again.events == g.events
        assert again.result() == g.result()
    assert len(seeds) > 1, "seed=None must draw a fresh seed"


def _game_with_reshuffle(players: int) -> tuple[int, mauseloch.Game]:
    for seed in range(200):
        g = random_play(mauseloch.new_game("mau-mau", players=players, seed=seed), random.Random(seed))
        if any(e["type"] == "reshuffle" for e in g.events):
            return seed, g
    raise AssertionError("no seed reached a reshuffle")


@pytest.mark.parametrize("players", [2, 5])
def test_explicit_deck_of_the_seed_plays_exactly_like_the_seed(players: int) -> None:
    seed, g = _game_with_reshuffle(players)
    h = mauseloch.new_game("mau-mau", players=players, seed=seed, deck=g.record()["deck"])
    for seat, move in g.record()["moves"]:
        assert h.to_move == seat
        h.play(move)
    assert h.events == g.events
    assert h.record() == g.record()
    assert h.result() == g.result()
    # and a different seed with the same deck reshuffles differently somewhere
    other = mauseloch.new_game("mau-mau", players=players, seed=seed + 1, deck=g.record()["deck"])
    diverged = False
    for seat, move in g.record()["moves"]:
        if move not in other.legal_moves(seat):
            diverged = True
            break
        other.play(move, seat=seat)
    assert diverged or other.events != g.events


def test_same_arguments_same_game() -> None:
    a = random_play(mauseloch.new_game("mau-mau", players=4, seed=99, options={"ace_skips": True}), random.Random(0))
    b = random_play(mauseloch.new_game("mau-mau", players=4, seed=99, options={"ace_skips": True}), random.Random(0))
    assert a.record() == b.record() and a.events == b.events and a.result() == b.result()


# --------------------------------------------------------------------------- result and record


def test_result_before_the_end_raises(midgame: mauseloch.Game) -> None:
    with pytest.raises(ValueError):
        midgame.result()
    with pytest.raises(ValueError):
        mauseloch.new_game("mau-mau", players=2, seed=1).result()


def test_record_format() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=5, options={"ace_skips": True})
    random_play(g, random.Random(5), moves=10)
    rec = g.record()
    assert set(rec) == {"game", "players", "options", "seed", "deck", "moves"}
    assert rec["game"] == "mau-mau"
    assert rec["players"] == 3
    assert rec["options"] == {**DEFAULTS, "ace_skips": True}
    assert rec["seed"] == 5
    assert sorted(rec["deck"]) == sorted(ALL) and len(rec["deck"]) == 32
    assert len(rec["moves"]) == 10
    for entry in rec["moves"]:
        assert isinstance(entry, list) and len(entry) == 2
        assert isinstance(entry[0], int) and 0 <= entry[0] < 3 and isinstance(entry[1], str)
    assert json.loads(json.dumps(rec)) == rec
    assert mauseloch.new_game("mau-mau", players=2, seed=1).record()["options"] == DEFAULTS


def test_record_is_a_copy() -> None:
    g = mauseloch.new_game("mau-mau", players=2, seed=5)
    rec = g.record()
    rec["moves"].append([0, "draw"])
    rec["options"]["ace_skips"] = True
    rec["deck"].reverse()
    assert g.record() == mauseloch.new_game("mau-mau", players=2, seed=5).record()


def _corrupt_records() -> list[Any]:
    g = random_play(mauseloch.new_game("mau-mau", players=3, seed=11), random.Random(11), moves=12)
    good = g.record()
    out: list[Any] = [None, [], "record", 7]
    for key in good:
        bad = copy.deepcopy(good)
        del bad[key]
        out.append(bad)
    changes: list[tuple[str, Any]] = [
        ("game", "uno"), ("game", 7), ("players", 9), ("players", "3"), ("options", {"nope": 1}),
        ("options", {"move_limit": 0}), ("options", "x"), ("deck", good["deck"][:-1]),
        ("deck", [*good["deck"][:-1], good["deck"][0]]), ("deck", "7C"), ("moves", "draw"),
        ("moves", [*good["moves"], [0, "fly"]]), ("moves", [*good["moves"], ["draw"]]),
        ("moves", [*good["moves"], "draw"]), ("moves", [*good["moves"], [0, "draw", 5, 6]]),
        ("moves", [[(good["moves"][0][0] + 1) % 3, good["moves"][0][1]], *good["moves"][1:]]),
        ("moves", [*good["moves"][:3], *good["moves"][4:]]), ("moves", [[5, "draw"]]),
        ("moves", [[0, good["moves"][0][1], 100]]), ("seed", "x"),
    ]  # fmt: skip
    for key, value in changes:
        bad = copy.deepcopy(good)
        bad[key] = value
        out.append(bad)
    return out


@pytest.mark.parametrize("record", _corrupt_records())
def test_replay_of_a_corrupt_record_raises_value_error(record: Any) -> None:
    with pytest.raises(ValueError):
        mauseloch.replay(record)


def test_replay_of_a_finished_game_with_an_extra_move_raises() -> None:
    g = random_play(mauseloch.new_game("mau-mau", players=2, seed=4), random.Random(4))
    rec = g.record()
    rec["moves"].append([0, "draw"])
    with pytest.raises(ValueError):
        mauseloch.replay(rec)


def test_view_of_a_bad_seat_raises(midgame: mauseloch.Game) -> None:
    for bad in (-1, 3, True, "1", 1.0):
        with pytest.raises(ValueError):
            midgame.view(bad)  # type: ignore[arg-type]


def test_register_bot_refuses_kinds_make_bot_could_never_find() -> None:
    """``make_bot`` and ``--bots`` look a kind up trimmed, in lower case and split at commas: a
    kind registered otherwise (``"a,b"``, ``""``) was stored and never found. Refused now, as
    are a factory that cannot be called and a game that does not exist; nothing is registered."""
    import numpy as np

    from mauseloch.bots import bot_kinds, make_bot, register_bot

    before = {g: bot_kinds(g) for g in mauseloch.GAMES}
    for kind in ("", "  ", "a,b", "two words", 7, None):
        with pytest.raises(ValueError, match="a bot kind must be a word"):
            register_bot(kind, lambda seed: None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="factory must be callable"):
        register_bot("never", "not a factory")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        register_bot("never", lambda seed: None, game="chess")  # type: ignore[arg-type,return-value]
    assert {g: bot_kinds(g) for g in mauseloch.GAMES} == before
    # a NumPy seed makes the same bot as the plain one (api.md: NumPy integers wherever a number is taken)
    g = mauseloch.new_game("mau-mau", seed=3)
    view, legal = g.typed_view(0), g.legal_moves()
    a, b = make_bot("mau-mau", "random", np.uint64(2**63)), make_bot("mau-mau", "random", 2**63)
    assert [a.choose(view, legal) for _ in range(20)] == [b.choose(view, legal) for _ in range(20)]
    for bad in (True, -1, 1.0):
        with pytest.raises(ValueError, match="seed must be"):
            make_bot("mau-mau", "random", bad)
