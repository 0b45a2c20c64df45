"""Write docs/events.schema.json from the event, view and result structs of every game and the
server's messages (``--check``: exit 1 if stale).

Run from the repository root: ``PYTHONPATH=src python scripts/event_schema.py``.
"""

from __future__ import annotations

import sys

import mauseloch  # noqa: F401  (registers every game)
from mauseloch.core.schema import SCHEMA_PATH, write_schema
from mauseloch.server.wire import schema

if "--check" in sys.argv[1:]:
    if not write_schema(schema(), check=True):
        print(f"{SCHEMA_PATH} is out of date; run: python scripts/event_schema.py", file=sys.stderr)
        sys.exit(1)
else:
    write_schema(schema())
    print(f"wrote {SCHEMA_PATH}")
