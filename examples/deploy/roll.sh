#!/bin/sh
# A rolling restart of the Mauseloch processes (after an upgrade, say): one after the other, each
# drained by SIGTERM (its tables go to the others, its sockets reconnect there) and waited for
# until it is ready again before the next one goes. Players see at most a reconnect of a second.
#
#   sh examples/deploy/roll.sh 1 2     # mauseloch@1 (port 8001), then mauseloch@2 (port 8002)
set -eu
[ "$#" -gt 0 ] || set -- 1 2
for i in "$@"; do
    systemctl restart "mauseloch@$i"
    tries=0
    until curl -fsS --max-time 2 "http://127.0.0.1:800$i/readyz" >/dev/null 2>&1; do
        tries=$((tries + 1))
        if [ "$tries" -gt 120 ]; then
            echo "mauseloch@$i is not ready after a minute: stopping the roll" >&2
            exit 1
        fi
        sleep 0.5
    done
    echo "mauseloch@$i is back"
done
