"""The package's structure: what no single behaviour test sees.

- No import cycle among the modules of ``mauseloch``: a module imported by another, at its top,
  inside a function or under ``if TYPE_CHECKING:`` (a type named both ways is a cycle of meaning
  even where it never runs), is an edge, and no path of such edges comes back to where it started.
- A game's declaration holds facts: no string in it names a module (``"module:function"``, a
  dotted path), so its hooks are functions that mypy and the import graph above see.
- The library (everything but the front ends and the plotting helpers) imports neither Typer,
  Click, Rich nor matplotlib: not when imported, and nowhere in its source.
- No comment or docstring in the source or the tests names an issue: they say what and why.
- Every seed stream is named in ``mauseloch.core.seeds``: no ``derive_seed`` call spells a number.
- No module imports a layer above it (:data:`UPWARD`).
- The storage is split by concern (``server/storage/``): no module of it over
  :data:`MAX_STORAGE_MODULE` lines, and none silences the type checker.
- Each game's code lives under its game (``games/<game>/``) or is named after it: no generic
  module imports a game's module (but the registries that list the games and the public paths
  that only re-export one), and no game's module imports another game's.
- Two figures that the layout brings down and that must not grow back: the ``dict[str, Any]`` in
  the source, and the files whose path names no game that still spell a game's id.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path

from tests.paths import ROOT

SRC = ROOT / "src"
PACKAGE = SRC / "mauseloch"

# The front ends (the command line, the terminal games, the server with its web page) and the
# plotting helpers: the only modules that may use a terminal or plotting library (everything below
# a name that is a package). The server runs on uvicorn, which brings Click.
FRONT_ENDS = (
    "mauseloch.cli",
    "mauseloch.tui",
    "mauseloch.server",
    "mauseloch.games.maumau.learn.cli",
    "mauseloch.games.ausdiemaus.cli",
    "mauseloch.study.plots",
)
CLI_AND_PLOTTING = ("typer", "click", "rich", "matplotlib")

# Figures as they stand, lowered as the typed boundaries and the game declarations land; the
# targets are fewer than 30 (true JSON edges only) and at most 3 (the registries).
MAX_DICT_STR_ANY = 4  # the JSON alias, the SQL bind parameters alias, two driver keyword sets
# The alias for a JSON object (core/shapes.JSONObject) belongs at true JSON edges only; internal
# shapes that still carry it become structs or TypedDicts, and this falls with them.
MAX_JSONOBJECT = 75
MAX_FILES_SPELLING_A_GAME = 3
MAX_STORAGE_MODULE = 400  # lines of one module of server/storage/ (one concern each)
# The registries that may list the games by name: the library's list of its game packages, and the
# page's table of game modules (it keys them by the declared module name, so today it spells none).
GAME_REGISTRIES = ("games/__init__.py", "web/js/games.js")
GAME_IDS = ("mau-mau", "aus-die-maus", "mausgeflippt")
IDS = "|".join(re.escape(g) for g in GAME_IDS)
GAME_WORDS = ("maumau", "mau-mau", "mau_mau", "ausdiemaus", "aus-die-maus", "aus_die_maus", "mausgeflippt")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module) -> Iterator[tuple[str, ast.Import | ast.ImportFrom]]:
    """Every import statement with when it runs: "module" (when the module is imported),
    "typing" (under ``if TYPE_CHECKING:``: never) or "local" (inside a function: when it runs)."""

    def walk(nodes: list[ast.stmt], when: str) -> Iterator[tuple[str, ast.Import | ast.ImportFrom]]:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                yield when, node
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from walk(node.body, "local")
            elif isinstance(node, ast.If) and is_type_checking(node.test):
                yield from walk(node.body, "typing")
                yield from walk(node.orelse, when)
            else:  # class bodies, if/try/with at the top run with the module
                for field in ("body", "orelse", "finalbody", "handlers"):
                    for inner in getattr(node, field, None) or []:
                        if isinstance(inner, ast.ExceptHandler):
                            yield from walk(inner.body, when)
                        elif isinstance(inner, ast.stmt):
                            yield from walk([inner], when)

    yield from walk(tree.body, "module")


def targets(name: str, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> set[str]:
    """The package's modules an import statement in module ``name`` loads by name (a package's
    own ``__init__`` that Python runs on the way is not counted: every module would depend on it)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in known}
    if node.level:
        package = name.split(".")
        is_package = known[name].name == "__init__.py"
        base = package[: len(package) - node.level + (1 if is_package else 0)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    found = set()
    for a in node.names:
        if f"{source}.{a.name}" in known:
            found.add(f"{source}.{a.name}")
        elif source in known:
            found.add(source)
    return found


def import_graph() -> dict[str, dict[str, set[str]]]:
    """``graph[when][module]``: the modules it imports at that time (see :func:`imports`)."""
    known = modules()
    graph: dict[str, dict[str, set[str]]] = {w: {m: set() for m in known} for w in ("module", "typing", "local")}
    for name, path in known.items():
        for when, node in imports(ast.parse(path.read_text(), str(path))):
            graph[when][name] |= targets(name, node, known) - {name}
    return graph


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def merged(*graphs: dict[str, set[str]]) -> dict[str, set[str]]:
    return {m: set().union(*(g[m] for g in graphs)) for m in graphs[0]}


def test_no_import_cycle() -> None:
    graph = import_graph()
    found = {when: cycles(graph[when] if when == "module" else merged(graph["module"], graph[when])) for when in graph}
    everything = cycles(merged(*graph.values()))
    print(f"\nimport cycles: {len(found['module'])} at module level, {len(found['local'])} with function-local "
          f"imports, {len(found['typing'])} with TYPE_CHECKING ones, {len(everything)} with all")  # fmt: skip
    assert everything == [], "import cycles: " + "; ".join(" ↔ ".join(c) for c in everything)


def test_the_cycle_finder_finds_cycles() -> None:
    """The check above can fail: a known cycle is found, a chain is not one."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nimport x\nif TYPE_CHECKING:\n    import y\n"
        "def f():\n    import z\nclass C:\n    import w\n"
    )
    whens = {(when, node.names[0].name) for when, node in imports(tree) if isinstance(node, ast.Import)}
    assert whens == {("module", "x"), ("typing", "y"), ("local", "z"), ("module", "w")}


# The modules outside games/ that list the games (each game's terminal module, each game's own
# commands of the command line).
GAME_LISTS = ("mauseloch.tui.games", "mauseloch.game_commands")
# Generic modules that still use one game's code, with what for; this list only shrinks.
STILL_BOUND_TO_A_GAME: dict[str, str] = {}


def game_of(module: str, packages: tuple[str, ...]) -> str | None:
    """The game a module serves by its place (``mauseloch.games.<game>...``) or its name
    (``tui/maumau.py``, ``envs/maumau_v0.py``); None for a generic module."""
    parts = module.split(".")
    if parts[:2] == ["mauseloch", "games"] and len(parts) > 2:
        return parts[2]
    return next((g for g in packages if parts[-1] == g or parts[-1].startswith(f"{g}_")), None)


def only_reexports(path: Path) -> bool:
    """Whether a module only re-exports names (a docstring, imports, ``__all__``): a public path kept."""
    body = ast.parse(path.read_text(), str(path)).body
    return all(
        isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
        or (isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["__all__"])
        for node in body
    )


def games_used(graph: dict[str, set[str]], packages: tuple[str, ...]) -> dict[str, set[str]]:
    """For each module that imports a game's code, the games whose code it imports, its own left out."""
    used = {}
    for name, imported in graph.items():
        games = {g for m in imported if (g := game_of(m, packages))} - {game_of(name, packages)}
        if games:
            used[name] = games
    return used


def test_each_games_code_lives_with_its_game() -> None:
    from mauseloch.games import GAME_PACKAGES

    known = modules()
    used = games_used(merged(*import_graph().values()), GAME_PACKAGES)
    crossing = {m: g for m, g in used.items() if game_of(m, GAME_PACKAGES)}
    assert crossing == {}, f"a game's module imports another game's: {crossing}"
    generic = {m for m in used if m not in GAME_LISTS and not only_reexports(known[m])}
    print(f"\ngeneric modules that use one game's code: {len(generic)}: {', '.join(sorted(generic))}")
    assert generic == set(STILL_BOUND_TO_A_GAME), sorted(generic)


def test_the_game_code_check_finds_game_code() -> None:
    """The check above can fail: a generic module importing a game's is found, a game's own is not."""
    packages = ("maumau", "ausdiemaus")
    graph = {
        "mauseloch.study.analyze": {"mauseloch.games.ausdiemaus.kernel"},
        "mauseloch.games.maumau.kernel": {"mauseloch.games.ausdiemaus.kernel", "mauseloch.kernels.rng"},
        "mauseloch.tui.maumau": {"mauseloch.games.maumau"},
        "mauseloch.cli": {"mauseloch.tui.ausdiemaus", "mauseloch.tui.common"},
        "mauseloch.bots": {"mauseloch.core.registry"},
    }
    assert games_used(graph, packages) == {
        "mauseloch.study.analyze": {"ausdiemaus"},
        "mauseloch.games.maumau.kernel": {"ausdiemaus"},
        "mauseloch.cli": {"ausdiemaus"},
    }
    assert only_reexports(PACKAGE / "envs" / "vector.py")
    assert only_reexports(PACKAGE / "envs" / "openspiel.py")
    assert not only_reexports(PACKAGE / "envs" / "spiel.py")


# "module:function", or a dotted path such as "mauseloch.tui.maumau"
MODULE_NAME = re.compile(r"[A-Za-z_][\w]*(\.[\w]+)*:[\w.]+|[A-Za-z_][\w]*(\.[\w]+)+")


def strings_in(value: object) -> Iterator[str]:
    """Every string a declaration holds, field by field (dataclasses, tuples, dicts)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from strings_in(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from strings_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)


def test_a_declaration_holds_facts_not_module_names() -> None:
    import mauseloch
    from tests.games import fourth_game

    for info in (*mauseloch.GAMES.values(), fourth_game.INFO):
        named = [s for s in strings_in(info) if MODULE_NAME.fullmatch(s)]
        assert named == [], f"{info.name} names modules in its declaration: {named}"
        hooks = [info.seating.prepare, *(k.make for k in info.seating.bots)]
        hooks += [getattr(info.simulation, f.name) for f in dataclasses.fields(info.simulation)][:4]
        assert all(h is None or callable(h) for h in hooks), info.name
    assert [s for s in ("mauseloch.bots.search:search", "mauseloch.tui.maumau") if MODULE_NAME.fullmatch(s)] == [
        "mauseloch.bots.search:search",
        "mauseloch.tui.maumau",
    ]
    assert not MODULE_NAME.fullmatch("Match suit or rank, get rid of your cards.")


def library_modules() -> list[str]:
    return [m for m in modules() if not any(m == f or m.startswith(f + ".") for f in FRONT_ENDS)]


def test_the_library_does_not_import_cli_or_plotting_libraries() -> None:
    """Importing every library module loads none of them, and no library source imports them
    anywhere (not even inside a function): the front ends and study.plots alone do."""
    code = (
        "import importlib, sys\n"
        f"for m in {library_modules()!r}:\n"
        "    importlib.import_module(m)\n"
        f"print(sorted({{n.split('.')[0] for n in sys.modules}} & {set(CLI_AND_PLOTTING)!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
    known = modules()
    offenders = []
    for name in library_modules():
        for _, node in imports(ast.parse(known[name].read_text())):
            roots = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            offenders += [f"{name} imports {r}" for r in roots if r.split(".")[0] in CLI_AND_PLOTTING]
    assert offenders == []


def test_dict_str_any_does_not_grow() -> None:
    count = sum(p.read_text().count("dict[str, Any]") for p in PACKAGE.rglob("*.py"))
    print(f"\ndict[str, Any] in src/mauseloch: {count} (at most {MAX_DICT_STR_ANY}; target < 30)")
    assert count <= MAX_DICT_STR_ANY


def test_jsonobject_does_not_grow() -> None:
    count = sum(p.read_text().count("JSONObject") for p in PACKAGE.rglob("*.py"))
    print(f"\nJSONObject in src/mauseloch: {count} (at most {MAX_JSONOBJECT}; true JSON edges only)")
    assert count <= MAX_JSONOBJECT


def test_http_answers_are_declared_structs() -> None:
    """The server answers HTTP with a struct of server/protocol.py (in docs/events.schema.json's
    ``wire``) or a record's TypedDict: never a dict built where it answers (``JSON({...})``) nor
    Starlette's ``JSONResponse``, whose body no schema declares."""
    built = [
        f"{p.relative_to(PACKAGE)}:{n}"
        for p in sorted((PACKAGE / "server").rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"\bJSONResponse\(|\bJSON\(\s*\{", line)
    ]
    assert built == [], built


# Edges that would point up the server's layers: the lobby below the Bot API that seats bots in
# it (the Bot API gives the lobby its BotSeats), the table's machine below the web stack.
UPWARD = (("mauseloch.server.lobby", "mauseloch.server.botapi"), ("mauseloch.server.table", "mauseloch.server.session"))


def test_no_module_imports_a_layer_above_it() -> None:
    graph = import_graph()
    edges = {m: graph["module"][m] | graph["local"][m] | graph["typing"][m] for m in graph["module"]}
    upward = [
        f"{m} imports {t}"
        for below, above in UPWARD
        for m, targets in edges.items()
        if m == below or m.startswith(below + ".")
        for t in targets
        if t == above or t.startswith(above + ".")
    ]
    assert upward == []


def test_the_storage_is_split_by_concern() -> None:
    storage = PACKAGE / "server" / "storage"
    assert not (PACKAGE / "server" / "storage.py").exists()
    lines = {p.name: len(p.read_text().splitlines()) for p in sorted(storage.glob("*.py"))}
    print(f"\nserver/storage/: {lines}")
    assert {"schema.py", "migrations.py", "sqlite.py", "postgres.py", "store.py"} <= set(lines)
    assert max(lines.values()) <= MAX_STORAGE_MODULE
    assert [p.name for p in storage.glob("*.py") if "type: ignore" in p.read_text()] == []


def spelled_game_ids(path: Path) -> int:
    """How often a game's id stands as a string in the code (Python strings, JavaScript strings
    outside comments); docstrings and comments that mention a game do not count."""
    text = path.read_text()
    if path.suffix == ".py":
        n = 0
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING and re.fullmatch(rf"""[rbuRBU]?(["'])({IDS})\1""", tok.string):
                n += 1
        return n
    code = re.sub(r"(?m)^\s*//.*$", "", re.sub(r"/\*.*?\*/", "", text, flags=re.S))
    return len(re.findall(rf"""(["'`])({IDS})\1""", code))


def test_few_files_that_name_no_game_spell_a_game_id() -> None:
    files = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*")
        if p.suffix in (".py", ".js")
        and not any(w in str(p.relative_to(PACKAGE)).lower() for w in GAME_WORDS)
        and spelled_game_ids(p)
    )
    print(f"\nfiles that name no game but spell a game's id: {len(files)} (at most {MAX_FILES_SPELLING_A_GAME}; "
          f"target 3): {', '.join(files)}")  # fmt: skip
    assert len(files) <= MAX_FILES_SPELLING_A_GAME, files
    assert set(files) <= set(GAME_REGISTRIES), f"only the registries name the games: {files}"


# An issue's number, a defect's or an item's of one: what a comment says instead of what and why
# (spelled in pieces, so that this file does not match itself).
ISSUE_REFERENCE = re.compile(r"(?i)\b(" + "iss" + r"ues?|" + "def" + r"ects?) #?\d+")


def test_no_comment_names_an_issue() -> None:
    places = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("src", "tests")
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in (".py", ".js", ".toml", ".css", ".html") and path.is_file()
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if ISSUE_REFERENCE.search(line)
    ]
    assert places == []


def literal_streams(tree: ast.AST) -> list[int]:
    """The lines of ``derive_seed(seed, stream)`` calls whose stream spells a number (``7``,
    ``np.uint64(2)``, ``100 + seat``) instead of naming it from :mod:`mauseloch.core.seeds`
    (``STREAM_RIVALS + 1``, seat 1 of a named stream, is named)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) == 2:
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            parts = list(ast.walk(node.args[1]))
            numbers = [n for n in parts if isinstance(n, ast.Constant) and type(n.value) is int]
            named = [n for n in parts if isinstance(n, ast.Name) and n.id.startswith("STREAM_")]
            if name == "derive_seed" and numbers and not named:  # STREAM_BOTS + 1: seat 1's stream
                lines.append(node.lineno)
    return lines


def test_every_seed_stream_is_named() -> None:
    places = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("src", "bench", "scripts", "examples")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in literal_streams(ast.parse(path.read_text(), str(path)))
    ]
    assert places == []
    check = "derive_seed(s, 200 + seat)\nderive_seed(s, U64(1))\nderive_seed(s, i)\nderive_seed(s, STREAM_BOTS + 1)"
    assert literal_streams(ast.parse(check)) == [1, 2]
