"""The offline bundle's engine plays exactly the same games under Pyodide as under CPython.

``scripts/offline_games.py`` plays seeded games of every game (every player count, random
options, every bot the bundle has) and the spec vectors in both interpreters at once; the
per-game digests of everything the engine gave (views, legal lists, moves and reactions,
refusals, records, events, results) must be the same, line for line.
``MAUSELOCH_OFFLINE_GAMES`` sets how many games of each game (default :data:`GAMES`; the
1,000 and 10,000 games of each game of docs/offline.md are that variable's runs).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import mauseloch
from tests.offline_bundle import pyodide_command
from tests.paths import ROOT, VECTORS

GAMES = 200  # of each game in the suite; MAUSELOCH_OFFLINE_GAMES=1000 or 10000 for the longer runs


@pytest.mark.slow  # 200 games of each game under Pyodide: about 30 s
def test_pyodide_and_cpython_play_the_same_games(bundle: Path) -> None:
    games = int(os.environ.get("MAUSELOCH_OFFLINE_GAMES", GAMES))
    script = ROOT / "scripts" / "offline_games.py"
    guest = pyodide_command(
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
