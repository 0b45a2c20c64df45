"""``mauseloch.envs.rlcard``: Mau-Mau as an RLCard environment.

The code lives with its game (``mauseloch.games.maumau.envs.rlcard``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.rlcard import (
    DEFAULT_GAME_CONFIG,
    ENV_ID,
    MauMauEnv,
    MauMauGame,
)

__all__ = [
    "DEFAULT_GAME_CONFIG",
    "ENV_ID",
    "MauMauEnv",
    "MauMauGame",
]
