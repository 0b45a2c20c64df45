"""listen.py: the loop ``serve`` runs on accepts every waiting connection when its socket is ready,
and DirectWebSocket reads a client's frames as websockets' parser would (the same messages, pings
answered, the same close codes), with or without its own reading of text frames."""

from __future__ import annotations

import asyncio
import gc
import re
import socket
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from mauseloch.server.listen import DirectWebSocket, new_loop

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


# -- reading a client's frames (DirectWebSocket.data_received) --------------------------------------
LIMIT = 1000  # the test server's ws_max_size
REQUEST = (
    b"GET /ws/t HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def client_frame(opcode: int, payload: bytes, fin: bool = True, key: bytes = b"\x12\x34\x56\x78") -> bytes:
    """A frame as a client sends it: masked (``key=b""``: unmasked, which a client must not)."""
    n = len(payload)
    mask = 0x80 if key else 0
    head = bytes(((0x80 if fin else 0) | opcode,))
    if n < 126:
        head += bytes((mask | n,))
    elif n < 1 << 16:
        head += bytes((mask | 126,)) + n.to_bytes(2, "big")
    else:
        head += bytes((mask | 127,)) + n.to_bytes(8, "big")
    if not key:
        return head + payload
    masked = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return head + key + masked


def text(message: str, **kwargs: Any) -> bytes:
    return client_frame(1, message.encode(), **kwargs)


class FakeTransport:
    """What DirectWebSocket and uvicorn's protocol use of a transport; it keeps what is written."""

    def __init__(self) -> None:
        self.out = bytearray()
        self.closed = False
        self.paused = 0
        self.resumed = 0

    def write(self, data: bytes) -> None:
        self.out += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def get_write_buffer_size(self) -> int:
        return 0


@dataclass
class Session:
    got: list[Any]  # the endpoint's messages: texts, bytes, ("closed", code)
    out: bytes  # what the server wrote after its handshake's answer
    transport: FakeTransport
    parser_bytes: int  # bytes websockets' parser was given after the handshake


def serve_frames(
    chunks: list[bytes],
    fast: bool,
    run_async: Callable[[Any], Any],
    then: Callable[[DirectWebSocket], None] | None = None,
) -> Session:
    """A DirectWebSocket whose endpoint records what it receives, fed ``chunks`` after the
    handshake one loop round apart (``fast=False``: every byte through websockets' parser);
    ``then`` is called with it before its connection drops."""
    got: list[Any] = []

    async def endpoint(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                got.append(("closed", message.get("code")))
                return
            got.append(message.get("text", message.get("bytes")))

    async def session() -> Session:
        config = Config(app=endpoint, ws_max_size=LIMIT, ws_per_message_deflate=False, lifespan="off")
        config.load()
        state = ServerState()
        proto = DirectWebSocket(config=config, server_state=state, app_state={})
        proto.fast_read = fast
        transport = FakeTransport()
        proto.connection_made(transport)  # type: ignore[arg-type]
        proto.data_received(REQUEST)
        for _ in range(5):
            await asyncio.sleep(0)
        assert transport.out.startswith(b"HTTP/1.1 101 ")
        transport.out.clear()
        fed = [0]
        parse = proto.conn.receive_data

        def counted(data: bytes | bytearray) -> None:
            fed[0] += len(data)
            parse(data)

        proto.conn.receive_data = counted  # type: ignore[method-assign]
        for chunk in chunks:
            if not transport.closed:
                proto.data_received(chunk)
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        if then is not None:
            then(proto)
        proto.connection_lost(None)
        await asyncio.gather(*state.tasks)
        return Session(got, bytes(transport.out), transport, fed[0])

    result: Session = run_async(session())
    return result


def split(stream: bytes, size: int) -> list[bytes]:
    return [stream[i : i + size] for i in range(0, len(stream), size)]


def close_code(out: bytes) -> int | None:
    """The code of the close frame the server wrote (unmasked), if it wrote one."""
    at = out.find(b"\x88")
    return None if at < 0 or len(out) < at + 4 else int.from_bytes(out[at + 2 : at + 4], "big")


MESSAGES = ["", "a", '{"type":"move","move":"7H","version":3}', "x" * 125, "é" * 63, "y" * 126, "z" * 300, "w" * LIMIT]


@pytest.mark.parametrize("size", [1, 2, 7, 1 << 20])
@pytest.mark.parametrize("fast", [True, False])
def test_text_messages_arrive_whole_and_in_order_however_the_stream_is_cut(
    size: int, fast: bool, run_async: Callable[[Any], Any]
) -> None:
    stream = b"".join(text(m) for m in MESSAGES)
    s = serve_frames(split(stream, size), fast, run_async)
    assert s.got == [*MESSAGES, ("closed", 1005)]  # the connection dropped without a close
    assert s.out == b""
    # read here, not by websockets' parser (which reads everything with fast=False)
    assert s.parser_bytes == (0 if fast else len(stream))


@pytest.mark.parametrize("fast", [True, False])
def test_reading_pauses_only_when_messages_pile_up(fast: bool, run_async: Callable[[Any], Any]) -> None:
    one_by_one = serve_frames([text(str(i)) for i in range(5)], fast, run_async)
    assert one_by_one.got[:5] == [str(i) for i in range(5)]
    assert one_by_one.transport.paused == (0 if fast else 5)
    burst = serve_frames([b"".join(text(str(i)) for i in range(40))], fast, run_async)
    assert burst.got[:40] == [str(i) for i in range(40)]
    assert burst.transport.paused == 1 and burst.transport.resumed == 1  # and reading went on


@pytest.mark.parametrize("fast", [True, False])
def test_a_message_over_the_size_limit_closes_with_1009(fast: bool, run_async: Callable[[Any], Any]) -> None:
    s = serve_frames([text("ok"), text("x" * (LIMIT + 1))[:300]], fast, run_async)
    assert s.got[0] == "ok" and close_code(s.out) == 1009 and s.transport.closed
    huge = client_frame(1, b"x" * (1 << 16))  # a 64-bit length
    assert close_code(serve_frames([huge[:50]], fast, run_async).out) == 1009


@pytest.mark.parametrize("fast", [True, False])
def test_pings_are_answered_between_messages(fast: bool, run_async: Callable[[Any], Any]) -> None:
    stream = text("a") + client_frame(9, b"beat") + text("b")
    for size in (len(stream), 3):
        s = serve_frames(split(stream, size), fast, run_async)
        assert s.got[:2] == ["a", "b"]
        assert s.out == b"\x8a\x04beat"  # the pong, unmasked, with the ping's payload


@pytest.mark.parametrize("fast", [True, False])
def test_a_fragmented_message_is_put_together(fast: bool, run_async: Callable[[Any], Any]) -> None:
    stream = text("a") + text("bc", fin=False) + client_frame(0, b"de") + text("f")
    s = serve_frames(split(stream, 5), fast, run_async)
    assert s.got[:3] == ["a", "bcde", "f"]


@pytest.mark.parametrize("fast", [True, False])
def test_binary_messages_reach_the_endpoint_as_bytes(fast: bool, run_async: Callable[[Any], Any]) -> None:
    s = serve_frames([text("a") + client_frame(2, b"\x00\x01") + text("b")], fast, run_async)
    assert s.got[:3] == ["a", b"\x00\x01", "b"]


@pytest.mark.parametrize("fast", [True, False])
def test_the_clients_close_is_answered_and_the_rest_ignored(fast: bool, run_async: Callable[[Any], Any]) -> None:
    s = serve_frames([text("a") + client_frame(8, (1000).to_bytes(2, "big")) + text("late")], fast, run_async)
    assert s.got == ["a", ("closed", 1000)]
    assert close_code(s.out) == 1000 and s.transport.closed


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (client_frame(1, b"\xff\xfe"), 1007),  # not UTF-8
        (text("a", key=b""), 1002),  # unmasked
        (bytes((0xC1,)) + text("a")[1:], 1002),  # a reserved bit set
    ],
)
@pytest.mark.parametrize("fast", [True, False])
def test_a_frame_that_breaks_the_rules_closes_with_websockets_code(
    frame: bytes, code: int, fast: bool, run_async: Callable[[Any], Any]
) -> None:
    s = serve_frames([text("a") + frame + text("b")], fast, run_async)
    assert "b" not in s.got  # (websockets' parser drops the "a" before it too: uvicorn reads no events then)
    assert s.got[-1] == ("closed", code) and close_code(s.out) == code and s.transport.closed


def test_send_now_writes_text_and_encoded_bytes_as_one_text_frame(run_async: Callable[[Any], Any]) -> None:
    def send(proto: DirectWebSocket) -> None:
        assert proto.send_now("é") and proto.send_now(b'{"a":1}') and proto.send_now("z" * 200)

    s = serve_frames([], True, run_async, then=send)
    assert s.out == b"\x81\x02" + "é".encode() + b'\x81\x07{"a":1}' + b"\x81\x7e\x00\xc8" + b"z" * 200


def answer_to(request: bytes, fast: bool, run_async: Callable[[Any], Any]) -> tuple[bytes, bool]:
    """What a DirectWebSocket answers a handshake ``request`` (an endpoint that accepts), and
    whether websockets' parser read it."""

    async def endpoint(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await receive()

    async def session() -> tuple[bytes, bool]:
        config = Config(app=endpoint, ws_max_size=LIMIT, ws_per_message_deflate=False, lifespan="off")
        config.load()
        state = ServerState()
        proto = DirectWebSocket(config=config, server_state=state, app_state={})
        proto.fast_read = fast
        parsed = []
        parse = proto.conn.receive_data

        def counted(data: bytes | bytearray) -> None:
            parsed.append(data)
            parse(data)

        proto.conn.receive_data = counted  # type: ignore[method-assign]
        transport = FakeTransport()
        proto.connection_made(transport)  # type: ignore[arg-type]
        proto.data_received(request)
        for _ in range(5):
            await asyncio.sleep(0)
        proto.connection_lost(None)
        await asyncio.gather(*state.tasks)
        # The Date header names the second the answer went out: two answers can straddle one
        # (CI saw 20:28:07 against 20:28:08), so it is compared as a header, not as a time.
        return re.sub(rb"\r\nDate: [^\r]*\r\n", b"\r\nDate: -\r\n", bytes(transport.out)), bool(parsed)

    result: tuple[bytes, bool] = run_async(session())
    return result


def test_a_plain_handshake_is_answered_as_websockets_answers_it_without_its_parser(
    run_async: Callable[[Any], Any],
) -> None:
    browser = (
        b"GET /ws/abc?x=1 HTTP/1.1\r\nhost: example.org\r\nconnection: keep-alive, Upgrade\r\n"
        b"upgrade: WebSocket\r\norigin: https://example.org\r\nsec-websocket-version: 13\r\n"
        b"sec-websocket-key: x3JJHMbDL1EzLkh9GBhXDw==\r\nsec-websocket-extensions: permessage-deflate\r\n\r\n"
    )
    for request in (REQUEST, browser):
        ours, parsed = answer_to(request, True, run_async)
        theirs, _ = answer_to(request, False, run_async)
        assert ours.startswith(b"HTTP/1.1 101 ") and ours == theirs
        assert not parsed
    assert b"HSmrc0sMlYUkAGmm5OPpG2HaGWk=" in answer_to(browser, True, run_async)[0]  # RFC 6455's example key


@pytest.mark.parametrize(
    "request_bytes",
    [
        REQUEST.replace(b"Version: 13", b"Version: 8"),
        REQUEST.replace(b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", b""),
        REQUEST.replace(b"dGhlIHNhbXBsZSBub25jZQ==", b"dGhlIHNhbXBsZQ=="),  # 11 bytes, not 16
        REQUEST.replace(b"Upgrade: websocket\r\n", b""),
        REQUEST.replace(b"Connection: Upgrade", b"Connection: keep-alive"),
        REQUEST.replace(b"Host: test\r\n", b"Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"),  # two keys
        REQUEST.replace(b"Host: test", b"Host: t\xe9st"),
        REQUEST.replace(b"GET ", b"POST "),
        REQUEST.replace(b"Host: test", b"Ho(st: test"),  # not a token
        REQUEST.replace(b"Host: test", b"X-Long: " + b"a" * 8200),  # a line longer than websockets takes
    ],
)
def test_any_other_handshake_gets_websockets_answer(request_bytes: bytes, run_async: Callable[[Any], Any]) -> None:
    ours, parsed = answer_to(request_bytes, True, run_async)
    assert parsed  # websockets read it
    assert ours == answer_to(request_bytes, False, run_async)[0]  # a refusal, or (Latin-1 host) its 101


def test_a_closed_socket_is_freed_at_once_not_by_the_collector(run_async: Callable[[Any], Any]) -> None:
    """No cycle through the protocol (the scope's send_now is bound to it): a closed socket's
    protocol, its parser and its transport go when the endpoint ends, without a collection."""
    refs: list[weakref.ref[DirectWebSocket]] = []
    gc.collect()
    gc.disable()
    try:
        serve_frames([text("a")], True, run_async, then=lambda proto: refs.append(weakref.ref(proto)))
        assert refs[0]() is None
    finally:
        gc.enable()
