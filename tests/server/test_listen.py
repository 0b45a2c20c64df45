"""The loop ``serve`` runs on accepts every waiting connection when its socket is ready (listen.py)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable

import pytest

from mauseloch.server.listen import new_loop

BURST = 200


def rounds_to_accept(make_loop: Callable[[], asyncio.AbstractEventLoop]) -> int:
    """Loop rounds until a burst of connections waiting in the listen queue is all accepted (in a
    thread of its own: another test's loop may still be set as running in this one)."""
    result: list[int] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            result.append(_rounds_to_accept(make_loop))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    if failed:
        raise failed[0]
    assert result, "the loop never accepted the burst"
    return result[0]


def _rounds_to_accept(make_loop: Callable[[], asyncio.AbstractEventLoop]) -> int:
    loop = make_loop()
    accepted: list[asyncio.BaseTransport] = []

    class Counting(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.append(transport)

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(BURST * 2)
    clients: list[socket.socket] = []

    async def burst() -> int:
        server = await loop.create_server(Counting, sock=listener, backlog=BURST * 2)
        clients.extend(socket.create_connection(listener.getsockname()) for _ in range(BURST))
        rounds = 0
        while len(accepted) < BURST and rounds < BURST:
            await asyncio.sleep(0)  # one round of the loop: it polls its sockets once
            rounds += 1
        server.close()
        await server.wait_closed()
        for transport in accepted:
            transport.close()
        await asyncio.sleep(0)
        return rounds

    try:
        rounds = loop.run_until_complete(burst())
        assert len(accepted) == BURST
        return rounds
    finally:
        for c in clients:
            c.close()
        listener.close()
        loop.close()


def test_a_burst_of_connections_is_accepted_in_a_few_rounds() -> None:
    assert rounds_to_accept(new_loop) <= 10


def test_uvloops_own_server_takes_one_round_a_connection() -> None:
    """Why listen.py exists: libuv accepts one connection a poll (libuv/libuv#3696)."""
    uvloop = pytest.importorskip("uvloop")
    assert rounds_to_accept(uvloop.new_event_loop) >= BURST // 2
