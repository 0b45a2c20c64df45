"""The batched Mau-Mau kernel on one core next to the plain engine, same run.

* kernel steps: ``MauMauBatch(N).step(actions)``, the learner's interface: every call plays one
  action in each of N games and writes N observations, masks and rewards (automatic reset);
  the actions come from the kernel's random policy (``random_legal_actions``, in numba, so the
  figure is the environment's, not numpy's). A step is one decision.
* kernel simulate: ``simulate_range``, whole games with random bots in numba, as ``mauseloch
  simulate mau-mau`` plays them (no observations written).
* engine: ``new_game`` then ``play(choice(legal_moves()))`` until over, through the public string
  API (the same loop as ``bench/engine.py``).
* OpenSpiel's C++ ``crazy_eights`` driven from Python (``bench`` extra), when installed.

Rates are per second of this process's CPU time (``time.process_time``): a figure per core that
other work on a shared machine does not dilute (wall-clock rates are printed too). Rounds are
interleaved so machine noise hits every runner alike; medians count, and ``paired`` is the median
of each round's own kernel/engine ratio. Goal: >= 1,000,000 kernel steps/s per core.

    python bench/kernel_maumau.py [--players 4] [--batch 1024] [--seconds 2] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one core: the kernel is serial anyway

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import print_json, text_to_stderr
from engine import make_mauseloch, make_openspiel
from mauseloch.games.maumau.kernel import MauMauBatch, options_array, random_legal_actions, simulate_range

SEED = 2026
GOAL = 1_000_000
Runner = Callable[[float, random.Random], tuple[int, int, float]]  # -> decisions, games, seconds


def make_kernel_steps(players: int, batch: int) -> Runner:
    env = MauMauBatch(batch, players=players, seed=SEED)
    gen = np.array([SEED, 0, 0], dtype=np.uint64)
    actions = np.empty(batch, dtype=np.int64)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = games = 0
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            for _ in range(20):
                random_legal_actions(env.ints, gen, actions)
                _, _, _, dones = env.step(actions)
                games += int(dones.sum())
            decisions += 20 * batch
        return decisions, games, time.process_time() - start

    return run


def make_kernel_simulate(players: int) -> Runner:
    opts = options_array(players)
    first = [0]

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = games = 0
        chunk = 5_000
        start = time.process_time()
        deadline = start + seconds
        while time.process_time() < deadline:
            _, moves, _, _, _ = simulate_range(np.uint64(SEED), first[0], first[0] + chunk, opts)
            first[0] += chunk
            decisions += int(moves.sum(dtype=np.int64))
            games += chunk
        return decisions, games, time.process_time() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per runner and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout

    runners: dict[str, Runner] = {
        "kernel steps": make_kernel_steps(args.players, args.batch),
        "kernel simulate": make_kernel_simulate(args.players),
        "engine": make_mauseloch(args.players, time.process_time),
    }
    openspiel = make_openspiel(time.process_time)  # crazy_eights with 4 players, as in bench/engine.py
    missing = []  # a peer of the ``bench`` extra that is not installed is left out, and said so
    if openspiel is None:
        print("openspiel crazy_eights: not installed (pip install -e '.[bench]')")
        missing.append("openspiel crazy_eights")
    elif args.players == 4:
        runners["openspiel crazy_eights"] = openspiel
    rng = random.Random(SEED)
    for run in runners.values():  # compile or load the kernel, warm up caches
        run(min(0.3, args.seconds), rng)
    rates: dict[str, list[tuple[float, float, float]]] = {k: [] for k in runners}
    for _ in range(args.rounds):
        for label, run in runners.items():
            wall = time.perf_counter()
            decisions, games, seconds = run(args.seconds, rng)
            wall = time.perf_counter() - wall
            rates[label].append((decisions / seconds, decisions / max(games, 1), decisions / wall))

    print(
        f"Mau-Mau, {args.players} players, random legal moves, one core; batch {args.batch}; "
        f"median of {args.rounds} interleaved rounds of {args.seconds:g} s"
    )
    print(f"{'runner':24} {'decisions/s (CPU)':>18} {'decisions/s (wall)':>19} {'decisions/game':>15}")
    medians: dict[str, float] = {}
    for label, rows in rates.items():
        medians[label] = statistics.median(r[0] for r in rows)
        wall = statistics.median(r[2] for r in rows)
        print(f"{label:24} {medians[label]:18,.0f} {wall:19,.0f} {statistics.median(r[1] for r in rows):15.1f}")
    engine = rates["engine"]
    figures: dict[str, float | bool | int | list[str]] = {"players": args.players, "batch": args.batch}
    figures["not_installed"] = missing
    for label in rates:
        key = label.replace(" ", "_")
        figures[f"{key}_per_s"] = round(medians[label])
        if label != "engine":
            paired = statistics.median(k[0] / e[0] for k, e in zip(rates[label], engine, strict=True))
            figures[f"{key}_vs_engine"] = round(paired, 2)
            print(f"ratio {label} / engine: {medians[label] / medians['engine']:.1f}x (paired {paired:.1f}x)")
    if "openspiel crazy_eights" in medians:
        ratio = medians["kernel steps"] / medians["openspiel crazy_eights"]
        figures["kernel_steps_vs_openspiel"] = round(ratio, 2)
        print(f"ratio kernel steps / openspiel crazy_eights: {ratio:.1f}x")
    met = medians["kernel steps"] >= GOAL
    figures["goal_met"] = met
    print(f"goal >= {GOAL:,} kernel steps/s per core: {'met' if met else 'NOT met'}")
    if args.json:
        print_json(figures, out)


if __name__ == "__main__":
    main()
