"""Shared test settings: hypothesis profiles (select one with HYPOTHESIS_PROFILE=ci|dev), the
``slow`` mark of whole test folders, and the ``run_async`` fixture."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

T = TypeVar("T")

# No deadlines: timing is not behaviour, and CI machines are shared. "ci" is derandomised so a
# red build can be reproduced from its log; "dev" explores more.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=500, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Folders whose every test runs for seconds: a browser test drives chromium against a server
# process of its own, a bench test runs a whole benchmark script. Elsewhere a long test carries
# @pytest.mark.slow itself; `pytest -m "not slow"` is the quick loop.
SLOW_FOLDERS = ("browser", "bench")
TESTS = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0] if item.path.is_relative_to(TESTS) else ""
        if folder in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
    # Files with a slow test first, the rest after them by their number of tests, most first.
    # `make test` hands whole files to three workers in this order (`--dist loadfile
    # --no-loadscope-reorder`): a long file handed out last would run on alone at the end while
    # the other workers wait, so the short files fill the end instead.
    files: dict[Path, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.path, []).append(item)

    def key(group: list[pytest.Item]) -> tuple[bool, int]:
        return (not any(item.get_closest_marker("slow") for item in group), -len(group))

    items[:] = [item for group in sorted(files.values(), key=key) for item in group]


@pytest.fixture
def run_async() -> Callable[[Coroutine[Any, Any, T]], T]:
    """Run a coroutine to its end on a fresh event loop in its own thread. ``asyncio.run`` in the
    test's thread fails when an earlier test in the same worker left a loop running there
    (Playwright's sync API keeps one for the session's browser)."""

    def run(coro: Coroutine[Any, Any, T]) -> T:
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, coro).result()

    return run
