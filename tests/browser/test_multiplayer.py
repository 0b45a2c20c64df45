"""Two people at one Mau-Mau table through an invite link, a spectator watching, and every
WebSocket frame checked against the real hands: no connection ever sees another's hidden card.
Then a rematch, agreed by both, with each page sent on to its own seat at the new table."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import ACTION, OVER, act, capture_frames, check_no_hidden_cards, create_table, open_table, seen_text

pytestmark = pytest.mark.browser


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v", arg=version)


def test_two_browsers_play_through_an_invite_while_a_spectator_watches(new_context: Any, server: Any) -> None:
    anna = new_context().new_page()
    ben = new_context().new_page()
    watcher = new_context().new_page()
    frames = {"anna": capture_frames(anna), "ben": capture_frames(ben), "watcher": capture_frames(watcher)}

    table_id, invite = create_table(anna, "mau-mau", ["me", "human"])
    open_table(anna)
    assert anna.locator("#waiting:not([hidden])").count() == 1
    assert anna.input_value("#waiting #invite-link") == invite

    ben.goto(invite)
    ben.wait_for_selector("#join-panel:not([hidden])")
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#board .hand button.card")
    anna.wait_for_selector("#waiting", state="hidden")
    assert "Ben" in anna.locator("#board .opponents").inner_text()

    watcher.goto(invite)  # a private table is watched through its invite link
    watcher.wait_for_selector("#join-panel:not([hidden])")
    assert watcher.locator("#join-button").is_hidden()  # every seat is taken
    watcher.click("#watch-button")
    watcher.wait_for_selector("#board[data-version]")
    assert watcher.locator("#board .hand").count() == 0
    assert watcher.inner_text("#conn-status") == "You are watching"

    pages = {"0": anna, "1": ben}
    version = 0
    while True:
        for page in (anna, ben, watcher):
            wait_version(page, version)
        if anna.get_attribute("#board", "data-over") == "1":
            break
        mover = pages[anna.get_attribute("#board", "data-to-move")]
        mover.wait_for_selector(f"{OVER}, {ACTION}")
        if act(mover) is not None:
            version += 1
        assert version < 1000
    for page in (anna, ben, watcher):
        page.wait_for_selector("#end-screen:not([hidden])")

    record = server.get_json(f"/api/tables/{table_id}/record")
    # a click the page answered while it changed counts as None in act() but may have moved:
    # the board's own version is the count every page agrees on
    final = int(anna.get_attribute("#board", "data-version") or -1)
    assert len(record["moves"]) == final >= version
    assert int(ben.get_attribute("#board", "data-version") or -1) == final
    assert int(watcher.get_attribute("#board", "data-version") or -1) == final
    # both seats played through their pages (Ben whenever it was his turn: a deal that lets Anna go
    # out on skipping cards alone, about one in a hundred, gives him none; seen once on CI)
    assert {seat for seat, _ in record["moves"]} <= {0, 1}
    assert check_no_hidden_cards(frames["anna"], record, 0) > version // 2
    assert check_no_hidden_cards(frames["ben"], record, 1) > version // 2
    assert check_no_hidden_cards(frames["watcher"], record, None) > version // 2


def test_lobby_lists_the_table_to_join_and_to_watch(new_context: Any) -> None:
    anna = new_context().new_page()
    table_id, _ = create_table(anna, "mau-mau", ["me", "human", "bot:random"], public=True)

    ben = new_context().new_page()
    ben.goto("/")
    item = ben.locator(".table-item", has=ben.locator(f"a[href='/t/{table_id}?watch=1']"))
    item.wait_for()
    assert "waiting for players" in item.inner_text()
    item.get_by_role("button", name="Join").click()
    assert ben.inner_text("#join-error") == "Please enter your name first."
    ben.fill("#player-name", "Ben")
    item.get_by_role("button", name="Join").click()
    ben.wait_for_selector("#board .hand button.card")
    assert "Ben (you)" in seen_text(ben, "#board .me")
    assert ben.url.endswith(f"/t/{table_id}")  # the seat's token is in a cookie, not in the address

    carla = new_context().new_page()
    carla.goto("/")
    carla.locator(f"a[href='/t/{table_id}?watch=1']").click()
    carla.wait_for_selector("#board[data-version]")
    assert carla.inner_text("#conn-status") == "You are watching"
    assert carla.locator("#board .hand").count() == 0
    assert carla.locator("#board .opponents .player").count() == 3


MOVED_ON = """(v) => { const b = document.querySelector('#board');
                       return Number(b.dataset.version) > v || b.dataset.over === '1'; }"""


def test_two_people_agree_on_a_rematch_and_sit_down_again(new_context: Any, server: Any) -> None:
    anna = new_context().new_page()
    ben = new_context().new_page()
    table_id, invite = create_table(anna, "mau-mau", ["me", "human"], options={"move_limit": 6})
    open_table(anna)
    ben.goto(invite)
    ben.wait_for_selector("#join-panel:not([hidden])")
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#board .hand button.card")
    pages = {"0": anna, "1": ben}
    for _ in range(100):  # six moves, then the move limit ends the game
        table = server.get_json(f"/api/tables/{table_id}")
        if table["status"] == "over":
            break
        for page in (anna, ben):  # whose turn it is, read from a page that is not a move behind
            wait_version(page, table["version"])
        mover = pages[anna.get_attribute("#board", "data-to-move") or "0"]
        if act(mover) not in (None, "over"):
            # the move is in flight until its update comes back: asked before that, the server
            # still tells the old version, and the mover's page (its move pending) offers nothing
            mover.wait_for_function(MOVED_ON, arg=table["version"])
    for page in (anna, ben):
        page.wait_for_selector("#end-screen:not([hidden]) #rematch-button")

    # the button under Ben's finger stays the same element while Anna's vote redraws his end
    # screen (a press on one copy and a release on the next is no click)
    bens_button = ben.evaluate_handle("() => document.getElementById('rematch-button')")
    anna.click("#rematch-button")
    for page in (anna, ben):  # both are told who the rematch waits for
        page.wait_for_selector("#rematch-note")
        assert "Ben" in page.inner_text("#rematch-note") and "Anna" not in page.inner_text("#rematch-note")
    assert bens_button.evaluate("(button) => button.isConnected")
    assert anna.locator("#rematch-button").count() == 0  # her vote is in
    assert server.get_json(f"/api/tables/{table_id}")["next"] is None  # nothing starts on one vote

    ben.click("#rematch-button")
    for page in (anna, ben):  # both follow the new table, in their own seats
        # the server takes the seat over from the old table's cookie and sends the page on to
        # the new table's plain address (the token never shows in it)
        page.wait_for_function(
            "t => location.pathname.startsWith('/t/') && !location.pathname.endsWith('/' + t)", arg=table_id
        )
        page.wait_for_selector("#board[data-version='0'] .hand button.card")
    new_id = anna.url.split("/t/", 1)[1].split("?", 1)[0]
    assert new_id == server.get_json(f"/api/tables/{table_id}")["next"] != table_id
    assert ben.url.split("/t/", 1)[1].split("?", 1)[0] == new_id
    assert "Anna (you)" in seen_text(anna, "#board .me") and "Ben (you)" in seen_text(ben, "#board .me")
    fresh = server.get_json(f"/api/tables/{new_id}")
    assert fresh["status"] == "playing" and [s["name"] for s in fresh["seats"]] == ["Anna", "Ben"]
