"""Aus die Maus! in the simulator: whole chunks of games in the numba kernel
(``mauseloch.games.ausdiemaus.kernel``), which plays exactly the engine's games from the same seeds.

The game's declaration names these hooks (``Simulation``); the simulator imports this module only
when it simulates Aus die Maus!, so declaring the game never loads the kernel.
"""

from __future__ import annotations

from collections.abc import Callable

from mauseloch.core.simulation import COMPILING, SimSpec, Tally


def run_kernel(spec: SimSpec, start: int, stop: int) -> Tally:
    """Games ``start..stop-1`` of ``spec`` in the kernel, summed into a tally."""
    import numpy as np

    from mauseloch.games.ausdiemaus.kernel import REASON_CODES, simulate_range

    n = spec.players
    reasons, flips, cards, chips = simulate_range(
        np.uint64(spec.seed), start, stop, n, bool(spec.options["small_deck"]), int(spec.options["chips"])
    )
    tally = Tally(n)
    g = stop - start
    tally.games = g
    # AM-12 ranks, vectorised: rank = 1 + the seats with more cards, or as many and more chips
    key = cards.astype(np.int64) * 1000 + chips.astype(np.int64)
    ranks = 1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)
    firsts = (ranks == 1).sum(axis=1)
    for s in range(n):
        tally.wins[s] = int((ranks[:, s] == 1).sum())
        tally.sole_wins[s] = int(((ranks[:, s] == 1) & (firsts == 1)).sum())
        tally.rank_sum[s] = int(ranks[:, s].sum())
    names = {code: name for name, code in REASON_CODES.items()}
    for code, count in enumerate(np.bincount(reasons, minlength=4)):
        if count:
            tally.reasons[names[code]] = int(count)
    values, counts = np.unique(flips, return_counts=True)
    tally.lengths = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    tally.seat_figures = {
        "cards": [int(x) for x in cards.sum(axis=0, dtype=np.int64)],
        "chips": [int(x) for x in chips.sum(axis=0, dtype=np.int64)],
    }
    return tally


def prepare(spec: SimSpec, notice: Callable[[str], None] | None) -> None:
    """Say so when the kernel is about to compile (the simulator then runs it once before the
    workers start); ``--engine`` plays without it."""
    from mauseloch.games.ausdiemaus.kernel import needs_compiling

    if notice and not spec.engine_only and needs_compiling():
        notice(COMPILING)
