"""The simulator around any game: arguments and outputs checked before any work starts, and
the same report whatever the backend and the number of workers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mauseloch.cli import app
from mauseloch.study.simulate import make_spec, simulate


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


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/sim.png", "does not exist"),
        ("a-file/sim.png", "is not a folder"),
        ("folder", "is a folder"),
        ("sim.xyz", "cannot write .xyz files"),
    ],
)
def test_plot_target_is_checked_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, message: str
) -> None:
    import mauseloch.study.simulate

    (tmp_path / "a-file").write_text("x")
    (tmp_path / "folder").mkdir()
    played: list[int] = []
    monkeypatch.setattr(mauseloch.study.simulate, "simulate", lambda *a, **k: played.append(1))
    res = CliRunner().invoke(app, ["simulate", "mau-mau", "-n", "5", "-w", "1", "--plot", str(tmp_path / name)])
    assert res.exit_code == 2 and message in res.output and "Traceback" not in res.output, res.output
    assert played == []  # refused before the work, not after it


@pytest.mark.parametrize("name", ["a-file", "a-file/finds"])
def test_analyze_out_is_checked_before_the_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    import mauseloch.games.ausdiemaus.analyze

    (tmp_path / "a-file").write_text("x")
    searched: list[int] = []
    monkeypatch.setattr(mauseloch.games.ausdiemaus.analyze, "search", lambda *a, **k: searched.append(1))
    res = CliRunner().invoke(app, ["analyze", "aus-die-maus", "--budget", "0.1", "--out", str(tmp_path / name)])
    assert res.exit_code == 2 and "is a file" in res.output and "Traceback" not in res.output, res.output
    assert searched == []


UNWRITABLE = Path("/proc")  # Linux: nothing can be made there, not even by root


@pytest.mark.skipif(not (UNWRITABLE / "self").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "mau-mau", "-n", "5", "-w", "1", "--plot", str(UNWRITABLE / "sim.png")],
        ["tournament", "mau-mau", "-b", "random,heuristic", "-n", "1", "-w", "1", "--plot", str(UNWRITABLE / "t.png")],
        ["analyze", "aus-die-maus", "--budget", "0.1", "--out", str(UNWRITABLE / "finds")],
    ],
)
def test_outputs_are_really_tried_not_judged_by_permission_bits(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """Permission bits do not tell (root may write anywhere by them, a read-only mount
    or /proc refuses anyway): the folder is tried before the work, which is never lost."""
    import mauseloch.games.ausdiemaus.analyze
    import mauseloch.study.simulate
    import mauseloch.study.tournament

    worked: list[int] = []
    monkeypatch.setattr(os, "access", lambda *a, **k: True)  # what root's permission bits say
    work = (
        (mauseloch.study.simulate, "simulate"),
        (mauseloch.study.tournament, "play"),
        (mauseloch.games.ausdiemaus.analyze, "search"),
    )
    for module, name in work:
        monkeypatch.setattr(module, name, lambda *a, **k: worked.append(1))
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2, res.output
    assert "cannot write" in res.output and "Traceback" not in res.output, res.output
    assert len(res.output.strip().splitlines()) == 1, res.output
    assert worked == []


def test_an_existing_output_file_is_kept_as_it_was(tmp_path: Path) -> None:
    from mauseloch.study.outputs import check_output_dir, check_output_file

    old = tmp_path / "sim.png"
    old.write_bytes(b"old")
    assert check_output_file(old, "--plot", ["png"]) == old and old.read_bytes() == b"old"
    assert check_output_file(tmp_path / "new.png", "--plot", ["png"]) == tmp_path / "new.png"
    assert check_output_dir(tmp_path / "finds") == tmp_path / "finds"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sim.png"]  # the checks leave nothing behind


def test_analyze_out_may_be_a_new_folder(tmp_path: Path) -> None:
    from mauseloch.study.outputs import check_output_dir

    assert check_output_dir(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"


# --------------------------------------------------------------------------- the kernel's first compile


def test_an_empty_numba_cache_means_compiling(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = "from mauseloch.games.ausdiemaus.kernel import needs_compiling; print(needs_compiling())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_the_kernel_is_cached_and_compiled_once_per_process() -> None:
    from numba.core.caching import NullCache

    from mauseloch.games.ausdiemaus import kernel

    assert not isinstance(kernel.simulate_range._cache, NullCache)  # cache=True: later runs load it
    spec = make_spec("aus-die-maus", 4, "random", 1, [])
    simulate(spec, 3)
    assert not kernel.needs_compiling()


def test_simulate_says_it_compiles_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    import mauseloch.games.ausdiemaus.kernel as kernel

    monkeypatch.setattr(kernel, "needs_compiling", lambda kernel=None: True)
    heard: list[str] = []
    simulate(make_spec("aus-die-maus", 4, "random", 1, []), 3, notice=heard.append)
    assert heard and "compiling the fast kernel, once" in heard[0]
    res = CliRunner().invoke(app, ["simulate", "aus-die-maus", "-n", "3", "-w", "1"])
    assert res.exit_code == 0 and "compiling the fast kernel, once" in res.output, res.output
    heard.clear()
    simulate(make_spec("mau-mau", 2, "random", 1, []), 2, notice=heard.append)
    assert heard == []  # no kernel, nothing to say


# --------------------------------------------------------------------------- backends


def test_ranges_come_back_in_order_whatever_the_backend_cuts() -> None:
    from mauseloch.study.backend import Backend, run_ranges

    class Batching(Backend):
        """Runs tasks in reverse order, and batches like Ray (pilot ranges first)."""

        name = "test"
        min_task_seconds = 1e-9

        def workers(self) -> int:
            return 3

        def map(self, tasks, done=None):  # type: ignore[no-untyped-def]
            from mauseloch.study.backend import _call_range

            out = {k: _call_range(t) for k, t in reversed(list(enumerate(tasks)))}
            return [out[k] for k in range(len(tasks))]

    parts = run_ranges(Batching(), _items, None, 100, cap=7)
    assert [i for part in parts for i in part] == list(range(100))


def _items(_: None, start: int, stop: int) -> list[int]:
    return list(range(start, stop))


def test_the_ray_backend_without_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mauseloch.study.backend import make_backend

    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    with pytest.raises(ValueError, match=r"pip install 'mauseloch\[ray\]'"):
        make_backend("ray")
    res = CliRunner().invoke(app, ["simulate", "mau-mau", "-n", "2", "--backend", "ray"])
    assert res.exit_code == 2 and "needs Ray" in res.output, res.output


def test_library_entry_points_take_numpy_integers() -> None:
    """The simulator's and the tournament's library calls take NumPy integers as ints (api.md),
    through the engine's one check, and still refuse bool and float."""
    import numpy as np

    from mauseloch.study import tournament as tour

    spec = make_spec("mau-mau", np.int64(3), "random", np.uint64(7), [])
    assert spec == make_spec("mau-mau", 3, "random", 7, []) and type(spec.seed) is int
    t = tour.make_tournament("mau-mau", "heuristic,random", seed=np.int32(4))
    assert type(t.sim.seed) is int
    assert tour.play(t, np.int64(1)).ranks == tour.play(t, 1).ranks
    for bad in (True, 1.5, np.float64(2)):
        with pytest.raises(ValueError, match="seed must be"):
            make_spec("mau-mau", 2, "random", bad, [])
        with pytest.raises(ValueError, match="deals must be"):
            tour.play(t, bad)


@pytest.mark.parametrize("option", ["move_limit=" + "9" * 31, "ace_skips=true", "MOVE_LIMIT=99999999999"])
def test_an_option_out_of_range_or_given_twice_is_exit_2(option: str) -> None:
    """``--option move_limit=10**30`` died in the kernel with a raw OverflowError (exit 1); the
    engine refuses it first, naming the range; a name given twice is refused too."""
    args = ["simulate", "mau-mau", "-n", "4", "-w", "1", "--option", option]
    if option.startswith("ace"):
        args += ["--option", "ACE_SKIPS=false"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert ("allowed: 1 to 1000000000" in res.output) != option.startswith("ace"), res.output
    assert ("given twice" in res.output) == option.startswith("ace"), res.output
