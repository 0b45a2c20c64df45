"""The project documents itself: no pointer to files a user of the project does not have, every
relative link in the README, CONTRIBUTING.md and docs/ leads to a file the project holds, and every
fenced Python block there runs as written (python-chess's doctested README), or is marked as a
fragment with ``<!-- fragment -->`` on the line before it and says so in words."""

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


FRAGMENT = "<!-- fragment -->"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
# What runs a page's blocks: in order, in one namespace (a later block uses what an earlier one
# made); a block of ``>>>`` lines is a doctest whose printed results must match.
RUN_BLOCKS = """
import doctest, json, sys
ns = {"__name__": "__main__"}
for line, code in json.load(sys.stdin):
    if any(text.startswith(">>> ") for text in code.splitlines()):
        flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(doctest.DocTestParser().get_doctest(code, ns, f"the block at line {line}", None, line),
                   out=sys.stderr.write, clear_globs=False)
        if runner.failures:
            sys.exit(f"the doctest block at line {line} failed")
    else:
        exec(compile(code, f"<the block at line {line}>", "exec"), ns)
"""


def _blocks(page: Path) -> list[tuple[int, str, bool]]:
    """Every fenced Python block of ``page``: its line, its code, and whether it is a fragment."""
    text = page.read_text(encoding="utf-8")
    found = []
    for block in PYTHON_BLOCK.finditer(text):
        before = text[: block.start()].rstrip("\n").splitlines()
        found.append((len(before) + 2, block.group(1), bool(before) and before[-1].strip() == FRAGMENT))
    return found


PAGES_WITH_CODE = [p for p in _markdown() if _blocks(p)]


def test_every_fragment_is_marked_and_says_so() -> None:
    """A block that is no program (a sketch, a shape, a loop against a server) has the marker on
    the line before it and the words before the marker say it is a fragment."""
    fragments = 0
    for page in _markdown():
        text = page.read_text(encoding="utf-8")
        for marker in re.finditer(rf"^{re.escape(FRAGMENT)}$", text, re.M):
            after = text[marker.end() :].lstrip("\n")
            assert after.startswith("```python"), f"{page.relative_to(ROOT)}: {FRAGMENT} not before a Python block"
            paragraph = text[: marker.start()].rstrip().rsplit("\n\n", 1)[-1]
            assert "fragment" in paragraph.lower(), f"{page.relative_to(ROOT)}: the text before {FRAGMENT} must say so"
            fragments += 1
    assert fragments >= 1


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES_WITH_CODE, ids=[p.relative_to(ROOT).as_posix() for p in PAGES_WITH_CODE])
def test_every_python_block_runs_as_written(page: Path, tmp_path: Path) -> None:
    """Each page's Python blocks, fragments aside, run in a fresh interpreter outside the
    repository (as a reader pastes them), in order; doctest blocks print what they show."""
    import json
    import os
    import sys

    pytest.importorskip("gymnasium")
    blocks = [[line, code] for line, code, fragment in _blocks(page) if not fragment]
    if not blocks:
        pytest.skip("only fragments")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", RUN_BLOCKS], input=json.dumps(blocks), cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, f"{page.relative_to(ROOT)}:\n{done.stderr[-3000:]}"
