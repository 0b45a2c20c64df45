"""The offline bundle (``scripts/build_offline.py``) built once a test run for every worker that
needs it: kept in build/test-offline under a hash of everything the build reads (the engine's
sources, the build script, pyproject.toml, Pyodide's npm files, the downloaded wheels), so a
bundle is reused only while those are the same, never a stale one. A file lock keeps two workers
from building it at once; a bundle is moved into place only when complete."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from filelock import FileLock

from tests.paths import ROOT

CACHE = ROOT / "build" / "test-offline"
DOWNLOADS = ROOT / "build" / "downloads"
KEEP_S = 24 * 3600  # bundles of older sources are removed after a day


def build_offline() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_offline", ROOT / "scripts" / "build_offline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _key(build: ModuleType) -> str:
    """A hash of every file the build reads (all of src/mauseloch: more than the bundle packs)."""
    files = [ROOT / "scripts" / "build_offline.py", ROOT / "pyproject.toml", build.PYODIDE / "package.json"]
    files += [build.PYODIDE / name for name in build.PYODIDE_FILES]
    files += sorted(p for p in build.SRC.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files += build.wasm_wheels((build.MSGSPEC,), DOWNLOADS / "pyodide")
    digest = hashlib.sha256()
    for path in files:
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


def bundle() -> Path:
    """The bundle of the sources as they are now, built by the first worker that asks."""
    build = build_offline()
    CACHE.mkdir(parents=True, exist_ok=True)
    with FileLock(str(CACHE / "lock")):  # the key too: a clean clone downloads the wheel first
        key = _key(build)
        done = CACHE / key
        if not (done / "manifest.json").is_file():
            part = CACHE / f"{key}.part"
            build.build(part, DOWNLOADS)
            shutil.rmtree(done, ignore_errors=True)
            part.rename(done)
        for old in CACHE.iterdir():
            if old.is_dir() and old != done and time.time() - old.stat().st_mtime > KEEP_S:
                shutil.rmtree(old, ignore_errors=True)
    return done


RUNNER = ROOT / "scripts" / "pyodide_run.mjs"


def pyodide_command(bundle: Path, *args: str, mounts: dict[Path, str], **kw: Any) -> list[str]:
    """The node command that runs ``args`` (a script or ``-m module`` and its arguments) under the
    bundle's Pyodide, with host folders mounted."""
    cmd = ["node", str(RUNNER), str(bundle)]
    for host, guest in mounts.items():
        cmd += ["--mount", f"{host}:{guest}"]
    for name, value in kw.items():
        cmd += [f"--{name}", value]
    return [*cmd, "--", *args]
