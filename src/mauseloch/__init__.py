"""Mauseloch: Mau-Mau, Aus die Maus! and Mausgeflippt behind one small API.

>>> import mauseloch
>>> g = mauseloch.new_game("mau-mau", players=3, seed=7)
>>> g.play(g.legal_moves()[0])
"""

from __future__ import annotations

from mauseloch.core.engine import GAMES, Game, GameInfo, IllegalMove, OptionSpec, event_for, new_game
from mauseloch.core.engine import register as register_game
from mauseloch.core.engine import unregister as unregister_game
from mauseloch.core.record import replay
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
__version__ = "0.1.0"
