"""Deal codes (mauseloch.core.dealcode): the same deal again from a short code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mauseloch
from mauseloch.core.dealcode import code_of, decode, encode
from mauseloch.core.registry import register


def test_every_game_has_its_own_letter() -> None:
    letters = [info.deal_letter for info in mauseloch.GAMES.values()]
    assert all(len(letter) == 1 and letter.isupper() for letter in letters)
    assert len(set(letters)) == len(letters)


def test_a_game_cannot_take_another_games_letter() -> None:
    from dataclasses import replace

    taken = mauseloch.GAMES["mau-mau"]
    with pytest.raises(ValueError, match="deal letter M"):
        register(replace(taken, name="mau-mau-copy"))
    assert "mau-mau-copy" not in mauseloch.GAMES


@given(
    game=st.sampled_from(sorted(mauseloch.GAMES)),
    seed=st.integers(0, (1 << 64) - 1),
    data=st.data(),
)
def test_a_code_names_the_same_deal(game: str, seed: int, data: st.DataObject) -> None:
    info = mauseloch.GAMES[game]
    players = data.draw(st.integers(info.min_players, info.max_players))
    options = {}
    for spec in info.options:
        if data.draw(st.booleans()):
            options[spec.name] = data.draw(st.booleans()) if spec.type is bool else data.draw(st.integers(100, 5000))
    try:
        first = mauseloch.new_game(game, players=players, seed=seed, options=options)
    except ValueError:
        return  # options the game refuses (e.g. too many cards per hand)
    code = code_of(first)
    deal = decode(code.lower())
    again = mauseloch.new_game(deal.game, players=deal.players, seed=deal.seed, options=deal.options)
    assert again.record() == first.record()
    assert deal.code == code


def test_defaults_make_a_short_code() -> None:
    assert encode("mau-mau", 4, {}, 12345) == "M4-C1S"
    assert encode("mau-mau", 4, {"ace_skips": True, "move_limit": 50}, 12345) == "M4-C1S-a1e50"
    assert decode("m4-c1s-A1E50").options["move_limit"] == 50
    assert decode(" M4-CIS ").seed == 12345  # I reads as 1


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "not a deal code"),
        ("M4", "not a deal code"),
        ("X4-12", "no game's letter"),
        ("M9-12", "players=9"),
        ("M4-1U", "not a letter of a seed"),
        ("M4-12-z1", "no option z"),
        ("M4-12-a2", "1 or 0"),
        ("M4-12-e0", "at least 1"),
        ("M4-12-a1x", "letters each followed"),
    ],
)
def test_a_bad_code_says_what_is_wrong(code: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode(code)
