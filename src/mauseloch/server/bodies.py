"""The HTTP bodies, both ways, as msgspec structs (docs/protocol.md "HTTP answers"): what the
lobby, the rooms, push, the ladder and the Bot API read from a request (:func:`decode_body`)
and every answer they send, one declaration each. The answers the pages and bots read are in
the wire part of docs/events.schema.json (server/wire.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

import msgspec

from mauseloch.core.registry import GameEntry
from mauseloch.core.shapes import OptionDict, OptionValue
from mauseloch.server.names import MAX_MARKS, MAX_NAME, MAX_TITLE
from mauseloch.server.protocol import MAX_MESSAGE, TOO_DEEP, ErrorCode, ProtocolError, TableSummary


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
