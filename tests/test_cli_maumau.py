"""The terminal client and replay command, driven as a person would: typed lines in, text out."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch.cli import app

runner = CliRunner()


def _keyboard(lines: int = 6000) -> str:
    """A stubborn player: cycles through card numbers (a 'C' after each, used when a jack asks
    for a wish), draw, pass and take. Refused input must be explained and retried, so this
    reaches the end of any game."""
    cycle = ["1", "C", "2", "C", "3", "C", "4", "C", "5", "C", "6", "C", "d", "p", "t", "7", "8", "9", "xx", "99"]
    return "\n".join(itertools.islice(itertools.cycle(cycle), lines)) + "\n"


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--option", "ace_skips=true"],
        ["--option", "seven_draw_then_play=true"],
        ["--option", "no_jack_on_jack=true"],
        ["--option", "no_win_with_jack=true"],
        ["--option", "move_limit=40"],
    ],
)
def test_play_to_the_end_save_and_replay(tmp_path: Path, options: list[str]) -> None:
    record_file = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "mau-mau", "--players", "3", "--seed", "11", "--save", str(record_file), *options],
        input=_keyboard(),
    )
    assert result.exit_code == 0, result.output
    assert "Result" in result.output and "Rank" in result.output
    record = json.loads(record_file.read_text())
    game = mauseloch.replay(record)
    assert game.is_over
    for pair in options[1:]:
        name, _, value = pair.partition("=")
        assert record["options"][name] == (int(value) if value.isdigit() else value == "true")

    replayed = runner.invoke(app, ["replay", str(record_file), "--all"])
    assert replayed.exit_code == 0, replayed.output
    assert "Result" in replayed.output
    as_json = runner.invoke(app, ["replay", str(record_file), "--json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.output)["result"] == game.result()


def test_bad_input_is_explained_and_changes_nothing() -> None:
    result = runner.invoke(app, ["play", "mau-mau", "--seed", "3", "--players", "3"], input="ZZ\n42\nq\n")
    assert "is not a move" in result.output
    assert "There is no card 42" in result.output
    assert result.exit_code == 0  # q leaves the game, the same in every game
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "players=9 is not allowed"),
        (["--option", "ace_skips=maybe"], "must be true or false"),
        (["--option", "colour=red"], "unknown option"),
        (["--bots", "genius"], "unknown bot"),
        (["--option", "move_limit=0"], "at least 1"),
    ],
)
def test_bad_arguments_get_a_clear_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "mau-mau", *args], input="q\n")
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "not valid JSON"),
        (b'{"game": "chess", "players": 2, "options": {}, "seed": 1, "deck": [], "moves": []}', "unknown game"),
        (b'{"hello": 1}', "missing"),
        (b"\xff\xfe\x00binary", "not a text file"),
        (b"[1, 2, 3]", "must be a JSON object"),
    ],
)
def test_replay_refuses_corrupt_or_foreign_files(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_replay_refuses_an_illegal_move(tmp_path: Path) -> None:
    game = mauseloch.new_game("mau-mau", players=2, seed=5)
    record = game.record()
    record["moves"] = [[0, "take"]]
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 2
    assert "record move 0" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["play", "mau-mau", "--players", "2", "--seed", "1"],
        ["play", "aus-die-maus", "--players", "2", "--auto", "--speed", "1000", "--seed", "1"],
    ],
)
def test_an_unwritable_record_file_is_a_clear_message(tmp_path: Path, args: list[str]) -> None:
    target = tmp_path / "no-such-folder" / "game.json"
    result = runner.invoke(app, [*args, "--save", str(target)], input=_keyboard())
    assert result.exit_code == 2  # checked before the game starts
    assert "cannot save the record" in result.output
    assert "Traceback" not in result.output
