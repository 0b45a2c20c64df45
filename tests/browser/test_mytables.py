"""My tables: the lobby lists every table this browser holds a seat at — a private table still
waiting, a finished one — with its status and a way back, after the page was left; another
browser sees none of them."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from .axe import axe_violations
from .helpers import create_table, open_table, play_to_end

pytestmark = pytest.mark.browser


def test_my_tables_brings_the_creator_back_to_her_private_table(new_context: Any) -> None:
    anna = new_context().new_page()
    waiting_id, _ = create_table(anna, "mau-mau", ["me", "human"])  # private: not in the public list
    finished_id, _ = create_table(anna, "mau-mau", ["me", "bot:random"], options={"move_limit": 40})
    open_table(anna)
    play_to_end(anna)

    anna.goto("/")  # she left both pages: the lobby still knows her tables
    anna.wait_for_selector("#my-tables:not([hidden])")
    assert anna.inner_text("#my-tables h2") == "My tables"
    waiting = anna.locator(f'#my-tables li[data-table="{waiting_id}"]')
    finished = anna.locator(f'#my-tables li[data-table="{finished_id}"]')
    assert "waiting for players" in waiting.inner_text() and "private" in waiting.inner_text()
    assert "You play as Anna" in waiting.inner_text()
    assert "over" in finished.inner_text()
    assert finished.locator(f'a[href="/replay/{finished_id}"]').count() == 1
    ids = anna.eval_on_selector_all("#my-tables li[data-table]", "els => els.map((e) => e.dataset.table)")
    assert ids == [finished_id, waiting_id]  # newest first
    assert anna.locator(f'#tables [data-focus-key^="{waiting_id}"]').count() == 0  # a private table is not listed
    assert axe_violations(anna) == []

    waiting.locator("a", has_text="Back to the table").click()  # the way back: her seat, not "Join"
    anna.wait_for_selector("#waiting:not([hidden])")
    anna.wait_for_selector("#seat-actions:not([hidden])")
    assert anna.locator("#join-panel").is_hidden()

    ben = new_context().new_page()  # another browser: nothing of Anna's
    ben.goto("/")
    ben.wait_for_selector("#tables li")
    ben.wait_for_load_state("networkidle")
    assert ben.locator("#my-tables").is_hidden()
    assert ben.locator("#my-tables li").count() == 0


def test_a_match_that_went_on_leads_to_its_next_deal(new_context: Any, server: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    bot = {"kind": "bot", "bot": "random"}
    body = {"game": "mau-mau", "seats": [{"kind": "human"}, bot], "name": "Anna", "deals": 2,
            "options": {"move_limit": 40}, "clock": "off"}  # fmt: skip
    headers = {"Content-Type": "application/json", "Origin": server.url}  # as the page sends it: a seat cookie
    first = page.request.post("/api/tables", data=json.dumps(body), headers=headers).json()["table"]
    page.goto(f"/t/{first}")
    page.wait_for_selector("#board[data-version]")
    play_to_end(page)
    page.goto("/")  # before the next deal is dealt: this browser's cookie is for the first one only
    deadline = time.monotonic() + 60  # a safety net only: the next deal comes after the standings' pause
    while not server.get_json(f"/api/tables/{first}")["next"]:
        assert time.monotonic() < deadline, "the next deal never came"
        time.sleep(0.2)
    page.reload()
    item = page.locator(f'#my-tables li[data-table="{first}"]')
    item.wait_for()
    assert "goes on at a new table" in item.inner_text()
    item.locator("a", has_text="Back to the table").click()
    page.wait_for_url(lambda url: first not in url)  # the page follows the seat to the next deal
    page.wait_for_selector("#board[data-version]")
    page.wait_for_selector("#seat-actions:not([hidden])")
    page.goto("/")
    # The next deal, in whatever state it has reached: a stand-in plays for whoever is away (from the
    # first deal's end until the seat came back, and again since this page left it), so on a slow
    # machine the deal may already be over when the list is drawn.
    second = server.get_json(f"/api/tables/{first}")["next"]
    page.wait_for_selector(f'#my-tables li[data-table="{second}"]')
    assert page.locator(f'#my-tables li[data-table="{first}"]').count() == 0  # reached through its next deal
