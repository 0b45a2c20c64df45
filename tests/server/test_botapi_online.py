"""The Bot API's registry of bots online, their challenges and each token's limits, without a server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from mauseloch.server.bodies import LadderEntry
from mauseloch.server.botapi.online import (
    CHALLENGE_SECONDS,
    MAX_OPEN_CHALLENGES,
    MAX_STREAMS,
    MOVES_PER_SECOND,
    Challenge,
    OnlineBots,
)
from mauseloch.server.botapi.tokens import KNOWN_SECONDS, BotTokens
from mauseloch.server.limits import Refused
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.storage.store import Store

from .conftest import AppFactory
from .serving import RunAsync


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'b.db'}")


def challenge(ch_id: str, bot: str, due: float, state: str = "open") -> Challenge:
    return Challenge(ch_id, bot, "T1", 1, "mau-mau", 2, {}, "Anna", due=due, state=state)  # type: ignore[arg-type]


def test_a_seat_challenges_only_a_bot_that_is_online_and_not_swamped(store: Store) -> None:
    clock = Clock()
    online = OnlineBots(store, clock=clock)
    with pytest.raises(ProtocolError) as offline:
        online.seat(1, "nobody")
    assert offline.value.code is ErrorCode.BAD_MESSAGE
    bot = online.opened("busy")
    online.listen(bot)
    assert online.seat(1, "busy").kind == "online-bot" and not online.seat(1, "busy").taken
    for i in range(MAX_OPEN_CHALLENGES):
        online.challenges[str(i)] = challenge(str(i), "busy", clock.t + CHALLENGE_SECONDS)
    with pytest.raises(Refused) as swamped:
        online.seat(1, "busy")
    assert swamped.value.status == 429 and swamped.value.retry_after >= 1
    clock.t += CHALLENGE_SECONDS + 1  # unanswered now: they count no more
    assert online.seat(1, "busy").bot == "busy"
    assert {c.state for c in online.of_table("T1")} == {"unanswered"}


def test_each_token_has_its_limits(store: Store) -> None:
    clock = Clock()
    online = OnlineBots(store, clock=clock)
    bot = online.get("fast")
    for _ in range(MOVES_PER_SECOND):
        online.count_move(bot)
    with pytest.raises(Refused) as flood:
        online.count_move(bot)
    assert flood.value.code is ErrorCode.RATE_LIMITED and flood.value.retry_after == 1
    clock.t += 1.0
    online.count_move(bot)  # a second later: fine again
    for _ in range(MAX_STREAMS):
        online.opened("many")
    with pytest.raises(Refused) as streams:
        online.opened("many")
    assert streams.value.code is ErrorCode.TOO_MANY_CONNECTIONS


def test_answered_challenges_are_forgotten_after_an_hour(store: Store) -> None:
    clock = Clock()
    online = OnlineBots(store, clock=clock)
    online.challenges["a"] = challenge("a", "b", clock.t + CHALLENGE_SECONDS, "declined")
    online.challenges["o"] = challenge("o", "b", clock.t + CHALLENGE_SECONDS)
    online.prune()
    assert set(online.challenges) == {"a", "o"}  # shown to the table's creator for a while
    clock.t += 3601
    online.prune()
    assert set(online.challenges) == {"o"}  # an open one is kept until its answer (or its time) is in
    online.of_table("T1")
    online.prune()
    assert online.challenges == {}


def test_tokens_are_stored_hashed_and_a_revocation_holds_within_seconds(store: Store) -> None:
    clock = Clock()
    tokens = BotTokens(store, clock=clock)
    token = tokens.create("hashed")
    with pytest.raises(ValueError, match="taken"):
        tokens.create("hashed")
    with pytest.raises(ValueError, match="bot name"):
        tokens.create("no spaces here")
    with store.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT token_hash FROM ml_bots").scalar_one()
    assert token not in stored and len(stored) == 64
    assert tokens.check(token) == "hashed" and tokens.known(token) == "hashed"
    assert tokens.check("mlb_wrong") is None and tokens.known("mlb_wrong") is None
    assert tokens.revoke("hashed") and not tokens.revoke("hashed")
    assert tokens.known(token) == "hashed"  # remembered a moment ...
    clock.t += KNOWN_SECONDS + 0.1
    assert tokens.known(token) is None and tokens.check(token) is None  # ... then refused
    assert [(e.name, e.revoked) for e in tokens.list()] == [("hashed", True)]


def test_every_deal_of_a_rated_match_counts_once_with_the_seats_turned(store: Store) -> None:
    """A rated table that starts a match rates each of its deals once, with the first deal's
    entrants one seat on per deal; a match started by an unrated table counts for nothing."""
    import datetime as dt

    from mauseloch.server.botapi import ladder
    from mauseloch.server.storage.rows import SeatRow, TableRow

    def deal(table_id: str, deal_no: int, before: list[str], bots: list[str], ranks: list[int]) -> TableRow:
        seats = [SeatRow(seat=i, kind="online-bot", name=b, bot=b, token_hash="x") for i, b in enumerate(bots)]
        match = {"seed": 1, "deal": deal_no, "deals": 3, "target": 0, "scores": [], "tables": before}
        row = TableRow(
            id=table_id, game="mau-mau", title="", players=2, options={}, seed=deal_no, deck=[], status="playing",
            created=dt.datetime.now(dt.UTC), seats=seats, match=match,
        )  # fmt: skip
        store.create_table(row)
        store.set_status(table_id, "over", {"ranks": ranks})
        return row

    ladder.create_tables(store)
    first = deal("M0", 0, [], ["ann", "bob"], [1, 2])
    ladder.mark_rated(store, first)
    deal("M1", 1, ["M0"], ["bob", "ann"], [1, 2])  # the seats turned: bob sits at 0 now, and wins
    deal("M2", 2, ["M0", "M1"], ["ann", "bob"], [2, 1])
    deal("U0", 0, [], ["ann", "bob"], [1, 2])  # an unrated match and its next deal
    deal("U1", 1, ["U0"], ["bob", "ann"], [1, 2])
    games = ladder.rated_games(store, "mau-mau", 2)
    assert [g.table for g in games] == ["M0", "M1", "M2"]
    assert [g.entrants for g in games] == [
        {0: "bot:ann", 1: "bot:bob"},
        {0: "bot:bob", 1: "bot:ann"},
        {0: "bot:ann", 1: "bot:bob"},
    ]
    entries = {e.id: e for e in ladder.ratings(store, "mau-mau", 2)}
    assert entries["bot:ann"].games == entries["bot:bob"].games == 3
    assert entries["bot:bob"].rating > entries["bot:ann"].rating  # bob won two of the three deals
    # a later deal says it is rated, and a seat entered there is the first deal's seat it sat at
    assert ladder.is_rated(store, "M2") and not ladder.is_rated(store, "U1")
    with pytest.raises(ValueError, match="not rated"):
        ladder.enter_person(store, "U1", 0, "Carla", "secret-of-carla")
    with pytest.raises(ValueError, match="already"):  # seat 0 of deal 2 was seat 1 (bob's) in deal 1
        ladder.enter_person(store, "M1", 0, "Carla", "secret-of-carla")
    assert ladder.entered(store, "M1", 0) is None  # bob's seat: a bot, not a person's ladder name


def test_a_join_reads_the_rating_of_a_table_created_here_without_the_store(
    store: Store, monkeypatch: pytest.MonkeyPatch, run_async: RunAsync
) -> None:
    """Whether a table is rated is said once, at its creation: the joins of a table created by
    this process ask no query of the ladder (a query costs about a millisecond of the server's
    CPU a join); a table created elsewhere, or a later deal of a match, is looked up."""
    import datetime as dt

    from mauseloch.server.botapi import ladder
    from mauseloch.server.storage.rows import SeatRow, TableRow

    online = OnlineBots(store)
    looked_up: list[str] = []
    real = ladder.is_rated
    monkeypatch.setattr(ladder, "is_rated", lambda st, table_id: looked_up.append(table_id) or real(st, table_id))
    for table_id, rated in (("R", True), ("U", False)):
        seats = [SeatRow(seat=i, kind="human", name=f"P{i}") for i in range(2)]
        row = TableRow(
            id=table_id, game="mau-mau", title="", players=2, options={}, seed=1, deck=[], status="waiting",
            created=dt.datetime.now(dt.UTC), seats=seats,
        )  # fmt: skip
        store.create_table(row)
        run_async(online.created(row, "P0", rated=rated))
    assert online.is_rated("R") and not online.is_rated("U")
    assert looked_up == []
    assert not online.is_rated("elsewhere") and looked_up == ["elsewhere"]


def test_ladder_names_are_compared_folded_and_by_their_look() -> None:
    """UTS #39 skeletons (ICU's) after and before Unicode case folding: what looks alike, in any
    case, is one name; what only sounds alike is not."""
    from mauseloch.server.botapi.ladder import name_keys

    def same(a: str, b: str) -> bool:
        return bool(set(name_keys(a)) & set(name_keys(b)))

    for like in ("ALICE", "\u0410lice", "AIice", "\uff41\uff4c\uff49\uff43\uff45", "alice "[:-1]):
        assert same("alice", like), like
    assert same("Oma", "0ma") and same("Oma", "OMA") and same("m", "rn")
    for other in ("Alicia", "Juergen", "Ben"):
        assert not same("alice" if other != "Juergen" else "Jürgen", other), other


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_two_look_alike_names_joining_at_once_are_not_both_seated(
    make_client: AppFactory, request: pytest.FixtureRequest, database: str
) -> None:
    """Two people join one rated table at the same moment, as ``carl`` and Cyrillic ``сarl``
    (one name to the ladder): one gets the seat, the other is refused and their seat stays
    free. Both joins are checked before either seat is taken (their steps interleave)."""
    db = str(request.getfixturevalue("pg_url")) if database == "postgres" else None
    client = make_client(db=db)
    creator = {"name": "anna", "secret": "anna-browser-secret"}
    body = {"game": "mau-mau", "seats": [{"kind": "human"}] * 3, "rated": True, "ladder": creator}
    made = client.post("/api/tables", json=body)
    assert made.status_code == 200, made.text
    table_id, invite = made.json()["table"], made.json()["invite_secret"]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    entries = [LadderEntry(name="carl", secret="carl-browser-secret"), LadderEntry(name="\u0441arl", secret="x" * 12)]

    async def both() -> list[object]:
        table = await lobby.find(table_id)
        joins = [lobby.join(table, "Guest", None, invite, entry) for entry in entries]
        return await asyncio.gather(*joins, return_exceptions=True)

    results = client.portal.call(both)  # type: ignore[union-attr]
    refused = [r for r in results if isinstance(r, ProtocolError)]
    assert len(refused) == 1 and refused[0].code == ErrorCode.LADDER_NAME_TAKEN, results
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "waiting" and sum(s["taken"] for s in summary["seats"]) == 2, summary
