#!/bin/sh
# Start a PostgreSQL cluster on 127.0.0.1 for the storage tests and print its URL on stdout.
# Idempotent: a running cluster, an existing user and database are left as they are.
# Needs root and Debian's postgresql package (`make system-deps`). Without them it prints
# nothing and exits 0, so the PostgreSQL tests skip; with them every failure is an error.
#   export MAUSELOCH_TEST_PG_URL="$(sh scripts/start-postgres.sh)"
set -eu

DB_USER=${MAUSELOCH_PG_USER:-mauseloch}
DB_PASS=${MAUSELOCH_PG_PASSWORD:-mauseloch}
DB_NAME=${MAUSELOCH_PG_DB:-mauseloch_test}
CLUSTER=main

if [ "$(id -u)" != 0 ] || ! command -v pg_lsclusters >/dev/null 2>&1; then
  echo "start-postgres: needs root and Debian's postgresql package; PostgreSQL tests will skip" >&2
  exit 0
fi

# One run at a time: two test runs starting together raced to create the role ("already exists").
if command -v flock >/dev/null 2>&1; then
  exec 9>/tmp/mauseloch-start-postgres.lock
  flock 9
fi

VERSION=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if [ -z "$VERSION" ]; then
  echo "start-postgres: no PostgreSQL server under /usr/lib/postgresql" >&2
  exit 1
fi

if ! pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c {found=1} END {exit !found}'; then
  pg_createcluster "$VERSION" "$CLUSTER" >&2 9>&-
fi
# Listen on the loopback address only (a drop-in read through the stock include_dir).
CONF_DIR=/etc/postgresql/$VERSION/$CLUSTER/conf.d
mkdir -p "$CONF_DIR"
printf "listen_addresses = '127.0.0.1'\n" > "$CONF_DIR/mauseloch-test.conf"
PORT=$(pg_lsclusters -h | awk -v v="$VERSION" -v c="$CLUSTER" '$1 == v && $2 == c {print $3}')

if ! pg_ctlcluster "$VERSION" "$CLUSTER" status >/dev/null 2>&1; then
  # 9>&-: the server must not inherit the lock, or every later run waits for it to stop.
  pg_ctlcluster "$VERSION" "$CLUSTER" start >&2 9>&-
fi

psql_admin() {
  runuser -u postgres -- psql --port "$PORT" -v ON_ERROR_STOP=1 -tAq "$@"
}

# Wait until the server accepts connections (start returns once the postmaster is up).
i=0
until psql_admin -c "SELECT 1" >/dev/null 2>&1; do
  i=$((i + 1))
  if [ "$i" -ge 30 ]; then
    echo "start-postgres: server on port $PORT does not answer" >&2
    exit 1
  fi
  sleep 1
done

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
  psql_admin -c "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASS'" >&2
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  psql_admin -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi

echo "postgresql://$DB_USER:$DB_PASS@127.0.0.1:$PORT/$DB_NAME"
