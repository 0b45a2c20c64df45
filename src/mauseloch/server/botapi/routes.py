"""The Bot API's routes (docs/bot-api.md): NDJSON streams and a few POSTs, each with a bot token.

Every call carries ``Authorization: Bearer TOKEN``; a bad or revoked token is answered 401. A bot's
game stream is one more connection of the table (``TableHandle.attach``): it gets exactly the
messages a page of that seat gets, one JSON object a line. A bot's move goes to
``TableHandle.apply`` like a person's, so the engine and the table decide and refuse as for anyone,
with the protocol's error codes, and a refused move changes nothing.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from mauseloch.extras import needs
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import (
    ONLINE_BOT,
    Accepted,
    BotsOnline,
    BotTable,
    Challenges,
    ChallengeSeat,
    CreateTable,
    Done,
    ErrorBody,
    LadderEntered,
    LadderEntry,
    Ladders,
    LadderSeat,
    MoveTaken,
    SeatChanged,
    SeatSpec,
    decode_body,
    error_body,
)
from mauseloch.server.botapi import ladder
from mauseloch.server.botapi.events import BotEvent, GameFinish, GameStart
from mauseloch.server.botapi.online import Online, OnlineBots, put_seat
from mauseloch.server.botapi.tokens import BotTokens
from mauseloch.server.clock import wall
from mauseloch.server.handle import TableHandle
from mauseloch.server.hub import Connection
from mauseloch.server.limits import Guard, Refused, refusal_response
from mauseloch.server.lobby import Lobby, hash_token, web_bots
from mauseloch.server.match import match_state
from mauseloch.server.protocol import MAX_REACTION_MS, ErrorCode, ProtocolError, encode
from mauseloch.server.session import TableSession
from mauseloch.server.storage.rows import SeatRow
from mauseloch.server.table.commands import Reseated

with needs("web", __name__):
    from starlette.requests import Request
    from starlette.responses import FileResponse, Response, StreamingResponse
    from starlette.routing import BaseRoute, Route

KEEP_ALIVE = 5.0  # seconds between two empty lines on a quiet stream
MATCH_WAIT = 120.0  # seconds a finished deal of a match is watched for its next deal
LIVE = ("waiting", "playing")
NDJSON = "application/x-ndjson"
MAX_BODY = 64 * 1024  # a bot's request body (a move, a challenge) is far smaller


class BotMove(msgspec.Struct, forbid_unknown_fields=True):
    move: str
    version: int


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def online_of(request: Request) -> OnlineBots:
    online: OnlineBots = request.app.state.online
    return online


def tokens_of(request: Request) -> BotTokens:
    tokens: BotTokens | None = getattr(request.app.state, "bot_tokens", None)
    if tokens is None:
        tokens = request.app.state.bot_tokens = BotTokens(request.app.state.store)
    return tokens


class Unauthorized(Exception):
    pass


async def bot_name(request: Request) -> str:
    """The bot the request's bearer token opens; :class:`Unauthorized` for none."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send Authorization: Bearer <bot token>")
    tokens = tokens_of(request)
    name = tokens.known(token.strip()) or await tokens.store.call(tokens.check, token.strip())
    if name is None:
        raise Unauthorized("this bot token is unknown or revoked")
    return name


def unauthorized(message: str) -> Response:
    return JSON(ErrorBody(message, ErrorCode.BAD_TOKEN), status_code=401, headers={"WWW-Authenticate": "Bearer"})


async def body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"body over the {MAX_BODY}-byte limit", 413)
    return await request.body()


def answered(handler: Any) -> Any:
    """A route whose refusals are answered here: 401 for a token, 429 with ``Retry-After`` over a
    limit, the protocol's error body for everything the table or the engine refused."""

    async def route(request: Request) -> Response:
        try:
            response: Response = await handler(request)
            return response
        except Unauthorized as exc:
            return unauthorized(str(exc))
        except Refused as exc:
            guard: Guard = request.app.state.guard
            await guard.slow_down(exc)  # a flood waits for its refusals, as the lobby's does
            refusal: Response = refusal_response(exc)
            return refusal
        except ProtocolError as exc:
            return JSON(error_body(exc), status_code=exc.status)

    route.__name__ = handler.__name__
    route.__doc__ = handler.__doc__
    return route


def line(event: BotEvent) -> str:
    return encode(event) + "\n"


def seat_of_bot(table: TableHandle, name: str) -> int:
    """The seat ``name`` plays at ``table`` (accepted); refused when it has none there."""
    for s in table.row.seats:
        if s.kind == ONLINE_BOT and s.bot == name and s.taken:
            return s.seat
    raise ProtocolError(ErrorCode.NOT_SEATED, "this bot has no seat at this table", 403)


# -- the event stream ------------------------------------------------------------------------
async def stream(request: Request) -> Response:
    """``GET /api/bot/stream``: the bot's challenges and the starts and ends of its games."""
    name = await bot_name(request)
    online = online_of(request)
    lobby = lobby_of(request)
    bot = online.opened(name)
    queue = online.listen(bot)
    for table_id in sorted(bot.games):  # a bot that reconnects learns where it plays
        table = lobby.tables.get(table_id)
        if table is not None and table.status in LIVE:
            queue.put_nowait(GameStart(table_id, seat_of_bot(table, name)))
        else:
            bot.games.discard(table_id)
            queue.put_nowait(GameFinish(table_id))
    tokens = tokens_of(request)
    token = request.headers["authorization"].partition(" ")[2].strip()

    async def lines() -> AsyncIterator[str]:
        try:
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                except TimeoutError:
                    if await tokens.store.call(tokens.check, token) != name:
                        return  # revoked meanwhile: the stream ends
                    yield "\n"
                    continue
                if event is None:
                    return
                yield line(event)
        finally:
            online.unlisten(bot, queue)
            online.closed(bot)

    return StreamingResponse(lines(), media_type=NDJSON, headers={"Cache-Control": "no-store"})


# -- challenges --------------------------------------------------------------------------------
async def challenge(request: Request) -> Response:
    """``POST /api/bot/challenge``: the bot creates a table (the lobby's body, ``POST
    /api/tables``) with itself in one ``online-bot`` seat; every other online-bot seat is
    challenged, every human seat is open for people to join."""
    name = await bot_name(request)
    req = decode_body(await body(request), CreateTable)
    lobby = lobby_of(request)
    guard: Guard = request.app.state.guard
    # the caps on new and waiting tables hold for the bot (every token of its name) and for the
    # address, as for the lobby's POST /api/tables; counted on every process
    claims: list[tuple[str, str | None]] = []
    try:
        for counted_as, who in ((f"bot:{name}", "this bot"), (guard.address(request.scope), "this address")):
            claims.append((counted_as, guard.check_create(counted_as, lobby.waiting, who)))
        created = await lobby.create(req, bot=name)
    except BaseException:
        for counted_as, claim in claims:
            guard.abandoned(counted_as, claim)
        raise
    table = created.table
    for counted_as, claim in claims:
        guard.created(counted_as, claim, table.id, waiting=table.status == "waiting")
    online_of(request).get(name).games.add(table.id)
    online_of(request).tell(name, GameStart(table.id, created.seat))
    return JSON(BotTable(table.id, created.seat, table.status, created.invite), headers={"Cache-Control": "no-store"})


async def accept(request: Request) -> Response:
    """``POST /api/bot/challenge/{id}/accept``: the bot takes its seat; the table starts once every
    seat is taken."""
    name = await bot_name(request)
    online = online_of(request)
    lobby = lobby_of(request)
    ch = online.answer(name, request.path_params["challenge_id"])
    ch.state = "accepted"  # at once: an accept sent twice is answered 409 the second time
    table = await lobby.find(ch.table)
    if table is None or table.status != "waiting":
        ch.state = "unanswered"
        raise ProtocolError(ErrorCode.TAKEN, "this table is not waiting for players any more", 409)
    seat = table.row.seats[ch.seat]
    digest = hash_token(secrets.token_urlsafe(24))  # the seat is taken; the bot's token opens it
    try:
        await table.write(lobby.store.set_token, table.id, ch.seat, digest)
    except BaseException:
        ch.state = "open"  # not stored: the challenge still waits for its answer
        raise
    seat.token_hash = digest
    if all(s.taken for s in table.row.seats) and table.row.status == "waiting":
        table.row.status = "playing"  # at once, as a person's join does
        await table.write(lobby.store.set_status, table.id, "playing")
    table.seat_taken(ch.seat)
    online.get(name).games.add(table.id)
    online.tell(name, GameStart(table.id, ch.seat))
    return JSON(Accepted(ok=True, table=table.id, seat=ch.seat))


async def decline(request: Request) -> Response:
    """``POST /api/bot/challenge/{id}/decline``: the seat stays free; the table says so."""
    name = await bot_name(request)
    ch = online_of(request).answer(name, request.path_params["challenge_id"])
    ch.state = "declined"
    return JSON(Done())


def cookie_seat(request: Request, table: TableHandle) -> int | None:
    """The seat this browser's seat cookie (``ml_<table>``) opens at ``table``, if any."""
    seat_text, _, token = request.cookies.get(f"ml_{table.id}", "").partition(":")
    if token and seat_text.isdigit() and int(seat_text) < table.row.players:
        return Lobby.check_token(table, int(seat_text), token)
    return None


async def table_challenges(request: Request) -> Response:
    """``GET /api/tables/{table_id}/challenges``: each challenged seat's bot and its answer
    (``open``, ``accepted``, ``declined``, ``unanswered``); ``creator``: whether this browser
    holds the creator's seat (it may put another kind in a declined or unanswered seat: a person,
    one of the built-in ``bots`` or one of the ``online`` bots not at the table)."""
    online = online_of(request)
    table_id = request.path_params["table_id"]
    found = online.of_table(table_id)
    listed = [ChallengeSeat(c.id, c.seat, c.bot, c.state) for c in sorted(found, key=lambda c: c.seat)]
    table = await lobby_of(request).find(table_id) if found else None
    if table is not None and table.status == "waiting":
        mine = cookie_seat(request, table)
        if mine is not None and online.creators.get(table_id) == mine:
            seated = {s.bot for s in table.row.seats if s.kind == ONLINE_BOT}
            offered = [b for b in online.online() if b not in seated]
            return JSON(
                Challenges(listed, creator=True, bots=web_bots(table.row.game), online=offered),
                headers={"Cache-Control": "no-store"},
            )
    return JSON(Challenges(listed, creator=False), headers={"Cache-Control": "no-store"})


async def change_seat(request: Request) -> Response:
    """``POST /api/tables/{table_id}/seats/{seat}`` with a seat of the lobby's form (``{"kind":
    "human"}``, ``{"kind": "bot", "bot": LEVEL}``, ``{"kind": "online-bot", "name": BOT}``): the
    table's creator (their seat cookie) puts another kind in a seat whose bot declined its
    challenge or did not answer it. Refused otherwise, and then nothing changes."""
    req = decode_body(await body(request), SeatSpec)
    lobby = lobby_of(request)
    online = online_of(request)
    table = await lobby.find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    seat_text = request.path_params["seat"]
    if not seat_text.isdigit() or int(seat_text) >= table.row.players:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"this table has no seat {seat_text}")
    index = int(seat_text)
    mine = cookie_seat(request, table)
    if mine is None or online.creators.get(table.id) != mine:
        raise ProtocolError(ErrorCode.NOT_SEATED, "only the table's creator (their seat) may change a seat", 403)
    if table.status != "waiting":
        raise ProtocolError(ErrorCode.TAKEN, "this table is not waiting for players any more", 409)
    online.replaceable(table.id, index)
    old = table.row.seats[index]
    if old.kind != ONLINE_BOT or old.taken:
        raise ProtocolError(ErrorCode.TAKEN, f"seat {index} is taken", 409)
    if not isinstance(table, TableSession):
        # its seats' players are decided by the process that runs it: a new table is the way
        raise ProtocolError(ErrorCode.TAKEN, "this table runs on another server process: create a new table", 409)
    if req.kind == "human":
        if req.bot is not None or req.name is not None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {index}: a human seat has no bot")
        seat = SeatRow(seat=index, kind="human", name=f"Player {index + 1}")
    elif req.kind == "bot":
        level = (req.bot or "").strip().lower()
        kinds = web_bots(table.row.game)
        if level not in kinds:
            allowed = ", ".join(kinds)
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {index}: unknown bot {req.bot!r}; available: {allowed}")
        seat = SeatRow(seat=index, kind="bot", name=f"{level.capitalize()} bot {index + 1}", bot=level)
    else:
        if req.name in {s.bot for s in table.row.seats if s.kind == ONLINE_BOT}:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a bot takes one seat of a table")
        seat = online.seat(index, req.name)
    await table.write(put_seat, lobby.store, table.id, seat)
    # stored: the table's row and the seat's player follow (the row object the controller reads)
    old.kind, old.name, old.bot = seat.kind, seat.name, seat.bot
    table.run(Reseated(seat=index, now=wall()))  # a free seat: everyone sees it at once
    online.forget_seat(table.id, index)
    by = table.row.seats[mine].name
    if old.kind == ONLINE_BOT:
        online.challenge(table.row, index, by)
    if old.taken:  # a built-in bot: the table starts once every seat is taken
        if all(s.taken for s in table.row.seats):
            table.row.status = "playing"
            await table.write(lobby.store.set_status, table.id, "playing")
        table.seat_taken(index)
    return JSON(SeatChanged(ok=True, seat=index, kind=old.kind, status=table.status))


async def bots_online(request: Request) -> Response:
    """``GET /api/bots/online``: the bots the lobby can seat now."""
    return JSON(BotsOnline(online_of(request).online()), headers={"Cache-Control": "no-store"})


# -- a game ------------------------------------------------------------------------------------
async def game_stream(request: Request) -> Response:
    """``GET /api/bot/game/{table}/stream``: the seat's snapshot, then every message the page of
    that seat gets, then ``{"type": "game_finish"}``."""
    name = await bot_name(request)
    lobby = lobby_of(request)
    online = online_of(request)
    found = await lobby.find(request.path_params["table_id"])
    if found is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    seat = seat_of_bot(found, name)
    bot = online.opened(name)
    conn = Connection(seat=seat)
    table = lobby.hold(found)
    table.attach(conn)
    bot.conns[table.id] = conn  # the latest stream is the one its reactions are measured on
    return StreamingResponse(
        game_lines(lobby, online, bot, table, conn), media_type=NDJSON, headers={"Cache-Control": "no-store"}
    )


class _Over(msgspec.Struct):
    is_over: bool = False


class _Seen(msgspec.Struct):
    view: _Over | None = None


_seen = msgspec.json.Decoder(_Seen)


def game_over(text: str) -> bool:
    """Whether a message for the seat shows the game over (only the field it needs is decoded)."""
    if '"is_over":true' not in text:  # most messages: no decoding at all
        return False
    try:
        seen = _seen.decode(text)
    except msgspec.DecodeError:
        return False
    return seen.view is not None and seen.view.is_over


async def game_lines(
    lobby: Lobby, online: OnlineBots, bot: Online, table: TableHandle, conn: Connection
) -> AsyncIterator[str]:
    finish = line(GameFinish(table.id))
    over = False  # the seat's view said the game is over (a table owned elsewhere: its status here lags)
    try:
        while True:
            try:
                text = await asyncio.wait_for(conn.outbox.get(), KEEP_ALIVE)
            except TimeoutError:
                if over or table.status not in LIVE:
                    break
                yield "\n"
                continue
            if text is None:  # the table closed the connection (a new seat token, a shutdown)
                return
            yield text + "\n"
            over = over or game_over(text)
            if conn.outbox.empty() and (over or table.status not in LIVE):
                break
        yield finish
        bot.games.discard(table.id)
        online.tell(bot.name, GameFinish(table.id))
        if (state := match_state(table.row)) is not None and not state.over:
            task = asyncio.get_running_loop().create_task(next_deal(lobby, online, bot, table))
            online.following.add(task)
            task.add_done_callback(online.following.discard)
    finally:
        # like a page that closed: the seat's grace time runs, then a stand-in plays it
        if lobby.running:
            table.detach(conn)
        else:
            lobby.hub.unsubscribe(table.id, conn)
        conn.close(1000)
        if bot.conns.get(table.id) is conn:
            del bot.conns[table.id]
        lobby.release(table)
        online.closed(bot)


async def next_deal(lobby: Lobby, online: OnlineBots, bot: Online, table: TableHandle) -> None:
    """A match's deal ended; the next one is dealt at a new table once the standings have shown
    (server/match.py): the bot plays on there, so it is told where, as a game that starts."""
    waited = 0.0
    while table.row.next_id is None:
        if waited > MATCH_WAIT or not lobby.running:
            return
        await asyncio.sleep(0.2)
        waited += 0.2
    following = await lobby.find(table.row.next_id)
    if following is None or following.status not in LIVE:
        return
    for s in following.row.seats:
        if s.kind == ONLINE_BOT and s.bot == bot.name and s.taken:
            bot.games.add(following.id)
            online.tell(bot.name, GameStart(following.id, s.seat))


async def move(request: Request) -> Response:
    """``POST /api/bot/game/{table}/move`` with ``{"move": "7H", "version": V}``: the seat's move
    built on version ``V``, down the table's one move path."""
    name = await bot_name(request)
    online = online_of(request)
    online.count_move(online.get(name))
    req = decode_body(await body(request), BotMove)
    table = await lobby_of(request).find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    seat = seat_of_bot(table, name)
    if not 0 < len(req.move) <= 100:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "move must be a non-empty string of at most 100 characters")
    await table.apply(seat, req.move, req.version)
    return JSON(MoveTaken(ok=True, version=table.version))


# -- the ladder --------------------------------------------------------------------------------
async def ladder_page(request: Request) -> Response:
    path = request.app.state.web_dir / "ladder.html"
    return FileResponse(path, headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})


async def api_ladder(request: Request) -> Response:
    """``GET /api/ladder?game=mau-mau&players=2``: that ladder, best first; without a game, the
    ladders there are (each game and its player counts)."""
    store = lobby_of(request).store
    game = request.query_params.get("game")
    players = request.query_params.get("players", "")
    if game is None:
        return JSON(Ladders(await store.call(ladder.counts, store)), headers={"Cache-Control": "no-store"})
    if not players.isdigit() or not 2 <= int(players) <= 16:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "players must be a number of seats")
    answer = await store.call(ladder.ladder, store, game, int(players))
    return JSON(answer, headers={"Cache-Control": "no-store"})


async def table_ladder(request: Request) -> Response:
    """``GET /api/tables/{table_id}/ladder``: whether the table is rated (everyone at it sees so)
    and, for the browser holding a seat there, the ladder name that seat plays for (``entered``)."""
    lobby = lobby_of(request)
    store = lobby.store
    table_id = request.path_params["table_id"]
    rated = await store.call(ladder.is_rated, store, table_id)
    table = await lobby.find(table_id) if rated else None
    seat = cookie_seat(request, table) if table is not None else None
    name = None if seat is None else await store.call(ladder.entered, store, table_id, seat)
    return JSON(LadderSeat(rated=rated, entered=name), headers={"Cache-Control": "private, no-store"})


async def enter_ladder(request: Request) -> Response:
    """``POST /api/tables/{table_id}/ladder`` with ``{"name", "secret"}``: this browser's seat (its
    seat cookie) plays for that ladder name, while the table waits for players (a seat taken by a
    join or a creation came with its name already; once the game starts, the names are fixed).
    The page keeps the secret; no account exists."""
    req = decode_body(await body(request), LadderEntry)
    lobby = lobby_of(request)
    table = await lobby.find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    seat = cookie_seat(request, table)
    if seat is None:
        raise ProtocolError(ErrorCode.NOT_SEATED, "this browser holds no seat at this table", 403)
    if table.status != "waiting":
        raise ProtocolError(ErrorCode.TAKEN, "the game has started: its ladder names were fixed as it started", 409)
    await lobby.store.call(ladder.refused_entry, ladder.enter_person, lobby.store, table.id, seat, req.name, req.secret)
    entrant = await lobby.store.call(ladder.entered, lobby.store, table.id, seat)
    return JSON(LadderEntered(ok=True, entry=f"person:{entrant}"))


class BotReact(msgspec.Struct, forbid_unknown_fields=True):
    move: str
    version: int
    ms: int


class BotClockAnswer(msgspec.Struct, forbid_unknown_fields=True):
    n: int
    t: float


def stream_of(online: OnlineBots, name: str, table: str) -> Connection:
    conn = online.get(name).conns.get(table)
    if conn is None:
        raise ProtocolError(
            ErrorCode.NOT_SEATED, "open this table's game stream first: reactions are measured on it", 409
        )
    return conn


async def react(request: Request) -> Response:
    """``POST /api/bot/game/{table}/react`` with ``{"move", "version", "ms"}``: a reaction in a
    reaction game's window. The referee judges it as a person's, by the link the server measures
    on the bot's game stream (its clock pings) and the moment the claim arrives; the ``ms`` the bot
    claims can only make it slower."""
    name = await bot_name(request)
    online = online_of(request)
    online.count_move(online.get(name))
    req = decode_body(await body(request), BotReact)
    table = await lobby_of(request).find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    seat_of_bot(table, name)
    if not 0 < len(req.move) <= 100 or not 0 <= req.ms <= MAX_REACTION_MS:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a reaction is a move and ms from 0 to 600000")
    await table.react(stream_of(online, name, table.id), req.move, req.version, req.ms)
    return JSON(Done())


async def clock_answer(request: Request) -> Response:
    """``POST /api/bot/game/{table}/clock`` with ``{"n", "t"}``: the answer to the stream's
    ``clock_ping`` ``n``, sent at once with the bot's clock ``t`` in ms."""
    name = await bot_name(request)
    req = decode_body(await body(request), BotClockAnswer)
    table = await lobby_of(request).find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    if not (req.t == req.t and abs(req.t) < 1e15):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "t must be the bot's clock in ms")
    table.clock_answer(stream_of(online_of(request), name, table.id), req.n, req.t)
    return JSON(Done())


def routes() -> list[BaseRoute]:
    """The Bot API's routes, for the application's route list."""
    return [
        Route("/api/bot/stream", answered(stream)),
        Route("/api/bot/challenge", answered(challenge), methods=["POST"]),
        Route("/api/bot/challenge/{challenge_id}/accept", answered(accept), methods=["POST"]),
        Route("/api/bot/challenge/{challenge_id}/decline", answered(decline), methods=["POST"]),
        Route("/api/bot/game/{table_id}/stream", answered(game_stream)),
        Route("/api/bot/game/{table_id}/move", answered(move), methods=["POST"]),
        Route("/api/bot/game/{table_id}/react", answered(react), methods=["POST"]),
        Route("/api/bot/game/{table_id}/clock", answered(clock_answer), methods=["POST"]),
        Route("/api/bots/online", bots_online),
        Route("/api/tables/{table_id}/challenges", table_challenges),
        Route("/api/tables/{table_id}/seats/{seat}", answered(change_seat), methods=["POST"]),
        Route("/ladder", ladder_page),
        Route("/api/ladder", api_ladder),
        Route("/api/tables/{table_id}/ladder", table_ladder, methods=["GET"]),
        Route("/api/tables/{table_id}/ladder", answered(enter_ladder), methods=["POST"]),
    ]
