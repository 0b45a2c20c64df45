"""Bots: players that see only their own view and the legal moves.

``make_bot(game, kind, seed)`` builds one; ``bot_kinds(game)`` lists what a game offers.
The plain-Python bot modules register their kinds with :func:`register_bot`
(:mod:`mauseloch.bots.registry`) when imported; a game declares the kinds it brings itself
(``GameInfo.seating.bots``, imported when such a bot is made), among them Mau-Mau's compiled
bots, so that listing the kinds never loads numpy or numba.
"""

from __future__ import annotations

from mauseloch.bots.registry import ANY as _ANY
from mauseloch.bots.registry import REGISTRY as _REGISTRY
from mauseloch.bots.registry import register_bot
from mauseloch.core.bot import Bot, BotFactory
from mauseloch.core.engine import as_int
from mauseloch.core.registry import game_info, load_hook
from mauseloch.extras import EXTRAS, missing

__all__ = ["Bot", "BotFactory", "bot_kinds", "bots_for_seats", "make_bot", "register_bot"]


# The bot modules that decide in compiled code, and the extra that brings numpy and numba for
# them: without it (a plain install, the browser's engine) their kinds are not offered, and
# making one says what to install; the plain-Python bots always are.
COMPILED_MODULES = ("mauseloch.bots.learned", "mauseloch.bots.search", "mauseloch.bots.search_learned")
COMPILED_EXTRA = "sim"
COMPILED_NEEDS = tuple(name for name in EXTRAS[COMPILED_EXTRA] if name in ("numpy", "numba"))


def _load() -> None:
    """Import the plain-Python bot modules (each registers its kinds) once a kind is asked for."""
    from mauseloch.bots import maumau_heuristic, random_bot, reaction  # noqa: F401


def _declared(game: str) -> dict[str, str]:
    """The bot kinds ``game``'s declaration brings itself (``GameInfo.seating.bots``): kind ->
    ``"module:factory"``, imported when such a bot is made."""
    return dict(game_info(game).seating.bots)


def _offered(hook: str) -> bool:
    """Whether a declared kind can be made here: a compiled bot needs numpy and numba (found
    without importing them)."""
    if hook.partition(":")[0] not in COMPILED_MODULES:
        return True
    return not [name for name in missing(COMPILED_EXTRA) if name in COMPILED_NEEDS]


def bot_kinds(game: str) -> list[str]:
    """The bot kinds ``game`` offers, weakest first: those of every game, those registered for it,
    then those it declares (the compiled ones only where numpy and numba are installed)."""
    name = game_info(game).name
    _load()
    declared = [kind for kind, hook in _declared(name).items() if _offered(hook)]
    kinds = [*_REGISTRY.get(_ANY, {}), *_REGISTRY.get(name, {}), *declared]
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
