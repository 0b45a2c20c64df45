"""``mauseloch serve`` processes for the operating tests (metrics, logs, drains, backups), and a
seat played over a real WebSocket until its game ends."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

GUARD = 60.0  # seconds: only so a broken server fails the test instead of hanging it
# the run_async fixture (tests/conftest.py): a coroutine run on a loop of its own, in a thread of
# its own, as a browser test earlier in the same worker leaves Playwright's loop set in this one
RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]
PACE = 0.06  # seconds before each move: a seat stays under the server's 20 messages a second


class Serve:
    """One ``mauseloch serve`` process on a free port; its stderr is collected line by line (a
    pipe read on, so that a chatty server never blocks on it)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None, ready: bool = True) -> None:
        cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--bot-delay", "0", *args]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(self.proc.stderr,), daemon=True)
        self._reader.start()
        first = self.proc.stdout.readline()
        match = re.match(r"Mauseloch is serving at http://127\.0\.0\.1:(\d+)/", first)
        if match is None:
            self.proc.kill()
            self.proc.wait(GUARD)
            self._reader.join(GUARD)
            raise AssertionError((first, "\n".join(self.lines[-20:])))
        self.address = f"127.0.0.1:{match.group(1)}"
        self.metrics: str | None = None
        if "--metrics" in args:
            found = re.match(r"Metrics at http://(\S+)/metrics", self.proc.stdout.readline())
            assert found is not None
            self.metrics = found.group(1)
        self.http = httpx.Client(base_url=f"http://{self.address}", trust_env=False, timeout=GUARD)
        if ready:
            self.wait_ready()

    def _read(self, pipe: Any) -> None:
        for line in pipe:
            self.lines.append(line.rstrip("\n"))

    def wait_ready(self) -> None:
        deadline = time.monotonic() + GUARD  # it prints its address before its lobby runs
        while True:
            try:
                if self.http.get("/readyz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server never became ready"
            time.sleep(0.05)

    def scrape(self) -> str:
        assert self.metrics is not None
        return httpx.get(f"http://{self.metrics}/metrics", trust_env=False, timeout=GUARD).text

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Stop it with ``sig`` and wait for the end; its exit code."""
        self.http.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code = self.proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait(GUARD)
        self._reader.join(GUARD)
        return code


def figure(text: str, name: str, **labels: str) -> float:
    """The value of the sample ``name`` with ``labels`` in Prometheus's text format (0 if absent)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    total = 0.0
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        sample, _, rest = head.partition("{")
        if sample != name:
            continue
        got = ",".join(sorted(p for p in rest.rstrip("}").split(",") if p)) if rest else ""
        if all(part in got.split(",") for part in wanted.split(",") if part):
            total += float(value)
    return total


async def play_seat(
    address: str, table: str, seat: int, token: str, seed: int = 0, hold: asyncio.Event | None = None
) -> dict[str, Any]:
    """Play ``seat`` with random legal moves until its game ends (from when ``hold`` is set, if
    given); the last frame it got."""
    rng = random.Random(seed * 10 + seat)
    last: dict[str, Any] = {}
    sent = -1
    if hold is not None:
        await hold.wait()
    async with asyncio.timeout(GUARD):
        async with connect(f"ws://{address}/ws/{table}", proxy=None, open_timeout=GUARD) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "seat": seat, "last_seq": 0}))
            async for raw in ws:
                msg = json.loads(raw)
                assert msg["type"] != "error", msg
                if msg["type"] not in ("snapshot", "update"):
                    continue
                last = msg
                if msg["view"].get("is_over"):
                    return last
                legal = msg["view"].get("legal_moves") or []
                if legal and msg["version"] > sent:
                    sent = msg["version"]
                    await asyncio.sleep(PACE)
                    await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "version": sent}))
    return last


def wait_for(condition: Any, what: str, limit: float = GUARD) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def data_dir(tmp: Path) -> str:
    return f"sqlite:///{tmp / 'mauseloch.db'}"
