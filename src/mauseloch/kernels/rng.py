"""What every game's compiled kernel shares: the engine's seeded generator (SplitMix64,
``engine.derive_seed``, ``Rng.below``'s 16-bit draws with rejection) in uint64 arithmetic, and
whether calling a kernel compiles it. A game's kernel lives with its game
(``games/<game>/kernel.py``) and plays exactly the engine's games from the same seeds."""

from __future__ import annotations

from typing import Any

from mauseloch.extras import needs

with needs("sim", __name__):
    import numpy as np
    from numba import njit

U64 = np.uint64
GOLDEN = U64(0x9E3779B97F4A7C15)
MIX1 = U64(0xBF58476D1CE4E5B9)
MIX2 = U64(0x94D049BB133111EB)
STREAM = U64(0x632BE59BD9B4E019)
MAX_BELOW = 128  # the largest bound of a draw the tables below serve (a deck of up to 128 cards)


@njit(cache=True)
def mix64(x: np.uint64) -> np.uint64:
    x = (x ^ (x >> U64(30))) * MIX1
    x = (x ^ (x >> U64(27))) * MIX2
    return x ^ (x >> U64(31))


@njit(cache=True)
def derive_seed(seed: np.uint64, stream: np.uint64) -> np.uint64:
    """``engine.derive_seed`` in uint64 arithmetic."""
    return mix64(seed ^ mix64(stream + STREAM))


# ``65536 - 65536 % n``: the rejection limit of a 16-bit draw below n (engine.Rng.below), and
# ``2**32 // n + 1``: ``v % n == v - ((v * RECIP16[n]) >> 32) * n`` for every 16-bit v (no division)
LIMIT16 = np.array([0] + [65536 - 65536 % n for n in range(1, MAX_BELOW + 1)], dtype=np.uint64)
RECIP16 = np.array([0] + [(1 << 32) // n + 1 for n in range(1, MAX_BELOW + 1)], dtype=np.uint64)


def needs_compiling(kernel: object) -> bool:
    """True when calling ``kernel`` (a numba dispatcher) will compile it, taking seconds: it has
    no machine code in this process and none in numba's cache (``cache=True``) that matches its
    source. Callers say so before the first call ("compiling, once")."""
    dispatcher: Any = kernel
    if dispatcher.signatures:
        return False
    try:
        # numba has no public "is it cached" question; its index loader returns {} for a
        # missing or stale cache (another source stamp or numba version)
        return not dispatcher._cache._cache_file._load_index()
    except Exception:  # another numba: we cannot tell, so say it may take a while
        return True
