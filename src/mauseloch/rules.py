"""The rules at hand: each game's rules page from the project's ``docs/rules`` in English or
German, as text for the terminal and as HTML for the web table, and a table's house rules (its
options) in words.

The pages are the ones people read on the project site (``docs/rules/<game>.md`` in English,
``docs/rules/<game>.de.md`` in German); nothing here restates a rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .engine import game_info
from .locale import Lang, t

# docs/rules, through the package's link to it (rules_pages -> ../../docs/rules), so that a built
# wheel carries the same pages as package data
RULES_DIR = Path(__file__).parent / "rules_pages"
_LINK = re.compile(r"\[([^\]]+)\]\((?!https?:)[^)]*\)")  # a link to another page of docs/: its text only


def rules_path(game: str, lang: Lang) -> Path:
    """The rules page of ``game`` (any spelling ``game_info`` accepts) in ``lang``."""
    name = game_info(game).name
    return RULES_DIR / (f"{name}.md" if lang == "en" else f"{name}.{lang}.md")


@cache
def rules_text(game: str, lang: Lang) -> str:
    """The rules page as Markdown, with links to other pages of the docs reduced to their text
    (they lead nowhere in a terminal or a dialog). ``ValueError`` for an unknown game or a page
    that cannot be read (the pages travel in the wheel as package data)."""
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
    """The rules page as HTML for the table's rules dialog (raw HTML in the page is escaped)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(rules_text(game, lang))


def house_rules(game: str, options: Mapping[str, Any], lang: Lang) -> list[str]:
    """Every option of a table as ``Label: value`` in ``lang``, in the game's order: the house
    rules the players agreed on, shown at the table all the time."""
    info = game_info(game)
    lines = []
    for spec in info.options:
        if spec.name not in options:
            continue
        value = options[spec.name]
        label = t(f"opt.{spec.name}", lang)
        if label == f"opt.{spec.name}":  # an option the catalogue has no label for
            label = spec.name.replace("_", " ")
        shown = t("common.yes" if value else "common.no", lang) if isinstance(value, bool) else str(value)
        lines.append(f"{label}: {shown}")
    return lines
