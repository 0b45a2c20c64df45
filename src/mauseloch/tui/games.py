"""The terminal's games: for each game it plays, the module that plays it (``mauseloch play
<game>``: its ``command``) and says its replays in words (``mauseloch replay``).

The terminal registers its own modules here; a game's declaration names no front end. A game
without a module of its own is replayed in generic text and has no ``play`` command. The modules
need the terminal extra and load when asked for: this module needs only the library, so the
command line lists the games (and says what to install) without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from mauseloch.core.events import Event
from mauseloch.games.ausdiemaus import INFO as AUS_DIE_MAUS
from mauseloch.games.maumau import INFO as MAU_MAU
from mauseloch.games.mausgeflippt import INFO as MAUSGEFLIPPT
from mauseloch.locale import Lang


class TerminalGame(Protocol):
    """What a game's terminal module offers (:mod:`mauseloch.tui.maumau` is one)."""

    command: Callable[..., None]  # ``mauseloch play <game>`` (its options are Typer's)

    def replay_move(self, move: str, lang: Lang = ...) -> str | None:
        """A move in the reader's words; None: as recorded."""

    def replay_event(self, event: Event, game: Any, names: list[str], lang: Lang = ...) -> str | None:
        """One line for an event of a replayed game; None: not shown."""

    def replay_board(self, game: Any, names: list[str], lang: Lang = ...) -> Any:
        """The table of a replayed game, every hand shown (a Rich renderable)."""


def _maumau() -> TerminalGame:
    from mauseloch.tui import maumau

    return maumau


def _ausdiemaus() -> TerminalGame:
    from mauseloch.tui import ausdiemaus

    return ausdiemaus


def _mausgeflippt() -> TerminalGame:
    from mauseloch.tui import mausgeflippt

    return mausgeflippt


# game name -> its module, imported when called
TERMINAL_GAMES: dict[str, Callable[[], TerminalGame]] = {
    MAU_MAU.name: _maumau,
    AUS_DIE_MAUS.name: _ausdiemaus,
    MAUSGEFLIPPT.name: _mausgeflippt,
}


def terminal_game(game: str) -> TerminalGame | None:
    """The terminal module of ``game`` (imported now), or None for a game without one."""
    load = TERMINAL_GAMES.get(game)
    return None if load is None else load()
