"""The ``mauseloch`` command: play | simulate | analyze | replay | serve.

Each command lives in the module that owns its concern; this file only wires them up.
Those modules import heavy libraries inside the command, so ``mauseloch --help`` stays quick.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="mauseloch",
    help="Mau-Mau, Aus die Maus! and Mausgeflippt: play, simulate, analyze, replay and serve.",
    no_args_is_help=True,
    add_completion=False,
)


def _show_version(value: bool) -> None:
    if value:
        from mauseloch import __version__

        typer.echo(f"mauseloch {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", help="Show the version and exit.", callback=_show_version, is_eager=True
    ),
) -> None:
    """Mau-Mau, Aus die Maus! and Mausgeflippt: play, simulate, analyze, replay and serve."""


play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")

# (group, command name, module holding a function named ``command``)
COMMANDS = (
    ("play", "mau-mau", "mauseloch.tui.maumau"),
    ("play", "aus-die-maus", "mauseloch.tui.ausdiemaus"),
    ("play", "mausgeflippt", "mauseloch.tui.mausgeflippt"),
    ("app", "simulate", "mauseloch.simulate"),
    ("app", "analyze", "mauseloch.analyze"),
    ("app", "replay", "mauseloch.tui.replay"),
    ("app", "serve", "mauseloch.server.cli"),
)

for group, name, module_name in COMMANDS:
    module = importlib.import_module(module_name)
    (play_app if group == "play" else app).command(name)(module.command)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
