"""A bot answers the same whether it is handed a view as the public API gives it (``g.view(seat)``)
or as the game's struct (``g.typed_view(seat)``), on positions of whole seeded games."""

from __future__ import annotations

import random

import pytest

import mauseloch
from mauseloch.bots import make_bot

FORMS = [("mau-mau", "heuristic"), ("mau-mau", "random"), ("mausgeflippt", "normal")]


@pytest.mark.parametrize(("game", "kind"), FORMS)
def test_a_bot_answers_the_same_to_both_forms_of_a_view(game: str, kind: str) -> None:
    decisions = 0
    for seed in range(6):
        g = mauseloch.new_game(game, players=3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and decisions < 600:
            seats = [g.to_move] if g.to_move is not None else [s for s in range(g.players) if g.legal_moves(s)]
            for seat in seats:
                legal = g.legal_moves(seat)
                by_dict, by_struct = (make_bot(game, kind, seed=seed) for _ in range(2))
                if g.to_move is not None:
                    assert by_dict.choose(g.view(seat), legal) == by_struct.choose(g.typed_view(seat), legal)
                else:
                    assert by_dict.react(g.view(seat), legal) == by_struct.react(g.typed_view(seat), legal)
                decisions += 1
            if g.to_move is not None:
                g.play(rng.choice(g.legal_moves()))
            else:
                seat = rng.choice(seats)
                g.play(rng.choice(g.legal_moves(seat)), seat=seat, ms=rng.randrange(6000))
    assert decisions >= 100
