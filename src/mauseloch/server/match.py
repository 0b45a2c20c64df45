"""Deal codes and match play of the web tables (pure: a table's stored row in, values out).

A web match is a chain of tables, one per deal (like a rematch): each table row keeps the match
as JSON — {"seed", "deal" (0-based), "deals", "target", "scores" (booked deals, points per
player), "tables" (the deals before)} — and the next table is dealt from
``deal_seed(seed, deal + 1)`` with every person one seat on, so the lead rotates
(:mod:`mauseloch.core.match` has the arithmetic; MM-1: seat 0 leads).
"""

from __future__ import annotations

import mauseloch
from mauseloch.core.dealcode import decode, encode
from mauseloch.core.engine import check_seed
from mauseloch.core.match import (
    check_length,
    deal_seed,
    ends_after,
    match_games,
    player_in_deal,
    points_by_player,
    seat_in_deal,
    standings_of,
)
from mauseloch.core.shapes import OptionDict
from mauseloch.server.bodies import CreateTable
from mauseloch.server.protocol import MatchState, Standing
from mauseloch.server.storage.rows import MatchEntry, SeatRow, TableRow, now


def deal_code(row: TableRow) -> str | None:
    """The code of a table's deal, once the deal is over: during play the seed would tell every
    hidden card to whoever decodes it, so the code waits for the end (secrets stay secret)."""
    if row.status != "over":
        return None
    return encode(row.game, row.players, row.options, row.seed)


MATCH_PAUSE = 8.0  # seconds the standings show before the next deal starts (scaled like clocks)


def start_match(game: str, seed: int, deals: int, target: int) -> tuple[MatchEntry, int]:
    """A new match's JSON and the seed of its first deal; ``ValueError`` for a bad length or a
    game without match play."""
    if game not in match_games():
        raise ValueError(f"match play is for {', '.join(match_games())}, not {game}")
    number, goal = check_length(deals, target)
    return {"seed": seed, "deal": 0, "deals": number, "target": goal, "scores": []}, deal_seed(seed, 0)


def booked(row: TableRow) -> list[list[int]]:
    """The match's scores with this table's deal booked once it is over."""
    info = row.match
    assert info is not None, "a deal of a match"
    scores = [list(s) for s in info["scores"]]
    if row.status == "over" and row.result is not None:
        scores.append(points_by_player(row.result, info["deal"], row.players))
    return scores


def match_state(row: TableRow) -> MatchState | None:
    """What the page shows of a match: which deal, the standings by name, whether it is over."""
    info = row.match
    if info is None:  # a single game
        return None
    n, deal = row.players, info["deal"]
    scores = booked(row)
    names = [row.seats[seat_in_deal(p, deal, n)].name for p in range(n)]
    standings = [Standing(**s, name=names[s["player"]], seat=seat_in_deal(s["player"], deal, n))
                 for s in standings_of(scores, n)]  # fmt: skip
    return MatchState(
        deal=deal + 1,
        deals=info["deals"],
        target=info["target"],
        leader=names[player_in_deal(0, deal, n)],
        booked=len(scores),
        standings=standings,
        over=row.status == "over" and ends_after(scores, info["deals"], info["target"]),
        pause=MATCH_PAUSE,
    )


def next_deal_row(old: TableRow, new_id: str) -> TableRow:
    """The table of the match's next deal: the same people, each one seat on, a derived seed."""
    info = old.match
    assert info is not None, "a deal of a match"
    deal = info["deal"] + 1
    game = mauseloch.new_game(old.game, players=old.players, seed=deal_seed(info["seed"], deal), options=old.options)
    record = game.record()
    n = old.players
    seats = sorted(
        (SeatRow(seat=(s.seat - 1) % n, kind=s.kind, name=s.name, bot=s.bot, token_hash=s.token_hash, gone=s.gone)
         for s in old.seats),
        key=lambda s: s.seat,
    )  # fmt: skip
    return TableRow(
        id=new_id, game=old.game, title=old.title, players=n, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), seats=seats, clock=old.clock, public=old.public,
        invite_hash=old.invite_hash,
        match={**info, "deal": deal, "scores": booked(old), "tables": [*info.get("tables", []), old.id]},
    )  # fmt: skip


def rematch_match(old: TableRow) -> tuple[MatchEntry | None, int | None]:
    """The match a finished table's rematch plays, and the seed of its first deal: after a match,
    a new match of the same length (deals and target) from a new seed; after a single game, none
    (``(None, None)``: a single game again, from a new seed)."""
    info = old.match
    if info is None:
        return None, None
    return start_match(old.game, check_seed(None), info["deals"], info["target"])


def rematch_seat(old: TableRow, seat: int) -> int:
    """Where whoever holds ``seat`` of a finished table sits at its rematch: the same seat after a
    single game; after a match, the seat of its first deal (everyone's place in the match), so the
    new match starts as the old one did: the same person leads and names the table, and every bot
    keeps its number."""
    if old.match is None:
        return seat
    return player_in_deal(seat, old.match["deal"], old.players)


def rematch_row(old: TableRow, new_id: str, votes: set[int]) -> TableRow:
    """The table of a finished table's rematch: the same people (names, bots, seat tokens; a person
    who did not vote counts as gone) at :func:`rematch_seat`, a new deal of the same game, options
    and clock; after a match, a new match of the same length (:func:`rematch_match`)."""
    match, seed = rematch_match(old)
    record = mauseloch.new_game(old.game, players=old.players, seed=seed, options=old.options).record()
    seats = sorted(
        (SeatRow(seat=rematch_seat(old, s.seat), kind=s.kind, name=s.name, bot=s.bot, token_hash=s.token_hash,
                 gone=s.gone or (s.kind == "human" and s.taken and s.seat not in votes))
         for s in old.seats),
        key=lambda s: s.seat,
    )  # fmt: skip
    return TableRow(
        id=new_id, game=old.game, title=old.title, players=old.players, options=record["options"],
        seed=record["seed"], deck=record["deck"], status="playing", created=now(), seats=seats, clock=old.clock,
        public=old.public, invite_hash=old.invite_hash, match=match,
    )  # fmt: skip


def following_row(old: TableRow, new_id: str, votes: set[int]) -> TableRow:
    """The table that follows a finished one, as every runner deals it (the server's lobby and the
    offline table): a match's next deal while the match goes on, else the rematch everyone still
    there (``votes``) agreed to."""
    state = match_state(old)
    if state is not None and not state.over:
        return next_deal_row(old, new_id)
    return rematch_row(old, new_id, votes)


def family_setup(game: str, players: int, req: CreateTable) -> tuple[int | None, OptionDict, MatchEntry | None]:
    """A new table's seed, options and match from the create form: a deal code names the seed
    and options (and must fit the game and the seats); ``deals``/``target`` make it a match.
    ``ValueError`` says what does not fit."""
    seed: int | None = None
    options: OptionDict = dict(req.options)
    if req.deal:
        named = decode(req.deal)
        if named.game != game:
            raise ValueError(f"the deal code {req.deal.strip()} is for {named.game}, not {game}")
        if named.players != players:
            raise ValueError(f"the deal code {req.deal.strip()} is for {named.players} players, not {players}")
        seed, options = named.seed, named.options
    if req.deals == 1 and req.target == 0:
        return seed, options, None
    match, first = start_match(game, check_seed(seed), req.deals, req.target)
    return first, options, match
