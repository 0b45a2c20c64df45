"""The database's shape brought up to date at start-up: the tables a new database lacks created,
and the columns added after the first release added to a database an older version made."""

from __future__ import annotations

from mauseloch.extras import needs
from mauseloch.server.storage.schema import metadata, moves_t, seats_t, tables_t

with needs("web", __name__):
    from sqlalchemy import Engine, inspect

# Columns added after the first release (all nullable), by table.
LATER_COLUMNS = {
    "ml_tables": [
        tables_t.c.clock,
        tables_t.c.deadlines,
        tables_t.c.next_id,
        tables_t.c.public,
        tables_t.c.invite_hash,
        tables_t.c.match,
        tables_t.c.joined,
        tables_t.c.deadlines_at,
    ],
    "ml_seats": [seats_t.c.gone],
    "ml_moves": [moves_t.c.by, moves_t.c.referee, moves_t.c.deadlines],
}


# PostgreSQL's advisory lock the migration holds: processes started at once on an empty database
# (systemctl start mauseloch@1 mauseloch@2) make its tables one after the other, not both at once
# (which failed one of them on PostgreSQL's catalogue: "duplicate key value ... pg_type").
MIGRATION_LOCK = 0x6D6C6D69  # "mlmi"


def migrate(engine: Engine) -> None:
    """Create the missing tables, then add the columns of :data:`LATER_COLUMNS` they lack; in one
    transaction, and on PostgreSQL one process at a time."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        metadata.create_all(conn)
        found = inspect(conn)
        for table, columns in LATER_COLUMNS.items():
            have = {c["name"] for c in found.get_columns(table)}
            for column in columns:
                if column.name not in have:
                    kind = column.type.compile(dialect=engine.dialect)
                    conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column.name} {kind}")
