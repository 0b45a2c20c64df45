"""Mausgeflippt's simulation figures, and one simulated game for tests and benchmarks.

Who reacts first is decided by the one referee (:mod:`mauseloch.realtime.referee`) in virtual time:
every bot answers ``react(view, legal) -> (move or None, ms)`` from its own view, the earliest
reaction below ``window_ms`` is played with its ``ms``, exact ties are drawn from the
*simulator's* tie stream (never the engine's), nobody in time gives ``timeout``. The simulator
(:mod:`mauseloch.study.simulate`) picks that runner because the game declares
``dynamics="reactions"``; this module adds what is worth counting in Mausgeflippt.

Seeds: one simulator seed per game gives the engine seed, one seed per bot and the tie stream,
each through :func:`mauseloch.core.engine.derive_seed` on its own stream number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from mauseloch.core.engine import Game
from mauseloch.games.mausgeflippt import Mausgeflippt

GAME = "mausgeflippt"

# Score bands: each is a 0/1 figure per seat, so a simulation's mean is the share of games
# in that band (the distribution of the score; ``mauseloch simulate`` sums figures).
SCORE_BANDS: tuple[tuple[str, int, int], ...] = (
    ("score_1_below_0", -(10**9), -1),
    ("score_2_0_to_4", 0, 4),
    ("score_3_5_to_9", 5, 9),
    ("score_4_10_to_19", 10, 19),
    ("score_5_20_up", 20, 10**9),
)


def figures(game: Game) -> dict[str, Any]:
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
    stats: dict[str, Any] = {
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


def play_game(
    kinds: Sequence[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[Mausgeflippt, dict[str, Any]]:
    """One whole simulated game with one bot kind per seat: the game and its figures (those of
    ``result()`` per seat, ``rank``, ``reason``, ``moves`` and :func:`figures`)."""
    from mauseloch.study.simulate import play_reactions

    game, stats = play_reactions(kinds, seed, options or {}, GAME)
    return cast(Mausgeflippt, game), stats
