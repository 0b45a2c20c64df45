"""What server processes say to each other over Redis: every frame a tagged msgspec struct.

A frame on the wire is a MessagePack array ``[version, kind, from, rid, body]``: the header stays
the same in every version of the protocol, so a process reads who sent a frame and which request
it belongs to even when it cannot read the body. ``kind`` says what the body is:

- ``"q"``: a :class:`Request` to the owner of a table (one of the :data:`Op` structs);
- ``"r"``: the :data:`Outcome` of request ``rid``;
- ``"m"``: a :class:`TableMessage`, sent by a table's owner to each process that holds
  connections of the table, on that process's channel (the owner never hears it back);
- ``"t"``: a :data:`TableFrame` on a table's channel (a seat closed, a new owner).

A process speaking another :data:`PROTOCOL_VERSION` (one left running from before an upgrade)
is refused with :class:`VersionMismatch`: its requests are answered with a refusal that says so,
and a reply it sends fails the request it answers; nothing is guessed from a body's shape.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from mauseloch.server.protocol import ErrorCode, Refusal
from mauseloch.server.storage.rows import TableRow

# 1: the tuples of op name and positional arguments; 2: these structs; 3: a table's messages
# sent to each listening process's channel (kind "m") instead of the table's channel; 4: a
# table's row asked of its owner (Load, Loaded).
PROTOCOL_VERSION = 4

Kind = Literal["q", "r", "m", "t"]


# -- requests to a table's owner ---------------------------------------------------------------
class Attach(msgspec.Struct, tag="attach", array_like=True, frozen=True):
    """A connection ``cid`` of the sending process opens ``seat`` (None: a spectator)."""

    cid: int
    seat: int | None


class Detach(msgspec.Struct, tag="detach", array_like=True, frozen=True):
    cid: int
    left: bool = False
    everywhere: bool = False


class Move(msgspec.Struct, tag="move", array_like=True, frozen=True):
    """A person's move; ``again``: sent anew after the owner died before it answered."""

    seat: int | None
    move: str
    version: int
    ms: int | None = None
    again: bool = False


class Snapshot(msgspec.Struct, tag="snapshot", array_like=True, frozen=True):
    seat: int | None


class React(msgspec.Struct, tag="react", array_like=True, frozen=True):
    cid: int
    move: str
    version: int
    ms: int


class ClockAnswer(msgspec.Struct, tag="clock", array_like=True, frozen=True):
    cid: int
    n: int
    t: float


class RematchVote(msgspec.Struct, tag="rematch", array_like=True, frozen=True):
    seat: int | None


class Away(msgspec.Struct, tag="away", array_like=True, frozen=True):
    seat: int | None
    days: int


class Pace(msgspec.Struct, tag="pace", array_like=True, frozen=True):
    seat: int | None
    paused: bool
    speed: float


class Emote(msgspec.Struct, tag="emote", array_like=True, frozen=True):
    seat: int | None
    emote: str


class Joined(msgspec.Struct, tag="joined", array_like=True, frozen=True):
    """A seat was taken through the sending process: what the store now holds for it travels
    along, so the owner need not read the table back."""

    seat: int
    name: str
    token_hash: str | None
    joined: str | None  # ISO time of the join (counts for the expiry of a waiting table)


class Load(msgspec.Struct, tag="load", array_like=True, frozen=True):
    """The table's row as its owner holds it (seats and tokens, status, moves): what a process
    that does not own the table serves its requests and sockets from, instead of three queries."""


class Adopt(msgspec.Struct, tag="adopt", array_like=True, frozen=True):
    """Take these tables over now: their owner is stopping (a rolling restart) and gave their
    leases back. Answered once the leases are taken; the tables load meanwhile (requests for one
    wait for its load). A process of a release without this request refuses it, and the tables
    are taken by the sweeps instead (within a tick)."""

    tables: list[str]


Op = Attach | Detach | Move | Snapshot | React | ClockAnswer | RematchVote | Pace | Away | Emote | Joined | Load | Adopt


class Request(msgspec.Struct, array_like=True, frozen=True):
    table: str
    op: Op


# -- replies --------------------------------------------------------------------------------
class Done(msgspec.Struct, tag="done", array_like=True, frozen=True):
    """The request was carried out; nothing to hand back."""


class Shown(msgspec.Struct, tag="shown", array_like=True, frozen=True):
    """A snapshot for the connection that asked (attach, snapshot), at the table's ``version``."""

    text: str
    version: int


class Loaded(msgspec.Struct, tag="loaded", array_like=True, frozen=True):
    """The answer to :class:`Load`."""

    row: TableRow


# what a request's handler hands back when it succeeds
Answer = Done | Shown | Loaded


class Refused(msgspec.Struct, tag="refused", array_like=True, frozen=True):
    """A :class:`~.protocol.ProtocolError` at the owner: nothing changed."""

    code: ErrorCode
    message: str
    status: int = 400
    refusal: Refusal | None = None


class NotOwned(msgspec.Struct, tag="not_owner", array_like=True, frozen=True):
    """The process asked does not own the table (any more): ask again after finding the owner."""


Outcome = Done | Shown | Loaded | Refused | NotOwned
OUTCOMES = (Done, Shown, Loaded, Refused, NotOwned)


# -- a table's messages, to a process holding its connections ------------------------------------
class TableMessage(msgspec.Struct, array_like=True, frozen=True):
    """One message of ``table`` as the text for each seat the receiving process listens to
    (-1: spectators)."""

    table: str
    version: int
    texts: dict[int, str]


# -- a table's channel ------------------------------------------------------------------------
class CloseSeat(msgspec.Struct, tag="c", array_like=True, frozen=True):
    seat: int
    code: int


class NewOwner(msgspec.Struct, tag="o", array_like=True, frozen=True):
    """The sending process owns the table now."""


TableFrame = CloseSeat | NewOwner


class VersionMismatch(Exception):
    """A frame from a process that speaks another protocol version."""

    def __init__(self, frm: str, version: int) -> None:
        super().__init__(
            f"process {frm} speaks inter-process protocol version {version}, this process version "
            f"{PROTOCOL_VERSION}: every process sharing a Redis server must run the same Mauseloch"
        )
        self.frm = frm
        self.version = version


class Header(msgspec.Struct, array_like=True, frozen=True):
    """What every version of the protocol puts first; ``body`` is read only in this version."""

    v: int
    kind: str
    frm: str
    rid: int
    body: msgspec.Raw


_encode = msgspec.msgpack.Encoder().encode
_header = msgspec.msgpack.Decoder(Header)
_bodies: dict[str, msgspec.msgpack.Decoder[Any]] = {
    "q": msgspec.msgpack.Decoder(Request),
    "r": msgspec.msgpack.Decoder(Outcome),
    "m": msgspec.msgpack.Decoder(TableMessage),
    "t": msgspec.msgpack.Decoder(TableFrame),
}


Body = Request | Outcome | TableMessage | TableFrame


def encode(kind: Kind, frm: str, body: Body, rid: int = 0) -> bytes:
    return _encode((PROTOCOL_VERSION, kind, frm, rid, body))


def read_header(data: bytes) -> Header:
    """The frame's header; ``msgspec.DecodeError`` when it is no frame of any version."""
    return _header.decode(data)


def read_body(header: Header) -> Body:
    """The frame's body; :class:`VersionMismatch` for a frame of another protocol version,
    ``msgspec.DecodeError`` for one this version cannot read."""
    if header.v != PROTOCOL_VERSION:
        raise VersionMismatch(header.frm, header.v)
    decoder = _bodies.get(header.kind)
    if decoder is None:
        raise msgspec.DecodeError(f"unknown frame kind {header.kind!r}")
    body: Body = decoder.decode(header.body)
    return body
