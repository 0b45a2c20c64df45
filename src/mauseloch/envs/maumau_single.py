"""``mauseloch.envs.maumau_single``: Mau-Mau as a Gymnasium environment, one seat learning.

The code lives with its game (``mauseloch.games.maumau.envs.single``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.single import (
    ENV_ID,
    SEED_LIMIT,
    MauMauSingleEnv,
)

__all__ = [
    "ENV_ID",
    "SEED_LIMIT",
    "MauMauSingleEnv",
]
