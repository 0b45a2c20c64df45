"""The frames between server processes (server/ipc.py): typed, versioned, and a process of
another version refused with a reason rather than misread."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import hiredis
import msgspec
import pytest

from mauseloch.server import ipc
from mauseloch.server.hub import Connection
from mauseloch.server.protocol import ErrorCode, ProtocolError
from mauseloch.server.redis_hub import Publisher, RedisHub, RemoteConn, process_channel
from tests.server.test_storage import table_row

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
    ipc.Load(),
]


class FakeRedis:
    """Records what the hub publishes (the only thing these tests make it do): the hub's
    publisher, heard by one subscriber."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []
        self.told: list[Callable[[Any], None] | None] = []

    def publish(self, channel: str, data: bytes, told: Callable[[Any], None] | None) -> None:
        self.published.append((channel, data))
        self.told.append(told)
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


def test_a_tables_message_goes_to_each_listening_process_and_never_back_to_the_owner(run_async: RunAsync) -> None:
    """The owner sends a table's message once to each other process holding its connections, on
    that process's channel, with the texts of that process's seats only; the receiving process
    hands each of its connections the text of its seat."""

    async def main() -> None:
        redis = FakeRedis()
        hub = owner(redis, [])
        here = Connection(seat=0)
        hub.subscribe("t1", here)
        for pid, seat in (("p2", 1), ("p2", None), ("p3", 2)):
            hub.subscribe("t1", RemoteConn(seat=seat, pid=pid, cid=7 if seat is None else seat))
        asked: list[int | None] = []

        def message_for(seat: int | None) -> str:
            asked.append(seat)
            return f"text for {seat}"

        hub.publish("t1", 4, message_for)
        assert sorted(asked, key=str) == sorted([0, 1, None, 2], key=str)  # each seat's text made once
        assert here.outbox.get_nowait() == "text for 0"
        sent = {channel: ipc.read_body(ipc.read_header(data)) for channel, data in redis.published}
        assert sent == {
            process_channel("p2"): ipc.TableMessage("t1", 4, {1: "text for 1", -1: "text for None"}),
            process_channel("p3"): ipc.TableMessage("t1", 4, {2: "text for 2"}),
        }
        assert redis.told == [None, None]  # no count asked of Redis for a table's message

        other = RedisHub(None, "p2", owner(FakeRedis(), []).handler, publisher=FakeRedis())  # type: ignore[arg-type]
        seated, watching, elsewhere = Connection(seat=1), Connection(seat=None), Connection(seat=1)
        other.subscribe("t1", seated)
        other.subscribe("t1", watching)
        other.subscribe("t2", elsewhere)
        other._received(process_channel("p2").encode(), redis.published[0][1])
        assert seated.outbox.get_nowait() == "text for 1" and watching.outbox.get_nowait() == "text for None"
        assert elsewhere.outbox.empty()

    run_async(main())


class Link:
    """What a :class:`Publisher` writes to Redis, and the replies Redis would send back."""

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> bool:
        self.written.append(data)
        return True


def commands_in(data: bytes) -> list[Any]:
    reader = hiredis.Reader()
    reader.feed(data)
    commands = []
    while (command := reader.gets()) is not False:
        commands.append(command)
    return commands


def test_the_publisher_asks_redis_to_answer_only_the_frames_that_want_a_count(run_async: RunAsync) -> None:
    """A frame without ``told`` goes out behind ``CLIENT REPLY SKIP`` (Redis writes nothing
    back); a request's count reaches its own ``told``, in order, whatever was skipped between.
    While a reply is coming (a move asked for by another process is being made), a frame
    published one loop iteration after the first goes out in the same write; else the first
    goes out at once."""

    async def main() -> None:
        publisher = Publisher(None, "ml-test")  # type: ignore[arg-type]  # no Redis: a fake link
        link = Link()
        publisher._link = link  # type: ignore[assignment]
        heard: list[Any] = []
        publisher.replies_coming = lambda: True
        publisher.publish("ml:p:a", b"message", None)
        publisher.publish("ml:p:a", b"request", heard.append)
        await asyncio.sleep(0)  # a task woken by the first frame's callback publishes the next
        publisher.publish("ml:p:b", b"reply", None)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert len(link.written) == 1
        skip = [b"CLIENT", b"REPLY", b"SKIP"]
        assert commands_in(link.written[0]) == [
            skip,
            [b"PUBLISH", b"ml:p:a", b"message"],
            [b"PUBLISH", b"ml:p:a", b"request"],
            skip,
            [b"PUBLISH", b"ml:p:b", b"reply"],
        ]
        publisher._reply(1)  # the one answer Redis sends: the request's
        assert heard == [1]

        publisher.replies_coming = lambda: False  # nothing to wait for: out at once
        publisher.publish("ml:p:a", b"alone", None)
        await asyncio.sleep(0)
        publisher.publish("ml:p:a", b"later", None)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert [commands_in(w)[1] for w in link.written[1:]] == [
            [b"PUBLISH", b"ml:p:a", b"alone"],
            [b"PUBLISH", b"ml:p:a", b"later"],
        ]

    run_async(main())


def test_the_owner_waits_for_the_reply_only_while_it_makes_a_move_another_process_asked_for(
    run_async: RunAsync,
) -> None:
    async def main() -> None:
        made = asyncio.Event()

        async def handler(frm: str, table: str, op: ipc.Op) -> ipc.Done | ipc.Shown:
            await made.wait()
            return ipc.Done()

        hub = RedisHub(None, "owner", handler)  # type: ignore[arg-type]  # nothing is sent here
        assert isinstance(hub.publisher, Publisher)
        hub._received(b"ml:p:owner", ipc.encode("q", "asker", ipc.Request("t1", ipc.Snapshot(1)), rid=1))
        await asyncio.sleep(0)
        assert not hub.publisher.replies_coming()  # a snapshot: no update to wait for
        hub._received(b"ml:p:owner", ipc.encode("q", "asker", ipc.Request("t1", ipc.Move(0, "QH", 3)), rid=2))
        await asyncio.sleep(0)
        assert hub.publisher.replies_coming()
        made.set()
        await asyncio.gather(*hub._work)
        assert not hub.publisher.replies_coming()

    run_async(main())


def test_a_tables_row_reads_back_as_its_owner_holds_it() -> None:
    row = table_row()
    row.moves = [[0, "QH"], [1, "7S", 1200]]
    decision = {"seat": 1, "move": "7S", "ms": 1200, "at": 5.25, "first": 4.0, "tied": [1]}
    row.referee = {1: {"claims": [], "decision": decision}}  # a window's log entry, as the referee writes it
    header = ipc.read_header(ipc.encode("r", "owner", ipc.Loaded(row), rid=2))
    assert ipc.read_body(header) == ipc.Loaded(row)
