"""The backends of ``simulate`` / ``tournament`` side by side, in the same run: one local process
(the baseline), local processes on every core, and Ray on a local instance when Ray is installed.

For each: games per second, the number of tasks and the median seconds of work per task (Ray
batches its ranges to at least 0.1 s each), and whether the report equals the baseline's (it
must: the same seed gives the same report whatever the backend).

    python bench/backend.py [--games 3000] [--game mau-mau] [--players 4] [--json]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from _report import print_json, text_to_stderr
from mauseloch.core.simulation import SimSpec, Tally
from mauseloch.study.backend import Backend, LocalBackend, make_backend, run_ranges
from mauseloch.study.simulate import _run_chunk, make_spec, report


def _timed(payload: SimSpec, start: int, stop: int) -> tuple[Tally, float]:
    began = time.perf_counter()
    tally = _run_chunk(payload, start, stop)
    return tally, time.perf_counter() - began


def measure(spec: SimSpec, games: int, backend: Backend) -> dict[str, Any]:
    began = time.perf_counter()
    parts = run_ranges(backend, _timed, spec, games, cap=500)
    seconds = time.perf_counter() - began
    total = Tally(spec.players)
    for tally, _ in parts:
        total.merge(tally)
    return {
        "backend": f"{backend.name} ×{backend.workers()}",
        "games_per_s": games / seconds,
        "tasks": len(parts),
        "median_task_s": statistics.median(t for _, t in parts),
        "report": report(spec, total),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--game", default="mau-mau")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--no-ray", action="store_true", help="leave the Ray backend out even when installed")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    spec = make_spec(args.game, args.players, "random", 1, [])
    backends: list[Backend] = [LocalBackend(1), LocalBackend(os.cpu_count() or 1)]
    ray_state = "left out (--no-ray)"
    if not args.no_ray:
        try:
            import ray

            ray.init(include_dashboard=False, log_to_driver=False)
            backends.append(make_backend("ray"))
            ray_state = "measured"
        except ImportError:
            ray_state = "not installed"
            print("(Ray is not installed: pip install 'mauseloch[ray]')")
    rows = [measure(spec, args.games, b) for b in backends]
    base = rows[0]
    print(f"{args.game}, {args.players} players, {args.games:,} random-bot games per backend")
    for row in rows:
        same = row["report"] == base["report"]
        row["same_report"] = same
        row["speed_vs_one_process"] = row["games_per_s"] / base["games_per_s"]
        print(
            f"  {row['backend']:<10} {row['games_per_s']:>9,.0f} games/s  ×{row['speed_vs_one_process']:.2f}  "
            f"{row['tasks']:>4} tasks, median {1000 * row['median_task_s']:.0f} ms of work each; "
            f"same report: {same}"
        )
    if args.json:
        print_json({"game": args.game, "games": args.games, "ray": ray_state, "rows": [
            {k: v for k, v in row.items() if k != "report"} for row in rows
        ]}, out)  # fmt: skip


if __name__ == "__main__":
    main()
