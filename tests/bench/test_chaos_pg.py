"""bench/chaos.py on PostgreSQL with several kills, tiny-sized: every game finishes, nothing
acknowledged is lost, every resumed view is the record's, and the run's own schema is gone after."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text

from mauseloch.server.storage.store import normalise_url
from tests.paths import ROOT


def test_chaos_on_postgresql_with_two_kills() -> None:
    url = os.environ.get("MAUSELOCH_TEST_PG_URL")
    if not url:
        pytest.skip("MAUSELOCH_TEST_PG_URL is not set (scripts/start-postgres.sh prints it)")
    args = ["--games", "8", "--parallel", "4", "--kills", "2", "--db", url, "--json"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.splitlines()[-1])
    assert figures["restarts"] == 2
    assert figures["finished"] == figures["games"] == 8
    assert figures["lost_moves"] == 0 and figures["resume_mismatches"] == 0
    engine = create_engine(normalise_url(url))
    try:
        with engine.connect() as conn:
            left = conn.execute(
                text("SELECT count(*) FROM pg_namespace WHERE nspname = :schema"), {"schema": figures["schema"]}
            ).scalar()
    finally:
        engine.dispose()
    assert figures["schema"] and left == 0  # the run had a schema of its own, dropped afterwards
