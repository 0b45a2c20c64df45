"""What Web Push keeps in the database: the server's VAPID key, each device's subscription per
seat, and the pushes not yet delivered (so a restart sends them still).

A subscription's endpoint URL is a capability (whoever knows it can push to the device): it is
stored, never logged; rows are found by its SHA-256.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from mauseloch.extras import needs
from mauseloch.server.storage.rows import now
from mauseloch.server.storage.schema import metadata
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy import Column, DateTime, Float, Integer, String, Table, delete, insert, select
    from sqlalchemy.exc import IntegrityError

MAX_ENDPOINT = 2000  # push services' endpoints are a few hundred characters
MAX_KEY = 200

push_keys_t = Table(
    "ml_push_keys",
    metadata,
    Column("name", String(20), primary_key=True),  # "vapid"
    Column("private_pem", String(1000), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

push_subs_t = Table(
    "ml_push_subs",
    metadata,
    Column("endpoint_hash", String(64), primary_key=True),  # sha256 hex of the endpoint URL
    Column("table_id", String(32), primary_key=True, index=True),  # a table's seats looked up at each turn
    Column("seat", Integer, primary_key=True),
    Column("endpoint", String(MAX_ENDPOINT), nullable=False),
    Column("p256dh", String(MAX_KEY), nullable=False),
    Column("auth", String(MAX_KEY), nullable=False),
    Column("lang", String(5), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

push_pending_t = Table(
    "ml_push_pending",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("kind", String(10), nullable=False),  # turn | remind | end
    Column("due", Float, nullable=False),  # epoch seconds: sent from then on
    Column("left_s", Float, nullable=False),  # a reminder: the seconds it says are left
    Column("version", Integer, nullable=False),  # a reminder: sent only if the seat is still to move then
)


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


@dataclass(frozen=True)
class Subscription:
    """One device's subscription for one seat (``endpoint`` is a secret: never log it)."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str

    @property
    def key(self) -> str:
        return endpoint_hash(self.endpoint)

    def info(self) -> dict[str, str | dict[str, str]]:
        """As pywebpush takes it (the browser's ``PushSubscription.toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True)
class Pending:
    id: int
    table_id: str
    seat: int
    kind: str
    due: float
    left: float
    version: int


class PushStore:
    """The push tables of one store (synchronous: run through ``Store.call``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # a store made before this module was imported did not create the tables: do it here
        for t in (push_keys_t, push_subs_t, push_pending_t):
            t.create(store.engine, checkfirst=True)

    # -- the VAPID key ---------------------------------------------------------------------
    def key_pem(self, made: str) -> str:
        """The stored private key (PEM); ``made`` is stored first if there is none (the first of
        several processes starting at once wins; all use its key)."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(push_keys_t.c.private_pem).where(push_keys_t.c.name == "vapid")).first()
        if row is not None:
            return str(row.private_pem)
        try:
            with self.store.engine.begin() as conn:
                conn.execute(insert(push_keys_t).values(name="vapid", private_pem=made, created=now()))
        except IntegrityError:
            return self.key_pem(made)
        return made

    # -- subscriptions ---------------------------------------------------------------------
    def subscribe(self, sub: Subscription, seats: list[tuple[str, int]]) -> None:
        with self.store.engine.begin() as conn:
            for table_id, seat in seats:
                conn.execute(
                    delete(push_subs_t).where(
                        push_subs_t.c.endpoint_hash == sub.key,
                        push_subs_t.c.table_id == table_id,
                        push_subs_t.c.seat == seat,
                    )
                )
                conn.execute(
                    insert(push_subs_t).values(
                        endpoint_hash=sub.key,
                        table_id=table_id,
                        seat=seat,
                        endpoint=sub.endpoint,
                        p256dh=sub.p256dh,
                        auth=sub.auth,
                        lang=sub.lang,
                        created=now(),
                    )
                )

    def unsubscribe(self, key: str, seats: list[tuple[str, int]] | None = None) -> int:
        """Drop the subscription of endpoint hash ``key`` for ``seats`` (None: for every seat, as
        when its push service says it is gone); how many rows went."""
        gone = 0
        with self.store.engine.begin() as conn:
            if seats is None:
                gone += conn.execute(delete(push_subs_t).where(push_subs_t.c.endpoint_hash == key)).rowcount
            for table_id, seat in seats or ():
                gone += conn.execute(
                    delete(push_subs_t).where(
                        push_subs_t.c.endpoint_hash == key,
                        push_subs_t.c.table_id == table_id,
                        push_subs_t.c.seat == seat,
                    )
                ).rowcount
        return gone

    def subscriptions(self, table_id: str, seat: int) -> list[Subscription]:
        q = select(push_subs_t).where(push_subs_t.c.table_id == table_id, push_subs_t.c.seat == seat)
        with self.store.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [Subscription(r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]

    def subscribed(self, table_id: str) -> set[int]:
        """The seats of ``table_id`` that some device asked to be told about."""
        q = select(push_subs_t.c.seat).where(push_subs_t.c.table_id == table_id).distinct()
        with self.store.engine.connect() as conn:
            return {int(r.seat) for r in conn.execute(q)}

    # -- pending pushes --------------------------------------------------------------------
    def add_pending(self, table_id: str, seat: int, kind: str, due: float, left: float, version: int) -> int:
        row = {"table_id": table_id, "seat": seat, "kind": kind, "due": due, "left_s": left, "version": version}
        with self.store.engine.begin() as conn:
            done = conn.execute(insert(push_pending_t).values(**row))
            key = done.inserted_primary_key
            return int(key[0]) if key else 0

    def done_pending(self, pending_id: int) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(delete(push_pending_t).where(push_pending_t.c.id == pending_id))

    def drop_pending(self, table_id: str, seat: int | None = None, kind: str | None = None) -> None:
        """Forget what was to be sent to ``seat`` (None: everyone) of ``kind`` (None: any)."""
        q = delete(push_pending_t).where(push_pending_t.c.table_id == table_id)
        if seat is not None:
            q = q.where(push_pending_t.c.seat == seat)
        if kind is not None:
            q = q.where(push_pending_t.c.kind == kind)
        with self.store.engine.begin() as conn:
            conn.execute(q)

    def pending(self, table_ids: list[str] | None = None) -> list[Pending]:
        q = select(push_pending_t).order_by(push_pending_t.c.id)
        if table_ids is not None:
            q = q.where(push_pending_t.c.table_id.in_(table_ids))
        with self.store.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [
            Pending(int(r.id), r.table_id, int(r.seat), r.kind, float(r.due), float(r.left_s), int(r.version))
            for r in rows
        ]
