"""Learning environments (the extra ``mauseloch[rl]``: PettingZoo and Gymnasium; without it,
importing this package says so in one line).

- ``mauseloch.envs.maumau_v0``: Mau-Mau as a PettingZoo AEC environment, every seat an agent.
- ``mauseloch.envs.maumau_single``: Mau-Mau as a Gymnasium environment; one seat learns, the
  others are bots from ``mauseloch.bots`` (registered as ``mauseloch/MauMau-v0``).
- ``mauseloch.envs.maumau_obs``: the observation vector both share, and the reward mapping.
- ``mauseloch.envs.maumau_state``: one game on the compiled kernel, what ``maumau_v0`` steps.
- ``mauseloch.envs.mausgeflippt_v0``: Mausgeflippt as a PettingZoo Parallel environment, one
  step per mouse, decided by the real-time referee.

These are the public import paths, plus ``vector``, ``rlcard``, ``openspiel`` and ``jax``; each
game's environments live with the game (``mauseloch.games.<game>.envs``) and the modules here
re-export them. ``docs/envs.md`` and ``docs/envs-mausgeflippt.md`` document the observations
field by field.

Importing this package registers ``mauseloch/MauMau-v0`` with Gymnasium
by name only, so ``gymnasium.make("mauseloch/MauMau-v0")`` works after ``import mauseloch.envs``
and ``gymnasium.make("mauseloch.envs:mauseloch/MauMau-v0")`` with no import at all; the
environment's module (and the bots it plays with) loads on the first ``make``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping

from mauseloch.extras import needs

with needs("rl", "mauseloch.envs"):
    import gymnasium

MAUMAU_ID = "mauseloch/MauMau-v0"


def refuse_unknown(name: str, unknown: Mapping[str, object], takes: Callable[..., object]) -> None:
    """An environment's constructor given keywords it does not take (``unknown``, its ``**``):
    a ``ValueError`` naming them and every argument it takes, the game's options among them, as
    ``new_game`` names the allowed options (a misspelt option is no bare ``TypeError``)."""
    if not unknown:
        return
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    allowed = [p.name for p in inspect.signature(takes).parameters.values() if p.kind in kinds and p.name != "self"]
    given = ", ".join(repr(key) for key in unknown)
    raise ValueError(f"unknown argument {given} for {name}; allowed: {', '.join(allowed)}")


if MAUMAU_ID not in gymnasium.registry:
    gymnasium.register(
        id=MAUMAU_ID,
        entry_point="mauseloch.envs.maumau_single:MauMauSingleEnv",
        # gymnasium.make_vec(MAUMAU_ID, num_envs=N, vectorization_mode="vector_entry_point"): compiled
        vector_entry_point="mauseloch.envs.vector:MauMauVectorEnv",
    )
