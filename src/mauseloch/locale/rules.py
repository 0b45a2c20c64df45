"""The rules at hand: each game's rules for players in English or German, as text for the
terminal and as HTML for the web table, and a table's house rules (its options) in words.

The pages are ``rules_pages/<game>.md`` (English) and ``rules_pages/<game>.de.md`` (German): the
rules told to the people playing, in the words of the page's buttons. The developers' pages with
the rule ids are ``docs/rules``; nothing here restates a rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from mauseloch.core.registry import game_info
from mauseloch.locale import Lang, t

# package data, so that a built wheel carries the pages
RULES_DIR = Path(__file__).resolve().parents[1] / "rules_pages"
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\((?!https?:)[^)]*\)")  # a link to another page: its text only
# ``![seven of hearts](card:7H)``: a small picture of a card beside the words that name it (the
# pages never leave a card to its picture), so the terminal and screen readers leave it out
_CARD = re.compile(r" ?!\[([^\]]*)\]\(card:([A-Za-z0-9]+)\)")
_CARD_IMG = re.compile(r'<img src="card:([A-Za-z0-9]+)" alt="([^"<>]*)" />')


def rules_path(game: str, lang: Lang) -> Path:
    """The rules page of ``game`` (any spelling ``game_info`` accepts) in ``lang``."""
    name = game_info(game).name
    return RULES_DIR / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")


@cache
def rules_text(game: str, lang: Lang) -> str:
    """The rules page as Markdown, with links to other pages reduced to their text (they lead
    nowhere in a terminal or a dialog) and without the cards' pictures. ``ValueError`` for an
    unknown game or a page that cannot be read (the pages travel in the wheel as package data)."""
    return _CARD.sub("", _page(game, lang))


def _page(game: str, lang: Lang) -> str:
    """The page's Markdown without links to other pages, its card pictures kept."""
    path = rules_path(game, lang)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"the rules page {path} cannot be read: {exc.strerror or exc}") from None
    lines = text.splitlines()
    # the page's second line is its language switch and the link to the index: not for a dialog
    kept = [line for line in lines if not (line.startswith("[") and " · " in line)]
    return _LINK.sub(r"\1", "\n".join(kept)) + "\n"


@cache
def rules_html(game: str, lang: Lang) -> str:
    """The rules page as HTML for the table's rules dialog (raw HTML in the page is escaped). A
    card's picture is a ``<span class="rules-card" data-card="7H">`` beside the words naming the
    card, which the dialog fills with the card's drawing (web/js/cards.js)."""
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(_page(game, lang))
    return _CARD_IMG.sub(r'<span class="rules-card" data-card="\1" aria-hidden="true"></span>', html)


def house_rules(game: str, options: Mapping[str, Any], lang: Lang) -> list[str]:
    """Every house rule of a table as ``Label: value`` in ``lang``, in the game's order: the rules
    the players agreed on, shown at the table all the time (the engine's settings are not)."""
    info = game_info(game)
    lines = []
    for spec in info.options:
        if spec.name not in options or not spec.house_rule:
            continue
        value = options[spec.name]
        label = t(f"opt.{spec.name}", lang)
        if label == f"opt.{spec.name}":  # an option the catalogue has no label for
            label = spec.name.replace("_", " ")
        shown = t("common.yes" if value else "common.no", lang) if isinstance(value, bool) else str(value)
        lines.append(f"{label}: {shown}")
    return lines
