"""Shared test settings: hypothesis profiles (select one with HYPOTHESIS_PROFILE=ci|dev), and
the ``run_async`` fixture."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
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


@pytest.fixture
def run_async() -> Callable[[Coroutine[Any, Any, T]], T]:
    """Run a coroutine to its end on a fresh event loop in its own thread. ``asyncio.run`` in the
    test's thread fails when an earlier test in the same worker left a loop running there
    (Playwright's sync API keeps one for the session's browser)."""

    def run(coro: Coroutine[Any, Any, T]) -> T:
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(asyncio.run, coro).result()

    return run
