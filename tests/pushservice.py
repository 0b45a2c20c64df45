"""A push service on 127.0.0.1 for tests and bench/push.py: what a browser's push service does
with a push (RFC 8030), checked as strictly as the real ones check it.

Each POST to ``/push/<device>`` must carry ``TTL`` (and at most a known ``Urgency``), a VAPID
``Authorization: vapid t=<JWT>, k=<key>`` whose ES256 signature verifies against ``k`` with
``aud`` this service's origin and ``exp`` within 24 hours (RFC 8292), and an ``aes128gcm`` body
that decrypts with the device's private keys (RFC 8291). A good push is answered 201 and kept,
decrypted, with the moment it arrived; a device can be told to answer 404/410/429/500 or to be slow.
It runs its own event loop in a thread, so a test of any kind (sync or async) can use it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

URGENCIES = ("very-low", "low", "normal", "high")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Push:
    at: float  # time.time() it arrived
    payload: dict[str, Any]
    ttl: int
    urgency: str | None


@dataclass
class Device:
    """A browser's subscription: its keys (as the browser makes them) and what reached it."""

    name: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    received: list[Push] = field(default_factory=list)
    answer: int = 201  # what the service answers this device's pushes (404/410/429/500: refused)
    delay: float = 0.0  # seconds it takes to answer
    posts: int = 0  # pushes posted to it, answered or not
    held: bool = False  # while set, its pushes wait unanswered (a push service that hangs)

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }


class PushService:
    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.refused: list[str] = []  # why pushes that broke the RFCs were refused
        self.posts = 0
        self.vapid_keys: set[str] = set()  # the ``k=`` keys pushes were signed with
        # called in the service's thread with each push kept (bench/push.py wakes its waiters)
        self.on_push: Callable[[Device, Push], None] | None = None
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.url = ""

    def __enter__(self) -> PushService:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(30)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_post("/push/{device}", self._push)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def _stop(self) -> None:
        assert self._runner is not None
        await self._runner.cleanup()

    def device(self, name: str) -> Device:
        dev = self.devices[name] = Device(name, f"{self.url}/push/{name}")
        return dev

    def wait(self, device: Device, count: int, timeout: float = 60.0) -> list[Push]:
        """Until ``device`` has received ``count`` pushes (fails after ``timeout`` seconds)."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(device.received) >= count, timeout):
                raise AssertionError(
                    f"{device.name} got {len(device.received)} of {count} pushes; refused: {self.refused}"
                )
            return list(device.received)

    # -- RFC 8030 / 8291 / 8292 ------------------------------------------------------------------
    def _refuse(self, status: int, why: str) -> web.Response:
        self.refused.append(why)
        return web.Response(status=status, text=why)

    def _vapid(self, header: str) -> str | None:
        """Why the VAPID header is wrong (None: it is right)."""
        if not header.startswith("vapid "):
            return "no vapid Authorization"
        parts = dict(p.strip().split("=", 1) for p in header[6:].split(","))
        token, key = parts.get("t", ""), parts.get("k", "")
        try:
            head, claims, sig = token.split(".")
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
            raw = unb64url(sig)
            if len(raw) != 64:
                return "an ES256 signature is 64 bytes"
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
            alg = json.loads(unb64url(head))
            body = json.loads(unb64url(claims))
        except InvalidSignature:
            return "the VAPID signature does not verify"
        except ValueError as exc:
            return f"a bad VAPID token: {exc}"
        if alg.get("alg") != "ES256":
            return "VAPID tokens are ES256"
        if body.get("aud") != self.url:
            return f"aud {body.get('aud')!r} is not this service"
        if not time.time() < float(body.get("exp", 0)) <= time.time() + 24 * 3600:
            return "exp is not within 24 hours"
        if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
            return "sub is a mailto: or https: URL"
        self.vapid_keys.add(key)
        return None

    async def _push(self, request: web.Request) -> web.Response:
        self.posts += 1
        device = self.devices.get(request.match_info["device"])
        if device is None:
            return web.Response(status=404)
        device.posts += 1
        ttl = request.headers.get("TTL", "")
        if not ttl.isdigit():
            return self._refuse(400, "a push carries TTL")
        urgency = request.headers.get("Urgency")
        if urgency is not None and urgency not in URGENCIES:
            return self._refuse(400, f"Urgency {urgency!r}")
        why = self._vapid(request.headers.get("Authorization", ""))
        if why is not None:
            return self._refuse(403, why)
        if request.headers.get("Content-Encoding") != "aes128gcm":
            return self._refuse(415, "the body is aes128gcm")
        body = await request.read()
        if device.delay:
            await asyncio.sleep(device.delay)
        while device.held:
            await asyncio.sleep(0.01)
        if device.answer != 201:
            return web.Response(status=device.answer)
        try:
            plain = http_ece.decrypt(body, private_key=device.key, auth_secret=device.auth, version="aes128gcm")
            payload = json.loads(plain)
        except Exception as exc:  # whatever the decryption says: refused
            return self._refuse(400, f"the body does not decrypt: {exc!r}")
        push = Push(time.time(), payload, int(ttl), urgency)
        with self._cond:
            device.received.append(push)
            self._cond.notify_all()
        if self.on_push is not None:
            self.on_push(device, push)
        return web.Response(status=201, headers={"Location": f"{self.url}/message/{self.posts}"})
