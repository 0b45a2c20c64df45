"""Web Push in the browser: a game over days between two browser contexts where each move pushes
the other seat (through the push service stand-in, tests/pushservice.py, which checks the VAPID
signature and decrypts every payload), and the site's service worker (/sw.js) showing a push
delivered through DevTools (``ServiceWorker.deliverPushMessage``) and opening the table on a tap.

The browser's own push service is Google's (not reachable here): each context hands the server
the PushSubscription of a stand-in device instead, bound to its seat cookie as the page binds its
own (``POST /api/push/subscribe``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.pushservice import Device, PushService

from .conftest import server_fixture
from .helpers import act, board_state, create_table, join_as

pytestmark = pytest.mark.browser

push_server = server_fixture("push", "--push-http")
VERSION_IS = "(v) => Number(document.querySelector('#board').dataset.version) === v"
VERSION_AFTER = "(v) => Number(document.querySelector('#board').dataset.version) > v"


@pytest.fixture(scope="module")
def service() -> Iterator[PushService]:
    with PushService() as svc:
        yield svc


def subscribe(page: Any, device: Device, lang: str) -> None:
    body = json.dumps({"subscription": device.subscription(), "lang": lang})
    got = page.evaluate(
        """async (body) => (await fetch("/api/push/subscribe", {method: "POST", body,
             headers: {"Content-Type": "application/json"}})).json()""",
        body,
    )
    assert got == {"seats": 1}, got


def test_a_game_over_days_pushes_each_turn_and_the_worker_shows_it(
    browser: Any, push_server: Any, service: PushService
) -> None:
    contexts = [browser.new_context(base_url=push_server.url, locale=loc, permissions=["notifications"],
                                    viewport={"width": 1200, "height": 900}) for loc in ("de-DE", "en-US")]  # fmt: skip
    try:
        anna, ben = (ctx.new_page() for ctx in contexts)
        table, invite = create_table(anna, "mau-mau", ["me", "human"], clock="1d")
        join_as(ben, invite, "Ben")
        anna.goto(f"/t/{table}")
        for page in (anna, ben):
            page.wait_for_selector("#board[data-version]")
        assert anna.inner_text("#push-button") == "Benachrichtigen, wenn ich dran bin"  # the page offers it
        devices = [service.device(f"{table}-anna"), service.device(f"{table}-ben")]
        subscribe(anna, devices[0], "de")
        subscribe(ben, devices[1], "en")

        # how fast a push arrives is bench/push.py's figure (push_p99_ms), never a test's assertion
        passes = 0
        pages = (anna, ben)
        while passes < 4:  # four turns passed from one seat to the other, each pushed at once
            state = board_state(anna)
            mover, version = int(state["to_move"] or 0), int(state["version"] or 0)
            other = pages[1 - mover]
            had = len(devices[1 - mover].received)
            pages[mover].wait_for_function(VERSION_IS, arg=version)
            if act(pages[mover]) is None:
                continue
            other.wait_for_function(VERSION_AFTER, arg=version)
            if board_state(other)["to_move"] != str(mover):
                service.wait(devices[1 - mover], had + 1)
                passes += 1
        titles = {d.received[-1].payload["title"] for d in devices}
        assert titles == {"Du bist dran: Mau-Mau bei Anna", "Your turn: Mau-Mau at Anna's"}
        assert service.refused == []

        # away days: Anna is away (the menu's row); Ben's board says until when and the table
        # waits; she comes back early from her own banner
        assert "14" in anna.inner_text("#away-hint")
        anna.fill("#away-days", "2")
        anna.click("#away-button")
        away = ben.wait_for_selector(".request[data-kind='away-days'] .request-text")
        assert away.inner_text().startswith("Anna is away until ")
        ben.wait_for_function("() => document.querySelector('#turn-banner').textContent === '⏸ Waiting'")
        # the top bar's clock says it stands still, and "My tables" why the table waits
        for page, stopped in ((ben, " · stopped"), (anna, " · angehalten")):
            page.wait_for_selector("#turn-clock.stopped")
            assert page.inner_text("#turn-clock").endswith(stopped)
        mine = contexts[1].new_page()
        mine.goto("/")
        waits = mine.wait_for_selector(f"#my-tables-list [data-table='{table}'] .table-away")
        assert waits.inner_text() == away.inner_text()  # "Anna is away until Wed 9 Dec", as at the table
        assert mine.inner_text(f"#my-tables-list [data-table='{table}'] .status") == "⏸ Waiting"  # nobody's turn
        mine.close()
        anna.click("#away-back")
        ben.wait_for_selector(".request[data-kind='away-days']", state="detached")
        ben.wait_for_selector("#turn-clock:not(.stopped)")
        anna.wait_for_selector("#away-row:visible")
        assert "13 von 14" in anna.inner_text("#away-hint")  # the day begun counts

        # the service worker: a push delivered through DevTools is shown while the table is out of sight
        anna.goto("/")
        anna.evaluate("async () => { await navigator.serviceWorker.register('/sw.js', {scope: '/'}); }")
        cdp = contexts[0].new_cdp_session(anna)
        registrations: list[dict[str, Any]] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        anna.wait_for_function("async () => Boolean(await navigator.serviceWorker.ready)")
        # DevTools reports the registrations of every context the browser holds (other tests' too,
        # in the same browser): the push goes to this site's
        scope = push_server.url.rstrip("/") + "/"
        while not (mine := [r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"]]):
            anna.wait_for_timeout(20)
        payload = devices[0].received[-1].payload
        # The worker shows the notification, and a tap opens the table. Headless Chromium may close
        # a shown notification at once, before anyone could look for it, so the worker's
        # showNotification is watched: what it shows is kept, and the tap is the worker's own
        # "notificationclick" listener called with that notification's data.
        worker = contexts[0].service_workers[0]
        worker.evaluate(
            """() => {
                 const registration = self.registration;
                 const show = registration.showNotification.bind(registration);
                 self.shown = new Promise((done) => {
                   registration.showNotification = async (title, options) => {
                     await show(title, options);
                     done({ title, options });
                   };
                 });
               }"""
        )
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": push_server.url,
                 "registrationId": mine[-1]["registrationId"], "data": json.dumps(payload)})  # fmt: skip
        shown = worker.evaluate(
            """async () => {
                 const late = new Promise((done) => setTimeout(() => done(null), 20000));
                 const seen = await Promise.race([self.shown, late]);
                 if (!seen) return null;  // nothing shown in 20 s
                 const { title, options } = seen;
                 const tap = new ExtendableEvent("notificationclick");
                 Object.defineProperty(tap, "notification", { value: { data: options.data, close() {} } });
                 self.dispatchEvent(tap);
                 return { title, url: options.data.url, tag: options.tag };
               }"""
        )
        assert shown == {"title": "Du bist dran: Mau-Mau bei Anna", "url": f"/t/{table}", "tag": payload["tag"]}
        anna.wait_for_url(f"**/t/{table}")

        # a timed table offers the same switch (its pushes come only while the page is out of sight)
        timed, _ = create_table(anna, "mau-mau", ["me", "human"])
        anna.goto(f"/t/{timed}")
        anna.wait_for_selector("#push-button:visible")
    finally:
        for ctx in contexts:
            ctx.close()
