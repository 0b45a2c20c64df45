"""The Starlette application: lobby API, pages, WebSocket play and replays (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from mauseloch.extras import needs
from mauseloch.locale import LANGS, Lang, strings_module
from mauseloch.locale.rules import rules_html
from mauseloch.server import logs, offline, warmup
from mauseloch.server.answers import JSON, from_page, read_body, seat_cookie, seat_url
from mauseloch.server.bodies import (
    CreateTable,
    Games,
    Grace,
    Joined,
    JoinTable,
    MyTable,
    NewTable,
    OpenSeat,
    PageLimits,
    RulesPage,
    SeatHeld,
    SeatLink,
    TablesPage,
    Uploaded,
    decode_body,
    error_body,
)
from mauseloch.server.botapi.online import OnlineBots
from mauseloch.server.botapi.routes import routes as bot_api_routes
from mauseloch.server.clock import GRACE_LEFT, GRACE_LOST
from mauseloch.server.errors import error_response
from mauseloch.server.handle import TableHandle
from mauseloch.server.health import healthz, readyz
from mauseloch.server.limits import (
    MAX_RECORD,
    Guard,
    Limits,
    LimitsMiddleware,
    RedisCounters,
    Refused,
    refusal_response,
)
from mauseloch.server.lobby import MAX_TABLE_ID, Lobby, api_my_tables, game_clocks, web_bots, web_games
from mauseloch.server.protocol import ErrorCode, ProtocolError, TableSummary, encode
from mauseloch.server.push import VAPID_SUBJECT
from mauseloch.server.push.routes import routes as push_routes
from mauseloch.server.push.sender import Pusher
from mauseloch.server.push.store import PushStore
from mauseloch.server.push.vapid import server_key
from mauseloch.server.records import match_record, record_of, replay_of
from mauseloch.server.rooms import Rooms, room_routes
from mauseloch.server.security import SecurityMiddleware
from mauseloch.server.session import Settings
from mauseloch.server.storage.rows import TableRow
from mauseloch.server.storage.store import Store
from mauseloch.server.ws import FLOOD_CLOSE, RATE_LIMIT, table_socket

with needs("web", __name__):
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.types import Message, Receive, Scope, Send
    from starlette.websockets import WebSocket

if TYPE_CHECKING:  # prometheus-client: imported only by serve --metrics
    from mauseloch.server.metrics import Metrics

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
__all__ = ["FLOOD_CLOSE", "RATE_LIMIT", "create_app"]

access_log = logging.getLogger("mauseloch.access")  # a line per request at INFO (serve --log-level info)


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def page(request: Request, name: str, cache: str = "no-cache") -> Response:
    path = request.app.state.web_dir / name
    if not path.is_file():
        return PlainTextResponse(f"page {name} is missing from {request.app.state.web_dir}", status_code=404)
    return FileResponse(path, headers={"Cache-Control": cache, "Referrer-Policy": "no-referrer"})


def no_table(request: Request) -> Response:
    return error_response(request, 404, "no such table", "no_table")


async def table_or_404(request: Request) -> TableHandle:
    table = await lobby_of(request).find(request.path_params["table_id"])
    if table is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such table", 404)
    return table


def seat_of_cookie(request: Request, table: TableHandle) -> int | None:
    """The seat this browser already holds at ``table`` (its ``ml_<id>`` cookie), if any."""
    cookie = request.cookies.get(f"ml_{table.id}", "")
    seat_text, _, token = cookie.partition(":")
    if not token or not seat_text.isdigit() or int(seat_text) >= table.row.players:
        return None
    return Lobby.check_token(table, int(seat_text), token)


# -- pages -------------------------------------------------------------------------------
async def strings_js(request: Request) -> Response:
    """The message catalogue the terminal shares, as the module the pages' ``i18n.js`` imports."""
    return Response(strings_module(), media_type="text/javascript; charset=utf-8")


async def lobby_page(request: Request) -> Response:
    return page(request, "lobby.html")


async def table_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    lobby = lobby_of(request)
    table = await lobby.find(table_id)
    if table is None:
        return no_table(request)
    if "token" in request.query_params:
        # The old form of a seat link (its token in the query, so in every access log): not
        # taken any more. Out of the address bar and the history at once; the page says why.
        return RedirectResponse(
            f"/t/{table_id}?refused=bad_token", status_code=303, headers={"Cache-Control": "no-store"}
        )
    old_id = request.query_params.get("rematch")
    if old_id is None:
        # the page of a seat: Back and Forward load it afresh, never a stale copy from a cache
        return page(request, "table.html", "no-store")
    # a rematch or a match's next deal: the same token, into the new table's cookie
    old = await lobby.find(old_id)
    held = seat_of_cookie(request, old) if old is not None and old.row.next_id == table_id else None
    token = request.cookies[f"ml_{old_id}"].partition(":")[2] if held is not None else ""
    # the seat whose token it is there: the same seat at a rematch, one seat on in a match
    seat = Lobby.check_token(table, None, token) if token else None
    response = RedirectResponse(f"/t/{table_id}", status_code=303, headers={"Cache-Control": "no-store"})
    if seat is not None:
        seat_cookie(response, request, table_id, seat, token)
    return response


async def room_page(request: Request) -> Response:
    """A family room's page: what it shows comes from ``GET /api/rooms/{id}``, for members only."""
    return page(request, "room.html", "no-store")


async def replay_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    table = await lobby_of(request).find(table_id)
    if table is None:
        return no_table(request)
    if table.status != "over":
        return RedirectResponse(f"/t/{table_id}", status_code=303)
    return page(request, "replay.html")


# -- lobby API ---------------------------------------------------------------------------
async def api_games(request: Request) -> Response:
    infos = web_games()
    guard: Guard = request.app.state.guard
    return JSON(
        Games(
            games=[i.to_dict() for i in infos],
            bots={i.name: web_bots(i.name) for i in infos},
            clocks={i.name: game_clocks(i.name) for i in infos},
            grace=Grace(left=GRACE_LEFT, lost=GRACE_LOST),
            limits=PageLimits(waiting_minutes=guard.limits.waiting_minutes),
        )
    )


async def api_tables(request: Request) -> Response:
    """One page of the public tables. The lobby asks again every few seconds with the ``ETag`` it
    keeps itself; unchanged, the answer is an empty 304. Live, so never stored by the browser."""
    page_text = request.query_params.get("page", "0")
    page_no = int(page_text) if page_text.isdigit() and len(page_text) < 6 else 0
    tables, more = lobby_of(request).listing(page_no)
    body = encode(TablesPage(tables, page_no, more)).encode()
    etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
    headers = {"ETag": etag, "Cache-Control": "no-store"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


async def api_create(request: Request) -> Response:
    req = decode_body(await read_body(request), CreateTable)
    guard: Guard = request.app.state.guard
    lobby = lobby_of(request)
    address = guard.address(request.scope)

    claim = guard.check_create(address, lobby.waiting)  # its waiting tables counted on every process
    try:
        created = await lobby.create(req)
    except BaseException:
        guard.abandoned(address, claim)
        raise
    table = created.table
    guard.created(address, claim, table.id, waiting=table.status == "waiting")
    invite = f"/t/{table.id}" if created.invite is None else f"/t/{table.id}#invite={created.invite}"
    response = JSON(
        NewTable(
            table=table.id,
            seat=created.seat,
            token=created.token,
            url=seat_url(table.id, created.seat, created.token),
            invite=invite,
            invite_secret=created.invite,
            public=table.row.public,
        )
    )
    from_page(request, response, table.id, created.seat, created.token)
    return response


class Upload(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/records``: a game played offline (docs/offline.md), by its record."""

    record: dict[str, object]
    name: str | None = None


async def api_upload(request: Request) -> Response:
    """A finished game played offline, sent by its record: replayed here, stored as a finished
    table whose seat 0 this browser holds (so "My tables" lists it, with its replay), counted
    against the address's new tables like any other; refused with the engine's reason when the
    record does not replay."""
    req = decode_body(await read_body(request, MAX_RECORD), Upload, MAX_RECORD)
    guard: Guard = request.app.state.guard
    lobby = lobby_of(request)
    address = guard.address(request.scope)
    claim = guard.check_create(address, lobby.waiting)
    try:
        table_id, token = await lobby.upload(req.record, req.name)
    except BaseException:
        guard.abandoned(address, claim)
        raise
    guard.created(address, claim, table_id, waiting=False)
    response = JSON(Uploaded(table=table_id, replay=f"/replay/{table_id}"))
    from_page(request, response, table_id, 0, token)
    return response


async def api_table(request: Request) -> Response:
    """The table's summary, and ``you``: the seat this browser's cookie opens (None: none)."""
    table = await table_or_404(request)
    return JSON(MyTable(**msgspec.structs.asdict(table.summary()), you=seat_of_cookie(request, table)))


async def api_join(request: Request) -> Response:
    req = decode_body(await read_body(request), JoinTable)
    table = await table_or_404(request)
    held = seat_of_cookie(request, table)
    if held is not None:  # one browser never takes a second seat of one table by accident
        raise ProtocolError(ErrorCode.TAKEN, f"this browser already holds seat {held + 1} of this table", 409)
    seat, token = await lobby_of(request).join(table, req.name, req.seat, req.invite, req.ladder)
    response = JSON(Joined(table=table.id, seat=seat, token=token, url=seat_url(table.id, seat, token)))
    from_page(request, response, table.id, seat, token)
    return response


async def api_open_seat(request: Request) -> Response:
    """A seat link opened in this browser: the seat and token the page read after its ``#`` go
    into the seat's HttpOnly cookie (a bad pair is refused, and nothing is kept). A program
    (no ``Origin``) only learns whether the pair opens the seat."""
    req = decode_body(await read_body(request), OpenSeat)
    table = await table_or_404(request)
    seat = Lobby.check_token(table, req.seat, req.token) if req.seat < table.row.players else None
    if seat is None:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this seat link does not open that seat (any more)", 403)
    response = JSON(SeatHeld(table=table.id, seat=seat))
    from_page(request, response, table.id, seat, req.token)  # as every seat cookie: for our pages only
    return response


async def held_seat(request: Request) -> tuple[TableHandle, int]:
    table = await table_or_404(request)
    seat = seat_of_cookie(request, table)
    if seat is None:
        raise ProtocolError(ErrorCode.NOT_SEATED, "this browser holds no seat at this table", 403)
    return table, seat


async def api_renew(request: Request) -> Response:
    """Sign this seat out elsewhere: a new token in this browser's cookie; every connection and
    every copy of the old seat link stops working."""
    await read_body(request)
    table, seat = await held_seat(request)
    token = await lobby_of(request).renew(table, seat)
    response = JSON(SeatHeld(table=table.id, seat=seat))
    seat_cookie(response, request, table.id, seat, token)
    return response


async def api_seat_link(request: Request) -> Response:
    """The seat link of this browser's seat, to open the seat on another device (asked for on
    purpose: a POST, so only our own pages can ask)."""
    await read_body(request)
    table, seat = await held_seat(request)
    cookie = request.cookies.get(f"ml_{table.id}", "")
    return JSON(SeatLink(table=table.id, seat=seat, url=seat_url(table.id, seat, cookie.partition(":")[2])))


async def finished(request: Request) -> TableHandle:
    table = await table_or_404(request)
    if table.status != "over":
        raise ProtocolError(ErrorCode.NOT_OVER, "the game is not finished yet", 409)
    return table


async def api_replay(request: Request) -> Response:
    table = await finished(request)
    return JSON(replay_of(table.row))


async def api_record(request: Request) -> Response:
    table = await finished(request)
    filename = f"mauseloch-{table.row.game}-{table.id}.json"
    return JSON(record_of(table.row), headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def api_match_record(request: Request) -> Response:
    """``GET /api/tables/{id}/match``: the whole match up to this table as one record."""
    table = await table_or_404(request)
    match = table.row.match
    if match is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "no match at this table", 404)
    if table.status != "over":
        raise ProtocolError(ErrorCode.NOT_OVER, "this deal is not over yet", 409)
    store = request.app.state.lobby.store
    earlier = await store.call(store.load_tables, match.get("tables", []))
    rows = [r for r in (earlier.get(t) for t in match.get("tables", [])) if isinstance(r, TableRow)]
    filename = f"mauseloch-match-{table.id}.json"
    return JSON(match_record([*rows, table.row]), headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def api_rules(request: Request) -> Response:
    """``GET /api/rules/{game}?lang=de``: the game's rules page (docs/rules) as HTML."""
    game = request.path_params["game"]
    asked = request.query_params.get("lang", "en")
    lang: Lang = next((code for code in LANGS if code == asked), "en")
    try:
        html = rules_html(game, lang)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.NOT_FOUND, str(exc), 404) from None
    return JSON(RulesPage(game=game, lang=lang, html=html), headers={"Cache-Control": "max-age=300"})


async def protocol_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ProtocolError)
    return JSON(error_body(exc), status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no such path or file, a method a path does not take): a page in
    the site's layout for a browser, JSON for programs."""
    assert isinstance(exc, HTTPException)
    response = error_response(request, exc.status_code, exc.detail)
    response.headers.update(exc.headers or {})
    return response


async def refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    guard: Guard = request.app.state.guard
    await guard.slow_down(exc)  # a flood of table creations waits for its refusals
    response: Response = refusal_response(exc)
    return response


async def handled(request: Request, exc: Exception) -> Response | None:
    """The answer the app's exception handlers give to ``exc`` (None: not one of theirs)."""
    if isinstance(exc, ProtocolError):
        return await protocol_error(request, exc)
    if isinstance(exc, Refused):
        return await refused(request, exc)
    if isinstance(exc, HTTPException):
        return await http_error(request, exc)
    return None


async def short_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
    """The innermost app of :class:`Platform`'s short path: ``scope["endpoint"]`` called as its
    route calls it, its refusals answered by the app's own exception handlers."""
    if scope["type"] == "websocket":
        await table_socket(WebSocket(scope, receive, send))
        return
    request = Request(scope, receive, send)
    try:
        response = await scope["endpoint"](request)
    except Exception as exc:
        answer = await handled(request, exc)
        if answer is None:
            raise  # the security middleware answers it (500) and logs it
        response = answer
    await response(scope, receive, send)


TABLE_PATHS = ("/ws/", "/t/", "/replay/", "/api/tables/", "/api/bot/game/")


def table_of_path(path: str) -> str | None:
    """The table a request's path names (its id after one of :data:`TABLE_PATHS`), if any."""
    for prefix in TABLE_PATHS:
        if path.startswith(prefix):
            table_id = path[len(prefix) :].partition("/")[0]
            return table_id[:MAX_TABLE_ID] or None
    return None


def table_in(path: str, prefix: str, suffix: str = "") -> str | None:
    """The table id in ``path`` when it is ``prefix + id + suffix`` (an id is one path segment)."""
    if not path.startswith(prefix) or not path.endswith(suffix):
        return None
    table_id = path[len(prefix) : len(path) - len(suffix)]
    return table_id if table_id and "/" not in table_id else None


class Platform(Starlette):
    """The app, with a short path for what every game asks for: its table's creation
    (``POST /api/tables``), three joins (``POST /api/tables/{id}/join``) and four sockets
    (``/ws/{id}``). These go through the same security and limits middleware as every request,
    straight to their endpoint: not through Starlette's error and exception layers, its router
    (which tried every route's pattern in turn) and its per-route wrappers. Measured with
    bench/table_open.py; everything else takes the whole stack."""

    def __init__(self, *args: Any, guard: Guard, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._short = SecurityMiddleware(LimitsMiddleware(short_endpoint, guard=guard))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await super().__call__(scope, receive, send)
            return
        # what every log line on this request's way names (logs.py)
        given = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                given = value.decode("latin-1")
                break
        logs.request_id.set(logs.new_request_id(given))
        logs.table_id.set(table_of_path(scope["path"]))
        if not access_log.isEnabledFor(logging.INFO):
            await self._dispatch(scope, receive, send)
            return
        started = time.perf_counter()
        answer: dict[str, int] = {}

        async def watched(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                answer["status"] = message["status"]
            elif kind == "websocket.accept":
                answer["status"] = 101
            elif kind == "websocket.close":
                answer["close"] = message.get("code", 1000)
            await send(message)

        try:
            await self._dispatch(scope, receive, watched)
        finally:
            # the path alone: a query string may hold what a client should not have put there
            method = scope.get("method", "WS")
            seconds = round(time.perf_counter() - started, 4)
            extra = {"method": method, "path": scope["path"], "seconds": seconds, **answer}
            access_log.info("%s %s %s", method, scope["path"], answer.get("status", "-"), extra=extra)

    async def _dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        short = None if scope.get("root_path") else self.short(scope)
        if short is None:
            await super().__call__(scope, receive, send)
            return
        endpoint, table_id = short
        scope["app"] = self
        scope["endpoint"] = endpoint
        scope["path_params"] = {} if table_id is None else {"table_id": table_id}
        await self._short(scope, receive, send)

    @staticmethod
    def short(scope: Scope) -> tuple[Callable[[Request], Any] | None, str | None] | None:
        """The endpoint (None: the table socket) and table id of a request the short path takes."""
        kind = scope["type"]
        if kind == "lifespan":
            return None
        path = scope["path"]
        if kind == "websocket":
            table_id = table_in(path, "/ws/")
            return None if table_id is None else (None, table_id)
        if kind != "http" or scope["method"] != "POST":
            return None
        if path == "/api/tables":
            return api_create, None
        table_id = table_in(path, "/api/tables/", "/join")
        return None if table_id is None else (api_join, table_id)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    lobby: Lobby = app.state.lobby
    if app.state.freeze_at_start:
        # what the start-up loaded lives as long as the process: out of the collector's passes, as
        # cli.py does with what was loaded before; frozen before the first table, whose objects
        # (and their cycles) must be collected when it ends
        gc.collect()
        gc.freeze()
    lobby.start()
    # The compiled bots' code is made ready once the server serves, in a thread (warmup.py): a
    # restart is back without waiting for it, and a bot that needs it waits for it, not the loop.
    warmup.start()
    pusher: Pusher | None = app.state.pusher
    if pusher is not None:  # the pushes a process before this one left pending: of its tables
        await pusher.start(list(lobby.tables))
    metrics: Metrics | None = app.state.metrics
    sampler = None if metrics is None else asyncio.get_running_loop().create_task(metrics.sampler(lobby))
    try:
        yield
    finally:
        if sampler is not None:
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler
        await lobby.stop()
        if pusher is not None:
            await pusher.stop()
        await app.state.store.aclose()
        app.state.store.close()


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    clock_scale: float = 1.0,
    web_dir: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
    rate_limit: int = RATE_LIMIT,
    redis_url: str | None = None,
    limits: Limits | None = None,
    metrics: Metrics | None = None,
    vapid_key: str | None = None,
    vapid_subject: str = VAPID_SUBJECT,
    push_http: bool = False,
) -> Starlette:
    """The web platform on the database at ``db_url`` (default: SQLite in the user data dir).

    Unfinished tables are restored from the store here, before the first request (a table that
    cannot be restored is logged and skipped). ``bot_delay`` overrides the bots' pause in seconds
    (tests use 0); ``clock_scale`` multiplies every turn clock and grace time (tests and
    benchmarks run them fast); ``clock`` drives the rate limits; ``limits`` are the caps of a
    public server (:class:`~mauseloch.server.limits.Limits`; its defaults when not given). With
    ``redis_url`` this process is one of several sharing the database and Redis (ownership.py;
    docs/deploy.md). ``metrics``: the figures to count (metrics.py; None: none are counted).
    Web Push (server/push/) signs with ``vapid_key`` (else ``MAUSELOCH_VAPID_KEY``, else the key
    stored in the database, made on the first start) as ``vapid_subject`` (a ``mailto:`` or
    ``https:`` URL its push services may write to); ``push_http`` lets devices subscribe with a
    plain-http push service on this machine (tests and benchmarks only).
    """
    limits = limits or Limits()
    store = Store(db_url)
    settings = Settings(bot_delay=bot_delay, clock_scale=clock_scale, metrics=metrics)
    push = PushStore(store)
    online = OnlineBots(store)  # bots playing through the Bot API, and their challenges
    if redis_url is None:
        lobby: Lobby = Lobby(store, settings, waiting_expiry=limits.waiting_minutes * 60, online=online)
        guard = Guard(limits, clock=clock)
    else:
        from mauseloch.server.ownership import ClusterLobby  # the redis package is an extra
        from mauseloch.server.redis_hub import alive_key, processes_gone_now

        lobby = cluster = ClusterLobby(
            store, settings, redis_url, waiting_expiry=limits.waiting_minutes * 60, online=online
        )
        # the caps hold across processes: one address counts the same on every process
        counters = RedisCounters(
            cluster.redis, cluster.pid, alive_key(""), gone=lambda pids: processes_gone_now(cluster.redis, pids)
        )
        guard = Guard(limits, counters, clock=clock)
        if metrics is not None:
            cluster.on_round_trip = cluster.cluster_hub.on_round_trip = metrics.round_trip
    if metrics is not None:
        store.writes.on_commit = functools.partial(metrics.committed, "sqlite" if store.local else "postgresql")
    lobby.metrics = metrics

    async def summary_of(table_id: str) -> TableSummary | None:
        table = await lobby.find(table_id)
        return None if table is None else table.summary()

    pusher = Pusher(
        store, push, server_key(push, vapid_key), vapid_subject, summary_of, metrics=metrics, alone=redis_url is None
    )
    settings.tell = pusher.tell
    lobby.on_created = pusher.created
    if redis_url is not None:  # the owner of a table sends its pushes: they follow it to another process
        cluster.on_adopted, cluster.on_let_go = pusher.adopt, pusher.let_go
    lobby.restore()
    web = web_dir or WEB_DIR
    routes = [
        Route("/", lobby_page),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/api/games", api_games),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/my-tables", api_my_tables),  # the tables this browser's seat cookies open
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/renew", api_renew, methods=["POST"]),
        Route("/api/tables/{table_id}/seat-link", api_seat_link, methods=["POST"]),
        Route("/api/tables/{table_id}/open-seat", api_open_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/api/tables/{table_id}/match", api_match_record),
        Route("/api/rules/{game}", api_rules),
        *room_routes(lambda: app.state.rooms),  # family rooms: docs/rooms.md
        Route("/r/{room_id}", room_page),
        Route("/api/records", api_upload, methods=["POST"]),  # games played offline, sent afterwards
        Route("/t/{table_id}", table_page),
        Route("/replay/{table_id}", replay_page),
        WebSocketRoute("/ws/{table_id}", table_socket),
        *bot_api_routes(),  # programs playing seats: docs/bot-api.md
        *push_routes(),  # Web Push subscriptions: docs/protocol.md
        *offline.routes(lambda request: request.app.state.web_dir),  # playing offline: docs/offline.md
        Route("/static/js/strings.js", strings_js),
        Mount("/static", StaticFiles(directory=web, check_dir=False), name="static"),
        Mount("/", StaticFiles(directory=web, check_dir=False), name="web"),
    ]
    app = Platform(
        guard=guard,
        routes=routes,
        lifespan=lifespan,
        exception_handlers={ProtocolError: protocol_error, Refused: refused, HTTPException: http_error},
        middleware=[Middleware(SecurityMiddleware), Middleware(LimitsMiddleware, guard=guard)],
    )
    app.state.lobby = lobby
    app.state.tables = lobby  # the name older tests and tools use
    app.state.store = store
    app.state.online = online
    app.state.web_dir = web
    app.state.rate_clock = clock
    app.state.rate_limit = rate_limit
    app.state.freeze_at_start = False  # `serve` sets it (cli.py): a test's app freezes nothing
    app.state.guard = guard
    app.state.rooms = Rooms(lobby, guard)
    app.state.metrics = metrics
    app.state.pusher = pusher
    app.state.push_http = push_http
    return app
