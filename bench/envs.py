"""Learning environments: steps per second of ``mauseloch.envs.maumau_v0`` (PettingZoo AEC,
two players) next to RLCard's UNO env and PettingZoo's own ``leduc_holdem_v4`` (classic, built
on RLCard), measured in the same run with rounds interleaved; the median round counts.

A step is one agent's decision: observe (``last()`` or RLCard's state, which encodes the
observation too), pick a uniformly random legal action from the mask, ``step``. Every env is
driven by the same loop shape; the ratio to RLCard UNO is the figure to watch (goal: ≥ 5×). The
Python engine alone (the same random games through move strings, no observation) is shown for
comparison: the env plays on the compiled kernel, so it can outrun it.

OpenSpiel: steps per second of ``open_spiel.python.rl_environment.Environment`` on
``mauseloch_maumau`` with every default (65,536 deals, the observation tensor as ``info_state``),
a uniformly random legal action a step, next to the same loop on OpenSpiel's own C++
``crazy_eights`` (``openspiel_rl_env_steps_per_s``; goal: at least 3,000).

    python bench/envs.py [--seconds 2] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import print_json, text_to_stderr
from engine import make_mauseloch, make_rlcard  # the same runners as bench/engine.py

Runner = Callable[[float, random.Random], tuple[int, float]]  # -> steps, seconds


def _aec_runner(make: Callable[[], Any]) -> Runner:
    env = make()
    env.reset(seed=1)

    def run(seconds: float, rng: random.Random) -> tuple[int, float]:
        below = rng.randrange
        steps = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            env.reset(seed=rng.getrandbits(32))
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[below(len(legal))]))
                steps += 1
        return steps, time.perf_counter() - start

    return run


def make_maumau() -> Runner:
    from mauseloch.envs import maumau_v0

    return _aec_runner(lambda: maumau_v0.env(players=2))


def steps_only(runner: Callable[[float, random.Random], tuple[int, int, float]]) -> Runner:
    """A runner of ``bench/engine.py`` (decisions, games, seconds) as steps and seconds."""

    def run(seconds: float, rng: random.Random) -> tuple[int, float]:
        steps, _games, elapsed = runner(seconds, rng)
        return steps, elapsed

    return run


# The same games without an environment (move strings, no observation): the floor.
run_engine = steps_only(make_mauseloch(players=2))


def make_leduc() -> Runner | None:
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:  # needs rlcard and pygame (the bench extra)
        return None
    return _aec_runner(leduc_holdem_v4.env)


def make_rlcard_uno() -> Runner | None:
    runner = make_rlcard(players=2)
    return None if runner is None else steps_only(runner)


def _rl_env_runner(game: str) -> Runner | None:
    """``rl_environment`` random steps (a reset when a game ends does not count as a step)."""
    try:
        from open_spiel.python import rl_environment

        import mauseloch.envs.openspiel  # noqa: F401  (registers mauseloch_maumau)
    except ImportError:
        return None
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=1))

    def run(seconds: float, rng: random.Random) -> tuple[int, float]:
        below = rng.randrange
        steps = 0
        ts = env.reset()
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            if ts.last():
                ts = env.reset()
                continue
            legal = ts.observations["legal_actions"][ts.observations["current_player"]]
            ts = env.step([legal[below(len(legal))]])
            steps += 1
        return steps, time.perf_counter() - start

    return run


def bench_openspiel(seconds: float = 2.0, rounds: int = 5) -> dict[str, Any]:
    """Median ``rl_environment`` steps/s on ``mauseloch_maumau`` (defaults) and on C++ crazy_eights."""
    runners = {label: _rl_env_runner(game) for label, game in (("mauseloch_maumau", "mauseloch_maumau"),
                                                               ("crazy_eights (C++)", "crazy_eights"))}  # fmt: skip
    live = {label: run for label, run in runners.items() if run is not None}
    rng = random.Random(2027)
    for run in live.values():
        run(min(0.3, seconds), rng)
    rates: dict[str, list[float]] = {label: [] for label in live}
    for _ in range(rounds):
        for label, run in live.items():
            steps, took = run(seconds, rng)
            rates[label].append(steps / took)
    medians = {label: statistics.median(r) for label, r in rates.items()}
    return {"steps_per_s": medians, "missing": [label for label, run in runners.items() if run is None]}


def bench_aec(seconds: float = 2.0, rounds: int = 5) -> dict[str, Any]:
    """Median steps/s of each AEC env and its peers, and the ratios to RLCard UNO."""
    runners: dict[str, Runner] = {"mauseloch maumau_v0": make_maumau(), "mauseloch engine alone (no env)": run_engine}
    missing = []
    for label, factory in (("rlcard uno", make_rlcard_uno), ("pettingzoo leduc_holdem_v4", make_leduc)):
        runner = factory()
        if runner is None:
            missing.append(label)
        else:
            runners[label] = runner
    rng = random.Random(2026)
    for runner in runners.values():  # warm up imports and caches
        runner(min(0.3, seconds), rng)
    rates: dict[str, list[float]] = {k: [] for k in runners}
    for _ in range(rounds):
        for label, runner in runners.items():
            steps, took = runner(seconds, rng)
            rates[label].append(steps / took)
    medians = {label: statistics.median(r) for label, r in rates.items()}
    uno = medians.get("rlcard uno")
    ratios = {label: rate / uno for label, rate in medians.items() if uno and label != "rlcard uno"}
    return {"steps_per_s": medians, "ratio_to_rlcard_uno": ratios, "missing": missing,
            "seconds": seconds, "rounds": rounds}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measured round per env")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the median counts")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    aec = bench_aec(args.seconds, args.rounds)
    for label in aec["missing"]:
        print(f"{label}: not installed (pip install -e '.[bench]')")
    print(f"\n2 players, random legal actions, median of {args.rounds} interleaved rounds of {args.seconds:g} s")
    print(f"{'env':34} {'steps/s':>10}")
    for label, rate in aec["steps_per_s"].items():
        print(f"{label:34} {rate:10,.0f}")
    for label, ratio in aec["ratio_to_rlcard_uno"].items():
        print(f"ratio {label} / rlcard uno: {ratio:.2f}x (goal 5x)")
    spiel = bench_openspiel(args.seconds, args.rounds)
    for label in spiel["missing"]:
        print(f"openspiel rl_environment {label}: not installed (pip install -e '.[research]')")
    for label, rate in spiel["steps_per_s"].items():
        print(f"{'openspiel rl_environment ' + label:34} {rate:10,.0f}")
    ours = spiel["steps_per_s"].get("mauseloch_maumau")
    if ours is not None:
        print(f"openspiel rl_environment mauseloch_maumau: {ours:,.0f} steps/s (goal 3,000)")
    if args.json:
        print_json({"bench": "envs", "aec": aec, "openspiel_rl_env_steps_per_s": ours,
                          "openspiel_rl_env": spiel}, out)  # fmt: skip


if __name__ == "__main__":
    main()
