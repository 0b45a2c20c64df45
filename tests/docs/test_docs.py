"""The project documents itself: no pointer to files a user of the project does not have, and
every relative link in the README, CONTRIBUTING.md and docs/ leads to a file the project holds."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = "../" + "shared"  # spelled apart so this file does not match itself
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
RULES = ("mau-mau", "aus-die-maus", "mausgeflippt")


def _tracked() -> list[Path]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def _markdown() -> list[Path]:
    return [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "tests").rglob("README.md")),
    ]


def test_no_tracked_file_points_outside_the_project() -> None:
    offenders = []
    for path in _tracked():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("tests/vectors/") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file (screenshots)
        if OUTSIDE in text:
            offenders.append(rel)
    assert offenders == [], f"these files point to {OUTSIDE}, which users of the project do not have"


def test_what_users_read_names_no_spec_folder() -> None:
    """The README, docs/ and the library's own text point to the project's rules pages."""
    paths = [*_markdown(), *sorted((ROOT / "src").rglob("*.py"))]
    offenders = [p.relative_to(ROOT).as_posix() for p in paths if "shared/spec" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_every_relative_link_resolves() -> None:
    checked = 0
    for page in _markdown():
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            path = (page.parent / target.split("#")[0]).resolve()
            assert path.exists(), f"{page.relative_to(ROOT)} links to {target}, which is missing"
            assert path.is_relative_to(ROOT), f"{page.relative_to(ROOT)} links outside the project: {target}"
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", RULES)
def test_every_game_has_rules_in_english_and_german_with_all_rule_ids_and_options(game: str) -> None:
    from mauseloch import GAMES

    pages = [ROOT / "docs" / "rules" / f"{game}.md", ROOT / "docs" / "rules" / f"{game}.de.md"]
    home = ROOT / "src" / "mauseloch" / "games" / game.replace("-", "")  # a module, or a package of them
    sources = [home.with_suffix(".py")] if home.with_suffix(".py").exists() else sorted(home.rglob("*.py"))
    code = "\n".join(p.read_text(encoding="utf-8") for p in sources)
    prefix = {"mau-mau": "MM", "aus-die-maus": "AM", "mausgeflippt": "MG"}[game]
    ids_in_code = set(re.findall(rf"\b{prefix}-\d+a?\b", code))
    assert ids_in_code
    for page in pages:
        text = page.read_text(encoding="utf-8")
        ids = set(re.findall(rf"\b{prefix}-\d+a?\b", text))
        assert ids_in_code <= ids, f"{page.name} lacks {sorted(ids_in_code - ids)}"
        for opt in GAMES[game].options:
            assert f"`{opt.name}`" in text, f"{page.name} does not describe the option {opt.name}"


# The sections of docs/api.md whose examples are whole programs: each runs as written.
RUNNABLE = {
    "docs/api.md": ("## MauMauBatch", "## Bots: register_bot, make_bot, the Bot protocol"),
    "docs/envs-mausgeflippt.md": ("# Mausgeflippt as a PettingZoo Parallel environment",),
}


def _section_code(page: str, heading: str) -> str:
    text = (ROOT / page).read_text(encoding="utf-8")
    assert heading in text, f"{page} has no section {heading!r}"
    level = heading.split(" ")[0]
    body = text[text.index(heading) + len(heading) :]
    nxt = re.search(rf"^{level} ", body, re.M)  # up to the next heading of the same level
    blocks = re.findall(r"```python\n(.*?)```", body[: nxt.start() if nxt else None], re.S)
    assert blocks, f"{page}: {heading!r} shows no example"
    return "\n".join(blocks)


@pytest.mark.slow
@pytest.mark.parametrize(("page", "heading"), [(p, h) for p, hs in RUNNABLE.items() for h in hs])
def test_documented_examples_run(page: str, heading: str) -> None:
    """MauMauBatch and the bot plug-in API were documented only in docstrings; their sections
    in docs/api.md carry examples that run (in a fresh interpreter: the example registers a bot)."""
    pytest.importorskip("gymnasium")
    import sys

    code = _section_code(page, heading)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
