"""The random bot: any legal move, uniformly, from its own seeded generator."""

from __future__ import annotations

from typing import Any

from ..engine import Rng
from . import register_bot


class RandomBot:
    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("the random bot was asked to move with no legal moves")
        return legal[self._rng.below(len(legal))]

    def react(self, view: dict[str, Any], legal: list[str]) -> tuple[str | None, int]:
        """At once (0 ms) with a random reaction; drawing ``timeout`` means keeping still."""
        if len(legal) <= 1:
            return None, 0
        move = self.choose(view, legal)
        return (None, 0) if move == "timeout" else (move, 0)


register_bot("random", RandomBot)
