"""The random bot: any legal move, uniformly, from its own seeded generator."""

from __future__ import annotations

from typing import Any

from mauseloch.bots.registry import register_bot
from mauseloch.core.engine import Rng
from mauseloch.core.views import View


class RandomBot:
    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("the random bot was asked to move with no legal moves")
        return legal[self._rng.below(len(legal))]

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        """At once (0 ms) with a random reaction; drawing ``timeout`` means keeping still."""
        if len(legal) <= 1:
            return None, 0
        move = self.choose(view, legal)
        return (None, 0) if move == "timeout" else (move, 0)


class SlowBot(RandomBot):
    """Aus die Maus! for the youngest: plays like the random bot (the game has no choices), but
    the table waits ``pause_factor`` times as long before its flips, so a small child can follow."""

    kind = "slow"
    pause_factor = 2.5


def pause_factor(bot: Any) -> float:
    """How much longer than usual a table waits before ``bot`` moves (1 for most bots)."""
    factor = getattr(bot, "pause_factor", 1.0)
    return float(factor) if isinstance(factor, int | float) and factor > 0 else 1.0


register_bot("random", RandomBot)
