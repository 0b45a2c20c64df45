"""Tournaments between bots in the duplicate format: every deal is played once for every seat
arrangement of the bots, so each bot meets the same cards from every seat and luck cancels.

Deals and seeds
    Deal ``d`` of a tournament with seed ``S`` is the game seed ``derive_seed(S, d)``; every
    arrangement of that deal is played from the same game seed, so the engine deals the same
    cards to the same seats, only the bots sit elsewhere. Games are played by the simulator's
    runners (``mauseloch.study.simulate.game_runner``), so a game's own way of playing (Mausgeflippt's
    reaction times) holds here too, and any bot the registry offers (``mauseloch.bots``) can play.

Arrangements
    ``permutations`` (default): every distinct ordering of the bot list over the seats (a bot
    named twice is one bot, so ``a,b,b,b`` has 4 arrangements, ``a,b,c,d`` 24);
    ``rotations``: the cyclic rotations of the list (at most one per seat).

Report (all figures from integer counts merged in deal order: the same for a seed whatever the
backend and the number of workers)
    Per bot: win share (rank 1, shared first places count), mean rank and the mean of every
    per-seat figure of the game's result (Mau-Mau's ``points``, Mausgeflippt's ``score``, ...),
    each with a 95 % interval over deals (the deal is the independent unit of the duplicate
    format; normal approximation); the pairwise share of games in which one bot placed above
    another (ties half); Bradley–Terry ratings fitted to those pairwise results, on the Elo
    scale (400 · log10 of the odds, mean 0), with 95 % intervals from a bootstrap over deals
    (its generator seeded from ``S``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from mauseloch.core.engine import as_int, derive_seed
from mauseloch.core.seeds import STREAM_BOOTSTRAP
from mauseloch.core.shapes import OptionDict
from mauseloch.core.simulation import SimSpec
from mauseloch.study.backend import Backend, LocalBackend, run_ranges
from mauseloch.study.simulate import Z95, game_runner, make_spec, prepare_bots

SEATINGS = ("permutations", "rotations")
BOOTSTRAP = 400  # resamples of the deals for the rating intervals
PRIOR = 0.5  # virtual half win each way per pair of bots, so a bot that never wins has a rating


@dataclass(frozen=True)
class TournamentSpec:
    """What to play: the simulator's spec (game, players, options, bot list, seed) and the seat
    arrangements each deal is played with (picklable, for the workers)."""

    sim: SimSpec
    arrangements: tuple[tuple[str, ...], ...]
    seating: str

    @property
    def kinds(self) -> list[str]:
        """The distinct bots, in the order first named."""
        return list(dict.fromkeys(self.sim.bots))


def arrangements(bots: Sequence[str], seating: str) -> tuple[tuple[str, ...], ...]:
    """The distinct seat arrangements of ``bots`` (see the module docstring), in a fixed order."""
    orders: Iterable[tuple[str, ...]]
    if seating == "permutations":
        orders = itertools.permutations(bots)
    elif seating == "rotations":
        orders = (tuple(bots[k:]) + tuple(bots[:k]) for k in range(len(bots)))
    else:
        raise ValueError(f"seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
    return tuple(dict.fromkeys(tuple(o) for o in orders))


def make_tournament(
    game: str,
    bots: str,
    players: int | None = None,
    seed: int = 0,
    option_pairs: Sequence[str] = (),
    seating: str = "permutations",
) -> TournamentSpec:
    """Check the arguments (as ``simulate`` does) and build the spec; ``ValueError`` says what is
    wrong. Without ``players``, the bot list gives the number of seats."""
    if players is None and len(bots.split(",")) > 1:
        players = len(bots.split(","))
    sim = make_spec(game, players, bots, seed, option_pairs)
    if len(set(sim.bots)) < 2:
        # one kind in every seat only plays it against itself: its share is 1/players by symmetry
        raise ValueError(
            f"a tournament compares bots: name at least two different kinds, one per seat "
            f"(e.g. --bots heuristic,random), got only {sim.bots[0]!r}; "
            f"for one bot's figures use `mauseloch simulate {sim.game} --bots {sim.bots[0]}`"
        )
    seating = seating.strip().lower()
    return TournamentSpec(sim, arrangements(sim.bots, seating), seating)


# --------------------------------------------------------------------------- playing


@dataclass
class DealResults:
    """Deals ``start..stop-1``: per deal, per arrangement, per seat, the rank and the figures."""

    start: int
    ranks: list[list[list[int]]]
    figures: dict[str, list[list[list[int]]]]
    moves: list[list[int]]


def play_deals(spec: TournamentSpec, start: int, stop: int) -> DealResults:
    """Play deals ``start..stop-1``, each in every arrangement (a backend task)."""
    play = game_runner(spec.sim.game)
    n = spec.sim.players
    out = DealResults(start, [], {}, [])
    for d in range(start, stop):
        seed = spec.sim.game_seed(d)
        ranks, moves = [], []
        figures: dict[str, list[list[int]]] = {}
        for kinds in spec.arrangements:
            _, game = play(kinds, seed, dict(spec.sim.options))
            ranks.append(game.ranks)
            moves.append(game.moves)
            for name, value in game.figures.items():
                if isinstance(value, list) and len(value) == n:
                    figures.setdefault(name, []).append(value)
        out.ranks.append(ranks)
        out.moves.append(moves)
        for name, rows in figures.items():
            if len(rows) == len(spec.arrangements):  # a figure every game has
                out.figures.setdefault(name, []).append(rows)
    return out


def play(
    spec: TournamentSpec,
    deals: int,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    notice: Callable[[str], None] | None = None,
) -> DealResults:
    """Play ``deals`` deals on ``backend`` (default: this process); ``progress(games)``;
    ``notice(text)`` hears of a slow first step (compiling the bots' kernels)."""
    deals = as_int(deals, "deals", 1)
    prepare_bots(spec.sim, notice)
    per_deal = len(spec.arrangements)

    def advance(k: int) -> None:
        if progress:
            progress(k * per_deal)

    parts = run_ranges(backend or LocalBackend(1), play_deals, spec, deals, max(1, 400 // per_deal), advance)
    total = DealResults(0, [], {}, [])
    for part in parts:
        total.ranks += part.ranks
        total.moves += part.moves
        for name, rows in part.figures.items():
            total.figures.setdefault(name, []).extend(rows)
    total.figures = {k: v for k, v in total.figures.items() if len(v) == deals}
    return total


# --------------------------------------------------------------------------- statistics


class MeanCI(TypedDict):
    mean: float
    ci95: list[float] | None  # the 95 % normal interval; None with a single deal


class KindRow(TypedDict):
    """One bot kind of the tournament: per seat and game, over its seats in each deal."""

    bot: str
    seats_per_game: int
    games: int
    win_share: MeanCI
    mean_rank: MeanCI
    figures: dict[str, MeanCI]  # seat figure -> its mean
    rating: float  # Elo scale, mean 0
    rating_ci95: list[float] | None  # bootstrap interval; None with one kind, one deal or no resamples


class RatingModel(TypedDict):
    """How the ratings were made, in words for the report's reader."""

    model: str
    scale: str
    interval: str


class TournamentReport(TypedDict):
    """The report of a finished tournament; ``--json`` writes it as it is."""

    game: str
    players: int
    options: OptionDict
    bots: list[str]
    seed: int
    seating: str
    arrangements: list[list[str]]
    deals: int
    games: int
    mean_moves: float
    kinds: list[KindRow]
    pairwise: dict[str, dict[str, float]]  # a -> b -> share of games a placed above b (ties half)
    rating: RatingModel


def _mean_ci(per_deal: Any) -> MeanCI:
    """Mean over deals and its 95 % normal interval (``None`` with a single deal)."""
    import numpy as np

    x = np.asarray(per_deal, dtype=np.float64)
    mean = float(x.mean())
    if len(x) < 2:
        return {"mean": mean, "ci95": None}
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x))
    return {"mean": mean, "ci95": [mean - half, mean + half]}


def bradley_terry(wins: Any, iterations: int = 2000) -> Any:
    """Strengths ``p`` (geometric mean 1) with ``P(i above j) = p_i / (p_i + p_j)``, fitted to the
    matrix ``wins[i, j]`` (i above j, ties split) by Hunter's MM algorithm, with ``PRIOR``."""
    import numpy as np

    w = np.asarray(wins, dtype=np.float64) + PRIOR
    np.fill_diagonal(w, 0.0)
    games = w + w.T
    total_wins = w.sum(axis=1)
    p = np.ones(len(w))
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total_wins / denom
        new /= math.exp(float(np.log(new).mean()))
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    return p


def elo(p: Any) -> Any:
    import numpy as np

    r = 400.0 * np.log10(p)
    return r - r.mean()


def report(spec: TournamentSpec, res: DealResults, bootstrap: int = BOOTSTRAP) -> TournamentReport:
    """The JSON-able report of a finished tournament."""
    import numpy as np

    kinds = spec.kinds
    k = len(kinds)
    ranks = np.asarray(res.ranks, dtype=np.int64)  # deal × arrangement × seat
    deals, arr, n = ranks.shape
    # which kind sits where: arrangement × seat -> kind index
    where = np.array([[kinds.index(b) for b in kinds_of] for kinds_of in spec.arrangements])
    onehot = (where[:, :, None] == np.arange(k)[None, None, :]).astype(np.float64)  # arr × seat × kind
    seats_of = onehot.sum(axis=(0, 1))  # seat-games per deal for each kind

    def per_kind(values: Any) -> Any:
        """deal × arr × seat values -> deal × kind means over that kind's seats in the deal."""
        return np.einsum("das,ask->dk", values, onehot) / seats_of

    win = per_kind((ranks == 1).astype(np.float64))
    rank = per_kind(ranks.astype(np.float64))
    figs = {name: per_kind(np.asarray(rows, dtype=np.float64)) for name, rows in sorted(res.figures.items())}
    # pairwise: pw[d, i, j] = games of deal d in which kind i placed above kind j (ties half)
    above = (ranks[:, :, :, None] < ranks[:, :, None, :]).astype(np.float64)
    above += 0.5 * (ranks[:, :, :, None] == ranks[:, :, None, :])
    pw = np.einsum("dast,asi,atj->dij", above, onehot, onehot)
    idx = np.arange(k)
    pw[:, idx, idx] = 0.0
    met = pw.sum(axis=0) + pw.sum(axis=0).T
    wins_total = pw.sum(axis=0)
    ratings = elo(bradley_terry(wins_total)) if k > 1 else np.zeros(1)
    low = high = ratings
    if k > 1 and deals > 1 and bootstrap > 0:
        rng = np.random.default_rng(derive_seed(spec.sim.seed, STREAM_BOOTSTRAP))
        samples = np.empty((bootstrap, k))
        for b in range(bootstrap):
            weights = np.bincount(rng.integers(0, deals, deals), minlength=deals).astype(np.float64)
            samples[b] = elo(bradley_terry(np.tensordot(weights, pw, axes=1)))
        low, high = np.quantile(samples, 0.025, axis=0), np.quantile(samples, 0.975, axis=0)
    rows: list[KindRow] = []
    for i, kind in enumerate(kinds):
        rows.append(
            {
                "bot": kind,
                "seats_per_game": int(seats_of[i]) // arr,
                "games": deals * arr,
                "win_share": _mean_ci(win[:, i]),
                "mean_rank": _mean_ci(rank[:, i]),
                "figures": {name: _mean_ci(v[:, i]) for name, v in figs.items()},
                "rating": float(ratings[i]),
                "rating_ci95": [float(low[i]), float(high[i])] if k > 1 and deals > 1 and bootstrap > 0 else None,
            }
        )
    pairwise = {
        a: {b: float(wins_total[i, j] / met[i, j]) for j, b in enumerate(kinds) if j != i and met[i, j] > 0}
        for i, a in enumerate(kinds)
    }
    moves = np.asarray(res.moves, dtype=np.float64)
    return {
        "game": spec.sim.game,
        "players": n,
        "options": spec.sim.options,
        "bots": list(spec.sim.bots),
        "seed": spec.sim.seed,
        "seating": spec.seating,
        "arrangements": [list(a) for a in spec.arrangements],
        "deals": deals,
        "games": deals * arr,
        "mean_moves": float(moves.mean()),
        "kinds": rows,
        "pairwise": pairwise,
        "rating": {
            "model": "Bradley-Terry on pairwise placings (ties half)",
            "scale": "Elo points: 400 log10 of the odds, mean 0",
            "interval": f"95 %, bootstrap over deals ({bootstrap} resamples)",
        },
    }
