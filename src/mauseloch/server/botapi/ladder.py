"""The rated ladder: OpenSkill (Plackett–Luce) ratings per game and player count.

Only tables created as rated count, and every later deal of a match a rated table starts (each
once). When one is created its entrants are stored (:func:`mark_rated`): an online bot as
``bot:NAME``, a built-in bot as the anchor ``anchor:KIND``, and a person who picks a ladder name
as ``person:NAME`` (:func:`enter_person`: a name and a secret the browser keeps; the first use of
a name claims it, later uses need its secret). A person enters as they take a seat at a rated
table (joining it, or creating it), so every seat is bound to its name when the game starts; one
name plays one seat of a table, one browser (its secret) one seat, and a name too like another's
(:func:`name_keys`: Unicode case folding and UTS #39 confusable skeletons) is that other's. A
seat nobody entered plays unrated. The ratings
are derived from the stored results, rated tables in the order they finished, so they are the
same after every restart and nothing but a finished rated game moves them. Built-in bots are
fixed anchors: their rating is set, never learned (weakest kind lowest, :func:`anchor_rating`),
so the scale means the same from one season to the next.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mauseloch.extras import needs
from mauseloch.server.bodies import Ladder, LadderChoice, RatedGame, Rival, Rung
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.storage.rows import TableRow, now
from mauseloch.server.storage.schema import metadata, tables_t
from mauseloch.server.storage.store import Store

with needs("web", __name__):
    from openskill.models import PlackettLuce
    from sqlalchemy import Column, Connection, DateTime, ForeignKey, Integer, String, Table, and_, insert, select
    from sqlalchemy.exc import IntegrityError

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
ANCHOR_STEP = 2.0  # the rating between two neighbouring built-in bot kinds (weakest first)
ANCHOR_SIGMA = 1.0  # an anchor's fixed uncertainty: its rating pulls others, it never moves
HISTORY = 50  # rating points kept per entry for its plot
OPPONENTS = 3  # strongest opponents listed per entry
MAX_LADDER_NAME = 24
LADDER_NAME = re.compile(r"[^\W_][\w .-]{1,23}", re.UNICODE)

rated_t = Table(
    "ml_rated",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
)

entrants_t = Table(
    "ml_rated_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("ml_rated.table_id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("entrant", String(64), nullable=False),  # bot:NAME | anchor:KIND | person:NAME
)

people_t = Table(
    "ml_ladder_names",
    metadata,
    Column("name", String(MAX_LADDER_NAME), primary_key=True),
    Column("secret_hash", String(64), nullable=False),  # sha256 hex of the secret the browser keeps
    Column("created", DateTime(timezone=True), nullable=False),
)


# the forms a name is compared in (name_keys), each held by one name: "fold:…" and "look:…"
name_keys_t = Table(
    "ml_ladder_keys",
    metadata,
    Column("key", String(400), primary_key=True),
    Column("name", String(MAX_LADDER_NAME), ForeignKey("ml_ladder_names.name", ondelete="CASCADE"), nullable=False),
)


def create_tables(store: Store) -> None:
    """The ladder's tables in ``store`` (a store made before this module was imported lacks them);
    the names claimed before names had keys get theirs (the older name keeps a key two share)."""
    for table in (rated_t, entrants_t, people_t, name_keys_t):
        table.create(store.engine, checkfirst=True)
    with store.engine.begin() as conn:
        keyed = select(name_keys_t.c.name)
        for (name,) in conn.execute(
            select(people_t.c.name).where(people_t.c.name.not_in(keyed)).order_by(people_t.c.created)
        ):
            for key in name_keys(name):
                if conn.execute(select(name_keys_t.c.key).where(name_keys_t.c.key == key)).first() is None:
                    conn.execute(insert(name_keys_t).values(key=key, name=name))


class LadderRefused(ValueError):
    """A ladder entry refused: ``code`` for the page, the message for people."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


def refused_entry(check: Callable[..., object], *args: object) -> None:
    """``check(*args)`` (a ladder check, in the store's thread), its refusal as the protocol's."""
    try:
        check(*args)
    except LadderRefused as exc:
        status = 400 if exc.code in (ErrorCode.LADDER_NAME, ErrorCode.BAD_MESSAGE) else 409
        raise ProtocolError(exc.code, str(exc), status) from None


@functools.cache
def _spoof_checker() -> Any:
    import icu  # PyICU: ICU's UTS #39 spoof checker, with its confusables data

    return icu.SpoofChecker()


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text`` (ICU's: NFD, every character to its prototype, NFD): two
    strings with one skeleton look alike ("Аlice" with a Cyrillic А, "rn" and "m")."""
    return str(_spoof_checker().getSkeleton(0, text))


def name_keys(name: str) -> tuple[str, str]:
    """The forms a ladder name is compared in; two names that share either are one. ``fold``:
    case-folded (NFKC), then its skeleton, folded again ("ALICE", "Аlice" and "alice"; "0ma" and
    "Oma", whose 0 looks like a capital O); ``look``: the skeleton as typed, then folded ("AIice",
    with a capital I, and "alice"). Confusability does not survive folding one way alone: a capital
    I looks like l, its small form does not."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "fold:" + skeleton(folded).casefold(), "look:" + skeleton(unicodedata.normalize("NFKC", name)).casefold()


def entrant_of(kind: str, name: str | None, bot: str | None) -> str | None:
    """The ladder entry a seat plays for at creation: bots are known; a person enters later."""
    if kind == "online-bot" and bot:
        return f"bot:{bot}"
    if kind == "bot" and bot:
        return f"anchor:{bot}"
    return None


def mark_rated(store: Store, row: TableRow) -> None:
    """Store ``row`` as a rated table with the entrants known now (its bots)."""
    with store.engine.begin() as conn:
        conn.execute(insert(rated_t).values(table_id=row.id, game=row.game, players=row.players))
        for s in row.seats:
            entrant = entrant_of(s.kind, s.name, s.bot)
            if entrant is not None:
                conn.execute(insert(entrants_t).values(table_id=row.id, seat=s.seat, entrant=entrant))


def first_deal(conn: Connection, table_id: str) -> tuple[str, int]:
    """The table whose rating ``table_id`` shares (the first deal of its match, else itself) and
    the turns its seats went on since (one a deal)."""
    found = conn.execute(select(tables_t.c.match).where(tables_t.c.id == table_id)).first()
    before = found.match.get("tables") if found is not None and isinstance(found.match, dict) else None
    if isinstance(before, list) and before:
        return str(before[0]), len(before)
    return table_id, 0


def is_rated(store: Store, table_id: str) -> bool:
    """Whether ``table_id`` counts for the ladder (a later deal of a rated match does)."""
    with store.engine.connect() as conn:
        first, _ = first_deal(conn, table_id)
        return conn.execute(select(rated_t.c.table_id).where(rated_t.c.table_id == first)).first() is not None


def entered(store: Store, table_id: str, seat: int) -> str | None:
    """The ladder name seat ``seat`` of ``table_id`` plays for (a person's), if any."""
    with store.engine.connect() as conn:
        first, turn = first_deal(conn, table_id)
        rated = conn.execute(select(rated_t.c.players).where(rated_t.c.table_id == first)).first()
        if rated is None:
            return None
        at = (seat + turn) % rated.players
        found = conn.execute(
            select(entrants_t.c.entrant).where(entrants_t.c.table_id == first, entrants_t.c.seat == at)
        ).first()
    kind, _, name = (found.entrant if found is not None else "").partition(":")
    return name if kind == "person" else None


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def check_name(name: str, secret: str) -> str:
    """``name`` as a ladder name, stripped; :class:`LadderRefused` for a bad name or secret."""
    name = name.strip()
    if not LADDER_NAME.fullmatch(name) or "bot" in name_keys(name)[0]:
        raise LadderRefused(
            ErrorCode.LADDER_NAME,
            f"a ladder name is 2 to {MAX_LADDER_NAME} letters, digits, spaces, '.', '-' (no 'bot')",
        )
    if not 8 <= len(secret) <= 200:
        raise LadderRefused(ErrorCode.LADDER_NAME, "the ladder secret is 8 to 200 characters")
    return name


def _claimable(conn: Connection, name: str, keys: tuple[str, str], digest: str) -> tuple[bool, set[str]]:
    """Whether ``name`` is claimed already (with ``digest``, else :class:`LadderRefused`), and
    the names holding its keys."""
    holders = {r.name for r in conn.execute(select(name_keys_t.c.name).where(name_keys_t.c.key.in_(keys)))}
    others = holders - {name}
    if others:
        raise LadderRefused(ErrorCode.LADDER_NAME_TAKEN, f"the ladder name {name!r} is too like {min(others)!r}")
    held = conn.execute(select(people_t.c.secret_hash).where(people_t.c.name == name)).first()
    if held is not None and not hmac.compare_digest(held.secret_hash, digest):
        raise LadderRefused(ErrorCode.LADDER_NAME_TAKEN, f"the ladder name {name!r} belongs to someone else")
    return held is not None, holders


def _claim(conn: Connection, name: str, keys: tuple[str, str], digest: str) -> None:
    """``name`` claimed with ``digest`` now, with its keys (nothing when it is this secret's
    already), in ``conn``'s transaction: :class:`LadderRefused` for a name claimed by another
    secret, or one too like it. The keys' primary key decides between two look-alikes claimed at
    the same moment (the loser's insert fails: refused as taken)."""
    claimed, holders = _claimable(conn, name, keys, digest)
    if claimed:
        return
    try:  # a failed insert spoils the transaction: the refusal rolls it back whole
        conn.execute(insert(people_t).values(name=name, secret_hash=digest, created=now()))
        conn.execute(insert(name_keys_t), [{"key": k, "name": name} for k in keys if name not in holders])
    except IntegrityError:
        raise LadderRefused(ErrorCode.LADDER_NAME_TAKEN, f"the ladder name {name!r} was just taken") from None


def check_person(store: Store, name: str, secret: str) -> None:
    """Whether ``name`` (with ``secret``) may play a rated seat, before any table has one:
    :class:`LadderRefused` for a bad name or someone else's. The name is claimed for ``secret``
    by this check: of two people asking for look-alike names at once, one is refused here, before
    either takes a seat."""
    name = check_name(name, secret)
    with store.engine.begin() as conn:
        _claim(conn, name, name_keys(name), secret_hash(secret))


def enter_person(store: Store, table_id: str, seat: int | None, name: str, secret: str) -> str:
    """Seat ``seat`` of rated table ``table_id`` plays for the ladder name ``name``; the entry's
    id. :class:`LadderRefused` says why not: not a rated table, a bad name, a name (or one too like
    it) claimed with another secret, that name or this secret (this browser) at another seat of the
    table already, or the seat entered already. With ``seat`` None only the checks are made (before
    a seat is taken: a refused entry takes no seat)."""
    name = check_name(name, secret)
    digest = secret_hash(secret)
    keys = name_keys(name)
    with store.engine.begin() as conn:
        # a later deal of a rated match: the entry is the first deal's, for the seat they sat at then
        table_id, turn = first_deal(conn, table_id)
        rated = conn.execute(select(rated_t.c.players).where(rated_t.c.table_id == table_id)).first()
        if rated is None:
            raise LadderRefused(ErrorCode.BAD_MESSAGE, "this table is not rated")
        _claim(conn, name, keys, digest)
        at_table = conn.execute(
            select(entrants_t.c.seat, entrants_t.c.entrant, people_t.c.secret_hash)
            .join(people_t, entrants_t.c.entrant == "person:" + people_t.c.name)
            .where(entrants_t.c.table_id == table_id)
        ).all()
        entrant = f"person:{name}"
        for other in at_table:
            if other.entrant == entrant:
                raise LadderRefused(ErrorCode.LADDER_TWICE, f"{name!r} plays at this table already")
            if hmac.compare_digest(other.secret_hash, digest):
                raise LadderRefused(ErrorCode.LADDER_TWICE, "this browser plays a rated seat of this table already")
        if seat is None:
            return entrant
        seat = (seat + turn) % rated.players
        seated = select(entrants_t.c.entrant).where(entrants_t.c.table_id == table_id, entrants_t.c.seat == seat)
        if conn.execute(seated).first() is not None:
            raise LadderRefused(ErrorCode.LADDER_TWICE, "this seat plays for the ladder already")
        conn.execute(insert(entrants_t).values(table_id=table_id, seat=seat, entrant=entrant))
    return entrant


def anchor_rating(game: str, kind: str) -> float:
    """A built-in bot's fixed rating: its place among the game's kinds, weakest first, around the
    default."""
    from mauseloch.bots import bot_kinds

    kinds = bot_kinds(game)
    place = kinds.index(kind) if kind in kinds else 0
    return DEFAULT_MU + ANCHOR_STEP * (place - (len(kinds) - 1) / 2)


@dataclass
class Entry:
    id: str  # bot:NAME | anchor:KIND | person:NAME
    mu: float
    sigma: float
    games: int = 0
    history: list[RatedGame] = field(default_factory=list)  # each game: its table, when, the rating after
    met: set[str] = field(default_factory=set)

    @property
    def rating(self) -> float:
        """What the ladder ranks by: the conservative estimate, mu − 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def kind(self) -> str:
        return self.id.partition(":")[0]

    @property
    def name(self) -> str:
        return self.id.partition(":")[2]


@dataclass
class Game:
    table: str
    finished: dt.datetime
    entrants: dict[int, str]  # seat -> entry
    ranks: list[int]  # per seat, 1 = first


def rated_games(store: Store, game: str, players: int) -> list[Game]:
    """The finished rated tables of ``game`` at ``players`` seats, in the order they finished.

    A rated table that starts a match (server/match.py) rates the whole match: every later deal
    counts once, as a game of its own, with the first deal's entrants, each one seat on per deal
    (the seats turn by one a deal, as :func:`~mauseloch.server.match.next_deal_row` turns them)."""
    entered = (
        select(rated_t.c.table_id, entrants_t.c.seat, entrants_t.c.entrant)
        .join(entrants_t, entrants_t.c.table_id == rated_t.c.table_id)
        .where(rated_t.c.game == game, rated_t.c.players == players)
    )
    finished = (
        select(tables_t.c.id, tables_t.c.finished, tables_t.c.result, tables_t.c.match)
        .where(
            and_(tables_t.c.game == game, tables_t.c.players == players, tables_t.c.status == "over"),
            tables_t.c.result.is_not(None),
        )
        .order_by(tables_t.c.finished, tables_t.c.id)
    )
    games: list[Game] = []
    with store.engine.connect() as conn:
        rated: dict[str, dict[int, str]] = defaultdict(dict)
        for r in conn.execute(entered):
            rated[r.table_id][r.seat] = r.entrant
        if not rated:
            return games
        for t in conn.execute(finished):
            ranks = (t.result or {}).get("ranks")
            if not isinstance(ranks, list) or len(ranks) != players:
                continue
            entrants = rated.get(t.id)
            before = (t.match or {}).get("tables") if isinstance(t.match, dict) else None
            if entrants is None and isinstance(before, list) and before and before[0] in rated:
                # a later deal of a rated match: its first deal's entrants, turned on by the deals since
                turn = len(before)
                entrants = {(seat - turn) % players: e for seat, e in rated[before[0]].items()}
            if entrants:
                games.append(Game(t.id, t.finished, dict(entrants), [int(x) for x in ranks]))
    return games


def ratings(store: Store, game: str, players: int) -> list[Entry]:
    """Every entry of the ladder of ``game`` at ``players`` seats, best first."""
    model = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
    entries: dict[str, Entry] = {}

    def entry(entrant: str) -> Entry:
        found = entries.get(entrant)
        if found is None:
            if entrant.startswith("anchor:"):
                found = Entry(entrant, anchor_rating(game, entrant.partition(":")[2]), ANCHOR_SIGMA)
            else:
                found = Entry(entrant, DEFAULT_MU, DEFAULT_SIGMA)
            entries[entrant] = found
        return found

    for g in rated_games(store, game, players):
        seats = sorted(g.entrants)
        if len(seats) < 2:  # one rated seat alone has nobody to be compared with
            continue
        playing = [entry(g.entrants[s]) for s in seats]
        teams = [[model.rating(mu=e.mu, sigma=e.sigma, name=e.id)] for e in playing]
        rated = model.rate(teams, ranks=[float(g.ranks[s]) for s in seats])
        for e, team in zip(playing, rated, strict=True):
            if e.kind != "anchor":  # an anchor's rating is fixed
                e.mu, e.sigma = team[0].mu, team[0].sigma
            e.games += 1
            e.met.update(o.id for o in playing if o is not e)
            e.history.append(RatedGame(g.table, g.finished.isoformat(), round(e.rating, 3)))
            del e.history[:-HISTORY]
    return sorted(entries.values(), key=lambda e: (-e.rating, e.id))


def ladder(store: Store, game: str, players: int) -> Ladder:
    """The ladder as ``GET /api/ladder`` answers it."""
    entries = ratings(store, game, players)
    by_id = {e.id: e for e in entries}

    def rung(e: Entry) -> Rung:
        met = sorted((by_id[m] for m in e.met), key=lambda o: (-o.rating, o.id))[:OPPONENTS]
        rivals = [Rival(o.id, o.kind, o.name, round(o.rating, 2)) for o in met]
        return Rung(e.id, e.kind, e.name, round(e.rating, 2), round(e.mu, 2), round(e.sigma, 2), e.games, e.history,
                    rivals)  # fmt: skip

    return Ladder(game, players, [rung(e) for e in entries])


def counts(store: Store) -> list[LadderChoice]:
    """The ladders that have rated tables: each game and player count."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(rated_t.c.game, rated_t.c.players).distinct()).all()
    found: dict[str, set[int]] = defaultdict(set)
    for r in rows:
        found[r.game].add(r.players)
    return [LadderChoice(g, sorted(p)) for g, p in sorted(found.items())]
