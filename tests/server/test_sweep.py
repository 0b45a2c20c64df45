"""The sweep's look at the live tables (ownership.SWEEP), run by a real Redis: the tables nobody
owns and those of processes found gone come back with their owner, every other owner once."""

from __future__ import annotations

import os
import secrets

import pytest
import redis

from mauseloch.server.ownership import SWEEP

pytestmark = pytest.mark.redis


def test_the_sweep_finds_the_free_tables_and_names_the_other_owners_once() -> None:
    url = os.environ.get("MAUSELOCH_TEST_REDIS_URL")
    if not url:
        pytest.skip("no test Redis (MAUSELOCH_TEST_REDIS_URL)")
    client = redis.Redis.from_url(url)
    prefix = f"test-sweep-{secrets.token_hex(4)}:"  # keys of this test only: the database is shared
    live, lease = f"{prefix}live", f"{prefix}owner:"
    try:
        client.sadd(live, "free", "mine", "theirs", "theirs-too", "dead")
        client.set(f"{lease}mine", "me")
        client.set(f"{lease}theirs", "p2")
        client.set(f"{lease}theirs-too", "p2")
        client.set(f"{lease}dead", "p3")
        look = client.register_script(SWEEP)

        found, others = look(keys=[live], args=["me", lease])
        assert found == [b"free", b""]
        assert sorted(others) == [b"p2", b"p3"]  # each once, and never this process

        found, _ = look(keys=[live], args=["me", lease, "p3"])  # p3 was found gone
        pairs = {(found[i], found[i + 1]) for i in range(0, len(found), 2)}
        assert pairs == {(b"free", b""), (b"dead", b"p3")}
    finally:
        client.delete(live, *(f"{lease}{t}" for t in ("mine", "theirs", "theirs-too", "dead")))
        client.close()
