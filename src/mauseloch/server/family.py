"""The family features of the web tables: the rules dialog's text, deal codes and match play.

One home for them on the server, so the shared modules (app, lobby, session) only call in here.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mauseloch.core.dealcode import encode
from mauseloch.core.match import deal_seed
from mauseloch.core.record import RECORD_KEYS
from mauseloch.core.shapes import JSONObject
from mauseloch.extras import needs
from mauseloch.locale import LANGS, Lang
from mauseloch.locale.rules import rules_html
from mauseloch.server.protocol import ErrorCode
from mauseloch.server.table.records import record_of

with needs("web", __name__):
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response


async def api_rules(request: Request) -> Response:
    """``GET /api/rules/{game}?lang=de``: the game's rules page (docs/rules) as HTML."""
    game = request.path_params["game"]
    asked = request.query_params.get("lang", "en")
    lang: Lang = next((code for code in LANGS if code == asked), "en")
    try:
        html = rules_html(game, lang)
    except ValueError as exc:
        return JSONResponse({"error": str(exc), "code": ErrorCode.NOT_FOUND}, status_code=404)
    return JSONResponse({"game": game, "lang": lang, "html": html}, headers={"Cache-Control": "max-age=300"})


def deal_code(row: Any) -> str | None:
    """The code of a table's deal, once the deal is over: during play the seed would tell every
    hidden card to whoever decodes it, so the code waits for the end (secrets stay secret)."""
    if row.status != "over":
        return None
    return encode(row.game, row.players, row.options, row.seed)


# -------------------------------------------------------------------------- match play
# A web match is a chain of tables, one per deal (like a rematch): each table row keeps the
# match as JSON — {"seed", "deal" (0-based), "deals", "target", "scores" (booked deals, points per
# player)} — and the next table is dealt from deal_seed(seed, deal + 1) with every person one
# seat on, so the lead rotates (mauseloch.core.match has the arithmetic; MM-1: seat 0 leads).
MATCH_PAUSE = 8.0  # seconds the standings show before the next deal starts (scaled like clocks)


def start_match(game: str, seed: int, deals: int, target: int) -> tuple[JSONObject, int]:
    """A new match's JSON and the seed of its first deal; ``ValueError`` for a bad length or a
    game without match play."""
    from mauseloch.core.match import check_length, match_games

    if game not in match_games():
        raise ValueError(f"match play is for {', '.join(match_games())}, not {game}")
    number, goal = check_length(deals, target)
    return {"seed": seed, "deal": 0, "deals": number, "target": goal, "scores": []}, deal_seed(seed, 0)


def booked(row: Any) -> list[list[int]]:
    """The match's scores with this table's deal booked once it is over."""
    from mauseloch.core.match import points_by_player

    info = row.match
    scores = [list(s) for s in info["scores"]]
    if row.status == "over" and row.result is not None:
        scores.append(points_by_player(row.result, info["deal"], row.players))
    return scores


def match_state(row: Any) -> JSONObject | None:
    """What the page shows of a match: which deal, the standings by name, whether it is over."""
    info = row.match
    if info is None:  # a single game: asked at every move, so before the import below
        return None
    from mauseloch.core.match import ends_after, player_in_deal, seat_in_deal, standings_of

    n, deal = row.players, info["deal"]
    scores = booked(row)
    names = [row.seats[seat_in_deal(p, deal, n)].name for p in range(n)]
    standings = [s | {"name": names[s["player"]], "seat": seat_in_deal(s["player"], deal, n)}
                 for s in standings_of(scores, n)]  # fmt: skip
    return {
        "deal": deal + 1,
        "deals": info["deals"],
        "target": info["target"],
        "leader": names[player_in_deal(0, deal, n)],
        "booked": len(scores),
        "standings": standings,
        "over": row.status == "over" and ends_after(scores, info["deals"], info["target"]),
        "pause": MATCH_PAUSE,
    }


def next_deal_row(old: Any, new_id: str) -> Any:
    """The table of the match's next deal: the same people, each one seat on, a derived seed."""
    import mauseloch
    from mauseloch.server.storage.rows import SeatRow, TableRow, now

    info = old.match
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


def rematch_match(old: Any) -> tuple[JSONObject | None, int | None]:
    """The match a finished table's rematch plays, and the seed of its first deal: after a match,
    a new match of the same length (deals and target) from a new seed; after a single game, none
    (``(None, None)``: a single game again, from a new seed)."""
    from mauseloch.core.engine import check_seed

    info = old.match
    if info is None:
        return None, None
    return start_match(old.game, check_seed(None), info["deals"], info["target"])


def rematch_seat(old: Any, seat: int) -> int:
    """Where whoever holds ``seat`` of a finished table sits at its rematch: the same seat after a
    single game; after a match, the seat of its first deal (everyone's place in the match), so the
    new match starts as the old one did: the same person leads and names the table, and every bot
    keeps its number."""
    from mauseloch.core.match import player_in_deal

    if old.match is None:
        return seat
    return player_in_deal(seat, old.match["deal"], old.players)


def deal_ended(session: Any) -> None:
    """A table's deal is over: when it belongs to a match that goes on, deal the next one after
    the standings have shown for a while (the pages follow their seat there)."""
    row = session.row
    state = match_state(row)
    if state is None or state["over"] or session.on_rematch is None:
        return

    def go_on() -> None:
        if session.stopping or row.next_id is not None:
            return
        session.on_rematch(session)  # the lobby deals the match's next table (Lobby.rematch)
        session.publish_live()

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    loop.call_later(MATCH_PAUSE * session.settings.clock_scale, go_on)


async def api_match_record(request: Request) -> Response:
    """``GET /api/tables/{id}/match``: the whole match up to this table as one record."""
    lobby = request.app.state.lobby
    table = await lobby.find(request.path_params["table_id"])
    if table is None or table.row.match is None:
        return JSONResponse({"error": "no match at this table", "code": ErrorCode.NOT_FOUND}, status_code=404)
    if table.row.status != "over":
        return JSONResponse({"error": "this deal is not over yet", "code": ErrorCode.NOT_OVER}, status_code=409)
    name = f"mauseloch-match-{table.id}.json"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    return JSONResponse(await lobby.store.call(match_record, lobby, table.row), headers=headers)


def match_record(lobby: Any, row: Any) -> JSONObject:
    """The whole match as one record (mauseloch.core.match): every deal's table, in order."""
    info = row.match
    rows = [lobby.store.load_table(table_id) for table_id in info.get("tables", [])] + [row]
    return {
        "match": 1, "game": row.game, "players": row.players, "options": row.options, "seed": info["seed"],
        "deals": info["deals"], "target": info["target"],
        "games": [{k: v for k, v in record_of(r).items() if k in RECORD_KEYS} for r in rows if r is not None],
    }  # fmt: skip


def family_setup(game: str, players: int, req: Any) -> tuple[int | None, JSONObject, JSONObject | None]:
    """A new table's seed, options and match from the create form: a deal code names the seed
    and options (and must fit the game and the seats); ``deals``/``target`` make it a match.
    ``ValueError`` says what does not fit."""
    from mauseloch.core.dealcode import decode
    from mauseloch.core.engine import check_seed

    seed: int | None = None
    options: JSONObject = dict(req.options)
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
