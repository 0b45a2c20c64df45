"""Processes started at once on an empty PostgreSQL database (``systemctl start mauseloch@1
mauseloch@2``, a rolling restart's first start) make its tables one after the other: every one
of them starts, none fails on PostgreSQL's catalogue."""

from __future__ import annotations

import threading

from sqlalchemy import create_engine, inspect

from mauseloch.server.storage.migrations import migrate
from mauseloch.server.storage.store import normalise_url

AT_ONCE = 6


def test_processes_starting_at_once_migrate_one_after_the_other(pg_url: str) -> None:
    engines = [create_engine(normalise_url(pg_url)) for _ in range(AT_ONCE)]
    start = threading.Barrier(AT_ONCE)
    failed: list[BaseException] = []

    def one(n: int) -> None:
        start.wait()
        try:
            migrate(engines[n])
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(AT_ONCE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert failed == []
        assert {"ml_tables", "ml_seats", "ml_moves"} <= set(inspect(engines[0]).get_table_names())
    finally:
        for engine in engines:
            engine.dispose()
