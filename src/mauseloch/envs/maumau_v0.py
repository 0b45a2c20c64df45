"""``mauseloch.envs.maumau_v0``: Mau-Mau as a PettingZoo AEC environment.

The code lives with its game (``mauseloch.games.maumau.envs.aec``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.aec import (
    BLOCK,
    MAX_MASKS,
    NAME,
    SEAT_BITS,
    SEAT_MASK,
    SEED_LIMIT,
    env,
    raw_env,
    render_text,
)

__all__ = [
    "BLOCK",
    "MAX_MASKS",
    "NAME",
    "SEAT_BITS",
    "SEAT_MASK",
    "SEED_LIMIT",
    "env",
    "raw_env",
    "render_text",
]
