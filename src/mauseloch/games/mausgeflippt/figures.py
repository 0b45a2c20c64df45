"""Mausgeflippt's simulation figures: what is worth counting in a finished game.

The simulator (:mod:`mauseloch.study.simulate`) plays Mausgeflippt with its reaction runner
because the game declares ``dynamics="reactions"`` (the one referee decides every window in
virtual time) and adds these figures to each game's statistics. This module reads only the
finished game, so it imports nothing from the simulator.
"""

from __future__ import annotations

from mauseloch.core.engine import Game
from mauseloch.core.shapes import Figures

# Score bands: each is a 0/1 figure per seat, so a simulation's mean is the share of games
# in that band (the distribution of the score; ``mauseloch simulate`` sums figures).
SCORE_BANDS: tuple[tuple[str, int, int], ...] = (
    ("score_1_below_0", -(10**9), -1),
    ("score_2_0_to_4", 0, 4),
    ("score_3_5_to_9", 5, 9),
    ("score_4_10_to_19", 10, 19),
    ("score_5_20_up", 20, 10**9),
)


def figures(game: Game) -> Figures:
    """Per seat, from the finished game's events: ``mice_catch``, ``mice_flip`` (won by
    "Mausgeflippt!"), ``wrong_cards``, ``wrong_flips`` (laundry on unprotected mice),
    ``score_*`` (0/1 per score band); for the game ``reveals`` and ``timeouts``."""
    n = game.players
    mice_catch, mice_flip, wrong_cards, wrong_flips = [0] * n, [0] * n, [0] * n, [0] * n
    reveals = timeouts = 0
    for event in game.events:
        kind = event["type"]
        if kind == "reveal":
            reveals += 1
        elif kind == "timeout":
            timeouts += 1
        elif kind == "mouse_won":
            (mice_flip if event["by"] == "flip" else mice_catch)[event["seat"]] += 1
        elif kind == "wrong_card":
            wrong_cards[event["seat"]] += 1
        elif kind == "mausgeflippt" and not event["correct"] and not event["protected"]:
            wrong_flips[event["seat"]] += 1
    stats: Figures = {
        "mice_catch": mice_catch,
        "mice_flip": mice_flip,
        "wrong_cards": wrong_cards,
        "wrong_flips": wrong_flips,
        "reveals": reveals,
        "timeouts": timeouts,
    }
    score = game.result()["score"]
    for name, low, high in SCORE_BANDS:
        stats[name] = [1 if low <= x <= high else 0 for x in score]
    return stats
