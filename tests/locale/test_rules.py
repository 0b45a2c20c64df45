"""The rules at hand (mauseloch.locale.rules): the project's own rules pages, in both languages."""

from __future__ import annotations

import pytest

import mauseloch
from mauseloch.locale.rules import RULES_DIR, house_rules, rules_html, rules_path, rules_text


@pytest.mark.parametrize("game", sorted(mauseloch.GAMES))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_game_has_its_rules_in_both_languages(game: str, lang: str) -> None:
    path = rules_path(game, lang)
    assert path.parent == RULES_DIR and path.is_file()
    text = rules_text(game, lang)
    assert text.startswith("# ") and "](" not in text  # links to other pages are only their text
    assert "shared" not in path.read_text(encoding="utf-8")  # the project's docs stand alone
    html = rules_html(game, lang)
    assert html.startswith("<h1>") and "<table>" in html


def test_the_languages_differ_and_raw_html_is_escaped(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    assert "Regeln" in rules_text("mau-mau", "de") and "Regeln" not in rules_text("mau-mau", "en")
    from pathlib import Path

    from mauseloch.locale import rules

    folder = Path(str(tmp_path))
    (folder / "mau-mau.md").write_text("# X\n\n<script>alert(1)</script>\n", encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_DIR", folder)
    rules.rules_text.cache_clear()
    rules.rules_html.cache_clear()
    try:
        assert "<script>" not in rules_html("mau-mau", "en")
    finally:
        rules.rules_text.cache_clear()
        rules.rules_html.cache_clear()


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        rules_text("skat", "en")


def test_house_rules_name_every_house_rule_in_the_language() -> None:
    """Every option the table plays by, but not the engine's settings (the move limit)."""
    options = mauseloch.GAMES["mau-mau"].defaults(4) | {"ace_skips": True}
    assert house_rules("mau-mau", options, "de")[0] == "Ass setzt aus: ja"
    assert house_rules("mau-mau", options, "en")[1] == "Play on after a seven-penalty: no"
    assert house_rules("mau-mau", options, "en")[-1] == "No win with a jack: no"
    assert not any(line.startswith(("Move limit", "Zuggrenze")) for lang in ("en", "de")
                   for line in house_rules("mau-mau", options, lang))  # fmt: skip
