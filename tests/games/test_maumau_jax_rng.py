"""The JAX Mau-Mau's shuffle is ``engine.Rng.shuffle``: over 20,000 generator states (any state,
0..3 unused chunks of the last output, decks of 2..32 cards) it gives the engine's order and
leaves the generator where the engine's is, rejected chunks included (a shuffle of 32 cards meets
one about once in 130)."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

from mauseloch.core.engine import Rng  # noqa: E402
from mauseloch.games.maumau.envs import jax as jax_env  # noqa: E402


def _cases(count: int, seed: int) -> tuple[list[list[int]], np.ndarray, np.ndarray, list[tuple[int, int, int]]]:
    rng = np.random.default_rng(seed)
    decks, sizes, gens, engine_states = [], [], [], []
    for _ in range(count):
        m = int(rng.integers(2, 33))
        deck = [int(c) for c in rng.permutation(32)]
        state = int(rng.integers(0, 1 << 63)) * 2 + int(rng.integers(0, 2))
        left = int(rng.integers(0, 4))
        chunks = [int(c) for c in rng.integers(0, 1 << 16, 4)]
        word = sum(chunks[4 - left + k] << (16 * k) for k in range(left))
        decks.append(deck)
        sizes.append(m)
        gens.append([state >> 32, state & 0xFFFFFFFF, left, *chunks])
        engine_states.append((state, word, left))
    return decks, np.asarray(sizes, np.int32), np.asarray(gens, np.uint32), engine_states


@pytest.mark.slow
def test_the_shuffle_is_the_engines() -> None:
    decks, sizes, gens, states = _cases(20_000, seed=11)
    shuffle = jax.jit(jax.vmap(jax_env._shuffle))
    cards, after = (
        np.asarray(x) for x in shuffle(jnp.asarray(decks, jnp.int32), jnp.asarray(sizes), jnp.asarray(gens))
    )
    rejected = 0
    for k, (deck, m, (state, word, left)) in enumerate(zip(decks, sizes.tolist(), states, strict=True)):
        engine = Rng(0)
        engine.load((state, word, left))
        head = deck[:m]
        engine.shuffle(head)
        assert cards[k].tolist() == head + deck[m:], f"case {k}"
        s, w, c = engine.words()
        chunks = after[k].tolist()
        mine_word = sum(chunks[3 + 4 - chunks[2] + j] << (16 * j) for j in range(chunks[2]))
        assert (chunks[0] << 32 | chunks[1], mine_word, chunks[2]) == (s, w, c), f"case {k}"
        outputs = (s - state) % (1 << 64) * pow(0x9E3779B97F4A7C15, -1, 1 << 64) % (1 << 64)
        rejected += outputs * 4 + left - c > m - 1  # more chunks read than draws made
    assert rejected > 5  # the rejection path was taken (18 of the 20,000), and still gave the engine's order
