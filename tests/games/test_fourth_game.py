"""The fourth game (tests/games/fourth_game.py), registered by one call, goes through everything
generic: bots, deal codes, replay (library and terminal), simulate and tournament. The lobby and a
web table are in tests/browser/test_fourth_game.py. No generic file names it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

import mauseloch
from mauseloch.bots import bot_kinds, make_bot
from mauseloch.core.dealcode import code_of, decode
from mauseloch.study import simulate as sim
from mauseloch.study import tournament
from tests.games import fourth_game

NAME = fourth_game.INFO.name


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    mauseloch.register_game(fourth_game.INFO)
    yield
    mauseloch.unregister_game(NAME)


def test_one_call_registers_it_and_another_takes_it_back() -> None:
    assert mauseloch.GAMES[NAME] is fourth_game.INFO
    assert fourth_game.CardRace.name == NAME  # a game knows its name, and so its declaration
    mauseloch.unregister_game(NAME)
    assert NAME not in mauseloch.GAMES
    with pytest.raises(ValueError, match="unknown game"):
        mauseloch.new_game(NAME)
    mauseloch.register_game(fourth_game.INFO)  # the fixture takes it back once more


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"name": "Card Race"}, "lower case letters"),
        ({"deal_letter": ""}, "one capital letter"),
        ({"deal_letter": "r"}, "one capital letter"),
        ({"deal_letter": "M"}, "deal letter M is mau-mau's"),
        ({"ranked_by": (("cards", "less"),)}, "'fewer' or 'more'"),
    ],
)
def test_a_declaration_the_platform_could_not_use_is_refused(change: dict[str, object], refusal: str) -> None:
    from dataclasses import replace

    mauseloch.unregister_game(NAME)
    with pytest.raises(ValueError, match=refusal):
        mauseloch.register_game(replace(fourth_game.INFO, **change))
    assert NAME not in mauseloch.GAMES and "Card Race" not in mauseloch.GAMES
    mauseloch.register_game(fourth_game.INFO)


def test_its_declared_bot_and_the_random_bot_play_it() -> None:
    assert bot_kinds(NAME) == ["random", "lowest"]
    g = mauseloch.new_game(NAME, players=3, seed=8)
    bots = [make_bot(NAME, kind, seed=s) for s, kind in enumerate(["lowest", "random", "lowest"])]
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        g.play(bots[seat].choose(g.typed_view(seat), g.legal_moves(seat)), seat=seat)
    assert g.result()["reason"] == "out"
    with pytest.raises(ValueError, match="unknown bot 'heuristic'"):
        make_bot(NAME, "heuristic")


def test_deal_codes_use_its_letter() -> None:
    g = mauseloch.new_game(NAME, players=4, seed=123, options={"hand_size": 3})
    code = code_of(g)
    assert code.startswith("R4-")
    deal = decode(code)
    assert (deal.game, deal.players, deal.seed, deal.options) == (NAME, 4, 123, dict(g.options))


def _finished(seed: int) -> mauseloch.Game:
    g = mauseloch.new_game(NAME, players=3, seed=seed)
    bot = make_bot(NAME, "random", seed=seed)
    while not g.is_over:
        g.play(bot.choose(g.typed_view(g.to_move), g.legal_moves()))
    return g


def test_a_record_replays_to_the_same_game() -> None:
    g = _finished(5)
    again = mauseloch.replay(json.loads(json.dumps(g.record())))
    assert again.events == g.events and again.result() == g.result()
    assert [again.view(s) for s in range(3)] == [g.view(s) for s in range(3)]


def test_the_terminal_replays_it_with_generic_text() -> None:
    from rich.console import Console

    from mauseloch.tui.replay import Replayer

    g = _finished(6)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    Replayer(console, g.record(), "en", names=["Ann", "Ben", "Cem"]).run(interactive=False)
    text = out.getvalue()
    first_move = g.record()["moves"][0][1]
    assert f"Ann — {first_move}" in text  # a move as recorded: the game has no terminal module
    assert f"play: seat 0, card {first_move}" in text or "draw: seat 0, count 1" in text  # an event's fields
    assert "   Ann ▶ ['" in text  # every hand (a replay sees them all), who is to move
    assert "   pile: " in text and "   hands: [5, 5, 5]" in text  # the public view, an entry a line
    assert "┃ rank ┃ player ┃ cards ┃" in text  # the result table from result()


def test_simulate_plays_it_through_the_default_runner() -> None:
    spec = sim.make_spec(NAME, 3, "lowest,random,random", 11, ["hand_size=4"])
    assert sim.chunk_runner(spec) is sim.run_games  # it declares no runner of its own
    report = sim.report(spec, sim.simulate(spec, 60, workers=1))
    assert report["game"] == NAME and report["games"] == 60
    assert report["length"]["unit"] == "moves"
    assert set(report["reasons"]) == {"out"}
    assert sum(seat["wins"] for seat in report["seats"]) >= 60
    assert "cards" in report["seat_figures"]
    # the same seed gives the same report with two workers (forked: they know the game too)
    assert sim.report(spec, sim.simulate(spec, 60, workers=2)) == report


def test_a_tournament_compares_its_bots() -> None:
    spec = tournament.make_tournament(NAME, "lowest,random", seed=3)
    result = tournament.play(spec, 40)
    report = tournament.report(spec, result, bootstrap=50)
    assert report["game"] == NAME and report["games"] == 80
    shares = {row["bot"]: row["win_share"]["mean"] for row in report["kinds"]}
    assert set(shares) == {"lowest", "random"}
    assert shares["lowest"] > shares["random"]  # laying low cards first wins the race more often
