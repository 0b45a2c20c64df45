"""The table's WebSocket messages both ways, as msgspec structs (docs/protocol.md), and what
every refusal carries: its :class:`ErrorCode` and :class:`ProtocolError`.

This is where a WebSocket message is decoded and checked (an HTTP body: server/bodies.py):
handlers only ever see these structs, never raw JSON. Anything that does not fit raises
:class:`ProtocolError` carrying the error ``code`` the client is told.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, Generic, TypedDict, TypeVar, Union

import msgspec

from mauseloch.core.engine import Game
from mauseloch.core.events import Event
from mauseloch.core.registry import game_info
from mauseloch.core.shapes import OptionDict
from mauseloch.core.views import View

MAX_MESSAGE = 8 * 1024  # bytes, for WebSocket messages and HTTP bodies alike
MAX_INVITE = 100  # characters of an invite secret
TOO_DEEP = "bad message: arrays or objects nested too deeply"


class ErrorCode(StrEnum):
    """Every ``code`` an error answer may carry (WebSocket error messages, HTTP error bodies, the
    limits' refusals); the page shows each in the reader's language (web/js/i18n.js,
    ``"error.<code>"``). A ``StrEnum``, so the wire carries the same plain string as before."""

    ILLEGAL = "illegal"
    STALE = "stale"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_MESSAGE = "bad_message"
    BAD_TOKEN = "bad_token"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    NOT_STARTED = "not_started"
    NOT_FOUND = "not_found"
    NOT_OVER = "not_over"
    TAKEN = "taken"
    NAME_TOO_LONG = "name_too_long"
    TITLE_TOO_LONG = "title_too_long"
    SERVER_ERROR = "server_error"
    NAME_MARKS = "name_marks"
    TITLE_MARKS = "title_marks"
    NAME_RESERVED = "name_reserved"
    INVITE_NEEDED = "invite_needed"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    SERVER_FULL = "server_full"
    BAD_ORIGIN = "bad_origin"
    NOT_JSON = "not_json"
    NOT_SEATED = "not_seated"
    PAUSED = "paused"
    AWAY_USED_UP = "away_used_up"
    LADDER_NAME = "ladder_name"  # a rated seat needs a ladder name, and this one is none
    LADDER_NAME_TAKEN = "ladder_name_taken"  # the name, or one too like it, is someone else's
    LADDER_TWICE = "ladder_twice"  # that name, or this browser, plays at this table already
    TOO_MANY_ROOMS = "too_many_rooms"  # an address created its rooms for this hour
    ROOM_FULL = "room_full"  # a room has all the members it may have
    NOT_MEMBER = "not_member"  # a room's member may do that, and this browser is none (any more)


class Refusal(TypedDict):
    """Why the engine refused a move (``IllegalMove``): the message catalogue's key and its
    placeholders, so the page says it in its own language."""

    reason: str
    params: dict[str, str | int]


def refusal(reason: str, params: dict[str, object]) -> Refusal:
    """The engine's refusal as the page words it: its placeholders words and numbers, as the
    catalogue's texts take them (not the list of legal moves: the view has it)."""
    worded = {k: v if isinstance(v, (str, int)) else str(v) for k, v in params.items() if k != "moves"}
    return {"reason": reason, "params": worded}


def refusals(game: Game, seat: int | None) -> dict[str, Refusal]:
    """For the seat to move in a game whose hand cards are moves: why each card of its hand that
    is no legal move now is refused (the engine's key and placeholders), so the page says why at
    once, in its own language, without computing any rule. Empty for every other seat."""
    # the cheap checks first: this is asked for every seat after every move
    if seat is None or seat != game.to_move or game.is_over or game_info(game.name).dynamics == "reactions":
        return {}
    return {card: refusal(r, p) for card, (r, p) in game.refused_cards(seat).items()}


class ProtocolError(ValueError):
    """A message that is refused: ``code`` for the page, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: ErrorCode, message: str, status: int = 400, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        # checked here too: a refusal relayed from another process arrives as its plain string
        self.code = ErrorCode(code)
        self.message = message
        self.status = status
        self.refusal = refusal  # a refused move: the engine's reason key and placeholders


# --------------------------------------------------------------------------- client -> server


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    token: str | None = None
    seat: int | None = None
    last_seq: int = 0
    invite: str | None = None  # a spectator of a private table: the secret of its invite link


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


MAX_REACTION_MS = 600_000


class ReactMsg(msgspec.Struct, tag="react", forbid_unknown_fields=True):
    """A reaction in a reaction window (Mausgeflippt): the move and the reaction time ``ms``
    the device measured, from the frame the card was painted to the input event. The referee
    decides who was first (server/reactions.py); the answer is the update of the decision."""

    move: str
    version: int
    ms: int


class ClockPong(msgspec.Struct, tag="clock_pong", forbid_unknown_fields=True):
    """The answer to the server's :class:`ClockPing` ``n``, sent at once with the page's clock
    ``t`` (``performance.now()``, ms): the server learns the round trip and the clock offset."""

    n: int
    t: float


class AwayMsg(msgspec.Struct, tag="away", forbid_unknown_fields=True):
    """A seat at a table over days is away for ``days`` (the clock stops for everyone until it
    is back), or comes back now (``days`` 0); the table's step decides (table/step.py)."""

    days: Annotated[int, msgspec.Meta(ge=0, le=31)]


class PaceMsg(msgspec.Struct, tag="pace", forbid_unknown_fields=True):
    """Someone seated stands on a pause of the whole table (``paused``: asks for one or agrees;
    false: resumes or withdraws) and sets the bots' speed; the table's step decides (table/step.py)."""

    paused: bool = False
    speed: Annotated[float, msgspec.Meta(ge=0.25, le=4.0)] = 1.0


class EmoteMsg(msgspec.Struct, tag="emote", forbid_unknown_fields=True):
    """A quick reaction from this seat (one of :data:`~mauseloch.server.emotes.EMOTES`; no free
    text): everyone at the table sees it at the seat for a moment."""

    emote: Annotated[str, msgspec.Meta(max_length=20)]


ClientMessage = Hello | MoveMsg | Resync | Ping | Leave | Rematch | ReactMsg | ClockPong | PaceMsg | EmoteMsg | AwayMsg
_client_decoder = msgspec.json.Decoder(ClientMessage)


def decode_client(raw: str | bytes) -> ClientMessage:
    """One client WebSocket message, checked for size, JSON, type and fields."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"message of {len(data)} bytes is over the {MAX_MESSAGE}-byte limit", 413
        )
    try:
        msg = _client_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad message: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"not JSON: {exc}") from None
    except RecursionError:  # a few KiB of "[[[[…" nest deeper than the decoder goes
        raise ProtocolError(ErrorCode.BAD_MESSAGE, TOO_DEEP) from None
    if isinstance(msg, Hello):
        if msg.token is not None and not (0 < len(msg.token) <= 200):
            raise ProtocolError(ErrorCode.BAD_TOKEN, "token must be a non-empty string of at most 200 characters")
        if msg.seat is not None and not 0 <= msg.seat < 64:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {msg.seat} does not exist")
    elif isinstance(msg, (MoveMsg, ReactMsg)) and not 0 < len(msg.move) <= 100:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "move must be a non-empty string of at most 100 characters")
    if isinstance(msg, ReactMsg) and not 0 <= msg.ms <= MAX_REACTION_MS:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"ms must be a whole number from 0 to {MAX_REACTION_MS}")
    if isinstance(msg, ClockPong) and not (msg.t == msg.t and abs(msg.t) < 1e15):  # not NaN nor huge
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "t must be the page's clock in ms")
    return msg


# --------------------------------------------------------------------------- server -> client


# -- what every frame of a table shares: its summary and its live state ------------------------
class SeatSummary(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    seat: int
    player: int  # who sits here through a match's deals (one seat on each deal): names a bot
    kind: str  # "human" | "bot" | "online-bot"
    name: str
    bot: str | None
    taken: bool
    presence: str  # "online" | "away" | "gone" | "open" | "bot"
    stand_in: bool  # a stand-in plays the seat now
    away: float | None = None  # over days: away until then (epoch seconds; left out: not away)


class Ranking(msgspec.Struct, forbid_unknown_fields=True):
    """What decides the ranking, in order, as each game declares it next to its result."""

    figure: str
    better: str  # "fewer" | "more"


class Standing(msgspec.Struct, forbid_unknown_fields=True):
    """A player's place in a match: fewest points first, the total, the last deal's points."""

    player: int
    rank: int
    total: int
    last: int
    name: str
    seat: int  # where the player sits at this deal


class MatchState(msgspec.Struct, forbid_unknown_fields=True):
    """What a page shows of a match (server/match.py)."""

    deal: int  # 1-based
    deals: int
    target: int
    leader: str
    booked: int  # deals whose points are booked
    standings: list[Standing]
    over: bool
    pause: float  # seconds the standings show before the next deal


class TableSummary(msgspec.Struct, forbid_unknown_fields=True):
    """A table as the lobby lists it and a page's header shows it (server/summary.py)."""

    id: str
    game: str
    title: str
    players: int
    options: OptionDict
    clock: str
    seats: list[SeatSummary]
    status: str  # "waiting" | "playing" | "over" | "closed" | "expired"
    version: int
    created: str  # ISO 8601, UTC
    next: str | None  # the rematch's table, once agreed
    public: bool  # listed in the lobby (private tables are joined by invite only)
    deal_code: str | None  # "the same deal again", once it is over
    match: MatchState | None
    ranking: list[Ranking]
    to_move: int | None  # the seat whose turn it is (at a running table its process runs; else None)


class SeatLive(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """A seat's presence; over days, until when it is away (epoch seconds; left out: here) and
    the away days it may still take this calendar month (left out: none)."""

    presence: str
    stand_in: bool
    away: float | None = None
    away_days: int = 0


class Deadline(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """The running clock: ``kind`` "turn" (the seat's clock), "reveal" (a reaction game's
    countdown to its next card) or "stand-in" (when the stand-in moves); ``due`` in epoch
    seconds, or ``left`` while the table is paused."""

    seat: int
    kind: str
    due: float | None = None
    left: float | None = None


class Pace(msgspec.Struct, forbid_unknown_fields=True):
    paused: bool
    speed: float


class PauseState(msgspec.Struct, forbid_unknown_fields=True):
    """Who paused, or who asked for a pause, who agreed and who is still asked."""

    paused: bool
    by: int | None
    asked: int | None
    agreed: list[int]
    waiting: list[int]


class Live(msgspec.Struct, forbid_unknown_fields=True):
    """What changes without a move: presence, stand-ins, the running clock, pause, votes."""

    status: str
    seats: list[SeatLive]
    deadline: Deadline | None
    rematch: list[int]  # the seats that asked for a rematch
    next: str | None
    match: MatchState | None
    pace: Pace
    pause: PauseState
    now: float  # the server's clock, epoch seconds


# -- the frames of a table: one declaration each, a game's view and events its parameters --------
V = TypeVar("V", bound=View)
E = TypeVar("E", bound=Event)


class Snapshot(msgspec.Struct, Generic[V, E], tag="snapshot", forbid_unknown_fields=True):
    """The whole table as ``seat`` may see it (``by``: per event, "stand-in" when a stand-in
    played the move that logged it)."""

    version: int
    seq: int
    seat: int | None
    view: V
    events: list[E]  # the last events, each as the seat may see it (seen_by)
    by: list[str | None]
    table: TableSummary
    live: Live
    # the seat to move: why each card of its hand that does not fit is refused (refusals)
    refused: dict[str, Refusal]


class Update(msgspec.Struct, Generic[V, E], tag="update", forbid_unknown_fields=True):
    """A move played: the seat's view after it and the events it logged as the seat may see
    them; ``by``: "stand-in" when a stand-in played it for its seat."""

    version: int
    seq: int
    view: V
    events: list[E]
    by: str | None
    live: Live
    refused: dict[str, Refusal]


class PresenceMsg(msgspec.Struct, tag="presence", forbid_unknown_fields=True):
    """Something changed without a move: presence, stand-ins, the clock, rematch votes."""

    version: int
    seq: int
    live: Live


class ErrorMsg(msgspec.Struct, tag="error", omit_defaults=True):
    version: int
    seq: int
    code: ErrorCode
    message: str
    # A move the engine refused: {"reason": catalogue key, "params": {...}} (IllegalMove), so the
    # page says why in its own language; left out of every other error.
    refusal: Refusal | None = None


class EmoteFrame(msgspec.Struct, tag="emote"):
    """A quick reaction of ``seat``, for everyone at the table (spectators too); each page shows
    it as a short bubble at that seat unless its reader muted that seat or every reaction."""

    seat: int
    emote: str


class Pong(msgspec.Struct, tag="pong"):
    version: int
    seq: int


class ClockPing(msgspec.Struct, tag="clock_ping"):
    """The server measures the connection (reaction games): answer at once with :class:`ClockPong`."""

    n: int


class WindowMsg(msgspec.Struct, tag="window"):
    """A reaction window opened at ``version`` (the update with the shown card comes with it or
    has come): show the card at ``start`` on this page's own clock (``performance.now()``, ms),
    or, when the server does not know that clock yet (None), ``in_ms`` after this message
    arrives. Reactions count until ``window_ms`` after the show."""

    version: int
    seq: int
    start: float | None
    in_ms: float
    window_ms: int


ServerMessage = Snapshot[Any, Any] | Update[Any, Any] | ErrorMsg | Pong | PresenceMsg | ClockPing | WindowMsg
_encoder = msgspec.json.Encoder()


def encode(msg: msgspec.Struct | Sequence[msgspec.Struct]) -> str:
    """A server message (or an HTTP answer's struct) as JSON text."""
    return _encoder.encode(msg).decode()


def encode_raw(part: object) -> msgspec.Raw:
    """``part`` encoded once, to be written as it is into messages that share it."""
    return msgspec.Raw(_encoder.encode(part))


# --------------------------------------------------------------------------- HTTP bodies


def _parametrised(generic: Any, *params: Any) -> Any:
    """``generic[params]`` for types known at run time (a game's view and events)."""
    return generic[params]


def game_frames(game: str) -> tuple[Any, Any]:
    """``game``'s snapshot and update: ``Snapshot`` and ``Update`` of its view struct and of its
    events as a seat sees them."""
    from mauseloch.core import schema as shapes

    view, seen = shapes.view_types(game)[0], Union[shapes.seen_event_types(game)]  # noqa: UP007 - a runtime tuple
    return _parametrised(Snapshot, view, seen), _parametrised(Update, view, seen)
