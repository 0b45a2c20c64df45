"""Pause means pause: alone at a table with a bot, "Pause" stops the whole table — the turn
clock stands still, no stand-in plays, and no move is offered — and a spectator (on a German page)
sees who paused. After "Go on" the clock runs on and, as it runs out, the stand-in plays.

Its own server with fast clocks (``--clock-scale 0.1``: a relaxed 60 s turn lasts 6 s)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import Server, server_fixture
from .helpers import create_table, join_as, open_table, people

pytestmark = pytest.mark.browser
TURN = 6.0  # seconds: a relaxed turn at this scale


fast_server = server_fixture("mauseloch-pause", "--clock-scale", "0.1")


def test_pause_stops_the_clock_and_the_stand_in(browser: Any, fast_server: Server) -> None:
    with people(browser, fast_server, "en-US", "de-DE") as (anna, watcher):
        table_id, invite = create_table(anna, "mau-mau", ["me", "bot:random"], clock="relaxed")
        open_table(anna)
        anna.wait_for_selector("#turn-clock:has-text('s left')")  # her turn (seat 0 leads), the clock runs
        assert "whole table" in anna.inner_text("#pause-hint")  # the control says what it does
        anna.click("#pace-button")
        anna.wait_for_selector("#pause-status:has-text('Paused by Anna')")
        assert anna.inner_text("#pace-button") == "Go on"
        assert anna.inner_text("#turn-banner") == "⏸ Paused"  # nobody is to move, she neither
        version = anna.get_attribute("#board", "data-version")
        anna.wait_for_selector("#turn-clock.stopped")  # the top bar's clock says it stands still
        shown = anna.inner_text("#turn-clock")
        assert shown.endswith("s left · stopped"), shown

        # a private table: a spectator comes by its invite link and chooses to watch (no seat is free)
        watcher.goto(invite)
        watcher.click("#watch-button")
        watcher.wait_for_selector("#pause-status:has-text('Pausiert von Anna')")
        assert watcher.locator("#pace-button").is_hidden()  # a spectator sees the pause, cannot lift it

        time.sleep(TURN + 2)  # past the moment the clock would have run out
        assert anna.inner_text("#turn-clock") == shown  # the clock stood still
        assert anna.get_attribute("#board", "data-version") == version  # no stand-in played for her
        assert fast_server.get_json(f"/api/tables/{table_id}")["version"] == int(version or "-1")

        assert anna.locator("#board button.card.legal").count() == 0  # no move offered (the server refuses them)

        anna.click("#pace-button")  # resume: the clock runs on and, when it runs out, the stand-in plays
        anna.wait_for_selector("#pause-status:not(:has-text('Paused'))", state="attached")
        anna.wait_for_function(
            "v => document.getElementById('board').dataset.version !== v", arg=version, timeout=(TURN + 10) * 1000
        )
        assert "(stand-in)" in anna.inner_text("#log")
        watcher.wait_for_selector("#pace-row[hidden]", state="attached")


def test_two_people_pause_when_both_agree(browser: Any, fast_server: Server) -> None:
    with people(browser, fast_server, "en-US", "de-DE") as (anna, ben):
        _table_id, invite = create_table(anna, "mau-mau", ["me", "human"], clock="relaxed")
        open_table(anna)
        join_as(ben, invite, "Ben")
        anna.wait_for_selector('#seat-list li[data-seat="1"][data-presence="online"]')
        anna.wait_for_selector("#pace-button:has-text('Ask to pause')")
        assert "Everyone at the table must agree" in anna.inner_text("#pause-hint")
        anna.click("#pace-button")
        anna.wait_for_selector("#pause-status:has-text('waiting for Ben')")
        ben.wait_for_selector("#pause-status:has-text('Anna möchte pausieren – einverstanden?')")
        assert ben.inner_text("#pace-button") == "Pause zustimmen"
        assert anna.inner_text("#pause-status").startswith("Pause asked")  # asked, not paused yet
        ben.click("#pace-button")
        anna.wait_for_selector("#pause-status:has-text('Paused by Anna')")
        ben.wait_for_selector("#pause-status:has-text('Pausiert von Anna')")
        ben.click("#pace-button")  # "Weiter": anyone seated goes on
        anna.wait_for_selector("#pace-button:has-text('Ask to pause')")
        assert "Paused" not in anna.inner_text("#pause-status")
