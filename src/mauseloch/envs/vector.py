"""``mauseloch.envs.vector``: Mau-Mau as a Gymnasium vector environment on the compiled kernel.

The code lives with its game (``mauseloch.games.maumau.envs.vector``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.vector import (
    MOVE_LIMIT_REASON,
    RIVALS,
    MauMauVectorEnv,
)

__all__ = [
    "MOVE_LIMIT_REASON",
    "RIVALS",
    "MauMauVectorEnv",
]
