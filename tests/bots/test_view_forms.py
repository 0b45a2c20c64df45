"""A bot reads the game's view struct (``g.typed_view(seat)``): it answers the same to the struct
and to its copy decoded from the wire (what the Bot API client hands it), on positions of whole
seeded games; a bot that reads its view refuses the JSON form (``g.view(seat)``) and says what it
needs."""

from __future__ import annotations

import random

import msgspec
import pytest

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.schema import view_types

FORMS = [("mau-mau", "heuristic"), ("mau-mau", "random"), ("mausgeflippt", "normal")]


@pytest.mark.parametrize(("game", "kind"), FORMS)
def test_a_bot_answers_the_same_to_a_view_and_its_copy_over_the_wire(game: str, kind: str) -> None:
    decoder = msgspec.json.Decoder(view_types(game)[0])
    decisions = 0
    for seed in range(6):
        g = mauseloch.new_game(game, players=3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over and decisions < 600:
            seats = [g.to_move] if g.to_move is not None else [s for s in range(g.players) if g.legal_moves(s)]
            for seat in seats:
                legal = g.legal_moves(seat)
                view = g.typed_view(seat)
                wire = decoder.decode(msgspec.json.encode(view))
                by_struct, by_wire = (make_bot(game, kind, seed=seed) for _ in range(2))
                if g.to_move is not None:
                    assert by_struct.choose(view, legal) == by_wire.choose(wire, legal)
                else:
                    assert by_struct.react(view, legal) == by_wire.react(wire, legal)
                decisions += 1
            if g.to_move is not None:
                g.play(rng.choice(g.legal_moves()))
            else:
                seat = rng.choice(seats)
                g.play(rng.choice(g.legal_moves(seat)), seat=seat, ms=rng.randrange(6000))
    assert decisions >= 100


@pytest.mark.parametrize(
    ("game", "kind"), [("mau-mau", "heuristic"), ("mau-mau", "search-fast"), ("mausgeflippt", "normal")]
)
def test_a_bot_that_reads_its_view_refuses_the_json_form(game: str, kind: str) -> None:
    g = mauseloch.new_game(game, players=3, seed=4)
    bot = make_bot(game, kind, seed=1)
    if g.to_move is not None and game == "mausgeflippt":
        g.play("reveal")  # a window opens: the reaction bot reads the shown mouse
    if g.to_move is not None:
        with pytest.raises(ValueError, match=r"typed_view\(seat\)"):
            bot.choose(g.view(g.to_move), g.legal_moves())
        assert bot.choose(g.typed_view(g.to_move), g.legal_moves()) in g.legal_moves()
    else:
        with pytest.raises(ValueError, match=r"typed_view\(seat\)"):
            bot.react(g.view(0), g.legal_moves(0))
        move, _ = bot.react(g.typed_view(0), g.legal_moves(0))
        assert move is None or move in g.legal_moves(0)
