"""The Starlette application: lobby API, pages, WebSocket play and replays (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from mauseloch.bots import bot_kinds

from .protocol import (
    MAX_MESSAGE,
    CreateTable,
    Hello,
    JoinTable,
    MoveMsg,
    Ping,
    ProtocolError,
    Resync,
    decode_body,
    decode_client,
    encode,
    error_body,
    limits,
)
from .storage import Store
from .tables import Connection, RunningTable, Tables, build_game, replay_frames, web_games

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
RATE_LIMIT = 20  # messages per second and connection
FLOOD_CLOSE = 200  # refused messages in a row before a flooding connection is closed
COOKIE_AGE = 30 * 24 * 3600


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return encode(content).encode()


def same_origin(websocket: WebSocket) -> bool:
    """Whether the handshake comes from one of our own pages (browsers always send ``Origin``), so
    that another site's page cannot play a seat through the visitor's cookie."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


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


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float | None = None,
    web_dir: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
    rate_limit: int = RATE_LIMIT,
) -> Starlette:
    """The web platform on the database at ``db_url`` (default: SQLite in the user data dir).

    Unfinished tables are restored from the store here, before the first request.
    ``bot_delay`` overrides the bots' pause in seconds (tests use 0); ``clock`` drives the rate
    limit.
    """
    store = Store(db_url)
    tables = Tables(store, bot_delay=bot_delay)
    tables.restore()
    web = web_dir or WEB_DIR

    def page(name: str) -> Response:
        path = web / name
        if not path.is_file():
            return PlainTextResponse(f"page {name} is missing from {web}", status_code=404)
        return FileResponse(path, headers={"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"})

    def table_or_404(request: Request) -> RunningTable:
        table = tables.get(request.path_params["table_id"])
        if table is None:
            raise ProtocolError("not_found", "no such table", 404)
        return table

    # -- pages -------------------------------------------------------------------------
    async def lobby_page(request: Request) -> Response:
        return page("lobby.html")

    async def table_page(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = tables.get(table_id)
        if table is None:
            return PlainTextResponse("no such table", status_code=404)
        response = page("table.html")
        seat_text = request.query_params.get("seat", "")
        token = request.query_params.get("token")
        if token and seat_text.isdigit() and int(seat_text) < table.row.players:
            seat = tables.check_token(table, int(seat_text), token)
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
        table = tables.get(table_id)
        if table is None:
            return PlainTextResponse("no such table", status_code=404)
        if table.status != "over":
            return RedirectResponse(f"/t/{table_id}", status_code=303)
        return page("replay.html")

    # -- lobby API ---------------------------------------------------------------------
    async def api_games(request: Request) -> Response:
        infos = web_games()
        bots = {i.name: bot_kinds(i.name) for i in infos}
        return JSON({"games": [i.to_dict() for i in infos], "bots": bots, "limits": limits()})

    async def api_tables(request: Request) -> Response:
        return JSON({"tables": tables.listing()})

    async def api_create(request: Request) -> Response:
        req = decode_body(await read_body(request), CreateTable)
        table, seat, token = tables.create(req)
        url = f"/t/{table.id}?seat={seat}&token={token}"
        return JSON({"table": table.id, "seat": seat, "token": token, "url": url, "invite": f"/t/{table.id}"})

    async def api_table(request: Request) -> Response:
        return JSON(table_or_404(request).summary())

    async def api_join(request: Request) -> Response:
        req = decode_body(await read_body(request), JoinTable)
        table = table_or_404(request)
        seat, token = tables.join(table, req.name, req.seat)
        url = f"/t/{table.id}?seat={seat}&token={token}"
        return JSON({"table": table.id, "seat": seat, "token": token, "url": url})

    def finished(request: Request) -> RunningTable:
        table = table_or_404(request)
        if table.status != "over":
            raise ProtocolError("not_over", "the game is not finished yet", 409)
        return table

    async def api_replay(request: Request) -> Response:
        table = finished(request)
        return JSON({"record": table.game.record(), "frames": replay_frames(table.row)})

    async def api_record(request: Request) -> Response:
        table = finished(request)
        record = build_game(table.row).record()
        filename = f"mauseloch-{table.row.game}-{table.id}.json"
        return JSON(record, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    # -- WebSocket ---------------------------------------------------------------------
    async def ws_table(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables.get(websocket.path_params["table_id"])
        if table is None:
            await websocket.send_text(Tables.error(None, "bad_message", "no such table"))
            await websocket.close(code=4404)
            return
        conn: Connection | None = None
        sender: asyncio.Task[None] | None = None
        recent: deque[float] = deque()  # arrival times within the last second
        refused_in_a_row = 0
        try:
            while conn is None or conn.close_code is None:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                t = clock()  # the rate limit comes first: a flood costs one comparison a message
                while recent and t - recent[0] >= 1.0:
                    recent.popleft()
                reply: str | None = None
                if len(recent) >= rate_limit:
                    reply = Tables.error(table, "rate_limited", f"more than {rate_limit} messages a second")
                else:
                    recent.append(t)
                    try:
                        msg = decode_client(raw)
                        if conn is None:
                            if not isinstance(msg, Hello):
                                raise ProtocolError("bad_message", "say hello first")
                            conn = Connection(seat=identify(websocket, table, msg))
                            sender = asyncio.create_task(drain(websocket, conn))
                            table = tables.attach(table, conn)
                        elif isinstance(msg, Hello):
                            raise ProtocolError("bad_message", "hello was already said on this connection")
                        elif isinstance(msg, MoveMsg):
                            await tables.move(table, conn.seat, msg.move, msg.version)
                        elif isinstance(msg, Resync):
                            conn.send(tables.snapshot(table, conn.seat))
                        elif isinstance(msg, Ping):
                            conn.send(Tables.pong(table))
                        refused_in_a_row = 0
                    except ProtocolError as exc:
                        reply = Tables.error(table, exc.code, exc.message)
                        if exc.code == "bad_token":  # only ever before hello succeeded
                            await websocket.send_text(reply)
                            await websocket.close(code=4403)
                            return
                if reply is not None:
                    refused_in_a_row += 1
                    if conn is None:
                        await websocket.send_text(reply)
                    else:
                        conn.send(reply)
                    if refused_in_a_row >= FLOOD_CLOSE:  # it will not stop: hang up
                        if conn is None:
                            await websocket.close(code=1008)
                            return
                        conn.close(1008)
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None:
                tables.detach(table, conn)
                conn.close(1000)
            if sender is not None:  # let it send what is queued, then close
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sender, 5.0)

    def identify(websocket: WebSocket, table: RunningTable, hello: Hello) -> int | None:
        """The seat a hello opens; None for a spectator. A bad or missing token is refused."""
        token, seat = hello.token, hello.seat
        if token is None and seat is not None and same_origin(websocket):  # the cookie set by /t/<id>
            cookie = websocket.cookies.get(f"ml_{table.id}", "")
            cookie_seat, _, cookie_token = cookie.partition(":")
            if cookie_seat == str(seat) and cookie_token:
                token = cookie_token
        if token is None:
            if seat is not None:
                raise ProtocolError("bad_token", f"a token is needed to play seat {seat}")
            return None
        if seat is not None and seat >= table.row.players:
            raise ProtocolError("bad_token", f"this table has no seat {seat}")
        found = tables.check_token(table, seat, token)
        if found is None:
            raise ProtocolError("bad_token", "this token does not open that seat")
        return found

    async def drain(websocket: WebSocket, conn: Connection) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                text = await conn.outbox.get()
                if text is None:
                    await websocket.close(code=conn.close_code or 1000)
                    return
                await websocket.send_text(text)

    # -- errors and life cycle ---------------------------------------------------------
    async def protocol_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ProtocolError)
        return JSONResponse(error_body(exc), status_code=exc.status)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tables.start()
        try:
            yield
        finally:
            await tables.stop()
            store.close()

    routes = [
        Route("/", lobby_page),
        Route("/api/games", api_games),
        Route("/api/tables", api_tables, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/{table_id}", api_table),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/replay", api_replay),
        Route("/api/tables/{table_id}/record", api_record),
        Route("/t/{table_id}", table_page),
        Route("/replay/{table_id}", replay_page),
        WebSocketRoute("/ws/{table_id}", ws_table),
        Mount("/static", StaticFiles(directory=web, check_dir=False), name="static"),
        Mount("/", StaticFiles(directory=web, check_dir=False), name="web"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={ProtocolError: protocol_error})
    app.state.tables = tables
    app.state.store = store
    return app
