"""The Mau-Mau search bot (ISMCTS over the engine's determinisations): registered levels,
legal play from the view alone, determinism, inference from the public moves, the cheat."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import mauseloch
from mauseloch.bots import bot_kinds, make_bot
from mauseloch.games.maumau import CARD_ID, SUIT_MASK, SUITS, MauMau
from mauseloch.games.maumau.bots.search import SearchBot
from mauseloch.games.maumau.views import MauMauView


def _play(
    players: int, seed: int, kinds: list[str], options: dict[str, Any] | None = None, flat: bool = True
) -> mauseloch.Game:
    g = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
    bots = [
        SearchBot(seed * 10 + s, iterations=12, flat=flat) if k == "search" else make_bot("mau-mau", k, seed=s)
        for s, k in enumerate(kinds)
    ]
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        wire = msgspec.json.encode(g.typed_view(seat))  # only what goes over a wire
        view = msgspec.json.decode(wire, type=MauMauView)
        move = bots[seat].choose(view, g.legal_moves())
        assert move in g.legal_moves()
        g.play(move)
    return g


def test_levels_are_offered_for_mau_mau_only() -> None:
    kinds = bot_kinds("mau-mau")
    assert {"search-fast", "search"} <= set(kinds)
    assert kinds.index("search-fast") < kinds.index("search")
    for other in ("aus-die-maus", "mausgeflippt"):
        assert not {"search-fast", "search"} & set(bot_kinds(other))
    assert not any("cheat" in k for k in kinds)  # the cheating search is for the bench only
    bot = make_bot("mau-mau", "search-fast", seed=3)
    assert isinstance(bot, SearchBot) and bot.kind == "search-fast"


def test_the_levels_read_the_whole_history_and_think_longer_at_more_seats() -> None:
    bot = make_bot("mau-mau", "search", seed=3)
    assert isinstance(bot, SearchBot) and bot._history is not None and bot.halving
    assert [bot._budget(n) for n in (2, 3, 4)] == [1000, 1500, 2000]
    plain = SearchBot(3, iterations=1000)  # a plain search: the same time at every table size
    assert plain._history is None and [plain._budget(n) for n in (2, 3, 4)] == [1000, 666, 500]
    assert SearchBot(3, history=True, inference=False)._history is None  # no inference, no history


def test_a_level_taking_a_seat_mid_game_plays_on_without_the_history() -> None:
    """A bot standing in for a person who left never saw the start: it deals at random."""
    game = mauseloch.new_game("mau-mau", players=3, seed=8)
    heuristic = make_bot("mau-mau", "heuristic", seed=1)
    while game.move_count < 9 or game.to_move != 0:
        game.play(heuristic.choose(game.typed_view(game.to_move), game.legal_moves()))
    bot = make_bot("mau-mau", "search-fast", seed=2)
    while not game.is_over:
        seat = game.to_move
        chooser = bot if seat == 0 else heuristic
        move = chooser.choose(game.typed_view(seat), game.legal_moves())
        assert move in game.legal_moves()
        game.play(move)
    assert isinstance(bot, SearchBot) and bot._history is not None and not bot._history.ok


@pytest.mark.parametrize(("players", "flat"), [(2, True), (3, True), (5, True), (3, False)])
def test_plays_legal_moves_to_the_end(players: int, flat: bool) -> None:
    """Both ways of searching: flat (every move on the same deals) and the ISMCTS tree."""
    options = {"ace_skips": True, "no_jack_on_jack": True, "no_win_with_jack": True} if players == 3 else None
    g = _play(players, players, ["search", *["heuristic"] * (players - 1)], options, flat)
    assert g.is_over


@pytest.mark.parametrize("flat", [True, False])
def test_deterministic_for_a_seed_and_an_iteration_budget(flat: bool) -> None:
    a = _play(2, 5, ["search", "search"], flat=flat)
    b = _play(2, 5, ["search", "search"], flat=flat)
    assert a.record() == b.record()


def test_time_budget_returns_a_legal_move() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=8)
    while len(g.legal_moves()) < 2:
        g.play(g.legal_moves()[0])
    bot = SearchBot(1, iterations=None, time_ms=5)
    assert bot.choose(g.typed_view(g.to_move), g.legal_moves()) in g.legal_moves()
    assert bot.last_iterations >= 1
    with pytest.raises(ValueError):
        SearchBot(1, iterations=None, time_ms=None)


def test_refuses_other_games_and_empty_legal_lists() -> None:
    bot = SearchBot(1, iterations=5)
    g = mauseloch.new_game("aus-die-maus", players=2, seed=1)
    with pytest.raises(ValueError, match="Mau-Mau"):
        bot.choose(g.typed_view(0), g.legal_moves())
    with pytest.raises(ValueError):
        bot.choose(mauseloch.new_game("mau-mau", seed=1).typed_view(0), [])


def _game_with_a_draw_under_a_wish() -> tuple[mauseloch.Game, int]:
    """Seat 0 wishes hearts with a jack; seat 1 holds no heart and no jack, so it must draw."""
    hands = ["JC 7S 8S 9S TS", "7C 8C 9C TC QC", "7D 8D 9D TD QD"]
    # deal: one card at a time to seats 0,1,2; then the starter; then the draw pile top first
    cols = [h.split() for h in hands]
    deck = [cols[s][r] for r in range(5) for s in range(3)] + ["KS", "AD", "KD", "QS"]
    rest = [c for c in MauMau.ACTIONS if len(c) == 2 and c not in deck]
    rest += [c[:2] for c in MauMau.ACTIONS if c.startswith("J") and c.endswith(":C") and c[:2] not in deck]
    g = mauseloch.new_game("mau-mau", players=3, seed=1, deck=deck + rest)
    g.play("JC:H")
    assert g.legal_moves() == ["draw"]
    g.play("draw")
    return g, 1


def test_inference_reads_a_draw_under_a_wish_and_deals_accordingly() -> None:
    g, rival = _game_with_a_draw_under_a_wish()
    while g.to_move != 0:  # the others play on until seat 0 decides again
        g.play(g.legal_moves()[0])
    bot = SearchBot(4, iterations=30)
    first = mauseloch.new_game("mau-mau", players=3, seed=1, deck=g.record()["deck"])
    bot.choose(first.typed_view(0), first.legal_moves())  # it saw the start
    view = g.typed_view(0)
    bot.choose(view, g.legal_moves())
    facts = [f for f in bot.facts() if f["seat"] == rival and not f["soft"]]
    assert facts, bot.facts()
    lacks = set(facts[0]["lacks"])
    assert {"7H", "AH", "JD"} <= lacks and "7C" not in lacks
    # every deal the bot imagines keeps the hearts it could still lack out of that hand
    pool = bot._pool(view)
    received = facts[0]["received_since"]
    for _ in range(200):
        deal = bot._deal(view, pool)
        hand = deal[: view.hand_counts[rival]]
        hearts = sum(1 for c in hand if SUIT_MASK[SUITS.index("H")] >> CARD_ID[c] & 1 or c[0] == "J")
        assert hearts <= received


def test_without_inference_nothing_is_read() -> None:
    g, _ = _game_with_a_draw_under_a_wish()
    while g.to_move != 0:
        g.play(g.legal_moves()[0])
    bot = SearchBot(4, iterations=10, inference=False)
    bot.choose(g.typed_view(0), g.legal_moves())
    assert bot.facts() == []


def test_the_cheat_deals_the_true_hands() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=6)
    bot = SearchBot(2, iterations=10, peek=lambda: g)
    view = g.typed_view(0)
    deal = bot._deal(view, bot._pool(view))
    assert deal[:5] == g.view(1)["hand"] and deal[5:10] == g.view(2)["hand"]
    honest = SearchBot(2, iterations=10)
    assert honest._deal(view, honest._pool(view))[:10] != deal[:10]


@pytest.mark.parametrize("seed", [3, 9, 21])
def test_a_redealt_clone_is_the_game_from_view_deals(seed: int) -> None:
    """The search deals each iteration into a clone of one sample (``MauMau.redealt``) instead of
    parsing the view again: the position must be exactly what ``MauMau.from_view`` makes of that
    deal."""
    g = mauseloch.new_game("mau-mau", players=3, seed=seed)
    heuristic = [make_bot("mau-mau", "heuristic", seed=s) for s in range(3)]
    for _ in range(8 + seed // 3):  # some history: draws, a penalty or a wish may be open
        mover = g.to_move
        assert mover is not None
        g.play(heuristic[mover].choose(g.typed_view(mover), g.legal_moves()))
    seat = g.to_move
    assert isinstance(g, MauMau) and seat is not None
    view = g.typed_view(seat)
    bot = SearchBot(seed, iterations=5)
    pool = bot._pool(view)
    base = MauMau.from_view(view, seed=1, deal=bot._deal(view, pool))
    for i in range(5):
        deal = bot._deal(view, pool)
        fresh = MauMau.from_view(view, seed=100 + i, deal=deal)
        quick = base.redealt(seat, [CARD_ID[c] for c in deal], 100 + i)
        assert quick.hands == fresh.hands and quick.draw_pile == fresh.draw_pile
        assert quick.legal_moves() == fresh.legal_moves() == g.legal_moves()
        while not fresh.is_over:  # the same game from there on, reshuffles included
            move = fresh.legal_moves()[0]
            fresh.play(move)
            quick.play(move)
        assert quick.result() == fresh.result() and quick.view(None) == fresh.view(None)


def test_play_outs_play_the_heuristic_bots_own_moves() -> None:
    """One copy of the heuristic's habits: each move of the compiled play-out is the heuristic
    bot's choice from that seat's view (the same tie-breaking stream gives the same move)."""
    import numpy as np

    from mauseloch.games.maumau import kernel as kernel
    from mauseloch.games.maumau.bots.heuristic import HeuristicBot

    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        options = {"ace_skips": seed % 2 == 1, "no_win_with_jack": seed % 3 == 0}
        g = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        assert isinstance(g, MauMau)
        opts = kernel.options_array(players, options)
        trace = np.zeros(1, dtype=np.int64)
        while not g.is_over:
            legal = g.legal_moves()
            gen = np.array([seed, 0, 0], dtype=np.uint64)
            kernel.playout(*kernel.state_of(g), opts, gen, 1, 0.2, np.zeros(players), trace)
            mine = MauMau.ACTIONS[int(trace[0])]
            assert mine == HeuristicBot(seed).choose(g.typed_view(g.to_move), legal)
            checked += len(legal) > 1
            g.play(mine)
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3])
def test_reading_rivals_choices_keeps_the_true_hands(players: int) -> None:
    """Reading which card a rival chose (as the heuristic would, holding its hand then) never
    rules out the true hands of heuristic rivals, and it does rule out some random deals."""
    truth_weights: list[float] = []
    informative = 0
    for seed in range(6):
        g = mauseloch.new_game("mau-mau", players=players, seed=seed)
        heuristic = [make_bot("mau-mau", "heuristic", seed=seed * 10 + s) for s in range(players)]
        bot = SearchBot(seed, iterations=5, read_choices=0.05)
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            view = g.typed_view(seat)
            if seat == 0:
                bot._observe(view)
                if bot._choices:
                    hands = {s: [CARD_ID[c] for c in g.view(s)["hand"]] for s in range(1, players)}
                    truth_weights.append(bot._weight(hands))
                    pool = bot._pool(view)
                    rivals = list(range(1, players))
                    informative += any(bot._weight(bot._propose(pool, rivals, view.hand_counts)) < 1 for _ in range(20))
            g.play(heuristic[seat].choose(view, g.legal_moves()))
    assert truth_weights and all(w == 1.0 for w in truth_weights)
    assert informative > len(truth_weights) // 4


def test_redealt_refuses_a_wrong_deal_and_leaves_the_game_alone() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=4)
    assert isinstance(g, MauMau)
    hidden = g.hands[1].bit_count() + g.hands[2].bit_count() + len(g.draw_pile)
    before = g.view(None)
    with pytest.raises(ValueError, match="exactly the cards"):
        g.redealt(0, list(range(hidden - 1)), seed=1)
    assert g.view(None) == before
    # A sample's redeal keeps the seat's own hand and every hand's size.
    pool = [c for c in range(32) if not (g.hands[0] >> c & 1) and c != g.top]
    sample = g.redealt(0, pool, seed=2)
    assert sample.hands[0] == g.hands[0]
    assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in g.hands]
    assert g.view(None) == before
