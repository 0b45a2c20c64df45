"""The Starlette application: lobby API, pages, WebSocket play and replays (docs/protocol.md)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from mauseloch.bots import bot_kinds
from mauseloch.locale import strings_module

from .clock import GRACE_LEFT, GRACE_LOST
from .family import api_match_record, api_rules
from .lobby import Lobby, game_clocks, web_games
from .protocol import MAX_MESSAGE, CreateTable, JoinTable, ProtocolError, decode_body, encode, error_body, limits
from .session import Settings, TableSession, record_of, replay_frames
from .storage import Store
from .ws import FLOOD_CLOSE, RATE_LIMIT, table_socket

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
__all__ = ["FLOOD_CLOSE", "RATE_LIMIT", "create_app"]

COOKIE_AGE = 30 * 24 * 3600


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return encode(content).encode()


async def read_body(request: Request) -> bytes:
    """The request body, refused with 413 beyond the message limit (without reading it all)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"body over the {MAX_MESSAGE}-byte limit", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_MESSAGE:
            raise ProtocolError("too_large", f"body over the {MAX_MESSAGE}-byte limit", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def page(request: Request, name: str) -> Response:
    path = request.app.state.web_dir / name
    if not path.is_file():
        return PlainTextResponse(f"page {name} is missing from {request.app.state.web_dir}", status_code=404)
    return FileResponse(path, headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})


def table_or_404(request: Request) -> TableSession:
    table = lobby_of(request).get(request.path_params["table_id"])
    if table is None:
        raise ProtocolError("not_found", "no such table", 404)
    return table


def seat_of_cookie(request: Request, table: TableSession) -> int | None:
    """The seat this browser already holds at ``table`` (its ``ml_<id>`` cookie), if any."""
    cookie = request.cookies.get(f"ml_{table.id}", "")
    seat_text, _, token = cookie.partition(":")
    if not token or not seat_text.isdigit() or int(seat_text) >= table.row.players:
        return None
    return Lobby.check_token(table, int(seat_text), token)


def seat_url(table_id: str, seat: int, token: str) -> str:
    return f"/t/{table_id}?seat={seat}&token={token}"


# -- pages -------------------------------------------------------------------------------
async def strings_js(request: Request) -> Response:
    """The message catalogue the terminal shares, as the module the pages' ``i18n.js`` imports."""
    return Response(strings_module(), media_type="text/javascript; charset=utf-8")


async def lobby_page(request: Request) -> Response:
    return page(request, "lobby.html")


async def table_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    table = lobby_of(request).get(table_id)
    if table is None:
        return PlainTextResponse("no such table", status_code=404)
    response = page(request, "table.html")
    seat_text = request.query_params.get("seat", "")
    token = request.query_params.get("token")
    if token and seat_text.isdigit() and int(seat_text) < table.row.players:
        seat = Lobby.check_token(table, int(seat_text), token)
        if seat is not None:
            response.set_cookie(
                f"ml_{table_id}",
                f"{seat}:{token}",
                max_age=COOKIE_AGE,
                path="/",
                samesite="lax",
                secure=request.url.scheme == "https",
            )
    return response


async def replay_page(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    table = lobby_of(request).get(table_id)
    if table is None:
        return PlainTextResponse("no such table", status_code=404)
    if table.status != "over":
        return RedirectResponse(f"/t/{table_id}", status_code=303)
    return page(request, "replay.html")


# -- lobby API ---------------------------------------------------------------------------
async def api_games(request: Request) -> Response:
    infos = web_games()
    return JSON(
        {
            "games": [i.to_dict() for i in infos],
            "bots": {i.name: bot_kinds(i.name) for i in infos},
            "clocks": {i.name: game_clocks(i.name) for i in infos},
            "grace": {"left": GRACE_LEFT, "lost": GRACE_LOST},
            "limits": limits(),
        }
    )


async def api_tables(request: Request) -> Response:
    return JSON({"tables": lobby_of(request).listing()})


async def api_create(request: Request) -> Response:
    req = decode_body(await read_body(request), CreateTable)
    table, seat, token = lobby_of(request).create(req)
    url = seat_url(table.id, seat, token)
    return JSON({"table": table.id, "seat": seat, "token": token, "url": url, "invite": f"/t/{table.id}"})


async def api_table(request: Request) -> Response:
    return JSON(table_or_404(request).summary())


async def api_join(request: Request) -> Response:
    req = decode_body(await read_body(request), JoinTable)
    table = table_or_404(request)
    held = seat_of_cookie(request, table)
    if held is not None:  # one browser never takes a second seat of one table by accident
        raise ProtocolError("taken", f"this browser already holds seat {held + 1} of this table", 409)
    seat, token = lobby_of(request).join(table, req.name, req.seat)
    return JSON({"table": table.id, "seat": seat, "token": token, "url": seat_url(table.id, seat, token)})


def finished(request: Request) -> TableSession:
    table = table_or_404(request)
    if table.status != "over":
        raise ProtocolError("not_over", "the game is not finished yet", 409)
    return table


async def api_replay(request: Request) -> Response:
    table = finished(request)
    return JSON({"record": record_of(table.row), "frames": replay_frames(table.row)})


async def api_record(request: Request) -> Response:
    table = finished(request)
    filename = f"mauseloch-{table.row.game}-{table.id}.json"
    return JSON(record_of(table.row), headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def protocol_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ProtocolError)
    return JSONResponse(error_body(exc), status_code=exc.status)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    lobby: Lobby = app.state.lobby
    lobby.start()
    try:
        yield
    finally:
        await lobby.stop()
        app.state.store.close()


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    clock_scale: float = 1.0,
    web_dir: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
    rate_limit: int = RATE_LIMIT,
) -> Starlette:
    """The web platform on the database at ``db_url`` (default: SQLite in the user data dir).

    Unfinished tables are restored from the store here, before the first request (a table that
    cannot be restored is logged and skipped). ``bot_delay`` overrides the bots' pause in seconds
    (tests use 0); ``clock_scale`` multiplies every turn clock and grace time (tests and
    benchmarks run them fast); ``clock`` drives the rate limit.
    """
    store = Store(db_url)
    lobby = Lobby(store, Settings(bot_delay=bot_delay, clock_scale=clock_scale))
    lobby.restore()
    web = web_dir or WEB_DIR
    routes = [
        Route("/", lobby_page),
        Route("/api/games", api_games),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/api/tables/{table_id}/match", api_match_record),
        Route("/api/rules/{game}", api_rules),
        Route("/t/{table_id}", table_page),
        Route("/replay/{table_id}", replay_page),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Route("/static/js/strings.js", strings_js),
        Mount("/static", StaticFiles(directory=web, check_dir=False), name="static"),
        Mount("/", StaticFiles(directory=web, check_dir=False), name="web"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={ProtocolError: protocol_error})
    app.state.lobby = lobby
    app.state.tables = lobby  # the name older tests and tools use
    app.state.store = store
    app.state.web_dir = web
    app.state.rate_clock = clock
    app.state.rate_limit = rate_limit
    return app
