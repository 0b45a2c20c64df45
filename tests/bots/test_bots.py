"""Bots see only their own view and the legal moves, always answer a legal move, and the
heuristic bot is clearly stronger than random."""

from __future__ import annotations

import copy

import msgspec
import pytest

import mauseloch
from mauseloch.bots import bot_kinds, make_bot


def _play(game: mauseloch.Game, kinds: list[str], seed: int) -> None:
    bots = [make_bot(game.name, kind, seed=seed * 10 + s) for s, kind in enumerate(kinds)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_moves()
        move = bots[seat].choose(game.typed_view(seat), legal)
        assert move in legal
        game.play(move)


def test_mau_mau_offers_random_and_heuristic() -> None:
    assert {"random", "heuristic"} <= set(bot_kinds("mau-mau"))
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("mau-mau", "genius")


@pytest.mark.parametrize("options", [{}, {"ace_skips": True, "no_jack_on_jack": True}, {"no_win_with_jack": True}])
def test_heuristic_always_plays_legal_moves(options: dict[str, bool]) -> None:
    for seed in range(60):
        players = 2 + seed % 4
        _play(mauseloch.new_game("mau-mau", players=players, seed=seed, options=options), ["heuristic"] * players, seed)


def test_heuristic_decides_from_its_view_alone() -> None:
    """The same view gives the same choice, whatever the hidden cards are: the bot is handed
    only the view, and the view holds no other hand."""
    game = mauseloch.new_game("mau-mau", players=3, seed=4)
    view = game.view(0)
    other_hands = [game.view(s)["hand"] for s in (1, 2)]
    text = repr(view)
    for hand in other_hands:
        for card in hand:
            assert f"'{card}'" not in text or card == view["top"]
    seen = game.typed_view(0)
    assert msgspec.to_builtins(seen) == view  # the struct the bot gets is that view
    first = make_bot("mau-mau", "heuristic", seed=1).choose(copy.deepcopy(seen), game.legal_moves())
    second = make_bot("mau-mau", "heuristic", seed=1).choose(copy.deepcopy(seen), game.legal_moves())
    assert first == second


def test_heuristic_counters_a_seven() -> None:
    # seat 0 gets 7C first; seat 1 holds 7H. Seat 0 plays 7C, seat 1 should counter with 7H.
    deck = ["7C", "7H", "8C", "8H", "9C", "9H", "TC", "TS", "QC", "QH", "KC", "AD"]  # KC starts the pile
    rest = [c for c in mauseloch.games.maumau.FULL_DECK if c not in deck]
    game = mauseloch.new_game("mau-mau", players=2, deck=deck + rest)
    game.play("7C")
    assert game.to_move == 1
    assert make_bot("mau-mau", "heuristic").choose(game.typed_view(1), game.legal_moves()) == "7H"


@pytest.mark.slow
def test_heuristic_beats_random() -> None:
    """Seat rotated, one heuristic against three random bots: a fair share is 25 %."""
    wins = 0
    games = 400
    for seed in range(games):
        seat = seed % 4
        kinds = ["random"] * 4
        kinds[seat] = "heuristic"
        game = mauseloch.new_game("mau-mau", players=4, seed=seed)
        _play(game, kinds, seed)
        wins += game.result()["ranks"][seat] == 1
    assert wins / games > 0.33


def test_simulate_reports_each_bot_kind_over_its_seats() -> None:
    from mauseloch.study.simulate import make_spec, report, simulate

    spec = make_spec("mau-mau", 4, "heuristic,random,random,random", 5, [])
    rep = report(spec, simulate(spec, 300, workers=1))
    by_bot = rep["bot_figures"]
    assert set(by_bot) == {"heuristic", "random"}
    assert by_bot["heuristic"]["seats"] == [0] and by_bot["random"]["seats"] == [1, 2, 3]
    shares = [row["win_share"] for row in rep["seats"]]
    assert by_bot["heuristic"]["win_share"] == shares[0]
    assert abs(by_bot["random"]["win_share"] - sum(shares[1:]) / 3) < 1e-12
    cards = rep["seat_figures"]["cards"]
    assert abs(by_bot["random"]["figures"]["cards"] - sum(cards[1:]) / 3) < 1e-12
    assert by_bot["heuristic"]["win_share"] > by_bot["random"]["win_share"]
