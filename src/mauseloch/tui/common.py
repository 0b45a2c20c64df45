"""What every terminal client shares: safe text, the language, the record file and leaving a game.

Rich reads ``[...]`` in a string as markup, so text that does not come from this package (what a
person typed, record contents, file names, the engine's messages quoting them) only ever reaches
Rich through :func:`shown` (escaped inside markup) or as a ``rich.text.Text`` (:func:`say_error`).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from pathlib import Path
from typing import Any

from mauseloch.core.shapes import Record
from mauseloch.extras import needs
from mauseloch.locale import LANGS, Lang, detect_lang, t

with needs("terminal", __name__):
    import typer
    from rich.markup import escape
    from rich.text import Text

# Exit codes of a game in the terminal, the same in every game: finished or left with ``q`` (or
# the input ended) is 0, bad arguments 2, Ctrl-C 130 (the shell's 128 + SIGINT).
EXIT_BAD_ARGUMENTS = 2
EXIT_INTERRUPTED = 130


def lang_option() -> Any:
    """The ``--lang de|en`` option every command that talks to people takes."""
    return typer.Option(None, "--lang", help=t("term.lang", detect_lang()))


def pick_lang(console: Any, value: str | None) -> Lang:
    """The language asked for with ``--lang``, else the locale's (exit 2 for another one)."""
    if value is None:
        return detect_lang()
    low = value.strip().lower()
    for lang in LANGS:
        if low == lang:
            return lang
    raise fail(console, f"--lang must be one of {', '.join(LANGS)}, got {value!r}")


def options_help(game: str) -> str:
    """``--option``'s help: every option of ``game`` with its name and help from the catalogue
    (the lobby's words) in the locale's language; the engine's description where it has none."""
    from mauseloch.core.registry import game_info

    lang = detect_lang()
    lines = []
    for spec in game_info(game).options:
        label, help_text = t(f"opt.{spec.name}", lang), t(f"optHelp.{spec.name}", lang)
        if help_text == f"optHelp.{spec.name}":
            label, help_text = spec.name.replace("_", " "), spec.description
        default = t(f"optDefault.{spec.name}", lang)
        if default == f"optDefault.{spec.name}":  # the catalogue words a default only where it varies
            word = f"common.{'yes' if spec.default else 'no'}"
            default = t(word, lang) if spec.type is bool else str(spec.default)
        name = f"{spec.name}={'true/false' if spec.type is bool else 'N'}"
        lines.append(t("term.optionLine", lang, name=name, label=label, help=help_text, default=default))
    return t("term.optionHelp", lang, options=" ".join(lines))


def end_reason(game: str, reason: str, lang: Lang = "en") -> str:
    """Why a game of ``game`` ended, in its own words (``<words>.reason.<reason>``); the reason as
    the result says it where the catalogue has none."""
    from mauseloch.core.registry import game_info

    key = f"{game_info(game).words}.reason.{reason}"
    text = t(key, lang)
    return shown(reason) if text == key else text


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


def save_for_user(console: Any, game: Any, path: Path | None, record: Record | None = None, lang: Lang = "en") -> None:
    """Write ``game``'s record (a game's or a match's, or ``record``) to ``path`` (if asked for)
    and say how to replay it and go on with it; a file that cannot be written (checked at the
    start, but it may go away) is a clear message and exit code 1, never a traceback."""
    if path is None:
        return
    from mauseloch.core.record import save

    try:
        save(game, path, record)
    except OSError as exc:
        say_error(console, f"Could not save the record to {path}: {exc.strerror or exc}", prefix="")
        raise typer.Exit(1) from None
    console.print(Text(t("term.saved", lang, path=path, game=game.name)), soft_wrap=True)


def ask(console: Any, prompt: str) -> str:
    """``console.input(prompt)`` that never loses a Ctrl-C pressed as the prompt appears.

    ``input()`` blocks in C: a SIGINT that comes after Python's last look at its signals and
    before the read starts waits there for the next key (4 of 40 Ctrl-Cs sent the moment the
    prompt showed, on a pseudo-terminal, before this). On a terminal the line is waited for in
    steps of 0.2 s instead, so Python's handler runs between them and raises KeyboardInterrupt."""
    try:
        fd = sys.stdin.fileno()
        waits = os.isatty(fd) and os.name != "nt"  # Windows: select() takes sockets only
    except (AttributeError, ValueError, OSError):  # a test's replaced stdin
        waits = False
    if not waits:
        return str(console.input(prompt))
    console.print(prompt, end="")
    while not select.select([fd], [], [], 0.2)[0]:
        pass
    line = sys.stdin.readline()  # a terminal hands over one line a read: nothing waits in a buffer
    if not line:
        raise EOFError
    return line.rstrip("\n")


def offer_save(console: Any, lang: Lang = "en") -> Path | None:
    """After Ctrl-C without ``--save``: ask for a file to save the game in (None: not wanted,
    or the input ended, or a second Ctrl-C)."""
    try:
        answer = ask(console, t("term.offerSave", lang)).strip()
    except (EOFError, KeyboardInterrupt):
        return None
    if not answer:
        return None
    path = Path(answer).expanduser()
    try:
        check_save_path(console, path)
    except typer.Exit:
        return None
    return path


def leave_unfinished(
    console: Any,
    game: Any,
    save: Path | None,
    *,
    interrupted: bool,
    record: Record | None = None,
    offer: bool = False,
    lang: Lang = "en",
) -> typer.Exit:
    """The game was left before its end (``q``, the input ended, or Ctrl-C): say so, keep the
    record if asked for (after Ctrl-C with ``offer``, ask where to keep it), and give the exit
    code every game uses."""
    left = f"[yellow]{t('term.left', lang)}[/]"
    console.print("\n" + left if interrupted else left)
    if save is None and interrupted and offer:
        save = offer_save(console, lang)
    save_for_user(console, game, save, record, lang)
    return typer.Exit(EXIT_INTERRUPTED if interrupted else 0)


def show_standings(console: Any, match: Any, names: list[str], lang: Lang) -> None:
    """A match's standings after its latest deal (any game with match play)."""
    from rich.table import Table

    table = Table(title=t("match.standings", lang, deal=match.deal_number))
    for column in ("table.rank", "table.player", "match.deal", "match.total"):
        table.add_column(t(column, lang))
    for row in sorted(match.standings(), key=lambda r: (r["rank"], r["player"])):
        table.add_row(str(row["rank"]), shown(names[row["player"]]), str(row["last"]), f"[bold]{row['total']}[/]")
    console.print(table)
