"""The page's Web Push endpoints (docs/protocol.md "Push"):

* ``GET /api/push/key``: the server's VAPID public key (the page's ``applicationServerKey``);
* ``POST /api/push/subscribe``: the browser's ``PushSubscription`` JSON and the page's language,
  bound to every running table this browser holds a seat at (its seat cookies);
* ``POST /api/push/unsubscribe``: the same subscription, unbound from those seats.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import msgspec

from mauseloch.extras import needs
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import PushKey, PushSeats, decode_body
from mauseloch.server.lobby import Lobby
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.push.store import MAX_ENDPOINT, MAX_KEY, PushStore, Subscription, endpoint_hash
from mauseloch.server.push.vapid import public_key

with needs("web", __name__):
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import BaseRoute, Route

if TYPE_CHECKING:
    from mauseloch.server.push.sender import Pusher

MAX_BODY = 4096
LIVE = ("waiting", "playing")


class Keys(msgspec.Struct):
    p256dh: str
    auth: str


class PushSubscriptionJSON(msgspec.Struct):
    """As the browser's ``PushSubscription.toJSON()`` gives it."""

    endpoint: str
    keys: Keys
    expirationTime: float | None = None


class Subscribe(msgspec.Struct, forbid_unknown_fields=True):
    subscription: PushSubscriptionJSON
    lang: str = "en"


class Unsubscribe(msgspec.Struct, forbid_unknown_fields=True):
    endpoint: str


def loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def checked(sub: PushSubscriptionJSON, lang: str, http_ok: bool) -> Subscription:
    """A subscription the server will post to: an https URL of a push service (an http one only
    on this machine, and only when the server allows it: tests and the bench)."""
    url = urlsplit(sub.endpoint)
    host = url.hostname or ""
    plain = url.scheme == "http" and http_ok and loopback(host)
    if len(sub.endpoint) > MAX_ENDPOINT or not host or not (url.scheme == "https" or plain):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a push subscription's endpoint is an https URL")
    if not (0 < len(sub.keys.p256dh) <= MAX_KEY and 0 < len(sub.keys.auth) <= MAX_KEY):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a push subscription has the keys p256dh and auth")
    return Subscription(sub.endpoint, sub.keys.p256dh, sub.keys.auth, "de" if lang == "de" else "en")


async def body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or int(length) > MAX_BODY:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"a body of at most {MAX_BODY} bytes, with its length", 413)
    return await request.body()


async def held(request: Request) -> list[tuple[str, int]]:
    """The running tables' seats this browser's cookies open (none: refused)."""
    lobby: Lobby = request.app.state.lobby
    seats = [(t.id, t.you) for t in await lobby.my_tables(request.cookies) if t.status in LIVE and t.you is not None]
    if not seats:
        raise ProtocolError(ErrorCode.NOT_SEATED, "this browser holds no seat at a running table", 403)
    return seats


def pusher_of(request: Request) -> Pusher:
    pusher: Pusher | None = request.app.state.pusher
    if pusher is None:
        raise ProtocolError(ErrorCode.NOT_FOUND, "this server sends no pushes", 404)
    return pusher


async def api_key(request: Request) -> Response:
    pusher = pusher_of(request)
    return JSON(PushKey(public_key(pusher.vapid)), headers={"Cache-Control": "no-cache"})


async def api_subscribe(request: Request) -> Response:
    pusher = pusher_of(request)
    req: Subscribe = decode_body(await body(request), Subscribe)
    sub = checked(req.subscription, req.lang, request.app.state.push_http)
    seats = await held(request)
    push: PushStore = pusher.push
    await pusher.store.call(push.subscribe, sub, seats)
    for table_id, _ in seats:
        pusher.forget(table_id)
    return JSON(PushSeats(len(seats)), headers={"Cache-Control": "no-store"})


async def api_unsubscribe(request: Request) -> Response:
    pusher = pusher_of(request)
    req: Unsubscribe = decode_body(await body(request), Unsubscribe)
    seats = await held(request)
    gone = await pusher.store.call(pusher.push.unsubscribe, endpoint_hash(req.endpoint), seats)
    for table_id, _ in seats:
        pusher.forget(table_id)
    return JSON(PushSeats(gone), headers={"Cache-Control": "no-store"})


def routes() -> list[BaseRoute]:
    return [
        Route("/api/push/key", api_key),
        Route("/api/push/subscribe", api_subscribe, methods=["POST"]),
        Route("/api/push/unsubscribe", api_unsubscribe, methods=["POST"]),
    ]
