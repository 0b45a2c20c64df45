"""Playing offline, the whole way in one browser context: the lobby's "Offline spielen" fetches
the bundle (nothing of it before), the server is stopped and the context set offline, the lobby
reloads from the service worker, and a whole Mau-Mau, Aus die Maus! and Mausgeflippt game are
played against bots by the engine in the page's Web Worker, through the same table page; then
the server comes back, the finished games are sent (replayed by the server) and their replays
open from "My tables".

Mau-Mau is started through the lobby's form (the game's stand-in bots); Aus die Maus! and
Mausgeflippt through the same call of the page (offline.js newOfflineGame) with the shorter
options and pace the other browser tests use (a small deck and two chips; a short reaction window,
the fast countdown and the child-level bot, too slow for it; the bots' pause and the clocks as
their server's --bot-delay and --clock-scale), so that the flow stays short.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mauseloch.locale import catalogue
from mauseloch.server import offline
from tests import offline_bundle

from .conftest import Server, server_fixture
from .helpers import play_to_end

pytestmark = pytest.mark.browser

offline_server = server_fixture("mauseloch-offline", scope="module")  # stopped and started again here
NEW_GAME = """async (setup) => {
  const { newOfflineGame } = await import("/static/js/offline.js");
  return newOfflineGame(setup);
}"""
SHOWN = '#board[data-window="shown"] .mg-mouse .mg-face'
REACT = """() => new Promise((done) => setTimeout(() => {
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "1", bubbles: true }));
  done();
}, 120))"""
# as the other browser tests' server (--bot-delay 0.05, --clock-scale 0.05): the bots' pause, the countdown
FAST = {"bot_delay": 0.05, "scale": 0.05}
WINDOW_MS = 300
# the worker kept the game, finished, in IndexedDB (a page left before that would lose its end)
STORED = """async () => {
  const { getGame } = await import("/static/js/offline-store.js");
  const game = await getGame(decodeURIComponent(location.pathname.split("/")[2]));
  return Boolean(game && game.status === "over" && game.record);
}"""
# the interpreter's memory snapshots kept in the bundle's cache (offline-worker.js)
SNAPSHOTS = """async () => {
  const keys = await (await caches.open("mauseloch-offline")).keys();
  return keys.filter((r) => new URL(r.url).pathname.startsWith("/offline/pyodide/memory-snapshot-")).length;
}"""
# every text the offline panel's status line shows, in order
SAID = """() => {
  window.said = [];
  const status = document.getElementById("offline-status");
  const seen = () => window.said.push(status.textContent);
  new MutationObserver(seen).observe(status, { childList: true, characterData: true, subtree: true });
}"""
# the page went on to another offline table than `first`
ANOTHER_TABLE = "first => location.pathname.startsWith('/t/offline-') && !location.pathname.endsWith(first)"
# what the worker keeps of an offline table (offline-store.js)
KEPT = """async (id) => (await import("/static/js/offline-store.js")).getGame(id)"""
BOARD = "() => /^[0-9]+$/.test(document.getElementById('board')?.dataset.version || '')"


@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    """The offline bundle of the sources as they are (a bundle left in build/offline may be older
    than them; tests/offline_bundle.py builds it once a run), for this module's server:
    MAUSELOCH_OFFLINE names it."""
    folder = offline_bundle.bundle()
    before = os.environ.get("MAUSELOCH_OFFLINE")
    os.environ["MAUSELOCH_OFFLINE"] = str(folder)
    assert offline.bundle_dir() == folder
    yield folder
    if before is None:
        del os.environ["MAUSELOCH_OFFLINE"]
    else:
        os.environ["MAUSELOCH_OFFLINE"] = before


def table_id(page: Any) -> str:
    return str(page.evaluate("() => decodeURIComponent(location.pathname.split('/')[2])"))


def start_table(page: Any) -> None:
    page.wait_for_url("**/t/offline-*")
    page.wait_for_function(BOARD, timeout=60000)  # Pyodide started in the worker, the table opened
    page.select_option("#pace-speed", "2")  # the bots at their fastest (the menu's own control)


def test_play_offline_then_send_the_games(
    bundle: Path, browser: Any, offline_server: Server, request: pytest.FixtureRequest
) -> None:
    ctx = browser.new_context(base_url=offline_server.url, locale="de-DE", viewport={"width": 1366, "height": 768})
    request.addfinalizer(ctx.close)  # after the report: a failure lists what the page showed
    ctx.set_default_timeout(30000)
    fetched: list[str] = []
    ctx.on("request", lambda r: fetched.append(r.url))
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("/")
        assert page.inner_text("#offline-button") == "Offline spielen"
        page.wait_for_load_state("networkidle")
        assert not [u for u in fetched if "/offline/" in u], "the bundle is fetched only when asked for"
        page.evaluate(SAID)
        page.click("#offline-button")
        page.wait_for_selector("#offline-form:not([hidden])", timeout=60000)
        # the bytes, then Python starting once (some seconds with no byte to count), then ready
        said = page.evaluate("() => window.said")
        words = catalogue()["de"]
        assert said.index(words["offline.preparing"]) < said.index(words["offline.ready"])
        assert [u for u in fetched if u.endswith("/offline/pyodide/pyodide.asm.wasm")]
        # Python started once already: the snapshot every table starts from is kept with the bundle
        assert page.evaluate(SNAPSHOTS) == 1

        offline_server.stop()
        ctx.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline-form:not([hidden])")
        # the open tables cannot be asked for: the page says so in its own words
        page.wait_for_selector("#join-error:not([hidden])")
        assert page.inner_text("#join-error") == catalogue()["de"]["error.offline"]

        # Mau-Mau, from the lobby's form: the person, one of the game's stand-in bots and a house
        # rule, offered in the create form's words (the same declaration, the same module)
        page.select_option("#offline-game", "mau-mau")
        page.select_option("#offline-players", "2")
        page.select_option("#game-select", "mau-mau")
        rule = '[data-option="ace_skips"]'
        assert page.inner_text(f"#offline-options {rule}") == page.inner_text(f"#options {rule}")
        page.check(f"#offline-options {rule} input")
        page.click("#offline-start")
        start_table(page)
        first = table_id(page)
        # no name typed: none stored, the table's words name the seat; no seat actions (no leaving
        # to a stand-in offline); the pause works as at a server
        assert page.inner_text("#table-title") == "Mau-Mau"
        assert page.evaluate("() => document.getElementById('seat-actions').hidden")
        page.click("#pace-button")
        page.wait_for_selector("#pace-row.paused")
        page.click("#pace-button")
        page.wait_for_selector("#pace-row:not(.paused)")
        assert play_to_end(page) > 0
        page.wait_for_function(STORED)
        assert page.evaluate(KEPT, first)["record"]["options"]["ace_skips"] is True  # the rule was played

        # "Revanche", as online: a new table with the same seats, bot, names and house rules
        page.click("#rematch-button")
        page.wait_for_function(ANOTHER_TABLE, arg=first)
        start_table(page)
        again = page.evaluate(KEPT, table_id(page))
        before = page.evaluate(KEPT, first)
        assert before["next"] == again["id"] and not page.url.endswith("rematch=" + first)
        assert (again["bots"], again["name"], again["options"]) == (before["bots"], before["name"], before["options"])
        assert again["status"] == "playing" and again["seed"] != before["seed"]
        assert page.inner_text("#table-title") == "Mau-Mau"

        page.goto("/")
        # no turn clock: the game's own (6 s) at FAST's scale is 0.3 s a turn, and a page slow to
        # reach the pace control (a loaded machine) found the game played out by its timeouts
        setup = {"game": "aus-die-maus", "players": 2, "name": "Anna", "bots": ["random"],
                 "options": {"small_deck": True, "chips": 2}, "clock": "off", "pace": FAST}  # fmt: skip
        page.goto(f"/t/{page.evaluate(NEW_GAME, setup)}")
        start_table(page)
        assert play_to_end(page) > 0
        page.wait_for_function(STORED)

        page.goto("/")
        setup = {"game": "mausgeflippt", "players": 2, "name": "Anna", "bots": ["child"],
                 "options": {"window_ms": WINDOW_MS}, "clock": "fast", "pace": FAST}  # fmt: skip
        page.goto(f"/t/{page.evaluate(NEW_GAME, setup)}")
        page.wait_for_function(BOARD, timeout=60000)
        page.wait_for_selector(SHOWN)
        version = int(page.get_attribute("#board", "data-version") or "0")
        page.evaluate(REACT)  # a reaction, 120 ms after the mouse was painted
        page.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=version)
        page.wait_for_selector("#end-screen:not([hidden])", timeout=120000)
        page.wait_for_function(STORED)

        page.goto("/")
        page.wait_for_function("() => document.querySelectorAll('#offline-list li[data-status=\"over\"]').length === 3")
        assert page.locator("#offline-list li").count() == 4  # the rematch, still being played
        # a finished game replays here, with no network: the engine in a worker, the same page
        page.goto(f"/replay/{first}")
        page.wait_for_selector("#board[data-game]")
        page.keyboard.press("End")
        page.wait_for_selector("#end-screen:not([hidden])")
        assert page.inner_text("#table-title").startswith("Mau-Mau")
        page.goto("/")

        offline_server.start()
        ctx.set_offline(False)
        page.reload()
        page.click("#offline-send")
        page.wait_for_function("() => /3 Spiele gesendet/.test(document.getElementById('offline-status').textContent)")
        page.reload()  # "My tables" reads the seats' cookies: the three games, finished, each with its replay
        page.wait_for_selector("#my-tables-list")
        replays = page.locator("#my-tables-list a[href^='/replay/']")
        assert replays.count() == 3
        hrefs = [replays.nth(i).get_attribute("href") for i in range(3)]
        sent = page.locator("#offline-list a[href^='/replay/']")
        assert sorted(sent.nth(i).get_attribute("href") for i in range(3)) == sorted(hrefs)
        options = [page.request.get(f"/api/tables/{str(href).split('/')[-1]}").json()["options"] for href in hrefs]
        assert [o for o in options if o.get("ace_skips")], "the house rule came with the record"
        for href in hrefs:
            page.goto(str(href))
            page.wait_for_selector("#board[data-game]")
            page.keyboard.press("End")
            page.wait_for_selector("#end-screen:not([hidden])")
        assert errors == []
    finally:
        if offline_server.proc is None:
            offline_server.start()  # the fixture's stop expects it running
