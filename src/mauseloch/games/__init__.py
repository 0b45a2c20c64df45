"""One module per game; importing a module registers it in ``mauseloch.GAMES``."""

from __future__ import annotations


def load_all() -> None:
    from mauseloch.games import ausdiemaus, maumau, mausgeflippt  # noqa: F401  (registration on import)
