"""examples/train_maumau.py end to end, smoke-sized: it trains (the weights move), plays the
evaluation games and reports consistent counts. The win rate itself is measured by running the
example (README), not asserted here: a few hundred games would make such a test flaky."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from tests.paths import ROOT

pytest.importorskip("gymnasium")

EXAMPLE = ROOT / "examples" / "train_maumau.py"


def _load():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_maumau", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_trains_and_evaluates(tmp_path: Path) -> None:
    example = _load()
    policy, episodes = example.train(minutes=5, seed=3, max_episodes=40)
    assert episodes == 40
    assert np.abs(policy.w).sum() > 0 and np.abs(policy.theta).sum() > 0
    result = example.evaluate(policy, games=20, seed=3)
    assert result["games"] == 20 and 0 <= result["wins"] + result["ties"] <= 20
    assert result["win_rate"] == result["wins"] / 20
    again, _ = example.train(minutes=5, seed=3, max_episodes=40)
    assert np.array_equal(again.theta, policy.theta)  # seeded: the same run learns the same weights
    policy.save(str(tmp_path / "p.npz"))
    assert set(np.load(tmp_path / "p.npz").files) == {"theta", "w"}
