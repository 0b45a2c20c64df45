"""Duplicate tournaments: every deal in every seat arrangement, intervals and ratings, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch.cli import app
from mauseloch.study import tournament as tour
from mauseloch.study.backend import LocalBackend


def test_arrangements_are_distinct_orderings() -> None:
    assert len(tour.arrangements(("a", "b", "c"), "permutations")) == 6
    assert tour.arrangements(("a", "b", "c"), "rotations") == (("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"))
    four = tour.arrangements(("a", "b", "b", "b"), "permutations")
    assert len(four) == 4 and {a.index("a") for a in four} == {0, 1, 2, 3}  # the odd bot in every seat
    with pytest.raises(ValueError, match="seating"):
        tour.arrangements(("a", "b"), "shuffled")


def test_every_deal_is_played_in_every_arrangement(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[tuple[tuple[str, ...], int]] = []
    real = tour.game_runner

    def spy(game: str) -> Any:
        play = real(game)

        def run(kinds: Any, seed: int, options: dict[str, Any]) -> Any:
            played.append((tuple(kinds), seed))
            return play(kinds, seed, options)

        return run

    monkeypatch.setattr(tour, "game_runner", spy)
    spec = tour.make_tournament("mau-mau", "heuristic,random,random", seed=5)
    tour.play(spec, 4)
    assert spec.sim.players == 3 and len(spec.arrangements) == 3
    seeds = sorted({seed for _, seed in played})
    assert seeds == sorted(spec.sim.game_seed(d) for d in range(4))
    for seed in seeds:  # the same deal for every arrangement, once each
        assert sorted(k for k, s in played if s == seed) == sorted(spec.arrangements)


def test_same_report_for_any_number_of_workers() -> None:
    spec = tour.make_tournament("mau-mau", "heuristic,random", seed=11)
    one = tour.report(spec, tour.play(spec, 30, LocalBackend(1)), bootstrap=50)
    two = tour.report(spec, tour.play(spec, 30, LocalBackend(2)), bootstrap=50)
    assert one == two
    assert one["games"] == 60 and one["deals"] == 30
    kinds = {row["bot"]: row for row in one["kinds"]}
    # two seats: one winner per game, so the win shares add up to one and so do the pairwise shares
    assert math.isclose(kinds["heuristic"]["win_share"]["mean"] + kinds["random"]["win_share"]["mean"], 1.0)
    assert math.isclose(one["pairwise"]["heuristic"]["random"] + one["pairwise"]["random"]["heuristic"], 1.0)
    assert set(kinds["random"]["figures"]) == {"cards", "points"}
    low, high = kinds["heuristic"]["rating_ci95"]
    assert low <= kinds["heuristic"]["rating"] <= high
    assert math.isclose(kinds["heuristic"]["rating"], -kinds["random"]["rating"])  # mean 0


def test_bradley_terry_recovers_known_strengths() -> None:
    # i above j in p_i / (p_i + p_j) of their games, p = (4, 2, 1): expected win counts
    p = np.array([4.0, 2.0, 1.0])
    wins = 3000 * p[:, None] / (p[:, None] + p[None, :])
    np.fill_diagonal(wins, 0)
    ratings = tour.elo(tour.bradley_terry(wins))
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(2), abs=0.5)
    assert ratings[1] - ratings[2] == pytest.approx(400 * math.log10(2), abs=0.5)
    assert ratings.sum() == pytest.approx(0, abs=1e-9)
    # a bot that never wins still gets a (low, finite) rating
    assert np.isfinite(tour.elo(tour.bradley_terry(np.array([[0.0, 50.0], [0.0, 0.0]])))).all()


def test_tournament_command_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "t.png"
    res = CliRunner().invoke(
        app,
        ["tournament", "mausgeflippt", "--bots", "hard,random", "-n", "3", "-w", "1", "--json", "--plot", str(plot)],
    )
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout[res.stdout.index("{") :])
    assert rep["players"] == 2 and rep["games"] == 6 and [k["bot"] for k in rep["kinds"]] == ["hard", "random"]
    assert "score" in rep["kinds"][0]["figures"] and plot.stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "genius,random"], "unknown bot"),
        (["--bots", "heuristic,random", "-p", "3"], "exactly 3"),
        (["--bots", "heuristic,random", "--seating", "shuffled"], "seating must be one of"),
        (["--bots", "heuristic,random", "--backend", "cloud"], "unknown backend"),
        (["--bots", "heuristic,random", "--address", "auto"], "--address is for the ray backend"),
        (["--bots", "heuristic,random", "-n", "0"], "at least 1"),
        (["--bots", "heuristic,random", "--plot", "/nonexistent-folder/t.png"], "does not exist"),
        # one kind would only play itself and report 50 %: refused, pointing at simulate
        (["--bots", "random"], "name at least two different kinds"),
        (["--bots", "random,random"], "mauseloch simulate mau-mau --bots random"),
        (["--bots", "heuristic", "-p", "3"], "name at least two different kinds"),
    ],
)
def test_tournament_command_refuses_bad_arguments(args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["tournament", "mau-mau", "-w", "1", *args])
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output, res.output


@pytest.mark.parametrize("game", list(mauseloch.GAMES))
def test_every_game_holds_a_tournament_between_its_registered_bots(game: str) -> None:
    from mauseloch.bots import bot_kinds

    kinds = bot_kinds(game)
    bots = [kinds[-1], kinds[0]]  # strongest and weakest (every game has two kinds at least)
    spec = tour.make_tournament(game, ",".join(bots), seed=3)
    rep = tour.report(spec, tour.play(spec, 2), bootstrap=20)
    assert rep["games"] == 2 * len(spec.arrangements) and rep["players"] == 2
    for row in rep["kinds"]:
        assert 0 <= row["win_share"]["mean"] <= 1 and 1 <= row["mean_rank"]["mean"] <= 2
