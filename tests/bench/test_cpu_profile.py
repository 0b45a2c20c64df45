"""bench/cpu_profile.py, the server entry bench/server.py runs under ``BENCH_SERVER_ENTRY``: a tiny
run leaves a profile of the server's own moves (its CPU time, as cProfile counts it)."""

from __future__ import annotations

import pstats
from pathlib import Path

from tests.bench.entries import tiny_run


def test_a_bench_server_under_cpu_profile_writes_its_profile(tmp_path: Path) -> None:
    out = tmp_path / "server.prof"
    tiny_run("cpu_profile.py", BENCH_CPU_PROFILE=str(out))
    where = {(Path(file).name, name) for file, _, name in pstats.Stats(str(out)).stats}  # type: ignore[attr-defined]
    # the server's moves, not only its start: a socket's message, the table's step of a move and
    # the runner carrying out what the step decided
    assert {("ws.py", "table_socket"), ("step.py", "_move"), ("runner.py", "effects")} <= where
