"""The spec's test vectors (tests/vectors, copied from the spec; see its README): every line must replay exactly."""

from __future__ import annotations

import json

import pytest

import mauseloch
from tests.paths import VECTORS

VECTOR_FILES = {
    "mau-mau": "mau-mau.jsonl",
    "aus-die-maus": "aus-die-maus.jsonl",
    "mausgeflippt": "mausgeflippt.jsonl",
}
FIGURES = {
    "mau-mau": ("cards", "points"),
    "aus-die-maus": ("cards", "chips"),
    "mausgeflippt": ("mice", "laundry", "cheese", "score"),
}


def _cases() -> list[pytest.param]:
    cases = []
    for game, filename in VECTOR_FILES.items():
        lines = [ln for ln in (VECTORS / filename).read_text(encoding="utf-8").splitlines() if ln.strip()]
        assert lines, f"{filename} holds no vectors"
        cases.extend(pytest.param(game, json.loads(ln), id=f"{game}-{i}") for i, ln in enumerate(lines))
    return cases


def _check_result(g: mauseloch.Game, game: str, want: dict) -> None:
    assert g.is_over
    assert g.to_move is None
    res = g.result()
    assert res["reason"] == want["reason"]
    assert res["ranks"] == want["ranks"]
    for key in FIGURES[game]:
        assert res[key] == want[key], key


@pytest.mark.parametrize(("game", "vector"), _cases())
def test_vector(game: str, vector: dict) -> None:
    if game not in mauseloch.GAMES:
        pytest.skip(f"{game} is not registered in mauseloch.GAMES yet")
    g = mauseloch.new_game(game, players=vector["players"], options=vector["options"], deck=vector["deck"])
    assert g.record()["options"] == vector["options"]
    if game == "aus-die-maus":
        for i in range(vector["flips"]):
            assert not g.is_over, f"over after {i} flips, expected {vector['flips']}"
            assert g.legal_moves() == ["flip"]
            g.play("flip")
    elif game == "mau-mau":
        for i, step in enumerate(vector["steps"]):
            assert g.to_move == step["to_move"], f"step {i}"
            assert sorted(g.legal_moves()) == step["legal"], f"step {i}"
            assert sorted(g.legal_moves(step["to_move"])) == step["legal"], f"step {i}"
            g.play(step["move"])
    else:
        for i, step in enumerate(vector["steps"]):
            assert sorted(g.legal_moves(step["seat"])) == step["legal"], f"step {i}"
            g.play(step["move"], seat=step["seat"])
    _check_result(g, game, vector["result"])
    # the record of a vector game replays to the same end
    again = mauseloch.replay(json.loads(json.dumps(g.record())))
    assert again.events == g.events
    assert again.result() == g.result()
