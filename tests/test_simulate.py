"""The simulator around any game: arguments and outputs checked before any work starts, and
the same report whatever the backend and the number of workers."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from mauseloch.cli import app
from mauseloch.simulate import make_spec, report, simulate


def test_options_the_engine_refuses_are_refused_before_any_game() -> None:
    # 5 players × 12 cards is more than the 58 clothing cards: the engine refuses such a game
    with pytest.raises(ValueError, match="hand_size=12 is too large for 5 players"):
        make_spec("mausgeflippt", 5, "random", 0, ["hand_size=12"])


def test_simulate_command_says_what_is_wrong_in_one_line() -> None:
    res = CliRunner().invoke(
        app, ["simulate", "mausgeflippt", "--players", "5", "--option", "hand_size=12", "-n", "4", "-w", "2"]
    )
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "hand_size=12 is too large for 5 players" in lines[0], res.output
