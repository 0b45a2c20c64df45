"""Language switch, the phone layout, and a move made with the keyboard alone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .helpers import ACTION, OVER, capture_frames, capture_sent, create_table, open_table

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
FOCUSABLE = "button:visible, a.btn:visible, select:visible, input:visible"


def test_language_switch_is_remembered_and_follows_the_browser(new_context: Any) -> None:
    page = new_context(locale="en-US").new_page()
    page.goto("/")
    assert page.inner_text("h1").startswith("Mauseloch — card games")
    assert page.get_attribute("html", "lang") == "en"
    page.click("#lang-switch")
    assert page.inner_text("h1") == "Mauseloch — Kartenspiele mit Freunden und Bots"
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("#create-button") == "Tisch eröffnen"
    assert page.inner_text("#lang-switch") == "English"
    page.reload()
    assert page.inner_text("h1") == "Mauseloch — Kartenspiele mit Freunden und Bots"

    create_table(page, "mau-mau", ["me", "bot:random"], name="Anna")
    open_table(page)
    page.wait_for_selector(ACTION)
    assert page.inner_text("#turn-banner") == "▶ Du bist dran"
    label = page.text_content("#board .hand button.card >> nth=0 >> .card-name")
    assert re.match(r"^(Kreuz|Pik|Herz|Karo)-(Sieben|Acht|Neun|Zehn|Bube|Dame|König|Ass), ", label)
    page.click("#lang-switch")
    assert page.inner_text("#turn-banner") == "▶ Your turn"
    label = page.text_content("#board .hand button.card >> nth=0 >> .card-name")
    assert re.match(r"^(seven|eight|nine|ten|jack|queen|king|ace) of (clubs|spades|hearts|diamonds), ", label)

    german = new_context(locale="de-DE").new_page()
    german.goto("/")
    assert german.inner_text("h1") == "Mauseloch — Kartenspiele mit Freunden und Bots"


def assert_fits_phone(page: Any) -> None:
    """No sideways scrolling, and every control is at least 44 px in both directions."""
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """w => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > w + 1)
                .slice(0, 5).map(e => e.outerHTML.slice(0, 100))""",
        PHONE["width"],
    )
    assert width <= PHONE["width"], f"page is {width} px wide on a {PHONE['width']} px phone: {wide}"
    controls = page.locator(FOCUSABLE)
    small = []
    for i in range(controls.count()):
        control = controls.nth(i)
        if control.get_attribute("type") == "checkbox":  # its label is the target
            control = control.locator("xpath=ancestor::label[1]")
        box = control.bounding_box()
        if box and (box["width"] < 44 or box["height"] < 44):
            small.append((controls.nth(i).evaluate("e => e.outerHTML.slice(0, 80)"), box))
    assert not small, f"touch targets under 44 px: {small}"


def test_phone_layout(new_context: Any) -> None:
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    page.goto("/")
    page.wait_for_selector("#game-select option", state="attached")
    assert_fits_phone(page)

    create_table(page, "mau-mau", ["me", "bot:random", "bot:random", "bot:random", "bot:random"])
    assert_fits_phone(page)
    open_table(page)
    page.wait_for_selector(ACTION)
    assert page.locator("#board .opponents .player").count() == 4
    assert_fits_phone(page)
    hand = page.locator("#board .hand").bounding_box()
    assert hand is not None and hand["x"] >= 0 and hand["x"] + hand["width"] <= PHONE["width"]

    create_table(page, "aus-die-maus", ["me", "bot:random", "bot:random", "bot:random", "bot:random", "bot:random"])
    open_table(page)
    page.wait_for_selector("#board .flip-button")
    assert page.locator("#board .am-player").count() == 6
    assert_fits_phone(page)


def test_keyboard_only_move(new_context: Any) -> None:
    page = new_context().new_page()
    create_table(page, "mau-mau", ["me", "bot:heuristic"])
    sent = capture_sent(page)
    received = capture_frames(page)
    open_table(page)
    page.wait_for_selector(ACTION)
    before = int(page.get_attribute("#board", "data-version"))

    target = None
    for _ in range(80):
        page.keyboard.press("Tab")
        target = page.evaluate(
            """() => { const e = document.activeElement;
                       return e && e.matches('#board .card.legal, #board .btn-action')
                         ? {label: e.getAttribute('aria-label') || e.textContent,
                            outline: getComputedStyle(e).outlineStyle} : null; }"""
        )
        if target:
            break
    assert target, "Tab never reached a playable card or an action button"
    assert target["outline"] != "none"  # the focus is visible
    page.keyboard.press("Enter")
    if page.locator("#wish-dialog[open]").count():
        focused = page.evaluate("document.activeElement.className")
        assert "wish-choice" in focused  # the first suit has the focus
        page.keyboard.press("Space")
    page.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=before)
    moves = [m["move"] for m in sent if m["type"] == "move"]
    assert len(moves) == 1
    assert not [f for f in received if f["type"] == "error"]
    update = next(f for f in received if f["type"] == "update" and f["version"] == before + 1)
    mine = [e for e in update["events"] if e.get("seat") == 0]
    assert mine and mine[0]["type"] in ("play", "draw", "take", "pass")
    if mine[0]["type"] == "play":
        assert moves[0].split(":")[0] == mine[0]["card"]

    # On the next turn the focus is back on a choice: Enter plays again without any Tab.
    page.wait_for_selector(f"{ACTION}, {OVER}")
    if page.locator(OVER).count():
        return
    focused = page.evaluate("document.activeElement.matches('#board .card.legal, #board .btn-action')")
    assert focused, "the focus did not come back to the board's first choice"
    now = int(page.get_attribute("#board", "data-version"))
    page.keyboard.press("Enter")
    if page.locator("#wish-dialog[open]").count():
        page.keyboard.press("Enter")
    page.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=now)
    assert len([m for m in sent if m["type"] == "move"]) == 2
    assert not [f for f in received if f["type"] == "error"]
