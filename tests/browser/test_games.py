"""Whole games in the browser: Mau-Mau and Aus die Maus! against bots, then the replay page."""

from __future__ import annotations

from typing import Any

import pytest

import mauseloch

from .helpers import create_table, open_table, play_to_end

pytestmark = pytest.mark.browser

WATCH_CHASE = """() => {
  window.__chaseSeen = false;
  const check = () => { if (document.querySelector('#board .chase-banner')) window.__chaseSeen = true; };
  new MutationObserver(check).observe(document.getElementById('board'), {childList: true, subtree: true});
  check();
}"""


def ranking_rows(page: Any) -> list[list[str]]:
    rows = page.locator("#end-screen table.ranking tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("td, th").all_inner_texts()] for i in range(rows.count())]


def test_maumau_against_bots_to_the_end_then_replay(new_context: Any, server: Any) -> None:
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_id, _ = create_table(page, "mau-mau", ["me", "bot:heuristic", "bot:random"])
    open_table(page)
    assert page.locator("#board .hand button.card").count() == 5
    made = play_to_end(page)
    assert made > 0

    record = server.get_json(f"/api/tables/{table_id}/record")
    game = mauseloch.replay(record)
    result = game.result()
    assert any(seat == 0 for seat, _ in record["moves"])
    rows = ranking_rows(page)
    assert len(rows) == 3
    by_seat = {}
    for i, row in enumerate(rows):
        seat = int(page.locator("#end-screen table.ranking tbody tr").nth(i).get_attribute("data-seat"))
        by_seat[seat] = row
    for seat in range(3):
        rank, _name, cards, points = by_seat[seat][:4]
        assert (int(rank), int(cards), int(points)) == (
            result["ranks"][seat],
            result["cards"][seat],
            result["points"][seat],
        )
    log = page.locator("#log").inner_text()
    kinds = [e["type"] for e in game.events]
    if "mau" in kinds:
        assert "Mau!" in log
    if result["reason"] == "out":
        assert "Mau-Mau!" in log
        assert "Mau-Mau!" in page.locator("#announce").inner_text()

    # The replay page: every hand, step with buttons and arrow keys, a download link.
    page.click("#end-screen a[href^='/replay/']")
    page.wait_for_selector("#board[data-game='mau-mau']")
    n = len(record["moves"])
    assert page.inner_text("#step-text").endswith(f"0 of {n}")
    shown = page.locator("#board .fan.open .card").count()
    assert shown == 15  # three hands of five, all face up
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#step-text") == f"Move 1 of {n}"
    page.click("#next")
    assert page.inner_text("#step-text") == f"Move 2 of {n}"
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-text") == f"Move 1 of {n}"
    page.click("#last")
    assert page.inner_text("#step-text") == f"Move {n} of {n}"
    assert page.locator("#end-screen:not([hidden]) table.ranking").count() == 1
    href = page.get_attribute("#download", "href")
    assert page.request.get(href).json() == record
    assert errors == []


def test_ausdiemaus_against_bots_to_the_end(new_context: Any, server: Any) -> None:
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_id, _ = create_table(
        page, "aus-die-maus", ["me", "bot:random", "bot:random"], options={"small_deck": True, "chips": 2}
    )
    open_table(page)
    page.evaluate(WATCH_CHASE)
    assert page.locator("#board .am-player").count() == 3
    made = play_to_end(page)

    record = server.get_json(f"/api/tables/{table_id}/record")
    game = mauseloch.replay(record)
    result = game.result()
    assert made == sum(1 for seat, _ in record["moves"] if seat == 0)
    rows = page.locator("#end-screen table.ranking tbody tr")
    assert rows.count() == 3
    for i in range(3):
        row = rows.nth(i)
        seat = int(row.get_attribute("data-seat"))
        rank, _name, cards, chips = [c.strip() for c in row.locator("td, th").all_inner_texts()]
        assert (int(rank), int(cards), int(chips)) == (
            result["ranks"][seat],
            result["cards"][seat],
            result["chips"][seat],
        )
    if any(e["type"] == "chase" for e in game.events):
        assert page.evaluate("window.__chaseSeen")
        assert "Mouse, watch out, the cat is coming!" in page.locator("#log").inner_text()

    page.click("#end-screen a[href^='/replay/']")
    page.wait_for_selector("#board[data-game='aus-die-maus']")
    assert page.locator("#board .flip-button").count() == 0
    page.keyboard.press("End")
    n = len(record["moves"])
    assert page.inner_text("#step-text") == f"Move {n} of {n}"
    assert page.locator("#end-screen:not([hidden]) table.ranking tbody tr").count() == 3
    assert errors == []
