"""The offline bundle, built once a run for every test here (tests/offline_bundle.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import offline_bundle


@pytest.fixture(scope="module")
def bundle() -> Path:
    return offline_bundle.bundle()
