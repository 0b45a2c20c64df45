"""Two people at a table; one closes the tab for good. After the grace time a stand-in bot plays
that seat, the other person finishes the game, and the record says who played each move.

This test runs its own server with fast clocks (``--clock-scale 0.05``: the 40 s grace after a
lost connection lasts 2 s)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import mauseloch

from ..server.helpers import LONG_DEAL
from .conftest import Server, server_fixture
from .helpers import act, capture_sent, create_table, join_as, open_table, people, play_to_end

pytestmark = pytest.mark.browser


fast_server = server_fixture("mauseloch-fast", "--clock-scale", "0.05")


def version(server: Server, table_id: str) -> int:
    return int(server.get_json(f"/api/tables/{table_id}")["version"])


def moved_past(server: Server, table_id: str, before: int, wait: float = 5.0) -> bool:
    """Whether the table's version went past ``before`` within ``wait`` seconds (the click reached
    the server and was taken, not refused as stale)."""
    deadline = time.monotonic() + wait
    while version(server, table_id) <= before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_stand_in_plays_for_someone_who_closed_the_tab(browser: Any, fast_server: Server) -> None:
    with people(browser, fast_server, "en-US", "en-US") as (anna, ben):
        # one deal, so that the story is the same every run: a random one could leave Anna a last
        # card to win with at once after Ben's move, before his stand-in plays any
        table_id, invite = create_table(anna, "mau-mau", ["me", "human"], clock="off", deal=LONG_DEAL)
        open_table(anna)
        join_as(ben, invite, "Ben")
        anna.wait_for_selector('#seat-list li[data-seat="1"][data-presence="online"]')
        assert anna.locator("#join-button").is_hidden()

        # Ben plays one move of his own, then closes the tab for good.
        # Anna's board says whose turn it is; on a loaded machine it can lag a move behind, so a
        # page that offers nothing within a few seconds only means "look again".
        pages = {"0": anna, "1": ben}
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, "Ben never got to make a move of his own"
            mover = anna.get_attribute("#board", "data-to-move") or "0"
            before = version(fast_server, table_id)
            try:
                made = act(pages[mover], timeout=4000)
            except PlaywrightTimeout:
                continue
            # a click the server refused (the pages a move behind) does not count: at Ben's turn
            # only Ben moves the version on
            if made is not None and mover == "1" and moved_past(fast_server, table_id, before):
                break
        ben.context.close()
        # a closed tab counts as leaving (gone, 10 s of grace); a lost connection as away (40 s)
        anna.wait_for_selector('#seat-list li[data-seat="1"]:not([data-presence="online"])')
        anna.wait_for_selector('#seat-list li[data-seat="1"][data-stand-in="1"]')
        assert "stand-in plays" in anna.inner_text('#seat-list li[data-seat="1"]')

        play_to_end(anna)
        assert "(stand-in)" in anna.inner_text("#log")
        record = fast_server.get_json(f"/api/tables/{table_id}/record")
        by = record["played_by"]
        seats = [m[0] for m in record["moves"]]
        assert {b for s, b in zip(seats, by, strict=True) if s == 0} == {"person"}  # Anna played all hers
        bens = [b for s, b in zip(seats, by, strict=True) if s == 1]
        assert bens[0] == "person" and "stand-in" in bens  # Ben, then his stand-in
        assert bens[bens.index("stand-in") :] == ["stand-in"] * (len(bens) - bens.index("stand-in"))
        assert mauseloch.replay(record).result()["reason"]  # still a record mauseloch.replay reads


def test_the_creator_sees_her_seat_not_join_and_can_show_her_seat_link(browser: Any, fast_server: Server) -> None:
    ctx = browser.new_context(base_url=fast_server.url, locale="en-US")
    ctx.set_default_timeout(15000)
    try:
        page = ctx.new_page()
        table_id, _ = create_table(page, "mau-mau", ["me", "human"], clock="off", public=True)
        page.goto("/")
        page.wait_for_selector(f'[data-focus-key="{table_id}-mine"]')
        assert page.locator(f'[data-focus-key="{table_id}-join"]').count() == 0
        page.click(f'[data-focus-key="{table_id}-mine"]')
        page.wait_for_selector("#seat-actions:not([hidden])")
        page.click("#my-seat-button")
        page.wait_for_function("() => document.getElementById('my-seat-link').value !== ''")
        link = page.input_value("#my-seat-link")
        assert f"/t/{table_id}#seat=0&token=" in link  # after "#": no server or proxy ever sees it
        assert Path(link).name  # a whole link, ready to open elsewhere
        other = browser.new_context(base_url=fast_server.url, locale="en-US").new_page()  # another device
        try:
            other.goto(link)
            other.wait_for_selector("#seat-actions:not([hidden])")  # her seat, not the join form
            assert other.locator("#join-panel").is_hidden()
            assert other.url.endswith(f"/t/{table_id}")  # the token is gone from the address
        finally:
            other.context.close()
    finally:
        ctx.close()


def test_the_turn_clock_is_shown_and_said_politely_and_leave_makes_the_seat_gone(
    browser: Any, fast_server: Server
) -> None:
    with people(browser, fast_server, "en-US", "en-US", bypass_csp=True) as (anna, ben):
        # relaxed: 60 s a move, 3 s at --clock-scale 0.05 (a stand-in moves when one runs out)
        _table_id, invite = create_table(anna, "mau-mau", ["me", "human"], clock="relaxed")
        open_table(anna)
        sent = capture_sent(ben)
        join_as(ben, invite, "Ben")
        assert anna.get_attribute("#clock-say", "aria-live") == "polite"
        for page in (anna, ben):  # everything the polite announcer says from now on
            page.evaluate(
                """() => {
                  window.saidAloud = [];
                  const el = document.getElementById('clock-say');
                  new MutationObserver(() => window.saidAloud.push(el.textContent))
                    .observe(el, {childList: true, characterData: true, subtree: true});
                }"""
            )
        # the seat to move sees its own time left; the other sees whose clock runs
        for page, other in ((anna, "Ben"), (ben, "Anna")):
            page.wait_for_function(
                """other => {
                  const shown = document.getElementById('turn-clock').textContent;
                  return /^\\d+ s left$/.test(shown) || new RegExp('^' + other + ': \\\\d+ s left$').test(shown);
                }""",
                arg=other,
            )
        # each seat's turn is said once at its start (a 3 s clock: not hurried over at once)
        for page in (anna, ben):
            page.wait_for_function("window.saidAloud.some(s => /^Your turn: \\d+ seconds\\.$/.test(s))", timeout=30000)
            said = page.evaluate("window.saidAloud")
            assert not any(s.endswith("seconds left.") for s in said), said
        # "Leave table" (confirmed): Ben is gone for everyone at once, before any grace runs out
        ben.once("dialog", lambda dialog: dialog.accept())
        ben.click("#leave-button")
        ben.wait_for_url(f"{fast_server.url}/")
        anna.wait_for_selector('#seat-list li[data-seat="1"][data-presence="gone"]')
        assert "gone" in anna.inner_text('#seat-list li[data-seat="1"]').lower()
        assert {"type": "leave"} in sent  # on purpose (gone at once), not a closed tab's tab_closed
