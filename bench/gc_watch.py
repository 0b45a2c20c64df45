"""``mauseloch`` with its garbage collector watched: how often each generation is collected, the
CPU each pass takes (``time.process_time``, the pass stops the event loop that long), what it
frees, and the process's memory.

A server entry for bench/server.py (which prints the server's stderr after the run):

    BENCH_SERVER_ENTRY=bench/gc_watch.py .venv/bin/python bench/server.py --seats 1000 --think-ms 600 \\
        --duration 20 --warmup 10 --against REV

The window counted starts ``BENCH_GC_FROM`` seconds (default 12) after the lobby starts (the end of
the lifespan's warm-up: the tables fill up meanwhile) and lasts ``BENCH_GC_FOR`` seconds (default
15), within bench/server.py's measured window at its defaults above. Each middle or full pass is
printed as it ends (its second since the lobby started, its CPU, the objects it freed: those are
cycles, whatever refcounting frees never reaches the collector); at exit one line sums up the
window and the peak RSS. With ``--against`` both servers print theirs, in the order they ran.
"""

from __future__ import annotations

import atexit
import gc
import os
import resource
import sys
import time
from typing import Any

from mauseloch.cli import main
from mauseloch.server import lobby

FROM = float(os.environ.get("BENCH_GC_FROM", "12"))
FOR = float(os.environ.get("BENCH_GC_FOR", "15"))

started: list[float] = []  # when the lobby started (wall clock)
window: dict[int, list[float]] = {0: [0, 0.0, 0], 1: [0, 0.0, 0], 2: [0, 0.0, 0]}  # passes, CPU s, freed
_pass_began = [0.0]
_start = lobby.Lobby.start


def lobby_start(self: lobby.Lobby) -> None:
    """Lobby.start, noting when it ran: the lifespan's warm-up is over."""
    if not started:
        started.append(time.time())
    _start(self)


def collected(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _pass_began[0] = time.process_time()
        return
    cpu = time.process_time() - _pass_began[0]
    if not started:
        return
    at = time.time() - started[0]
    generation = info["generation"]
    if generation > 0:
        print(f"gc: {at:6.1f} s a pass of generation {generation}: {cpu * 1000:.1f} ms, {info['collected']} freed",
              file=sys.stderr, flush=True)  # fmt: skip
    if FROM <= at <= FROM + FOR:
        counted = window[generation]
        counted[0] += 1
        counted[1] += cpu
        counted[2] += info["collected"]


def summary() -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    parts = ", ".join(
        f"gen {g}: {int(n)} passes {cpu * 1000:.0f} ms {int(freed)} freed" for g, (n, cpu, freed) in window.items()
    )
    print(f"gc window {FROM:g}-{FROM + FOR:g} s after the lobby started: {parts}; thresholds {gc.get_threshold()}, "
          f"frozen {gc.get_freeze_count()}, peak RSS {peak} MB", file=sys.stderr, flush=True)  # fmt: skip


if __name__ == "__main__":
    lobby.Lobby.start = lobby_start  # type: ignore[method-assign]
    gc.callbacks.append(collected)
    atexit.register(summary)
    main()
