"""Output paths checked before the work that fills them: a long simulation or search must not
end in "cannot write" and lose its result. Each check raises ``ValueError`` naming the path.

Writing is tried, not judged by permission bits: root passes every bit test, and a read-only
mount or ``/proc`` refuses whatever the bits say. The tries leave nothing behind."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Collection
from pathlib import Path


def _writable_dir(folder: Path, what: str) -> None:
    if not folder.exists():
        raise ValueError(f"{what}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise ValueError(f"{what}: {folder} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=".mauseloch-", suffix=".probe", dir=folder)
    except OSError as exc:
        raise ValueError(f"{what}: cannot write in the folder {folder}: {exc.strerror or exc}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_output_file(path: str | Path, what: str = "output file", suffixes: Collection[str] = ()) -> Path:
    """A file can be written at ``path`` (in an existing, writable folder; not a folder itself);
    with ``suffixes`` (lower case, without the dot), its suffix must be one of them."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{what}: {target} is a folder, not a file")
    suffix = target.suffix.lower().lstrip(".")
    if suffixes and suffix and suffix not in suffixes:
        raise ValueError(f"{what}: cannot write .{suffix} files; use one of {', '.join(sorted(suffixes))}")
    _writable_dir(target.parent if str(target.parent) else Path("."), what)
    existed = target.exists()
    try:  # appending nothing leaves an existing file as it was; a new one is removed again
        with target.open("ab" if existed else "xb"):
            pass
    except OSError as exc:
        raise ValueError(f"{what}: cannot write {target}: {exc.strerror or exc}") from None
    if not existed:
        with contextlib.suppress(OSError):
            target.unlink()
    return target


def check_output_dir(path: str | Path, what: str = "output folder") -> Path:
    """A folder that exists and is writable, or can be made: its nearest existing ancestor is a
    writable folder (``mkdir(parents=True)`` will make the rest)."""
    target = Path(path)
    probe = target
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise ValueError(f"{what}: {probe} is a file, so {target} cannot be a folder")
    _writable_dir(probe, what)
    return target
