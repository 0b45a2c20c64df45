"""The snapshot and update a seat is sent carry, for the seat to move, why each card of its hand that is no legal
move now is refused: the engine's own refusal (``IllegalMove.reason`` and ``params``), asked
without changing the game, so the page answers a tap at once in its language."""

from __future__ import annotations

import random

import pytest
from starlette.testclient import TestClient

import mauseloch
from mauseloch import IllegalMove
from mauseloch.server.protocol import refusals

from .helpers import HUMAN, create_table, join, seated


def test_the_seat_to_move_learns_why_each_card_that_does_not_fit_is_refused() -> None:
    rng = random.Random(3)
    seen = 0
    for seed in range(6):
        game = mauseloch.new_game("mau-mau", players=3, seed=seed, options={"no_jack_on_jack": True})
        while not game.is_over and game.move_count < 150:
            before = game.record(), game.event_count
            mover = game.to_move
            for seat in range(game.players):
                refused = refusals(game, seat)
                if seat != mover:
                    assert refused == {}  # nobody else is told anything about a move
                    continue
                playable = {m.partition(":")[0] for m in game.legal_moves(seat)}
                assert set(refused) == set(game.view(seat)["hand"]) - playable
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
    assert all(refusals(game, s) == {} for s in (None, 0, 1, 2))


def test_a_spectator_and_a_finished_game_get_no_refusals() -> None:
    game = mauseloch.new_game("mau-mau", players=2, seed=4)
    assert refusals(game, None) == {}
    rng = random.Random(0)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert all(refusals(game, s) == {} for s in (0, 1))


def test_the_table_sends_refusals_to_the_seat_to_move_and_a_refused_move_carries_its_reason(
    client: TestClient,
) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table = created["table"]
    ben_seat = join(client, table)
    anna = seated(client, table, 0, created["token"])
    ben = seated(client, table, 1, ben_seat["token"])
    game = client.app.state.tables.get(table).state.game  # type: ignore[attr-defined]
    assert anna.state["refused"] == refusals(game, 0) and ben.state["refused"] == {}  # type: ignore[index]
    before = game.record()
    # A card Anna holds that does not fit, else one she does not hold: the engine says why.
    card = next(iter(anna.state["refused"]), None)  # type: ignore[index]
    if card is None:
        card = next(c for c in ("7C", "8C", "9C", "TC", "QC", "KC", "AC") if c not in anna.view["hand"])
    with pytest.raises(IllegalMove) as exc:
        game.parse_move(card, seat=0)
    anna.send({"type": "move", "move": card, "version": 0})
    frame = anna.recv()
    assert frame["type"] == "error" and frame["code"] == "illegal"
    params = {k: v for k, v in exc.value.params.items() if k != "moves"}
    assert frame["refusal"] == {"reason": exc.value.reason, "params": params}
    anna.send({"type": "move", "move": anna.view["legal_moves"][0], "version": 7})
    assert "refusal" not in anna.recv()  # a stale move is no refusal of the engine's
    assert game.record() == before
    for p in (anna, ben):
        p.close()
