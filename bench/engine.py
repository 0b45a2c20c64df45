"""Engine throughput: random self-play of 4-player Mau-Mau through the public string API,
next to its nearest peers driven from Python in the same run: RLCard's UNO (4 players) and
OpenSpiel's C++ ``crazy_eights(players=4)`` (install the ``bench`` extra for them).

Decisions per second is the figure to compare (the games differ in length). Rounds are
interleaved so that machine noise hits every engine alike; the median round counts.

    python bench/engine.py [--seconds 2] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import mauseloch
from _report import print_json, text_to_stderr

Runner = Callable[[float, random.Random], tuple[int, int, float]]  # -> decisions, games, seconds


def make_mauseloch(players: int = 4, clock: Callable[[], float] = time.perf_counter) -> Runner:
    """Random legal moves through the public string API (``clock``: how seconds are counted)."""

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        new_game = mauseloch.new_game
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            g = new_game("mau-mau", players=players, seed=rng.getrandbits(53))
            while not g.is_over:
                g.play(choice(g.legal_moves()))
                decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


run_mauseloch = make_mauseloch()


def make_openspiel(clock: Callable[[], float] = time.perf_counter) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": 4})

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(choice(outcomes)[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


def make_rlcard(players: int = 4) -> Runner | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 1})

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choice(list(state["legal_actions"])))
                decisions += 1
            games += 1
        return decisions, games, time.perf_counter() - start

    return run


def mauseloch_memory(games: int = 300) -> tuple[float, float]:
    """Peak Python memory while playing one game at a time, and per finished game kept (KiB)."""
    rng = random.Random(7)
    tracemalloc.start()
    kept = []
    for _ in range(games):
        g = mauseloch.new_game("mau-mau", players=4, seed=rng.getrandbits(53))
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
        kept.append(g)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024, current / 1024 / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measured round per engine")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the median counts")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout

    engines: dict[str, Runner] = {"mauseloch mau-mau (string API)": run_mauseloch}
    missing = []  # peers of the ``bench`` extra that are not installed: left out, and said so
    for label, factory in (("openspiel crazy_eights (C++)", make_openspiel), ("rlcard uno", make_rlcard)):
        runner = factory()
        if runner is None:
            print(f"{label}: not installed (pip install -e '.[bench]')")
            missing.append(label)
        else:
            engines[label] = runner

    rng = random.Random(2026)
    for runner in engines.values():  # warm up caches and imports
        runner(min(0.3, args.seconds), rng)
    rates: dict[str, list[tuple[float, float, float]]] = {k: [] for k in engines}
    for _ in range(args.rounds):
        for label, runner in engines.items():
            decisions, games, seconds = runner(args.seconds, rng)
            rates[label].append((decisions / seconds, games / seconds, decisions / max(games, 1)))

    print(f"\n4 players, random legal moves, median of {args.rounds} interleaved rounds of {args.seconds:g} s")
    print(f"{'engine':34} {'decisions/s':>12} {'games/s':>10} {'decisions/game':>15}")
    medians = {}
    figures: dict[str, Any] = {"bench": "engine", "seconds": args.seconds, "rounds": args.rounds, "engines": {}}
    for label, rows in rates.items():
        dps = statistics.median(r[0] for r in rows)
        gps = statistics.median(r[1] for r in rows)
        length = statistics.median(r[2] for r in rows)
        medians[label] = dps
        print(f"{label:34} {dps:12,.0f} {gps:10,.0f} {length:15.1f}")
        figures["engines"][label] = {"decisions_per_s": round(dps), "games_per_s": round(gps, 1)}
        figures["engines"][label]["decisions_per_game"] = round(length, 1)
    ours = medians["mauseloch mau-mau (string API)"]
    for label, dps in medians.items():
        if label.startswith("mauseloch"):
            continue
        print(f"ratio mauseloch / {label}: {ours / dps:.2f}x decisions per second")
        figures["engines"][label]["mauseloch_vs_this"] = round(ours / dps, 2)
    peak, per_game = mauseloch_memory()
    print(f"mauseloch memory: peak {peak:,.0f} KiB playing 300 games, {per_game:.1f} KiB per finished game kept")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process max RSS: {rss:,.0f} MiB")
    if args.json:
        figures |= {"not_installed": missing, "memory_peak_kib": round(peak), "kib_per_game_kept": round(per_game, 1)}
        print_json(figures | {"max_rss_mib": round(rss)}, out)


if __name__ == "__main__":
    main()
