"""What the lobby lists and a page's header shows of a table, from its stored row (pure).

The table's authority fills in the presence it sees; the proxy of a table owned elsewhere takes
the presence its owner last published, or what the stored row says (:func:`stored_presence`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mauseloch.core.match import player_in_deal
from mauseloch.core.registry import game_info
from mauseloch.core.shapes import JSONObject
from mauseloch.server.match import deal_code, match_state
from mauseloch.server.storage.rows import TableRow

# per seat: its presence ("online", "away", "gone", "open", "bot") and whether a stand-in plays it
SeatPresence = tuple[str, bool]


def table_summary(row: TableRow, version: int, presence: Sequence[SeatPresence]) -> JSONObject:
    deal = row.match["deal"] if row.match else 0
    return {
        "id": row.id,
        "game": row.game,
        "title": row.title,
        "players": row.players,
        "options": row.options,
        "clock": row.clock,
        "seats": [
            {
                "seat": s.seat,
                # who sits here through a match's deals (one seat on each deal): a bot is named
                # by this, so it keeps its name as the seats rotate
                "player": player_in_deal(s.seat, deal, row.players),
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "taken": s.taken,
                "presence": here,
                "stand_in": stand_in,
            }
            for s, (here, stand_in) in zip(row.seats, presence, strict=True)
        ],
        "status": row.status,
        "version": version,
        "created": row.created.isoformat().replace("+00:00", "Z"),
        "next": row.next_id,
        "public": row.public,  # listed in the lobby (private tables are joined by invite only)
        "deal_code": deal_code(row),  # family play: "the same deal again", once it is over
        "match": match_state(row),
        # what decides the ranking, in order, for the end screen to explain: the result's
        # figure and whether fewer or more is better (each game declares it: GameInfo.ranked_by)
        "ranking": [{"figure": f, "better": b} for f, b in game_info(row.game).ranked_by],
    }


def stored_presence(row: TableRow) -> list[SeatPresence]:
    """Each seat's presence as the store has it, nobody connected (as a session just loaded
    counts them): a taken seat is away, or gone, and a stand-in plays for it once it is gone
    and no grace time runs."""
    graced = {d.get("seat") for d in row.deadlines if d.get("kind") == "grace"}
    out: list[SeatPresence] = []
    for s in row.seats:
        if s.kind == "bot":
            out.append(("bot", False))
        elif not s.taken:
            out.append(("open", False))
        else:
            out.append(("gone" if s.gone else "away", s.gone and s.seat not in graced))
    return out
