"""Deep Monte Carlo (DouZero's method) for Mau-Mau on the batched kernel, with JAX, Flax and Optax.

The learner is a Q network (``policy.py``: the features, one output per action id): its target
for an action taken is the final reward of the game for the seat that took it, the mean squared
error on the action taken is the loss, and the games are played epsilon-greedily. Every game of
the batched kernel (``games.maumau.kernel.MauMauBatch``, one batch per player count) gets a table when
it is dealt, drawn from the league:

- ``heuristic``: the learner on one seat (drawn at random), the heuristic bot on the others
  (its compiled decision, ``games.maumau.kernel.heuristic_action``, ties from a generator per game);
- ``league``: the learner on one seat, an earlier checkpoint (greedy) on the others;
- ``self``: the learner on every seat, each seat's moves a sample.

The reward of a seat is ``1 - rank_share`` for a first place (shared first places too) plus
``rank_share`` times the kernel's rank reward, and ``-1 / (players - 1)`` (times
``1 - rank_share``) otherwise: the goal is winning, the rank a denser hint at four and five.

A run lives in one folder: ``checkpoint.pkl`` (everything to resume: weights, the optimiser's
state, the league, counters, CPU time so far), ``policy-<updates>.npz`` (the numpy policy of each
evaluation), ``best.npz``, ``log.jsonl`` (one line per evaluation: the learning curve) and
``curve.png``. Each evaluation plays the greedy policy against the heuristic on duplicate deals
(every deal once from every seat), heads-up and at four players, in the kernel.

Playing never imports this module: it needs the ``train`` extra.
"""

from __future__ import annotations

import json
import os
import pickle
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, NotRequired, TypedDict, TypeVar

from mauseloch.extras import needs
from mauseloch.games.maumau import kernel as K
from mauseloch.games.maumau.learn.policy import BASE_FEATURES, NUM_ACTIONS, NUM_FEATURES, OBS_SIZE, QPolicy, features
from mauseloch.study.plots import plot_learning_curve

with needs("train", __name__):
    import numpy as np
    from numba import njit

LEARNER, HEURISTIC, SNAPSHOT = 0, 1, 2
C = TypeVar("C")
TABLES = ("heuristic", "league", "self")


@dataclass
class Config:
    """One training run's settings; ``configs/*.toml`` give them (any missing: these defaults)."""

    seed: int = 1
    hidden: list[int] = field(default_factory=lambda: [256, 256, 256])
    lr: float = 3e-4
    batch_size: int = 1024
    replay_ratio: float = 2.0  # updates x batch size per new transition
    buffer: int = 200_000
    epsilon: float = 0.05
    rank_share: float = 0.25
    # slots of the batched kernel per player count
    games: dict[str, int] = field(default_factory=lambda: {"2": 512, "3": 128, "4": 384, "5": 128})
    # chance of each kind of table for a new game: heuristic, league, self
    tables: list[float] = field(default_factory=lambda: [0.5, 0.2, 0.3])
    league_size: int = 6
    snapshot_minutes: float = 10.0
    eval_minutes: float = 5.0
    eval_deals_2: int = 1000
    eval_deals_4: int = 500
    eval_seed: int = 7_000_000
    minutes: float = 60.0  # total training time of the run (CPU minutes of this process)
    # Start from these weights (a path relative to the config file; "" : random): a network of
    # the first layout (159 inputs) is widened with zero weights for the rivals' history, so the
    # run starts where that network plays and learns what the history adds.
    init: str = ""

    @classmethod
    def load(cls, path: str | Path) -> Config:
        return read_config(cls, path)


def read_config(cls: type[C], path: str | Path) -> C:
    """A run's settings of dataclass ``cls`` from a TOML file: an unknown setting is refused, and
    ``init``, ``init_config`` and ``student`` are paths relative to the file (the trainers'
    configs share this)."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"{path}: unknown settings {sorted(unknown)}; known: {sorted(known)}")
    for key in ("init", "init_config", "student"):  # paths relative to the config file
        if data.get(key):
            data[key] = str(Path(path).parent / data[key])
    return cls(**data)


def gradient_step(loss_fn: Callable[..., Any], tx: Any) -> Callable[..., Any]:
    """One optimiser step on ``loss_fn(params, *batch)`` with the Optax transform ``tx``, compiled:
    ``step(params, opt_state, *batch) -> (params, opt_state, loss)`` (the trainers share it)."""
    import jax
    import optax

    def step(params: Any, opt_state: Any, *batch: Any) -> Any:
        loss, grads = jax.value_and_grad(loss_fn)(params, *batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return jax.jit(step)


def q_network(hidden: list[int]) -> Any:
    """The Q network (Flax): dense layers of ``hidden`` widths with ReLU, one output per action."""
    from flax import linen as nn

    class QNet(nn.Module):
        @nn.compact
        def __call__(self, x: Any) -> Any:
            for width in hidden:
                x = nn.relu(nn.Dense(width)(x))
            return nn.Dense(NUM_ACTIONS)(x)

    return QNet()


def params_of(layers: list[tuple[np.ndarray, np.ndarray]]) -> Any:
    """The network's parameters (Flax) holding the numpy policy's ``layers``."""
    import jax.numpy as jnp

    dense = {f"Dense_{i}": {"kernel": jnp.asarray(w), "bias": jnp.asarray(b)} for i, (w, b) in enumerate(layers)}
    return {"params": dense}


def policy_of(params: Any, hidden: list[int]) -> QPolicy:
    """The numpy policy the bot plays of the network's parameters."""
    p = params["params"]
    return QPolicy([(np.asarray(p[f"Dense_{i}"]["kernel"]), np.asarray(p[f"Dense_{i}"]["bias"]))
                    for i in range(len(hidden) + 1)])  # fmt: skip


def widened(policy: QPolicy) -> list[tuple[np.ndarray, np.ndarray]]:
    """``policy``'s layers taking the full layout (``NUM_FEATURES`` inputs): a first-layout
    network's first layer gets zero weights for the rivals' history, so it plays as before."""
    (w0, b0), *rest = policy.layers
    if w0.shape[0] == NUM_FEATURES:
        return policy.layers
    base = BASE_FEATURES - NUM_ACTIONS
    w = np.zeros((NUM_FEATURES, w0.shape[1]), dtype=np.float32)
    w[:base] = w0[:base]
    w[OBS_SIZE:] = w0[base:]
    return [(w, b0), *rest]


@njit(cache=True)
def heuristic_rows(ints: np.ndarray, opts: np.ndarray, rows: np.ndarray, gens: np.ndarray, out: np.ndarray) -> None:
    """The heuristic's action for the seat to move in each slot of ``rows`` (ties from ``gens[k]``)."""
    n = opts[K.O_PLAYERS]
    for i in range(rows.shape[0]):
        k = rows[i]
        out[k] = K._move_heuristic(ints[k], n, opts, gens[k])


class Counters(TypedDict):
    """How far a run has come (kept in its checkpoint, written with every evaluation)."""

    games: int
    transitions: int
    updates: int
    cpu: float  # seconds of CPU time
    wall: float  # seconds
    resumes: int


class Evaluation(TypedDict):
    """The greedy policy against the heuristic (:func:`evaluate`)."""

    players: int
    deals: int
    games: int
    win: float  # the share of games won (rank 1)
    ci95: list[float]  # its 95 % interval over deals


class Entry(Counters):
    """What a run reports: the counters; at an evaluation (a line of ``log.jsonl``) the policy
    saved and its evaluations; to the progress callback the last loss."""

    policy: NotRequired[str]
    win2: NotRequired[Evaluation]
    win4: NotRequired[Evaluation]
    loss: NotRequired[float]


class Batch(TypedDict):
    """One batch of games at one player count, with the learner's pending transitions."""

    players: int
    batch: K.MauMauBatch
    ctrl: np.ndarray  # per game and seat: who plays it (LEARNER, HEURISTIC, SNAPSHOT)
    snap: np.ndarray  # per game: which league snapshot plays the SNAPSHOT seats
    gens: np.ndarray  # per game: its generator's state
    p_obs: np.ndarray  # per game: the learner's observations so far
    p_mask: np.ndarray
    p_act: np.ndarray
    p_seat: np.ndarray
    p_n: np.ndarray  # per game: how many transitions are pending


def _gens(count: int, seed: int) -> np.ndarray:
    gens = np.zeros((count, 3), dtype=np.uint64)
    gens[:, 0] = np.random.default_rng(seed).integers(0, 2**63, count, dtype=np.uint64)
    return gens


def _random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def evaluate(policy: QPolicy, players: int, deals: int, seed: int) -> Evaluation:
    """The greedy ``policy`` on one seat against the heuristic on the others, every deal of
    ``MauMauBatch(deals, players, seed)`` once from every seat: its win share (rank 1) with a
    95 % interval over deals."""
    wins = np.zeros((deals, players))
    for seat in range(players):
        batch = K.MauMauBatch(deals, players=players, seed=seed)
        gens = _gens(deals, seed + 1000 + seat)
        first = np.ones(deals, dtype=bool)  # still in the slot's first game
        actions = np.zeros(deals, dtype=np.int64)
        while first.any():
            mine = first & (batch.to_move == seat)
            rows = np.flatnonzero(~mine)
            heuristic_rows(batch.ints, batch.opts, rows, gens, actions)
            if mine.any():
                actions[mine] = policy.act(batch.obs[mine], batch.masks[mine])
            _, _, _, dones = batch.step(actions)
            ended = first & (dones == 1)
            wins[ended, seat] = batch.final[ended, K.F_RANKS + seat] == 1
            first &= dones == 0
    per_deal = wins.mean(axis=1)
    mean = float(per_deal.mean())
    half = 1.96 * float(per_deal.std(ddof=1)) / np.sqrt(deals)
    ci95 = [mean - half, mean + half]
    return {"players": players, "deals": deals, "games": deals * players, "win": mean, "ci95": ci95}


class Trainer:
    """One run: the batches, the league, the replay buffer, the network and its optimiser."""

    def __init__(self, config: Config, run_dir: str | Path) -> None:
        import jax
        import optax

        self.config = config
        self.run_dir = Path(run_dir)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        hidden = list(config.hidden)
        self.net = q_network(hidden)
        self.tx = optax.adam(config.lr)
        self.params = self.net.init(jax.random.PRNGKey(config.seed), np.zeros((1, NUM_FEATURES), dtype=np.float32))
        if config.init:
            layers = widened(QPolicy.load(config.init))
            if [w.shape[1] for w, _ in layers[:-1]] != hidden:
                raise ValueError(f"init {config.init}: its hidden layers are not {hidden}")
            self.params = params_of(layers)
        self.opt_state = self.tx.init(self.params)
        self.apply = jax.jit(self.net.apply)

        def loss_fn(params: Any, x: Any, a: Any, y: Any) -> Any:
            q: Any = self.net.apply(params, x)
            chosen = q[np.arange(x.shape[0]), a]
            return ((chosen - y) ** 2).mean()

        self.train_step = gradient_step(loss_fn, self.tx)
        self.rng = np.random.default_rng(config.seed)
        self.league: list[QPolicy] = []
        self.counters: Counters = {
            "games": 0,
            "transitions": 0,
            "updates": 0,
            "cpu": 0.0,
            "wall": 0.0,
            "resumes": 0,
        }
        self.best = -1.0
        b = config.buffer
        self.buf_obs = np.zeros((b, OBS_SIZE), dtype=np.int8)
        self.buf_mask = np.zeros((b, NUM_ACTIONS), dtype=np.uint8)
        self.buf_act = np.zeros(b, dtype=np.int32)
        self.buf_y = np.zeros(b, dtype=np.float32)
        self.buf_len = 0
        self.buf_at = 0

    # ------------------------------------------------------------------ state

    def policy(self) -> QPolicy:
        """The network now, as the numpy policy the bot plays."""
        return policy_of(self.params, list(self.config.hidden))

    def save(self) -> None:
        import jax

        state = {
            "config": asdict(self.config),
            "params": jax.tree_util.tree_map(np.asarray, self.params),
            "opt_state": jax.tree_util.tree_map(np.asarray, self.opt_state),
            "league": [p.layers for p in self.league],
            "counters": self.counters,
            "best": self.best,
            "rng": self.rng.bit_generator.state,
        }
        tmp = self.run_dir / "checkpoint.pkl.tmp"
        with open(tmp, "wb") as f:
            pickle.dump(state, f)
        os.replace(tmp, self.run_dir / "checkpoint.pkl")

    def restore(self) -> bool:
        """Load ``checkpoint.pkl`` of the run folder, if there is one."""
        import jax

        path = self.run_dir / "checkpoint.pkl"
        if not path.exists():
            return False
        with open(path, "rb") as f:
            state = pickle.load(f)
        self.params = jax.tree_util.tree_map(jax.numpy.asarray, state["params"])
        self.opt_state = jax.tree_util.tree_unflatten(
            jax.tree_util.tree_structure(self.opt_state), jax.tree_util.tree_leaves(state["opt_state"])
        )
        self.league = [QPolicy(layers) for layers in state["league"]]
        self.counters = state["counters"]
        self.best = state["best"]
        self.rng.bit_generator.state = state["rng"]
        self.counters["resumes"] += 1
        return True

    # ------------------------------------------------------------------ play

    def _new_tables(self, b: Batch, slots: np.ndarray) -> None:
        """Draw the table of each game just dealt in ``slots``."""
        n = b["players"]
        probs = np.array(self.config.tables, dtype=np.float64)
        if not self.league:
            probs[1] = 0.0
        probs /= probs.sum()
        kinds = self.rng.choice(3, size=len(slots), p=probs)
        for k, kind in zip(slots, kinds, strict=True):
            ctrl = b["ctrl"][k]
            if kind == 2:
                ctrl[:] = LEARNER
                continue
            ctrl[:] = HEURISTIC if kind == 0 else SNAPSHOT
            ctrl[self.rng.integers(n)] = LEARNER
            if kind == 1:
                b["snap"][k] = self.rng.integers(len(self.league))
        del n

    def _make_batches(self) -> list[Batch]:
        batches = []
        seed = self.config.seed * 1_000_003 + self.counters["resumes"] * 7919
        for i, (players, slots) in enumerate(sorted(self.config.games.items())):
            n = int(players)
            batch = K.MauMauBatch(int(slots), players=n, seed=seed + i)
            length = 400
            b: Batch = {
                "players": n,
                "batch": batch,
                "ctrl": np.zeros((slots, K.MAX_PLAYERS), dtype=np.int8),
                "snap": np.zeros(slots, dtype=np.int64),
                "gens": _gens(int(slots), seed + 100 + i),
                "p_obs": np.zeros((slots, length, OBS_SIZE), dtype=np.int8),
                "p_mask": np.zeros((slots, length, NUM_ACTIONS), dtype=np.uint8),
                "p_act": np.zeros((slots, length), dtype=np.int32),
                "p_seat": np.zeros((slots, length), dtype=np.int64),
                "p_n": np.zeros(slots, dtype=np.int64),
            }
            self._new_tables(b, np.arange(slots))
            batches.append(b)
        return batches

    def _push(self, obs: np.ndarray, mask: np.ndarray, act: np.ndarray, y: np.ndarray) -> None:
        size = len(act)
        idx = (self.buf_at + np.arange(size)) % self.config.buffer
        self.buf_obs[idx], self.buf_mask[idx], self.buf_act[idx], self.buf_y[idx] = obs, mask, act, y
        self.buf_at = int((self.buf_at + size) % self.config.buffer)
        self.buf_len = min(self.buf_len + size, self.config.buffer)
        self.counters["transitions"] += size

    def _targets(self, final: np.ndarray, n: int, seats: np.ndarray) -> np.ndarray:
        ranks = final[K.F_RANKS : K.F_RANKS + n]
        rank_reward = np.array([((ranks > ranks[s]).sum() - (ranks < ranks[s]).sum()) / (n - 1) for s in range(n)])
        win = np.where(ranks == 1, 1.0, -1.0 / (n - 1))
        share = self.config.rank_share
        return ((1 - share) * win + share * rank_reward)[seats].astype(np.float32)

    def _step_all(self, batches: list[Batch]) -> None:
        """One decision in every game of every batch."""
        obs = np.concatenate([b["batch"].obs for b in batches])
        masks = np.concatenate([b["batch"].masks for b in batches])
        q = np.asarray(self.apply(self.params, features(obs, masks)))
        q = np.where(masks.astype(bool), q, -np.inf)
        greedy = q.argmax(axis=1)
        explore = self.rng.random(len(greedy)) < self.config.epsilon
        greedy[explore] = _random_legal(masks[explore], self.rng)
        at = 0
        for b in batches:
            batch = b["batch"]
            size = batch.num_games
            actions = greedy[at : at + size].copy()
            at += size
            slots = np.arange(size)
            ctrl = b["ctrl"][slots, batch.to_move]
            heur = np.flatnonzero(ctrl == HEURISTIC)
            heuristic_rows(batch.ints, batch.opts, heur, b["gens"], actions)
            snap = np.flatnonzero(ctrl == SNAPSHOT)
            for s in np.unique(b["snap"][snap]):
                rows = snap[b["snap"][snap] == s]
                actions[rows] = self.league[s].act(batch.obs[rows], batch.masks[rows])
            mine = np.flatnonzero(ctrl == LEARNER)
            j = b["p_n"][mine]
            keep = j < b["p_obs"].shape[1]
            mine, j = mine[keep], j[keep]
            b["p_obs"][mine, j] = batch.obs[mine]
            b["p_mask"][mine, j] = batch.masks[mine]
            b["p_act"][mine, j] = actions[mine]
            b["p_seat"][mine, j] = batch.to_move[mine]
            b["p_n"][mine] += 1
            _, _, _, dones = batch.step(actions)
            ended = np.flatnonzero(dones)
            for k in ended:
                m = min(int(b["p_n"][k]), b["p_obs"].shape[1])
                if m:
                    y = self._targets(batch.final[k], b["players"], b["p_seat"][k, :m])
                    self._push(b["p_obs"][k, :m], b["p_mask"][k, :m], b["p_act"][k, :m], y)
                b["p_n"][k] = 0
            if len(ended):
                self._new_tables(b, ended)
                self.counters["games"] += len(ended)

    def _update(self) -> float:
        idx = self.rng.integers(0, self.buf_len, self.config.batch_size)
        x = features(self.buf_obs[idx], self.buf_mask[idx])
        self.params, self.opt_state, loss = self.train_step(
            self.params, self.opt_state, x, self.buf_act[idx], self.buf_y[idx]
        )
        self.counters["updates"] += 1
        return float(loss)

    # ------------------------------------------------------------------ the run

    def evaluate_now(self) -> Entry:
        policy = self.policy()
        c = self.config
        two = evaluate(policy, 2, c.eval_deals_2, c.eval_seed)
        four = evaluate(policy, 4, c.eval_deals_4, c.eval_seed + 1)
        tag = f"policy-{self.counters['updates']:07d}.npz"
        policy.save(self.run_dir / tag)
        score = two["win"] + four["win"]
        if score > self.best:
            self.best = score
            policy.save(self.run_dir / "best.npz")
        entry: Entry = {**self.counters, "policy": tag, "win2": two, "win4": four}
        with open(self.run_dir / "log.jsonl", "a") as f:
            f.write(json.dumps(entry) + "\n")
        plot_learning_curve(self.run_dir)
        return entry

    def run(self, minutes: float | None = None, on_progress: Callable[[Entry], None] | None = None) -> None:
        """Train until the run's CPU time reaches ``minutes`` (the config's by default), evaluating,
        snapshotting into the league and checkpointing as the config says."""
        c = self.config
        total = 60.0 * (c.minutes if minutes is None else minutes)
        batches = self._make_batches()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        base_cpu, base_wall = self.counters["cpu"], self.counters["wall"]
        next_eval = base_cpu + 60.0 * c.eval_minutes if self.counters["updates"] else base_cpu
        next_snap = base_cpu + 60.0 * c.snapshot_minutes
        pending = 0.0
        loss = float("nan")
        while True:
            self.counters["cpu"] = base_cpu + time.process_time() - cpu0
            self.counters["wall"] = base_wall + time.perf_counter() - wall0
            if self.counters["cpu"] >= next_eval or self.counters["cpu"] >= total:
                entry = self.evaluate_now()
                self.save()
                next_eval = self.counters["cpu"] + 60.0 * c.eval_minutes
                if on_progress:
                    on_progress({**entry, "loss": loss})
                if self.counters["cpu"] >= total:
                    return
            if self.counters["cpu"] >= next_snap:
                self.league.append(self.policy())
                self.league = self.league[-c.league_size :]
                next_snap = self.counters["cpu"] + 60.0 * c.snapshot_minutes
            before = self.counters["transitions"]
            self._step_all(batches)
            pending += (self.counters["transitions"] - before) * c.replay_ratio / c.batch_size
            while pending >= 1 and self.buf_len >= c.batch_size:
                loss = self._update()
                pending -= 1
            if on_progress:
                on_progress({**self.counters, "loss": loss})


def curve_table(run_dir: str | Path) -> str:
    """The learning curve of a run as a Markdown table (the docs and the model card quote it)."""
    rows = [json.loads(line) for line in (Path(run_dir) / "log.jsonl").read_text().splitlines() if line.strip()]
    lines = [
        "| CPU h | wall h | games | updates | heads-up vs heuristic | one of four vs 3 heuristic | policy |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        two, four = r["win2"], r["win4"]
        lines.append(
            f"| {r['cpu'] / 3600:.2f} | {r['wall'] / 3600:.2f} | {r['games']:,} | {r['updates']:,} "
            f"| {100 * two['win']:.1f} % [{100 * two['ci95'][0]:.1f}, {100 * two['ci95'][1]:.1f}] "
            f"| {100 * four['win']:.1f} % [{100 * four['ci95'][0]:.1f}, {100 * four['ci95'][1]:.1f}] "
            f"| `{r['policy']}` |"
        )
    return "\n".join(lines)
