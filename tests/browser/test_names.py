"""Long names and emoji names: a name is cut between the characters people
see (a family emoji is one character, never split into four people), and "(du)"/"(you)" stays in
sight beside one's own name however narrow the line."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import create_table, open_table

pytestmark = pytest.mark.browser

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
LONG = "Anna-Lena Maximiliane Sophie " + FAMILY  # 30 characters as people see them


def test_a_name_is_cut_between_characters_people_see(new_context: Any) -> None:
    page = new_context(locale="de-DE").new_page()
    page.goto("/")
    cut = page.evaluate(
        """async ([family, long]) => {
            const i18n = await import('/static/js/i18n.js');
            return {
              families: i18n.graphemes(family.repeat(3)).length,
              manyFamilies: i18n.shortName(family.repeat(25)),
              long: i18n.shortName(long),
              words: i18n.shortName('Maximiliane Alexa Hohenzollern'),
              accents: i18n.shortName('q\\u0301'.repeat(30)),
              short: i18n.shortName('Anna'),
            };
        }""",
        [FAMILY, LONG],
    )
    assert cut["families"] == 3
    assert cut["manyFamilies"] == FAMILY * 19 + "…"  # whole families, never a lone father
    assert cut["long"] == "Anna-Lena Maximilia…"
    assert cut["words"] == "Maximiliane Alexa…"  # at the end of a word when one is near
    assert cut["accents"] == "q\u0301" * 19 + "…"  # no accent torn from its letter
    assert cut["short"] == "Anna"


@pytest.mark.parametrize(("locale", "mark"), [("de-DE", " (du)"), ("en-US", " (you)")])
def test_your_mark_stays_in_sight_beside_a_long_name(new_context: Any, locale: str, mark: str) -> None:
    page = new_context(locale=locale, viewport={"width": 390, "height": 844}).new_page()
    create_table(page, "mau-mau", ["me", "bot:heuristic"], name=LONG, public=True)
    # in the lobby's list the family emoji is one character of the name, not four people
    chip = page.locator("#tables .seat-chip", has_text="Anna-Lena").first
    assert chip.get_attribute("title") == LONG
    open_table(page)
    page.wait_for_selector("#board[data-version]")
    if page.locator("#menu-button").is_visible():  # a narrow screen: the seat list is in the menu
        page.click("#menu-button")
    own = page.locator('#seat-list li[data-seat="0"]')
    own.wait_for()
    assert own.locator(".name").get_attribute("title") == LONG + mark
    assert own.locator(".you").inner_text() == mark
    # squeeze the line far below the name's width: the name gives way, the mark does not
    own.evaluate("(li) => { li.style.width = '9rem'; li.style.maxWidth = '9rem'; }")
    name_text = own.locator(".name-text")
    assert name_text.evaluate("(el) => el.scrollWidth > el.clientWidth")  # ellipsised
    line, you = own.bounding_box(), own.locator(".you").bounding_box()
    assert line is not None and you is not None and you["width"] > 0
    assert line["x"] <= you["x"] and you["x"] + you["width"] <= line["x"] + line["width"] + 0.5, (line, you)
    # the board's own box names the seat the same way
    me = page.locator("#board .me .name").first
    assert me.get_attribute("title") == LONG + mark and me.locator(".you").count() == 1
