"""The ``mauseloch`` command's launcher (``python -m mauseloch`` too).

The command line is Typer and Rich, which every extra with commands brings but the library alone
does not: without them it says in one line what to install instead of a traceback.
"""

from __future__ import annotations

import sys

from mauseloch.extras import MissingExtra, pip_line


def main() -> None:
    try:
        from mauseloch.cli import main as run
    except MissingExtra as exc:
        extras = ", ".join(f"{pip_line(e)} ({what})" for e, what in WHICH)
        sys.stderr.write(f"mauseloch: the command line needs an extra ({exc.name} is not installed): {extras}\n")
        raise SystemExit(2) from None
    run()


# The extras that bring the command line, with the commands each adds (mauseloch.cli.COMMANDS).
WHICH = (
    ("terminal", "play, rules, replay"),
    ("sim", "simulate, tournament, analyze"),
    ("web", "serve, bot-token, bot"),
    ("all", "everything"),
)

if __name__ == "__main__":
    main()
