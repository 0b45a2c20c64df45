"""A learned model of the rivals' hands: where each card a seat cannot see lies, given what it saw.

The network reads the seat's observation (the kernel's 268 values with the rivals' public
history, and the action mask: the Q network's inputs, ``learn.policy.features``) and gives, for
each of the 32 cards, a distribution over five places: the draw pile (0) or the hand of the
rival 1 to 4 seats after the seat (``players - 1`` of them exist). It learns from the true
positions of games the heuristic plays on every seat (the rivals the search models), with the
cross-entropy of each hidden card's place.

``search-learned`` can draw its determinisations from it (``belief="learned"``): every hidden
card goes to a place that still has room, with the model's probability among those places, the
cards it is surest of first (:func:`draw_deals`); the pile's order is random. That keeps every
hand its size but not the model's correlations between cards. Measured against the search's
belief from the whole history in docs/bots-figures.md (fourth round).

Training (``fit``, JAX) needs the ``train`` extra; playing (:class:`HandModel`, :func:`draw_deals`)
needs numpy and numba only.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from mauseloch.extras import needs
from mauseloch.games.maumau import kernel as K
from mauseloch.games.maumau.learn.policy import NUM_FEATURES, Network, features

with needs("sim", __name__):
    import numpy as np
    from numba import njit

PLACES = 5  # the draw pile, then the rivals 1..4 seats after the seat
CARDS = 32


class HandModel(Network):
    """The network's weights and its probabilities."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        if not layers or layers[0][0].shape[0] != NUM_FEATURES or layers[-1][0].shape[1] != CARDS * PLACES:
            raise ValueError(f"a hand model takes {NUM_FEATURES} features and gives {CARDS} × {PLACES} values")
        super().__init__(layers)

    def probs(self, x: np.ndarray, players: int) -> np.ndarray:
        """``(N, 32, 5)`` probabilities of each card's place for the feature rows ``x`` at a table
        of ``players`` (places past the last rival get 0)."""
        logits = self.forward(x).reshape(len(x), CARDS, PLACES)
        logits[:, :, players:] = -np.inf
        logits -= logits.max(axis=2, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=2, keepdims=True)


@njit(cache=True)
def draw_deals(
    probs: np.ndarray, pool: np.ndarray, room: np.ndarray, players: int, seat: int, uniforms: np.ndarray
) -> np.ndarray:
    """Deals of the cards in ``pool`` (card ids the seat cannot see) as ``MauMau.from_view`` takes
    them: the other hands in seat order, then the draw pile top first. ``room[j]`` is how many
    cards place j holds (the pile, then the rival j seats on); ``probs`` (32, 5) the model's
    places; ``uniforms`` (deals, len(pool), 2) the randomness. The cards the model is surest of
    go first (a card it places for certain then finds its place with room), each to a place with
    room drawn with the model's probability among them; the pile's order is the order of the
    first uniforms."""
    n = pool.shape[0]
    deals = uniforms.shape[0]
    out = np.empty((deals, n), dtype=np.int64)
    sure = np.empty(n)
    for i in range(n):
        sure[i] = -probs[pool[i], :players].max()
    for d in range(deals):
        left = room.copy()
        place = np.empty(n, dtype=np.int64)
        for i in np.argsort(sure + 1e-6 * uniforms[d, :, 0]):  # equals in a random order
            c = pool[i]
            total = 0.0
            for j in range(players):
                if left[j] > 0:
                    total += probs[c, j] + 1e-9
            u = uniforms[d, i, 1] * total
            chosen = -1
            for j in range(players):
                if left[j] > 0:
                    chosen = j
                    u -= probs[c, j] + 1e-9
                    if u <= 0:
                        break
            place[i] = chosen
            left[chosen] -= 1
        order = np.argsort(uniforms[d, :, 0])
        k = 0
        for s in range(players):  # the other hands in seat order
            if s == seat:
                continue
            j = (s - seat) % players
            for i in order:
                if place[i] == j:
                    out[d, k] = pool[i]
                    k += 1
        for i in order:  # the pile in the cards' random order
            if place[i] == 0:
                out[d, k] = pool[i]
                k += 1
    return out


# --------------------------------------------------------------------------- training


@dataclass
class HandsConfig:
    """A hand model's run (``configs/maumau-hands.toml``)."""

    method: str = "hands"
    seed: int = 1
    games: int = 2000  # games played side by side, per player count
    steps: int = 60  # moves recorded of each (the slots deal new games as games end)
    players: list[int] = field(default_factory=lambda: [2, 3, 4, 5])
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    lr: float = 1e-3
    batch_size: int = 512
    epochs: int = 6

    @classmethod
    def load(cls, path: str | Path) -> HandsConfig:
        from mauseloch.games.maumau.learn.dmc import read_config

        return read_config(cls, path)


class HandsEntry(TypedDict):
    """One line of the fit's log (``hands.jsonl``): an epoch's losses per player count, with the
    loss of the places in proportion to their room (what a model that learned nothing gets)."""

    epoch: int
    train_loss: float
    held_loss: dict[str, float]
    room_loss: dict[str, float]
    cpu: float


def gather(players: int, games: int, seed: int, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """The seat to move's features and each card's true place (-1: the seat sees it) in
    ``games`` games of the heuristic on every seat, ``steps`` moves of each slot."""
    from mauseloch.games.maumau.learn.dmc import _gens, heuristic_rows

    batch = K.MauMauBatch(games, players=players, seed=seed)
    gens = _gens(games, seed + 1)
    actions = np.zeros(games, dtype=np.int64)
    rows = np.arange(games)
    bit = np.arange(CARDS)
    xs, ys = [], []
    for _ in range(steps):
        seat = batch.to_move
        y = np.full((games, CARDS), -1, dtype=np.int8)
        for j in range(1, players):
            hand = batch.ints[rows, K.I_HANDS + (seat + j) % players]
            y[((hand[:, None] >> bit) & 1).astype(bool)] = j
        pile = batch.ints[:, K.I_PILE]
        for k in range(games):
            y[k, batch.cards[k, : pile[k]]] = 0
        xs.append(features(batch.obs, batch.masks))
        ys.append(y)
        heuristic_rows(batch.ints, batch.opts, rows, gens, actions)
        batch.step(actions)
    return np.concatenate(xs), np.concatenate(ys)


def room_loss(y: np.ndarray) -> float:
    """The cross-entropy of placing each hidden card in proportion to the places' room."""
    counts = np.stack([(y == j).sum(axis=1) for j in range(PLACES)], axis=1).astype(float)
    share = counts / counts.sum(axis=1, keepdims=True)
    hidden = y >= 0
    picked = np.take_along_axis(share, np.maximum(y, 0).astype(np.int64), axis=1)
    return float(-(np.log(picked + 1e-12) * hidden).sum() / hidden.sum())


def fit(config: HandsConfig, run_dir: Path, on_progress: Callable[[HandsEntry], None] | None = None) -> HandModel:
    """Gather the positions, fit the model (Adam), hold out every tenth position; write
    ``hands.npz`` and ``hands.jsonl`` into ``run_dir``."""
    import jax
    import jax.numpy as jnp
    import optax
    from flax import linen as nn

    from mauseloch.games.maumau.learn.dmc import gradient_step

    run_dir.mkdir(parents=True, exist_ok=True)
    cpu0 = time.process_time()
    train_x, train_y, train_v, held = [], [], [], {}
    for p in config.players:
        x, y = gather(p, config.games, config.seed * 100 + p, config.steps)
        valid = np.zeros((len(x), PLACES), dtype=np.float32)
        valid[:, :p] = 1
        test = np.arange(len(x)) % 10 == 9
        train_x.append(x[~test])
        train_y.append(y[~test])
        train_v.append(valid[~test])
        held[str(p)] = (x[test], y[test], valid[test])
    xs, ys, vs = np.concatenate(train_x), np.concatenate(train_y), np.concatenate(train_v)

    hidden = list(config.hidden)

    class Net(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            for width in hidden:
                x = nn.relu(nn.Dense(width)(x))
            return nn.Dense(CARDS * PLACES)(x)

    net = Net()
    params = net.init(jax.random.PRNGKey(config.seed), xs[:1])
    tx = optax.adam(config.lr)
    opt_state = tx.init(params)

    def loss_fn(p: Any, x: Any, y: Any, v: Any) -> Any:
        out: Any = net.apply(p, x)
        logits = out.reshape(x.shape[0], CARDS, PLACES) + jnp.where(v[:, None, :] > 0, 0.0, -1e9)
        logp = jax.nn.log_softmax(logits, axis=-1)
        picked = jnp.take_along_axis(logp, jnp.maximum(y, 0).astype(jnp.int32)[..., None], axis=-1)[..., 0]
        seen = y >= 0
        return -(picked * seen).sum() / seen.sum()

    step = gradient_step(loss_fn, tx)

    evaluate = jax.jit(loss_fn)
    rng = np.random.default_rng(config.seed)
    rooms = {p: room_loss(h[1]) for p, h in held.items()}
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(len(xs))
        losses = []
        for i in range(0, len(order) - config.batch_size + 1, config.batch_size):
            idx = order[i : i + config.batch_size]
            params, opt_state, loss = step(params, opt_state, xs[idx], ys[idx], vs[idx])
            losses.append(float(loss))
        entry: HandsEntry = {
            "epoch": epoch, "train_loss": float(np.mean(losses)),
            "held_loss": {p: float(evaluate(params, *h)) for p, h in held.items()}, "room_loss": rooms,
            "cpu": time.process_time() - cpu0,
        }  # fmt: skip
        with open(run_dir / "hands.jsonl", "a") as f:
            f.write(json.dumps(entry) + "\n")
        if on_progress:
            on_progress(entry)
    layers = [
        (np.asarray(params["params"][f"Dense_{i}"]["kernel"]), np.asarray(params["params"][f"Dense_{i}"]["bias"]))
        for i in range(len(hidden) + 1)
    ]
    model = HandModel(layers)
    model.save(run_dir / "hands.npz")
    return model
