"""Bots: players that see only their own view and the legal moves.

``make_bot(game, kind, seed)`` builds one; ``bot_kinds(game)`` lists what a game offers: the
kinds of every game (the random bot, :mod:`mauseloch.bots.random_bot`), the kinds the game's
declaration brings itself (``GameInfo.seating.bots``), among them Mau-Mau's compiled bots, which
import numpy and numba only when one is made, so that listing the kinds never loads them; then
those registered for it with :func:`register_bot` (:mod:`mauseloch.bots.registry`).
"""

from __future__ import annotations

from mauseloch.bots.registry import ANY as _ANY
from mauseloch.bots.registry import REGISTRY as _REGISTRY
from mauseloch.bots.registry import register_bot
from mauseloch.core.bot import Bot, BotFactory
from mauseloch.core.engine import as_int
from mauseloch.core.registry import BotKind, game_info
from mauseloch.extras import missing_modules

__all__ = ["Bot", "BotFactory", "bot_kinds", "bots_for_seats", "make_bot", "register_bot"]


def _load() -> None:
    """Import the bot kinds of every game (the module registers them) once a kind is asked for."""
    from mauseloch.bots import random_bot  # noqa: F401


def _declared(game: str) -> dict[str, BotKind]:
    """The bot kinds ``game``'s declaration brings itself (``GameInfo.seating.bots``), by name."""
    return {kind.name: kind for kind in game_info(game).seating.bots}


def _offered(kind: BotKind) -> bool:
    """Whether a declared kind can be made here: the packages it needs are found (without
    importing them; a compiled bot needs numpy and numba)."""
    return not missing_modules(kind.needs)


def bot_kinds(game: str) -> list[str]:
    """The bot kinds ``game`` offers: those of every game, those it declares, weakest first (the
    compiled ones only where numpy and numba are installed), then those registered for it."""
    name = game_info(game).name
    _load()
    declared = [k.name for k in _declared(name).values() if _offered(k)]
    kinds = [*_REGISTRY.get(_ANY, {}), *declared, *_REGISTRY.get(name, {})]
    return list(dict.fromkeys(kinds))


def make_bot(game: str, kind: str, seed: int = 0) -> Bot:
    name = game_info(game).name
    _load()
    key = kind.strip().lower() if isinstance(kind, str) else kind
    factory = _REGISTRY.get(name, {}).get(key) or _REGISTRY.get(_ANY, {}).get(key)
    if factory is None and isinstance(key, str) and key in _declared(name):
        factory = _declared(name)[key].make
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
