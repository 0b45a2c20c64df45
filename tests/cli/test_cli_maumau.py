"""The terminal client and replay command, driven as a person would: typed lines in, text out."""

from __future__ import annotations

import itertools
import json
import re
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


def _first_legal(prefix: str) -> tuple[int, str]:
    """A seed whose first move (seat 0, 3 players) may be a card of rank ``prefix``, and that card."""
    for seed in range(500):
        legal = mauseloch.new_game("mau-mau", players=3, seed=seed).legal_moves()
        for move in legal:
            if move.startswith(prefix):
                return seed, move.partition(":")[0]
    raise AssertionError(f"no seed lets seat 0 play a {prefix}")


def test_cards_are_shown_one_way_with_t_for_the_ten() -> None:
    """Legal and other cards alike in one notation, the one moves use (T♦ and T♠, never 10♠)."""
    from mauseloch.tui.maumau import pretty

    assert pretty("TS") == "[bold]T♠[/]" and pretty("TD", "dim") == "[dim]T♦[/]"
    result = runner.invoke(app, ["play", "mau-mau", "--players", "3", "--seed", "11"], input=_keyboard())
    assert result.exit_code == 0, result.output
    assert re.search(r"T[♣♠♥♦]", result.output)
    assert not re.search(r"10[♣♠♥♦]", result.output)


@pytest.mark.parametrize("spelling", ["10{s}", "T{s}", "10{sym}", "t{low}"])
def test_a_ten_may_be_typed_with_10_symbols_or_lower_case(tmp_path: Path, spelling: str) -> None:
    seed, ten = _first_legal("T")
    symbol = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[ten[1]]
    typed = spelling.format(s=ten[1], sym=symbol, low=ten[1].lower())
    record_file = tmp_path / "game.json"
    args = ["play", "mau-mau", "--players", "3", "--seed", str(seed), "--save", str(record_file)]
    result = runner.invoke(app, args, input=f"{typed}\nq\n")
    assert "Traceback" not in result.output
    assert json.loads(record_file.read_text())["moves"][0] == [0, ten], result.output


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("{j}:X\n", ["'X' is not a suit to wish"]),
        ("{j}:\n", ["a jack needs a wished suit"]),
        ("{j}\n\nx\n", ["a jack needs a wished suit", "'x' is not a suit to wish"]),
        ("{j}\n", []),
    ],
)
def test_a_jack_without_a_good_wish_asks_for_the_wish_again(tmp_path: Path, typed: str, said: list[str]) -> None:
    """A bad or missing wish is named and asked for again (not refused as a card that does not fit)."""
    seed, jack = _first_legal("J")
    record_file = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "mau-mau", "--players", "3", "--seed", str(seed), "--save", str(record_file)],
        input=typed.format(j=jack) + "♥\nq\n",
    )
    assert "does not fit" not in result.output and "Traceback" not in result.output
    for text in said:
        assert text in result.output
    assert "Wish a suit" in result.output
    assert json.loads(record_file.read_text())["moves"][0] == [0, f"{jack}:H"], result.output


def test_the_terminal_says_the_bots_compile_before_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' kernels are compiled (or loaded) before the first move, and the terminal says
    so in the player's language when that takes seconds; random and heuristic bots need none of it."""
    from mauseloch.games.maumau import kernel as kernel

    monkeypatch.setattr(kernel, "bot_kernels_need_compiling", lambda: True)
    said = runner.invoke(app, ["play", "mau-mau", "--bots", "search-fast", "--lang", "en"], input="q\n")
    assert said.exit_code == 0 and "compile their fast kernel, once" in said.output, said.output
    german = runner.invoke(app, ["play", "mau-mau", "--bots", "search-fast", "--lang", "de"], input="q\n")
    assert german.exit_code == 0 and "schnellen Rechenkern, einmalig" in german.output, german.output
    for plain in ("random", "heuristic"):
        quiet = runner.invoke(app, ["play", "mau-mau", "--bots", plain, "--lang", "en"], input="q\n")
        assert quiet.exit_code == 0 and "fast kernel" not in quiet.output
