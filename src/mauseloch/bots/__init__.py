"""Bots: players that see only their own view and the legal moves.

``make_bot(game, kind, seed)`` builds one; ``bot_kinds(game)`` lists what a game offers.
Each bot module registers its kinds with :func:`register_bot` (:mod:`mauseloch.bots.registry`)
when imported.
"""

from __future__ import annotations

import importlib.util

from mauseloch.bots.registry import ANY as _ANY
from mauseloch.bots.registry import REGISTRY as _REGISTRY
from mauseloch.bots.registry import Bot, BotFactory, register_bot
from mauseloch.core.engine import as_int, game_info, load_hook

__all__ = ["Bot", "BotFactory", "bot_kinds", "bots_for_seats", "make_bot", "register_bot"]


# What the compiled bots (learned, search, search-learned) need besides the library: without them
# (the browser's engine has neither) those kinds are not offered; the plain-Python bots always are.
COMPILED_NEEDS = ("numpy", "numba")


def _load() -> None:
    """Import the bot modules (each registers its kinds) once a kind is asked for: the compiled
    ones load kernels and models that importing this package alone does not need."""
    from mauseloch.bots import maumau_heuristic, random_bot, reaction  # noqa: F401

    if all(importlib.util.find_spec(name) is not None for name in COMPILED_NEEDS):
        from mauseloch.bots import learned, search, search_learned  # noqa: F401


def _declared(game: str) -> dict[str, str]:
    """The bot kinds ``game``'s declaration brings itself (``GameInfo.seating.bots``): kind ->
    ``"module:factory"``, imported when such a bot is made."""
    return dict(game_info(game).seating.bots)


def bot_kinds(game: str) -> list[str]:
    """The bot kinds ``game`` offers, weakest first as registered (then those it declares)."""
    name = game_info(game).name
    _load()
    kinds = [*_REGISTRY.get(_ANY, {}), *_REGISTRY.get(name, {}), *_declared(name)]
    return list(dict.fromkeys(kinds))


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    name = game_info(game).name
    _load()
    key = kind.strip().lower() if isinstance(kind, str) else kind
    factory = _REGISTRY.get(name, {}).get(key) or _REGISTRY.get(_ANY, {}).get(key)
    if factory is None and isinstance(key, str) and key in _declared(name):
        factory = load_hook(_declared(name)[key])
    if factory is None:
        raise ValueError(f"unknown bot {kind!r} for {name}; available: {', '.join(bot_kinds(name))}")
    return factory(as_int(seed, "seed", 0))  # a plain int: the bots do arithmetic with it


def bots_for_seats(game: str, kinds: str, seats: int) -> list[str]:
    """The bot kind of each of ``seats`` bot seats, from text such as ``"heuristic"`` or
    ``"random,heuristic,random"``: one kind for every bot seat, or exactly one kind per bot seat.

    The one rule for ``--bots`` in ``play`` and ``simulate``; anything else (a wrong count, an
    empty or unknown kind) is a ``ValueError`` that says what to give instead.
    """
    name = game_info(game).name
    allowed = bot_kinds(name)
    given = [k.strip().lower() for k in kinds.split(",")] if isinstance(kinds, str) else []
    if not given or any(not k for k in given):
        raise ValueError(f"bots: give a bot kind ({', '.join(allowed)}) or a comma list of them, got {kinds!r}")
    for kind in given:
        if kind not in allowed:
            raise ValueError(f"unknown bot {kind!r} for {name}; available: {', '.join(allowed)}")
    if len(given) == 1:
        return given * seats
    if len(given) != seats:
        raise ValueError(
            f"bots: give one kind for every bot seat or exactly {seats} kinds, one per bot seat; "
            f"got {len(given)} kinds in {kinds!r}"
        )
    return given
