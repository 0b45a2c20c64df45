"""What the lobby lists and a page's header shows of a table, from its stored row (pure).

The table's authority fills in the presence it sees; the proxy of a table owned elsewhere takes
the presence its owner last published, or what the stored row says (:func:`stored_presence`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mauseloch.core.match import player_in_deal
from mauseloch.core.registry import game_info
from mauseloch.server.match import deal_code, match_state
from mauseloch.server.protocol import Ranking, SeatSummary, TableSummary
from mauseloch.server.storage.rows import TableRow

# per seat: its presence ("online", "away", "gone", "open", "bot") and whether a stand-in plays it
SeatPresence = tuple[str, bool]


def table_summary(
    row: TableRow,
    version: int,
    presence: Sequence[SeatPresence],
    to_move: int | None = None,
    away: Mapping[int, float] | None = None,
) -> TableSummary:
    """``away``: the seats away at a table over days, each with when it is back (the table waits
    for them: "Meine Tische" says so)."""
    away = away or {}
    deal = row.match["deal"] if row.match else 0
    # what decides the ranking, in order, for the end screen to explain: the result's figure and
    # whether fewer or more is better (each game declares it: GameInfo.ranked_by)
    ranked_by = game_info(row.game).ranked_by
    return TableSummary(
        id=row.id,
        game=row.game,
        title=row.title,
        players=row.players,
        options=row.options,
        clock=row.clock,
        seats=[
            SeatSummary(
                s.seat,
                player_in_deal(s.seat, deal, row.players),
                s.kind,
                s.name,
                s.bot,
                s.taken,
                here,
                stand_in,
                away.get(s.seat) if row.status == "playing" else None,
            )
            for s, (here, stand_in) in zip(row.seats, presence, strict=True)
        ],
        status=row.status,
        version=version,
        created=row.created.isoformat().replace("+00:00", "Z"),
        next=row.next_id,
        public=row.public,
        deal_code=deal_code(row),
        match=match_state(row),
        ranking=[Ranking(f, b) for f, b in ranked_by],
        to_move=to_move if row.status == "playing" else None,
    )


def stored_away(row: TableRow) -> dict[int, float]:
    """The seats away as the store has it, each with when it is back."""
    away = (d for d in row.deadlines if d.get("kind") == "away")
    return {int(seat): d["due"] for d in away if (seat := d.get("seat")) is not None}


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
