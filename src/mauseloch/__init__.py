"""Mauseloch: Mau-Mau, Aus die Maus! and Mausgeflippt behind one small API.

>>> import mauseloch
>>> g = mauseloch.new_game("mau-mau", players=3, seed=7)
>>> g.play(g.legal_moves()[0])

The library needs msgspec alone; the command line, the server, the simulator's kernels and the
learning environments are extras (:mod:`mauseloch.extras`).
"""

from __future__ import annotations

from mauseloch.core.engine import Game, IllegalMove
from mauseloch.core.events import event_for
from mauseloch.core.record import replay
from mauseloch.core.registry import GAMES, GameInfo, OptionSpec, new_game
from mauseloch.core.registry import register as register_game
from mauseloch.core.registry import unregister as unregister_game
from mauseloch.games import load_all as _load_all

_load_all()

__all__ = [
    "GAMES",
    "Game",
    "GameInfo",
    "IllegalMove",
    "OptionSpec",
    "event_for",
    "new_game",
    "register_game",
    "replay",
    "unregister_game",
]


def __getattr__(name: str) -> str:
    """``mauseloch.__version__``: the installed distribution's version (``pyproject.toml`` holds
    the one copy), read on first use so that ``import mauseloch`` does not load
    ``importlib.metadata``; ``0+unknown`` when the sources run without being installed."""
    if name != "__version__":
        raise AttributeError(f"module 'mauseloch' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mauseloch")
    except PackageNotFoundError:
        found = "0+unknown"
    globals()["__version__"] = found
    return found
