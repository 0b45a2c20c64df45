"""``mauseloch train mau-mau``: a tiny Deep Monte Carlo run trains, evaluates, checkpoints and
resumes; the command refuses bad input without touching the run folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from mauseloch.cli import app

pytest.importorskip("jax", reason="training needs the train extra (JAX, Flax, Optax): pip install 'mauseloch[train]'")

from mauseloch.games.maumau.learn.dmc import Config, Trainer, evaluate
from mauseloch.games.maumau.learn.policy import NUM_FEATURES, QPolicy
from tests.learn.tiny import TINY_DMC

TINY = TINY_DMC


@pytest.mark.slow
def test_a_tiny_run_trains_checkpoints_and_resumes(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert len(rows) >= 2 and rows[-1]["updates"] > rows[0]["updates"] == 0
    assert rows[-1]["games"] > 0 and rows[-1]["transitions"] > 0
    assert 0.0 <= rows[-1]["win2"]["win"] <= 1.0 and rows[-1]["win4"]["players"] == 4
    assert (run / "curve.png").stat().st_size > 0
    policy = QPolicy.load(run / "best.npz")
    assert [w.shape for w, _ in policy.layers] == [(NUM_FEATURES, 16), (16, 47)]
    # a second start without --resume is refused and changes nothing
    again = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert again.exit_code == 2 and "--resume" in again.output
    assert len((run / "log.jsonl").read_text().splitlines()) == len(rows)
    # --resume goes on from the checkpoint: the counters keep counting
    more = CliRunner().invoke(
        app, ["train", "mau-mau", "--config", str(config), "--run", str(run), "--resume", "--minutes", "0.1"]
    )
    assert more.exit_code == 0, more.output
    later = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert later[-1]["updates"] > rows[-1]["updates"] and later[-1]["resumes"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["train", "aus-die-maus"], "mau-mau only"),
        (["train", "mau-mau", "--threads", "0"], "--threads"),
        (["train", "mau-mau", "--minutes", "-1"], "--minutes"),
    ],
)
def test_bad_input_is_refused(tmp_path: Path, args: list[str], message: str) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    run = tmp_path / "run"
    result = CliRunner().invoke(app, [*args, "--config", str(config), "--run", str(run)])
    assert result.exit_code == 2 and message in result.output
    assert not run.exists()


def test_an_unknown_setting_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("seed = 1\nlearning_rate = 0.1\n")
    with pytest.raises(ValueError, match="learning_rate"):
        Config.load(config)


@pytest.mark.slow
def test_the_same_seed_trains_the_same_weights(tmp_path: Path) -> None:
    """Training is deterministic for a seed and a number of updates (one thread)."""
    config = Config(seed=5, hidden=[8], batch_size=32, buffer=2000, games={"2": 8}, minutes=1.0)
    weights = []
    for name in ("a", "b"):
        trainer = Trainer(config, tmp_path / name)
        batches = trainer._make_batches()
        while trainer.counters["updates"] < 5:
            trainer._step_all(batches)
            if trainer.buf_len >= config.batch_size:
                trainer._update()
        weights.append(trainer.policy().layers)
    for (w1, b1), (w2, b2) in zip(*weights, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


def test_the_evaluation_counts_wins_per_deal() -> None:
    """A policy that always plays its lowest legal action id loses to the heuristic more than it wins."""
    zero = QPolicy([(np.zeros((NUM_FEATURES, 47), dtype=np.float32), np.zeros(47, dtype=np.float32))])
    result = evaluate(zero, 2, 200, seed=1)
    assert result["games"] == 400 and result["ci95"][0] <= result["win"] <= result["ci95"][1]
    assert result["win"] < 0.5


def test_a_first_layout_network_widened_plays_as_before() -> None:
    """``init`` from a 159-input network: zero weights for the rivals' history, the same values."""
    from mauseloch.games.maumau.kernel import MauMauBatch
    from mauseloch.games.maumau.learn.dmc import widened
    from mauseloch.games.maumau.learn.policy import BASE_FEATURES

    rng = np.random.default_rng(4)
    old = QPolicy([(rng.normal(size=(BASE_FEATURES, 8)), rng.normal(size=8)), (rng.normal(size=(8, 47)), np.zeros(47))])
    new = QPolicy(widened(old))
    batch = MauMauBatch(64, players=3, seed=2)
    for _ in range(30):
        batch.step(old.act(batch.obs, batch.masks))
    assert batch.obs[:, 112:].any()  # the history is there, and the widened network ignores it
    assert new.width == NUM_FEATURES and old.width == BASE_FEATURES
    before = old.values(old.features(batch.obs, batch.masks))
    assert np.allclose(new.values(new.features(batch.obs, batch.masks)), before, rtol=1e-4, atol=1e-3)
