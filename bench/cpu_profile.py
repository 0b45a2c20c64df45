"""``mauseloch`` under cProfile with CPU time (``time.process_time``), not wall time: a server's
profile then shows where its CPU goes, without the time it waits for sockets, disks or the
other processes on a busy machine (``python -m cProfile`` counts wall time).

bench/server.py runs it as its server's entry:

    BENCH_SERVER_ENTRY=bench/cpu_profile.py BENCH_CPU_PROFILE=/tmp/server.prof \\
        .venv/bin/python bench/server.py --seats 1000 --think-ms 600 --duration 20 --warmup 10

The profile is written to ``BENCH_CPU_PROFILE`` when the server exits (bench/server.py stops it
with SIGINT); read it with ``python -m pstats``.
"""

from __future__ import annotations

import cProfile
import os
import time

from mauseloch.cli import main

if __name__ == "__main__":
    profile = cProfile.Profile(time.process_time)
    profile.enable()
    try:
        main()
    finally:
        profile.disable()
        profile.dump_stats(os.environ.get("BENCH_CPU_PROFILE", "server-cpu.prof"))
