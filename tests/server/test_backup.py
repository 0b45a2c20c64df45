"""``mauseloch backup`` while 100 tables play, ``mauseloch restore``, and every game replayed:
SQLite through its online backup API, PostgreSQL through pg_dump and pg_restore."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from mauseloch.server.backup import BackupError, backup, check, restore, schema_of
from mauseloch.server.storage.store import Store, normalise_url

from .serving import GUARD, RunAsync, Serve, data_dir, play_seat

TABLES = 100
# every client of the test comes from 127.0.0.1: the caps of a public server are off
NO_CAPS = ("--max-sockets-per-address", "0", "--max-heads-per-address", "0", "--tables-per-minute", "0",
           "--open-tables-per-address", "0", "--requests-per-second", "0")  # fmt: skip


def mauseloch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mauseloch.cli", *args], capture_output=True, text=True, timeout=GUARD, check=False
    )


def moves_of(url: str) -> dict[str, list[str]]:
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(text("SELECT id FROM ml_tables"))]
        return {
            t: [m[1] for m in row.moves] for t, row in store.load_tables(ids).items() if not isinstance(row, Exception)
        }
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_backup_taken_while_tables_play_restores_and_replays_them_all(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, run_async: RunAsync
) -> None:
    url = str(request.getfixturevalue("pg_url")) if kind == "postgres" else data_dir(tmp_path)
    server = Serve("--db", url, *NO_CAPS)
    copy = tmp_path / ("backup.db" if kind == "sqlite" else "backup.dump")
    try:
        taken = run_async(play_and_back_up(server, url, copy))
    finally:
        server.stop()
    assert taken.returncode == 0, taken.stderr
    final = moves_of(url)
    assert len(final) == TABLES
    if kind == "sqlite":
        target = f"sqlite:///{tmp_path / 'restored.db'}"
    else:  # the database lost: its schema dropped, then brought back from the dump
        target = url
        engine = create_engine(normalise_url(url))
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema_of(url)} CASCADE"))
        engine.dispose()
    restored = mauseloch("restore", str(copy), "--db", target)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    found = check(target)
    assert found.tables == TABLES and not found.failed
    assert 0 < found.finished < TABLES  # taken while some games were over and others went on
    assert f"Replayed {TABLES} tables: {found.finished} finished games" in restored.stdout
    # a consistent copy: each table's moves as far as they had come, in the order played
    at_backup = moves_of(target)
    assert at_backup.keys() == final.keys()
    assert all(final[t][: len(moves)] == moves for t, moves in at_backup.items())
    assert any(len(moves) < len(final[t]) for t, moves in at_backup.items())
    # and a result that differs from the moves is found
    engine = create_engine(normalise_url(target))
    with engine.begin() as conn:
        some = conn.execute(text("SELECT id FROM ml_tables WHERE status = 'over' LIMIT 1")).scalar_one()
        conn.execute(text("UPDATE ml_tables SET result = :r WHERE id = :t"), {"r": '{"winner": 9}', "t": some})
    engine.dispose()
    assert [t for t, _ in check(target).failed] == [some]


async def play_and_back_up(server: Serve, url: str, copy: Path) -> subprocess.CompletedProcess[str]:
    """``TABLES`` tables of a person and a bot play; once a fifth of them are over, the backup.
    The people at the other tables sit down once the backup is taken, so that however long
    the backup's process takes to start, it copies games that go on (all over, under load, once)."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = []
    for _ in range(TABLES):
        answer = await asyncio.to_thread(server.http.post, "/api/tables", json={"game": "mau-mau", "seats": seats})
        created.append(answer.json())
    backed_up = asyncio.Event()
    games = [
        asyncio.create_task(
            play_seat(server.address, c["table"], c["seat"], c["token"], seed=i, hold=backed_up if i % 5 else None)
        )
        for i, c in enumerate(created)
    ]
    async with asyncio.timeout(GUARD):
        while sum(g.done() for g in games) < TABLES // 5:
            await asyncio.sleep(0.02)
    taken = await asyncio.to_thread(mauseloch, "backup", str(copy), "--db", url)
    backed_up.set()
    await asyncio.gather(*games)
    return taken


def test_a_backup_never_overwrites_and_a_restore_asks_before_it_does(tmp_path: Path) -> None:
    url = data_dir(tmp_path)
    Store(url).close()
    copy = tmp_path / "copy.db"
    backup(url, copy)
    with pytest.raises(BackupError, match="exists already"):
        backup(url, copy)
    with pytest.raises(BackupError, match="--force"):
        restore(url, copy)
    restore(url, copy, force=True)
    assert check(url).tables == 0
    with pytest.raises(BackupError, match="no backup"):
        restore(url, tmp_path / "none.db", force=True)
    refused = mauseloch("backup", str(copy), "--db", url)
    assert refused.returncode == 1 and "exists already" in refused.stderr


def test_the_schema_of_a_url_is_dumped_alone() -> None:
    assert schema_of("postgresql://u:p@h/db?options=-csearch_path%3Dtest_ab12") == "test_ab12"
    assert schema_of("postgresql://u:p@h/db?options=-c%20search_path%3Dx&sslmode=require") == "x"
    assert schema_of("postgresql://u:p@h/db") is None
