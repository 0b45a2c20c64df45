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
- The same games under Pyodide and CPython: ``test_pyodide_games.py``, a file of its own so
  that ``pytest -n --dist loadfile`` runs it on another worker than the contract test (each is a
  Pyodide start of its own, and together they were the suite's longest file).
"""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests import offline_bundle
from tests.offline_bundle import pyodide_command
from tests.paths import ROOT

build_offline = offline_bundle.build_offline()

BUDGET_BYTES = 8_000_000


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
        "structs = 0\n"
        f"for name in {manifest['engine_modules']!r}:\n"
        "    module = importlib.import_module(name)\n"
        # every struct's types resolve there (Python 3.14 reads string annotations its own way): a
        # NameError fails, a TypeError is a struct that is no message (its fields are objects)
        "    import msgspec\n"
        "    for obj in list(vars(module).values()):\n"
        "        if isinstance(obj, type) and issubclass(obj, msgspec.Struct) and obj.__module__ == name:\n"
        "            structs += 1\n"
        "            try:\n"
        "                msgspec.json.Decoder(obj)\n"
        "            except TypeError:\n"
        "                pass\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names)\n"
        "info = {'python': sys.version.split()[0], 'platform': sys.platform, 'top': sorted(new), 'structs': structs}\n"
        "print(json.dumps(info))\n"
    )
    done = subprocess.run(
        pyodide_command(bundle, "/probe/imports.py", mounts={tmp_path: "/probe"}),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["python"].startswith("3.14.") and seen["platform"] == "emscripten"
    assert seen["top"] == ["mauseloch", "msgspec"] and seen["structs"] >= 100, seen


@pytest.mark.slow  # the whole contract test in Node, under Pyodide: 25-50 s
def test_the_contract_test_passes_under_pyodide(bundle: Path) -> None:
    """pytest under Pyodide runs the contract test over every game (the test-only fourth game
    too) and the spec vectors' test; only the checks of NumPy integers are skipped (the bundle has
    no NumPy)."""
    wheels = build_offline.test_wheels(ROOT / "build" / "downloads")
    cmd = pyodide_command(
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
