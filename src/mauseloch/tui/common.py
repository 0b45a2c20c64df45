"""What every terminal client shares: safe text, plain English, the record file and leaving a game.

Rich reads ``[...]`` in a string as markup, so text that does not come from this package (what a
person typed, record contents, file names, the engine's messages quoting them) only ever reaches
Rich through :func:`shown` (escaped inside markup) or as a ``rich.text.Text`` (:func:`say_error`).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.text import Text

# Exit codes of a game in the terminal, the same in every game: finished or left with ``q`` (or
# the input ended) is 0, bad arguments 2, Ctrl-C 130 (the shell's 128 + SIGINT).
EXIT_BAD_ARGUMENTS = 2
EXIT_INTERRUPTED = 130


def shown(value: object) -> str:
    """``value`` as text to put inside Rich markup: shown as it is, never read as a tag."""
    return escape(str(value))


def say_error(console: Any, message: object, prefix: str = "Error: ") -> None:
    """One red line; ``message`` is plain text (brackets in it stay visible)."""
    console.print(Text(f"{prefix}{message}", style="red"), soft_wrap=True)  # one line, never cut


def fail(console: Any, message: object, code: int = EXIT_BAD_ARGUMENTS) -> typer.Exit:
    """Say what is wrong in one line; the ``typer.Exit`` to raise (``raise fail(...) from None``)."""
    say_error(console, message)
    return typer.Exit(code)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``1 mouse``, ``3 mice``."""
    return f"{count} {word if count == 1 else words or word + 's'}"


def says(name: str, verb: str) -> str:
    """``Bot 1 flips`` / ``You flip``: the verb agrees with the player's name."""
    if name == "You":
        return f"You {verb}"
    return f"{name} {verb}es" if verb.endswith(("ch", "sh", "s", "x")) else f"{name} {verb}s"


def check_save_path(console: Any, path: Path | None) -> None:
    """Before the game starts: make sure the record can be written to ``path`` (exit 2 with one
    line if not), and say so when an existing file will be replaced."""
    if path is None:
        return
    if path.is_dir():
        raise fail(console, f"cannot save the record to {path}: it is a folder")
    existed = path.exists()
    try:
        # really open it (permission bits alone do not tell, e.g. for root or read-only mounts);
        # appending nothing leaves an existing file as it is, a new one is removed again
        with path.open("a" if existed else "x", encoding="utf-8"):
            pass
    except OSError as exc:
        raise fail(console, f"cannot save the record to {path}: {exc.strerror or exc}") from None
    if existed:
        console.print(Text(f"Note: {path} exists and will be overwritten with this game's record."), soft_wrap=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def save_for_user(console: Any, game: Any, path: Path | None, record: dict[str, Any] | None = None) -> None:
    """Write ``game``'s record (or ``record``) to ``path`` (if asked for) and say how to replay it;
    a file that cannot be written (checked at the start, but it may go away) is a clear message
    and exit code 1, never a traceback."""
    if path is None:
        return
    from mauseloch.record import save

    try:
        save(game, path, record)
    except OSError as exc:
        say_error(console, f"Could not save the record to {path}: {exc.strerror or exc}", prefix="")
        raise typer.Exit(1) from None
    console.print(Text(f"Record saved to {path} (replay it with: mauseloch replay {path})"), soft_wrap=True)


def leave_unfinished(
    console: Any, game: Any, save: Path | None, *, interrupted: bool, record: dict[str, Any] | None = None
) -> typer.Exit:
    """The game was left before its end (``q``, the input ended, or Ctrl-C): say so, keep the
    record if asked for, and give the exit code every game uses."""
    console.print("\n[yellow]Game left unfinished.[/]" if interrupted else "[yellow]Game left unfinished.[/]")
    save_for_user(console, game, save, record)
    return typer.Exit(EXIT_INTERRUPTED if interrupted else 0)
