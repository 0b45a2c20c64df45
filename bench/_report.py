"""What every bench does under ``--json`` (shared by the scripts, not a bench itself).

Its tables and notes go to stderr and stdout holds exactly one line, the JSON object of its
figures, so that ``python bench/NAME.py --json | jq`` and the smoke tests (tests/bench) read it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def text_to_stderr(json_mode: bool) -> TextIO:
    """Under ``--json``: from now on whatever this process and the processes it starts write to
    stdout goes to stderr (at the file descriptor, so a peer library's or a child's prints too);
    the stream returned is the real stdout, kept for :func:`print_json`. Without it, stdout."""
    if not json_mode:
        return sys.stdout
    sys.stdout.flush()
    real = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return real


def print_json(figures: Any, out: TextIO, **dumps: Any) -> None:
    """The one JSON line of the figures on ``out`` (what :func:`text_to_stderr` returned)."""
    out.write(json.dumps(figures, **dumps) + "\n")
    out.flush()
