"""``mauseloch.envs.mausgeflippt_v0``: Mausgeflippt as a PettingZoo Parallel environment.

The code lives with its game (``mauseloch.games.mausgeflippt.envs.parallel``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.mausgeflippt.envs.parallel import (
    REACTIONS,
    MausgeflipptParallelEnv,
    env,
    fields,
    observe,
    parallel_env,
    raw_env,
)

__all__ = [
    "REACTIONS",
    "MausgeflipptParallelEnv",
    "env",
    "fields",
    "observe",
    "parallel_env",
    "raw_env",
]
