"""The database's tables (``ml_tables``, ``ml_seats``, ``ml_moves``) and the statements built
once from them: the hot writes of every move and turn (:data:`HOT`) and the reads of a table.

Every move is stored under its version (the number of moves before it), the table's key with it
``(table_id, version)``: a second writer of a version is refused there. Seat tokens are stored
only as SHA-256 hashes.
"""

from __future__ import annotations

import functools

from mauseloch.extras import needs

with needs("web", __name__):
    from sqlalchemy import (
        JSON,
        BigInteger,
        Boolean,
        Column,
        DateTime,
        ForeignKey,
        Integer,
        MetaData,
        String,
        Table,
        bindparam,
        func,
        insert,
        literal_column,
        select,
        update,
    )

metadata = MetaData()

tables_t = Table(
    "ml_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("title", String(100), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("deck", JSON, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # waiting | playing | over
    Column("created", DateTime(timezone=True), nullable=False),
    Column("finished", DateTime(timezone=True), nullable=True),
    Column("result", JSON, nullable=True),
    Column("clock", String(10), nullable=True),  # off | relaxed | normal | fast (NULL: older tables, off)
    Column("deadlines", JSON, nullable=True),  # the table's running deadlines (clock.Deadline dicts)
    # the moves stored when ``deadlines`` was written: a move stored after it carries newer ones
    Column("deadlines_at", Integer, nullable=True),
    Column("next_id", String(32), nullable=True),  # the rematch table, once agreed
    Column("public", Boolean, nullable=True),  # listed in the lobby (NULL: older tables, which all were)
    Column("invite_hash", String(64), nullable=True),  # sha256 hex of the invite secret of a private table
    Column("match", JSON, nullable=True),  # family match play: the match this deal belongs to (server/match.py)
    # a table waiting for players: when it was created or last joined, so that its expiry counts on
    # across a restart (NULL: older tables, counted from ``created``)
    Column("joined", DateTime(timezone=True), nullable=True),
)

seats_t = Table(
    "ml_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(10), nullable=False),  # human | bot
    Column("name", String(64), nullable=False),
    Column("bot", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 hex; NULL while a human seat is free
    Column("gone", Boolean, nullable=True),  # the person left (on purpose or past the grace time)
)

moves_t = Table(
    "ml_moves",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),  # moves played before this one
    Column("seat", Integer, nullable=False),
    Column("move", String(100), nullable=False),
    Column("ms", Integer, nullable=True),
    Column("played", DateTime(timezone=True), nullable=False),
    Column("by", String(10), nullable=True),  # "stand-in" when a stand-in bot played it for the seat
    # a reaction game's decided window: every claim, what was observed and the decision
    Column("referee", JSON(none_as_null=True), nullable=True),
    # the table's deadlines from this move on (NULL: as they were), in the move's own row
    Column("deadlines", JSON(none_as_null=True), nullable=True),
)


# Family rooms (server/rooms.py): a room's members come by its link (a secret after ``#``, kept
# here only as its SHA-256 hash, like every member's token); its tables are found through the
# seat tokens its members were given (``ml_room_seats``), which rematches and a match's deals keep.
rooms_t = Table(
    "ml_rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("secret_hash", String(64), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("creator", String(32), nullable=False),  # the member who created it (may remove members)
    Column("settings", JSON, nullable=False),  # hints, learning members, the last choices per game
)

room_members_t = Table(
    "ml_room_members",
    metadata,
    Column("room_id", String(32), ForeignKey("ml_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("avatar", String(20), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("joined", DateTime(timezone=True), nullable=False),
    Column("seen", DateTime(timezone=True), nullable=True),  # the room page last asked (who is here now)
)

room_tables_t = Table(
    "ml_room_tables",
    metadata,
    Column("room_id", String(32), ForeignKey("ml_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("table_id", String(32), primary_key=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("plan", JSON, nullable=False),  # the seats as chosen: member ids and bots, per seat
)

room_seats_t = Table(
    "ml_room_seats",
    metadata,
    Column("room_id", String(32), ForeignKey("ml_rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("token_hash", String(64), primary_key=True),  # a seat token a member was given
    Column("member", String(32), nullable=False),
)


_MOVE_COLUMNS = ("table_id", "version", "seat", "move", "ms", "played", "by", "referee", "deadlines")
_move_values = {c: bindparam(c, type_=moves_t.c[c].type) for c in _MOVE_COLUMNS}
_DEADLINES = bindparam("deadlines", type_=tables_t.c.deadlines.type)
# the moves stored when a table's deadlines are written (a move's own deadlines count if newer)
_MOVES_SO_FAR = (
    select(func.count()).select_from(moves_t).where(moves_t.c.table_id == bindparam("table_id")).scalar_subquery()
)

# The writes of every move and turn, built once: the hot path only binds values (building an
# update per call cost more CPU than executing it: SQLAlchemy's coercions and cache keys).
# A move carries the table's deadlines from then on in its own row: one INSERT a move, where an
# UPDATE of the table's JSON column would cost 248 µs of a move's storage (measured).
HOT = {
    "move": insert(moves_t).values(_move_values),  # "ON CONFLICT DO NOTHING" added once compiled
    "deadlines": update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"))
    .values(deadlines=_DEADLINES, deadlines_at=_MOVES_SO_FAR),
    "gone": update(seats_t)
    .where(seats_t.c.table_id == bindparam("of_table"), seats_t.c.seat == bindparam("of_seat"))
    .values(gone=bindparam("gone")),
    "status": update(tables_t).where(tables_t.c.id == bindparam("table_id")).values(status=bindparam("status")),
    "status_over": update(tables_t)
    .where(tables_t.c.id == bindparam("table_id"))
    .values(
        status=bindparam("status"),
        finished=bindparam("finished", type_=tables_t.c.finished.type),
        result=bindparam("result", type_=tables_t.c.result.type),
    ),
    # a table created and its seats taken: the lobby's writes, as cheap as a move's
    "table": insert(tables_t).values(
        {c.name: bindparam(c.name, type_=c.type) for c in tables_t.c if c.name not in ("finished", "result", "next_id")}
    ),
    "seat": insert(seats_t).values({c.name: bindparam(c.name, type_=c.type) for c in seats_t.c}),
    "take_seat": update(seats_t)
    .where(
        seats_t.c.table_id == bindparam("of_table"),
        seats_t.c.seat == bindparam("of_seat"),
        seats_t.c.kind == literal_column("'human'"),  # in the SQL: every value a write binds is its own
        seats_t.c.token_hash.is_(None),
    )
    .values(name=bindparam("name"), token_hash=bindparam("token_hash")),
    # stamped only where the join's own seat update took (its token hash is new), so that it can
    # share a batch with that update and still stamp nothing for a refused join
    "joined": update(tables_t)
    .where(
        tables_t.c.id == bindparam("table_id"),
        select(seats_t.c.seat)
        .where(seats_t.c.table_id == bindparam("table_id"), seats_t.c.token_hash == bindparam("token_hash"))
        .exists(),
    )
    .values(joined=bindparam("joined", type_=tables_t.c.joined.type)),
    # a waiting table starts in the transaction that takes its last free human seat: with a write
    # of its own after the join's commit, a process killed between the two left the table waiting
    # for ever with every seat taken (bench/chaos.py on PostgreSQL)
    "start": update(tables_t)
    .where(
        tables_t.c.id == bindparam("table_id"),
        tables_t.c.status == literal_column("'waiting'"),
        ~select(seats_t.c.seat)
        .where(
            seats_t.c.table_id == bindparam("table_id"),
            seats_t.c.kind == literal_column("'human'"),
            seats_t.c.token_hash.is_(None),
        )
        .exists(),
    )
    .values(status=literal_column("'playing'")),
}

# who holds each seat now, with the table's status and last join (Store.seats_now)
SEATS_NOW = (
    select(seats_t.c.name, seats_t.c.token_hash, tables_t.c.status, tables_t.c.joined)
    .select_from(seats_t.join(tables_t, tables_t.c.id == seats_t.c.table_id))
    .where(seats_t.c.table_id == bindparam("table_id"))
    .order_by(seats_t.c.seat)
)


# the reads of one table on PostgreSQL, through the driver's own cursor (Store.load_table)
PG_TABLE = f"SELECT * FROM {tables_t.name} WHERE id = %s"
PG_SEATS = f"SELECT * FROM {seats_t.name} WHERE table_id = %s ORDER BY seat"
PG_MOVES = f"SELECT * FROM {moves_t.name} WHERE table_id = %s ORDER BY version"


@functools.cache
def pg_seats_now() -> str:
    """:data:`SEATS_NOW` as the driver's SQL (psycopg's named placeholders), compiled once: on
    PostgreSQL only (its dialect is 40 ms of a SQLite server's start)."""
    from sqlalchemy.dialects.postgresql import psycopg

    return str(SEATS_NOW.compile(dialect=psycopg.dialect()))
