"""One package per game; importing a game's rules registers it in ``mauseloch.GAMES``."""

from __future__ import annotations


def load_all() -> None:
    from mauseloch.games import ausdiemaus, maumau, mausgeflippt  # noqa: F401  (registration on import)
