"""JAX environments in pgx's style (the ``train`` extra: jax, flax): ``init(key)``, ``step(state,
action)``, the legal action mask, the observation and the rewards as pure functions, jit- and
vmap-able. The game code lives with its game (``mauseloch.games.maumau.envs.jax``); this is the
public import path.

    import jax
    from mauseloch.envs.jax import MauMau

    env = MauMau(players=2)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(0), 1024))
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.jax import MauMau, State, seed_of

__all__ = ["MauMau", "State", "seed_of"]
