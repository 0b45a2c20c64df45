"""Distilling the search (``learn.distill``): the teacher labels every legal move with its
search value, the labels are deterministic, and ``mauseloch train`` with a distill config labels,
fits, evaluates and refuses to overwrite a run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.cli import app
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.bots.learned import greedy, shipped_policy
from mauseloch.games.maumau.learn.distill import CHUNK, DistillConfig, Task, Teacher, _tasks, label_chunk
from mauseloch.games.maumau.learn.policy import NUM_FEATURES, QPolicy
from tests.learn.tiny import TINY_DMC

TINY = """
method = "distill"
seed = 3
workers = 1
hidden = [16]
batch_size = 32
epochs = 2
average_from = 1
eval_deals_2 = 10
eval_deals_4 = 5
deals = {"2" = 50, "4" = 50}
playouts = {"2" = 6, "4" = 6}
"""


def test_the_teacher_labels_every_legal_move_and_plays_its_best() -> None:
    g = mauseloch.new_game(MauMau.name, players=3, seed=11)
    teacher = Teacher(5, 12)
    rivals = [make_bot(MauMau.name, "heuristic", seed=s) for s in range(3)]
    chosen: list[tuple[str, list[str]]] = []
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        legal = g.legal_moves()
        if seat == 1:
            move = teacher.choose(g.typed_view(seat), legal)
            if len(legal) > 1:
                chosen.append((move, legal))
        else:
            move = rivals[seat].choose(g.typed_view(seat), legal)
        g.play(move)
    assert len(teacher.rows) == len(chosen) > 0
    for (obs, mask, values), (move, legal) in zip(teacher.rows, chosen, strict=True):
        assert obs.shape == (268,) and mask.sum() == len(legal)
        labelled = ~np.isnan(values)
        assert (labelled == mask.astype(bool)).all()  # every legal move, nothing else
        assert ((values[labelled] >= 0) & (values[labelled] <= 1)).all()
        best = max(legal, key=lambda m: values[MauMau._ACTION_ID[m]])
        assert values[MauMau._ACTION_ID[move]] == values[MauMau._ACTION_ID[best]]


def test_with_a_student_the_seat_plays_the_students_moves_and_the_teacher_labels_them() -> None:
    """DAgger: the labels fall on the positions the student reaches."""
    student = shipped_policy()
    g = mauseloch.new_game(MauMau.name, players=2, seed=4)
    teacher, plain = Teacher(5, 8, student), Teacher(5, 8)
    rival = make_bot(MauMau.name, "heuristic", seed=1)
    differs = 0
    while not g.is_over:
        seat = g.to_move
        assert seat is not None
        legal = g.legal_moves()
        if seat == 0:
            view = g.typed_view(seat)
            move = teacher.choose(view, legal)
            own = plain.choose(view, legal)  # the teacher alone, on the same positions
            if len(legal) > 1:
                obs, _, values = teacher.rows[-1]
                assert move == greedy(student, obs, legal)
                assert np.array_equal(values, plain.rows[-1][2], equal_nan=True)  # the same labels
                differs += move != own
        else:
            move = rival.choose(g.typed_view(seat), legal)
        g.play(move)
    assert len(teacher.rows) > 0 and differs > 0  # the student does not always play the teacher's move


def test_student_games_get_shards_and_deals_of_their_own(tmp_path: Path) -> None:
    config = DistillConfig(deals={"2": 50}, student="s.npz", student_deals={"2": 100}, playouts={"2": 4})
    tasks = _tasks(config, tmp_path)
    assert [Path(t.path).name for t in tasks] == ["p2-000000.npz", "s2-000000.npz", "s2-000050.npz"]
    assert [t.student for t in tasks] == ["", "s.npz", "s.npz"]
    with pytest.raises(ValueError, match="needs a student"):
        _tasks(DistillConfig(student_deals={"2": 50}), tmp_path)
    policy = tmp_path / "student.npz"
    shipped_policy().save(policy)
    ours = label_chunk(Task(str(tmp_path / "s.npz"), 2, 0, 4, 9, str(policy)))
    theirs = label_chunk(Task(str(tmp_path / "p.npz"), 2, 0, 4, 9))
    with np.load(ours) as x, np.load(theirs) as y:
        assert x["obs"].shape[0] >= CHUNK and not np.array_equal(x["obs"][:5], y["obs"][:5])  # other deals


def test_a_shard_is_the_same_for_the_same_seed(tmp_path: Path) -> None:
    a = label_chunk(Task(str(tmp_path / "a.npz"), 2, 0, 4, 9))
    b = label_chunk(Task(str(tmp_path / "b.npz"), 2, 0, 4, 9))
    with np.load(a) as x, np.load(b) as y:
        assert x["obs"].shape[0] >= CHUNK  # at least a decision a game
        for key in ("obs", "mask", "values"):
            assert np.array_equal(x[key], y[key], equal_nan=True)


@pytest.mark.slow
def test_train_with_a_distill_config_labels_fits_and_refuses_to_overwrite(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="fitting needs the train extra (JAX, Flax, Optax)")
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (run / "data").iterdir()) == ["p2-000000.npz", "p4-000000.npz"]
    rows = [json.loads(line) for line in (run / "fit.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in rows] == [1, 2, "average"] and rows[0]["positions"] > 0
    assert 0.0 <= rows[-1]["win2"]["win"] <= 1.0 and rows[-1]["win4"]["players"] == 4
    # the run's policy is the mean of the two epochs' weights
    mean = QPolicy.load(run / "best.npz")
    epochs = [QPolicy.load(run / f"policy-epoch00{e}.npz") for e in (1, 2)]
    assert [w.shape for w, _ in mean.layers] == [(NUM_FEATURES, 16), (16, 47)]
    assert np.allclose(mean.layers[0][0], (epochs[0].layers[0][0] + epochs[1].layers[0][0]) / 2)
    again = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert again.exit_code == 2 and "--resume" in again.output
    assert len((run / "fit.jsonl").read_text().splitlines()) == 3


def test_an_unknown_method_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('method = "ppo"\n')
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(tmp_path / "r")])
    assert result.exit_code == 2 and "dmc, distill or hands" in result.output
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_one_command_trains_the_first_stage_when_its_policy_is_missing(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="training needs the train extra (JAX, Flax, Optax)")
    (tmp_path / "dmc.toml").write_text(TINY_DMC)
    config = tmp_path / "tiny.toml"
    config.write_text(
        TINY.replace('deals = {"2" = 50, "4" = 50}', 'deals = {"2" = 50}')
        + 'init = "stage1/best.npz"\ninit_config = "dmc.toml"\ninit_minutes = 0.05\n'
    )
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "stage1" / "checkpoint.pkl").exists() and (tmp_path / "stage1" / "best.npz").exists()
    assert (run / "best.npz").exists()
    # without init_config a missing init is refused before anything is labelled
    config.write_text(TINY + 'init = "nowhere/best.npz"\n')
    other = tmp_path / "other"
    refused = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(other)])
    assert refused.exit_code == 2 and "init_config" in refused.output
    assert not (other / "data").exists()


def test_a_missing_student_is_refused_before_anything_is_labelled(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text(TINY + 'student = "nowhere.npz"\nstudent_deals = {"2" = 50}\n')
    run = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "mau-mau", "--config", str(config), "--run", str(run)])
    assert result.exit_code == 2 and "student" in result.output and "nowhere.npz" in result.output
    assert not (run / "data").exists()


def test_the_fit_reads_only_the_shards_its_config_asks_for(tmp_path: Path) -> None:
    from mauseloch.games.maumau.learn.distill import load_data

    (tmp_path / "data").mkdir()
    two = label_chunk(Task(str(tmp_path / "data" / "p2-000000.npz"), 2, 0, 4, 9))
    label_chunk(Task(str(tmp_path / "data" / "p4-000000.npz"), 4, 0, 4, 9))
    config = DistillConfig(deals={"2": 50}, playouts={"2": 4})
    train, held = load_data(config, tmp_path)
    with np.load(two) as shard:
        assert len(train["obs"]) + len(held["obs"]) == len(shard["obs"])  # the four-player shard stays out


def test_the_teacher_strength_script_reports_a_share_of_wins() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "scripts" / "teacher_strength.py"
    done = subprocess.run(
        [sys.executable, str(script), "--players", "3", "--deals", "3", "--playouts", "3", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    line = json.loads(done.stdout.splitlines()[-1])
    assert line["players"] == 3 and line["deals"] == 3 and line["win"] in (0, 1 / 3, 2 / 3, 1)
    assert 0 <= line["ci95"][0] <= line["win"] <= line["ci95"][1] <= 1
    bad = subprocess.run([sys.executable, str(script), "--players", "7"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--players 2..5" in bad.stderr
