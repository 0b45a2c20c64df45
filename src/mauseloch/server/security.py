"""What every answer and every state-changing request must look like.

* Every HTTP answer carries a strict Content-Security-Policy (our own files only, no inline
  script, no framing), ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
  (a seat link never leaks in a ``Referer``); a 500 too: a handler that fails is answered here.
* An answer of the API (``/api/``) is live or per seat: ``Cache-Control: no-store`` unless it
  says otherwise.
* A request that changes something (POST, PUT, PATCH, DELETE) must be JSON, and when it comes
  from a browser (which always sends ``Origin`` on such requests) from one of our own pages:
  another site's form or ``text/plain`` POST cannot create or join a table in a visitor's name.
  Programs that are not browsers send no ``Origin`` and no cookies; they may call the API.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from mauseloch.extras import needs
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import ErrorBody
from mauseloch.server.errors import error_response
from mauseloch.server.protocol import ErrorCode

with needs("web", __name__):
    from starlette.datastructures import Headers
    from starlette.requests import ClientDisconnect, HTTPConnection
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
}
# the same as (name, value) byte pairs, as an ASGI answer carries its headers
RAW_HEADERS = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in HEADERS.items()]
# the offline page's Web Worker compiles Pyodide's WebAssembly: that script alone may
OFFLINE_WORKER = "/static/js/offline-worker.js"
WORKER_HEADERS = [
    (name, value.replace(b"script-src 'self'", b"script-src 'self' 'wasm-unsafe-eval'")) for name, value in RAW_HEADERS
]
OURS = frozenset(name for name, _ in RAW_HEADERS)
NO_STORE = (b"cache-control", b"no-store")
log = logging.getLogger("mauseloch.server")
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether ``origin`` (an ``Origin`` header) names the host the request was sent to."""
    if not origin or origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host


def refusal(headers: Headers, method: str) -> Response | None:
    """Why a request may not change anything (or None when it may)."""
    if method not in CHANGING:
        return None
    origin = headers.get("origin")
    site = headers.get("sec-fetch-site")
    if (origin is not None and not same_origin(origin, headers.get("host"))) or site in ("cross-site", "same-site"):
        body = ErrorBody("requests that change something must come from this site's own pages", ErrorCode.BAD_ORIGIN)
        return JSON(body, status_code=403)
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        body = ErrorBody(
            "requests that change something must send JSON (Content-Type: application/json)", ErrorCode.NOT_JSON
        )
        return JSON(body, status_code=415)
    return None


class SecurityMiddleware:
    """Adds :data:`HEADERS` to every answer, and answers a request whose handler failed itself (a
    500 page or JSON, with the same headers) instead of leaving it to Starlette's bare one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        no_store = scope["path"].startswith("/api/")  # live or per-seat answers: never from a cache

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                # one pass over the answer's own headers: ours replace any of the same name
                headers: list[tuple[bytes, bytes]] = []
                cached = False
                for name, value in message.get("headers", ()):
                    lowered = name.lower()
                    if lowered not in OURS:
                        cached = cached or lowered == b"cache-control"
                        headers.append((name, value))
                headers += WORKER_HEADERS if scope["path"] == OFFLINE_WORKER else RAW_HEADERS
                if no_store and not cached:
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        refused = refusal(Headers(scope=scope), scope["method"])
        if refused is not None:
            await refused(scope, receive, send_with_headers)
            return
        try:
            await self.app(scope, receive, send_with_headers)
        except ClientDisconnect:  # gone amid its body (or cut off for a body too slow): nobody to answer
            return
        except Exception:
            if started:  # half an answer went out: nothing better than to let the server drop it
                raise
            log.exception("%s %s failed", scope["method"], scope["path"])
            response = error_response(HTTPConnection(scope), 500, "the server failed to answer this request")
            await response(scope, receive, send_with_headers)
