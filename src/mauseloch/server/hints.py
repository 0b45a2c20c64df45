"""A learner's "Tipp": the move the game's stand-in bot (its strongest plain bot) would make for a
seat now, and why, in the bot's own words: a catalogue key its ``explain`` returns (the Mau-Mau
heuristic reads it off its own scores: games/maumau/bots/habits.py). A bot that cannot say why
gives the move alone. Nothing here knows a game's rules: the engine gives the legal moves and
the seat's view, the bot decides.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from mauseloch.bots import make_bot
from mauseloch.core.views import View
from mauseloch.server.bodies import Hint
from mauseloch.server.records import build
from mauseloch.server.seats import standin_kind
from mauseloch.server.storage.rows import TableRow


@runtime_checkable
class Explains(Protocol):
    """A bot that says why: its move for ``view`` among ``legal`` and a catalogue key."""

    def explain(self, view: View, legal: list[str]) -> tuple[str, str]: ...  # a view as a bot's choose takes it


def hint(row: TableRow, seat: int) -> Hint | None:
    """The tip for ``seat`` at the table ``row`` describes (None: the seat has no move now)."""
    game, _ = build(row)
    if game.is_over:
        return None
    legal = game.legal_moves(seat)
    if not legal:
        return None
    bot = make_bot(row.game, standin_kind(row.game), seed=row.seed)
    view = game.typed_view(seat)
    if isinstance(bot, Explains):
        move, reason = bot.explain(view, legal)
        return {"move": move, "reason": reason}
    return {"move": bot.choose(view, legal), "reason": None}
