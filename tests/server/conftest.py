"""Shared helpers of the server tests: an app on a fresh SQLite file, seated WebSocket players."""

from __future__ import annotations

import dataclasses
import itertools
import os
import uuid
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

with warnings.catch_warnings():  # starlette asks for httpx2; httpx is what the project installs
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from mauseloch.server.app import create_app
from mauseloch.server.limits import Limits
from mauseloch.server.storage.store import Store, normalise_url

from .helpers import Player

PG_ENV = "MAUSELOCH_TEST_PG_URL"


def ticking_clock() -> Callable[[], float]:
    """A clock that advances one second per reading: the rate limit never triggers."""
    counter = itertools.count()
    return lambda: float(next(counter))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'mauseloch.db'}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The test PostgreSQL (scripts/start-postgres.sh) with a fresh schema of this test's own.

    Skipped only when the variable is absent. The schema keeps parallel test workers apart
    and is dropped afterwards.
    """
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set (make test sets it)")
    schema = f"test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, db_url: str) -> Store:
    """A Store on SQLite, and one on PostgreSQL (skipped without it): closed after the test."""
    url = str(request.getfixturevalue("pg_url")) if request.param == "postgres" else db_url
    s = Store(url)
    request.addfinalizer(s.close)
    return s


AppFactory = Callable[..., TestClient]


@pytest.fixture
def make_client(db_url: str) -> Iterator[AppFactory]:
    """``make_client(db=..., clock=..., **kw)``: a started TestClient; all are shut down at the end."""
    started: list[TestClient] = []

    def make(
        db: str | None = None, clock: Callable[[], float] | None = None, refusal_delay: float = 0.0, **kwargs: Any
    ) -> TestClient:
        kwargs.setdefault("bot_delay", 0)
        # refusals are answered at once here unless a test asks (limits.py holds repeated ones back)
        kwargs["limits"] = dataclasses.replace(kwargs.get("limits") or Limits(), refusal_delay=refusal_delay)
        app = create_app(db or db_url, clock=clock or ticking_clock(), **kwargs)
        client = TestClient(app)
        client.__enter__()
        started.append(client)
        return client

    yield make
    while Player.open:
        Player.open.pop().close()
    for client in reversed(started):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: AppFactory) -> TestClient:
    return make_client()


@pytest.fixture
def seeds(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``seeds(n)``: tables created from now on are dealt from seeds n, n+1, ... (reproducible games)."""
    import mauseloch.core.engine

    def use(first: int) -> None:
        counter = itertools.count(first)
        monkeypatch.setattr(mauseloch.core.engine, "fresh_seed", lambda: next(counter))

    return use
