"""The registry of game declarations behind ``mauseloch.GAMES``, apart from the engine so that
the modules the engine imports (events, views) look a game up without importing it back.
:func:`mauseloch.core.engine.register` checks a declaration and adds it here."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mauseloch.core.engine import GameInfo

REGISTRY: dict[str, GameInfo] = {}  # written by core.engine.register and unregister only
# Read-only for everybody else: a game is added only by registering its declaration.
GAMES: Mapping[str, GameInfo] = MappingProxyType(REGISTRY)


def game_info(name: Any) -> GameInfo:
    """The declaration of the game called ``name`` (any case, spaces around it ignored)."""
    info = REGISTRY.get(name) if type(name) is str else None
    if info is not None:  # spelled as registered (every new game of a simulation)
        return info
    if not isinstance(name, str):
        raise ValueError(f"game name must be a string, got {name!r}")
    key = name.strip().lower()
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return GAMES[key]
