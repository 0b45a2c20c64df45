"""The Mausgeflippt terminal client, driven by Textual's pilot (no timing assertions)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.record import save
from mauseloch.tui.mausgeflippt import describe, make_app


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
        for _ in range(20000):
            if app.finished:
                break
            await pilot.pause(0.001)
        assert app.finished
        await pilot.press("q")
    save(game, tmp / "game.json")
    return game, pressed


def test_tui_plays_a_whole_game_and_records_my_reaction_times(tmp_path: Path, run_async: Any) -> None:
    game, pressed = run_async(_play(tmp_path))
    assert game.is_over and pressed
    record = json.loads((tmp_path / "game.json").read_text())
    again = mauseloch.replay(record)
    assert again.result() == game.result() and again.events == game.events
    for _seat, move, *rest in record["moves"]:
        if move != "reveal":
            assert len(rest) == 1 and isinstance(rest[0], int) and rest[0] >= 0
    # every event of the game can be told to a player without failing
    for event in game.events:
        describe(mauseloch.event_for(event, 0), 0)


def test_describe_hides_other_seats_draws() -> None:
    ev = {"type": "draw", "seat": 1, "count": 2, "wanted": 2, "cards": ["tie-blue", "cap-red"], "private": 1}
    text = describe(mauseloch.event_for(ev, 0), 0)
    assert text == "Bot 1 drew 2 cards"
    assert "tie" in (describe(mauseloch.event_for(ev, 1), 1) or "")


class StillBot:
    """A bot that never reacts, so the keyboard is always first."""

    kind = "still"

    def choose(self, view: dict, legal: list[str]) -> str:
        return "reveal"

    def react(self, view: dict, legal: list[str]) -> tuple[str | None, int]:
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
