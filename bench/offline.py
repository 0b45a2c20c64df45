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
  per-game ratios (``pyodide_vs_cpython_by_game``); below 1 is slower;
- in the browser (``mauseloch serve`` serving the bundle, Debian's chromium driven by Playwright;
  ``--no-browser`` leaves it out): the lobby's "Play offline" fetches the bundle once, then in
  each round a new offline Mau-Mau table for four (the person and three heuristic bots, no bot
  pause) is opened: ``warm_start_s``, the median from the table page's navigation to a playable
  table (the files cached by the service worker and the interpreter's snapshot kept when the
  bundle was fetched: Pyodide restored from it in the Web Worker, the wheels installed, the
  engine imported, the table opened, a card offered), ``warm_start_budget_s`` (3);
  ``bot_move_ms``, the median time of a bot's move as the page's connection gets it (from the
  frame before it to its own: the worker's step, the bot's decision, the frame built and posted;
  not the page's paced drawing), ``bot_move_budget_ms`` (100), over the bot moves of each
  round's first turns.
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
import time
import urllib.request
from pathlib import Path
from typing import Any

from _report import print_json, text_to_stderr

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
BUDGET_BYTES = 8_000_000
WARM_BUDGET_S = 3.0
BOT_BUDGET_MS = 100.0
BOT_MOVES = 30  # bot moves watched per round
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip
NEW_GAME = """async (setup) => {
  const { newOfflineGame } = await import("/static/js/offline.js");
  return newOfflineGame(setup);
}"""
ACTION = '#board[data-pending="0"] button.card.legal, #board[data-pending="0"] .btn-action'
# each table frame the page's connection receives from the Web Worker: its version, who is to move
# in it and when it came (the page's clock, ms), before the page draws it (it paces its drawing)
WATCH = """async () => {
  const { WorkerSocket } = await import("/static/js/offline.js");
  window.stamps = [];
  const receive = WorkerSocket.prototype.receive;
  WorkerSocket.prototype.receive = function (msg) {
    if (msg.type === "message") {
      const f = JSON.parse(msg.text);
      if (f.type === "update" || f.type === "snapshot") {
        const to = f.view.to_move;
        window.stamps.push([f.version, to === null || to === undefined ? "" : String(to), performance.now()]);
      }
    }
    return receive.call(this, msg);
  };
}"""


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


def _serve(bundle: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "MAUSELOCH_OFFLINE": str(bundle.resolve())}
    cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", f"sqlite:///{folder / 'bench.db'}"]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/api/games", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("bench/offline.py: the server did not start")


def _bot_moves(stamps: list[list[Any]]) -> list[float]:
    """The ms between a frame with a bot to move and the next version's frame."""
    seen = {}
    for version, to_move, at in stamps:
        seen.setdefault(version, (to_move, at))
    return [seen[v + 1][1] - at for v, (to_move, at) in seen.items() if to_move not in ("0", "") and v + 1 in seen]


def in_browser(bundle: Path, rounds: int) -> dict[str, Any]:
    """``warm_start_s`` and ``bot_move_ms`` (see the module docstring)."""
    from playwright.sync_api import sync_playwright

    starts: list[float] = []
    moves: list[float] = []
    with tempfile.TemporaryDirectory(prefix="mauseloch-offline-serve-") as tmp:
        proc, url = _serve(bundle, Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(base_url=url).new_page()
                page.set_default_timeout(120_000)
                page.goto("/")
                page.click("#offline-button")
                page.wait_for_selector("#offline-form:not([hidden])")
                for _ in range(rounds):
                    setup = {"game": "mau-mau", "players": 4, "name": "Bench", "bots": ["heuristic"] * 3,
                             "pace": {"bot_delay": 0.0}}  # fmt: skip
                    table = page.evaluate(NEW_GAME, setup)
                    began = time.perf_counter()
                    page.goto(f"/t/{table}")
                    page.evaluate(WATCH)
                    page.wait_for_selector(f"{ACTION}, #board[data-to-move]:not([data-to-move='0'])")
                    starts.append(time.perf_counter() - began)
                    watched: list[float] = []
                    while len(watched) < BOT_MOVES and not page.locator('#board[data-over="1"]').count():
                        page.wait_for_selector(f'{ACTION}, #board[data-over="1"]')
                        if page.locator("#wish-dialog[open]").count():
                            page.locator("#wish-dialog .wish-choice").first.click()
                        elif page.locator(ACTION).count():
                            page.locator(ACTION).first.click()
                        watched = _bot_moves(page.evaluate("window.stamps"))
                    moves += watched
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return {
        "warm_start_s": round(statistics.median(starts), 3),
        "warm_start_budget_s": WARM_BUDGET_S,
        "bot_move_ms": round(statistics.median(moves), 1) if moves else None,
        "bot_move_budget_ms": BOT_BUDGET_MS,
        "bot_moves_watched": len(moves),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of games per game and interpreter")
    parser.add_argument("--rounds", type=int, default=3, help="rounds taking turns; each figure is their median")
    parser.add_argument("--bundle", type=Path, help="a bundle built before (default: built now from the sources)")
    parser.add_argument("--no-browser", action="store_true", help="leave out warm_start_s and bot_move_ms")
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
        if not args.no_browser:
            report |= in_browser(bundle, args.rounds)
    print(f"bundle as transferred: {report['bundle_bytes']:,} bytes (budget {BUDGET_BYTES:,}), "
          f"on disk {report['bundle_bytes_on_disk']:,}; Pyodide {report['pyodide']}", file=out)  # fmt: skip
    interpreters = list(report["decisions_per_s"])
    print(f"{'decisions a second':<20}" + "".join(f"{name:>18}" for name in interpreters) + f"{'ratio':>8}", file=out)
    for game, ratio in report["pyodide_vs_cpython_by_game"].items():
        rates = "".join(f"{report['decisions_per_s'][name][game]:>18,.0f}" for name in interpreters)
        print(f"{game:<20}{rates}{ratio:>8.2f}", file=out)
    print(f"pyodide_vs_cpython (geometric mean): {report['pyodide_vs_cpython']:.2f}", file=out)
    if "warm_start_s" in report:
        print(f"in the browser: warm start to a playable table {report['warm_start_s']:.2f} s "
              f"(budget {WARM_BUDGET_S} s); a bot's move {report['bot_move_ms']} ms (budget {BOT_BUDGET_MS} ms, "
              f"{report['bot_moves_watched']} moves)", file=out)  # fmt: skip
    if args.json:
        print_json(report, real_stdout)


if __name__ == "__main__":
    main()
