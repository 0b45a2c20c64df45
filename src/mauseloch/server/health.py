"""``/healthz`` and ``/readyz`` for a load balancer or an orchestrator (docs/deploy.md).

``/healthz``: the process answers (restart it when it does not). ``/readyz``: it should get
traffic: its lobby runs, the database answers and, with ``--redis``, Redis answers; the JSON body
also carries a few figures for monitoring (tables run here, connections, table messages published).
"""

from __future__ import annotations

import asyncio

import msgspec

from mauseloch.extras import needs
from mauseloch.server.answers import JSON

with needs("web", __name__):
    from sqlalchemy import text
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, Response

CHECK_TIMEOUT = 2.0  # seconds a dependency may take to answer a readiness check


class Ready(msgspec.Struct, kw_only=True, omit_defaults=True):
    """``/readyz``'s body: the figures, and whether (else why not) the process should get traffic;
    ``process`` and ``published`` only with ``--redis`` (the process's id in the cluster, the table
    messages it published)."""

    tables: int
    connections: int
    process: str | None = None
    published: int | None = None
    ready: bool
    problems: list[str]


async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok")


def _database_answers(request: Request) -> None:
    with request.app.state.store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def readyz(request: Request) -> Response:
    lobby = request.app.state.lobby
    problems: list[str] = []
    if not lobby.running or lobby.draining:
        problems.append("the server is starting or stopping")
    try:
        await asyncio.wait_for(asyncio.to_thread(_database_answers, request), CHECK_TIMEOUT)
    except Exception as exc:
        problems.append(f"database: {type(exc).__name__}")
    tables = len(lobby.tables)
    connections = sum(lobby.hub.listeners(t) for t in list(lobby.tables))
    process: str | None = None
    published: int | None = None
    aredis = getattr(lobby, "aredis", None)
    if aredis is not None:
        try:
            await asyncio.wait_for(aredis.ping(), CHECK_TIMEOUT)
        except Exception as exc:
            problems.append(f"redis: {type(exc).__name__}")
        process, published = lobby.pid, lobby.cluster_hub.published
    body = Ready(
        tables=tables,
        connections=connections,
        process=process,
        published=published,
        ready=not problems,
        problems=problems,
    )
    return JSON(body, status_code=200 if not problems else 503)
