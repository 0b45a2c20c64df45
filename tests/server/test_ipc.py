"""The frames between server processes (server/ipc.py): typed, versioned, and a process of
another version refused with a reason rather than misread."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
import pytest

from mauseloch.server import ipc
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.redis_hub import RedisHub, process_channel

RunAsync = Callable[[Coroutine[Any, Any, None]], None]

EVERY_OP: list[ipc.Op] = [
    ipc.Attach(3, None),
    ipc.Detach(3, left=True, everywhere=True),
    ipc.Move(1, "QH", 7, 1200, again=True),
    ipc.Snapshot(0),
    ipc.React(3, "catch", 4, 380),
    ipc.ClockAnswer(3, 2, 1234.5),
    ipc.RematchVote(2),
    ipc.Pace(1, True, 0.5),
    ipc.Joined(2, "Ben", "ab" * 32, "2026-12-04T15:00:00+00:00"),
]


class FakeRedis:
    """Records what the hub publishes (the only thing these tests make it do): the hub's
    publisher, heard by one subscriber."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []

    def publish(self, channel: str, data: bytes, told: Callable[[Any], None] | None) -> None:
        self.published.append((channel, data))
        if told is not None:
            told(1)


def owner(redis: FakeRedis, handled: list[ipc.Op]) -> RedisHub:
    async def handler(frm: str, table: str, op: ipc.Op) -> ipc.Done | ipc.Shown:
        handled.append(op)
        if isinstance(op, ipc.Move) and op.move == "nonsense":
            raise ProtocolError(ErrorCode.ILLEGAL, "no such move", refusal={"reason": "unknown", "params": {}})
        return ipc.Shown("snapshot", 5) if isinstance(op, ipc.Snapshot) else ipc.Done()

    return RedisHub(None, "owner", handler, publisher=redis)  # type: ignore[arg-type]  # no Redis: the fake publishes


def frame_of(version: int, kind: str, frm: str, rid: int, body: Any) -> bytes:
    return msgspec.msgpack.encode((version, kind, frm, rid, body))


@pytest.mark.parametrize("op", EVERY_OP, ids=lambda op: type(op).__name__)
def test_every_request_reads_back_as_sent(op: ipc.Op) -> None:
    data = ipc.encode("q", "p1", ipc.Request("t1", op), rid=9)
    header = ipc.read_header(data)
    assert (header.v, header.kind, header.frm, header.rid) == (ipc.PROTOCOL_VERSION, "q", "p1", 9)
    assert ipc.read_body(header) == ipc.Request("t1", op)


def test_a_request_is_answered_and_a_refusal_comes_back_as_the_same_error(run_async: RunAsync) -> None:
    async def main() -> None:
        redis, handled = FakeRedis(), []
        hub = owner(redis, handled)
        hub._received(b"ml:p:owner", ipc.encode("q", "asker", ipc.Request("t1", ipc.Snapshot(1)), rid=4))
        hub._received(b"ml:p:owner", ipc.encode("q", "asker", ipc.Request("t1", ipc.Move(0, "nonsense", 3)), rid=5))
        await asyncio.gather(*hub._work)
        assert handled == [ipc.Snapshot(1), ipc.Move(0, "nonsense", 3)]
        replies = {h.rid: ipc.read_body(h) for h in (ipc.read_header(d) for _, d in redis.published)}
        assert {c for c, _ in redis.published} == {process_channel("asker")}
        assert replies[4] == ipc.Shown("snapshot", 5)
        assert replies[5] == ipc.Refused(ErrorCode.ILLEGAL, "no such move", 400, {"reason": "unknown", "params": {}})

        # the asking side turns the refusal back into the error the owner raised
        asker = owner(FakeRedis(), [])
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        asker._pending[5] = future
        asker._received(b"ml:p:asker", redis.published[1][1])
        with pytest.raises(ProtocolError) as refused:
            future.result()
        assert refused.value.code == ErrorCode.ILLEGAL and refused.value.refusal == {"reason": "unknown", "params": {}}

    run_async(main())


def test_a_request_from_a_process_of_another_version_is_refused_with_the_reason(
    run_async: RunAsync, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        redis, handled = FakeRedis(), []
        hub = owner(redis, handled)
        newer = frame_of(ipc.PROTOCOL_VERSION + 1, "q", "newer", 8, ["t1", ["teleport", 1, 2, 3]])
        with caplog.at_level(logging.ERROR, logger="mauseloch.server"):
            hub._received(b"ml:p:owner", newer)
            await asyncio.gather(*hub._work)
        assert handled == []  # nothing was done at the table
        [(channel, data)] = redis.published
        assert channel == process_channel("newer")
        header = ipc.read_header(data)  # the header reads in every version: the asker learns why
        assert header.rid == 8 and header.v == ipc.PROTOCOL_VERSION
        reply = ipc.read_body(header)
        assert isinstance(reply, ipc.Refused) and reply.code == ErrorCode.SERVER_ERROR
        assert f"process newer speaks inter-process protocol version {ipc.PROTOCOL_VERSION + 1}" in reply.message
        assert "process newer speaks inter-process protocol version" in caplog.text

    run_async(main())


def test_a_reply_from_a_process_of_another_version_fails_its_request(run_async: RunAsync) -> None:
    async def main() -> None:
        hub = owner(FakeRedis(), [])
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        hub._pending[12] = future
        hub._received(b"ml:p:owner", frame_of(ipc.PROTOCOL_VERSION - 1, "r", "older", 12, ["whatever"]))
        with pytest.raises(ProtocolError) as refused:
            future.result()
        assert refused.value.code == ErrorCode.SERVER_ERROR
        assert f"version {ipc.PROTOCOL_VERSION - 1}" in refused.value.message

    run_async(main())


def test_a_tuple_frame_of_the_first_protocol_is_dropped_and_logged(
    run_async: RunAsync, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        redis, handled = FakeRedis(), []
        hub = owner(redis, handled)
        first = msgspec.msgpack.encode(("q", "old", 1, "t1", "move", [0, "QH", 3, None]))
        with caplog.at_level(logging.ERROR, logger="mauseloch.server"):
            hub._received(b"ml:p:owner", first)
            await asyncio.gather(*hub._work)
        assert handled == [] and redis.published == []
        assert f"no frame of protocol {ipc.PROTOCOL_VERSION}" in caplog.text

    run_async(main())


def test_a_request_this_version_cannot_read_is_refused_not_left_to_time_out(run_async: RunAsync) -> None:
    async def main() -> None:
        redis, handled = FakeRedis(), []
        hub = owner(redis, handled)
        hub._received(b"ml:p:owner", frame_of(ipc.PROTOCOL_VERSION, "q", "asker", 3, ["t1", ["teleport", 1]]))
        await asyncio.gather(*hub._work)
        assert handled == []
        [(channel, data)] = redis.published
        reply = ipc.read_body(ipc.read_header(data))
        assert channel == process_channel("asker")
        assert isinstance(reply, ipc.Refused) and reply.code == ErrorCode.BAD_MESSAGE
        assert "process asker sent a frame this one cannot read" in reply.message

    run_async(main())
