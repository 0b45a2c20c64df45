"""Mau-Mau in the simulator: with a random bot on every seat, whole chunks of games play in the
batched kernel (``mauseloch.games.maumau.kernel``: the same games and the same bot choices as the
engine path from the same seeds); the heuristic and search bots' kernels compile once before the
workers start.

The game's declaration names these hooks (``Simulation``); the simulator imports this module only
when it simulates Mau-Mau, so declaring the game never loads a kernel.
"""

from __future__ import annotations

from collections.abc import Callable

from mauseloch.core.simulation import COMPILING, SimSpec, Tally


def all_random(spec: SimSpec) -> bool:
    """The kernel plays the random bot only."""
    return all(kind == "random" for kind in spec.bots)


def run_kernel(spec: SimSpec, start: int, stop: int) -> Tally:
    """Games ``start..stop-1`` of ``spec`` in the kernel, summed into a tally."""
    import numpy as np

    from mauseloch.games.maumau.kernel import REASONS, options_array, simulate_range

    n = spec.players
    reasons, moves, ranks, cards, points = simulate_range(
        np.uint64(spec.seed), start, stop, options_array(n, spec.options)
    )
    tally = Tally(n)
    tally.games = stop - start
    firsts = (ranks == 1).sum(axis=1)
    for s in range(n):
        tally.wins[s] = int((ranks[:, s] == 1).sum())
        tally.sole_wins[s] = int(((ranks[:, s] == 1) & (firsts == 1)).sum())
        tally.rank_sum[s] = int(ranks[:, s].sum())
    for code, count in enumerate(np.bincount(reasons, minlength=len(REASONS) + 1)):
        if count:
            tally.reasons[REASONS[code - 1]] = int(count)
    values, counts = np.unique(moves, return_counts=True)
    tally.lengths = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    tally.seat_figures = {
        "cards": [int(x) for x in cards.sum(axis=0)],
        "points": [int(x) for x in points.sum(axis=0)],
    }
    return tally


def prepare(spec: SimSpec, notice: Callable[[str], None] | None) -> None:
    """Compile or load the heuristic and search bots' kernels once here, before workers start
    (forked ones inherit them, others load numba's cache that this writes); ``notice`` hears
    COMPILING when that takes seconds."""
    from mauseloch.games.maumau.bots.heuristic import KERNEL_BOTS
    from mauseloch.games.maumau.bots.heuristic import prepare as compile_bots

    if set(spec.bots) & set(KERNEL_BOTS):
        compile_bots(None if notice is None else lambda: notice(COMPILING))
