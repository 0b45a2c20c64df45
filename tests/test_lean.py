"""The lean library: ``pip install mauseloch`` needs msgspec alone, and a missing extra says which.

- ``import mauseloch`` and whole games of every game, with the pure-Python bots, import nothing
  outside the standard library and msgspec (a fresh interpreter's ``sys.modules``).
- Every module's imports of another package at its top sit in ``with needs(extra, ...)``
  (:mod:`mauseloch.extras`), so importing it without that extra is a one-line hint, never a bare
  ``ModuleNotFoundError``; and taking an extra's packages away shows the hint where it matters:
  the learning environments, the compiled bots, the command line and its commands.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mauseloch.extras import EXTRAS, MissingExtra, needs, require
from tests.paths import ROOT

SRC = ROOT / "src"
PACKAGE = SRC / "mauseloch"
LEAN = {"mauseloch", "msgspec"}  # what the library may import beyond the standard library
OPTIONAL = {"typing_extensions"}  # msgspec imports it where it is installed, and does without


def _run(code: str, *, block: tuple[str, ...] = (), args: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter with the sources first on the path and the packages
    ``block`` taken away (``None`` in ``sys.modules``: importing one raises ``ModuleNotFoundError``,
    as when it is not installed)."""
    prelude = f"import sys\nfor _name in {block!r}:\n    sys.modules[_name] = None\n"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


PLAY_EVERY_GAME = """
    import json, sys
    before = set(sys.modules)
    import mauseloch
    from mauseloch.bots import bot_kinds, make_bot

    for name, info in mauseloch.GAMES.items():
        kinds = bot_kinds(name)
        pure = [k for k in kinds if not any(b.needs for b in info.seating.bots if b.name == k)]
        for kind in pure:
            g = mauseloch.new_game(name, players=info.min_players, seed=7)
            bots = [make_bot(name, kind, seat) for seat in range(info.min_players)]
            while not g.is_over:
                seats = sorted(g.acting_seats)
                if not seats:
                    g.play("timeout")
                    continue
                if g.to_move is not None:
                    s = g.to_move
                    g.play(bots[s].choose(g.typed_view(s), g.legal_moves()), seat=s)
                else:
                    moves = {s: bots[s].react(g.typed_view(s), g.legal_moves(s)) for s in seats}
                    acted = [(ms, s, m) for s, (m, ms) in moves.items() if m is not None]
                    if acted:
                        ms, s, m = min(acted)
                        g.play(m, seat=s, ms=ms)
                    else:
                        g.play("timeout")
            mauseloch.replay(g.record())
            g.result()
    added = {m.partition(".")[0] for m in set(sys.modules) - before}
    print(json.dumps(sorted(added - set(sys.stdlib_module_names))))
"""


def test_the_library_and_whole_games_need_msgspec_alone() -> None:
    done = _run(PLAY_EVERY_GAME)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) <= LEAN | OPTIONAL


def test_the_library_plays_with_every_other_package_gone() -> None:
    # the same games where nothing but msgspec could be imported: what a plain install has
    blocked = tuple(sorted({name for names in EXTRAS.values() for name in names} | OPTIONAL))
    done = _run(PLAY_EVERY_GAME, block=blocked)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) <= LEAN


def _needs_blocks(tree: ast.Module) -> list[ast.With]:
    return [
        node
        for node in tree.body
        if isinstance(node, ast.With)
        and any(
            isinstance(item.context_expr, ast.Call)
            and isinstance(item.context_expr.func, ast.Name)
            and item.context_expr.func.id == "needs"
            for item in node.items
        )
    ]


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = ast.unparse(handler.type) if handler.type is not None else ""
    return "ImportError" in caught or "ModuleNotFoundError" in caught


def _unguarded_imports(path: Path) -> list[str]:
    """The imports of another package that run when the module is imported (its body, class
    bodies, ``if``/``try`` blocks, but not functions nor ``if TYPE_CHECKING:``) outside a
    ``with needs(...)`` block."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    guarded = {id(n) for block in _needs_blocks(tree) for n in ast.walk(block)}
    found: list[str] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top not in LEAN and id(node) not in guarded:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno}: {name}")
            if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
                continue  # an optional package, used when present (a speed-up)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit(inner)
            for handler in getattr(node, "handlers", []):
                visit(handler.body)

    visit(tree.body)
    return found


def test_every_import_of_an_extra_is_inside_needs() -> None:
    unguarded = [line for path in sorted(PACKAGE.rglob("*.py")) for line in _unguarded_imports(path)]
    assert not unguarded, "import these inside `with needs(extra, what):` (mauseloch.extras):\n" + "\n".join(unguarded)


def test_needs_turns_a_missing_package_into_the_pip_line() -> None:
    with pytest.raises(MissingExtra) as caught, needs("rl", "this test"):
        import mauseloch_no_such_package  # type: ignore[import-not-found]  # noqa: F401
    said = str(caught.value)
    assert said == (
        "this test needs the rl extra (mauseloch_no_such_package is not installed): pip install 'mauseloch[rl]'"
    )
    assert "\n" not in said and caught.value.name == "mauseloch_no_such_package"
    assert isinstance(caught.value, ModuleNotFoundError)
    with pytest.raises(ModuleNotFoundError) as bug, needs("rl", "this test"):
        import mauseloch.no_such_module  # type: ignore[import-not-found]  # noqa: F401
    assert not isinstance(bug.value, MissingExtra)  # our own module missing is a bug, not an extra
    with pytest.raises(ValueError, match="unknown extra 'rlx'; the extras are terminal, sim, web"):
        require("rlx", "this test")


# (what to import, the package taken away): a module of each extra and area
MISSING = [
    ("mauseloch.envs", "gymnasium"),
    ("mauseloch.envs.maumau_v0", "pettingzoo"),
    ("mauseloch.envs.vector", "numba"),
    ("mauseloch.envs.rlcard", "rlcard"),
    ("mauseloch.envs.openspiel", "pyspiel"),
    ("mauseloch.envs.jax", "jax"),
    ("mauseloch.games.maumau.kernel", "numba"),
    ("mauseloch.server.app", "starlette"),
    ("mauseloch.server.storage.store", "sqlalchemy"),
    ("mauseloch.server.redis_hub", "redis"),
    ("mauseloch.tui.common", "rich"),
    ("mauseloch.games.maumau.learn.dmc", "numpy"),
    ("mauseloch.cli", "typer"),
]
HINT = re.compile(r"^\S+ needs the (\w+) extra \((\w+) is not installed\): pip install 'mauseloch\[(\w+)\]'$")


@pytest.mark.parametrize(("module", "block"), MISSING, ids=[m for m, _ in MISSING])
def test_importing_without_the_extra_says_which_to_install(module: str, block: str) -> None:
    # the hint may come from a module it imports: the extra it names must bring the package
    done = _run(
        f"""
        import importlib
        from mauseloch.extras import MissingExtra
        try:
            importlib.import_module({module!r})
        except MissingExtra as exc:
            print(exc)
        """,
        block=(block,),
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.removesuffix("\n")
    found = HINT.match(line)
    assert found is not None, done.stdout
    extra, package, installed = found.groups()
    assert package == block and installed == extra and block in EXTRAS[extra]


def test_plotting_without_matplotlib_says_which_extra() -> None:
    done = _run(
        """
        from mauseloch.extras import MissingExtra
        from mauseloch.study.plots import plot_formats
        try:
            plot_formats()
        except MissingExtra as exc:
            print(exc)
        """,
        block=("matplotlib",),
    )
    assert done.stdout == "plotting needs the sim extra (matplotlib is not installed): pip install 'mauseloch[sim]'\n"


def test_a_compiled_bot_without_numba_says_which_extra() -> None:
    done = _run(
        """
        from mauseloch.bots import bot_kinds, make_bot
        from mauseloch.extras import MissingExtra
        print(",".join(bot_kinds("mau-mau")))
        try:
            make_bot("mau-mau", "learned")
        except MissingExtra as exc:
            print(exc)
        """,
        block=("numpy", "numba"),
    )
    assert done.returncode == 0, done.stderr
    kinds, hint = done.stdout.splitlines()
    assert kinds == "random,heuristic"  # the compiled kinds are not offered without numpy and numba
    assert hint == "the learned Mau-Mau bot needs the sim extra (numpy is not installed): pip install 'mauseloch[sim]'"


def test_the_command_without_typer_says_which_extra() -> None:
    done = _run("from mauseloch.__main__ import main; main()", block=("typer",), args=("--help",))
    assert done.returncode == 2
    assert done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and "pip install 'mauseloch[terminal]'" in line, done.stderr


@pytest.mark.parametrize(
    ("args", "block", "extra"),
    [
        (("simulate", "mau-mau", "-n", "1"), ("matplotlib",), "sim"),
        (("serve", "--port", "0"), ("starlette",), "web"),
        (("serve", "--help"), ("sqlalchemy",), "web"),
        (("play", "mausgeflippt"), ("textual",), "terminal"),
        (("train", "mau-mau", "-c", "x.toml", "-r", "run"), ("jax",), "train"),
        (("bot-token", "list"), ("sqlalchemy",), "web"),
    ],
    ids=["simulate", "serve", "serve-help", "play", "train", "bot-token"],
)
def test_each_command_says_which_extra_it_needs(args: tuple[str, ...], block: tuple[str, ...], extra: str) -> None:
    done = _run("from mauseloch.__main__ import main; main()", block=block, args=args)
    said = done.stdout + done.stderr
    assert f"pip install 'mauseloch[{extra}]'" in said, said
    assert "Traceback" not in said
    if args[-1] != "--help":
        assert done.returncode == 1, said
