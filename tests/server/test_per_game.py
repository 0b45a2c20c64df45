"""What every new table costs once, kept small without changing what a table does: stand-in bots
made when first asked for, and a client's counted address parsed once."""

from __future__ import annotations

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.seeds import STREAM_STANDIN, STREAM_STANDIN_FALLBACK
from mauseloch.server import limits
from mauseloch.server.limits import counted
from mauseloch.server.seats import StandIn, standin_kind


def test_a_stand_in_makes_its_bots_when_first_asked_and_plays_as_one_made_at_once() -> None:
    """The bots come from the seed alone: one made at the first stand-in move chooses what one
    made with the table would have chosen, move for move."""
    seed, seat = 7, 1
    lazy = StandIn("mau-mau", seed, seat)
    assert "bot" not in vars(lazy) and "_fallback" not in vars(lazy)  # a new table makes no bot
    eager = make_bot("mau-mau", standin_kind("mau-mau"), seed=derive_seed(seed, STREAM_STANDIN + seat))
    game = mauseloch.new_game("mau-mau", players=4, seed=3)
    others = make_bot("mau-mau", "random", seed=11)
    chosen = 0
    while not game.is_over and chosen < 30:
        to_move = game.to_move
        assert to_move is not None
        legal = game.legal_moves(to_move)
        view = game.typed_view(to_move)
        if to_move == seat:
            move = lazy.choose(view, legal)
            assert move == eager.choose(view, legal)
            chosen += 1
        else:
            move = others.choose(view, legal)
        game.play(move, to_move)
    assert chosen > 3
    assert "bot" in vars(lazy) and "_fallback" not in vars(lazy)  # the fallback only when the bot fails
    fallback = make_bot("mau-mau", "random", seed=derive_seed(seed, STREAM_STANDIN_FALLBACK + seat))
    assert type(lazy._fallback) is type(fallback)


def test_a_counted_address_is_remembered_within_a_bound() -> None:
    limits._counted.clear()
    assert counted("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert counted("::ffff:192.0.2.7") == "192.0.2.7"
    assert counted("not an address") == "not an address"
    assert counted("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"  # from the memory this time
    assert len(limits._counted) == 3
    for i in range(
        limits.COUNTED_KEPT + 10
    ):  # a flood of addresses: the memory starts afresh, never grows past its bound
        counted(f"10.0.{i // 256}.{i % 256}")
    assert len(limits._counted) <= limits.COUNTED_KEPT
    assert counted("10.0.0.1") == "10.0.0.1"
