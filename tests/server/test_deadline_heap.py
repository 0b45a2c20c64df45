"""Every table's deadlines on one event loop wait in one heap with one timer: a deadline a move
replaced or removed never fires, the standing ones fire in the order they are due, and the
entries left stale are swept."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from mauseloch.server import clock
from mauseloch.server.clock import Deadline, DeadlineHeap, Deadlines, Timers, wall

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]  # the run_async fixture (tests/conftest.py): a loop of its own


def test_only_the_standing_deadlines_fire_in_their_order(run_async: RunAsync) -> None:
    fired: list[tuple[int, str, int | None]] = []

    async def run() -> None:
        tables = [Timers(Deadlines(), lambda d, n=n: fired.append((n, d.kind, d.version))) for n in range(3)]
        for t in tables:
            t.start()
        now = wall()
        for version in range(50):  # every move replaces its table's turn deadline
            for n, t in enumerate(tables):
                t.deadlines.set(Deadline("turn", now + 0.05 + 0.01 * n + 0.0001 * version, version=version))
                t.sync()
        tables[1].deadlines.set(Deadline("grace", now + 0.01, seat=2))
        tables[1].sync()
        tables[1].deadlines.set(Deadline("grace", now + 0.02, seat=3))
        tables[1].sync()
        tables[1].deadlines.remove("grace", 3)
        tables[2].deadlines.remove("turn")
        tables[2].deadlines.set(Deadline("pause", now, seat=0))  # a pause waits: never due
        for t in tables:
            t.sync()
        heap = DeadlineHeap.of(asyncio.get_running_loop())
        assert len(heap) == 3 * 50 + 2  # nothing was cancelled: the replaced entries went stale
        await asyncio.sleep(0.3)
        assert len(heap) == 0

    run_async(run())
    assert fired == [(1, "grace", None), (0, "turn", 49), (1, "turn", 49)]


def test_a_stopped_table_hears_nothing_and_a_restart_arms_each_deadline_once(run_async: RunAsync) -> None:
    fired: list[Deadline] = []

    async def run() -> None:
        t = Timers(Deadlines(), fired.append)
        t.deadlines.set(Deadline("close", wall() + 0.02))
        t.start()
        t.stop()
        t.start()
        t.start()
        await asyncio.sleep(0.1)

    run_async(run())
    assert [d.kind for d in fired] == ["close"]


def test_stale_entries_are_swept_once_they_are_half_the_heap(run_async: RunAsync) -> None:
    async def run() -> None:
        t = Timers(Deadlines(), lambda d: None)
        t.start()
        far = wall() + 60
        for version in range(3 * clock.SWEEP_AT):
            t.deadlines.set(Deadline("turn", far + version, version=version))
            t.sync()
        heap = DeadlineHeap.of(asyncio.get_running_loop())
        assert len(heap) <= clock.SWEEP_AT + 2  # not one entry a move for as long as the clock runs
        assert t.deadlines.get("turn") is not None and t.waiting(t.deadlines.get("turn"))  # type: ignore[arg-type]
        t.stop()

    run_async(run())
