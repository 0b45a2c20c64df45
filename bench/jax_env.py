"""The JAX Mau-Mau (``mauseloch.envs.jax``) at batch 1, 1,024 and 8,192 on this CPU, next to the
numba kernel (``MauMauBatch``) and a pgx game of similar size (``sparrow_mahjong``: a card game of
hidden hands and a wall, 3 players) in the same run.

* jax: ``jit`` of a ``lax.scan`` of ``--steps`` steps of ``vmap(env.step)`` on a batch, each game
  playing a uniformly random legal action (``jax.random.categorical`` on the mask) and dealt anew
  when it ends (``init`` under ``jnp.where`` for the games that ended, as pgx's ``auto_reset``
  does, skipped in a step where none did); compiled before the clock starts. A step is one decision in one game.
* numba kernel: ``MauMauBatch(batch).step(actions)`` with the kernel's random policy
  (``random_legal_actions``), automatic reset, one core.
* pgx: the same scan as ours on ``pgx.make("sparrow_mahjong")`` with ``pgx.experimental.auto_reset``
  (the ``bench`` extra; said when not installed).

2 players for Mau-Mau (pgx's sparrow_mahjong has 3). Rates are steps per wall-clock second
(XLA may use both cores for a large batch; the CPU seconds a step are printed too); rounds are
interleaved and the median counts.

    python bench/jax_env.py [--batches 1,1024,8192] [--seconds 2] [--rounds 3] [--steps 64] [--no-pgx] [--json]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from _report import print_json, text_to_stderr

SEED = 2026
Runner = Callable[[float], tuple[int, float, float]]  # seconds -> steps, wall seconds, CPU seconds


def _timed(call: Callable[[], int], seconds: float) -> tuple[int, float, float]:
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        steps += call()
    return steps, time.perf_counter() - wall, time.process_time() - cpu


def _scan_runner(init: Callable[..., Any], step: Callable[..., Any], batch: int, length: int) -> Runner:
    """A compiled roll-out of ``length`` random legal steps of ``batch`` games with auto reset."""
    import jax
    import jax.numpy as jnp

    def one(carry: tuple[Any, Any], _: Any) -> tuple[tuple[Any, Any], None]:
        state, key = carry
        key, pick, deal = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(pick, logits, axis=-1).astype(jnp.int32)
        state = jax.vmap(step)(state, action)
        ended = state.terminated | state.truncated

        def reset(state: Any) -> Any:
            fresh = jax.vmap(init)(jax.random.split(deal, batch))
            return jax.tree.map(lambda a, b: jnp.where(ended.reshape(ended.shape + (1,) * (a.ndim - 1)), a, b),
                                fresh, state)  # fmt: skip

        # deal only when a game ended (at batch 1 most steps; at large batches nearly none)
        state = jax.lax.cond(ended.any(), reset, lambda s: s, state)
        return (state, key), None

    roll = jax.jit(lambda state, key: jax.lax.scan(one, (state, key), None, length=length)[0])
    key = jax.random.key(SEED)
    carry = (jax.jit(jax.vmap(init))(jax.random.split(key, batch)), key)
    carry = roll(*carry)  # compile and warm
    jax.block_until_ready(carry)

    def run(seconds: float) -> tuple[int, float, float]:
        nonlocal carry

        def call() -> int:
            nonlocal carry
            carry = roll(*carry)
            jax.block_until_ready(carry)
            return batch * length

        return _timed(call, seconds)

    return run


def make_jax(batch: int, length: int) -> Runner:
    from mauseloch.envs.jax import MauMau

    env = MauMau(players=2)
    return _scan_runner(env.init, env.step, batch, length)


def make_pgx(batch: int, length: int) -> Runner | None:
    try:
        import pgx
    except ImportError:
        return None
    env = pgx.make("sparrow_mahjong")
    return _scan_runner(env.init, lambda s, a: env.step(s, a), batch, length)


def make_kernel(batch: int) -> Runner:
    from mauseloch.games.maumau.kernel import MauMauBatch, random_legal_actions

    env = MauMauBatch(batch, players=2, seed=SEED)
    gen = np.array([SEED, 0, 0], dtype=np.uint64)
    actions = np.empty(batch, dtype=np.int64)
    rounds = max(1, 8192 // batch)  # about 8,192 steps a call

    def call() -> int:
        for _ in range(rounds):
            random_legal_actions(env.ints, gen, actions)
            env.step(actions)
        return rounds * batch

    call()
    return lambda seconds: _timed(call, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batches", default="1,1024,8192", help="batch sizes, comma separated")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measured round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the median counts")
    parser.add_argument("--steps", type=int, default=64, help="steps a compiled roll-out call plays")
    parser.add_argument("--no-pgx", action="store_true", help="leave pgx out (its compilation takes seconds)")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    stdout = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout
    out = sys.stdout
    batches = [int(b) for b in args.batches.split(",")]
    figures: dict[str, Any] = {"bench": "jax_env", "players": 2, "seconds": args.seconds, "rounds": args.rounds}
    rates: dict[str, dict[int, float]] = {"jax": {}, "kernel": {}, "pgx": {}}
    cpu_us: dict[str, dict[int, float]] = {"jax": {}, "kernel": {}, "pgx": {}}
    compile_s: dict[int, float] = {}
    pgx_missing = False
    for batch in batches:
        started = time.perf_counter()
        runners: dict[str, Runner] = {"jax": make_jax(batch, args.steps)}
        compile_s[batch] = round(time.perf_counter() - started, 1)
        runners["kernel"] = make_kernel(batch)
        theirs = None if args.no_pgx else make_pgx(batch, args.steps)
        if theirs is not None:
            runners["pgx"] = theirs
        elif not args.no_pgx:
            pgx_missing = True
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
        for _ in range(args.rounds):
            for name, run in runners.items():
                steps, wall, cpu = run(args.seconds)
                samples[name].append((steps / wall, cpu / steps * 1e6))
        for name, got in samples.items():
            rates[name][batch] = round(statistics.median(r for r, _ in got))
            cpu_us[name][batch] = round(statistics.median(c for _, c in got), 3)
        print(f"batch {batch:>5}: " + ", ".join(f"{n} {rates[n][batch]:,} steps/s ({cpu_us[n][batch]} CPU µs a step)"
                                              for n in runners), file=out, flush=True)  # fmt: skip
    if pgx_missing:
        print("pgx: not installed (pip install -e '.[bench]')", file=out)
    figures["steps_per_s_by_batch"] = {str(b): rates["jax"][b] for b in batches}
    figures["kernel_steps_per_s_by_batch"] = {str(b): rates["kernel"][b] for b in batches}
    if args.no_pgx:
        figures["pgx"] = "left out (--no-pgx)"
    elif pgx_missing:
        figures["pgx"] = "not installed"
    else:
        figures["pgx"] = {"game": "sparrow_mahjong", "steps_per_s_by_batch": {str(b): rates["pgx"][b] for b in batches}}
    figures["cpu_us_per_step"] = {name: {str(b): v for b, v in per.items()} for name, per in cpu_us.items() if per}
    figures["ratio_to_kernel_by_batch"] = {str(b): round(rates["jax"][b] / rates["kernel"][b], 3) for b in batches}
    figures["compile_s"] = {str(b): s for b, s in compile_s.items()}
    for b in batches:
        print(f"jax / numba kernel at batch {b}: {figures['ratio_to_kernel_by_batch'][str(b)]:.2f}x", file=out)
    if args.json:
        print_json(figures, stdout)


if __name__ == "__main__":
    main()
