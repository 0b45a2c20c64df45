"""``mauseloch simulate GAME``: many bot games in parallel, with statistics, a report and a plot.

Determinism
    Game ``i`` of a run with ``--seed S`` is played from the game seed ``derive_seed(S, i)``.
    Games are cut into chunks ``[start, stop)``; every chunk is summarised into integer counts
    (:class:`Tally`) and the tallies are merged in game order, so the same seed gives the same
    report whatever ``--workers`` and the backend are (``mauseloch.study.backend``: local processes
    or Ray, which also decides how the games are cut).

Runners: how one game (or a chunk of games) is played
    The default runner plays any turn-based game through the public API: the engine gets the
    game seed itself (``new_game(seed=derive_seed(S, i))``), the bot of seat ``s`` is
    ``make_bot(game, kind, seed=derive_seed(game_seed, STREAM_BOTS + s))``. A game with
    ``GameInfo.dynamics == "reactions"`` is played by :func:`play_reactions`, whose windows the one
    referee (:mod:`mauseloch.realtime.referee`) decides in virtual time from the bots' ``react``
    answers, ties drawn from the simulator's own stream.

    Everything else comes from the game's declaration (``GameInfo.simulation``): a *chunk runner*
    ``(spec: SimSpec, start, stop) -> Tally`` that replaces the default for the specs it applies
    to (a compiled kernel that plays exactly the engine's games; ``--engine`` forces the default
    runner), what to compile before the workers start, the game's own figures (a list of ints per
    seat, e.g. ``"mice_catch"``, or an int for the game, e.g. ``"timeouts"``) and the unit of a
    game's length.

Report
    Win share per seat (rank 1, shared first places count for each) with 95 % Wilson intervals,
    mean rank, game length in moves (mean, quantiles, histogram), end reasons, and the game's own
    figures from ``result()`` (per seat means; Aus die Maus: cards and chips at the end, and the
    length is its number of flips). ``--json`` prints the same as JSON, ``--plot`` draws it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from mauseloch.core.engine import SEED_LIMIT, Game, as_int, derive_seed
from mauseloch.core.registry import game_info, new_game
from mauseloch.core.seeds import STREAM_BOTS, STREAM_ENGINE
from mauseloch.core.shapes import Figures, JSONObject, OptionDict, Options
from mauseloch.core.simulation import ChunkRunner, SimSpec, Tally
from mauseloch.study.backend import Backend, LocalBackend, run_ranges

Z95 = 1.959963984540054
QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


NOT_FIGURES = ("reason", "ranks", "rank", "moves")


@dataclass(frozen=True)
class GameStats:
    """One finished game as the study tools count it: why it ended, each seat's rank, its length
    and its figures (an int for the game, or a list of ints per seat)."""

    reason: str
    ranks: list[int]
    moves: int
    figures: Figures

    @classmethod
    def read(cls, game: str, stats: JSONObject) -> GameStats:
        """A runner's stats (its game's result with ``moves`` and the declared figures) read once;
        any other value of the result (text, nested lists) is no figure."""
        ranks = stats.get("ranks", stats.get("rank"))
        if ranks is None:
            raise ValueError(f"the {game} runner gave no ranks")
        figures: Figures = {}
        for name, value in stats.items():
            if name in NOT_FIGURES or isinstance(value, bool):
                continue
            if isinstance(value, int):
                figures[name] = value
            elif isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
                figures[name] = [int(v) for v in value]
        return cls(str(stats["reason"]), [int(r) for r in ranks], int(stats["moves"]), figures)


# one whole game: the game, and how the study tools count it
GameRunner = Callable[[Sequence[str], int, Options], tuple[Game, GameStats]]


def _declared_figures(g: Game) -> Figures:
    """The finished game's own figures, as its declaration names them (none for most games)."""
    hook = game_info(g.name).simulation.figures
    return {} if hook is None else dict(hook(g))


def stats_of(g: Game) -> GameStats:
    """A finished game as the study tools count it: its result, length and declared figures."""
    stats = dict(g.result())
    stats["moves"] = g.move_count
    stats.update(_declared_figures(g))
    return GameStats.read(g.name, stats)


# --------------------------------------------------------------------------- runners


def play_turn_based(kinds: Sequence[str], seed: int, options: Options, game: str) -> tuple[Game, GameStats]:
    """The default: one game through the public API, each seat's bot choosing from its view."""
    from mauseloch.bots import make_bot

    g = new_game(game, players=len(kinds), seed=seed, options=options)
    bots = [make_bot(game, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)]
    while not g.is_over:
        seat = g.to_move
        if seat is None:
            raise ValueError(f"{game} needs a simulation runner for moves outside turns (see mauseloch.study.simulate)")
        g.play(bots[seat].choose(g.typed_view(seat), g.legal_moves()))
    return g, stats_of(g)


def play_reactions(kinds: Sequence[str], seed: int, options: Options, game: str) -> tuple[Game, GameStats]:
    """One game of a reaction game (``dynamics == "reactions"``), each window decided by the
    referee in virtual time. ``seed`` is the simulator's seed for this game: the engine's seed,
    each bot's seed and the tie stream are derived from it on separate streams."""
    from mauseloch.bots import make_bot
    from mauseloch.realtime.referee import Referee, play_bots

    g = new_game(game, players=len(kinds), seed=derive_seed(seed, STREAM_ENGINE) % SEED_LIMIT, options=options)
    bots = [make_bot(game, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)]
    play_bots(Referee.for_seed(g, seed), bots)
    return g, stats_of(g)


def game_runner(game: str) -> GameRunner:
    """The runner for one whole game, chosen by the kind of game ``game`` declares."""
    name = game_info(game).name
    play = play_reactions if game_info(game).dynamics == "reactions" else play_turn_based

    def run(kinds: Sequence[str], seed: int, options: Options) -> tuple[Game, GameStats]:
        return play(kinds, seed, options, name)

    return run


def run_games(spec: SimSpec, start: int, stop: int) -> Tally:
    """The default chunk runner: games ``start..stop-1`` one by one through ``game_runner``."""
    play = game_runner(spec.game)
    tally = Tally(spec.players)
    for i in range(start, stop):
        _, game = play(spec.bots, spec.game_seed(i), dict(spec.options))
        tally.add(game.reason, game.ranks, game.moves, game.figures)
    return tally


def chunk_runner(spec: SimSpec) -> ChunkRunner:
    """The game's declared chunk runner where it applies to ``spec``, else :func:`run_games`."""
    declared = game_info(spec.game).simulation
    runner = declared.runner
    if runner is not None and not spec.engine_only and (declared.applies is None or declared.applies(spec)):
        return runner
    return run_games


def _run_chunk(spec: SimSpec, start: int, stop: int) -> Tally:
    return chunk_runner(spec)(spec, start, stop)


# --------------------------------------------------------------------------- running


def make_spec(
    game: str, players: int | None, bots: str, seed: int, option_pairs: Sequence[str], engine_only: bool = False
) -> SimSpec:
    """Check the command-line arguments and build the spec (``ValueError`` names what is wrong)."""
    from mauseloch.bots import bots_for_seats

    info = game_info(game)
    n = info.check_players(info.min_players if players is None else players)
    options = info.resolve_options(n, info.options_from_text(option_pairs))
    kinds = bots_for_seats(info.name, bots or "random", n)  # every seat is a bot here
    seed = as_int(seed, "seed", 0, (1 << 64) - 1)
    # The engine has the last word on options and players together (e.g. Mausgeflippt's hand
    # size against the clothing cards): ask it once here, not in every worker after the start.
    new_game(info.name, players=n, seed=0, options=options)
    return SimSpec(info.name, n, options, tuple(kinds), seed, engine_only)


def simulate(
    spec: SimSpec,
    games: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    backend: Backend | None = None,
    notice: Callable[[str], None] | None = None,
) -> Tally:
    """Play ``games`` games of ``spec`` on ``backend`` (default: ``workers`` local processes);
    the tally in game order. ``notice(text)`` hears of a slow first step (compiling a kernel)."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if backend is None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        backend = LocalBackend(workers)
    runner = chunk_runner(spec)
    prepare_bots(spec, notice)
    if runner is not run_games:
        # compile (or load) a kernel once here, before workers start: forked ones inherit it,
        # others load numba's cache that this writes
        runner(spec, 0, 1)
    cap = 50_000 if runner is not run_games else 500
    total = Tally(spec.players)
    for part in run_ranges(backend, _run_chunk, spec, games, cap, progress):
        total.merge(part)
    return total


def prepare_bots(spec: SimSpec, notice: Callable[[str], None] | None = None) -> None:
    """What the game declares to do before the workers start (``Simulation.prepare``: compile or
    load the kernels its bots or its runner use, so that forked workers inherit them and others
    load numba's cache that this writes); ``notice`` hears COMPILING when that takes seconds."""
    hook = game_info(spec.game).simulation.prepare
    if hook is not None:
        hook(spec, notice)


# --------------------------------------------------------------------------- report


class SeatRow(TypedDict):
    """One seat of the report: its bot, its wins (shared first places count) and its mean rank."""

    seat: int
    bot: str
    wins: int
    sole_wins: int
    win_share: float
    ci95: list[float]  # the 95 % Wilson interval of win_share: [low, high]
    mean_rank: float


# "from" is a Python keyword, so the bin is declared in the functional form
LengthBin = TypedDict("LengthBin", {"from": int, "to": int, "games": int})


class Lengths(TypedDict):
    """The distribution of game lengths, in the game's declared unit."""

    unit: str
    mean: float
    sd: float
    min: int
    max: int
    quantiles: dict[str, int]  # "p1", "p5", ... -> length
    histogram: list[LengthBin]


class ReasonShare(TypedDict):
    games: int
    share: float


class BotFigures(TypedDict):
    """One bot kind over its seats: means per seat and game."""

    seats: list[int]
    win_share: float
    mean_rank: float
    figures: dict[str, float]  # seat figure -> mean


class SimulationReport(TypedDict):
    """The report of a finished simulation; ``--json`` writes it as it is."""

    game: str
    players: int
    options: OptionDict
    bots: list[str]
    seed: int
    games: int
    seats: list[SeatRow]
    length: Lengths
    reasons: dict[str, ReasonShare]
    seat_figures: dict[str, list[float]]  # figure -> mean per seat
    game_figures: dict[str, float]  # figure -> mean per game
    bot_figures: dict[str, BotFigures]  # bot kind -> its figures


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(lengths: dict[int, int], q: float) -> int:
    """The smallest length with at least a share ``q`` of the games at or below it."""
    total = sum(lengths.values())
    need = q * total
    seen = 0
    for length in sorted(lengths):
        seen += lengths[length]
        if seen >= need:
            return length
    return max(lengths)


def histogram(lengths: dict[int, int], bins: int = 20) -> list[LengthBin]:
    """Equal-width bins over the observed lengths: ``[{"from", "to", "games"}, ...]``."""
    lo, hi = min(lengths), max(lengths)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    out: list[LengthBin] = [{"from": lo + k * width, "to": lo + (k + 1) * width - 1, "games": 0} for k in range(bins)]
    for length, count in lengths.items():
        out[(length - lo) // width]["games"] += count
    while out and out[-1]["games"] == 0:
        out.pop()
    return out


def report(spec: SimSpec, tally: Tally) -> SimulationReport:
    """The JSON-able report of a finished simulation."""
    g = tally.games
    n = spec.players
    seats: list[SeatRow] = []
    for s in range(n):
        low, high = wilson(tally.wins[s], g)
        seats.append(
            {
                "seat": s,
                "bot": spec.bots[s],
                "wins": tally.wins[s],
                "sole_wins": tally.sole_wins[s],
                "win_share": tally.wins[s] / g,
                "ci95": [low, high],
                "mean_rank": tally.rank_sum[s] / g,
            }
        )
    # integer sums, so the figures do not depend on the order the tallies arrived in
    s1 = sum(length * count for length, count in tally.lengths.items())
    s2 = sum(length * length * count for length, count in tally.lengths.items())
    mean = s1 / g
    var = (g * s2 - s1 * s1) / (g * g)
    return {
        "game": spec.game,
        "players": n,
        "options": spec.options,
        "bots": list(spec.bots),
        "seed": spec.seed,
        "games": g,
        "seats": seats,
        "length": {
            "unit": game_info(spec.game).simulation.length_unit,
            "mean": mean,
            "sd": math.sqrt(var),
            "min": min(tally.lengths),
            "max": max(tally.lengths),
            "quantiles": {f"p{round(q * 100)}": quantile(tally.lengths, q) for q in QUANTILES},
            "histogram": histogram(tally.lengths),
        },
        "reasons": {k: {"games": v, "share": v / g} for k, v in sorted(tally.reasons.items())},
        "seat_figures": {name: [v / g for v in sums] for name, sums in sorted(tally.seat_figures.items())},
        "game_figures": {name: total / g for name, total in sorted(tally.game_figures.items())},
        "bot_figures": bot_figures(spec, tally),
    }


def bot_figures(spec: SimSpec, tally: Tally) -> dict[str, BotFigures]:
    """Per bot kind (or level): its seats, and the mean per seat and game of the win share, the
    rank and every seat figure, so mixed tables compare levels directly."""
    g = tally.games
    kinds: dict[str, list[int]] = {}
    for seat, kind in enumerate(spec.bots):
        kinds.setdefault(kind, []).append(seat)
    out: dict[str, BotFigures] = {}
    for kind, seats in kinds.items():
        k = len(seats)
        out[kind] = {
            "seats": seats,
            "win_share": sum(tally.wins[s] for s in seats) / (g * k),
            "mean_rank": sum(tally.rank_sum[s] for s in seats) / (g * k),
            "figures": {
                name: sum(sums[s] for s in seats) / (g * k) for name, sums in sorted(tally.seat_figures.items())
            },
        }
    return out
