"""Bots: players that see only their own view and the legal moves.

``make_bot(game, kind, seed)`` builds one; ``bot_kinds(game)`` lists what a game offers.
Each bot module registers its kinds with :func:`register_bot` when imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..engine import game_info


class Bot(Protocol):
    """A turn-based bot: given its seat's view and its legal moves, pick one of the moves."""

    kind: str

    def choose(self, view: dict[str, Any], legal: list[str]) -> str: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_ANY = "*"


def register_bot(kind: str, factory: BotFactory, game: str = _ANY) -> None:
    """Make ``kind`` available for ``game`` (``"*"``: every game)."""
    _REGISTRY.setdefault(game, {})[kind] = factory


def _load() -> None:
    """Import the bot modules (each registers its kinds); late, as they import this module."""
    from . import maumau_heuristic, random_bot, reaction, search  # noqa: F401


def bot_kinds(game: str) -> list[str]:
    """The bot kinds ``game`` offers, weakest first as registered."""
    name = game_info(game).name
    _load()
    return list(_REGISTRY.get(_ANY, {})) + [k for k in _REGISTRY.get(name, {}) if k not in _REGISTRY.get(_ANY, {})]


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    name = game_info(game).name
    _load()
    key = kind.strip().lower() if isinstance(kind, str) else kind
    factory = _REGISTRY.get(name, {}).get(key) or _REGISTRY.get(_ANY, {}).get(key)
    if factory is None:
        raise ValueError(f"unknown bot {kind!r} for {name}; available: {', '.join(bot_kinds(name))}")
    return factory(seed)
