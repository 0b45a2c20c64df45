"""What every terminal client shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def save_for_user(console: Any, game: Any, path: Path | None, record: dict[str, Any] | None = None) -> None:
    """Write ``game``'s record (or ``record``) to ``path`` (if asked for) and say how to replay it;
    a file that cannot be written is a clear message and exit code 1, never a traceback."""
    if path is None:
        return
    from mauseloch.record import save

    try:
        save(game, path, record)
    except OSError as exc:
        console.print(f"[red]Could not save the record to {path}: {exc.strerror or exc}[/]")
        raise typer.Exit(1) from None
    console.print(f"Record saved to {path} (replay it with: mauseloch replay {path})")
