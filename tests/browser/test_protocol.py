"""The page's side of docs/protocol.md against the real server, with the WebSocket routed through
the test: a refused move shows its reason, and a lost update is noticed and resynced."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import ACTION, OVER, act, create_table, open_table

pytestmark = pytest.mark.browser


class Relay:
    """Forwards every frame between page and server; ``page_filter``/``server_filter`` may change
    or drop (return None) a frame on its way."""

    def __init__(self, page_filter: Any = None, server_filter: Any = None) -> None:
        self.page_filter = page_filter or (lambda m: m)
        self.server_filter = server_filter or (lambda m: m)
        self.to_server: list[dict[str, Any]] = []
        self.to_page: list[dict[str, Any]] = []

    def __call__(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            out = self.page_filter(msg)
            if out is not None:
                self.to_server.append(out)
                server.send(json.dumps(out))

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            out = self.server_filter(msg)
            if out is not None:
                self.to_page.append(out)
                ws.send(json.dumps(out))

        ws.on_message(from_page)
        server.on_message(from_server)


def test_a_refused_move_shows_the_servers_reason(new_context: Any) -> None:
    page = new_context().new_page()
    spoiled: list[str] = []

    def spoil_first_move(msg: dict[str, Any]) -> dict[str, Any]:
        if msg["type"] == "move" and not spoiled:
            spoiled.append(msg["move"])
            return {**msg, "move": "9Z"}  # not a card: the server refuses it
        return msg

    relay = Relay(page_filter=spoil_first_move)
    page.route_web_socket("**/ws/*", relay)
    create_table(page, "mau-mau", ["me", "bot:heuristic"])
    open_table(page)
    assert act(page) not in (None, "over")
    page.wait_for_selector("#error-box:not([hidden])")
    text = page.inner_text("#error-box")
    error = next(m for m in relay.to_page if m["type"] == "error")
    assert error["code"] == "illegal"
    assert text.startswith("Move refused:") and error["message"] in text
    # Nothing changed: the same choice is offered again, and the next move goes through.
    page.wait_for_selector(ACTION)
    assert page.get_attribute("#board", "data-version") == "0"
    assert act(page) not in (None, "over")
    page.wait_for_function("() => Number(document.getElementById('board').dataset.version) > 0")
    assert page.locator("#error-box").is_hidden()


def test_a_lost_update_is_noticed_and_resynced(new_context: Any) -> None:
    page = new_context().new_page()
    dropped: list[dict[str, Any]] = []
    lost_resyncs: list[dict[str, Any]] = []
    shown_before_gap: list[dict[str, Any]] = []

    def drop_one_update(msg: dict[str, Any]) -> dict[str, Any] | None:
        # Lose an update after which a bot moves, so that another update follows with a gap.
        view = msg.get("view") or {}
        if msg["type"] == "update" and view.get("to_move") not in (0, None) and not dropped:
            dropped.append(msg)
            shown_before_gap.append([m for m in relay.to_page if m["type"] in ("update", "snapshot")][-1])
            return None
        return msg

    def lose_first_resync(msg: dict[str, Any]) -> dict[str, Any] | None:
        if msg["type"] == "resync" and not lost_resyncs:
            lost_resyncs.append(msg)
            return None
        return msg

    relay = Relay(page_filter=lose_first_resync, server_filter=drop_one_update)
    page.route_web_socket("**/ws/*", relay)
    create_table(page, "mau-mau", ["me", "bot:heuristic", "bot:heuristic"])
    open_table(page)
    for _ in range(400):  # play on, looking often: the page's stale state lasts 3 s
        if lost_resyncs or page.locator(OVER).count():
            break
        if page.locator(ACTION).count():
            act(page)
        else:
            page.wait_for_timeout(50)
    assert dropped, "the relay never saw an update to drop"
    assert lost_resyncs, "the page did not notice the gap"
    # Until a snapshot comes the page stands where it was: the version of the state it shows (a
    # move would be refused as stale, never applied to a state nobody saw) and nothing to play.
    # The state is read, then kept only if the second resync's snapshot had not come yet (on a
    # loaded machine the 3 s before the page asks again can pass before the reading).
    stale = (
        page.get_attribute("#board", "data-version"),
        page.get_attribute("#board", "data-pending"),
        page.locator(ACTION).count(),
    )
    if sum(m["type"] == "snapshot" for m in relay.to_page) < 2:
        assert stale == (str(shown_before_gap[0]["version"]), "1", 0)
    # Its resync was lost too: a ping's pong (after 3 s) makes it ask again.
    for _ in range(100):
        if sum(m["type"] == "snapshot" for m in relay.to_page) >= 2:  # the first, and the resync's
            break
        page.wait_for_timeout(100)
    assert [m["type"] for m in relay.to_server if m["type"] in ("ping", "resync")][:2] == ["ping", "resync"]
    assert sum(m["type"] == "snapshot" for m in relay.to_page) >= 2, "the second resync was not answered"
    # When it is our turn again nothing moves: the page must show the server's last state.
    page.wait_for_selector(f"{ACTION}, {OVER}")
    last = [m for m in relay.to_page if m["type"] in ("update", "snapshot")][-1]
    assert page.get_attribute("#board", "data-version") == str(last["version"])
    hand = page.locator("#board .hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(hand) == sorted(last["view"]["hand"])
