"""The Mausgeflippt terminal client, driven by Textual's pilot (no timing assertions)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.events import seen_by
from mauseloch.core.record import save
from mauseloch.core.views import View
from mauseloch.games.mausgeflippt.events import (
    MausgeflipptCheeseTaken,
    MausgeflipptDraw,
    MausgeflipptEnd,
    MausgeflipptReveal,
)
from mauseloch.locale import Lang
from mauseloch.tui.mausgeflippt import describe, make_app

GUARD = 60  # seconds: only a stalled game reaches it

# events as the rules log them, for the words the terminal finds for them
REVEAL_M07 = MausgeflipptReveal(
    seat=1, mouse="m07", wears=["blazer-blue", "tie-blue", "trousers-blue"], cheese="brie", protected=False
)
END_MICE = MausgeflipptEnd(reason="mice", ranks=[1, 2], mice=[2, 1], laundry=[0, 1], cheese=[0, 0], score=[2, 0])


async def _play(tmp: Path) -> tuple[mauseloch.Game, list[str]]:
    game = mauseloch.new_game("mausgeflippt", players=3, seed=77, options={"hand_size": 4})
    bots = {1: make_bot("mausgeflippt", "hard", seed=1), 2: make_bot("mausgeflippt", "easy", seed=2)}
    app = make_app(game, bots, me=0, time_scale=0.002, countdown=1)
    pressed: list[str] = []
    async with app.run_test() as pilot:
        # react to the first few mice ourselves as soon as they are shown: a card, then flip
        for key in ("1", "space", "9", "2"):
            for _ in range(2000):
                if game.is_over or game.view(None)["window_open"]:
                    break
                await pilot.pause(0.001)
            if game.is_over:
                break
            await pilot.press(key)
            pressed.append(key)
        await pilot.press("x")  # a key past the end of the hand is refused with a message
        while not app.finished:  # the game's end, however slow the machine; a stall meets the guard
            await pilot.pause(0.001)
        await pilot.press("q")
    save(game, tmp / "game.json")
    return game, pressed


@pytest.mark.slow
def test_tui_plays_a_whole_game_and_records_my_reaction_times(tmp_path: Path, run_async: Any) -> None:
    game, pressed = run_async(asyncio.wait_for(_play(tmp_path), GUARD))
    assert game.is_over and pressed
    record = json.loads((tmp_path / "game.json").read_text())
    again = mauseloch.replay(record)
    assert again.result() == game.result() and again.events == game.events
    for _seat, move, *rest in record["moves"]:
        if move != "reveal":
            assert len(rest) == 1 and isinstance(rest[0], int) and rest[0] >= 0
    # every event of the game can be told to a player without failing
    for event in game.event_log():
        describe(seen_by(event, 0), 0)


def test_describe_hides_other_seats_draws() -> None:
    ev = MausgeflipptDraw(seat=1, count=2, wanted=2, cards=["tie-blue", "cap-red"], private=1)
    text = describe(seen_by(ev, 0), 0)
    assert text == "Bot 1 drew 2 cards"
    assert "tie" in (describe(seen_by(ev, 1), 1) or "")


class StillBot:
    """A bot that never reacts, so the keyboard is always first."""

    kind = "still"

    def choose(self, view: View, legal: list[str]) -> str:
        return "reveal"

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        return None, 0


async def _press_once(key: str) -> mauseloch.Game:
    game = mauseloch.new_game("mausgeflippt", players=2, seed=5)
    app = make_app(game, {1: StillBot()}, me=0, countdown=1)
    async with app.run_test() as pilot:
        for _ in range(5000):
            if game.view(None)["window_open"]:
                break
            await pilot.pause(0.001)
        await pilot.press(key)
        await pilot.press("q")
    return game


def test_my_key_press_is_played_with_its_time(run_async: Any) -> None:
    game = run_async(_press_once("1"))
    moves = game.record()["moves"]
    assert moves[0] == [0, "reveal"]
    seat, move, ms = moves[1]
    assert seat == 0 and move.startswith("catch ") and isinstance(ms, int) and ms >= 0
    game = run_async(_press_once("space"))
    assert game.record()["moves"][1][:2] == [0, "flip"]


def test_the_game_goes_on_when_the_process_is_descheduled_past_a_wait(run_async: Any, monkeypatch: Any) -> None:
    """Every wait of the terminal (countdown, a bot's time, the deadline, the pause) ends in its
    call, however late: on a loaded machine the process is often descheduled for longer than a
    wait of a millisecond. Textual's clock here jumps 5 ms at every read, as if it were
    descheduled each time; a one-shot Textual timer then skips its call and the game stops."""
    import textual._time

    now = [0.0]

    def jumping() -> float:
        now[0] += 0.005
        return now[0]

    monkeypatch.setattr(textual._time, "get_time", jumping)
    game = mauseloch.new_game("mausgeflippt", players=2, seed=9, options={"hand_size": 2, "window_ms": 500})
    bots = {1: make_bot("mausgeflippt", "hard", seed=1)}
    app = make_app(game, bots, me=0, time_scale=0.001, countdown=1)

    async def run() -> None:
        async with app.run_test() as pilot:
            while not app.finished:  # a stalled game ends in the guard below
                await pilot.pause(0.001)
            await pilot.press("q")

    run_async(asyncio.wait_for(run(), GUARD))
    assert game.is_over and [m[1] for m in game.record()["moves"]].count("reveal") >= 2


def test_play_command_refuses_bad_arguments() -> None:
    from typer.testing import CliRunner

    from mauseloch.cli import app

    runner = CliRunner()
    for args, message in (
        (["--bots", "wizard"], "unknown bot 'wizard'"),
        (["--players", "7"], "2 to 6"),
        (["--option", "hand_size=20"], "at most 58"),
        (["--option", "window_ms=50"], "at least 100"),
    ):
        result = runner.invoke(app, ["play", "mausgeflippt", *args])
        assert result.exit_code == 2, args
        assert message in " ".join(result.output.split()), (args, result.output)


async def _screen(lang: Lang) -> tuple[str, str, str, list[str]]:
    """The countdown, the hand's title, the log and the hand's cells of a fresh game in ``lang``."""
    from textual.geometry import Region
    from textual.widgets import RichLog

    game = mauseloch.new_game("mausgeflippt", players=2, seed=3)
    app = make_app(game, {1: StillBot()}, me=0, countdown=1000, lang=lang)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        hand = app.query_one("#hand")
        size = hand.outer_size
        cells = [strip.text for strip in hand.render_lines(Region(0, 0, size.width, size.height))]
        log = "\n".join(strip.text for strip in app.query_one("#log", RichLog).lines)
        status, title = app.status, str(hand.border_title)
        await pilot.press("q")
    return status, title, log, cells


def test_the_screen_speaks_german_or_english(run_async: Any) -> None:
    status, title, log, cells = run_async(_screen("de"))
    assert "Nächste Maus in" in status and "Du deckst die nächste Maus auf" in status
    assert title.startswith("Deine Hand") and "Tasten:" in log and "Leertaste" in log
    hand = "\n".join(cells)
    assert any(f"({colour})" in hand for colour in ("blau", "braun", "gelb", "grün", "rot")), hand  # Hose (blau)
    status, title, log, cells = run_async(_screen("en"))
    assert "Next mouse in" in status and "You turn the next mouse" in status
    assert title.startswith("Your hand") and "Keys:" in log and "Nächste" not in status


def test_events_and_the_end_in_german() -> None:
    bot_draw = seen_by(MausgeflipptDraw(seat=1, count=2, wanted=2, cards=["tie-blue", "cap-red"], private=1), 0)
    assert describe(bot_draw, 0, lang="de") == "Bot 1 zieht 2 Karten"
    own = describe(MausgeflipptDraw(seat=0, count=1, wanted=1, cards=["tie-blue"], private=0), 0, lang="de") or ""
    assert own.startswith("Du ziehst") and "Krawatte (blau)" in own
    assert describe(REVEAL_M07, 0, lang="de") == "Bot 1 deckt Maus 7 auf"
    taken = describe(MausgeflipptCheeseTaken(seat=0, cheese="edam", mouse="m07", total=1), 0, lang="de") or ""
    assert "Du nimmst den Käse Edamer (−2)" in taken
    end = describe(END_MICE, 0, 3, lang="de") or ""
    assert "Spielende: auf die letzten 3 Mäuse hat niemand reagiert." in end
    assert "Game over: nobody reacted to the last 3 mice." in (describe(END_MICE, 0, 3) or "")


@pytest.mark.slow
def test_a_whole_game_ends_with_german_results(run_async: Any) -> None:
    async def play() -> tuple[Any, str, str]:
        from textual.widgets import RichLog

        game = mauseloch.new_game("mausgeflippt", players=2, seed=11, options={"hand_size": 3})
        app = make_app(
            game, {1: make_bot("mausgeflippt", "hard", seed=1)}, me=0, time_scale=0.002, countdown=1, lang="de"
        )
        async with app.run_test() as pilot:
            while not app.finished:  # the game's end, however slow the machine; a stall meets the guard
                await pilot.pause(0.001)
            log = "\n".join(strip.text for strip in app.query_one("#log", RichLog).lines)
            status = app.status
            await pilot.press("q")
        return game, status, log

    game, status, log = run_async(asyncio.wait_for(play(), GUARD))
    assert game.is_over and status.startswith("[bold]Spielende — vorn:")
    assert "Punkte" in log and "Wäsche" in log and "drücken zum Verlassen" in log
    assert "Game over" not in log and "points" not in log


def test_option_help_in_german_and_english(monkeypatch: Any) -> None:
    from mauseloch.tui.common import options_help

    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    german = options_help("mausgeflippt")
    assert "hand_size=N: Karten auf der Hand: Wie viele Kleiderkarten jeder hält. (Standard: 7)" in german
    assert "window_ms=N: Reaktionszeit (ms):" in german and "wiederholbar" in german
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    english = options_help("mausgeflippt")
    assert "hand_size=N: Cards in each hand: Clothing cards each player holds. (default: 7)" in english


def test_play_takes_lang() -> None:
    from typer.testing import CliRunner

    from mauseloch.cli import app

    result = CliRunner().invoke(app, ["play", "mausgeflippt", "--lang", "fr"])
    assert result.exit_code == 2 and "--lang must be one of en, de" in result.output
    result = CliRunner().invoke(app, ["play", "mausgeflippt", "--help"])
    assert result.exit_code == 0 and "--lang" in result.output
