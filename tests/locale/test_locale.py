"""The one message catalogue the pages and the terminal share (src/mauseloch/locale)."""

from __future__ import annotations

import json
import re

import pytest

from mauseloch import locale
from mauseloch.locale import catalogue, detect_lang, list_names, plural_form, strings_module, t, tn, tnames

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_both_languages_have_every_key_with_the_same_placeholders() -> None:
    en, de = catalogue()["en"], catalogue()["de"]
    assert set(en) == set(de), set(en) ^ set(de)
    for key in en:
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(de[key])), key
        assert en[key].strip() and de[key].strip(), key


def test_texts_fill_placeholders_and_fall_back_as_the_page_does() -> None:
    assert t("common.seat", "en", n=3) == "Seat 3"
    assert t("common.seat", "de", n=3) != "Seat 3"
    assert t("common.seat", "en") == "Seat {n}"  # an unknown placeholder stays
    assert t("no.such.key", "de") == "no.such.key"
    key = next(k[: -len(".one")] for k in catalogue()["en"] if k.endswith(".one"))
    assert tn(key, 1, "en") == t(f"{key}.one", "en", n=1)
    assert tn(key, 5, "de") == t(f"{key}.other", "de", n=5)


def test_plurals_and_lists_agree_with_their_numbers_in_both_languages() -> None:
    """A plural text has both forms in both languages; the form follows Unicode CLDR's rule (as the
    page's Intl.PluralRules: the browser tests compare every plural text with the page's); a
    sentence about names agrees with how many they are."""
    for lang in ("en", "de"):
        keys = catalogue()[lang]
        for key in keys:
            if key.endswith(".one"):
                assert key[: -len(".one")] + ".other" in keys, (lang, key)
    assert [plural_form(n) for n in (0, 1, 2, -1, 1.5, 1.0)] == ["other", "one", "other", "one", "other", "other"]
    assert tn("end.mg.mice", 1, "de") == "1 Maus" and tn("end.mg.mice", 2, "de") == "2 Mäuse"
    assert tn("table.cards", 1, "en") == "1 card" and tn("table.cards", 0, "en") == "0 cards"
    assert list_names(["Oma"], "de") == "Oma"
    assert list_names(["Kind", "Oma"], "de") == "Kind und Oma"
    assert list_names(["Papa", "Kind", "Oma"], "de") == "Papa, Kind und Oma"
    assert list_names(["Papa", "Kind", "Oma"], "en") == "Papa, Kind, and Oma"
    waiting = tnames("end.nextDealWaiting", ["Kind", "Oma"], "de")
    assert "sobald Kind und Oma so weit sind" in waiting
    assert "sobald Oma so weit ist" in tnames("end.nextDealWaiting", ["Oma"], "de")
    assert "bei Punkte" not in t("end.decided.one", "de")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "de_AT", "LANG": "en"}, "de"),
    ],
)
def test_the_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert detect_lang(environ) == lang


def test_the_page_module_holds_the_same_catalogue() -> None:
    text = strings_module()
    body = text[text.index("export default ") + len("export default ") : text.rindex(";")]
    assert json.loads(body) == {lang: dict(texts) for lang, texts in catalogue().items()}


def test_a_key_in_two_files_is_refused(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "a.toml").write_text('[en]\n"x.y" = "one"\n[de]\n"x.y" = "eins"\n', encoding="utf-8")
    (folder / "b.toml").write_text('[en]\n"x.y" = "two"\n', encoding="utf-8")
    monkeypatch.setattr(locale, "_HERE", folder)
    locale.catalogue.cache_clear()
    try:
        with pytest.raises(locale.CatalogueError, match=r"a\.toml and b\.toml"):
            locale.catalogue()
    finally:
        monkeypatch.undo()
        locale.catalogue.cache_clear()


def test_every_mau_mau_refusal_has_a_key_and_reads_in_german() -> None:
    """Each refusal the engine gives (tried over many positions and bad moves) names its key in the
    catalogue, its English message is the catalogue's English, and the terminal says it in German
    with every placeholder filled."""
    import random

    import mauseloch
    from mauseloch.tui.maumau import refusal_text

    rng = random.Random(4)
    seen: set[str] = set()
    tries = ["XX", "take", "pass", "draw", "JS:Q", "JS", "7H:S", "AH", "JC:", "QD"]
    for seed in range(30):
        g = mauseloch.new_game("mau-mau", players=3, seed=seed, options={"no_jack_on_jack": seed % 2 == 0})
        while not g.is_over:
            seat = g.to_move
            hand = g.view(seat)["hand"]
            for move in [*tries, *hand, *(f"{c}:X" for c in hand if c[0] == "J")]:
                if move in g.legal_moves():
                    continue
                try:
                    g.play(move)
                except mauseloch.IllegalMove as exc:
                    if exc.reason is None:
                        continue
                    seen.add(exc.reason)
                    assert exc.reason in catalogue()["de"], exc.reason
                    assert str(exc).startswith(t(exc.reason, "en", **exc.params))
                    german = refusal_text(exc, "de")
                    assert "{" not in german and german != str(exc), german
                    assert "jetzt möglich" in german
            g.play(rng.choice(g.legal_moves()))
    refusal_keys = {k for k in catalogue()["en"] if k.startswith("refuse.mm.")}
    rare = {"refuse.mm.stockEmpty", "refuse.mm.penaltyDraw", "refuse.mm.noJackOnJack"}  # a jack turned up first
    assert seen >= refusal_keys - rare, refusal_keys - seen


def test_every_game_option_and_bot_the_lobby_offers_has_words_in_both_languages() -> None:
    """Every game, option, house-rule sentence and bot level has its words in both languages (a
    German lobby shows no English description and no "Bot: search-fast"); the engine's settings
    are no house rules."""
    import mauseloch
    from mauseloch.server.lobby import web_bots

    for lang in ("en", "de"):
        words = catalogue()[lang]
        for name, info in mauseloch.GAMES.items():
            assert f"game.{name}" in words, (lang, name)
            for bot in web_bots(name):
                assert f"bot.{bot}" in words and words[f"bot.{bot}"] != bot, (lang, name, bot)
            for opt in info.options:
                assert f"opt.{opt.name}" in words and f"optHelp.{opt.name}" in words, (lang, opt.name)
                if not opt.house_rule:  # an engine setting: no sentence at the table's house rules
                    assert not any(k.startswith(f"rulesHouse.{opt.name}") for k in words), (lang, opt.name)
                    continue
                forms = ("on", "off") if opt.type is bool else ("one", "other")  # a number's words agree with it
                keys = [f"rulesHouse.{opt.name}.{form}" for form in forms]
                assert all(k in words for k in keys), (lang, keys)
    assert t("game.mausgeflippt", "de").startswith("Ein Reaktionsspiel")
    assert t("bot.search-fast", "de") == "Denker (schnell)"
