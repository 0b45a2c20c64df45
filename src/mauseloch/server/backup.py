"""``mauseloch backup`` and ``mauseloch restore``: the database copied while the server runs, and
brought back with a check that every game in it replays (docs/operate.md).

- SQLite: the copy is made through SQLite's online backup API (one read transaction: a
  consistent copy while the server goes on writing; WAL lets it), then checked with
  ``PRAGMA integrity_check``. A restore copies it back the same way, onto a server that is
  stopped.
- PostgreSQL: ``pg_dump --format=custom`` (a consistent snapshot too), and ``pg_restore --clean``
  (Debian's ``postgresql-client``). The password goes to them through the environment, never on
  a command line; a URL whose ``options`` set a ``search_path`` dumps and restores that schema.

A restore is followed by :func:`check`: every table in the database is replayed from its stored
moves through the engine; a finished game must end with the result stored with it, and an
unfinished one must replay (so a server restores it). Nothing is written by the check.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import parse_qs, quote, unquote

from mauseloch.extras import MissingExtra, needs, require

with needs("web", __name__):
    import typer

if TYPE_CHECKING:
    from mauseloch.server.storage.rows import TableRow

# The database and the engine are imported by the functions that use them: this module is loaded
# with every `mauseloch` command (cli.py registers its two), and most of them need neither.

CHECK_BATCH = 200  # tables replayed per load (three queries each)
SEARCH_PATH = re.compile(r"-c\s*search_path\s*=\s*([A-Za-z_][A-Za-z0-9_]*)")


class BackupError(Exception):
    """A backup or a restore that could not be made (a one-line reason)."""


@dataclass
class Checked:
    """What :func:`check` found: tables replayed, finished games whose result is the stored one,
    and the tables that failed (id and why)."""

    tables: int = 0
    finished: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)


# -- SQLite ---------------------------------------------------------------------------------------
def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(parsed.database)


def _copy_sqlite(source: Path, target: Path) -> None:
    """``source`` into ``target`` through the online backup API (one step: one consistent read)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
            found = dst.execute("PRAGMA integrity_check").fetchone()
            if found is None or found[0] != "ok":
                raise BackupError(f"the copy {target} fails SQLite's integrity check: {found}")
        finally:
            dst.close()
    finally:
        src.close()


# -- PostgreSQL -----------------------------------------------------------------------------------
def pg_args(url: str, schema: bool = True) -> tuple[list[str], dict[str, str]]:
    """The connection options of ``pg_dump``/``pg_restore`` for ``url``, and the environment that
    carries its password and libpq options (never the command line: ``ps`` shows that);
    ``schema``: the URL's schema alone (pg_dump; a dump of one schema holds nothing else, and
    pg_restore's own ``--schema`` would leave out the schema itself)."""
    from sqlalchemy.engine import make_url

    from mauseloch.server.storage.store import normalise_url

    parsed = make_url(normalise_url(url))
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    dbname = "postgresql://"
    if parsed.username:
        dbname += quote(parsed.username, safe="") + "@"
    dbname += parsed.host or ""
    if parsed.port:
        dbname += f":{parsed.port}"
    dbname += "/" + quote(parsed.database or "", safe="")
    args = [f"--dbname={dbname}"]
    query = {k: v for k, v in parsed.query.items() if k not in ("options", "application_name")}
    for key, value in query.items():
        env[f"PG{key.upper()}"] = str(value if isinstance(value, str) else value[0])  # sslmode and the like
    only = schema_of(url)
    if schema and only is not None:
        args.append(f"--schema={only}")
    return args, env


def schema_of(url: str) -> str | None:
    """The schema a URL's ``options=-csearch_path=…`` puts the tables in (None: the default)."""
    query = url.partition("?")[2]
    for options in parse_qs(query).get("options", []):
        found = SEARCH_PATH.search(unquote(options))
        if found:
            return found.group(1)
    return None


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(cmd: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = " ".join(line.strip() for line in done.stderr.strip().splitlines()[-4:])
        raise BackupError(f"{Path(cmd[0]).name} failed: {said}")


# -- the two commands' work ---------------------------------------------------------------------
def backup(url: str, out: Path) -> None:
    """A consistent copy of the database at ``url`` in ``out`` (which must not exist)."""
    from mauseloch.server.storage.store import normalise_url

    url = normalise_url(url)
    if out.exists():
        raise BackupError(f"{out} exists already: a backup never overwrites a file")
    path = sqlite_path(url)
    try:
        if path is not None:
            if not path.exists():
                raise BackupError(f"no SQLite database at {path}")
            _copy_sqlite(path, out)
        else:
            args, env = pg_args(url)
            _run([_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={out}", *args], env)
    except BaseException:
        out.unlink(missing_ok=True)
        raise


def restore(url: str, source: Path, force: bool = False) -> None:
    """The backup ``source`` brought back into the database at ``url`` (its server stopped). A
    SQLite file that exists is only replaced with ``force``; PostgreSQL's tables of Mauseloch
    are dropped and made again (``pg_restore --clean``)."""
    from mauseloch.server.storage.store import normalise_url

    url = normalise_url(url)
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    path = sqlite_path(url)
    if path is not None:
        if path.exists() and not force:
            raise BackupError(f"{path} exists: restore over it with --force (the server stopped)")
        for extra in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            extra.unlink(missing_ok=True)
        _copy_sqlite(source, path)
        return
    args, env = pg_args(url, schema=False)
    _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--exit-on-error", *args, str(source)], env)


def check(url: str) -> Checked:
    """Replay every table at ``url``: a finished game must reach its stored result."""
    from sqlalchemy import select

    from mauseloch.server.storage.rows import TableRow
    from mauseloch.server.storage.schema import tables_t
    from mauseloch.server.storage.store import Store

    store = Store(url)
    found = Checked()
    try:
        with store.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(select(tables_t.c.id).order_by(tables_t.c.created, tables_t.c.id))]
        for i in range(0, len(ids), CHECK_BATCH):
            for table_id, row in store.load_tables(ids[i : i + CHECK_BATCH]).items():
                found.tables += 1
                why = _replays(row)
                if why is not None:
                    found.failed.append((table_id, why))
                elif isinstance(row, TableRow) and row.status == "over":
                    found.finished += 1
    finally:
        store.close()
    return found


def _replays(row: TableRow | Exception) -> str | None:
    """Why ``row`` does not replay as stored (None: it does)."""
    import msgspec

    from mauseloch.server.records import build

    if isinstance(row, Exception):
        return f"cannot be loaded: {row}"
    try:
        game, _ = build(row)
    except Exception as exc:
        return f"its moves do not replay: {exc}"
    if row.status != "over" or row.result is None:
        return None
    # compared as stored: both through JSON, as the store keeps a result
    replayed = msgspec.json.decode(msgspec.json.encode(game.result()))
    stored = msgspec.json.decode(msgspec.json.encode(row.result))
    if not game.is_over or replayed != stored:
        return f"its moves end in {replayed!r}, its stored result is {stored!r}"
    return None


# -- the command line ----------------------------------------------------------------------------
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="database URL (sqlite:///file.db or postgresql://...); default: serve's", envvar="MAUSELOCH_DB"
    ),
]


def backup_command(
    out: Annotated[Path, typer.Argument(help="the file to write (SQLite: a database file; PostgreSQL: pg_dump's)")],
    db: DbOption = None,
) -> None:
    """Copy the database while the server runs (SQLite's online backup, or pg_dump)."""
    _needs_web("mauseloch backup")
    from mauseloch.server.storage.store import default_url, normalise_url

    url = normalise_url(db) if db else default_url()
    try:
        backup(url, out)
    except BackupError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Backed up {url.rsplit('@', 1)[-1]} to {out}")


def restore_command(
    source: Annotated[Path, typer.Argument(help="a file `mauseloch backup` wrote")],
    db: DbOption = None,
    force: Annotated[bool, typer.Option(help="replace a SQLite file that exists (its server stopped)")] = False,
    replay: Annotated[bool, typer.Option(help="replay every game afterwards and compare its result")] = True,
) -> None:
    """Bring a backup back (the server stopped), then replay every game in it."""
    _needs_web("mauseloch restore")
    from mauseloch.server.storage.store import default_url, normalise_url

    url = normalise_url(db) if db else default_url()
    try:
        restore(url, source, force=force)
    except BackupError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Restored {source} into {url.rsplit('@', 1)[-1]}")
    if not replay:
        return
    found = check(url)
    typer.echo(
        f"Replayed {found.tables} tables: {found.finished} finished games reached their stored result,"
        f" {len(found.failed)} failed"
    )
    for table_id, why in found.failed[:20]:
        typer.echo(f"  table {table_id}: {why}", err=True)
    if found.failed:
        raise typer.Exit(1)


def _needs_web(what: str) -> None:
    """Before the work: the server's packages (the ``web`` extra) are installed."""
    try:
        require("web", what)
    except MissingExtra as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None


def register(app: typer.Typer) -> None:
    app.command("backup")(backup_command)
    app.command("restore")(restore_command)
