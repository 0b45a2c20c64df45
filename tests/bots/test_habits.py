"""The Mau-Mau heuristic's habits live once, in plain Python (``games.maumau.bots.habits``): the bot
calls them without numpy or numba (the browser's engine has neither), and the kernel compiles
that very code. ``test_heuristic_records`` plays the recorded games through the plain functions,
``tests/kernels/test_maumau_playout`` the compiled ones against them."""

from __future__ import annotations

import builtins
import dis
import json
import subprocess
import sys

import numpy as np

from mauseloch.core.engine import Rng
from mauseloch.games.maumau import kernel as kernel
from mauseloch.games.maumau.bots import habits
from tests.paths import ROOT


def _globals_read(f: object) -> set[str]:
    return {i.argval for i in dis.get_instructions(f) if i.opname == "LOAD_GLOBAL"}  # type: ignore[arg-type]


def test_the_kernel_compiles_the_habits_own_code() -> None:
    for f in habits.SHARED:
        compiled = getattr(kernel, f.__name__)
        assert compiled.py_func.__code__ is f.__code__, f.__name__


def test_the_habits_read_only_names_both_homes_define() -> None:
    for f in habits.SHARED:
        for name in _globals_read(f) - set(dir(builtins)):
            assert hasattr(kernel, name), f"{f.__name__} reads {name}, which the kernel lacks"
            assert hasattr(habits, name), f"{f.__name__} reads {name}, which the habits lack"
            mine, theirs = getattr(habits, name), getattr(kernel, name)
            if isinstance(mine, tuple | int | float) and not callable(mine):
                assert list(np.asarray(theirs).ravel()) == list(np.asarray(mine).ravel()), name


def test_the_plain_bit_helpers_are_the_kernels() -> None:
    rng = Rng(5)
    for _ in range(2000):
        bits = rng.below(1 << 16) | (rng.below(1 << 16) << 16)
        other = [-1, kernel.DRAW_A, kernel.PASS_A, kernel.TAKE_A][rng.below(4)]
        assert habits._popcount(bits) == kernel._popcount(bits)
        if bits:
            assert habits._lowest(bits) == kernel._lowest(bits)
        count = habits._legal_count(bits, other)
        assert count == kernel._legal_count(bits, other)
        for k in range(count):
            assert habits._nth_legal(bits, other, k) == kernel._nth_legal(bits, other, k)
    for n in range(2, 6):
        for x in range(-n, 2 * n):
            assert habits._seat(x, n) == kernel._seat(x, n)
    plain, words = Rng(77), np.array(Rng(77).words(), dtype=np.uint64)
    for _ in range(100):
        assert habits._tie(plain) == kernel._tie(words)
    assert plain.words() == tuple(int(w) for w in words)


def test_the_plain_bots_play_without_numpy_or_numba() -> None:
    """With numpy and numba missing, the library offers its plain-Python bots (the compiled
    ones are not offered) and a game of each with them plays to the end."""
    code = """
import json, sys
for name in ("numpy", "numba"):
    sys.modules[name] = None  # as if not installed: importing it fails
import mauseloch
from mauseloch.bots import bot_kinds, make_bot
from mauseloch.study.simulate import game_runner
out = {}
for game in mauseloch.GAMES:
    kinds = bot_kinds(game)
    g, stats = game_runner(game)(kinds[-2:] + kinds[:1], 3, {})
    out[game] = [kinds, g.is_over]
print(json.dumps(out))
"""
    env_path = str(ROOT / "src")
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["mau-mau"] == [["random", "heuristic"], True]
    assert out["aus-die-maus"] == [["random", "slow"], True]
    assert out["mausgeflippt"] == [["random", "little", "child", "easy", "normal", "hard"], True]
