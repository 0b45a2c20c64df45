"""Learner steps per CPU second: the compiled vector environment next to Gymnasium's sync vector of
``mauseloch/MauMau-v0`` (the same games), heads-up, each learner playing its first legal action.

    python bench/vector_env.py [--envs 256] [--sync-envs 16] [--seconds 3] [--json]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np

import mauseloch.envs  # noqa: F401  (registers mauseloch/MauMau-v0)
from _report import print_json, text_to_stderr
from mauseloch.envs.vector import MauMauVectorEnv


def rate(envs: Any, seconds: float) -> float:
    """Learner steps (summed over the games) per CPU second, after a warm-up."""
    _, info = envs.reset(seed=0)
    for _ in range(5):
        _, _, _, _, info = envs.step(np.argmax(info["action_mask"], axis=1))
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        _, _, _, _, info = envs.step(np.argmax(info["action_mask"], axis=1))
        steps += envs.num_envs
    return steps / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--sync-envs", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = ap.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    rows = []
    for rivals in ("random", "heuristic"):
        ours = rate(MauMauVectorEnv(num_envs=args.envs, opponents=rivals), args.seconds)
        sync = gymnasium.make_vec("mauseloch/MauMau-v0", num_envs=args.sync_envs, vectorization_mode="sync",
                                  opponents=rivals)  # fmt: skip
        theirs = rate(sync, args.seconds)
        print(f"{rivals:<9} rivals: vector env {ours:,.0f}/s ({args.envs} games), sync MauMau-v0 {theirs:,.0f}/s "
              f"({args.sync_envs} games): {ours / theirs:.0f}×")  # fmt: skip
        rows.append({"rivals": rivals, "vector_steps_per_s": ours, "sync_steps_per_s": theirs})
    if args.json:
        print_json({"bench": "vector_env", "envs": args.envs, "sync_envs": args.sync_envs, "rows": rows}, out)


if __name__ == "__main__":
    main()
