"""Mausgeflippt bots with a human reaction model: levels ``little``, ``child``, ``easy``, ``normal``,
``hard``.

A bot sees only its own view (its hand, the shown mouse, whether it is protected) and its legal
moves, and draws every random number from its own seeded generator. When a mouse is shown it
answers :meth:`ReactionBot.react` with the move it would make and *when* (ms after the reveal);
``None`` means it keeps its paws still. Who is first is decided by the referee
(:mod:`mauseloch.realtime.referee`), never here.

The model, per reaction:

* **Perception and decision** — a log-normal time ``exp(N(ln median, sigma))``: right-skewed,
  never negative, the usual shape of human choice-reaction times. Its median is built from
  published human data (below): ``simple_ms + HICK_BITS × bit_ms + read_ms``.
* **Scan** — looking through the hand costs ``scan_ms`` per card: a fitting card is found after
  scanning a uniformly random number of cards 1..n; "Mausgeflippt!" needs all n cards checked
  plus ``flip_extra_ms`` of hesitation (being sure nothing fits is slower than finding a fit,
  as target-absent search is in the literature).
* **Cheese check** — the protected-mouse check adds ``cheese_ms``. A player who sees the
  protection stays still; with probability ``p_protected`` the player misses it and reacts anyway.
* **Lapses** — with ``p_lapse`` the player is looking elsewhere when the mouse appears and
  starts ``lapse_ms`` later (uniform between 0.5× and 2× that value); children drift off more.
* **Errors** — with ``p_wrong_card`` a card that does not fit is played (found after a short,
  impulsive scan); with ``p_flip_when_fits`` the player shouts "Mausgeflippt!" although a card
  fits (an overlooked card: only part of the hand was scanned).

Against published human reaction data:

* *Simple reaction* (one stimulus, one response) to a visual signal is about 0.2 s for young
  adults (Welford 1980; Kosinski's review: 180–250 ms); children of 5–7 need about twice as
  long, and speed keeps growing until the late teens (Kail 1991).
* *Choice* costs more per alternative by Hick's law, ``RT = a + b·log2(n + 1)``, with ``b``
  about 150 ms per bit for adults (Hick 1952, Hyman 1953). A shown mouse leaves three answers
  (lay a card, shout, keep still): ``HICK_BITS = log2(4) = 2`` bits.
* *Searching the hand* is serial visual search: about 25 ms per item when the items are
  pictures and the target is present, about twice that to be sure it is absent (Treisman &
  Gelade 1980; Wolfe 1998).

**Display.** The levels are tuned for the terminal, where every card is a pair of words
("trousers blue") and the mouse is three such pairs: reading them is slower than seeing
pictures. So ``read_ms`` (reading the mouse's three clothes) is added to the choice time and
``scan_ms`` is a word pair's reading time, 60–250 ms, instead of the 25 ms per picture. For a
picture display (the web table) the same people would have ``read_ms`` near 0 and ``scan_ms``
near 25 ms (adults) to 50 ms (children): faster by about the reading.

======  ======  ======  ====  ======  =====  ====  ==========  ======  =======  =====  =======  ==========  ===========
level   simple  bit_ms  read  median  sigma  scan  flip_extra  cheese  p_lapse  lapse  p_wrong  p_flip_fit  p_protected
======  ======  ======  ====  ======  =====  ====  ==========  ======  =======  =====  =======  ==========  ===========
little     500     450  1500    2900   0.50   350         900     600     0.20   2500     0.15        0.15         0.45
child      450     350   900    2050   0.45   250         600     400     0.15   2000     0.15        0.15         0.40
easy       300     250   600    1400   0.40   160         400     250     0.10   1500     0.10        0.12         0.30
normal     250     175   300     900   0.33   100         250     150     0.06   1200     0.05        0.06         0.12
hard       220     140   100     600   0.28    60         150     100     0.03   1000     0.02        0.02         0.04
======  ======  ======  ====  ======  =====  ====  ==========  ======  =======  =====  =======  ==========  ===========

(ms; probabilities per mouse; ``median = simple + 2 × bit_ms + read``.)

``little`` (added for families) is a child of four or five who does not read yet: everything of
``child`` a good deal slower (median 2.9 s) and with more lapses, so the youngest can win too.
``child`` is a child of about five to seven who is just learning to read (simple reactions
around 0.45 s, slow spelling-out of the words, many slips and lapses); ``easy`` an older child
or a relaxed beginner; ``normal`` a casual adult; ``hard`` a practised adult (simple reaction
0.22 s, Hick's slope a little under the textbook 150 ms/bit from practice, reading nearly at a
glance). With a seven-card hand a ``normal`` bot catches a fitting mouse in about 1.3 s on
median and flips a non-fitting one in about 1.9 s; protected mice cost a little extra to check.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from mauseloch.core.engine import Rng
from mauseloch.core.views import View
from mauseloch.games.mausgeflippt.views import MausgeflipptView

HICK_BITS = 2.0  # log2(3 answers + 1): lay a card, shout, keep still
DISPLAY = "text"  # the display the levels are tuned for (the terminal; see the module docstring)


@dataclass(frozen=True)
class Level:
    """The parameters of one reaction level (see the module docstring)."""

    name: str
    simple_ms: float  # simple visual reaction time
    bit_ms: float  # Hick's law: ms per bit of choice
    read_ms: float  # reading the shown mouse on this display
    sigma: float
    scan_ms: float
    flip_extra_ms: float
    cheese_ms: float
    p_lapse: float
    lapse_ms: float
    p_wrong_card: float
    p_flip_when_fits: float
    p_protected: float

    @property
    def median_ms(self) -> float:
        """The median perception-and-decision time: simple reaction + Hick's choice + reading."""
        return self.simple_ms + HICK_BITS * self.bit_ms + self.read_ms


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        # "little": a four- or five-year-old who cannot read yet and looks at each picture in turn
        Level("little", 500.0, 450.0, 1500.0, 0.50, 350.0, 900.0, 600.0, 0.20, 2500.0, 0.15, 0.15, 0.45),
        Level("child", 450.0, 350.0, 900.0, 0.45, 250.0, 600.0, 400.0, 0.15, 2000.0, 0.15, 0.15, 0.40),
        Level("easy", 300.0, 250.0, 600.0, 0.40, 160.0, 400.0, 250.0, 0.10, 1500.0, 0.10, 0.12, 0.30),
        Level("normal", 250.0, 175.0, 300.0, 0.33, 100.0, 250.0, 150.0, 0.06, 1200.0, 0.05, 0.06, 0.12),
        Level("hard", 220.0, 140.0, 100.0, 0.28, 60.0, 150.0, 100.0, 0.03, 1000.0, 0.02, 0.02, 0.04),
    )
}


def _shown(view: View) -> tuple[list[str] | None, bool, list[str]]:
    """What a reaction reads of a Mausgeflippt view struct (``g.typed_view(seat)``): the shown
    mouse's clothes (None: no mouse shown), whether it is protected, and the hand."""
    if not isinstance(view, MausgeflipptView):
        got = view.game if isinstance(view, View) else type(view).__name__
        raise ValueError(f"the reaction bot needs a Mausgeflippt view struct (g.typed_view(seat)), not {got!r}")
    hand = [] if isinstance(view.hand, msgspec.UnsetType) else view.hand
    shown = view.mouse
    return (None, False, hand) if shown is None else (shown.wears, shown.protected, hand)


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
    def choose(self, view: View, legal: list[str]) -> str:
        """A turn outside the window: the only such move is ``reveal``."""
        if not legal:
            raise ValueError("the reaction bot was asked to move with no legal moves")
        return "reveal" if "reveal" in legal else legal[0]

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        """The reaction to the shown mouse and its time in ms after the reveal.

        ``(None, ms)``: the bot does not react (``ms`` is when it decided so). Every move
        returned is one of ``legal``.
        """
        wears, protected, hand = _shown(view)
        if wears is None or not hand:
            return None, 0
        lv = self.level
        n = len(hand)
        t = self.perception_ms()
        if self._chance(lv.p_lapse):
            t += lv.lapse_ms * (0.5 + 1.5 * self._rng.random())
        if protected:
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


def maker(level: Level) -> Callable[[int], ReactionBot]:
    """``make(seed)``: a bot of ``level`` (Mausgeflippt's declaration offers one kind per level)."""

    def make(seed: int) -> ReactionBot:
        return ReactionBot(level, seed)

    return make
