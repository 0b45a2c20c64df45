"""Family rooms: the lobby's neighbour that remembers who plays, their tables and their tally.

A room is joined by its link, ``/r/<id>#key=<secret>``: the secret after ``#`` is never sent by
a browser, so no server or proxy logs it; the page trades it for a member token in the room's
HttpOnly cookie (``mr_<id>``). Everything about a room (``GET /api/rooms/{id}``) is for its
members only: anybody else, with a guessed id or not, gets the same 404 as for no room at all.

A room starts its tables through the lobby (``POST /api/rooms/{id}/tables``) with the seats it
plans (members and bots); its members take their seats with one tap (``…/tables/{t}/join``), and
the seat tokens they are given tell the tally who played which seat, in rematches and a match's
deals too. Nothing of a room is kept in a process: several processes share it by the database.
"""

from __future__ import annotations

import datetime as dt
import hmac
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import msgspec

from mauseloch.core.registry import game_info
from mauseloch.extras import needs
from mauseloch.server.answers import COOKIE_AGE, JSON, from_page, read_body, seat_url
from mauseloch.server.bodies import (
    CreateTable,
    DealOf,
    Joined,
    MemberChanged,
    MemberHeld,
    MemberLeft,
    MemberLink,
    MemberRemoved,
    MemberToken,
    Room,
    RoomCreated,
    RoomMember,
    RoomSeat,
    RoomSettingsSet,
    RoomSettingsView,
    RoomTableView,
    TableHint,
    decode_body,
)
from mauseloch.server.hints import hint
from mauseloch.server.lobby import Lobby, hash_token
from mauseloch.server.names import MAX_NAME, clean_name
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.storage.rooms import MemberRow, Plan, RoomRow, RoomStore, RoomTable, Settings
from mauseloch.server.storage.rows import now
from mauseloch.server.tally import tally

with needs("web", __name__):
    from sqlalchemy.exc import IntegrityError
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

if TYPE_CHECKING:
    from mauseloch.server.limits import Guard

log = logging.getLogger("mauseloch.server")

# The animal pictures a member picks from (web/avatars/<name>.svg, drawn for this site).
AVATARS = ("mouse", "cat", "fox", "owl", "bear", "rabbit", "hedgehog", "frog")
HERE_SECONDS = 30.0  # a member whose room page asked within this is "here now" (it asks every 10 s)
NEW_ID_TRIES = 5
COOKIE_PREFIX = "mr_"
TOKEN_HEADER = "x-room-token"  # programs (tests, benchmarks) send the member token here

Avatar = Annotated[str, msgspec.Meta(max_length=20)]
Name = Annotated[str, msgspec.Meta(max_length=4 * MAX_NAME)]  # the length itself is checked by clean_name


class MemberIn(msgspec.Struct, forbid_unknown_fields=True):
    name: Name | None = None
    avatar: Avatar = "mouse"


class CreateRoom(msgspec.Struct, forbid_unknown_fields=True):
    name: Name | None = None  # the room's name ("Familie Maus")
    member: MemberIn = msgspec.field(default_factory=MemberIn)  # who creates it


class JoinRoom(msgspec.Struct, forbid_unknown_fields=True):
    key: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]  # the secret after the link's '#'
    name: Name | None = None
    avatar: Avatar = "mouse"


class OpenMember(msgspec.Struct, forbid_unknown_fields=True):
    """A member link opened on another device: the member and token after its ``#``."""

    member: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class ChangeMe(msgspec.Struct, forbid_unknown_fields=True):
    name: Name | None = None
    avatar: Avatar | None = None


class RemoveMember(msgspec.Struct, forbid_unknown_fields=True):
    member: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class RoomSettings(msgspec.Struct, forbid_unknown_fields=True):
    hints: bool | None = None  # "Tipp" for the seats of learning members
    learning: list[Annotated[str, msgspec.Meta(max_length=32)]] | None = None  # member ids


class PlanSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A seat of the next game: a member (``member``), a bot (``bot``, keeping ``name``), or free
    for anybody with the table's invite (neither)."""

    member: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    bot: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    name: Name | None = None


class RoomGame(msgspec.Struct, forbid_unknown_fields=True):
    """The next game of a room: what ``POST /api/tables`` takes, seats planned by member."""

    game: str
    seats: Annotated[list[PlanSeat], msgspec.Meta(min_length=1, max_length=12)]
    options: dict[str, object] = msgspec.field(default_factory=dict)
    clock: str | None = None
    deals: int = 1
    target: int = 0


def room_url(room_id: str, key: str) -> str:
    """The room's link: its secret after ``#`` (browsers never send it)."""
    return f"/r/{room_id}#key={key}"


def member_url(room_id: str, member: str, token: str) -> str:
    """A member's own link, to open the same member on another device."""
    return f"/r/{room_id}#member={member}&token={token}"


def avatar(name: str) -> str:
    if name not in AVATARS:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"unknown avatar {name!r}; available: {', '.join(AVATARS)}")
    return name


class Rooms:
    """The rooms of this server (every process alike: all they know is in the database)."""

    def __init__(self, lobby: Lobby, guard: Guard, clock: Callable[[], dt.datetime] = now) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.rooms = RoomStore(lobby.store)
        self.guard = guard
        self.now = clock

    # -- who asks ----------------------------------------------------------------------
    async def stored(self, room_id: str) -> RoomRow | None:
        """The room of this id as stored; None for an id no room can have (longer than ours)."""
        return await self.store.call(self.rooms.room, room_id) if len(room_id) <= 32 else None

    async def member_of(self, request: Request) -> tuple[RoomRow, MemberRow]:
        """The room of the path and the member this request's token opens; 404 otherwise (a
        non-member learns nothing, not even that the room exists)."""
        room_id = request.path_params["room_id"]
        token = request.headers.get(TOKEN_HEADER) or request.cookies.get(COOKIE_PREFIX + room_id, "")
        room = await self.stored(room_id) if token else None
        if room is not None:
            digest = hash_token(token)
            for m in room.members:
                if hmac.compare_digest(m.token_hash, digest):
                    return room, m
        raise ProtocolError(ErrorCode.NOT_FOUND, "no such room", 404)

    def _cookie(self, request: Request, response: Response, room_id: str, token: str) -> None:
        response.set_cookie(
            COOKIE_PREFIX + room_id,
            token,
            max_age=COOKIE_AGE,
            path="/",
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )

    def _new_member(self, name: str | None, picture: str, fallback: str) -> tuple[MemberRow, str]:
        token = secrets.token_urlsafe(24)
        member = MemberRow(
            id=secrets.token_urlsafe(6),
            name=clean_name(name, fallback),
            avatar=avatar(picture),
            token_hash=hash_token(token),
            joined=self.now(),
        )
        return member, token

    # -- endpoints ---------------------------------------------------------------------
    async def create(self, request: Request) -> Response:
        req = decode_body(await read_body(request), CreateRoom)
        self.guard.check_room(self.guard.address(request.scope))
        member, token = self._new_member(req.member.name, req.member.avatar, "Player 1")
        key = secrets.token_urlsafe(18)
        room = RoomRow(
            id="",
            name=clean_name(req.name, "Mauseloch"),
            secret_hash=hash_token(key),
            created=self.now(),
            creator=member.id,
            settings={"hints": False, "learning": [], "choices": {}},
        )
        for attempt in range(NEW_ID_TRIES):
            room.id = secrets.token_urlsafe(9)
            try:
                await self.store.call(self.rooms.create_room, room, member)
                break
            except IntegrityError:
                if attempt == NEW_ID_TRIES - 1:
                    raise
        log.info("room %s created", room.id)
        response = JSON(RoomCreated(room=room.id, url=room_url(room.id, key), member=member.id, token=token, key=key))
        self._cookie(request, response, room.id, token)
        return response

    async def join(self, request: Request) -> Response:
        """A device comes by the room's link: a new member with a name and an avatar."""
        req = decode_body(await read_body(request), JoinRoom)
        room_id = request.path_params["room_id"]
        room = await self.stored(room_id)
        if room is None or not hmac.compare_digest(room.secret_hash, hash_token(req.key)):
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such room", 404)
        member, token = self._new_member(req.name, req.avatar, f"Player {len(room.members) + 1}")
        limit = self.guard.limits.members_per_room
        if not await self.store.call(self.rooms.add_member, room.id, member, limit):
            raise ProtocolError(ErrorCode.ROOM_FULL, f"this room has its {limit} members already", 409)
        response = JSON(MemberToken(room=room.id, member=member.id, token=token))
        self._cookie(request, response, room.id, token)
        return response

    async def open_member(self, request: Request) -> Response:
        """A member link opened on another device: the pair goes into this browser's cookie."""
        req = decode_body(await read_body(request), OpenMember)
        room_id = request.path_params["room_id"]
        room = await self.stored(room_id)
        digest = hash_token(req.token)
        found = [
            m
            for m in (room.members if room else [])
            if m.id == req.member and hmac.compare_digest(m.token_hash, digest)
        ]
        if room is None or not found:
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such room", 404)
        response = JSON(MemberHeld(room=room.id, member=req.member))
        self._cookie(request, response, room.id, req.token)
        return response

    async def show(self, request: Request) -> Response:
        room, me = await self.member_of(request)
        when = self.now()
        await self.store.call(self.rooms.update_member, room.id, me.id, {"seen": when})
        me.seen = when
        tables = await self.store.call(self.rooms.tables, room.id)
        seat_members = await self.store.call(self.rooms.seat_members, room.id)
        return JSON(self.view(room, me, tables, seat_members, when))

    def view(
        self, room: RoomRow, me: MemberRow, tables: list[RoomTable], seat_members: dict[str, str], when: dt.datetime
    ) -> Room:
        """What a member sees of the room (never its secret: the link is the member's own page's)."""
        settings = room.settings
        learning = set(settings.get("learning", []))
        members = [
            RoomMember(
                id=m.id,
                name=m.name,
                avatar=m.avatar,
                here=m.seen is not None and (when - m.seen).total_seconds() <= HERE_SECONDS,
                learning=m.id in learning,
                creator=m.id == room.creator,
            )
            for m in room.members
        ]
        mine = {h for h, m in seat_members.items() if m == me.id}
        listed = []
        for t in tables:
            planned = [s.get("member") for s in t.plan.get("seats", [])]
            you = next((i for i, (_, h) in enumerate(t.seats) if h in mine), None)
            free_for_you = [
                i for i, m in enumerate(planned) if m == me.id and i < len(t.seats) and t.seats[i][1] is None
            ]
            listed.append(
                RoomTableView(
                    id=t.id,
                    game=t.game,
                    status=t.status,
                    created=t.created.isoformat(),
                    seats=[
                        RoomSeat(
                            name=name,
                            member=seat_members.get(h or ""),
                            kind=kind,
                            taken=h is not None or kind != "human",
                        )
                        for (name, h), kind in zip(t.seats, t.kinds, strict=True)
                    ],
                    match=None if t.match is None else DealOf(deal=t.match["deal"] + 1, deals=t.match["deals"]),
                    you=you,
                    # an invitation: a seat this room planned for you is still free
                    invited=t.status == "waiting" and bool(free_for_you),
                )
            )
        return Room(
            id=room.id,
            name=room.name,
            you=me.id,
            creator=room.creator,
            members=members,
            settings=RoomSettingsView(hints=bool(settings.get("hints")), learning=sorted(learning)),
            choices=settings.get("choices", {}),
            tables=listed[::-1],
            tally=tally(tables, seat_members, when),
            avatars=list(AVATARS),
        )

    async def change_me(self, request: Request) -> Response:
        req = decode_body(await read_body(request), ChangeMe)
        room, me = await self.member_of(request)
        values: dict[str, object] = {}
        changed = MemberChanged(room=room.id, member=me.id)
        if req.name is not None:
            values["name"] = changed.name = clean_name(req.name, me.name)
        if req.avatar is not None:
            values["avatar"] = changed.avatar = avatar(req.avatar)
        if values:
            await self.store.call(self.rooms.update_member, room.id, me.id, values)
        return JSON(changed)

    async def leave(self, request: Request) -> Response:
        await read_body(request)
        room, me = await self.member_of(request)
        await self.store.call(self.rooms.remove_member, room.id, me.id)
        response = JSON(MemberLeft(room=room.id, left=me.id))
        response.delete_cookie(COOKIE_PREFIX + room.id, path="/")
        return response

    async def renew(self, request: Request) -> Response:
        """A lost device: a new token in this browser; the old one (and every copy of this
        member's link) opens the room no more."""
        await read_body(request)
        room, me = await self.member_of(request)
        token = secrets.token_urlsafe(24)
        await self.store.call(self.rooms.update_member, room.id, me.id, {"token_hash": hash_token(token)})
        response = JSON(MemberToken(room=room.id, member=me.id, token=token))
        self._cookie(request, response, room.id, token)
        return response

    async def member_link(self, request: Request) -> Response:
        """This member's own link, to open the room as the same member on another device."""
        await read_body(request)
        room, me = await self.member_of(request)
        token = request.headers.get(TOKEN_HEADER) or request.cookies.get(COOKIE_PREFIX + room.id, "")
        return JSON(MemberLink(room=room.id, url=member_url(room.id, me.id, token)))

    async def remove(self, request: Request) -> Response:
        """The room's creator removes a member (a device given away, someone who should not be in)."""
        req = decode_body(await read_body(request), RemoveMember)
        room, me = await self.member_of(request)
        if me.id != room.creator:
            raise ProtocolError(ErrorCode.NOT_MEMBER, "only the room's creator removes members", 403)
        if req.member == me.id or not await self.store.call(self.rooms.remove_member, room.id, req.member):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "no other member of this room has that id")
        return JSON(MemberRemoved(room=room.id, removed=req.member))

    async def settings(self, request: Request) -> Response:
        req = decode_body(await read_body(request), RoomSettings)
        room, _ = await self.member_of(request)
        settings: Settings = {**room.settings}
        if req.hints is not None:
            settings["hints"] = req.hints
        if req.learning is not None:
            ids = {m.id for m in room.members}
            unknown = [m for m in req.learning if m not in ids]
            if unknown:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"not members of this room: {', '.join(unknown)}")
            settings["learning"] = sorted(set(req.learning))
        await self.store.call(self.rooms.set_settings, room.id, settings)
        return JSON(
            RoomSettingsSet(room=room.id, hints=bool(settings.get("hints")), learning=settings.get("learning", []))
        )

    async def start(self, request: Request) -> Response:
        """The room's next game: a private table with the seats planned; the member who asks takes
        their seat, the others find the invitation on the room page (and at their table's end).
        The choice is remembered for the game."""
        raw = await read_body(request)
        req = decode_body(raw, RoomGame)
        room, me = await self.member_of(request)
        ids = {m.id: m for m in room.members}
        mine = [i for i, s in enumerate(req.seats) if s.member == me.id]
        if len(mine) != 1:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "the member who starts the game plans one seat for themself")
        for i, s in enumerate(req.seats):
            if s.member is not None and s.member not in ids:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {i}: not a member of this room")
            if s.member is not None and s.bot is not None:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {i}: a member or a bot, not both")
        planned = [s.member for s in req.seats if s.member is not None]
        if len(set(planned)) != len(planned):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "a member plays one seat of a table")
        seats = [
            {"kind": "bot", "bot": s.bot, "name": s.name} if s.bot is not None else {"kind": "human"} for s in req.seats
        ]
        asked = {"game": req.game, "seats": seats, "options": req.options, "name": me.name, "clock": req.clock}
        try:
            create = msgspec.convert({**asked, "deals": req.deals, "target": req.target}, CreateTable)
        except msgspec.ValidationError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"bad request: {exc}") from None
        guard = self.guard
        address = guard.address(request.scope)
        claim = guard.check_create(address, self.lobby.waiting)
        try:
            created = await self.lobby.create(create, first=mine[0])
        except BaseException:
            guard.abandoned(address, claim)
            raise
        table = created.table
        guard.created(address, claim, table.id, waiting=table.status == "waiting")
        names = [s.name for s in table.row.seats]
        plan: Plan = {"seats": []}
        for i, s in enumerate(req.seats):
            if s.member is not None:
                plan["seats"].append({"member": s.member})
            elif s.bot is not None:
                plan["seats"].append({"bot": s.bot, "name": names[i]})
            else:
                plan["seats"].append({})
        await self.store.call(self.rooms.add_table, room.id, table.id, plan, table.row.created)
        await self.store.call(self.rooms.add_seat, room.id, hash_token(created.token), me.id)
        choices = dict(room.settings.get("choices", {}))
        choices[game_info(req.game).name] = {**msgspec.to_builtins(req), "seats": plan["seats"]}
        settings: Settings = {**room.settings, "choices": choices}
        await self.store.call(self.rooms.set_settings, room.id, settings)
        response = JSON(
            Joined(
                table=table.id,
                seat=created.seat,
                token=created.token,
                url=seat_url(table.id, created.seat, created.token),
            )
        )
        from_page(request, response, table.id, created.seat, created.token)
        return response

    async def take_seat(self, request: Request) -> Response:
        """One tap: a member takes the seat their room planned for them at the room's table."""
        await read_body(request)
        room, me = await self.member_of(request)
        table_id = request.path_params["table_id"]
        tables = await self.store.call(self.rooms.tables, room.id)
        found = next((t for t in tables if t.id == table_id), None)
        table = await self.lobby.find(table_id) if found is not None else None
        if found is None or table is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such table in this room", 404)
        planned = [i for i, s in enumerate(found.plan.get("seats", [])) if s.get("member") == me.id]
        seat, token = await self.lobby.join(table, me.name, planned[0] if planned else None, invited=True)
        await self.store.call(self.rooms.add_seat, room.id, hash_token(token), me.id)
        response = JSON(Joined(table=table.id, seat=seat, token=token, url=seat_url(table.id, seat, token)))
        from_page(request, response, table.id, seat, token)
        return response

    async def hint(self, request: Request) -> Response:
        """A learner's "Tipp" at a room's table: for a member the room marks as learning, with the
        room's hints on, at the seat this member holds there."""
        await read_body(request)
        room, me = await self.member_of(request)
        if not room.settings.get("hints") or me.id not in room.settings.get("learning", []):
            raise ProtocolError(
                ErrorCode.NOT_MEMBER, "tips are for the room's learning members, when the room has them on", 403
            )
        table_id = request.path_params["table_id"]
        tables = await self.store.call(self.rooms.tables, room.id)
        found = next((t for t in tables if t.id == table_id), None)
        table = await self.lobby.find(table_id) if found is not None else None
        if found is None or table is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such table in this room", 404)
        seat_members = await self.store.call(self.rooms.seat_members, room.id)
        seats = [i for i, s in enumerate(table.row.seats) if s.token_hash and seat_members.get(s.token_hash) == me.id]
        if not seats:
            raise ProtocolError(ErrorCode.NOT_SEATED, "you hold no seat at this table", 403)
        return JSON(TableHint(table=table.id, seat=seats[0], hint=hint(table.row, seats[0])))


def room_routes(rooms: Callable[[], Rooms]) -> list[Route]:
    """The rooms' API (docs/protocol.md, "Rooms"); ``rooms()`` gives the app's :class:`Rooms`."""

    def bound(name: str) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            answer: Response = await getattr(rooms(), name)(request)
            return answer

        endpoint.__name__ = f"room_{name}"
        return endpoint

    post = ["POST"]
    return [
        Route("/api/rooms", bound("create"), methods=post),
        Route("/api/rooms/{room_id}", bound("show")),
        Route("/api/rooms/{room_id}/join", bound("join"), methods=post),
        Route("/api/rooms/{room_id}/open", bound("open_member"), methods=post),
        Route("/api/rooms/{room_id}/me", bound("change_me"), methods=post),
        Route("/api/rooms/{room_id}/leave", bound("leave"), methods=post),
        Route("/api/rooms/{room_id}/renew", bound("renew"), methods=post),
        Route("/api/rooms/{room_id}/member-link", bound("member_link"), methods=post),
        Route("/api/rooms/{room_id}/remove", bound("remove"), methods=post),
        Route("/api/rooms/{room_id}/settings", bound("settings"), methods=post),
        Route("/api/rooms/{room_id}/tables", bound("start"), methods=post),
        Route("/api/rooms/{room_id}/tables/{table_id}/join", bound("take_seat"), methods=post),
        Route("/api/rooms/{room_id}/tables/{table_id}/hint", bound("hint"), methods=post),
    ]
