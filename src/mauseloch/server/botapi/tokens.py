"""Bot tokens: a name and the SHA-256 of a secret, stored beside the tables (no personal data).

A token is shown once, when it is created (``mauseloch bot-token create``); the store keeps only
its hash, so a copy of the database opens no bot. A revoked token opens nothing any more (within
:data:`KNOWN_SECONDS`, however many server processes share the database), and its name stays
taken, so a bot's games and ratings never pass to somebody else.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from mauseloch.extras import needs
from mauseloch.server.storage.rows import now
from mauseloch.server.storage.schema import metadata
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from sqlalchemy import Boolean, Column, DateTime, String, Table, insert, select, update

MAX_BOT_NAME = 30
# A token checked in the database counts as good this long (a revocation takes effect within it)
KNOWN_SECONDS = 2.0
MAX_KNOWN = 10_000  # tokens remembered at once (more: forgotten all, checked again)
# letters, digits, "-", "_" and "."; the page shows the name as a bot's, so no spaces to pose as a person
BOT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,29}")

bots_t = Table(
    "ml_bots",
    metadata,
    Column("name", String(MAX_BOT_NAME), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),  # sha256 hex of the token
    Column("created", DateTime(timezone=True), nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class BotEntry:
    name: str
    created: dt.datetime
    revoked: bool


class BotTokens:
    """The bot tokens of one store (its database, its SQLAlchemy metadata)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[str, tuple[str, float]] = {}  # token hash -> (bot name, checked until)
        # a store made before this module was imported did not create the table: do it here
        bots_t.create(store.engine, checkfirst=True)

    def create(self, name: str) -> str:
        """A new bot ``name`` and its token (returned once; only its hash is kept). A name that
        is taken, revoked ones included, or not of letters, digits, ``-_.`` is a ValueError."""
        if not BOT_NAME.fullmatch(name):
            raise ValueError(
                f"a bot name is 2 to {MAX_BOT_NAME} letters, digits, '-', '_' or '.', starting with a letter or digit"
            )
        token = "mlb_" + secrets.token_urlsafe(32)
        with self.store.engine.begin() as conn:
            taken = conn.execute(select(bots_t.c.name).where(bots_t.c.name == name)).first()
            if taken is not None:
                raise ValueError(f"the bot name {name!r} is taken")
            conn.execute(insert(bots_t).values(name=name, token_hash=token_hash(token), created=now(), revoked=False))
        return token

    def list(self) -> list[BotEntry]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(bots_t).order_by(bots_t.c.name)).all()
        return [BotEntry(r.name, r.created, bool(r.revoked)) for r in rows]

    def revoke(self, name: str) -> bool:
        """Revoke ``name``'s token; False when there is no such bot (or it was revoked already)."""
        with self.store.engine.begin() as conn:
            done = conn.execute(
                update(bots_t).where(bots_t.c.name == name, bots_t.c.revoked.is_(False)).values(revoked=True)
            )
        return bool(done.rowcount)

    def check(self, token: str) -> str | None:
        """The name of the bot ``token`` opens, None for a bad or revoked token. The lookup is by
        the hash (an index), then compared in constant time."""
        if not token or len(token) > 200:
            return None
        digest = token_hash(token)
        with self.store.engine.connect() as conn:
            row = conn.execute(select(bots_t).where(bots_t.c.token_hash == digest)).first()
        if row is None or row.revoked or not hmac.compare_digest(row.token_hash, digest):
            self._known.pop(digest, None)
            return None
        if len(self._known) >= MAX_KNOWN:
            self._known.clear()
        self._known[digest] = (str(row.name), self.clock() + KNOWN_SECONDS)
        return str(row.name)

    def known(self, token: str) -> str | None:
        """The bot a token opened when it was checked within the last :data:`KNOWN_SECONDS`
        (no database call: a bot's moves come many a second); None: ask :meth:`check`."""
        if not token or len(token) > 200:
            return None
        found = self._known.get(token_hash(token))
        if found is None or found[1] < self.clock():
            return None
        return found[0]
