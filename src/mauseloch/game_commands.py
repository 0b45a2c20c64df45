"""The command line's commands of one game's own: each registered here by its game's module that
gives it, loaded only when the command line is built (a module that needs an extra raises
:class:`~mauseloch.extras.MissingExtra` then, and the command says what to install).

The command line (:mod:`mauseloch.cli`) lists these and names no game; a game's declaration names
no front end (as :mod:`mauseloch.tui.games` registers the terminal's games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

Command = Callable[..., None]


class GameCommand(NamedTuple):
    name: str  # ``mauseloch <name> <game> ...``
    load: Callable[[], Command]  # its Typer function, imported when called
    extra: str | None  # the extra it needs beyond the command line's Typer and Rich


def _analyze() -> Command:
    from mauseloch.games.ausdiemaus.cli import command

    return command


def _train() -> Command:
    from mauseloch.games.maumau.learn.cli import command

    return command


GAME_COMMANDS: tuple[GameCommand, ...] = (
    GameCommand("analyze", _analyze, "sim"),  # Aus die Maus!: the longest and the endless deals
    GameCommand("train", _train, "train"),  # Mau-Mau: its learned bots
)
