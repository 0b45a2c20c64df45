"""The registry of bot kinds, apart from :mod:`mauseloch.bots` so that the bot modules, which
register their kinds when imported, import nothing that imports them back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from mauseloch.core.engine import game_info
from mauseloch.core.shapes import JSONObject
from mauseloch.core.views import View


class Bot(Protocol):
    """A bot sees its seat's view and its legal moves, nothing else.

    The view is the one the public API documents, ``g.view(seat)``, or the game's view struct
    (``g.typed_view(seat)``, which spares a caller the JSON form); a bot takes either.
    ``choose``: on its turn, pick one of the moves. ``react``: in a reaction window (games whose
    ``GameInfo.dynamics`` is ``"reactions"``), the move it makes and when, in ms after the card
    was shown; ``None`` keeps its paws still. Who was first is the referee's business
    (:mod:`mauseloch.realtime.referee`), never the bot's.
    """

    kind: str

    def choose(self, view: View | JSONObject, legal: list[str]) -> str: ...

    def react(self, view: View | JSONObject, legal: list[str]) -> tuple[str | None, int]: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
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
