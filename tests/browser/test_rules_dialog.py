"""The rules dialog for players: this table's house rules first, told in
sentences, then the game's rules written for people in the page's language with small pictures of
the cards — no rule ids, no engine notation — and nothing serious for axe-core."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .axe import axe_violations, describe
from .helpers import create_table, open_table

pytestmark = pytest.mark.browser

# rule ids, engine notation and option names, test talk: none of it is for players
ENGINE = re.compile(
    r"\b(?:MM|AM|MG)-\d|`|\b(?:7H|JC|ace_skips|move_limit|legal_moves|to_move|seat 0|Platz 0)\b|\b[Tt]ests?\b"
)


def open_rules(page: Any) -> str:
    page.wait_for_selector("#board[data-version]")
    if not page.locator("#rules-button").is_visible() and page.locator("#menu-button").is_visible():
        page.click("#menu-button")
    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open] .rules-text h1")
    return page.inner_text("#rules-dialog")


@pytest.mark.parametrize(
    ("locale", "title", "house", "words"),
    [
        ("de-DE", "Mau-Mau — die Regeln", "Ass setzt aus: ja — Ein Ass lässt den Nächsten aussetzen, wie eine Acht.",
         ["So geht dein Zug", "Karte ziehen", "Die Sonderkarten", "Wer gewinnt"]),
        ("en-US", "Mau-Mau — the rules", "Ace skips: yes — An ace makes the next player miss a turn, like an eight.",
         ["Your turn", "Draw a card", "Special cards", "Who wins"]),
    ],
)  # fmt: skip
def test_the_rules_dialog_speaks_to_players(new_context: Any, locale: str, title: str, house: str,
                                            words: list[str]) -> None:  # fmt: skip
    page = new_context(locale=locale).new_page()
    create_table(page, "mau-mau", ["me", "bot:heuristic"], options={"ace_skips": True, "move_limit": 80})
    open_table(page)
    text = open_rules(page)
    assert title in text and house in text, text[:600]
    house = page.inner_text("#rules-dialog .rules-house")
    for limit in ("Zuggrenze", "Move limit", "80 Zügen", "80 moves"):  # an engine setting, no house rule
        assert limit not in house, house
    # the table's house rules come first, the rules for everyone after them
    order = page.evaluate(
        """() => {
            const house = document.querySelector('#rules-dialog .rules-house');
            const rules = document.querySelector('#rules-dialog .rules-text');
            return Boolean(house.compareDocumentPosition(rules) & Node.DOCUMENT_POSITION_FOLLOWING);
        }"""
    )
    assert order
    for word in words:
        assert word in text, word
    assert not ENGINE.search(text), ENGINE.search(text)
    # small pictures of the cards, drawn like the cards on the table
    pictures = page.locator("#rules-dialog .rules-card svg")
    assert pictures.count() >= 5
    assert page.locator('#rules-dialog .rules-card[data-card="JC"] svg').count() >= 1
    found = axe_violations(page)
    assert not found, describe(found)


def test_aus_die_maus_rules_show_its_cards(new_context: Any) -> None:
    page = new_context(locale="de-DE").new_page()
    create_table(page, "aus-die-maus", ["me", "bot:random"], options={"chips": 3})
    open_table(page)
    text = open_rules(page)
    assert "Aus die Maus! — die Regeln" in text and "Die Mausjagd" in text and "Umdrehen!" in text
    assert "Chips: 3 — 3 Chips sind im Spiel; wer den letzten nimmt, beendet es." in text
    assert "Kleines Spiel: ja — Das kleine Spiel: die 45 Karten mit dem roten Rücken." in text
    cards = page.locator("#rules-dialog .rules-card").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert {"cheese", "mouse2", "cat"} <= set(cards)
    assert page.locator("#rules-dialog .rules-card svg").count() == len(cards)
    assert not ENGINE.search(text), ENGINE.search(text)
    found = axe_violations(page)
    assert not found, describe(found)
