"""The search bot's history belief (games.maumau.bots.belief and its belief_kernel): the true deal explains the
history it wrote down, every sample deals exactly the cards the seat cannot see, and the same
seed gives the same samples."""

from __future__ import annotations

import numpy as np
import pytest

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.engine import Rng, derive_seed
from mauseloch.games.maumau import CARD_ID, MauMau, MauMauDraw
from mauseloch.games.maumau.bots import belief_kernel as kb
from mauseloch.games.maumau.bots.belief import History
from mauseloch.games.maumau.bots.search import SearchBot

OPTION_SETS = [
    {},
    {"ace_skips": True, "no_jack_on_jack": True},
    {"no_win_with_jack": True, "seven_draw_then_play": True},
]


def _true_particle(game: MauMau, history: History) -> np.ndarray:
    """The real card of every position the history wrote down, then the draw pile top first."""
    n = game.players
    seq = [CARD_ID[c] for c in game._deck[: 5 * n + 1]]  # MM-2: the deal and the turned-up card
    for entry in game.event_log():
        if isinstance(entry, MauMauDraw):
            seq += [CARD_ID[c] for c in entry.cards]
    assert len(seq) == len(history.owner)
    # the seat's own positions hold its cards in an order of its own: the same cards
    own = [p for p, k in enumerate(history.known) if k >= 0]
    assert sorted(seq[p] for p in own) == sorted(history.known[p] for p in own)
    seq = [k if k >= 0 else c for c, k in zip(seq, history.known, strict=True)]
    return np.array(seq + game.draw_pile[::-1], dtype=np.int64)


def _replay(history: History, cards: np.ndarray, options: dict[str, bool]) -> tuple[int, int, np.ndarray]:
    ev = np.array(history.events, dtype=np.int64).reshape(-1, kb.EV_COLS)
    counts = np.array(history.event_counts, dtype=np.int64).reshape(-1, history.players)
    hands = np.zeros(8, dtype=np.int64)
    hard, soft = kb.contradictions(
        ev, counts, cards, history.players, bool(options.get("ace_skips")),
        bool(options.get("no_win_with_jack")), hands,
    )  # fmt: skip
    return hard, soft, hands


@pytest.mark.parametrize("rivals", ["heuristic", "random"])
@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_true_deal_explains_the_history(players: int, options: dict[str, bool], rivals: str) -> None:
    """MM-2, MM-6, MM-7, MM-8, MM-9, MM-14, MM-15: replayed on the real deal, the history breaks
    no rule, gives every rival its real hand, and (heuristic rivals) contradicts no choice."""
    reshuffles = 0
    for k in range(6):
        seed = derive_seed(4242 + players, k)
        game = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        bots = [make_bot("mau-mau", rivals, seed=derive_seed(seed, s)) for s in range(players)]
        observer = k % players
        history = History()
        while not game.is_over:
            seat = game.to_move
            view = game.typed_view(seat)
            if seat == observer:
                history.observe(view)
                assert history.ok
                hard, soft, hands = _replay(history, _true_particle(game, history), options)
                assert hard == 0
                if rivals == "heuristic":
                    assert soft == 0
                for s in range(players):
                    if s != observer:
                        assert hands[s] == game.hands[s]
            game.play(bots[seat].choose(view, game.legal_moves()))
        reshuffles += len(history.contents) - 1
    if players == 5 and rivals == "random":
        assert reshuffles > 0  # the reshuffle groups were exercised


def test_samples_deal_exactly_the_unseen_cards_and_repeat_for_a_seed() -> None:
    seen_sample = False
    for k in range(4):
        seed = derive_seed(77, k)
        game = mauseloch.new_game("mau-mau", players=4, seed=seed)
        bots = [make_bot("mau-mau", "heuristic", seed=derive_seed(seed, s)) for s in range(4)]
        history = History()
        while not game.is_over:
            seat = game.to_move
            view = game.typed_view(seat)
            if seat == 0:
                history.observe(view)
                a = history.sample(8, Rng(5), 9, burn=200, thin=5, read_choices=0.05, ace_skips=False)
                b = history.sample(8, Rng(5), 9, burn=200, thin=5, read_choices=0.05, ace_skips=False)
                assert a is not None and b is not None and np.array_equal(a, b)
                seen = {CARD_ID[c] for c in view.own_hand + view.discard}
                unseen = sorted(c for c in range(32) if c not in seen)
                for deal in a:
                    assert sorted(deal) == unseen
                    # the rivals' hands first, each as many cards as the view counts
                    counts = [view.hand_counts[s] for s in range(4) if s != 0]
                    assert len(deal) == sum(counts) + view.draw_pile
                    dealt = MauMau.from_view(view, seed=1, deal=[mauseloch.games.maumau.CARD_STR[c] for c in deal])
                    assert dealt.hands[0] == sum(1 << CARD_ID[c] for c in view.own_hand)
                    seen_sample = True
            game.play(bots[seat].choose(view, game.legal_moves()))
    assert seen_sample


def test_a_history_joined_in_the_middle_is_not_used() -> None:
    game = mauseloch.new_game("mau-mau", players=3, seed=5)
    bot = make_bot("mau-mau", "heuristic", seed=1)
    while game.to_move != 0 or game.move_count < 6:
        game.play(bot.choose(game.typed_view(game.to_move), game.legal_moves()))
    history = History()
    history.observe(game.typed_view(0))
    assert not history.ok
    assert history.sample(4, Rng(1), 1, burn=10, thin=1, read_choices=0.05, ace_skips=False) is None


def test_the_search_with_the_history_is_deterministic_for_a_seed() -> None:
    def moves() -> list[str]:
        game = mauseloch.new_game("mau-mau", players=4, seed=31)
        bots = [SearchBot(3, iterations=200, history=True)] + [
            make_bot("mau-mau", "heuristic", seed=s) for s in (1, 2, 3)
        ]
        out = []
        while not game.is_over:
            seat = game.to_move
            move = bots[seat].choose(game.typed_view(seat), game.legal_moves())
            out.append(move)
            game.play(move)
        return out

    assert moves() == moves()


def test_preparing_the_bots_loads_the_chain_too() -> None:
    """A table's first search decision never compiles the history's chain (seconds)."""
    from mauseloch.games.maumau.bots import belief
    from mauseloch.games.maumau.bots.heuristic import kernels_need_compiling, prepare

    prepare()
    assert not belief.kernels_need_compiling() and not kernels_need_compiling()
