"""Every message between the server and the web pages, as msgspec structs (docs/protocol.md).

This is the one place where wire data is decoded and checked: handlers only ever see these
structs, never raw JSON. Anything that does not fit raises :class:`ProtocolError` carrying the
error ``code`` the client is told.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, Generic, Literal, TypedDict, TypeVar, Union

import msgspec

from mauseloch.core.engine import Game
from mauseloch.core.events import Event
from mauseloch.core.registry import GameEntry, game_info
from mauseloch.core.shapes import JSONObject, OptionDict, OptionValue
from mauseloch.core.views import View

MAX_MESSAGE = 8 * 1024  # bytes, for WebSocket messages and HTTP bodies alike
MAX_NAME = 32
MAX_TITLE = 60
MAX_MARKS = 2  # combining marks on one letter (more only pile up into a smear over other text)
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


class PageLimits(msgspec.Struct, kw_only=True):
    """The limits a page must know before it sends anything (``/api/games``'s ``limits``), so the
    name field's ``maxlength`` and the server's check come from the same numbers; and how long a
    table waits for players (the server's ``--waiting-minutes``)."""

    name: int = MAX_NAME
    title: int = MAX_TITLE
    message: int = MAX_MESSAGE
    marks: int = MAX_MARKS
    waiting_minutes: float


class ErrorBody(msgspec.Struct, forbid_unknown_fields=True):
    """The JSON body of a refused HTTP request: the code for the page, the message for people."""

    error: str
    code: ErrorCode


def error_body(exc: ProtocolError) -> ErrorBody:
    """The body that says why ``exc`` refused the request."""
    return ErrorBody(exc.message, exc.code)


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


class MyTable(TableSummary):
    """A table this browser holds a seat at (``/api/my-tables``, ``/api/tables/<id>``)."""

    you: int | None  # the seat its cookie opens


class GameClocks(TypedDict):
    """The clock settings a game offers (``/api/games``)."""

    choices: dict[str, float | None]  # setting -> seconds per move (None: off)
    default: str


class Grace(msgspec.Struct, forbid_unknown_fields=True):
    """Seconds before a stand-in plays a seat whose person left on purpose (``left``), or lost
    the connection (``lost``)."""

    left: float
    lost: float


class Games(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/games``: every game the site offers, per game its bots and clocks, the grace
    times and the limits."""

    games: list[GameEntry]
    bots: dict[str, list[str]]
    clocks: dict[str, GameClocks]
    grace: Grace
    limits: PageLimits


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables``: the new table, its creator's seat and seat link, and the invite link
    (its secret after ``#``; ``invite_secret`` None: a public table, joined without one)."""

    table: str
    seat: int
    token: str
    url: str
    invite: str
    invite_secret: str | None
    public: bool


class Joined(msgspec.Struct, forbid_unknown_fields=True):
    """A seat taken (``POST /api/tables/<id>/join``, a room's table): its token and seat link."""

    table: str
    seat: int
    token: str
    url: str


class SeatHeld(msgspec.Struct, forbid_unknown_fields=True):
    """The seat this browser's cookie now opens (a seat link opened, a renewed token)."""

    table: str
    seat: int


class SeatLink(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/<id>/link``: the seat link of this browser's seat, for another device."""

    table: str
    seat: int
    url: str


class Uploaded(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/records``: the finished table a game played offline became, and its replay."""

    table: str
    replay: str


class PushKey(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/push/key``: the server's public key, the page's ``applicationServerKey``."""

    key: str


class PushSeats(msgspec.Struct, forbid_unknown_fields=True):
    """A device subscribed to (or unsubscribed from) pushes for this many of its seats."""

    seats: int


class OfflineBundle(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/offline``: whether this server serves the offline engine, and the URLs of the
    pages' files a browser keeps for playing offline."""

    bundle: bool
    shell: list[str]


class RulesPage(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/rules/<game>?lang=``: the game's rules as HTML."""

    game: str
    lang: str
    html: str


class TablesPage(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/tables?page=N``: one page of the public tables, and whether more follow."""

    tables: list[TableSummary]
    page: int
    more: bool


class MyTables(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/my-tables``: the tables this browser holds a seat at."""

    tables: list[MyTable]


class RatedGame(msgspec.Struct, forbid_unknown_fields=True):
    """One rated game in a ladder entry's history: its table, when it finished (ISO 8601), the
    entry's rating after it."""

    table: str
    at: str
    rating: float


class Rival(msgspec.Struct, forbid_unknown_fields=True):
    """One of the strongest opponents a ladder entry has met."""

    id: str  # bot:NAME | anchor:KIND | person:NAME
    kind: str
    name: str
    rating: float


class Rung(msgspec.Struct, forbid_unknown_fields=True):
    """One entry of a ladder: ``rating`` = ``mu`` - 3 ``sigma`` (what it is ranked by)."""

    id: str  # bot:NAME | anchor:KIND | person:NAME
    kind: str
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    history: list[RatedGame]
    opponents: list[Rival]


class Ladder(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/ladder?game=G&players=N``: that ladder, best first."""

    game: str
    players: int
    entries: list[Rung]


class LadderChoice(msgspec.Struct, forbid_unknown_fields=True):
    """A game with rated tables, and the player counts it has a ladder for."""

    game: str
    players: list[int]


class Ladders(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/ladder``: the ladders there are."""

    ladders: list[LadderChoice]


class LadderSeat(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/tables/<id>/ladder``: whether the table is rated and, for the browser holding a
    seat there, the ladder name that seat plays for."""

    rated: bool
    entered: str | None


# a family room's answers (server/rooms.py, docs/rooms.md)
class RoomMember(msgspec.Struct, forbid_unknown_fields=True):
    """A member as the room page lists it: ``here`` (seen lately), learning (gets tips), creator."""

    id: str
    name: str
    avatar: str
    here: bool
    learning: bool
    creator: bool


class RoomSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A seat of a room's table: its name, the member holding it (None: a bot, a guest or free)."""

    name: str
    member: str | None
    kind: str
    taken: bool


class DealOf(msgspec.Struct, forbid_unknown_fields=True):
    """A deal of a match: the deal's number (from 1) and the match's deals."""

    deal: int
    deals: int


class RoomTableView(msgspec.Struct, forbid_unknown_fields=True):
    """One of a room's tables: ``you`` the seat this member holds; ``invited``: a seat the room
    planned for this member is still free."""

    id: str
    game: str
    status: str
    created: str  # ISO 8601, UTC
    seats: list[RoomSeat]
    match: DealOf | None
    you: int | None
    invited: bool


class RoomSettingsView(msgspec.Struct, forbid_unknown_fields=True):
    """Whether the room gives tips, and to which members."""

    hints: bool
    learning: list[str]


class TallyResult(TypedDict):
    """A finished game of a room: its winners (member ids, or ``seat:<name>`` for a bot or a guest)."""

    table: str
    finished: str
    winners: list[str]
    match: bool  # the last deal of a match: ``winners`` won the match


class Lead(TypedDict):
    """Who leads a game's month by games won, and the runner-up's wins (0 when alone)."""

    leader: str
    wins: int
    next: int


class GameTally(TypedDict):
    """A room's tally of one game (server/tally.py)."""

    games: int
    matches: int
    wins: dict[str, int]  # games won per member (or bot/guest seat)
    match_wins: dict[str, int]
    last: list[TallyResult]  # newest first
    month: Lead | None  # who leads this month, by games won


class PlannedSeat(TypedDict, total=False):
    """A seat a room planned: a member's, a bot's (with the name it keeps), or free (neither)."""

    member: str
    bot: str
    name: str


class RoomChoice(TypedDict, total=False):
    """The next game a room last asked for (kept in its settings, per game): the room's form
    starts from it."""

    game: str
    seats: list[PlannedSeat]
    options: dict[str, OptionValue]
    clock: str | None
    deals: int
    target: int


class Room(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/rooms/<id>``: what a member sees of the room (never its secret); ``choices``:
    the next game last asked for, per game."""

    id: str
    name: str
    you: str
    creator: str
    members: list[RoomMember]
    settings: RoomSettingsView
    choices: dict[str, RoomChoice]
    tables: list[RoomTableView]
    tally: dict[str, GameTally]
    avatars: list[str]


class RoomCreated(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/rooms``: the new room, its link (its ``key`` after ``#``), the creator as its
    first member and that member's token."""

    room: str
    url: str
    member: str
    token: str
    key: str


class MemberToken(msgspec.Struct, forbid_unknown_fields=True):
    """A member's (new) token: a device joined by the room's link, or a member renewed."""

    room: str
    member: str
    token: str


class MemberHeld(msgspec.Struct, forbid_unknown_fields=True):
    """A member link opened in this browser: the member its cookie now opens."""

    room: str
    member: str


class MemberChanged(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/rooms/<id>/me``: what changed of the member (left out: unchanged)."""

    room: str
    member: str
    name: str | msgspec.UnsetType = msgspec.UNSET
    avatar: str | msgspec.UnsetType = msgspec.UNSET


class MemberLeft(msgspec.Struct, forbid_unknown_fields=True):
    room: str
    left: str


class MemberLink(msgspec.Struct, forbid_unknown_fields=True):
    """This member's own link, to open the room on another device."""

    room: str
    url: str


class MemberRemoved(msgspec.Struct, forbid_unknown_fields=True):
    room: str
    removed: str


class RoomSettingsSet(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/rooms/<id>/settings``: the room's tips as they are now."""

    room: str
    hints: bool
    learning: list[str]


class Hint(TypedDict):
    """A learner's tip (server/hints.py)."""

    move: str  # one of the seat's legal moves
    reason: str | None  # a catalogue key (the page says it in its reader's language), or None


class TableHint(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/rooms/<id>/tables/<table>/hint``: the tip for the member's seat (None: it has
    no move now)."""

    table: str
    seat: int
    hint: Hint | None


ChallengeState = Literal["open", "accepted", "declined", "unanswered"]


class ChallengeSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A seat's challenge to an online bot (server/botapi) and its answer so far."""

    id: str
    seat: int
    bot: str
    state: ChallengeState


class Challenges(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/tables/<id>/challenges``: each challenged seat; for the creator's browser, the
    seat kinds it may put in a seat whose bot declined (built-in ``bots``, ``online`` bots)."""

    challenges: list[ChallengeSeat]
    creator: bool
    bots: list[str] | msgspec.UnsetType = msgspec.UNSET
    online: list[str] | msgspec.UnsetType = msgspec.UNSET


class SeatChanged(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/<id>/seats/<seat>``: the creator put another kind in a declined seat."""

    ok: bool
    seat: int
    kind: str
    status: str


class BotsOnline(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/bots/online``: the bots the lobby can seat now."""

    bots: list[str]


class LadderEntered(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/<id>/ladder``: the ladder entry this browser's seat plays for."""

    ok: bool
    entry: str  # person:NAME


# the Bot API's answers (docs/bot-api.md)
class BotTable(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/bot/challenge``: the table the bot created, its seat, and the invite secret
    (None: a public table)."""

    table: str
    seat: int
    status: str
    invite: str | None


class Accepted(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/bot/challenge/<id>/accept``: the bot's seat is taken."""

    ok: bool
    table: str
    seat: int


class Done(msgspec.Struct, forbid_unknown_fields=True):
    """A request that needs no more answer than that it was done (a challenge declined, a
    reaction or a clock answer taken)."""

    ok: bool = True


class MoveTaken(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/bot/game/<id>/move``: the bot's move is played; the table's version after it."""

    ok: bool
    version: int


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


ONLINE_BOT = "online-bot"  # the seat kind (ml_seats.kind) of a person's seat that a program plays


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True):
    kind: Literal["human", "bot", "online-bot"]
    bot: str | None = None
    name: str | None = None  # an online-bot seat: the bot challenged (server/botapi)


class LadderEntry(msgspec.Struct, forbid_unknown_fields=True):
    """The ladder name a person plays a rated seat for, and the secret their browser keeps for it."""

    name: str
    secret: str


class CreateTable(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: list[SeatSpec]
    options: OptionDict = msgspec.field(default_factory=dict)  # checked by the game (resolve_options)
    name: str | None = None
    title: str | None = None
    # None: the game's default; 1h..7d: a table over days (server/clock.py DAYS)
    clock: Literal["off", "relaxed", "normal", "fast", "1h", "1d", "2d", "3d", "5d", "7d"] | None = None
    public: bool = False  # listed in the lobby for anyone to join; else only through the invite link
    deal: str | None = None  # a deal code (mauseloch.core.dealcode): the same deal again
    deals: int = 1  # Mau-Mau match play: the number of deals (1: one game)
    target: int = 0  # match play: it also ends once somebody has this many points (0: no target)
    rated: bool = False  # the game counts for the ladder (server/botapi/ladder.py)
    ladder: LadderEntry | None = None  # a rated table's creator: the ladder name of their seat


class JoinTable(msgspec.Struct, forbid_unknown_fields=True):
    name: str | None = None
    seat: int | None = None
    invite: str | None = None  # the secret of a private table's invite link
    ladder: LadderEntry | None = None  # a rated table: the ladder name the seat plays for


class OpenSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A seat link opened in a browser: the page read ``seat`` and ``token`` after the ``#`` of
    ``/t/<id>#seat=<n>&token=<token>`` and trades them for the seat's HttpOnly cookie."""

    seat: Annotated[int, msgspec.Meta(ge=0, lt=64)]
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


def decode_body(raw: bytes, kind: type[msgspec.Struct], limit: int = MAX_MESSAGE) -> Any:
    """An HTTP JSON body of type ``kind``, at most ``limit`` bytes (WebSocket messages' limit unless
    a route names its own)."""
    if len(raw) > limit:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"body of {len(raw)} bytes is over the {limit}-byte limit", 413)
    try:
        return msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.ValidationError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad request: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"not JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, TOO_DEEP) from None


# Names a person may not take: what bots and stand-ins are called ("Random bot 2", "Zufalls-Bot"),
# compared after NFKC and case folding, so "ＢＯＴ" is no way round.
RESERVED_NAME = re.compile(r"(?:\w+[\s_-]+)?(?:ro)?bot(?:[\s_-]*\d+)?|stand[\s_-]?in|vertretung|server")


ZWJ = "\u200d"  # the zero-width joiner: glues emoji into one picture (👨‍👩‍👧‍👦 is one family)


def _joins_emoji(ch: str) -> bool:
    """A symbol a zero-width joiner may glue to another (an emoji, a skin tone)."""
    return unicodedata.category(ch) in ("So", "Sk")


def _extends(ch: str) -> bool:
    """Part of the character before it: marks, variation selectors, skin tones, tags, joiners."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (the flags of England, Scotland, Wales)
        or ch == ZWJ
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF  # two of them make a flag


def graphemes(text: str) -> list[str]:
    """``text`` cut where a reader sees one character end and the next begin (Unicode's extended
    grapheme clusters, closely enough for names): a letter with its accents, an emoji with its skin
    tone and variation selector, emoji joined by zero-width joiners, a flag's two letters. The page
    cuts names with ``Intl.Segmenter`` at the same places."""
    out: list[str] = []
    for ch in text:
        last = out[-1] if out else ""
        if last and (_extends(ch) or last.endswith(ZWJ) or (_regional(ch) and len(last) == 1 and _regional(last))):
            out[-1] = last + ch
        else:
            out.append(ch)
    return out


def display_width(text: str) -> int:
    """Columns ``text`` takes, one character (grapheme) at a time: East Asian wide and full-width
    characters and emoji take two, a mark on nothing none, the rest one."""
    width = 0
    for cluster in graphemes(text):
        if any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in cluster):
            width += 2
        elif not unicodedata.combining(cluster[0]):
            width += 1
    return width


def _visible(text: str) -> str:
    """``text`` without invisible characters (controls, zero-width spaces, bidi overrides), each
    kind of space as one space; a zero-width joiner or tag stays where it is part of an emoji."""
    kept: list[str] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            kept.append(" ")
        elif ch.isprintable():
            kept.append(ch)
        elif ch == ZWJ:
            after = text[i + 1] if i + 1 < len(text) else ""
            if kept and after and _joins_emoji(_base(kept)) and _joins_emoji(after):
                kept.append(ch)
        elif 0xE0020 <= ord(ch) <= 0xE007F and kept and _joins_emoji(_base(kept)):
            kept.append(ch)
    return "".join(kept)


def _base(kept: list[str]) -> str:
    """The last character kept that is not a variation selector, skin tone or tag: what a joiner
    joins to."""
    for ch in reversed(kept):
        code = ord(ch)
        if not (0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F):
            return ch
    return ""


def _clean_text(
    text: str | None, fallback: str, limit: int, what: str, too_long: ErrorCode, marks_code: ErrorCode
) -> str:
    """NFC, printable, inner spaces collapsed, trimmed, at most ``limit`` columns wide and
    ``MAX_MARKS`` combining marks on a letter; ``fallback`` if missing or empty."""
    if text is None:
        return fallback
    text = unicodedata.normalize("NFC", text)
    # spaces of every kind (and tabs, line breaks) become one space; other invisible characters
    # (controls, zero-width, bidi overrides) are dropped, but not the joiners inside an emoji
    cleaned = " ".join(_visible(text).split())
    # counted in characters as people see them: a family emoji is one, not seven code points
    if len(graphemes(cleaned)) > limit or display_width(cleaned) > limit:
        raise ProtocolError(too_long, f"{what} must be at most {limit} characters")
    marks = 0
    for ch in cleaned:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_MARKS:
            raise ProtocolError(marks_code, f"{what} has more than {MAX_MARKS} accents on one letter")
    return cleaned or fallback


def clean_name(name: str | None, fallback: str) -> str:
    """A display name (at most ``MAX_NAME`` columns); bots' and stand-ins' names are reserved."""
    cleaned = _clean_text(name, fallback, MAX_NAME, "name", ErrorCode.NAME_TOO_LONG, ErrorCode.NAME_MARKS)
    if cleaned != fallback and RESERVED_NAME.fullmatch(unicodedata.normalize("NFKC", cleaned).casefold()):
        raise ProtocolError(ErrorCode.NAME_RESERVED, f"the name {cleaned!r} is kept for bots and stand-ins")
    return cleaned


def clean_title(title: str | None, fallback: str) -> str:
    """A table title (at most ``MAX_TITLE`` columns)."""
    return _clean_text(title, fallback, MAX_TITLE, "title", ErrorCode.TITLE_TOO_LONG, ErrorCode.TITLE_MARKS)


def _parametrised(generic: Any, *params: Any) -> Any:
    """``generic[params]`` for types known at run time (a game's view and events)."""
    return generic[params]


def game_frames(game: str) -> tuple[Any, Any]:
    """``game``'s snapshot and update: ``Snapshot`` and ``Update`` of its view struct and of its
    events as a seat sees them."""
    from mauseloch.core import schema as shapes

    view, seen = shapes.view_types(game)[0], Union[shapes.seen_event_types(game)]  # noqa: UP007 - a runtime tuple
    return _parametrised(Snapshot, view, seen), _parametrised(Update, view, seen)


def schema() -> JSONObject:
    """The JSON Schema document of docs/events.schema.json: every game's events, views and
    results, and the wire: the error codes, the client's and the server's WebSocket messages,
    per game the snapshot and the update a seat gets (its view, its events as it sees them), and
    the HTTP answers the pages read."""
    from mauseloch.core import schema as shapes
    from mauseloch.core.registry import GAMES

    wire: dict[str, object] = {
        "error_code": ErrorCode,
        "client_message": ClientMessage,
        "server_message": ServerMessage,
        # the HTTP answers the pages read
        "error_body": ErrorBody,
        "games": Games,
        "new_table": NewTable,
        "joined": Joined,
        "seat_held": SeatHeld,
        "seat_link": SeatLink,
        "uploaded": Uploaded,
        "rules_page": RulesPage,
        "push_key": PushKey,
        "push_seats": PushSeats,
        "offline_bundle": OfflineBundle,
        "page_limits": PageLimits,
        "tables_page": TablesPage,
        "my_tables": MyTables,
        "ladder": Ladder,
        "ladders": Ladders,
        "ladder_seat": LadderSeat,
        "ladder_entered": LadderEntered,
        "challenges": Challenges,
        "seat_changed": SeatChanged,
        "bots_online": BotsOnline,
        "room": Room,
        "room_created": RoomCreated,
        "member_token": MemberToken,
        "member_held": MemberHeld,
        "member_changed": MemberChanged,
        "member_left": MemberLeft,
        "member_link": MemberLink,
        "member_removed": MemberRemoved,
        "room_settings": RoomSettingsSet,
        "table_hint": TableHint,
        # the Bot API's answers
        "bot_table": BotTable,
        "accepted": Accepted,
        "done": Done,
        "move_taken": MoveTaken,
    }
    for game in sorted(GAMES):
        wire[f"snapshot.{game}"], wire[f"update.{game}"] = game_frames(game)
    return shapes.schema(wire)
