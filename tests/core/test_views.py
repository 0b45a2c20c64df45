"""Every game's view and result are its declared structs: on random positions of every game, for
every seat and a spectator, ``g.view(seat)`` is exactly the JSON form of ``g.typed_view(seat)``
and fits the struct strictly (every field with its declared type, nothing else), as
``docs/events.schema.json`` documents it; a seat's own part is only in its own view."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

import mauseloch
from mauseloch.core.schema import view_types
from mauseloch.core.views import Result, View

from .test_events import setups

SEAT_ONLY = {"hand", "drawn", "legal_moves", "recent"}  # what a spectator's view never carries


def play_some(name: str, players: int, seed: int, options: dict[str, Any], moves: int) -> mauseloch.Game:
    """A position after up to ``moves`` seeded random moves (reactions from random seats)."""
    rng = random.Random(seed)
    g = mauseloch.new_game(name, players=players, seed=seed, options=options)
    for _ in range(moves):
        if g.is_over:
            break
        if g.to_move is not None:
            g.play(rng.choice(g.legal_moves()))
        else:
            seat = rng.choice([s for s in range(g.players) if g.legal_moves(s)])
            g.play(rng.choice(g.legal_moves(seat)), seat=seat, ms=rng.randrange(6000))
    return g


def check_position(name: str, g: mauseloch.Game) -> None:
    view_type, result_type = view_types(name)
    for seat in (None, *range(g.players)):
        typed = g.typed_view(seat)
        assert type(typed) is view_type
        view = g.view(seat)
        assert view == msgspec.to_builtins(typed)
        strict = msgspec.convert(view, view_type, strict=True)  # forbid_unknown_fields: nothing else
        assert msgspec.to_builtins(strict) == view
        assert msgspec.json.decode(msgspec.json.encode(typed), type=view_type) == typed  # what the server sends
        assert view["seat"] == seat and view["game"] == name
        if seat is None:
            assert not SEAT_ONLY & set(view)
        else:
            assert "legal_moves" in view and view["legal_moves"] == g.legal_moves(seat)
    if g.is_over:
        result = g.typed_result()
        assert type(result) is result_type
        assert g.result() == msgspec.to_builtins(result) == g.view(None)["result"]
        assert msgspec.to_builtins(msgspec.convert(g.result(), result_type, strict=True)) == g.result()
        assert list(g.result())[:2] == ["reason", "ranks"]


def test_every_game_declares_a_view_and_a_result() -> None:
    for name in mauseloch.GAMES:
        view_type, result_type = view_types(name)
        assert issubclass(view_type, View) and issubclass(result_type, Result)
        assert view_type.__struct_fields__[:5] == ("game", "players", "options", "seat", "to_move")
        assert result_type.__struct_fields__[:2] == ("reason", "ranks")


def _property(name: str) -> None:
    @settings(max_examples=30, deadline=None)
    @given(setup=setups(name), moves=st.integers(0, 400))
    def run(setup: tuple[int, int, dict[str, Any]], moves: int) -> None:
        players, seed, options = setup
        check_position(name, play_some(name, players, seed, options, moves))

    run()


def test_the_mau_mau_view_is_its_struct_on_random_positions() -> None:
    _property("mau-mau")


def test_the_aus_die_maus_view_is_its_struct_on_random_positions() -> None:
    _property("aus-die-maus")


def test_the_mausgeflippt_view_is_its_struct_on_random_positions() -> None:
    _property("mausgeflippt")


def test_a_view_with_a_stray_field_is_refused() -> None:
    g = mauseloch.new_game("mau-mau", players=2, seed=1)
    view_type, _ = view_types("mau-mau")
    view = g.view(0) | {"secret": 1}
    try:
        msgspec.convert(view, view_type)
    except msgspec.ValidationError as exc:
        assert "secret" in str(exc)
    else:
        raise AssertionError("a field the struct does not declare passed")
