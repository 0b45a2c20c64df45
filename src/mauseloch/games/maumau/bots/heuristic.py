"""The Mau-Mau heuristic bot: plays like a good family player.

It sees only its own view and its legal moves. What it knows of the rules is what a player
reads off the table: a move's string names the card, the view names the top card, the wish and
the penalty. Its habits, in the order they usually decide:

- counters a seven with a seven rather than taking the penalty;
- keeps jacks for a need (no other card fits) or for the end of the game, and wishes the suit it
  holds most of (ties: the suit with more points, which it would rather shed);
- when a rival is close to going out, stops them: sevens make them draw, eights (and aces with
  ``ace_skips``) skip them, a nine turns play away from them; and it sheds high-point cards, since
  it may be caught with them;
- otherwise keeps its hand flexible: it plays the card after which it still holds the most
  cards that fit, leaning towards the suits it is long in, and keeps one seven as a shield.

The decision is ``habits.heuristic_action``, on the hand as a bit mask and the
public counts: the one copy of these habits, in plain Python (the bot needs the standard library
only). The bot calls it through :func:`heuristic_move` with its view; the compiled kernel
(``games.maumau.kernel``) compiles the same code, so the search bot's play-outs call it inside compiled
code on the positions they imagine, and its reading of the rivals asks ``heuristic_agrees`` (the
same scores) which hands explain the cards they chose.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mauseloch.core.engine import Rng
from mauseloch.core.shapes import Options
from mauseloch.core.views import View
from mauseloch.games.maumau.bots import habits
from mauseloch.games.maumau.rules import CARD_ID, MauMau
from mauseloch.games.maumau.views import seat_view

_ACTION_ID = MauMau._ACTION_ID
_OTHER = {"draw", "pass", "take"}


def kernel() -> Any:
    """The compiled kernel module (``games.maumau.kernel``), imported at the first decision (numba
    takes a moment to load, and a bot registry that only lists kinds should not pay for it)."""
    from mauseloch.games.maumau import kernel as maumau

    return maumau


KERNEL_BOTS = ("search-fast", "search", "search-learned")  # Mau-Mau bots that decide in compiled code


def kernels_need_compiling() -> bool:
    """True when the first decision of a search bot would compile its kernels, the heuristic's
    habits among them (seconds, once: later runs load them from numba's cache); callers say so
    first."""
    from mauseloch.games.maumau.bots import belief

    return bool(kernel().bot_kernels_need_compiling()) or belief.kernels_need_compiling()


def prepare(on_compile: Callable[[], None] | None = None) -> None:
    """Compile or load the search's kernels (the heuristic's habits compiled among them) now, not
    at the first decision (a table, a terminal game or a simulation's workers then never wait for
    it); ``on_compile()`` is called first when that means compiling (seconds), to say so."""
    if on_compile is not None and kernels_need_compiling():
        on_compile()
    kernel().warm_bot_kernels()
    from mauseloch.games.maumau.bots import belief  # the levels' chain over the history (games.maumau.bots.belief)

    belief.warm()


def legal_form(legal: list[str]) -> tuple[int, int]:
    """A legal list as the kernel takes it: the mask of the cards among the moves (a jack once
    for its four wishes) and the one other move's action id, or -1."""
    bits = 0
    other = -1
    for m in legal:
        if m in _OTHER:
            other = _ACTION_ID[m]
        else:
            bits |= 1 << CARD_ID[m[:2]]
    return bits, other


def heuristic_move(
    legal: list[str],
    hand: int,
    seat: int,
    counts: list[int],
    direction: int,
    ace_skips: bool,
    no_win_with_jack: bool,
    rng: Rng,
) -> str:
    """The heuristic's move among ``legal`` for ``seat`` holding ``hand`` (a mask of card ids),
    with ``counts`` cards in each seat's hand and play going in ``direction``. ``rng`` breaks
    exact ties (one draw per card move scored). The decision is
    ``habits.heuristic_action``, which the search's play-outs call compiled."""
    if len(legal) == 1:
        return legal[0]
    bits, other = legal_form(legal)
    action = habits.heuristic_action(
        hand, bits, other, seat, counts, len(counts), direction, ace_skips, no_win_with_jack, rng
    )
    return MauMau.ACTIONS[action]


def heuristic_agrees(
    move: str,
    cards: list[str],
    hand: int,
    seat: int,
    counts: list[int],
    direction: int,
    ace_skips: bool,
    no_win_with_jack: bool,
) -> bool:
    """Whether :func:`heuristic_move` may choose ``move`` (ties included) among ``cards``, a legal
    list of card plays only (nothing drawn, no penalty open). A search that models its rivals as
    this heuristic asks it which hands explain the card a rival played
    (``habits.heuristic_agrees``, on the same scores; the search asks it compiled)."""
    fitting, _ = legal_form(cards)
    return habits.heuristic_agrees(
        _ACTION_ID[move], fitting, hand, seat, counts, len(counts), direction, ace_skips, no_win_with_jack
    )


def _seen(view: View) -> tuple[list[str], int, list[int], int, Options]:
    """What the heuristic reads of a seat's view: its hand, its seat, every hand's size, the
    direction of play and the options."""
    seen = seat_view(view, "the heuristic bot")
    return seen.own_hand, seen.own_seat, seen.hand_counts, seen.direction, seen.options


class HeuristicBot:
    kind = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self._rng = Rng(seed)  # only to break exact ties, so bots at one table differ

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("the heuristic bot was asked to move with no legal moves")
        cards, seat, counts, direction, options = _seen(view)
        hand = 0
        for c in cards:
            hand |= 1 << CARD_ID[c]
        return heuristic_move(
            legal,
            hand,
            seat,
            counts,
            direction,
            bool(options.get("ace_skips")),
            bool(options.get("no_win_with_jack")),
            self._rng,
        )

    def explain(self, view: View, legal: list[str]) -> tuple[str, str]:
        """The move :meth:`choose` makes and why, as a catalogue key (``mm.hint.<reason>``,
        ``habits.heuristic_reason``): a learner's tip says it in a sentence."""
        move = self.choose(view, legal)
        cards, seat, counts, direction, options = _seen(view)
        hand = 0
        for c in cards:
            hand |= 1 << CARD_ID[c]
        bits, other = legal_form(legal)
        reason = habits.heuristic_reason(
            _ACTION_ID[move], hand, bits, other, seat, counts, len(counts), direction,
            bool(options.get("ace_skips")), bool(options.get("no_win_with_jack")),
        )  # fmt: skip
        return move, f"mm.hint.{reason}"

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        """Mau-Mau is played in turns and never opens a reaction window: keep still."""
        return None, 0
