"""Aus die Maus! throughput on one core: the numba kernel next to the plain engine, same run.

* engine: ``new_game("aus-die-maus", players=N, seed=s)`` then ``play("flip")`` until
  ``is_over`` — the public API with its events, as a script would drive it.
* kernel: ``games.ausdiemaus.kernel.simulate_range`` — the same games (same seeds, same deal, same
  AM-11 loop check), as ``mauseloch simulate aus-die-maus`` plays them.

Both play the games ``derive_seed(seed, i)`` for consecutive ``i``, in one process on one thread
(numba's threading layer is never used: the kernel has no ``prange``). Rounds are interleaved so
machine noise hits both alike; the medians over the rounds count, and ``paired`` is the median of
each round's own kernel/engine ratio (the steadier figure on a busy machine). Goal: kernel
>= 200,000 games/s per core and >= 100x the engine.

    python bench/ausdiemaus.py [--players 4] [--seconds 2] [--rounds 5] [--all] [--json]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # one core: the kernel is serial anyway

import numpy as np

import mauseloch
from _report import print_json, text_to_stderr
from mauseloch.core.engine import derive_seed
from mauseloch.games.ausdiemaus.kernel import simulate_range

GAME = "aus-die-maus"
SEED = 2024


def run_engine(players: int, seconds: float, first: int) -> tuple[int, int, float]:
    """Games and flips played through the public API in about ``seconds``."""
    new_game = mauseloch.new_game
    games = flips = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = first
    while time.perf_counter() < deadline:
        g = new_game(GAME, players=players, seed=derive_seed(SEED, i))
        play = g.play
        while not g.is_over:
            play("flip")
        flips += g.move_count
        games += 1
        i += 1
    return games, flips, time.perf_counter() - start


def run_kernel(players: int, seconds: float, first: int) -> tuple[int, int, float]:
    small = players <= 3  # the default deck for that player count
    chips = 5 if small else 9
    games = flips = 0
    batch = 20_000
    start = time.perf_counter()
    deadline = start + seconds
    i = first
    while time.perf_counter() < deadline:
        _, f, _, _ = simulate_range(np.uint64(SEED), i, i + batch, players, small, chips)
        flips += int(f.sum(dtype=np.int64))
        games += batch
        i += batch
    return games, flips, time.perf_counter() - start


def measure(players: int, seconds: float, rounds: int) -> tuple[float, float, float, float, float]:
    """Median games/s and flips/s of engine and kernel, and the median per-round games/s ratio."""
    simulate_range(np.uint64(SEED), 0, 10, players, players <= 3, 5 if players <= 3 else 9)  # compile/load
    eng_g: list[float] = []
    eng_f: list[float] = []
    ker_g: list[float] = []
    ker_f: list[float] = []
    for r in range(rounds):
        g, f, t = run_engine(players, seconds, r * 1_000_000)
        eng_g.append(g / t)
        eng_f.append(f / t)
        g, f, t = run_kernel(players, seconds, r * 10_000_000)
        ker_g.append(g / t)
        ker_f.append(f / t)
    paired = statistics.median(k / e for k, e in zip(ker_g, eng_g, strict=True))
    return (
        statistics.median(eng_g),
        statistics.median(eng_f),
        statistics.median(ker_g),
        statistics.median(ker_f),
        paired,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per runner and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--all", action="store_true", help="every player count 2..6 (default deck each)")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    rows = []
    counts = list(range(2, 7)) if args.all else [args.players]
    print(f"Aus die Maus! one core, median of {args.rounds} interleaved rounds of {args.seconds:g} s each")
    header = f"{'players':>7}  {'engine games/s':>15}  {'kernel games/s':>15}  {'ratio':>7}  {'paired':>7}  "
    header += f"{'engine flips/s':>15}  {'kernel flips/s':>15}"
    print(header)
    for n in counts:
        eg, ef, kg, kf, paired = measure(n, args.seconds, args.rounds)
        print(f"{n:>7}  {eg:>15,.0f}  {kg:>15,.0f}  {kg / eg:>6.0f}x  {paired:>6.0f}x  {ef:>15,.0f}  {kf:>15,.0f}")
        row = {"players": n, "engine_games_per_s": round(eg), "kernel_games_per_s": round(kg)}
        row |= {"kernel_vs_engine": round(kg / eg, 1), "paired": round(paired, 1)}
        rows.append(row | {"engine_flips_per_s": round(ef), "kernel_flips_per_s": round(kf)})
        if n == 4:
            ok_speed = "met" if kg >= 200_000 else "NOT met"
            ok_ratio = "met" if min(kg / eg, paired) >= 100 else "NOT met"
            print(f"         goal >= 200,000 kernel games/s per core: {ok_speed}; goal >= 100x the engine: {ok_ratio}")
    if args.json:
        print_json({"bench": "ausdiemaus", "seconds": args.seconds, "rounds": args.rounds, "rows": rows}, out)


if __name__ == "__main__":
    main()
