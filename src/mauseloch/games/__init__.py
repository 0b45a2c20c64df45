"""One package per game; importing a game's rules registers its declaration in ``mauseloch.GAMES``.

This is the library's one list of its games. The order is the order of ``mauseloch.GAMES``, and
so of the lobby's game list: its first game is the one a new table offers first.
"""

from __future__ import annotations

import importlib

GAME_PACKAGES = ("maumau", "ausdiemaus", "mausgeflippt")


def load_all() -> None:
    for package in GAME_PACKAGES:
        importlib.import_module(f"mauseloch.games.{package}")  # registers the game
