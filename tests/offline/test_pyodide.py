"""The offline bundle's engine is the server's engine: built from the sources, within its size
budget, and playing exactly the same games under Pyodide (Python 3.14 compiled to WebAssembly,
run in Node.js from the bundle's own files) as under CPython.

- The bundle is built from the sources as they are (``scripts/build_offline.py``, once a run:
  ``tests/offline_bundle.py``): the
  engine's wheel holds exactly the modules its parts name, each the source file byte for byte,
  and the whole bundle as transferred (gzip where it helps) stays within 8 MB.
- Every module of the engine's wheel imports under Pyodide with the standard library and msgspec
  alone.
- The contract test (``tests/games/test_contract.py``, the fourth game included) and the spec
  vectors' test pass under Pyodide, run by pytest there.
- ``scripts/offline_games.py`` plays seeded games of every game (every player count, random
  options, every bot the bundle has) and the spec vectors in both interpreters at once; the
  per-game digests of everything the engine gave (views, legal lists, moves and reactions,
  refusals, records, events, results) must be the same, line for line.
  ``MAUSELOCH_OFFLINE_GAMES`` sets how many games of each game (default :data:`GAMES`; the
  1,000 and 10,000 games of each game of docs/offline.md are that variable's runs).

The contract test and the games run on workers of their own under ``pytest -n`` (xdist groups):
each is a Pyodide start of its own, and together they are the suite's longest file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from tests import offline_bundle
from tests.paths import ROOT, VECTORS

build_offline = offline_bundle.build_offline()

GAMES = 200  # of each game in the suite; MAUSELOCH_OFFLINE_GAMES=1000 or 10000 for the longer runs
RUNNER = ROOT / "scripts" / "pyodide_run.mjs"
BUDGET_BYTES = 8_000_000


@pytest.fixture(scope="module")
def bundle() -> Path:
    return offline_bundle.bundle()


def pyodide(bundle: Path, *args: str, mounts: dict[Path, str], **kw: Any) -> list[str]:
    """The node command that runs ``args`` (a script or ``-m module`` and its arguments) under the
    bundle's Pyodide, with host folders mounted."""
    cmd = ["node", str(RUNNER), str(bundle)]
    for host, guest in mounts.items():
        cmd += ["--mount", f"{host}:{guest}"]
    for name, value in kw.items():
        cmd += [f"--{name}", value]
    return [*cmd, "--", *args]


def test_the_bundle_is_the_sources_within_its_budget(bundle: Path) -> None:
    manifest = json.loads((bundle / "manifest.json").read_text())
    assert manifest["transferred"] <= BUDGET_BYTES, manifest["transferred"]
    paths = {f["path"] for f in manifest["files"]}
    runtime = {f"pyodide/{name}" for name in build_offline.PYODIDE_FILES}
    assert runtime <= paths
    assert {p for p in paths if p.startswith("wheels/")} == {
        "wheels/" + manifest["engine_wheel"],
        f"wheels/msgspec-{manifest['msgspec']}-cp314-cp314-pyemscripten_2026_0_wasm32.whl",
    }
    for f in manifest["files"]:  # every file as transferred: its .gz where that is smaller
        packed = bundle / (f["path"] + ".gz")
        assert f["transferred"] == (packed.stat().st_size if packed.exists() else f["bytes"])
    src = ROOT / "src" / "mauseloch"
    with zipfile.ZipFile(bundle / "wheels" / manifest["engine_wheel"]) as wheel:
        inside = {n.removeprefix("mauseloch/"): wheel.read(n) for n in wheel.namelist() if n.startswith("mauseloch/")}
    assert set(inside) == {p.as_posix() for p in build_offline.engine_files()}
    for rel, data in inside.items():
        assert data == (src / rel).read_bytes(), rel
    # what the page needs is there, what cannot run there is not
    for module in ("mauseloch.core.engine", "mauseloch.games.maumau.bots.habits", "mauseloch.realtime.referee"):
        assert module in manifest["engine_modules"]
    compiled = ("mauseloch.kernels", "mauseloch.games.maumau.kernel", "mauseloch.games.ausdiemaus.kernel")
    assert not any(m.startswith(compiled) for m in manifest["engine_modules"])
    # of the server, the table's machine and the offline page's runner of it, nothing that serves
    server = {m for m in manifest["engine_modules"] if m.startswith("mauseloch.server")}
    assert "mauseloch.server.local" in server and "mauseloch.server.table.step" in server
    assert not server & {"mauseloch.server.session", "mauseloch.server.app", "mauseloch.server.storage.store"}


def test_every_module_of_the_bundle_imports_under_pyodide(bundle: Path, tmp_path: Path) -> None:
    manifest = json.loads((bundle / "manifest.json").read_text())
    (tmp_path / "imports.py").write_text(
        "import importlib, json, sys\n"
        "before = set(sys.modules)\n"
        f"for name in {manifest['engine_modules']!r}:\n"
        "    importlib.import_module(name)\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names)\n"
        "print(json.dumps({'python': sys.version.split()[0], 'platform': sys.platform, 'top': sorted(new)}))\n"
    )
    done = subprocess.run(
        pyodide(bundle, "/probe/imports.py", mounts={tmp_path: "/probe"}), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["python"].startswith("3.14.") and seen["platform"] == "emscripten"
    assert seen["top"] == ["mauseloch", "msgspec"]


@pytest.mark.xdist_group("pyodide-contract")
def test_the_contract_test_passes_under_pyodide(bundle: Path) -> None:
    """pytest under Pyodide runs the contract test over every game (the test-only fourth game
    too) and the spec vectors' test; only the checks of NumPy integers are skipped (the bundle has
    no NumPy)."""
    wheels = build_offline.test_wheels(ROOT / "build" / "downloads")
    cmd = pyodide(
        bundle, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/games/test_contract.py",
        "tests/games/test_vectors.py",
        mounts={ROOT: "/repo"}, wheels=str(wheels), cwd="/repo", env="HYPOTHESIS_PROFILE=ci",
    )  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "error" not in summary, summary
    skipped = [ln for ln in done.stdout.splitlines() if ln.startswith("SKIPPED")]
    assert skipped and all("could not import 'numpy'" in ln for ln in skipped), skipped


@pytest.mark.xdist_group("pyodide-games")
def test_pyodide_and_cpython_play_the_same_games(bundle: Path) -> None:
    games = int(os.environ.get("MAUSELOCH_OFFLINE_GAMES", GAMES))
    script = ROOT / "scripts" / "offline_games.py"
    guest = pyodide(
        bundle, "/scripts/offline_games.py", "digests", str(games), "--vectors", "/vectors",
        mounts={script.parent: "/scripts", VECTORS: "/vectors"},
    )  # fmt: skip
    host = [sys.executable, str(script), "digests", str(games), "--vectors", str(VECTORS)]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with subprocess.Popen(guest, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as under_pyodide:
        cpython = subprocess.run(host, capture_output=True, text=True, env=env, timeout=3600)
        out, err = under_pyodide.communicate(timeout=3600)
    assert cpython.returncode == 0, cpython.stderr
    assert under_pyodide.returncode == 0, err
    mine, theirs = cpython.stdout.splitlines(), out.splitlines()
    done_mine, done_theirs = mine.pop().split(), theirs.pop().split()
    assert done_theirs[3].startswith("3.14.") and done_theirs[4] == "emscripten", done_theirs
    assert done_mine[4] != "emscripten", done_mine
    vectors = sum(len([ln for ln in p.read_text().splitlines() if ln.strip()]) for p in VECTORS.glob("*.jsonl"))
    assert len(mine) == len(mauseloch.GAMES) * games + vectors
    differing = [(a, b) for a, b in zip(mine, theirs, strict=True) if a != b]
    assert not differing, f"{len(differing)} games differ, the first: {differing[0]}"
    print(
        f"\n{games} games of each game and {vectors} vectors: identical; CPython {done_mine[3]} {done_mine[2]} s, "
        f"Pyodide {done_theirs[3]} {done_theirs[2]} s"
    )
