"""The Bot API's registry of bots online, their challenges and each token's limits, without a server."""

from __future__ import annotations

from pathlib import Path

import pytest

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
from mauseloch.server.storage import Store


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
