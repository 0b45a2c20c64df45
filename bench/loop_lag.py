"""``mauseloch`` with a watchdog on its event loop: where the loop was when it fell behind.

A heartbeat runs on the server's loop every 10 ms; a thread of its own looks at it every 10 ms
and, when the last beat is more than ``BENCH_LOOP_LAG_MS`` (default 250) old, prints the loop
thread's stack to stderr, once a stall, and when the loop beats again how long it was held.
When the loop is in ``epoll_wait`` (asyncio's ``run_until_complete`` as the innermost Python
frame) at such a moment the process did not get the CPU (a busy machine); when it is in
Python, that code held the loop. At exit one line sums up: how many stalls, the longest. The
watchdog arms at the loop's first beat, so the start-up's imports are not counted.

bench/server.py runs it as its server's entry (and prints the server's stderr after the run):

    BENCH_SERVER_ENTRY=bench/loop_lag.py .venv/bin/python bench/server.py --seats 1000 --think-ms 600
"""

from __future__ import annotations

import asyncio
import atexit
import os
import sys
import threading
import time
import traceback

import mauseloch.server.listen as listen
from mauseloch.cli import main

LATE = float(os.environ.get("BENCH_LOOP_LAG_MS", "250")) / 1000
BEAT = 0.01  # seconds between the loop's heartbeats, and between the watchdog's looks

last_beat: list[float] = []  # the loop's last heartbeat (monotonic), once it beats
stalls: list[float] = []  # how long the loop was held, each time it was late
_new_loop = listen.new_loop


def new_loop() -> asyncio.AbstractEventLoop:
    """listen.new_loop's loop, with the heartbeat on it."""
    loop = _new_loop()

    def beat() -> None:
        if last_beat:
            last_beat[0] = time.monotonic()
        else:
            last_beat.append(time.monotonic())
        loop.call_later(BEAT, beat)

    loop.call_soon(beat)
    return loop


def watch(loop_thread: int) -> None:
    stalled_at: float | None = None  # the last beat before the stall under way
    while True:
        time.sleep(BEAT)
        if not last_beat:
            continue
        beat = last_beat[0]
        if stalled_at is not None and beat != stalled_at:  # it beats again
            stalls.append(beat - stalled_at)
            print(f"loop held for {(beat - stalled_at) * 1000:.0f} ms", file=sys.stderr, flush=True)
            stalled_at = None
        lag = time.monotonic() - beat
        if lag > LATE and stalled_at is None:
            stalled_at = beat
            frame = sys._current_frames().get(loop_thread)
            lines = traceback.format_stack(frame) if frame is not None else ["(no frame)\n"]
            # the import machinery's frames say nothing of who imported: left out
            stack = "".join([line for line in lines if "<frozen importlib" not in line][-40:])
            print(f"loop late by {lag * 1000:.0f} ms, where it is:\n{stack}", file=sys.stderr, flush=True)


def summary() -> None:
    longest = max(stalls, default=0.0) * 1000
    print(f"loop lag: held for more than {LATE * 1000:.0f} ms {len(stalls)} times, at most {longest:.0f} ms",
          file=sys.stderr, flush=True)  # fmt: skip


if __name__ == "__main__":
    listen.new_loop = new_loop  # uvicorn imports the loop factory by its name when it starts
    threading.Thread(target=watch, args=(threading.get_ident(),), daemon=True).start()
    atexit.register(summary)
    main()
