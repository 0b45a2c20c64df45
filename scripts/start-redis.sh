#!/bin/sh
# Start a redis-server on 127.0.0.1 (a free port, nothing written to disk) for the tests of several
# server processes, and print its URL on stdout. Needs Debian's redis-server package
# (`make system-deps`); without it, it prints nothing and exits 0, so those tests skip. The server
# runs until it is stopped: `kill $(cat DIR/redis.pid)` (DIR is printed on stderr).
#   export MAUSELOCH_TEST_REDIS_URL="$(sh scripts/start-redis.sh)"
set -eu

if ! command -v redis-server >/dev/null 2>&1; then
  echo "start-redis: no redis-server (Debian package redis-server); the Redis tests will skip" >&2
  exit 0
fi

PYTHON=${PYTHON:-python3}
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DIR=$(mktemp -d "${TMPDIR:-/tmp}/mauseloch-redis.XXXXXX")
redis-server --bind 127.0.0.1 --port "$PORT" --save "" --appendonly no --daemonize yes \
  --dir "$DIR" --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log" >&2

i=0
until redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; do
  i=$((i + 1))
  if [ "$i" -ge 50 ]; then
    echo "start-redis: redis-server on port $PORT does not answer (log: $DIR/redis.log)" >&2
    exit 1
  fi
  sleep 0.1
done
echo "start-redis: redis-server on port $PORT, pid file $DIR/redis.pid" >&2
echo "redis://127.0.0.1:$PORT/0"
