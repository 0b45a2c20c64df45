"""docs/research.md and what it promises: the action table is the engine's, the plug-in example
puts a trained policy into a tournament, the baselines command writes its table, and the
citation names the package's version."""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import mauseloch.bots
from mauseloch import new_game

ROOT = Path(__file__).resolve().parents[2]


def _load(path: Path, name: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_action_table_is_the_engines() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    actions = new_game("mau-mau", 2, 0).ACTIONS
    clubs = re.search(r"\| 0–10 \| clubs: `([^`]*)` \|", text)
    assert clubs is not None and clubs.group(1).split() == list(actions[:11])
    assert re.search(r"\| 44, 45, 46 \| `draw`, `pass`", text) and actions[44:] == ("draw", "pass", "take")
    assert [a[1] for a in actions[:44:11]] == ["C", "S", "H", "D"]


def test_a_trained_policy_plays_in_a_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    # The example registers its bot: into a copy of the registry, so later tests see only the
    # shipped kinds. The bot modules are loaded first (bot_kinds), or they would register
    # themselves into the copy and be gone with it.
    shipped = mauseloch.bots.bot_kinds("mau-mau")
    monkeypatch.setitem(mauseloch.bots._REGISTRY, "mau-mau", dict(mauseloch.bots._REGISTRY.get("mau-mau", {})))
    example = _load(ROOT / "examples" / "policy_in_tournament.py", "policy_in_tournament")
    weights = example.train(30)
    assert weights.shape == (example.FEATURES,) and weights.any()
    rep = example.main(["--games", "10", "--deals", "3"])
    assert [row["bot"] for row in rep["kinds"]] == ["linear-policy", "heuristic", "random"]
    assert rep["games"] == 3 * 6
    assert all(row["rating_ci95"] is not None for row in rep["kinds"])
    monkeypatch.undo()
    assert mauseloch.bots.bot_kinds("mau-mau") == shipped


def test_the_baselines_command_writes_its_table(tmp_path: Path) -> None:
    baselines = _load(ROOT / "scripts" / "baselines.py", "baselines")
    out = tmp_path / "baselines.md"
    assert baselines.main(["--deals", "2", "--speed-games", "1", "--games", "aus-die-maus", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "python scripts/baselines.py --deals 2 --speed-games 1 --games aus-die-maus --seed 2026" in text
    rows = [line for line in text.splitlines() if line.startswith("| random |") or line.startswith("| slow |")]
    assert len(rows) == 4  # the ratings table and the pairwise table, one row per bot each
    with pytest.raises(SystemExit):
        baselines.main(["--deals", "1"])


def test_baseline_tables_seat_every_two_kinds_together() -> None:
    tables = _load(ROOT / "scripts" / "baselines.py", "baselines").tables
    assert tables(["a", "b"], 2) == [["a", "b"]]
    for kinds, seats in ((mauseloch.bots.bot_kinds("mau-mau"), 5), (list("abcdefgh"), 3), (list("abcdefg"), 6)):
        seated = tables(kinds, seats)
        assert len(seated) > 1 and all(2 <= len(t) <= seats and len(set(t)) == len(t) for t in seated)
        together = {frozenset((a, b)) for t in seated for a in t for b in t if a != b}
        assert together == {frozenset((a, b)) for a in kinds for b in kinds if a != b}


def test_the_published_baselines_cover_every_shipped_bot() -> None:
    # each game's section of docs/baselines.md has a row for every kind the game offers
    text = (ROOT / "docs" / "baselines.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    for name, info in mauseloch.GAMES.items():
        rows = set(re.findall(r"^\| ([a-z-]+) \| [+-]", sections[info.title], re.M))
        assert rows == set(mauseloch.bots.bot_kinds(name)), name


def test_the_openspiel_limits_research_md_states() -> None:
    # the C++ ISMCTS bot on a Python game kills its process; undo_action is not there
    pytest.importorskip("pyspiel")
    code = """
import pyspiel
import mauseloch.envs.openspiel
game = pyspiel.load_game("mauseloch_maumau", {"players": 2, "deals": 4, "move_limit": 20})
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
try:
    state.clone().undo_action(0, state.legal_actions()[0])
except pyspiel.SpielError as exc:
    print(exc, flush=True)
policy = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 1.4, 20, 10, policy, False, False)
bot.step(state)
print("the C++ ISMCTS bot played", flush=True)
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.splitlines()[0] == "UndoAction function is not overridden; not undoing."
    assert done.returncode == -signal.SIGSEGV and "played" not in done.stdout
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    assert "segmentation fault" in text and "UndoAction function is not overridden" in text


def test_citation_names_the_package_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r'^version: "([^"]+)"$', cff, re.M).group(1) == project["version"]  # type: ignore[union-attr]
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    assert f"license: {project['license']}" in cff
