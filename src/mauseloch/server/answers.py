"""What the HTTP endpoints of the tables and the rooms share: JSON answers, bodies read with the
message limit, and the seat links and cookies (a seat's secret never in a URL a server sees)."""

from __future__ import annotations

from typing import Any

import msgspec

from mauseloch.extras import needs
from mauseloch.server.protocol import MAX_MESSAGE, ErrorCode, ProtocolError

with needs("web", __name__):
    from starlette.requests import Request
    from starlette.responses import Response

COOKIE_AGE = 30 * 24 * 3600


class JSON(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:  # an answer's struct (bodies.py) or a record's TypedDict
        return msgspec.json.encode(content)


async def read_body(request: Request, limit: int = MAX_MESSAGE) -> bytes:
    """The request body, refused with 413 beyond ``limit`` bytes (without reading it all)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"body over the {limit}-byte limit", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ProtocolError(ErrorCode.TOO_LARGE, f"body over the {limit}-byte limit", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def seat_url(table_id: str, seat: int, token: str) -> str:
    """The seat link: its token after ``#``, which browsers never send, so no server or proxy
    ever logs it; the page trades it for the seat's cookie (``POST …/open-seat``)."""
    return f"/t/{table_id}#seat={seat}&token={token}"


def seat_cookie(response: Response, request: Request, table_id: str, seat: int, token: str) -> None:
    """The seat's credentials for this browser: never readable by the page's scripts, never sent
    along from another site (the WebSocket handshake of our own page carries it)."""
    response.set_cookie(
        f"ml_{table_id}",
        f"{seat}:{token}",
        max_age=COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def from_page(request: Request, response: Response, table_id: str, seat: int, token: str) -> None:
    """A seat taken by one of our pages (a browser sends ``Origin``, checked same-origin by the
    security middleware) goes straight into the browser's cookie; programs get only the token."""
    if request.headers.get("origin"):
        seat_cookie(response, request, table_id, seat, token)
