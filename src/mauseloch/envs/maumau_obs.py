"""``mauseloch.envs.maumau_obs``: the observation vector Mau-Mau's environments share, and the reward mapping.

The code lives with its game (``mauseloch.games.maumau.envs.obs``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.obs import (
    LAST_DRAW,
    LAST_PASS_EMPTY,
    RIVAL_SIZE,
    SCALE,
    Ints,
    PublicLog,
    checked_setup,
    note_move,
    observation_fields,
    observation_size,
    rank_rewards,
)

__all__ = [
    "LAST_DRAW",
    "LAST_PASS_EMPTY",
    "RIVAL_SIZE",
    "SCALE",
    "Ints",
    "PublicLog",
    "checked_setup",
    "note_move",
    "observation_fields",
    "observation_size",
    "rank_rewards",
]
