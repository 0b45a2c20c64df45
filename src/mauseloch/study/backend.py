"""Where chunks of work run: processes on this machine (``local``) or a Ray cluster (``ray``).

``simulate`` and ``tournament`` both cut their games into ranges ``[start, stop)`` and hand
them to :func:`run_ranges`, which sends each range to the backend and gives the results back
**in range order**. Every range's result depends only on its range and the run's seed, so a
report is the same whatever the backend, the number of workers and the cut of the ranges.

- :class:`LocalBackend`: a process pool (fork where there is one), or the calling process for
  one worker. Ranges are small (many per worker) for a smooth progress bar.
- :class:`RayBackend` (``pip install mauseloch[ray]``): one Ray task per range, ranges batched to
  at least ``min_task_seconds`` (0.1 s) of work, as Ray's own overhead per task is about a
  millisecond. The size comes from timing the first ranges in the calling process (the clock
  decides only how the work is cut, never a result). Every node needs ``mauseloch`` importable.
"""

from __future__ import annotations

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

P = TypeVar("P")
R = TypeVar("R")
BACKENDS = ("local", "ray")


def _call_range(task: tuple[Callable[[Any, int, int], Any], Any, int, int]) -> Any:
    fn, payload, start, stop = task
    return fn(payload, start, stop)


class Backend(ABC):
    """Runs tasks ``_call_range((fn, payload, start, stop))``; results in task order."""

    name: str
    min_task_seconds: float = 0.0  # batch ranges to at least this much work per task

    @abstractmethod
    def workers(self) -> int:
        """How many tasks run at once."""

    @abstractmethod
    def map(self, tasks: Sequence[tuple[Any, ...]], done: Callable[[int, Any], None] | None = None) -> list[Any]:
        """Run every task; ``done(k, result)`` as task ``k`` finishes (in any order)."""


class LocalBackend(Backend):
    """Processes on this machine; ``workers=1`` runs in the calling process."""

    name = "local"

    def __init__(self, workers: int = 0) -> None:
        import os

        if workers < 0:
            raise ValueError(f"workers must be 0 (all cores) or more, got {workers}")
        self._workers = workers or os.cpu_count() or 1

    def workers(self) -> int:
        return self._workers

    def map(self, tasks: Sequence[tuple[Any, ...]], done: Callable[[int, Any], None] | None = None) -> list[Any]:
        results: list[Any] = [None] * len(tasks)
        if self._workers == 1 or len(tasks) <= 1:
            for k, task in enumerate(tasks):
                results[k] = _call_range(task)
                if done:
                    done(k, results[k])
            return results
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # fork where there is one: workers inherit the loaded modules (and compiled kernels), and
        # scripts need no ``if __name__ == "__main__"`` guard; they only compute and send back.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with ProcessPoolExecutor(max_workers=min(self._workers, len(tasks)), mp_context=context) as pool:
            futures = {pool.submit(_call_range, task): k for k, task in enumerate(tasks)}
            for future in as_completed(futures):
                k = futures[future]
                results[k] = future.result()
                if done:
                    done(k, results[k])
        return results


class RayBackend(Backend):
    """Ray tasks on a cluster (``address``: ``"auto"``, ``"ray://host:10001"``, ...) or, without
    an address, on a Ray instance started here. An instance already initialised is used as is."""

    name = "ray"
    min_task_seconds = 0.1

    def __init__(self, address: str | None = None, workers: int = 0) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError("the ray backend needs Ray: pip install 'mauseloch[ray]'") from None
        if workers < 0:
            raise ValueError(f"workers must be 0 (all CPUs of the cluster) or more, got {workers}")
        self._ray = ray
        if not ray.is_initialized():
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False)
            except Exception as exc:  # Ray raises bare Exceptions for a node that fails to start
                raise ValueError(f"cannot start or reach Ray{f' at {address}' if address else ''}: {exc}") from None
        self._workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(_call_range)

    def workers(self) -> int:
        return self._workers

    def map(self, tasks: Sequence[tuple[Any, ...]], done: Callable[[int, Any], None] | None = None) -> list[Any]:
        ray = self._ray
        results: list[Any] = [None] * len(tasks)
        pending = {self._remote.remote(task): k for k, task in enumerate(tasks)}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k = pending.pop(ref)
                results[k] = ray.get(ref)
                if done:
                    done(k, results[k])
        return results


def make_backend(name: str = "local", workers: int = 0, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``ValueError`` names what is wrong."""
    key = name.strip().lower()
    if key == "local":
        if address:
            raise ValueError("--address is for the ray backend (--backend ray)")
        return LocalBackend(workers)
    if key == "ray":
        return RayBackend(address, workers)
    raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")


def run_ranges(
    backend: Backend,
    fn: Callable[[P, int, int], R],
    payload: P,
    total: int,
    cap: int,
    progress: Callable[[int], None] | None = None,
) -> list[R]:
    """``fn(payload, a, b)`` over ranges covering ``0..total-1``; the results in range order.

    Ranges hold at most ``cap`` items and about ``total / (8 × workers)``, so the progress bar
    moves and the workers stay balanced; on a backend that batches (Ray), the first ranges run
    here, doubling in size, to learn how many items take ``min_task_seconds``.
    """
    if total < 1:
        raise ValueError(f"nothing to run: {total} items")
    workers = backend.workers()
    size = max(1, min(cap, math.ceil(total / max(1, workers * 8))))
    results: list[R] = []
    start = 0
    if backend.min_task_seconds > 0:
        pilot = 1
        while start < total:
            stop = min(total, start + pilot)
            began = time.perf_counter()
            results.append(fn(payload, start, stop))
            seconds = time.perf_counter() - began
            if progress:
                progress(stop - start)
            per_item = seconds / (stop - start)
            start = stop
            if seconds >= backend.min_task_seconds / 4:
                size = max(math.ceil(total / max(1, workers * 4)), math.ceil(backend.min_task_seconds / per_item))
                break
            pilot *= 2
        if start >= total:
            return results
    ranges = [(a, min(total, a + size)) for a in range(start, total, size)]
    tasks = [(fn, payload, a, b) for a, b in ranges]

    def done(k: int, _: Any) -> None:
        if progress:
            progress(ranges[k][1] - ranges[k][0])

    results.extend(backend.map(tasks, done))
    return results
