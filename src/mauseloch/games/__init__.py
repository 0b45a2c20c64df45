"""One module per game; importing a module registers it in ``mauseloch.GAMES``."""

from __future__ import annotations

import importlib

GAME_MODULES = ("maumau", "ausdiemaus", "mausgeflippt")


def load_all() -> None:
    for module in GAME_MODULES:
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:  # a game still being written is simply not listed
            if exc.name != f"{__name__}.{module}":
                raise
