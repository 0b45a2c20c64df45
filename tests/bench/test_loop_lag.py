"""bench/loop_lag.py, a server entry for bench/server.py's ``BENCH_SERVER_ENTRY``: its heartbeat
runs on the server's loop and the watchdog reports the loop's stack when a beat is late."""

from __future__ import annotations

from tests.bench.entries import tiny_run


def test_a_bench_server_under_the_watchdog_reports_where_its_loop_was() -> None:
    # 1 ms: every look finds the 10 ms heartbeat late, so that a tiny run reports for sure
    done = tiny_run("loop_lag.py", BENCH_LOOP_LAG_MS="1")
    assert "loop late by " in done.stderr and 'File "' in done.stderr  # a report with the loop's stack
    assert "loop held for " in done.stderr  # and how long, once it beat again
    assert "loop lag: held for more than 1 ms " in done.stderr  # the summary at exit
