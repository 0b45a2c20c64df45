"""bench/gc_watch.py, a server entry for bench/server.py's ``BENCH_SERVER_ENTRY``: the collector's
passes in a window after the lobby starts, and a summary at exit."""

from __future__ import annotations

import re

from tests.bench.entries import tiny_run


def test_a_bench_server_under_the_gc_watch_sums_up_its_window() -> None:
    done = tiny_run("gc_watch.py", BENCH_GC_FROM="0", BENCH_GC_FOR="60")
    line = re.search(r"gc window 0-60 s after the lobby started: gen 0: (\d+) passes .*peak RSS (\d+) MB", done.stderr)
    assert line is not None, done.stderr[-3000:]
    assert int(line.group(2)) > 0
