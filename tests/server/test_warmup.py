"""A server serves before the compiled bots' code is ready: that code is loaded in a thread of its
own after the start (server/warmup.py), and only a bot that decides with it waits for it."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from mauseloch.server import warmup
from tests.paths import ROOT

from .conftest import AppFactory
from .helpers import HUMAN, Player, create_table, seated

HEAVY = ("numpy", "numba", "scipy", "prometheus_client", "sqlalchemy.dialects.postgresql")

# `mauseloch serve` as run from a shell, stopped where the lobby has started (its tables restored,
# the next step is serving): which heavy modules it imported by then
SERVE_UNTIL_STARTED = f"""
import os, sys
from mauseloch.server import warmup

def started():
    print("imported:", [m for m in {HEAVY!r} if m in sys.modules], flush=True)
    os._exit(0)

warmup.start = started
sys.argv = ["mauseloch", "serve", "--port", "0", "--db", sys.argv[1]]
from mauseloch.cli import main
main()
"""


def test_serve_starts_without_the_numeric_libraries(tmp_path: Path) -> None:
    """A restart (after a crash, say) serves again sooner: numpy, numba and SciPy (0.3 s to import
    and 0.4 s more to load the kernels), prometheus-client without --metrics and PostgreSQL's
    dialect on SQLite are not loaded before the server serves."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", SERVE_UNTIL_STARTED, f"sqlite:///{tmp_path / 's.db'}"],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "imported: []" in done.stdout, done.stdout + done.stderr


def bot_to_move(player: Player, rng: random.Random) -> None:
    """The human ``player`` moves until the bot is to move."""
    while player.my_turn():
        player.move(rng.choice(player.view["legal_moves"]))
        frame = player.recv()
        assert frame["type"] == "update", frame


def test_only_a_compiled_bot_waits_for_the_warm_up(make_client: AppFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    masks: list[int] = []

    def held() -> None:  # the warm-up, held until the test releases it
        status = Path(f"/proc/self/task/{threading.get_native_id()}/status").read_text()
        masks.append(int(re.search(r"^SigBlk:\s*([0-9a-f]+)", status, re.M).group(1), 16))  # type: ignore[union-attr]
        assert release.wait(60)

    monkeypatch.setattr(warmup, "_running", None)  # this process's warm-up not started yet
    monkeypatch.setattr(warmup, "prepare_games", held)
    client = make_client()
    rng = random.Random(3)
    compiled = create_table(client, [HUMAN, {"kind": "bot", "bot": "search-fast"}])
    anna = seated(client, compiled["table"], 0, compiled["token"])
    bot_to_move(anna, rng)
    session = client.app.state.lobby.tables[compiled["table"]]  # type: ignore[attr-defined]
    waiting_at = session.version
    # a plain bot at another table moves meanwhile (after the compiled bot's turn came)
    plain = create_table(client, [HUMAN, {"kind": "bot", "bot": "heuristic"}])
    ben = seated(client, plain["table"], 0, plain["token"])
    bot_to_move(ben, rng)
    if not ben.view["is_over"]:
        frame = ben.recv()
        assert frame["type"] == "update" and frame["events"], frame
    assert session.version == waiting_at and session.state.game.to_move == 1  # the compiled one still waits
    if sys.platform.startswith("linux"):  # the numeric libraries' threads never take Ctrl-C or SIGTERM
        blocked = masks[0]
        assert blocked & (1 << 1) and blocked & (1 << 14), hex(blocked)  # SIGINT 2, SIGTERM 15
    release.set()
    frame = anna.recv()
    assert frame["type"] == "update" and frame["version"] == waiting_at + 1, frame
