"""The README stays a page a newcomer scans, the documentation site shows every page, and every
figure says the command that gives it. (`mkdocs build --strict`, run by `make lint`, checks the
site's links and the API reference; these checks need no MkDocs.)"""

from __future__ import annotations

import re

import pytest

from tests.paths import ROOT

README_WORDS = 1500
# A figure: a percentage, a ratio, a rate or a duration measured.
FIGURE = re.compile(r"\d\s?%|\d×|/s\b|\d\s?ms\b|\d\s?µs\b")
# How a figure is made: a command of the project (the CLI, a bench, a script or an example).
COMMAND = re.compile(
    r"mauseloch (?:simulate|tournament|analyze|train|serve|play)\b|\b(?:bench|scripts|examples)/\w+\.py"
)
# The pages that hold figures and nothing else (docs/bots-figures.md and docs/models/ keep the
# record of pilots whose code is gone: checked by their owners, not here).
FIGURE_PAGES = (
    "benchmarks.md",
    "aus-die-maus-answers.md",
    "mausgeflippt-figures.md",
    "baselines.md",
    "learning-figures.md",
)


def _words(markdown: str) -> int:
    """Words as a reader meets them: HTML comments (the site's snippet markers) are not read."""
    return len(re.sub(r"<!--.*?-->", " ", markdown, flags=re.S).split())


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of each level-2 section, its subsections included; the text before the
    first one is the page's preamble, under the page's title."""
    parts = re.split(r"(?m)^(## .*)$", text)
    sections = [(parts[0].strip().splitlines()[0] if parts[0].strip() else "", parts[0])]
    sections += [(parts[i], parts[i + 1]) for i in range(1, len(parts) - 1, 2)]
    return sections


def _nav_pages() -> set[str]:
    """Every page that mkdocs.yml's nav names (the file has a Python tag, so no YAML loader)."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:", 1)[1]
    entry = r"""^\s*-\s+(?:(?:"[^"\n]*"|[^:"\n]+):\s+)?([\w./-]+\.md)\s*$"""  # "- Title: page.md" or "- page.md"
    return set(re.findall(entry, nav, re.M))


def test_the_readme_is_at_most_1500_words() -> None:
    words = _words((ROOT / "README.md").read_text(encoding="utf-8"))
    assert words <= README_WORDS, f"README.md has {words} words; the limit is {README_WORDS}: move detail to docs/"


def test_every_stop_of_the_readme_tour_links_to_its_docs_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text.split("## A short tour", 1)[1].split("\n## ", 1)[0]
    stops = re.findall(r"^\*\*(.+?)\*\*(.*?)(?=^\*\*|\Z)", tour, re.M | re.S)
    assert len(stops) >= 5, "the tour covers play, serve, the library, simulate and learn"
    bare = [name for name, body in stops if not re.search(r"\]\(docs/[^)]+\.md(?:#[^)]*)?\)", body)]
    assert bare == [], f"these stops of the README's tour link to no page of docs/: {bare}"


def test_the_site_shows_every_page_of_docs() -> None:
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    nav = _nav_pages()
    assert nav, "mkdocs.yml has no nav"
    assert sorted(nav - pages) == [], "mkdocs.yml's nav names pages docs/ does not hold"
    assert sorted(pages - nav) == [], "these pages of docs/ are not in mkdocs.yml's nav"


def test_the_site_home_and_contributing_pages_include_their_one_home() -> None:
    """docs/index.md and docs/contributing.md show text whose home is the README and CONTRIBUTING.md
    (one home per text): the snippets they include exist."""
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for section in re.findall(r'--8<-- "README\.md:(\w+)"', index):
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        assert f"--8<-- [start:{section}]" in readme and f"--8<-- [end:{section}]" in readme, section
    assert '--8<-- "CONTRIBUTING.md"' in (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", FIGURE_PAGES)
def test_every_figure_names_the_command_that_gives_it(page: str) -> None:
    """A section of a figures page that states a figure names a command (in the section or the
    page's preamble, which holds the command of a generated page)."""
    sections = _sections((ROOT / "docs" / page).read_text(encoding="utf-8"))
    preamble = sections[0][1]
    silent = [
        heading
        for heading, body in sections[1:]
        if FIGURE.search(body) and not COMMAND.search(body) and not COMMAND.search(preamble)
    ]
    assert silent == [], f"{page}: these sections state figures without the command that gives them"
