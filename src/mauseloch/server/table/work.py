"""Work at a table that runs to its end once begun."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from mauseloch.server.protocol import ProtocolError

log = logging.getLogger("mauseloch.server")


async def unbroken(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` to its end even if the caller is cancelled: a move that was written to the
    store is always played and announced, so memory and store never disagree."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(_retrieve)
    await asyncio.shield(task)


def _retrieve(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        exc = task.exception()  # seen, so an error nobody awaited any more is not reported twice
        if exc is not None and not isinstance(exc, ProtocolError):
            log.error("table work failed", exc_info=exc)
