"""Build the offline bundle: what a browser fetches once to play with the network off.

    python scripts/build_offline.py [--out build/offline] [--downloads build/downloads] [--test-wheels]

The bundle is made from the project's own files every time; nothing of it is committed:

- ``pyodide/``: Pyodide's runtime (CPython compiled to WebAssembly) from the npm package that
  package-lock.json pins (``node_modules/pyodide``), only the files ``loadPyodide`` fetches: the
  loader, the compiled interpreter, the standard library and the lock file.
- ``wheels/``: msgspec's wheel for Pyodide (PyPI's ``pyemscripten`` wheel of the version pinned
  here, fetched by ``pip download`` into ``--downloads``/pyodide the first time) and a wheel of the
  engine's pure-Python part built now from ``src/`` (:data:`PARTS`): the engine, the games, the
  bots that decide in plain Python, the referee of reaction windows and the words.
- a ``.gz`` beside every file that gzip makes smaller (what a server sends with
  ``Content-Encoding: gzip``), and ``manifest.json``: each file's bytes, its bytes as transferred
  (the smaller of the two) and its sha256, and their sums.

Every module in the engine's wheel imports with the standard library and msgspec alone
(``tests/offline`` imports each one under Pyodide).

``--test-wheels`` also fetches (once) the wheels the tests need to run pytest under Pyodide
(:data:`TEST_WHEELS`, the test environment's versions) into ``--downloads``/pyodide-tests; they
are no part of the bundle.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "mauseloch"
PYODIDE = ROOT / "node_modules" / "pyodide"

# The runtime files loadPyodide fetches (pyodide.js, the source maps and the type files are not
# needed: the page loads the ES module).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# msgspec's wheel for Pyodide 314 (CPython 3.14, Emscripten ABI 2026_0) from PyPI.
MSGSPEC = "msgspec==0.23.0"
WASM_PLATFORM = ("--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14")
WASM_ABI = ("--implementation", "cp", "--abi", "cp314")

# pytest and hypothesis under Pyodide (tests/offline runs the contract test there), every wheel
# pinned: the versions of the test environment.
TEST_WHEELS = (
    "pytest==9.2.0",
    "pluggy==1.7.0",
    "iniconfig==2.3.1",
    "packaging==26.4",
    "pygments==2.21.0",
    "hypothesis==6.170.27",
    "sortedcontainers==2.4.0",
)

# The engine's pure-Python part, by concept: paths under src/mauseloch (a folder: its modules
# and data files, less the modules that need an extra).
PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the library's API and its table of extras", ("__init__.py", "py.typed", "extras.py")),
    ("the engine: moves, views, events, records, seeds", ("core",)),
    (
        "the games: their rules, and their bots that decide in plain Python (the Mau-Mau heuristic, "
        "the Mausgeflippt reaction levels)",
        ("games",),
    ),
    ("the bots of every game: the registry, the random bot", ("bots",)),
    ("the referee of reaction windows", ("realtime",)),
    ("the words, German and English", ("locale",)),
    (
        "the table as the server runs it, its frames and its runner for the offline page (server/local.py)",
        (
            "server/__init__.py",
            "server/table",
            "server/bodies.py",
            "server/clock.py",
            "server/emotes.py",
            "server/hub.py",
            "server/local.py",
            "server/match.py",
            "server/names.py",
            "server/protocol.py",
            "server/reactions.py",
            "server/records.py",
            "server/seats.py",
            "server/storage/__init__.py",
            "server/storage/rows.py",
            "server/summary.py",
        ),
    ),
)
# Left out: every module that imports an extra's packages (``with needs(...)`` at its top,
# mauseloch.extras). A game's simulator hooks stay in: its declaration names them (they import
# a kernel only when called, which the page never does).
DATA_SUFFIXES = (".py", ".toml", ".typed")


def needs_an_extra(path: Path) -> bool:
    """Whether the module imports an extra's packages: a ``with needs(...)`` at its top."""
    if path.suffix != ".py":
        return False
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.With):
            for item in node.items:
                call = item.context_expr
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "needs":
                    return True
    return False


def engine_files() -> list[Path]:
    """The engine's files for the wheel, as paths relative to src/mauseloch, sorted."""
    out: set[Path] = set()
    for _, paths in PARTS:
        for rel in paths:
            path = SRC / rel
            if path.is_dir():
                found = [p for p in path.rglob("*") if p.is_file() and p.suffix in DATA_SUFFIXES]
                out.update(p.relative_to(SRC) for p in found if not needs_an_extra(p))
            elif path.is_file():
                out.add(Path(rel))
            else:
                raise SystemExit(f"build_offline: {path} is named in PARTS but does not exist")
    return sorted(out)


def engine_modules() -> list[str]:
    """The modules in the engine's wheel (``mauseloch.core.engine``, ...)."""
    names = []
    for rel in engine_files():
        if rel.suffix == ".py":
            parts = ["mauseloch", *rel.with_suffix("").parts]
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def version() -> str:
    """The library's version: pyproject.toml's, its one place (``mauseloch.__version__`` reads it
    from the installed wheel's metadata, in the browser too)."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        found = tomllib.load(f)["project"].get("version")
    if not isinstance(found, str):
        raise SystemExit("build_offline: pyproject.toml's [project] sets no version")
    return found


STAGE_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "mauseloch"
version = "{version}"
description = "Mauseloch's engine for the offline page, built by scripts/build_offline.py"
requires-python = ">=3.11"
license = "MIT"
dependencies = ["msgspec"]

[tool.setuptools.packages.find]
where = ["src"]

[tool.setuptools.package-data]
"*" = ["*.toml", "py.typed"]
"""


def build_engine_wheel(out: Path) -> Path:
    """A wheel of the files :func:`engine_files` lists, built by setuptools in a staging tree."""
    with tempfile.TemporaryDirectory(prefix="mauseloch-offline-") as tmp:
        stage = Path(tmp)
        (stage / "pyproject.toml").write_text(STAGE_PYPROJECT.format(version=version()), encoding="utf-8")
        for rel in engine_files():
            target = stage / "src" / "mauseloch" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(SRC / rel, target)
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), "."],
            check=True,
            cwd=stage,
        )
    wheels = sorted(out.glob("mauseloch-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"build_offline: expected one engine wheel in {out}, found {wheels}")
    return wheels[0]


def wasm_wheels(pins: tuple[str, ...], folder: Path) -> list[Path]:
    """The Pyodide wheels of ``pins`` (``name==version``, no dependencies), downloaded into
    ``folder`` by pip the first time."""

    def found() -> list[Path]:
        out = []
        for pin in pins:
            name, _, pinned = pin.partition("==")
            out += sorted(folder.glob(f"{name.replace('-', '_')}-{pinned}-*.whl"))
        return out

    if len(found()) != len(pins):
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", *pins, "--no-deps", "--only-binary=:all:",
             *WASM_PLATFORM, *WASM_ABI, "-d", str(folder)],
            check=True,
        )  # fmt: skip
    wheels = found()
    if len(wheels) != len(pins):
        raise SystemExit(f"build_offline: expected one wheel for each of {pins} in {folder}, found {wheels}")
    return wheels


def test_wheels(downloads: Path) -> Path:
    """The folder of :data:`TEST_WHEELS`, fetched there the first time."""
    folder = downloads / "pyodide-tests"
    wasm_wheels(TEST_WHEELS, folder)
    return folder


def compressed(path: Path) -> int:
    """``path``'s bytes as transferred: a ``.gz`` beside it when gzip makes it smaller."""
    data = path.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    if len(packed) < len(data):
        path.with_name(path.name + ".gz").write_bytes(packed)
        return len(packed)
    return len(data)


def build(out: Path, downloads: Path) -> dict[str, object]:
    """Build the bundle into ``out`` (emptied first); returns the manifest it writes there."""
    missing = [f for f in PYODIDE_FILES if not (PYODIDE / f).is_file()]
    if missing:
        raise SystemExit(f"build_offline: {', '.join(missing)} not in {PYODIDE}: run `npm ci` (package-lock.json)")
    if out.exists():
        shutil.rmtree(out)
    (out / "pyodide").mkdir(parents=True)
    (out / "wheels").mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(PYODIDE / name, out / "pyodide" / name)
    (wheel,) = wasm_wheels((MSGSPEC,), downloads / "pyodide")
    shutil.copyfile(wheel, out / "wheels" / wheel.name)
    engine = build_engine_wheel(out / "wheels")
    files = []
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        data = path.read_bytes()
        files.append(
            {
                "path": path.relative_to(out).as_posix(),
                "bytes": len(data),
                "transferred": compressed(path),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        )
    manifest: dict[str, object] = {
        "pyodide": json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))["version"],
        "msgspec": MSGSPEC.partition("==")[2],
        "engine_wheel": engine.name,
        "engine_modules": engine_modules(),
        "parts": [{"what": what, "paths": list(paths)} for what, paths in PARTS],
        "files": files,
        "bytes": sum(int(f["bytes"]) for f in files),  # type: ignore[call-overload]
        "transferred": sum(int(f["transferred"]) for f in files),  # type: ignore[call-overload]
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "offline")
    parser.add_argument("--downloads", type=Path, default=ROOT / "build" / "downloads")
    parser.add_argument("--test-wheels", action="store_true", help="also fetch the wheels the tests run under Pyodide")
    args = parser.parse_args(argv)
    manifest = build(args.out, args.downloads)
    if args.test_wheels:
        print(f"the tests' wheels for Pyodide: {test_wheels(args.downloads)}", file=sys.stderr)
    for f in manifest["files"]:  # type: ignore[attr-defined]
        print(f"{f['transferred']:>10,} {f['bytes']:>10,}  {f['path']}", file=sys.stderr)
    print(f"{manifest['transferred']:>10,} {manifest['bytes']:>10,}  bytes as transferred, on disk", file=sys.stderr)


if __name__ == "__main__":
    main()
