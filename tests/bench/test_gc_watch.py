"""bench/gc_watch.py, a server entry for bench/server.py's ``BENCH_SERVER_ENTRY``: the collector's
passes in a window after the lobby starts, and a summary at exit."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.paths import ROOT


def test_a_bench_server_under_the_gc_watch_sums_up_its_window() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env |= {"BENCH_SERVER_ENTRY": str(ROOT / "bench" / "gc_watch.py"), "BENCH_GC_FROM": "0", "BENCH_GC_FOR": "60"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "server.py"), "--seats", "4", "--duration", "2", "--warmup", "1",
         "--think-ms", "20", "--client-procs", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=100,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    line = re.search(r"gc window 0-60 s after the lobby started: gen 0: (\d+) passes .*peak RSS (\d+) MB", done.stderr)
    assert line is not None, done.stderr[-3000:]
    assert int(line.group(2)) > 0
