"""The Bot protocol: what every player that is not a person offers, for every game.

Bots live beside what they play: the plain ones of every game in :mod:`mauseloch.bots`, a game's
own in its declaration (``GameInfo.seating.bots``); :func:`mauseloch.bots.make_bot` makes one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from mauseloch.core.views import View


class Bot(Protocol):
    """A bot sees its seat's view and its legal moves, nothing else.

    The view is the game's view struct, ``g.typed_view(seat)`` (a subclass of
    :class:`~mauseloch.core.views.View` each game declares: a bot for one game narrows it with
    ``isinstance`` or reads that game's struct); ``g.view(seat)`` is its JSON form.
    ``choose``: on its turn, pick one of the moves. ``react``: in a reaction window (games whose
    ``GameInfo.dynamics`` is ``"reactions"``), the move it makes and when, in ms after the card
    was shown; ``None`` keeps its paws still. Who was first is the referee's business
    (:mod:`mauseloch.realtime.referee`), never the bot's.
    """

    kind: str

    def choose(self, view: View, legal: list[str]) -> str: ...

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]: ...


BotFactory = Callable[[int], Bot]  # seed -> bot
