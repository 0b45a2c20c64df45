"""The games' compiled bots made ready in a thread of their own once the server serves.

A game whose bots decide in compiled code declares how to get that code ready
(``Seating.prepare``): load it from numba's cache (about half a second of CPU: numba, numpy and
SciPy imported, the kernels loaded) or compile it the first time (10 s or more). A server does it
after it is ready (:func:`start`, from the app's lifespan), not before: a restart serves its tables
again without waiting for it, and the event loop never waits for it either. Only a bot of a kind
the game declares with compiled packages (``BotKind.needs``) waits for it before its first
move (:func:`ready`); the plain bots and the stand-ins move at once.

What the warm-up loads lives as long as the process, but it comes after the freeze that keeps
the start-up's objects out of the collector's passes (app.py: the freeze must come before the
first table, whose objects die with it). Its some 100,000 objects are scanned only by the full
pass (cli.py's thresholds: one in 100 middle passes), about 30 ms more for each.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import signal
import sys
import threading

from mauseloch.core.registry import GAMES, game_info

log = logging.getLogger("mauseloch.server")

_lock = threading.Lock()
_running: concurrent.futures.Future[None] | None = None  # this process's warm-up, once started


def start() -> concurrent.futures.Future[None]:
    """Start the warm-up in a thread of its own, once a process (again after one that failed);
    its future, done when every game's code is ready."""
    global _running
    with _lock:
        if _running is None or (_running.done() and _running.exception() is not None):
            _running = concurrent.futures.Future()
            threading.Thread(target=_prepare, args=(_running,), name="mauseloch-warm-up", daemon=True).start()
        return _running


def _prepare(done: concurrent.futures.Future[None]) -> None:
    # The numeric libraries start their thread pools from this thread, which blocks Ctrl-C and
    # SIGTERM (threads started here inherit that): they reach the main thread, as the command line
    # keeps them there for every command (mauseloch.cli).
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        prepare_games()
    except Exception as exc:  # the compiled bots then load their code at their first move
        log.exception("the bots' compiled code could not be made ready")
        done.set_exception(exc)
    else:
        done.set_result(None)


def prepare_games() -> None:
    """Every game's ``Seating.prepare``: its bots' compiled code loaded, or compiled the first time."""
    for info in GAMES.values():
        if info.seating.prepare is not None:
            info.seating.prepare(
                lambda: print("mauseloch: compiling the bots' fast kernel, once (10 s or more)…", file=sys.stderr)
            )


def waits(game: str, kind: str | None) -> bool:
    """Whether a bot of ``kind`` at a table of ``game`` must wait for the warm-up before it moves:
    while it runs, a kind the game brings itself that needs compiled packages (``BotKind.needs``)."""
    running = _running
    if running is None or running.done() or kind is None:
        return False
    return any(k.name == kind and k.needs for k in game_info(game).seating.bots)


async def ready() -> None:
    """Until the warm-up has ended (at once when none runs); a failed one is logged already."""
    running = _running
    if running is not None and not running.done():
        with contextlib.suppress(Exception):
            await asyncio.shield(asyncio.wrap_future(running))
