"""The registry of bot kinds, apart from :mod:`mauseloch.bots` so that the bot modules, which
register their kinds when imported, import nothing that imports them back."""

from __future__ import annotations

from mauseloch.core.bot import BotFactory
from mauseloch.core.registry import game_info

REGISTRY: dict[str, dict[str, BotFactory]] = {}
ANY = "*"


def register_bot(kind: str, factory: BotFactory, game: str = ANY) -> None:
    """Make ``kind`` available for ``game`` (``"*"``: every game); ``factory(seed)`` makes one.

    ``kind`` is stored as ``make_bot`` and ``--bots`` look it up (trimmed, lower case), so a kind
    that could never be found (empty, with a comma or a space) is refused; so is a game name
    that is not registered. Registering a kind again replaces it."""
    key = kind.strip().lower() if isinstance(kind, str) else ""
    if not key or any(c in key for c in ", \t"):
        raise ValueError(f"a bot kind must be a word without commas or spaces, got {kind!r}")
    if not callable(factory):
        raise ValueError(f"factory must be callable (seed -> bot), got {factory!r}")
    REGISTRY.setdefault(game if game == ANY else game_info(game).name, {})[key] = factory
