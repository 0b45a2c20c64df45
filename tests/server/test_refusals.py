"""The view a seat is sent carries, for the seat to move, why each card of its hand that is no legal
move now is refused: the engine's own refusal (``IllegalMove.reason`` and ``params``), asked
without changing the game, so the page answers a tap at once in its language."""

from __future__ import annotations

import random

import pytest

import mauseloch
from mauseloch import IllegalMove
from mauseloch.server.session import seat_view


def test_the_seat_to_move_learns_why_each_card_that_does_not_fit_is_refused() -> None:
    rng = random.Random(3)
    seen = 0
    for seed in range(6):
        game = mauseloch.new_game("mau-mau", players=3, seed=seed, options={"no_jack_on_jack": True})
        while not game.is_over and game.move_count < 150:
            before = game.record(), game.event_count
            mover = game.to_move
            for seat in range(game.players):
                view = seat_view(game, seat)
                assert {k: v for k, v in view.items() if k != "refused"} == game.view(seat)
                if seat != mover:
                    assert "refused" not in view  # nobody else is told anything about a move
                    continue
                playable = {m.partition(":")[0] for m in game.legal_moves(seat)}
                refused = view.get("refused", {})
                assert set(refused) == set(view["hand"]) - playable
                for card, why in refused.items():
                    with pytest.raises(IllegalMove) as exc:
                        game.parse_move(card, seat=seat)
                    params = {k: v for k, v in exc.value.params.items() if k != "moves"}
                    assert why == {"reason": exc.value.reason, "params": params}
                    assert why["reason"].startswith("refuse.mm.")
                    seen += 1
            assert (game.record(), game.event_count) == before  # asking changed nothing
            game.play(rng.choice(game.legal_moves()))
    assert seen > 100


@pytest.mark.parametrize("game_name", ["aus-die-maus", "mausgeflippt"])
def test_games_whose_cards_are_no_moves_get_no_refusals(game_name: str) -> None:
    game = mauseloch.new_game(game_name, players=3, seed=1)
    assert all("refused" not in seat_view(game, s) for s in (None, 0, 1, 2))


def test_a_spectator_and_a_finished_game_get_no_refusals() -> None:
    game = mauseloch.new_game("mau-mau", players=2, seed=4)
    assert "refused" not in seat_view(game, None)
    rng = random.Random(0)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert all("refused" not in seat_view(game, s) for s in (0, 1))
