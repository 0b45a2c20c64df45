"""Every message between the server and the web pages, as msgspec structs (docs/protocol.md).

This is the one place where wire data is decoded and checked: handlers only ever see these
structs, never raw JSON. Anything that does not fit raises :class:`ProtocolError` carrying the
error ``code`` the client is told.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

MAX_MESSAGE = 8 * 1024  # bytes, for WebSocket messages and HTTP bodies alike
MAX_NAME = 32
MAX_TITLE = 60

# Every ``code`` an error answer may carry (WebSocket error messages and HTTP error bodies alike);
# the page shows each in the reader's language (web/js/i18n.js, "error.<code>").
ErrorCode = Literal[
    "illegal", "stale", "not_your_turn", "bad_message", "bad_token", "too_large", "rate_limited", "not_started",
    "not_found", "not_over", "taken", "name_too_long", "title_too_long", "server_error",
]  # fmt: skip


def limits() -> dict[str, int]:
    """The limits a page must know before it sends anything (``/api/games`` passes them on), so the
    name field's ``maxlength`` and the server's check come from the same numbers."""
    return {"name": MAX_NAME, "title": MAX_TITLE, "message": MAX_MESSAGE}


def error_body(exc: ProtocolError) -> dict[str, str]:
    """The JSON body of a refused HTTP request: the code for the page, the message for people."""
    return {"error": exc.message, "code": exc.code}


class ProtocolError(ValueError):
    """A message that is refused; ``code`` is the wire error code (or an HTTP status)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


# --------------------------------------------------------------------------- client -> server


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    token: str | None = None
    seat: int | None = None
    last_seq: int = 0


class MoveMsg(msgspec.Struct, tag="move", forbid_unknown_fields=True):
    move: str
    version: int


class Resync(msgspec.Struct, tag="resync", forbid_unknown_fields=True):
    pass


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True):
    """The person leaves the table on purpose: gone at once, a stand-in plays after a short grace.

    ``tab_closed``: only this page is going away (the tab was closed); the seat's other pages
    stay, and the person is gone only if none is left."""

    tab_closed: bool = False


class Rematch(msgspec.Struct, tag="rematch", forbid_unknown_fields=True):
    """After the game: this seat wants a new deal with the same seats."""


class PaceMsg(msgspec.Struct, tag="pace", forbid_unknown_fields=True):
    """Someone at the table pauses the bots or changes their speed (family play: watching bots)."""

    paused: bool = False
    speed: Annotated[float, msgspec.Meta(ge=0.25, le=4.0)] = 1.0


ClientMessage = Hello | MoveMsg | Resync | Ping | Leave | Rematch | PaceMsg
_client_decoder = msgspec.json.Decoder(ClientMessage)


def decode_client(raw: str | bytes) -> ClientMessage:
    """One client WebSocket message, checked for size, JSON, type and fields."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"message of {len(data)} bytes is over the {MAX_MESSAGE}-byte limit", 413)
    try:
        msg = _client_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError("bad_message", f"bad message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_message", f"not JSON: {exc}") from None
    if isinstance(msg, Hello):
        if msg.token is not None and not (0 < len(msg.token) <= 200):
            raise ProtocolError("bad_token", "token must be a non-empty string of at most 200 characters")
        if msg.seat is not None and not 0 <= msg.seat < 64:
            raise ProtocolError("bad_message", f"seat {msg.seat} does not exist")
    elif isinstance(msg, MoveMsg) and not 0 < len(msg.move) <= 100:
        raise ProtocolError("bad_message", "move must be a non-empty string of at most 100 characters")
    return msg


# --------------------------------------------------------------------------- server -> client


class Snapshot(msgspec.Struct, tag="snapshot"):
    version: int
    seq: int
    seat: int | None
    view: dict[str, Any]
    events: list[dict[str, Any]]
    table: dict[str, Any]
    live: dict[str, Any] = msgspec.field(default_factory=dict)


class Update(msgspec.Struct, tag="update"):
    version: int
    seq: int
    view: dict[str, Any]
    events: list[dict[str, Any]]
    by: str | None = None  # "stand-in" when a stand-in played the move for its seat
    live: dict[str, Any] = msgspec.field(default_factory=dict)


class PresenceMsg(msgspec.Struct, tag="presence"):
    """Something changed without a move: presence, stand-ins, the clock, rematch votes."""

    version: int
    seq: int
    live: dict[str, Any]


class ErrorMsg(msgspec.Struct, tag="error"):
    version: int
    seq: int
    code: str
    message: str


class Pong(msgspec.Struct, tag="pong"):
    version: int
    seq: int


ServerMessage = Snapshot | Update | ErrorMsg | Pong | PresenceMsg
_encoder = msgspec.json.Encoder()


def encode(msg: ServerMessage | dict[str, Any]) -> str:
    """A server message (or any JSON-able answer) as JSON text."""
    return _encoder.encode(msg).decode()


# --------------------------------------------------------------------------- HTTP bodies


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["human", "bot"]
    bot: str | None = None


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: list[SeatSpec]
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    name: str | None = None
    title: str | None = None
    clock: Literal["off", "relaxed", "normal", "fast"] | None = None  # None: the game's default
    deal: str | None = None  # a deal code (mauseloch.dealcode): the same deal again
    deals: int = 1  # Mau-Mau match play: the number of deals (1: one game)
    target: int = 0  # match play: it also ends once somebody has this many points (0: no target)


class JoinTable(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    seat: int | None = None


def decode_body(raw: bytes, kind: type[msgspec.Struct]) -> Any:
    """An HTTP JSON body of type ``kind``, with the same size limit as WebSocket messages."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"body of {len(raw)} bytes is over the {MAX_MESSAGE}-byte limit", 413)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        raise ProtocolError("bad_message", f"bad request: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_message", f"not JSON: {exc}") from None


def _clean_text(text: str | None, fallback: str, limit: int, what: str) -> str:
    """Trimmed, printable, at most ``limit`` characters; ``fallback`` if missing or empty."""
    if text is None:
        return fallback
    cleaned = "".join(ch for ch in text if ch.isprintable()).strip()
    if len(cleaned) > limit:
        raise ProtocolError(f"{what}_too_long", f"{what} must be at most {limit} characters")
    return cleaned or fallback


def clean_name(name: str | None, fallback: str) -> str:
    """A display name (at most ``MAX_NAME`` characters)."""
    return _clean_text(name, fallback, MAX_NAME, "name")


def clean_title(title: str | None, fallback: str) -> str:
    """A table title (at most ``MAX_TITLE`` characters)."""
    return _clean_text(title, fallback, MAX_TITLE, "title")
