"""The server's log lines: as text (the default) or one JSON object a line (``serve --log-format json``).

Every line carries the process (``process``: the id other processes and ``/readyz`` know it by;
``pid``: the operating system's), and, when it comes from a request or a WebSocket, the table
(``table``) and the request's id (``request_id``: the ``X-Request-ID`` a proxy sent, else one
drawn here). They are context variables set where a request enters (app.Platform), so a line
logged anywhere on a request's way names them without being told.

Nothing secret goes into a line: no seat token, no invite secret, no cookie, no query string
(an access line names the path only). tests/server/test_logs.py plays a whole game with every
line logged and looks for each of them.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import secrets
import sys
from typing import Literal

from mauseloch.extras import needs

with needs("web", __name__):
    from pythonjsonlogger.json import JsonFormatter

LogFormat = Literal["text", "json"]

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
table_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("table_id", default=None)
_process = str(os.getpid())  # until a process of several names itself (ownership.py)

# what a proxy's request id may look like to be taken as it is (nginx's $request_id: 32 hex digits)
GOOD_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# the fields of a JSON line, named as operators' tools expect them
JSON_FIELDS = {"levelname": "level", "name": "logger", "process": "pid", "ml_process": "process"}


def name_process(process: str) -> None:
    """This process's id in every line from now on."""
    global _process
    _process = process


def new_request_id(given: str | None) -> str:
    """The id a proxy gave the request (``X-Request-ID``) if it is a plain one, else a fresh one."""
    if given is not None and GOOD_ID.fullmatch(given):
        return given
    return secrets.token_hex(8)


class Context(logging.Filter):
    """Puts the process, the table and the request id on every record (a ``table`` given with
    ``extra=`` wins over the context's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.ml_process = _process
        if getattr(record, "table", None) is None:
            record.table = table_id.get()
        record.request_id = request_id.get()
        record.__dict__.pop("color_message", None)  # uvicorn's copy of the message for terminals
        return True


def configure(fmt: LogFormat, level: str) -> None:
    """Every logger's lines to stderr in ``fmt`` from ``level`` on (uvicorn's too; its access log
    stays off: it writes query strings, the platform writes its own lines, path only)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(Context())
    if fmt == "json":
        handler.setFormatter(
            JsonFormatter(
                "%(levelname)s %(name)s %(message)s %(process)d",
                rename_fields=JSON_FIELDS,
                timestamp="time",
                json_ensure_ascii=False,
            )
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT + " [%(ml_process)s%(table_part)s]"))
        handler.addFilter(_text_table)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.error").setLevel(uvicorn_level(level).upper())
    logging.getLogger("uvicorn.access").disabled = True


def uvicorn_level(level: str) -> str:
    """uvicorn's own lines from ``level`` on, but never its debug lines: websockets writes every
    frame there, and a client's first frame holds its seat's token."""
    return "info" if level.lower() == "debug" else level.lower()


def _text_table(record: logging.LogRecord) -> bool:
    table = getattr(record, "table", None)
    record.table_part = "" if table is None else f" table {table}"
    return True
