"""The Mau-Mau heuristic says why it moves (a learner's tip): the same move as it plays, and a
reason read off its own scores that fits the situation."""

from __future__ import annotations

import random

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.games.maumau.bots.habits import REASONS
from mauseloch.games.maumau.bots.heuristic import HeuristicBot
from mauseloch.locale import catalogue


def test_the_heuristic_explains_the_move_it_plays() -> None:
    seen: set[str] = set()
    rng = random.Random(3)
    for seed in range(60):
        game = mauseloch.new_game("mau-mau", players=3, seed=seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_moves(seat)
            view = game.typed_view(seat)
            move, key = HeuristicBot(seed).explain(view, legal)
            assert move == HeuristicBot(seed).choose(view, legal) and move in legal
            reason = key.removeprefix("mm.hint.")
            assert reason in REASONS
            seen.add(reason)
            hand = view.own_hand
            if reason == "only":
                assert len(legal) == 1 or legal == [move, "take"] or move == "take"
            if reason == "go_out":
                assert len(hand) == 1 and move.startswith(hand[0])
            if reason in ("seven_next", "skip_next", "turn_next"):
                nxt = (seat + view.direction) % 3
                assert view.hand_counts[nxt] <= 2
                assert move[0] in {"seven_next": "7", "skip_next": "8A", "turn_next": "9"}[reason]
            if reason == "draw":
                assert move in ("draw", "pass")
            game.play(move if rng.random() < 0.5 else rng.choice(legal))
    assert {"only", "go_out", "counter", "keeps_options", "jack_need", "keep_jack"} <= seen and len(seen) >= 8, seen
    words = catalogue()
    for reason in REASONS:
        assert f"mm.hint.{reason}" in words["en"] and f"mm.hint.{reason}" in words["de"]
    assert hasattr(make_bot("mau-mau", "heuristic"), "explain")
