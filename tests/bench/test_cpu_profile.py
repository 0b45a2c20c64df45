"""bench/cpu_profile.py, the server entry bench/server.py runs under ``BENCH_SERVER_ENTRY``: a tiny
run leaves a profile of the server's own moves (its CPU time, as cProfile counts it)."""

from __future__ import annotations

import os
import pstats
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT


def test_a_bench_server_under_cpu_profile_writes_its_profile(tmp_path: Path) -> None:
    out = tmp_path / "server.prof"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env |= {"BENCH_SERVER_ENTRY": str(ROOT / "bench" / "cpu_profile.py"), "BENCH_CPU_PROFILE": str(out)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "server.py"), "--seats", "4", "--duration", "2", "--warmup", "1",
         "--think-ms", "20", "--client-procs", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=100,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    functions = {name for _, _, name in pstats.Stats(str(out)).stats}  # type: ignore[attr-defined]
    assert {"table_socket", "publish_update"} <= functions  # the server's moves, not only its start
