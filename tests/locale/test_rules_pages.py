"""The rules for players: the pages the rules dialog and `mauseloch rules`
show speak to people — no rule ids, no engine notation, no test talk — in English and German, name
every option of the game by the lobby's label and every move by the words of the page's buttons,
and show the same card pictures in both languages. The developers' pages (docs/rules, with the
rule ids) stay as they are: tests/test_docs.py holds them to every rule id and option."""

from __future__ import annotations

import re

import pytest

import mauseloch
from mauseloch.locale import catalogue
from mauseloch.locale.rules import RULES_DIR, rules_html, rules_path, rules_text

GAMES = sorted(mauseloch.GAMES)
ENGINE = re.compile(r"\b(?:MM|AM|MG)-\d+a?\b|`|\b(?:seat|Platz) 0\b|\b(?:[Tt]ests?|engine|Engine)\b")
CARD = re.compile(r"!\[[^\]]*\]\(card:([A-Za-z0-9]+)\)")
KNOWN_CARD = re.compile(r"[789TJQKA][CSHD]|cheese|cat|mouse[123]")
# the buttons a player taps, by the catalogue key of their words
BUTTONS = {
    "mau-mau": ["mm.draw", "mm.pass", "mm.passNothing"],
    "aus-die-maus": ["am.flip"],
    "mausgeflippt": ["mg.reveal", "mg.flip"],
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rules_speak_to_players(game: str, lang: str) -> None:
    words = catalogue()[lang]
    text = rules_text(game, lang)
    found = ENGINE.search(text)
    assert found is None, f"{game} ({lang}) has engine or test words: {found and found[0]!r}"
    for opt in mauseloch.GAMES[game].options:
        label = words[f"opt.{opt.name}"].split(" (")[0]  # "Reaktionszeit (ms)": the unit is the lobby's
        assert label.casefold() in text.casefold(), f"{game} ({lang}) does not name the option {label!r}"
    for key in BUTTONS[game]:
        assert words[key] in text, f"{game} ({lang}) does not use the button's words {words[key]!r}"
    for heading in ("##",):
        assert text.count(heading) >= 4  # a page of sections: the game, a turn, the end, who wins


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_show_the_same_cards(game: str) -> None:
    pages = {lang: rules_path(game, lang).read_text(encoding="utf-8") for lang in ("en", "de")}
    cards = {lang: CARD.findall(page) for lang, page in pages.items()}
    assert cards["en"] == cards["de"]
    assert all(KNOWN_CARD.fullmatch(c) for c in cards["en"]), cards["en"]
    html = rules_html(game, "de")
    assert html.count('class="rules-card"') == len(cards["de"]) and "<img" not in html
    assert "card:" not in rules_text(game, "de")  # the terminal leaves the pictures out


def test_the_rules_pages_are_the_players_and_docs_rules_the_developers() -> None:
    assert not RULES_DIR.is_symlink()
    docs = RULES_DIR.parents[2] / "docs" / "rules"
    for game in GAMES:
        assert "-1" in (docs / f"{game}.md").read_text(encoding="utf-8")  # MM-1 etc. stay there
        assert rules_path(game, "en").read_text(encoding="utf-8") != (docs / f"{game}.md").read_text(encoding="utf-8")
