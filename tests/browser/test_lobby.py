"""The lobby for families: it opens on Mau-Mau with the
heuristic bot, the engine's settings wait behind "More options", and every word of it — game
descriptions, bot levels, refusals — is in the page's language, German or English."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mauseloch.locale import catalogue

from .axe import axe_violations, describe

pytestmark = pytest.mark.browser

# the engine's names of the bot levels: the page shows words instead
RAW_BOTS = (
    "random", "heuristic", "search-fast", "search", "learned", "little", "child", "easy", "normal", "hard", "slow",
)  # fmt: skip


def lobby(new_context: Any, locale: str) -> Any:
    page = new_context(locale=locale).new_page()
    page.goto("/")
    page.wait_for_selector("#seat-1 option", state="attached")
    return page


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_the_lobby_opens_on_mau_mau_with_the_heuristic_bot(new_context: Any, locale: str) -> None:
    page = lobby(new_context, locale)
    assert page.input_value("#game-select") == "mau-mau"
    assert page.input_value("#seat-1") == "bot:heuristic"
    shown = page.locator("#seat-1 option:checked").inner_text()
    assert shown == ("Bot: Heuristik" if locale == "de-DE" else "bot: Heuristic"), shown


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_engine_settings_wait_behind_more_options(new_context: Any, locale: str) -> None:
    page = lobby(new_context, locale)
    assert page.locator("#opt-ace_skips").is_visible()  # a house rule: in sight
    for hidden in ("#opt-move_limit", "#deal-code"):
        assert page.locator(hidden).is_hidden(), hidden
    summary = page.locator("#more-options summary")
    assert summary.inner_text() == ("Weitere Optionen" if locale == "de-DE" else "More options")
    summary.click()
    assert page.locator("#opt-move_limit").is_visible() and page.locator("#deal-code").is_visible()
    page.select_option("#game-select", "mausgeflippt")
    assert page.locator("#opt-window_ms").is_visible() and page.locator("#opt-hand_size").is_visible()
    summary.click()
    assert page.locator("#opt-window_ms").is_hidden()
    # an engine setting set behind the disclosure still goes with the new table
    options = page.evaluate("""() => { document.getElementById('opt-window_ms').value = '4000';
        return document.querySelectorAll('#options-more input').length; }""")
    assert options == 1


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_every_game_and_bot_level_is_in_the_page_language(new_context: Any, locale: str) -> None:
    page = lobby(new_context, locale)
    games = page.locator("#game-select option").evaluate_all("els => els.map((e) => e.value)")
    assert sorted(games) == ["aus-die-maus", "mau-mau", "mausgeflippt"]
    for game in games:
        page.select_option("#game-select", game)
        page.select_option("#seat-count", "2")
        description = page.inner_text("#game-description")
        levels = page.locator("#seat-1 option").all_inner_texts()
        for level in levels:
            word = level.split(": ", 1)[-1]
            assert word not in RAW_BOTS, f"{game}: the bot level {level!r} is the engine's word"
        if locale == "de-DE":
            english = re.search(r"\b(the|and|turn|cards|shown|wish)\b", description)
            assert english is None, f"{game}: English in the German description: {description}"
            assert all(level.startswith("Bot: ") for level in levels[:-1]), levels
    page.select_option("#game-select", "mau-mau")
    levels = page.locator("#seat-1 option").all_inner_texts()
    assert ("Bot: Denker (schnell)" if locale == "de-DE" else "bot: Thinker (quick)") in levels


def test_a_refusal_has_no_english_tooltip_on_the_german_page(new_context: Any) -> None:
    page = lobby(new_context, "de-DE")
    page.fill("#player-name", "Bot 2")  # bots' names are reserved
    page.click("#create-button")
    page.wait_for_selector("#create-error:not([hidden])")
    assert page.inner_text("#create-error") == catalogue()["de"]["error.name_reserved"]
    assert not page.get_attribute("#create-error", "title")


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
def test_axe_finds_nothing_serious_on_the_lobby(new_context: Any, locale: str) -> None:
    page = lobby(new_context, locale)
    found = axe_violations(page)
    assert not found, describe(found)
    page.click("#more-options summary")
    page.fill("#player-name", "Anna")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    found = axe_violations(page)
    assert not found, describe(found)


def test_chromium_reads_the_manifest_without_errors(new_context: Any) -> None:
    """What Chromium itself makes of the manifest: no parse errors, and nothing that keeps the site
    from being installed (added to a phone's home screen as an app of its own)."""
    page = lobby(new_context, "de-DE")
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and manifest["errors"] == [], manifest["errors"]
    found = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    errors = [e["errorId"] for e in found if e["errorId"] != "in-incognito"]  # a test's context is one
    assert errors == [], errors
