"""What the simulator and a game's declaration share: what to simulate (:class:`SimSpec`), the
integer counts over a chunk of games (:class:`Tally`) and the hooks' types.

A game's declaration (``GameInfo.simulation``, :mod:`mauseloch.core.registry`) may bring a chunk
runner (a compiled kernel that plays exactly the engine's games) and what to compile before the
workers start; the simulator (:mod:`mauseloch.study.simulate`) calls them with these types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mauseloch.core.engine import derive_seed
from mauseloch.core.shapes import Figures, OptionDict

COMPILING = "compiling the fast kernel, once (10 s or more; later runs load it from the cache)…"
Notice = Callable[[str], None]  # says a slow first step (compiling a kernel) to the person waiting


@dataclass(frozen=True)
class SimSpec:
    """What to simulate: everything a worker needs (picklable)."""

    game: str
    players: int
    options: OptionDict
    bots: tuple[str, ...]  # one kind per seat
    seed: int
    engine_only: bool = False  # True: ignore the game's declared runner, play through the public API

    def game_seed(self, i: int) -> int:
        return derive_seed(self.seed, i)


@dataclass
class Tally:
    """Integer counts over a range of games; ``merge`` them in game order for the report."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)  # rank 1 (shared or not) per seat
    sole_wins: list[int] = field(default_factory=list)
    rank_sum: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    lengths: dict[int, int] = field(default_factory=dict)  # moves -> games
    seat_figures: dict[str, list[int]] = field(default_factory=dict)  # name -> sum per seat
    game_figures: dict[str, int] = field(default_factory=dict)  # name -> sum

    def __post_init__(self) -> None:
        n = self.players
        self.wins = self.wins or [0] * n
        self.sole_wins = self.sole_wins or [0] * n
        self.rank_sum = self.rank_sum or [0] * n

    def add(self, reason: str, ranks: Sequence[int], moves: int, figures: Figures) -> None:
        """Count one game."""
        self.games += 1
        firsts = sum(1 for r in ranks if r == 1)
        for s, r in enumerate(ranks):
            self.rank_sum[s] += r
            if r == 1:
                self.wins[s] += 1
                if firsts == 1:
                    self.sole_wins[s] += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.lengths[moves] = self.lengths.get(moves, 0) + 1
        for name, value in figures.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                self.game_figures[name] = self.game_figures.get(name, 0) + value
            elif isinstance(value, (list, tuple)) and len(value) == self.players:
                sums = self.seat_figures.setdefault(name, [0] * self.players)
                for s, v in enumerate(value):
                    sums[s] += int(v)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for s in range(self.players):
            self.wins[s] += other.wins[s]
            self.sole_wins[s] += other.sole_wins[s]
            self.rank_sum[s] += other.rank_sum[s]
        for key, count in other.reasons.items():
            self.reasons[key] = self.reasons.get(key, 0) + count
        for length, count in other.lengths.items():
            self.lengths[length] = self.lengths.get(length, 0) + count
        for name, sums in other.seat_figures.items():
            mine = self.seat_figures.setdefault(name, [0] * self.players)
            for s in range(self.players):
                mine[s] += sums[s]
        for name, total in other.game_figures.items():
            self.game_figures[name] = self.game_figures.get(name, 0) + total


ChunkRunner = Callable[[SimSpec, int, int], Tally]
