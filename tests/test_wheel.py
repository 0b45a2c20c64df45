"""The package as a user gets it: ``python -m build`` makes an sdist and a wheel that pass ``twine
check``; the wheel installs into a fresh virtual environment outside the repository with msgspec
alone and plays there, and with the ``sim`` and ``web`` extras simulates and serves there.

One test, marked slow: it builds, makes a venv and installs the extras (pip's cache and the
machine's package index keep that to seconds after the first run; ``--no-compile`` skips the
byte-compiling of the extras' thousands of files). The server compiles its bots' kernels as it
starts (15 s of CPU): numba's cache for them is kept between runs, which needs the same paths
and file times each run, so the venv is made anew each run in one place in the user's cache
(under a lock, for runs at once), and the installed files take the times the wheel records.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.slow

CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mauseloch-tests" / "wheel"
MAX_PACKAGES = 5  # what `pip install mauseloch` may pull, itself included
MAX_MEGABYTES = 40  # what it may add to site-packages

PLAY = """
import json, mauseloch
from mauseloch.bots import bot_kinds, make_bot
g = mauseloch.new_game("mau-mau", players=3, seed=7)
bots = [make_bot("mau-mau", "heuristic", seat) for seat in range(3)]
while not g.is_over:
    g.play(bots[g.to_move].choose(g.typed_view(g.to_move), g.legal_moves()))
assert mauseloch.replay(g.record()).result() == g.result()
print(json.dumps({"file": mauseloch.__file__, "version": mauseloch.__version__, "kinds": bot_kinds("mau-mau"),
                  "result": g.result()}))
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["NUMBA_CACHE_DIR"] = str(CACHE / "numba")
    return env


def _run(args: list[str], cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = _env()
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload,no-any-return]


def _size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _times_of_the_wheel(wheel: Path, site: Path) -> None:
    """Give each installed file of the package the time the wheel records for it (its source's),
    so that numba's cache, keyed by a source's path and time, holds from one run to the next."""
    with zipfile.ZipFile(wheel) as archive:
        for entry in archive.infolist():
            target = site / entry.filename
            if target.is_file():
                stamp = time.mktime((*entry.date_time, 0, 0, -1))
                os.utime(target, (stamp, stamp))


def _pip(python: Path) -> list[str]:
    """This pip working on the venv of ``python`` (made without a pip of its own, which saves
    the seconds of installing one: the venv holds nothing but what is installed into it)."""
    return [sys.executable, "-m", "pip", "--python", str(python)]


def _packages(python: Path, cwd: Path) -> set[str]:
    listed = _run([*_pip(python), "list", "--format", "json"], cwd)
    assert listed.returncode == 0, listed.stderr
    return {row["name"].lower() for row in json.loads(listed.stdout)}


def test_the_wheel_installs_lean_and_plays_simulates_and_serves(tmp_path: Path) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_install_play_simulate_serve(tmp_path)


def _build_install_play_simulate_serve(tmp_path: Path) -> None:
    start = time.monotonic()

    def step(what: str) -> None:  # where the seconds go (pytest -s shows it)
        print(f"{time.monotonic() - start:6.1f} s  {what}")

    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)], tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    step("built")
    wheels = sorted(dist.glob("mauseloch-*.whl"))
    sdists = sorted(dist.glob("mauseloch-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    wheel = wheels[0]
    checked = _run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdists[0])], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    names = zipfile.ZipFile(wheel).namelist()
    for part in ("mauseloch/web/lobby.html", "mauseloch/py.typed", "mauseloch/models/maumau-learned.npz"):
        assert part in names
    assert any(n.startswith("mauseloch/locale/") and n.endswith(".toml") for n in names)
    assert any(n.startswith("mauseloch/rules_pages/") for n in names)
    assert not any(n.startswith("tests/") for n in names)
    with tarfile.open(sdists[0]) as sdist:
        inside = {name.partition("/")[2] for name in sdist.getnames()}
    assert {"CHANGELOG.md", "README.md", "pyproject.toml", "src/mauseloch/__init__.py"} <= inside
    assert not any(name.startswith("tests/") for name in inside)

    step("checked")
    # a fresh venv outside the repository: the wheel and what it pulls
    venv = CACHE / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = next((venv / "lib").glob("python3*/site-packages"))
    step("venv made")
    before_packages, before_bytes = _packages(python, tmp_path), _size(site)
    plain = _run([*_pip(python), "install", "--quiet", str(wheel)], tmp_path)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    pulled = _packages(python, tmp_path) - before_packages
    added = _size(site) - before_bytes
    print(f"pip install {wheel.name}: {len(pulled)} packages ({', '.join(sorted(pulled))}), {added / 1e6:.1f} MB")
    assert pulled == {"mauseloch", "msgspec"}
    assert len(pulled) <= MAX_PACKAGES and added <= MAX_MEGABYTES * 1_000_000

    step("installed the wheel")
    played = _run([str(python), "-c", PLAY], tmp_path)
    assert played.returncode == 0, played.stderr
    said = json.loads(played.stdout)
    assert Path(said["file"]).is_relative_to(venv)  # the installed copy, not the repository's sources
    assert said["version"] == wheel.name.split("-")[1]
    assert said["kinds"] == ["random", "heuristic"]  # the compiled kinds need the sim extra
    assert said["result"]["reason"] in ("out", "stalemate", "move_limit")

    step("played")
    command = venv / "bin" / "mauseloch"
    bare = _run([str(command), "--help"], tmp_path)
    assert bare.returncode == 2 and "pip install 'mauseloch[terminal]'" in bare.stderr

    extras = _run([*_pip(python), "install", "--quiet", "--no-compile", f"{wheel}[sim,web]"], tmp_path)
    assert extras.returncode == 0, extras.stdout + extras.stderr
    _times_of_the_wheel(wheel, site)

    step("installed sim and web")
    simulated = _run(
        [str(command), "simulate", "mau-mau", "--games", "20", "--engine", "--workers", "1", "--json"], tmp_path
    )
    assert simulated.returncode == 0, simulated.stderr
    report = json.loads(simulated.stdout)
    assert report["games"] == 20 and len(report["seats"]) == 2

    step("simulated")
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    server = subprocess.Popen(
        [str(command), "serve", "--port", "0", "--db", db],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        address = None
        for line in server.stdout:  # ends when the server exits
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found:
                address = found.group(0)
                break
        assert address is not None, "the server exited without its address"
        with urllib.request.urlopen(address, timeout=60) as page:
            assert page.status == 200
            assert "Mauseloch" in page.read().decode()
        with urllib.request.urlopen(address + "api/games", timeout=60) as games:
            assert "mau-mau" in games.read().decode()
        step("served")
    finally:
        server.terminate()
        server.wait(timeout=60)
