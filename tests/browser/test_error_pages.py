"""The server's error pages in a real browser: the site's layout under
the strict CSP, a title, the language of the browser, a language switch and a way back home."""

from __future__ import annotations

from typing import Any

from .axe import axe_violations


def test_a_missing_page_says_so_in_german_and_leads_back_to_the_lobby(new_context: Any) -> None:
    page = new_context(locale="de-DE").new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and "404" not in msg.text else None)
    answer = page.goto("/gibt/es/nicht")
    assert answer is not None and answer.status == 404
    page.wait_for_selector("#lang-switch:not([hidden])")  # its script ran (no inline script: CSP)
    assert page.title() == "Seite nicht gefunden – Mauseloch"
    assert page.get_attribute("html", "lang") == "de"
    assert page.locator("header.topbar a.brand").get_attribute("href") == "/"
    background = page.eval_on_selector("header.topbar", "el => getComputedStyle(el).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")  # the site's stylesheet applies
    assert axe_violations(page) == []
    page.click("#lang-switch")  # English, remembered like on every other page
    assert page.inner_text("h1") == "Page not found" and page.get_attribute("html", "lang") == "en"
    assert page.title() == "Page not found – Mauseloch"
    page.click("text=Back to the lobby")
    page.wait_for_selector("#create-form")
    assert errors == []


def test_a_table_that_does_not_exist_is_named_so(new_context: Any) -> None:
    page = new_context(locale="en-US").new_page()
    answer = page.goto("/t/nosuchtable")
    assert answer is not None and answer.status == 404
    assert page.inner_text("h1") == "Table not found"
    assert "This table does not exist" in page.inner_text("#error-text")
