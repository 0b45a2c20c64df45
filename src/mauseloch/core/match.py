"""Match play: several deals of Mau-Mau in a row with cumulative card points, as families play it.

A match is ``deals`` deals at most; it also ends after the deal in which somebody's total reaches
``target`` points (0: no target). After each deal every player adds the card points left in
their hand (the game's own ``result()["points"]``: ace 11, ten 10, nine 9, eight 8, seven 7,
king 4, queen 3, jack 2 — the winner of the deal adds 0). The lowest total wins the match.

The first player rotates: the engine's seat 0 always moves first (MM-1), so in deal ``i`` the
match's player ``p`` sits at engine seat ``(p - i) mod n``; player ``i mod n`` leads. Deal ``i``
is dealt from ``deal_seed(seed, i)``, so the whole match follows from one seed, and its
record (every deal's record) replays to the same standings.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict

from mauseloch.core.engine import SEED_LIMIT, Game, check_seed, competition_ranks, derive_seed, whole_number
from mauseloch.core.record import MatchRecord, read_json, replay
from mauseloch.core.registry import GAMES, game_info, new_game

MATCH_KEYS = ("match", "game", "players", "options", "seed", "deals", "target", "games")
MAX_DEALS = 99


def match_games() -> tuple[str, ...]:
    """The games with match play: those whose declaration says their result carries card points
    to add up (``GameInfo.match``)."""
    return tuple(name for name, info in GAMES.items() if info.match)


# -- the match's arithmetic, on plain data (a web table keeps a match as JSON, see server/match.py)
def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` (0-based) of the match with ``seed``: below ``SEED_LIMIT``, so a
    web table stores it and the page reads it exactly."""
    return derive_seed(seed, deal) % SEED_LIMIT


def seat_in_deal(player: int, deal: int, players: int) -> int:
    """The engine seat of match player ``player`` in deal ``deal`` (0-based): player ``deal mod n``
    sits at seat 0 and leads (MM-1)."""
    return (player - deal) % players


def player_in_deal(seat: int, deal: int, players: int) -> int:
    return (seat + deal) % players


def totals_of(scores: list[list[int]], players: int) -> list[int]:
    return [sum(points[p] for points in scores) for p in range(players)]


def ends_after(scores: list[list[int]], deals: int, target: int) -> bool:
    """Whether the match is over once the deals in ``scores`` are played and booked."""
    if len(scores) >= deals:
        return True
    return target > 0 and bool(scores) and max(totals_of(scores, len(scores[0]))) >= target


def points_by_player(result: Mapping[str, Any], deal: int, players: int) -> list[int]:
    """A finished deal's card points (``result["points"]``, by engine seat) for each player."""
    return [result["points"][seat_in_deal(p, deal, players)] for p in range(players)]


class Standing(TypedDict):
    """A player's place in a match (fewest points first), total and last deal's points."""

    player: int
    rank: int
    total: int
    last: int


class MatchState(TypedDict):
    """What a table shows about a match (``Match.state``)."""

    deal: int
    deals: int
    target: int
    leader: int
    scores: list[list[int]]
    standings: list[Standing]
    between: bool
    over: bool


def standings_of(scores: list[list[int]], players: int) -> list[Standing]:
    """Each player's place (fewest points first, equal totals share a place), total and the
    points of the last booked deal, in player order."""
    totals = totals_of(scores, players)
    ranks = competition_ranks([(total,) for total in totals])
    last = scores[-1] if scores else [0] * players
    return [{"player": p, "rank": ranks[p], "total": totals[p], "last": last[p]} for p in range(players)]


def check_length(deals: Any, target: Any) -> tuple[int, int]:
    """``deals`` and ``target`` as whole numbers, or a ``ValueError`` saying what they may be."""
    number = whole_number(deals)
    if number is None or not 1 <= number <= MAX_DEALS:
        raise ValueError(f"a match has 1 to {MAX_DEALS} deals, got {deals!r}")
    goal = whole_number(target)
    if goal is None or goal < 0:
        raise ValueError(f"the target score is a whole number, 0 for none, got {target!r}")
    return number, goal


class Match:
    """A running or finished match; ``game`` is the current deal (engine seats), ``player_at``
    and ``seat_of`` translate between engine seats and the match's players."""

    def __init__(
        self,
        game: str | None = None,
        players: int = 4,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        deals: int = 3,
        target: int = 0,
    ) -> None:
        info = game_info(match_games()[0] if game is None else game)  # by default the first such game
        if not info.match:
            raise ValueError(f"match play is for {', '.join(match_games())}, not {info.name}")
        self.name = info.name
        self.players = info.check_players(players)
        self.options = info.resolve_options(self.players, options)
        self.seed = check_seed(seed)
        self.deals, self.target = check_length(deals, target)
        self.games: list[Game] = []
        self.scores: list[list[int]] = []  # per finished deal: each player's points
        self.next_deal()

    # ---------------------------------------------------------------- seats
    def seat_of(self, player: int, deal: int | None = None) -> int:
        """The engine seat of ``player`` in deal ``deal`` (default: the current one)."""
        return seat_in_deal(player, len(self.games) - 1 if deal is None else deal, self.players)

    def player_at(self, seat: int, deal: int | None = None) -> int:
        return player_in_deal(seat, len(self.games) - 1 if deal is None else deal, self.players)

    # ---------------------------------------------------------------- flow
    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def deal_number(self) -> int:
        """1 for the first deal."""
        return len(self.games)

    def deal_seed(self, deal: int) -> int:
        return deal_seed(self.seed, deal)

    @property
    def totals(self) -> list[int]:
        return totals_of(self.scores, self.players)

    @property
    def is_over(self) -> bool:
        """The last deal is over and no other follows."""
        if not self.game.is_over:
            return False
        return ends_after(self.scores, self.deals, self.target)

    @property
    def between_deals(self) -> bool:
        """A deal has ended and the next one is still to come (``next_deal``)."""
        return self.game.is_over and not self.is_over

    def next_deal(self) -> Game:
        """Deal the next game (the first one on construction)."""
        if self.games and not self.between_deals:
            raise ValueError("the current deal is not over" if not self.game.is_over else "the match is over")
        i = len(self.games)
        self.games.append(new_game(self.name, players=self.players, seed=self.deal_seed(i), options=self.options))
        return self.game

    def deal_over(self) -> list[int]:
        """Book the current deal's points (call once when it is over); each player's points."""
        points = points_by_player(self.game.result(), len(self.games) - 1, self.players)
        if len(self.scores) < len(self.games):
            self.scores.append(points)
        return self.scores[-1]

    def standings(self) -> list[Standing]:
        """Each player's place (fewest points first, equal totals share a place), total and the
        points of the last booked deal, in player order."""
        return standings_of(self.scores, self.players)

    def state(self) -> MatchState:
        """What a table shows about the match (public: points are counted from open hands)."""
        return {
            "deal": self.deal_number,
            "deals": self.deals,
            "target": self.target,
            "leader": self.player_at(0),
            "scores": [list(s) for s in self.scores],
            "standings": self.standings(),
            "between": self.between_deals,
            "over": self.is_over,
        }

    def record(self) -> MatchRecord:
        """The whole match as one JSON record: its setup and every deal's record."""
        return {
            "match": 1,
            "game": self.name,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "deals": self.deals,
            "target": self.target,
            "games": [g.record() for g in self.games],
        }


def is_match_record(record: Any) -> bool:
    return isinstance(record, dict) and "match" in record


def replay_match(record: Any) -> Match:
    """The match a match record describes, every deal replayed and booked; the last deal may be
    unfinished (a saved match goes on from there). ``ValueError`` names what is wrong."""
    if not isinstance(record, dict):
        raise ValueError(f"a record must be a JSON object, got {type(record).__name__}")
    missing = [k for k in MATCH_KEYS if k not in record]
    if missing:
        raise ValueError(f"not a Mauseloch match record: missing {', '.join(missing)}")
    if record["match"] != 1:
        raise ValueError(f"unknown match record version {record['match']!r}")
    deals = record["games"]
    if not isinstance(deals, list) or not deals:
        raise ValueError("a match record's games must be a list of at least one deal's record")
    r = record
    match = Match(r["game"], r["players"], r["seed"], r["options"], r["deals"], r["target"])
    for i, entry in enumerate(deals):
        if i > 0:
            if not match.between_deals:
                raise ValueError(f"match deal {i + 1}: the match was already over" if match.is_over else
                                 f"match deal {i}: not over, yet another deal follows")  # fmt: skip
            match.next_deal()
        for key in ("game", "players", "options", "seed"):
            expected = match.game.record()[key]
            if not isinstance(entry, dict) or entry.get(key) != expected:
                raise ValueError(f"match deal {i + 1}: its {key} is not the match's ({expected!r})")
        try:
            game = replay(entry)
        except ValueError as exc:
            raise ValueError(f"match deal {i + 1}: {exc}") from None
        match.games[-1] = game
        if game.is_over:
            match.deal_over()
    return match


def load_any(path: str | Path) -> Game | Match:
    """Read a record file of one game or of a whole match and replay it; every problem becomes
    a ``ValueError`` with the file named."""
    data = read_json(path)
    try:
        return replay_match(data) if is_match_record(data) else replay(data)
    except ValueError as exc:
        raise ValueError(f"{Path(path)}: {exc}") from None
