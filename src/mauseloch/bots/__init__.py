"""Bots: players that see only their own view and the legal moves.

``make_bot(game, kind, seed)`` builds one; ``bot_kinds(game)`` lists what a game offers.
Each bot module registers its kinds with :func:`register_bot` when imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from mauseloch.core.engine import as_int, game_info, load_hook
from mauseloch.core.shapes import JSONObject


class Bot(Protocol):
    """A bot sees its seat's view and its legal moves, nothing else.

    ``choose``: on its turn, pick one of the moves. ``react``: in a reaction window (games whose
    ``GameInfo.dynamics`` is ``"reactions"``), the move it makes and when, in ms after the card
    was shown; ``None`` keeps its paws still. Who was first is the referee's business
    (:mod:`mauseloch.realtime.referee`), never the bot's.
    """

    kind: str

    def choose(self, view: JSONObject, legal: list[str]) -> str: ...

    def react(self, view: JSONObject, legal: list[str]) -> tuple[str | None, int]: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
_REGISTRY: dict[str, dict[str, BotFactory]] = {}
_ANY = "*"


def register_bot(kind: str, factory: BotFactory, game: str = _ANY) -> None:
    """Make ``kind`` available for ``game`` (``"*"``: every game); ``factory(seed)`` makes one.

    ``kind`` is stored as ``make_bot`` and ``--bots`` look it up (trimmed, lower case), so a kind
    that could never be found (empty, with a comma or a space) is refused; so is a game name
    that is not registered. Registering a kind again replaces it."""
    key = kind.strip().lower() if isinstance(kind, str) else ""
    if not key or any(c in key for c in ", \t"):
        raise ValueError(f"a bot kind must be a word without commas or spaces, got {kind!r}")
    if not callable(factory):
        raise ValueError(f"factory must be callable (seed -> bot), got {factory!r}")
    _REGISTRY.setdefault(game if game == _ANY else game_info(game).name, {})[key] = factory


def _load() -> None:
    """Import the bot modules (each registers its kinds); late, as they import this module."""
    from mauseloch.bots import learned, maumau_heuristic, random_bot, reaction, search, search_learned  # noqa: F401


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
