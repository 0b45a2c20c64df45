"""Mausgeflippt bots with a human reaction model: levels ``easy``, ``normal`` and ``hard``.

A bot sees only its own view (its hand, the shown mouse, whether it is protected) and its legal
moves, and draws every random number from its own seeded generator. When a mouse is shown it
answers :meth:`ReactionBot.react` with the move it would make and *when* (ms after the reveal);
``None`` means it keeps its paws still. Who is first is decided by the caller (the simulator
or the terminal client), never here.

The model, per reaction:

* **Perception** — a log-normal reaction time ``exp(N(ln median, sigma))``: right-skewed, never
  negative, the usual shape of human choice-reaction times.
* **Scan** — looking through the hand costs ``scan_ms`` per card: a fitting card is found after
  scanning a uniformly random number of cards 1..n; "Mausgeflippt!" needs all n cards checked
  plus ``flip_extra_ms`` of hesitation (being sure nothing fits is slower than finding a fit).
* **Cheese check** — the protected-mouse check adds ``cheese_ms``. A player who sees the
  protection stays still; with probability ``p_protected`` the player misses it and reacts anyway.
* **Lapses** — with ``p_lapse`` the player is looking elsewhere when the mouse appears and
  starts ``lapse_ms`` later (uniform between 0.5× and 2× that value); children drift off more.
* **Errors** — with ``p_wrong_card`` a card that does not fit is played (found after a short,
  impulsive scan); with ``p_flip_when_fits`` the player shouts "Mausgeflippt!" although a card
  fits (an overlooked card: only part of the hand was scanned).

Parameters (ms; probabilities per mouse):

======  ======  =====  =======  ==========  =========  =======  ========  =======  ==========  ===========
level   median  sigma  scan_ms  flip_extra  cheese_ms  p_lapse  lapse_ms  p_wrong  p_flip_fit  p_protected
======  ======  =====  =======  ==========  =========  =======  ========  =======  ==========  ===========
easy      1400   0.40      160         400        250     0.10      1500     0.10        0.12         0.30
normal     900   0.33      100         250        150     0.06      1200     0.05        0.06         0.12
hard       600   0.28       60         150        100     0.03      1000     0.02        0.02         0.04
======  ======  =====  =======  ==========  =========  =======  ========  =======  ==========  ===========

``easy`` is pitched at a child of about six to eight (simple visual choice reactions around
1.2–1.6 s, slow serial search of the hand, many slips), ``normal`` at a casual adult player
(0.8–1.0 s choice reaction plus search), ``hard`` at a practised adult (0.5–0.7 s). With a
seven-card hand a ``normal`` bot catches a fitting mouse in about 1.3 s on median and flips a
non-fitting one in about 1.9 s; protected mice cost a little extra to check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..engine import Rng
from . import register_bot

GAME = "mausgeflippt"


@dataclass(frozen=True)
class Level:
    """The parameters of one reaction level (see the module docstring)."""

    name: str
    median_ms: float
    sigma: float
    scan_ms: float
    flip_extra_ms: float
    cheese_ms: float
    p_lapse: float
    lapse_ms: float
    p_wrong_card: float
    p_flip_when_fits: float
    p_protected: float


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("easy", 1400.0, 0.40, 160.0, 400.0, 250.0, 0.10, 1500.0, 0.10, 0.12, 0.30),
        Level("normal", 900.0, 0.33, 100.0, 250.0, 150.0, 0.06, 1200.0, 0.05, 0.06, 0.12),
        Level("hard", 600.0, 0.28, 60.0, 150.0, 100.0, 0.03, 1000.0, 0.02, 0.02, 0.04),
    )
}


class ReactionBot:
    """A Mausgeflippt player with a reaction time and human errors (one level of :data:`LEVELS`)."""

    def __init__(self, level: Level, seed: int = 0) -> None:
        self.level = level
        self.kind = level.name
        self._rng = Rng(seed)
        self._log_median = math.log(level.median_ms)

    # -- randomness from the bot's own generator -------------------------------------------
    def _normal(self) -> float:
        """A standard normal variate (Box–Muller from two uniforms)."""
        u1 = 1.0 - self._rng.random()  # (0, 1]: log is finite
        u2 = self._rng.random()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def perception_ms(self) -> float:
        """One log-normal perception-and-decision time."""
        return math.exp(self._log_median + self.level.sigma * self._normal())

    def _chance(self, p: float) -> bool:
        return self._rng.random() < p

    # -- the bot protocol ----------------------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """A turn outside the window: the only such move is ``reveal``."""
        if not legal:
            raise ValueError("the reaction bot was asked to move with no legal moves")
        return "reveal" if "reveal" in legal else legal[0]

    def react(self, view: dict[str, Any], legal: list[str]) -> tuple[str | None, int]:
        """The reaction to the shown mouse and its time in ms after the reveal.

        ``(None, ms)``: the bot does not react (``ms`` is when it decided so). Every move
        returned is one of ``legal``.
        """
        mouse = view.get("mouse")
        hand: list[str] = view.get("hand") or []
        if mouse is None or not hand:
            return None, 0
        lv = self.level
        wears = mouse["wears"]
        n = len(hand)
        t = self.perception_ms()
        if self._chance(lv.p_lapse):
            t += lv.lapse_ms * (0.5 + 1.5 * self._rng.random())
        if mouse["protected"]:
            if not self._chance(lv.p_protected):
                return None, round(t + lv.cheese_ms)
        else:
            t += lv.cheese_ms  # looked at the cheese and saw it is not the open one
        fitting = [c for c in hand if c in wears]
        others = [c for c in hand if c not in wears]
        if others and self._chance(lv.p_wrong_card):
            # an impulsive wrong card: grabbed after glancing at a few cards
            card = others[self._rng.below(len(others))]
            move = "catch " + card
            t += lv.scan_ms * (1 + self._rng.below(max(1, n // 2)))
        elif fitting and self._chance(lv.p_flip_when_fits):
            move = "flip"  # overlooked the fitting card(s)
            t += lv.scan_ms * (1 + self._rng.below(n)) + lv.flip_extra_ms
        elif fitting:
            # serial search: the first fitting card is found after 1..n cards (uniform)
            card = fitting[self._rng.below(len(fitting))]
            move = "catch " + card
            t += lv.scan_ms * (1 + self._rng.below(n))
        else:
            move = "flip"
            t += lv.scan_ms * n + lv.flip_extra_ms
        if move not in legal:  # cannot happen with a consistent view; never play an unlisted move
            return None, round(t)
        return move, round(t)


def _factory(level: Level) -> Any:
    def make(seed: int) -> ReactionBot:
        return ReactionBot(level, seed)

    return make


for _level in LEVELS.values():
    register_bot(_level.name, _factory(_level), game=GAME)
