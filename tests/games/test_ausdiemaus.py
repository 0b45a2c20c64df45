"""Aus die Maus!: every rule AM-1..AM-12 on hand-built decks, the public vectors, bad input,
hidden information, and the simulate / analyze / play commands around it."""

from __future__ import annotations

import json
from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch import IllegalMove
from mauseloch.cli import app
from mauseloch.core.engine import Rng, derive_seed
from mauseloch.core.seeds import STREAM_DEAL
from mauseloch.games import ausdiemaus as adm
from tests.paths import VECTORS as SPEC_VECTORS

GAME = "aus-die-maus"
VECTORS = SPEC_VECTORS / "aus-die-maus.jsonl"
CH, M1, M2, M3, CAT = "cheese", "mouse1", "mouse2", "mouse3", "cat"


def dealt_counts(players: int, cards: int) -> list[int]:
    m = cards - 1
    return [(m - s + players - 1) // players for s in range(players)]


def build_deck(players: int, tops: list[list[str]], start: str, small: bool) -> list[str]:
    """A deck (top first) that deals each seat a stack beginning with ``tops[seat]`` (top first)
    and starts the pile with ``start``; the rest is filled with cheese first, then cats, then mice."""
    full = adm.SMALL_DECK if small else adm.FULL_DECK
    left = Counter(full)
    left[start] -= 1
    for top in tops:
        for card in top:
            left[card] -= 1
    assert all(v >= 0 for v in left.values()), "more of a card than the deck has"
    filler = [c for c in (CH, CAT, M1, M2, M3) for _ in range(left[c])]
    counts = dealt_counts(players, len(full))
    deck: list[str] = [""] * len(full)
    for s in range(players):
        stack = list(tops[s])
        while len(stack) < counts[s]:
            stack.append(filler.pop(0))
        for k in range(counts[s]):
            deck[s + k * players] = stack[counts[s] - 1 - k]  # the last card dealt is the top
    deck[-1] = start
    assert not filler and Counter(deck) == Counter(full)
    return deck


def new(players: int, deck: list[str], **options: Any) -> Any:
    return mauseloch.new_game(GAME, players=players, deck=deck, options=options or None)


def flip(game: Any, times: int = 1) -> None:
    for _ in range(times):
        game.play("flip")


def events_of(game: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in game.events if e["type"] == kind]


def stacks(game: Any) -> list[list[str]]:
    """White-box: the stacks, top first (the tests may know what no view shows)."""
    return [[adm.CARD_STR[c] for c in s] for s in game.stacks]


# --------------------------------------------------------------------------- set-up


def test_am1_players_seats_and_clockwise_order() -> None:
    for n in range(2, 7):
        g = mauseloch.new_game(GAME, players=n, seed=n)
        assert g.to_move == 0  # seat 0 begins
        assert g.legal_moves() == ["flip"]
    for bad in (1, 7, 0):
        with pytest.raises(ValueError, match="2 to 6 players"):
            mauseloch.new_game(GAME, players=bad, seed=1)
    deck = build_deck(4, [[CH, CH], [CAT, CH], [CH], [CH]], CH, small=False)
    g = new(4, deck)
    order = []
    for _ in range(6):
        order.append(g.to_move)
        flip(g)
    assert order == [0, 1, 2, 3, 0, 1]


def test_am2_small_deck_and_chips_defaults() -> None:
    for n in (2, 3):
        g = mauseloch.new_game(GAME, players=n, seed=1)
        assert g.options == {"small_deck": True, "chips": 5}
        assert len(g.deck) == 45 and Counter(g.deck) == Counter({CH: 29, M1: 3, M2: 3, M3: 3, CAT: 7})
    for n in (4, 5, 6):
        g = mauseloch.new_game(GAME, players=n, seed=1)
        assert g.options == {"small_deck": False, "chips": 9}
        assert len(g.deck) == 90 and Counter(g.deck) == Counter({CH: 58, M1: 6, M2: 6, M3: 6, CAT: 14})
    g = mauseloch.new_game(GAME, players=6, seed=1, options={"small_deck": True})
    assert g.options == {"small_deck": True, "chips": 5} and len(g.deck) == 45
    g = mauseloch.new_game(GAME, players=2, seed=1, options={"small_deck": False})
    assert g.options == {"small_deck": False, "chips": 9}
    g = mauseloch.new_game(GAME, players=3, seed=1, options={"chips": 2})
    assert g.options == {"small_deck": True, "chips": 2} and g.view(None)["chips_left"] == 2
    info = mauseloch.GAMES[GAME].to_dict()
    texts = {o["name"]: o["default_text"] for o in info["options"]}
    assert texts == {"small_deck": "true for 2-3 players, else false", "chips": "9, or 5 with the small deck"}


def test_am3_deal_order_and_start_card_without_effect() -> None:
    deck = [f"c{i}" for i in range(45)]  # positions, to see where each card goes
    counts = dealt_counts(3, 45)
    assert counts == [15, 15, 14]
    expected = [[deck[s + k * 3] for k in range(counts[s])][::-1] for s in range(3)]
    real = build_deck(3, [[M1, CH, CAT], [M2], [M3, CH]], M2, small=True)
    g = new(3, real)
    got = stacks(g)
    for s in range(3):  # the last card dealt to a seat is its top card
        assert got[s] == [real[deck.index(c)] for c in expected[s]]
    assert got[0][:3] == [M1, CH, CAT] and got[1][0] == M2 and got[2][:2] == [M3, CH]
    # the one card left starts the pile face up, and that mouse does nothing
    assert g.view(None)["pile"] == [M2] and g.view(None)["chase"] is None
    assert events_of(g, "start") == [{"type": "start", "card": M2}]
    assert not events_of(g, "call")


def test_am3_seeded_deal_and_explicit_deck_agree() -> None:
    g = mauseloch.new_game(GAME, players=4, seed=1234)
    ids = adm.deck_ids(False)
    Rng(derive_seed(1234, STREAM_DEAL)).shuffle(ids)
    assert list(g.deck) == [adm.CARD_STR[c] for c in ids]
    h = mauseloch.new_game(GAME, players=4, seed=99, deck=g.deck)
    while not g.is_over:
        g.play("flip")
        h.play("flip")
    assert g.result() == h.result() and g.events == h.events


# --------------------------------------------------------------------------- play


def test_am4_to_am8_escape_pile_under_the_owner_and_new_pile() -> None:
    deck = build_deck(3, [[CH, M2, M3, CH], [CAT, CH, CH, CH], [CH, CH]], CH, small=True)
    g = new(3, deck)
    before = stacks(g)
    flip(g, 3)  # AM-4: cheese, cat, cheese on normal turns: nothing happens
    assert g.to_move == 0 and g.view(None)["chase"] is None
    assert [e["card"] for e in events_of(g, "flip")] == [CH, CAT, CH]
    flip(g)  # AM-5: seat 0 turns over a mouse with 2 paws
    call = events_of(g, "call")
    assert call == [{"type": "call", "seat": 0, "text": "Mouse, watch out, the cat is coming!", "paws": 2, "chaser": 1}]
    assert g.to_move == 1
    assert g.view(2)["chase"] == {"owner": 0, "chaser": 1, "attempts_left": 2}
    flip(g)  # AM-6: cheese uses one attempt
    assert g.to_move == 1 and g.view(None)["chase"]["attempts_left"] == 1
    pile = g.view(None)["pile"]
    assert pile == [CH, CH, CAT, CH, M2, CH]
    flip(g)  # AM-6: no attempt left: the owner wins the pile, no chip
    won = events_of(g, "pile_won")
    assert won == [{"type": "pile_won", "seat": 0, "count": 7, "chip": False, "chips": 0, "chips_left": 5}]
    assert events_of(g, "escape") == [{"type": "escape", "seat": 0, "chaser": 1}]
    # AM-7: under the owner's stack, the oldest card first
    assert stacks(g)[0] == [*before[0][2:], *pile, CH]
    assert g.view(None)["pile"] == [] and g.view(None)["chips"] == [0, 0, 0]
    # AM-8: the winner starts the new pile; that card (a mouse here) has no effect
    assert g.to_move == 0 and g.view(None)["phase"] == "new_pile"
    flip(g)
    assert events_of(g, "new_pile") == [{"type": "new_pile", "seat": 0, "card": M3}]
    assert len(events_of(g, "call")) == 1 and g.view(None)["chase"] is None
    assert g.to_move == 1  # then the player after the winner


def test_am6_mouse_passes_the_chase_and_cat_catches_with_a_chip() -> None:
    deck = build_deck(3, [[M1, CH], [M3, CH], [CH, CAT, CAT]], CH, small=True)
    g = new(3, deck)
    flip(g)  # seat 0: mouse1 -> seat 1 chases with 1 attempt
    assert g.view(None)["chase"] == {"owner": 0, "chaser": 1, "attempts_left": 1}
    flip(g)  # seat 1: mouse3 -> the chase passes on at once: seat 2 chases seat 1's mouse, 3 attempts
    assert g.view(None)["chase"] == {"owner": 1, "chaser": 2, "attempts_left": 3}
    assert [e["seat"] for e in events_of(g, "call")] == [0, 1]
    flip(g)  # cheese
    assert g.view(None)["chase"] == {"owner": 1, "chaser": 2, "attempts_left": 2}
    flip(g)  # cat: caught
    assert events_of(g, "catch") == [{"type": "catch", "seat": 2, "owner": 1}]
    view = g.view(None)
    assert view["chips"] == [0, 0, 1] and view["chips_left"] == 4
    assert view["stacks"] == [14, 14, 12 + 5]
    assert stacks(g)[2][-5:] == [CH, M1, M3, CH, CAT]
    assert g.to_move == 2 and view["phase"] == "new_pile"
    flip(g)  # AM-8: the start card is a cat: no effect
    assert g.to_move == 0 and g.view(None)["chips"] == [0, 0, 1]


def test_am9_the_last_chip_ends_the_game_after_the_pile_moved() -> None:
    deck = build_deck(3, [[M1, CH], [M3, CH], [CH, CAT, CAT]], CH, small=True)
    g = new(3, deck, chips=1)
    flip(g, 4)
    assert g.is_over and g.to_move is None and g.legal_moves() == [] and g.legal_moves(1) == []
    res = g.result()
    assert res == {"reason": "chips", "ranks": [2, 2, 1], "cards": [14, 14, 17], "chips": [0, 0, 1]}
    assert g.events[-1]["type"] == "end" and g.events[-1]["reason"] == "chips"
    with pytest.raises(IllegalMove, match="game is over"):
        g.play("flip")


def am10_deck() -> list[str]:
    """2 players, small deck: 18 rounds of cheese and cats, then 8 mice passing the chase on,
    until seat 0 must chase with an empty stack. The start card is the ninth mouse."""
    non_mice = [CAT] * 7 + [CH] * 29
    a = [*non_mice[:18], M2, M3, M1, M2]
    b = [*non_mice[18:], M3, M1, M2, M3]
    return build_deck(2, [a, b], M1, small=True)


def test_am10_empty_stack_ends_the_game_and_am12_equal_ranks() -> None:
    g = new(2, am10_deck())
    flips = 0
    while not g.is_over:
        flip(g)
        flips += 1
    assert flips == 44
    assert g.result() == {"reason": "empty_stack", "ranks": [1, 1], "cards": [0, 0], "chips": [0, 0]}
    end = g.events[-1]
    assert end["type"] == "end" and end["reason"] == "empty_stack" and end["seat"] == 0  # seat 0 had to chase
    assert len(events_of(g, "call")) == 8


def loop_game() -> Any:
    """A game put (white-box) into a position that repeats: no real deal reaching a loop is
    known (see docs/aus-die-maus-answers.md), but AM-11 must still catch one.

    Seat 0 [cheese, cheese, mouse1, cheese] has just won and starts a pile; seat 1 holds
    [mouse1, cheese, cheese, mouse1, cheese]. Every three flips the other seat's mouse escapes.
    """
    g = mauseloch.new_game(GAME, players=2, seed=5)
    g.stacks = [deque([0, 0, 1, 0]), deque([1, 0, 0, 1, 0])]
    g.pile = []
    g.phase = adm.START
    g.to_move = 0
    return g


def test_am11_a_repeated_position_ends_the_game_as_endless() -> None:
    g = loop_game()
    flips = 0
    while not g.is_over and flips < 100:
        flip(g)
        flips += 1
    # wins after flips 3 (seat 1), 6 (seat 0), 9 (seat 1: the position after flip 3 again)
    assert flips == 9
    assert [e["seat"] for e in events_of(g, "pile_won")] == [1, 0, 1]
    res = g.result()
    assert res["reason"] == "endless" and res["cards"] == [2, 7] and res["ranks"] == [2, 1]
    end = g.events[-1]
    assert end == {
        "type": "end", "reason": "endless", "seat": 1, "flips": 9, "loop_from": 3,
        "ranks": [2, 1], "cards": [2, 7], "chips": [0, 0],
    }  # fmt: skip


def test_am11_compares_whole_positions_not_counts() -> None:
    """Same stack sizes and winner but other cards: not a repeat."""
    g = loop_game()
    g._seen[(1, (0, 0), bytes([0, 0]), bytes([0, 0, 0, 0, 0, 0, 0]))] = 0  # sizes as after flip 3
    flip(g, 3)
    assert not g.is_over


def test_am12_ranking_most_cards_then_chips_then_equal() -> None:
    deck = build_deck(3, [[M1, CH], [M3, CH], [CH, CAT, CAT]], CH, small=True)
    g = new(3, deck, chips=1)
    flip(g, 4)
    g.stacks = [deque([0] * 10), deque([0] * 10), deque([0] * 25)]  # white-box end states
    g.chips = [1, 0, 0]
    assert g.result()["ranks"] == [2, 3, 1]
    g.chips = [0, 0, 0]
    assert g.result()["ranks"] == [2, 2, 1]
    g.stacks = [deque([0] * 15)] * 3
    g.chips = [0, 2, 1]
    assert g.result()["ranks"] == [3, 1, 2]


# --------------------------------------------------------------------------- vectors


def vectors() -> list[Any]:
    lines = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
    return [pytest.param(v, id=f"{v['players']}p-{v['options']['chips']}chips-{v['flips']}") for v in lines]


@pytest.mark.parametrize("vector", vectors())
def test_vectors(vector: dict[str, Any]) -> None:
    g = mauseloch.new_game(GAME, players=vector["players"], options=vector["options"], deck=vector["deck"])
    flips = 0
    while not g.is_over:
        seat = g.to_move
        assert g.legal_moves(seat) == ["flip"]
        g.play("flip", seat=seat)
        flips += 1
    assert flips == vector["flips"]
    res = g.result()
    for key, value in vector["result"].items():
        assert res[key] == value, key
    again = mauseloch.replay(json.loads(json.dumps(g.record())))
    assert again.events == g.events and again.result() == res


# --------------------------------------------------------------------------- bad input


def test_bad_options_and_decks() -> None:
    with pytest.raises(ValueError, match="option chips must be at least 1, got 0"):
        mauseloch.new_game(GAME, players=3, options={"chips": 0})
    with pytest.raises(ValueError, match="option small_deck must be true or false"):
        mauseloch.new_game(GAME, players=3, options={"small_deck": 1})
    with pytest.raises(ValueError, match="option chips must be a whole number"):
        mauseloch.new_game(GAME, players=3, options={"chips": True})
    with pytest.raises(ValueError, match="unknown option 'cats'"):
        mauseloch.new_game(GAME, players=3, options={"cats": 3})
    full = list(adm.FULL_DECK)
    with pytest.raises(ValueError, match="exactly 45 cards, got 90"):
        mauseloch.new_game(GAME, players=3, deck=full)  # the small deck is the default for 3
    with pytest.raises(ValueError, match="exactly 90 cards, got 89"):
        mauseloch.new_game(GAME, players=4, deck=full[:-1])
    wrong = [*full[:-1], M1]  # one cat too few, one mouse1 too many
    with pytest.raises(ValueError, match="too many mouse1; missing cat"):
        mauseloch.new_game(GAME, players=4, deck=wrong)
    with pytest.raises(ValueError, match=r"deck\[3\]: 'dog' is not an Aus die Maus card"):
        mauseloch.new_game(GAME, players=4, deck=[*full[:3], "dog", *full[4:]])
    with pytest.raises(ValueError, match=r"deck\[0\] must be a card string"):
        mauseloch.new_game(GAME, players=4, deck=[7, *full[1:]])
    spaced = [f"  {c.upper()} " for c in full]  # case-insensitive and trimmed
    assert mauseloch.new_game(GAME, players=4, deck=spaced).deck == tuple(full)


def test_illegal_moves_leave_the_game_unchanged() -> None:
    g = mauseloch.new_game(GAME, players=3, seed=8)
    before = (g.view(None), g.record(), g.events)
    for move, seat, ms, message in (
        ("draw", None, None, "the only move is flip"),
        ("flip", 1, None, "seat 0's turn, not seat 1's"),
        ("flip", 5, None, "seat must be a number from 0 to 2"),
        ("flip", None, 100, "only for Mausgeflippt"),
        (3, None, None, "a move must be a string"),
        ("flip", True, None, "seat must be a number from 0 to 2, got True"),
    ):
        with pytest.raises(IllegalMove, match=message):
            g.play(move, seat=seat, ms=ms)
        assert (g.view(None), g.record(), g.events) == before
    g.play(" FLIP ", seat=0)
    assert g.record()["moves"] == [[0, "flip"]]
    assert g.legal_moves(2) == []
    with pytest.raises(IllegalMove, match="seat must be a number"):
        g.legal_moves(False)
    with pytest.raises(ValueError, match="not over yet"):
        g.result()


# --------------------------------------------------------------------------- hidden information


def test_views_never_show_the_order_of_a_stack() -> None:
    g = mauseloch.new_game(GAME, players=4, seed=21)
    h = mauseloch.new_game(GAME, players=4, seed=22)
    # two deals with the same public state before any flip except the start card
    for game in (g, h):
        for seat in (None, 0, 1, 2, 3):
            view = game.view(seat)
            assert all(isinstance(n, int) for n in view["stacks"])
            assert sum(view["stacks"]) + len(view["pile"]) == 90
            text = json.dumps(view)
            assert text.count("cheese") + text.count("mouse") + text.count("cat") <= len(view["pile"]) + 1
    for _ in range(60):
        if g.is_over:
            break
        g.play("flip")
        flipped = [e["card"] for e in g.events if e["type"] in ("flip", "start")]
        view = g.view(1)
        # the pile is public; every visible card was turned over face up before
        assert Counter(view["pile"]) <= Counter(flipped)
        assert set(view) >= {"stacks", "pile", "top", "chips", "chips_left", "chase", "to_move", "legal_moves"}
    assert all("private" not in e for e in g.events)  # nothing face down is ever revealed


# --------------------------------------------------------------------------- simulate


@pytest.mark.slow  # worker processes of its own: about 30 s
def test_simulate_same_report_for_any_number_of_workers() -> None:
    from mauseloch.study.simulate import make_spec, report, simulate

    spec = make_spec(GAME, 4, "random", 17, [])
    one = report(spec, simulate(spec, 240, workers=1))
    two = report(spec, simulate(spec, 240, workers=2))
    assert one == two
    engine = make_spec(GAME, 4, "random", 17, [], engine_only=True)
    assert report(engine, simulate(engine, 240, workers=1)) == one  # the kernel plays the engine's games
    assert one["games"] == 240 and sum(s["wins"] for s in one["seats"]) >= 240
    small = make_spec(GAME, 3, "random", 3, ["chips=2"])
    assert small.options == {"small_deck": True, "chips": 2}


def test_simulate_default_runner_for_other_games_is_deterministic() -> None:
    from mauseloch.study.simulate import make_spec, report, simulate

    spec = make_spec("mau-mau", 3, "random", 5, [], engine_only=True)  # random Mau-Mau has a kernel too
    assert report(spec, simulate(spec, 24, workers=1)) == report(spec, simulate(spec, 24, workers=2))


@pytest.mark.slow
def test_simulate_command_json_and_bad_arguments(tmp_path: Path) -> None:
    runner = CliRunner()
    plot = tmp_path / "sim.png"
    out = runner.invoke(
        app, ["simulate", GAME, "-p", "5", "-n", "300", "-w", "1", "--seed", "4", "--json", "--plot", str(plot)]
    )
    assert out.exit_code == 0, out.output
    rep = json.loads(out.stdout[out.stdout.index("{") :])
    assert rep["players"] == 5 and rep["games"] == 300 and rep["length"]["unit"] == "flips"
    assert set(rep["reasons"]) <= {"chips", "empty_stack", "endless"}
    assert set(rep["seat_figures"]) == {"cards", "chips"} and plot.stat().st_size > 1000
    for args, message in (
        (["-p", "7"], "2 to 6 players"),
        (["-o", "chips=0"], "at least 1"),
        (["-o", "dogs=1"], "unknown option"),
        (["--bots", "random,random,random"], "one kind for every bot seat or exactly 2"),
        (["--bots", "genius"], "unknown bot"),
    ):
        res = runner.invoke(app, ["simulate", GAME, "-n", "10", "-w", "1", *args])
        assert res.exit_code == 2 and message in res.output, res.output


# --------------------------------------------------------------------------- analyze


def test_analyze_finds_a_long_deal_that_replays(tmp_path: Path) -> None:
    from mauseloch.core.record import load
    from mauseloch.games.ausdiemaus.analyze import save_finds, search

    options = {"small_deck": True, "chips": 5}
    result = search(2, options, "longest", budget=0.3, seed=3)
    assert result.deals > 0 and len(result.finds) == 1
    saved = save_finds(result, tmp_path, seed=3)
    path, game = saved[0]
    again = load(path)
    assert again.is_over and again.result() == game.result()
    assert again.move_count == result.finds[0].flips
    record = json.loads(path.read_text())
    assert record["game"] == GAME and len(record["deck"]) == 45


def test_analyze_command(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["analyze", GAME, "-p", "3", "--search", "longest", "--budget", "0.3", "--out", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1 and mauseloch.core.record.load(files[0]).is_over
    endless = ["analyze", GAME, "-p", "3", "--search", "endless", "--budget", "0.2", "--out", str(tmp_path)]
    out = runner.invoke(app, endless)
    assert out.exit_code == 0, out.output
    bad = runner.invoke(app, ["analyze", "mau-mau", "--budget", "1"])
    assert bad.exit_code == 2 and "aus-die-maus only" in bad.output


# --------------------------------------------------------------------------- play


def test_play_command_without_a_terminal(tmp_path: Path) -> None:
    runner = CliRunner()
    record = tmp_path / "game.json"
    out = runner.invoke(
        app, ["play", GAME, "--auto", "--speed", "100000", "--seed", "9", "--save", str(record)], input=""
    )
    assert out.exit_code == 0, out.output
    assert "Ranking" in out.output
    g = mauseloch.core.record.load(record)
    assert g.is_over and g.seed == 9
    # a human whose input ends: the rest flips by itself
    out = runner.invoke(app, ["play", GAME, "-p", "3", "--speed", "100000", "--seed", "2"], input="\n\n")
    assert out.exit_code == 0 and "input ended" in out.output and "Ranking" in out.output
    out = runner.invoke(app, ["play", GAME, "-p", "2", "--speed", "100000", "--seed", "2"], input="q\n")
    assert out.exit_code == 0 and "Quit" in out.output
    bad = runner.invoke(app, ["play", GAME, "--humans", "9"])
    assert bad.exit_code == 2 and "--humans must be from 0 to 4" in bad.output


def test_metadata_and_help_say_the_defaults_depend_on_the_player_count() -> None:
    """small_deck and chips differ by player count: neither the metadata nor the help claims one default."""
    from typer.testing import CliRunner

    from mauseloch.cli import app

    info = mauseloch.GAMES[GAME]
    assert "default=False" not in repr(info) and "default=9" not in repr(info)
    options = {o["name"]: o for o in info.to_dict()["options"]}
    assert options["small_deck"]["defaults_by_players"] == {"2": True, "3": True, "4": False, "5": False, "6": False}
    assert options["chips"]["defaults_by_players"] == {"2": 5, "3": 5, "4": 9, "5": 9, "6": 9}
    assert options["small_deck"]["default"] is None and options["chips"]["default"] is None
    shown = CliRunner().invoke(app, ["play", GAME, "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    text = " ".join(shown.output.replace("│", " ").split())
    assert "small_deck=true/false" in text and "(default: yes for 2–3 players, else no)" in text  # the lobby's words
    assert "(default: 9, or 5 with the small deck)" in text
