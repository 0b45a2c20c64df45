"""Distilling the search into the learned network: the search's value of every legal move is
the network's target (expert iteration's first step, as in AlphaZero's and ExIt's policy
training, here with the values as the target, since the network is a Q network).

A teacher is the ``search`` level's belief (deals drawn from the whole public history by
``games.maumau.bots.belief.History``) playing **every** legal move out on the same deals (common random
numbers, no halving, no pruning), so each move gets its mean reward: what the search knows of
the position, with far less noise than the one final reward of Deep Monte Carlo's target. The
teacher sits on one seat against the heuristic on the others (the seat turns with the deal),
plays the move of the best value, and writes at each of its decisions the seat's observation
(the kernel's 268 values, ``learn.history.SeatHistory``), the legal mask and the 47 values
(NaN where illegal). The labelling runs in worker processes, one shard a chunk of deals in the
run folder, so a run resumes where it stopped.

Fitting minimises the mean squared error over the legal moves of each position (every legal
move has a label) with Adam, holding out every twentieth shard, and evaluates each epoch as
``learn.dmc.evaluate`` does (the greedy network against the heuristic on the run's evaluation
deals): the best network is the run's ``best.npz``, or with ``average_from`` the mean of the
weights after each epoch from that one on (stochastic weight averaging).

The run's config (``configs/maumau-distilled.toml``) has ``method = "distill"``;
``mauseloch train mau-mau --config … --run …`` labels what is missing, then fits. Playing never
imports this module.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.seeds import STREAM_STUDENT_GAMES, STREAM_TEACHER, STREAM_TEACHER_RIVALS
from mauseloch.extras import needs
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.bots.heuristic import kernel
from mauseloch.games.maumau.bots.learned import greedy
from mauseloch.games.maumau.bots.search import LEVEL_OPTIONS, SearchBot
from mauseloch.games.maumau.learn.history import SeatHistory
from mauseloch.games.maumau.learn.policy import NUM_ACTIONS, NUM_FEATURES, OBS_SIZE, QPolicy, features, mask_of
from mauseloch.games.maumau.views import MauMauView

with needs("train", __name__):
    import numpy as np

if TYPE_CHECKING:
    from mauseloch.games.maumau.learn.dmc import Evaluation

CHUNK = 50  # deals a shard


@dataclass
class DistillConfig:
    """One distillation run's settings (``configs/maumau-distilled.toml``)."""

    method: str = "distill"
    seed: int = 1
    # deals labelled per player count (each a game with the teacher on seat deal % players)
    deals: dict[str, int] = field(default_factory=lambda: {"2": 6000, "3": 1500, "4": 4000, "5": 1000})
    # the teacher: deals a move is played out on, per player count
    playouts: dict[str, int] = field(default_factory=lambda: {"2": 200, "3": 200, "4": 300, "5": 300})
    workers: int = 2
    hidden: list[int] = field(default_factory=lambda: [256, 256, 256])
    lr: float = 3e-4
    batch_size: int = 512
    epochs: int = 30
    raw_weight: float = 1.0  # the values' own error beside their error about the position's mean
    # The run's policy is the mean of the weights after epochs average_from..epochs (stochastic
    # weight averaging; 0: the best epoch by the evaluation). Measured on 4,000 heads-up games
    # (tournament seed 1): epochs 4-12 averaged 61.0 %, single epochs 59.6-60.2 %.
    average_from: int = 0
    # DAgger (Ross et al. 2011): games in which the teacher's seat plays this network's greedy
    # moves (relative to the config file), labelled by the teacher all the same, so the data
    # holds the positions the student reaches; their deals per player count. The fit takes
    # them beside the teacher's own games.
    student: str = ""
    student_deals: dict[str, int] = field(default_factory=dict)
    init: str = ""  # start from these weights (relative to the config file); "": random
    # When ``init`` does not exist yet: the Deep Monte Carlo config that makes it (relative to this
    # file), run for ``init_minutes`` CPU minutes into ``init``'s folder (whose best.npz ``init``
    # names), so that one command trains from scratch.
    init_config: str = ""
    init_minutes: float = 10.0
    eval_deals_2: int = 1000
    eval_deals_4: int = 500
    eval_seed: int = 7_000_000

    @classmethod
    def load(cls, path: str | Path) -> DistillConfig:
        from mauseloch.games.maumau.learn.dmc import read_config

        return read_config(cls, path)


class FitEntry(TypedDict, total=False):
    """One line of a fit's log (``fit.jsonl``): an epoch, or ``"average"`` for the mean weights."""

    epoch: int | str
    positions: int
    held_out: int
    train_loss: float
    held_loss: float | None
    cpu: float
    wall: float
    policy: str
    win2: Evaluation
    win4: Evaluation
    first: int
    to: int


class Teacher(SearchBot):
    """The search's belief, every legal move played out on ``deals`` deals; records each decision."""

    def __init__(self, seed: int, deals: int, student: QPolicy | None = None) -> None:
        options = dict(LEVEL_OPTIONS)
        options.pop("halving", None)
        super().__init__(seed, kind="teacher", iterations=deals, **options)  # type: ignore[arg-type]
        self.deals = deals
        # DAgger: a network whose greedy moves the teacher's seat plays, so that the labels fall
        # on the positions the student reaches; None: the teacher's own best move.
        self.student = student
        self.seat_history = SeatHistory()
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def values(self, view: MauMauView, legal: list[str]) -> np.ndarray:
        """The mean play-out reward (0..1) of each legal move, on the same deals."""
        decision_seed = derive_seed(self._seed, view.moves_played)
        opts = kernel().options_array(view.players, options=view.options)
        actions = np.array([MauMau._ACTION_ID[m] for m in legal], dtype=np.int64)
        sums = np.zeros(len(legal))
        drawn = self._sample_history(decision_seed, self.deals)
        pool = self._pool(view)
        state = None
        for d in range(self.deals):
            deal = drawn[d] if drawn is not None and d < len(drawn) else self._deal_ids(view, pool)
            state = self._flat_deal(view, state, opts, deal, decision_seed, d, actions, sums, self._limit())
        return sums / self.deals

    def choose(self, view: Any, legal: list[str]) -> str:  # a View or its JSON form
        view = self._read(view)
        obs = self.seat_history.observation(view)
        if len(legal) == 1:
            return legal[0]
        vals = self.values(view, legal)
        target = np.full(NUM_ACTIONS, np.nan, dtype=np.float32)
        for move, v in zip(legal, vals, strict=True):
            target[MauMau._ACTION_ID[move]] = v
        self.rows.append((obs.copy(), mask_of(legal), target))
        if self.student is not None:  # DAgger: the student's move, the teacher's labels
            return greedy(self.student, obs, legal)
        return legal[int(np.argmax(vals))]  # the first of the best: the legal list's order


class Task(NamedTuple):
    """One shard to label: deals ``start..start+CHUNK-1`` at ``players``, written to ``path``;
    with ``student`` (a policy's file) the teacher's seat plays that network's moves."""

    path: str
    players: int
    start: int
    playouts: int
    seed: int
    student: str = ""


def label_chunk(task: Task) -> str:
    """Play the task's deals with the teacher on seat deal % players; write the shard (obs,
    mask, values, and the CPU seconds it took) and return its path."""
    path, players, start, playouts, seed, student_path = task
    cpu0 = time.process_time()
    obs, masks, vals = [], [], []
    student = QPolicy.load(student_path) if student_path else None
    for deal in range(start, start + CHUNK):
        if student is None:
            game_seed = derive_seed(seed * 100 + players, deal)
        else:  # other deals than the teacher's own games
            game_seed = derive_seed(derive_seed(seed, STREAM_STUDENT_GAMES + players), deal)
        g = mauseloch.new_game(MauMau.name, players=players, seed=game_seed)
        mine = deal % players
        teacher = Teacher(derive_seed(game_seed, STREAM_TEACHER), playouts, student)
        rival_seeds = [derive_seed(game_seed, STREAM_TEACHER_RIVALS + s) for s in range(players)]
        bots: list[Any] = [
            teacher if s == mine else make_bot(MauMau.name, "heuristic", seed=rival_seeds[s]) for s in range(players)
        ]
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            g.play(bots[seat].choose(g.typed_view(seat), g.legal_moves()))
        for o, m, v in teacher.rows:
            obs.append(o)
            masks.append(m)
            vals.append(v)
    tmp = path + ".tmp.npz"
    np.savez_compressed(
        tmp, obs=np.array(obs, dtype=np.int8).reshape(-1, OBS_SIZE),
        mask=np.array(masks, dtype=np.uint8).reshape(-1, NUM_ACTIONS),
        values=np.array(vals, dtype=np.float32).reshape(-1, NUM_ACTIONS),
        cpu=np.float64(time.process_time() - cpu0),  # seconds of this worker's CPU (the docs' cost)
    )  # fmt: skip
    os.replace(tmp, path)
    return path


def _tasks(config: DistillConfig, run_dir: Path) -> list[Task]:
    """The shards the config asks for: the teacher's games (``p…``), then the student's (``s…``)."""
    tasks = []
    for prefix, table, student in (("p", config.deals, ""), ("s", config.student_deals, config.student)):
        if table and not student and prefix == "s":
            raise ValueError("student_deals needs a student (the policy whose moves the teacher's seat plays)")
        for players, deals in sorted(table.items()):
            n = int(players)
            for start in range(0, deals, CHUNK):
                path = str(run_dir / "data" / f"{prefix}{n}-{start:06d}.npz")
                tasks.append(Task(path, n, start, int(config.playouts[players]), config.seed, student))
    return tasks


def first_stage(config: DistillConfig, on_progress: Callable[[Any], None] | None = None) -> bool:
    """Train the policy ``init`` names with ``init_config`` when it does not exist yet (resuming
    that run's checkpoint if it has one); False when there is nothing to do."""
    if not config.init or Path(config.init).exists() or not config.init_config:
        return False
    from mauseloch.games.maumau.learn.dmc import Config, Trainer

    trainer = Trainer(Config.load(config.init_config), Path(config.init).parent)
    trainer.restore()
    trainer.run(config.init_minutes, on_progress)
    if not Path(config.init).exists():
        raise ValueError(f"the first stage ({config.init_config}) left no {config.init}")
    return True


def label(config: DistillConfig, run_dir: Path, on_progress: Callable[[int, int], None] | None = None) -> None:
    """Label every shard the config asks for that the run folder lacks (resumable)."""
    (run_dir / "data").mkdir(parents=True, exist_ok=True)
    todo = [t for t in _tasks(config, run_dir) if not os.path.exists(t.path)]
    total = len(_tasks(config, run_dir))
    done = total - len(todo)
    if on_progress:
        on_progress(done, total)
    if not todo:
        return
    if config.workers <= 1:  # in this process (tests, a debugger)
        results: Any = map(label_chunk, todo)
        for _ in results:
            done += 1
            if on_progress:
                on_progress(done, total)
        return
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        for _ in pool.map(label_chunk, todo):
            done += 1
            if on_progress:
                on_progress(done, total)


def load_data(config: DistillConfig, run_dir: Path) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The shards the config asks for (not others the folder may hold): (training, held-out)
    arrays; every twentieth shard is held out (the last one of fewer than twenty)."""
    shards = sorted(Path(t.path) for t in _tasks(config, run_dir) if os.path.exists(t.path))
    parts: tuple[dict[str, list[np.ndarray]], dict[str, list[np.ndarray]]] = ({}, {})
    if not shards:
        raise ValueError(f"{run_dir / 'data'} holds no labelled shard")
    held_out = {i for i in range(len(shards)) if i % 20 == 19} or ({len(shards) - 1} if len(shards) > 1 else set())
    for i, path in enumerate(shards):
        with np.load(path) as data:
            for key in ("obs", "mask", "values"):
                parts[int(i in held_out)].setdefault(key, []).append(data[key])
    empty: dict[str, np.ndarray] = {
        "obs": np.zeros((0, OBS_SIZE), np.int8),
        "mask": np.zeros((0, NUM_ACTIONS), np.uint8),
        "values": np.zeros((0, NUM_ACTIONS), np.float32),
    }
    train, held = ({k: np.concatenate(v) for k, v in p.items()} if p else empty for p in parts)
    return train, held


def fit(config: DistillConfig, run_dir: Path, on_progress: Callable[[FitEntry], None] | None = None) -> FitEntry:
    """Fit the network to the labelled values; evaluate each epoch; keep the best as best.npz."""
    import jax
    import jax.numpy as jnp
    import optax

    from mauseloch.games.maumau.learn.dmc import evaluate, gradient_step, params_of, policy_of, q_network, widened

    train, held = load_data(config, run_dir)
    hidden = list(config.hidden)
    net = q_network(hidden)
    params = net.init(jax.random.PRNGKey(config.seed), np.zeros((1, NUM_FEATURES), dtype=np.float32))
    if config.init:
        layers = widened(QPolicy.load(config.init))
        params = params_of(layers)
    steps = config.epochs * max(1, len(train["obs"]) // config.batch_size)
    tx = optax.adam(optax.cosine_decay_schedule(config.lr, steps))
    opt_state = tx.init(params)

    raw = config.raw_weight

    def loss_fn(p: Any, x: Any, m: Any, y: Any) -> Any:
        # The squared error of each legal move's value about the position's mean (what ranks the
        # moves: the greedy choice depends on nothing else), plus ``raw_weight`` times the squared
        # error of the values themselves (the search's play-outs read them as a position's worth).
        q: Any = net.apply(p, x)
        y = jnp.nan_to_num(y)
        count = m.sum(axis=1, keepdims=True)
        q_mean = jnp.where(m > 0, q, 0.0).sum(axis=1, keepdims=True) / count
        y_mean = jnp.where(m > 0, y, 0.0).sum(axis=1, keepdims=True) / count
        centred = jnp.where(m > 0, ((q - q_mean) - (y - y_mean)) ** 2, 0.0)
        plain = jnp.where(m > 0, (q - y) ** 2, 0.0)
        return (centred.sum() + raw * plain.sum()) / m.sum()

    step = gradient_step(loss_fn, tx)

    held_loss = jax.jit(loss_fn)
    x_train = features(train["obs"], train["mask"])
    x_held = features(held["obs"], held["mask"])
    rng = np.random.default_rng(config.seed)
    best = -1.0
    log = run_dir / "fit.jsonl"
    cpu0, wall0 = time.process_time(), time.perf_counter()
    entry: FitEntry = {}
    averaged: list[QPolicy] = []
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(len(x_train))
        losses = []
        for i in range(0, len(order) - config.batch_size + 1, config.batch_size):
            idx = order[i : i + config.batch_size]
            params, opt_state, loss = step(params, opt_state, x_train[idx], train["mask"][idx], train["values"][idx])
            losses.append(float(loss))
        policy = policy_of(params, hidden)
        if config.average_from and epoch >= config.average_from:
            averaged.append(policy)
        two = evaluate(policy, 2, config.eval_deals_2, config.eval_seed)
        four = evaluate(policy, 4, config.eval_deals_4, config.eval_seed + 1)
        tag = f"policy-epoch{epoch:03d}.npz"
        policy.save(run_dir / tag)
        score = two["win"] + four["win"]
        if score > best:
            best = score
            policy.save(run_dir / "best.npz")
        entry = {
            "epoch": epoch, "positions": len(x_train), "held_out": len(x_held),
            "train_loss": float(np.mean(losses)),
            "held_loss": float(held_loss(params, x_held, held["mask"], held["values"])) if len(x_held) else None,
            "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0,
            "policy": tag, "win2": two, "win4": four,
        }  # fmt: skip
        with open(log, "a") as f:
            f.write(json.dumps(entry) + "\n")
        if on_progress:
            on_progress(entry)
    if averaged:  # the mean weights are the run's policy
        mean = QPolicy(
            [
                (
                    np.mean([p.layers[i][0] for p in averaged], axis=0),
                    np.mean([p.layers[i][1] for p in averaged], axis=0),
                )
                for i in range(len(hidden) + 1)
            ]
        )
        two = evaluate(mean, 2, config.eval_deals_2, config.eval_seed)
        four = evaluate(mean, 4, config.eval_deals_4, config.eval_seed + 1)
        mean.save(run_dir / "best.npz")
        entry = {"epoch": "average", "first": config.average_from, "to": config.epochs, "win2": two, "win4": four,
                 "cpu": time.process_time() - cpu0, "wall": time.perf_counter() - wall0}  # fmt: skip
        with open(log, "a") as f:
            f.write(json.dumps(entry) + "\n")
    return entry
