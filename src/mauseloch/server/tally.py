"""A room's running tally per game, from its finished tables (pure: values in, values out).

A table's seat belongs to the member whose seat token it holds (rematches and a match's later
deals keep every seat's token), so the tally follows people, not seat numbers or names.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from mauseloch.core.match import ends_after, points_by_player, seat_in_deal, standings_of
from mauseloch.server.bodies import GameTally

LAST_RESULTS = 30  # results per game the room page lists


class Finished(Protocol):
    """What the tally reads of a room's table (storage/rooms.py's RoomTable)."""

    id: str
    game: str
    status: str
    created: dt.datetime
    finished: dt.datetime | None
    result: Any
    match: Any
    seats: list[tuple[str, str | None]]


def who(seat: tuple[str, str | None], members: Mapping[str, str]) -> str:
    name, token_hash = seat
    return members.get(token_hash or "", f"seat:{name}")


def game_winners(t: Finished) -> list[int]:
    """The seats that won a finished deal: rank 1 of its result."""
    ranks = (t.result or {}).get("ranks") or []
    return [seat for seat, rank in enumerate(ranks) if rank == 1]


def match_winners(t: Finished) -> list[int] | None:
    """The seats that won the match this table's deal ends (None: no match ends here)."""
    info = t.match
    if info is None or t.result is None or "points" not in t.result:
        return None
    n = len(t.seats)
    scores = [*info["scores"], points_by_player(t.result, info["deal"], n)]
    if not ends_after(scores, info["deals"], info["target"]):
        return None
    return [seat_in_deal(s["player"], info["deal"], n) for s in standings_of(scores, n) if s["rank"] == 1]


def tally(tables: Sequence[Finished], members: Mapping[str, str], now: dt.datetime) -> dict[str, GameTally]:
    """Per game: games and matches played, wins per member, the last results and who leads this
    calendar month (UTC). ``members``: seat token hash -> member id."""
    out: dict[str, GameTally] = {}
    month: dict[str, dict[str, int]] = {}
    for t in sorted(tables, key=lambda t: (t.finished or t.created, t.id)):
        if t.status != "over" or t.result is None:
            continue
        g = out.setdefault(t.game, {"games": 0, "matches": 0, "wins": {}, "match_wins": {}, "last": [], "month": None})
        g["games"] += 1
        winners = [who(t.seats[s], members) for s in game_winners(t) if s < len(t.seats)]
        for w in winners:
            g["wins"][w] = g["wins"].get(w, 0) + 1
        when = t.finished or t.created
        if (when.year, when.month) == (now.year, now.month):
            this_month = month.setdefault(t.game, {})
            for w in winners:
                this_month[w] = this_month.get(w, 0) + 1
        ended = match_winners(t)
        if ended is not None:
            g["matches"] += 1
            winners = [who(t.seats[s], members) for s in ended]
            for w in winners:
                g["match_wins"][w] = g["match_wins"].get(w, 0) + 1
        g["last"].insert(
            0, {"table": t.id, "finished": when.isoformat(), "winners": winners, "match": ended is not None}
        )
        del g["last"][LAST_RESULTS:]
    for game, wins in month.items():
        ranked = sorted(wins.items(), key=lambda kv: (-kv[1], kv[0]))
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            out[game]["month"] = {
                "leader": ranked[0][0],
                "wins": ranked[0][1],
                "next": ranked[1][1] if len(ranked) > 1 else 0,
            }
    return out
