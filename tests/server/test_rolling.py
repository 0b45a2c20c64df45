"""A rolling restart behind Debian's nginx, as docs/operate.md does it: two processes on PostgreSQL
and Redis, 500 seats playing, each process stopped with SIGTERM and started again in turn.
bench/rolling.py runs it; here it must lose no acknowledged move, answer no move with an error
and see every client whose socket closed come back. The figures it reports (the slowest
reconnect, the p99 during the roll) are printed for the record: this machine's load decides them,
and docs/operate-figures.md keeps the ones measured on a quiet machine."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def test_a_rolling_restart_under_500_seats_loses_nothing(tmp_path: Path) -> None:
    if not os.environ.get("MAUSELOCH_TEST_PG_URL"):
        pytest.skip("MAUSELOCH_TEST_PG_URL is not set (make test sets it)")
    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server (Debian package redis-server; make system-deps installs it)")
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("no nginx (Debian package nginx; make system-deps installs it)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "rolling.py"), "--seats", "500", "--think-ms", "1500",
         "--warmup", "6", "--after", "2", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    print(done.stderr.strip().splitlines()[-1])  # the run's figures, for the record
    assert figures["seats_seen"] >= 500  # and those of the tables that started after a game ended
    assert figures["lost"] == 0, figures["lost_moves"]
    assert figures["errors"] == 0, (figures["error_kinds"], figures["error_messages"])  # what each refusal said
    assert figures["reconnects"] > 0 and figures["clients_back"] == 1.0
    assert figures["moves_during_roll"] > 0
    # each process ends of itself after its drain; one that hangs leaves its threads' stacks here
    assert figures["exit_codes"] in ([0, 0], [-15, -15], [0, -15], [-15, 0]), "\n".join(figures["hung_logs"])
    assert {"max_reconnect_s", "p99_ms"} <= figures.keys()
