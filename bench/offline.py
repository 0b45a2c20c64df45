"""The offline bundle: its size as transferred, and the engine's speed under Pyodide against CPython.

    python bench/offline.py [--seconds 3] [--rounds 3] [--bundle DIR] [--json]

Builds the bundle from the sources into a temporary folder (``scripts/build_offline.py``; or takes
``--bundle``), then runs ``scripts/offline_games.py speed SECONDS`` in this run, in ROUNDS rounds
that take turns (the machine is shared: each figure is the median of its rounds): under CPython
(this interpreter, ``src/`` first) and under the bundle's Pyodide in Node.js
(``scripts/pyodide_run.mjs``: Python 3.14 compiled to WebAssembly, the engine's wheel installed).
Each plays seeded games of every game, the bundle's bots (the plain-Python ones) on every seat,
for about SECONDS per game after one game to warm up, and counts the engine's decisions: a bot's
choice or reaction, and the move that follows it.

The figures (with ``--json`` the table goes to stderr and the last line of stdout is JSON):

- ``bundle_bytes``: the bundle as a browser fetches it, each file gzip-compressed where that
  makes it smaller (``manifest.json``'s ``transferred``); ``bundle_bytes_on_disk``;
  ``budget_bytes`` (8 MB) and ``within_budget``;
- ``decisions_per_s``: per interpreter and game;
- ``pyodide_vs_cpython``: Pyodide's decisions a second over CPython's, the geometric mean of the
  per-game ratios (``pyodide_vs_cpython_by_game``); below 1 is slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _report import print_json, text_to_stderr

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
BUDGET_BYTES = 8_000_000


def _build_offline() -> Any:
    spec = importlib.util.spec_from_file_location("build_offline", SCRIPTS / "build_offline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _speed(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])} ... failed:\n{done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _median_rates(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's figures with each game's rate the median over ``runs``."""
    games = runs[0]["decisions_per_s"]
    return runs[0] | {"decisions_per_s": {g: statistics.median(r["decisions_per_s"][g] for r in runs) for g in games}}


def measure(bundle: Path, seconds: float, rounds: int) -> dict[str, Any]:
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    on_cpython = [sys.executable, str(SCRIPTS / "offline_games.py"), "speed", str(seconds)]
    on_pyodide = ["node", str(SCRIPTS / "pyodide_run.mjs"), str(bundle), "--mount", f"{SCRIPTS}:/scripts", "--",
                  "/scripts/offline_games.py", "speed", str(seconds)]  # fmt: skip
    runs: dict[str, list[dict[str, Any]]] = {"cpython": [], "pyodide": []}
    for _ in range(rounds):
        runs["cpython"].append(_speed(on_cpython, env))
        runs["pyodide"].append(_speed(on_pyodide))
    cpython, pyodide = _median_rates(runs["cpython"]), _median_rates(runs["pyodide"])
    ratios = {
        game: pyodide["decisions_per_s"][game] / cpython["decisions_per_s"][game] for game in cpython["decisions_per_s"]
    }
    return {
        "bundle_bytes": manifest["transferred"],
        "bundle_bytes_on_disk": manifest["bytes"],
        "budget_bytes": BUDGET_BYTES,
        "within_budget": manifest["transferred"] <= BUDGET_BYTES,
        "pyodide": manifest["pyodide"],
        "seconds_per_game": seconds,
        "rounds": rounds,
        "decisions_per_s": {
            f"cpython {cpython['python']}": cpython["decisions_per_s"],
            f"pyodide {pyodide['python']}": pyodide["decisions_per_s"],
        },
        "pyodide_vs_cpython_by_game": {game: round(r, 3) for game, r in ratios.items()},
        "pyodide_vs_cpython": round(math.exp(sum(math.log(r) for r in ratios.values()) / len(ratios)), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of games per game and interpreter")
    parser.add_argument("--rounds", type=int, default=3, help="rounds taking turns; each figure is their median")
    parser.add_argument("--bundle", type=Path, help="a bundle built before (default: built now from the sources)")
    parser.add_argument("--json", action="store_true", help="the table to stderr, one JSON line to stdout")
    args = parser.parse_args()
    real_stdout = text_to_stderr(args.json)
    out = sys.stdout
    with tempfile.TemporaryDirectory(prefix="mauseloch-offline-bench-") as tmp:
        bundle = args.bundle
        if bundle is None:
            bundle = Path(tmp) / "bundle"
            _build_offline().build(bundle, ROOT / "build" / "downloads")
        report = measure(bundle, args.seconds, args.rounds)
    print(f"bundle as transferred: {report['bundle_bytes']:,} bytes (budget {BUDGET_BYTES:,}), "
          f"on disk {report['bundle_bytes_on_disk']:,}; Pyodide {report['pyodide']}", file=out)  # fmt: skip
    interpreters = list(report["decisions_per_s"])
    print(f"{'decisions a second':<20}" + "".join(f"{name:>18}" for name in interpreters) + f"{'ratio':>8}", file=out)
    for game, ratio in report["pyodide_vs_cpython_by_game"].items():
        rates = "".join(f"{report['decisions_per_s'][name][game]:>18,.0f}" for name in interpreters)
        print(f"{game:<20}{rates}{ratio:>8.2f}", file=out)
    print(f"pyodide_vs_cpython (geometric mean): {report['pyodide_vs_cpython']:.2f}", file=out)
    if args.json:
        print_json(report, real_stdout)


if __name__ == "__main__":
    main()
