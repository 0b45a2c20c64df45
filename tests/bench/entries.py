"""A tiny bench/server.py run with a server entry (``BENCH_SERVER_ENTRY``): the smoke tests of the
entries (bench/cpu_profile.py, gc_watch.py, loop_lag.py) share it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.paths import ROOT


def tiny_run(entry: str, **env: str) -> subprocess.CompletedProcess[str]:
    """bench/server.py at 4 seats for 2 s with ``bench/<entry>`` in the server and ``env`` set;
    its exit code is checked, its output returned."""
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    run_env |= {"BENCH_SERVER_ENTRY": str(ROOT / "bench" / entry), **env}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "server.py"), "--seats", "4", "--duration", "2", "--warmup", "1",
         "--think-ms", "20", "--client-procs", "1"],
        cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=100,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done
