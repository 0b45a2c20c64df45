"""Browser tests: the real server in a subprocess, Debian's chromium driven by Playwright.

One server and one browser per test process (so per xdist worker); every test opens its own
browser contexts and tables. Bots move after ``BOT_DELAY`` seconds (``serve --bot-delay``).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOT_DELAY = 0.05
START_TIMEOUT = 30.0


# Every page of a test run comes from 127.0.0.1: one server per worker takes all its tables and
# pages from one address, far more than a person would (the caps are tested in tests/server).
ONE_ADDRESS = ("--tables-per-minute", "0", "--open-tables-per-address", "0", "--max-sockets-per-address", "0",
               "--requests-per-second", "0", "--max-heads-per-address", "0")  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``mauseloch serve`` on a fixed port and SQLite file; can be killed and started again."""

    def __init__(self, workdir: Path, extra: tuple[str, ...] = ()) -> None:
        self.workdir = workdir
        self.extra = list(extra)  # more ``serve`` options, e.g. ("--clock-scale", "0.05")
        self.port = free_port()
        self.db = f"sqlite:///{workdir / 'mauseloch.db'}"
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.program = ["-m", "mauseloch.cli"]  # what Python runs: ``serve`` and its options follow

    def start(self) -> None:
        self.starts += 1
        log = open(self.workdir / f"server-{self.starts}.log", "wb")  # noqa: SIM115 - lives with the process
        cmd = [sys.executable, *self.program, "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db, "--bot-delay", str(BOT_DELAY), *ONE_ADDRESS, *self.extra]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir)
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as res:
                    if res.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not answer within {START_TIMEOUT} s:\n{self.log_tail()}")
            time.sleep(0.1)

    def kill(self) -> None:
        """End the server at once, as a crash would (SIGKILL)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def log_tail(self) -> str:
        logs = sorted(self.workdir.glob("server-*.log"))
        return logs[-1].read_text(errors="replace")[-4000:] if logs else ""

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as res:
            return json.loads(res.read())


def server_fixture(label: str, *extra: str, scope: str = "module") -> Any:
    """A fixture that starts a server of its own with more ``serve`` options, e.g.
    ``fast_server = server_fixture("pause", "--clock-scale", "0.1")`` in a test module."""

    @pytest.fixture(scope=scope)  # type: ignore[call-overload]
    def fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
        srv = Server(tmp_path_factory.mktemp(label), extra=extra)
        srv.start()
        yield srv
        srv.stop()

    return fixture


server = server_fixture("mauseloch-server", scope="session")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; `make system-deps` does it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


# The pages run under a strict CSP (no 'unsafe-eval'). Give `wait_for_function` an arrow function
# ("() => ..."): Playwright evaluates that once, while a bare expression is eval'ed on every poll
# and refused by the CSP whenever the first check is not already true (a flaky failure under load).
@pytest.fixture
def new_context(browser: Any, server: Server) -> Iterator[Any]:
    """Make browser contexts (English unless told) that are closed after the test."""
    made: list[Any] = []

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("locale", "en-US")
        kwargs.setdefault("viewport", {"width": 1200, "height": 900})
        ctx = browser.new_context(base_url=server.url, **kwargs)
        ctx.set_default_timeout(15000)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[Any]:
    """A failed browser test carries the tail of its servers' logs: a table that stopped moving
    says why there (a traceback, a refused write), not in the page."""
    report = yield
    if report.failed:
        funcargs = getattr(item, "funcargs", {})
        for name, value in funcargs.items():
            if isinstance(value, Server):
                report.sections.append((f"server log ({name}, port {value.port})", value.log_tail()))
        if "browser" in funcargs:
            report.sections.append(("pages", pages_now(funcargs["browser"])))
    return report


# What each page still open shows of its table: where a wait ran out, the state it was in.
PAGE_STATE = """() => {
  const board = document.getElementById('board'), conn = document.getElementById('conn-status');
  return JSON.stringify({board: board ? {...board.dataset} : null,
                         conn: conn ? [conn.dataset.state, conn.textContent] : null,
                         offline: document.getElementById('offline')?.hidden === false,
                         end: document.getElementById('end-screen')?.hidden === false,
                         pace: ['pace-row', 'pace-speed-box'].map(
                           (id) => document.getElementById(id)?.hidden === false)});
}"""


def pages_now(browser: Any) -> str:
    """Every open page of the test's browser contexts: its address and its table's state."""
    lines = []
    for ctx in browser.contexts:
        for page in ctx.pages:
            try:
                # (a wait with a guard: evaluate has none, and a stuck page would hold the report)
                lines.append(f"{page.url} {page.wait_for_function(PAGE_STATE, timeout=2000).json_value()}")
            except Exception as exc:  # a page that is closing or stuck says so instead
                lines.append(f"{page.url} ({type(exc).__name__})")
    return "\n".join(lines) or "(none open)"
