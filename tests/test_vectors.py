"""The public test vectors of shared/spec/vectors (see its README): every line must replay exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import mauseloch

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


def _vector_dir() -> Path | None:
    candidates = [
        os.environ.get("MAUSELOCH_VECTORS", ""),
        Path(__file__).resolve().parent / "vectors",
        Path(__file__).resolve().parents[1] / "spec" / "vectors",
        Path(__file__).resolve().parents[2] / "shared" / "spec" / "vectors",
        "/work/shared/spec/vectors",
    ]
    for c in candidates:
        if c and (Path(c) / "mau-mau.jsonl").is_file():
            return Path(c)
    return None


VECTOR_DIR = _vector_dir()


def _cases() -> list[pytest.param]:
    cases = []
    for game, filename in VECTOR_FILES.items():
        if VECTOR_DIR is None:
            cases.append(pytest.param(game, None, id=f"{game}-missing"))
            continue
        lines = [ln for ln in (VECTOR_DIR / filename).read_text(encoding="utf-8").splitlines() if ln.strip()]
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
def test_vector(game: str, vector: dict | None) -> None:
    if vector is None:
        pytest.skip("shared/spec/vectors not found (set MAUSELOCH_VECTORS to the directory)")
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
