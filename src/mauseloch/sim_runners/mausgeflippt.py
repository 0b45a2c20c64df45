"""Simulated Mausgeflippt games: bots react with sampled times, the earliest one counts.

For each shown mouse every bot answers ``react(view, legal) -> (move or None, ms)`` from its
own view. The reaction with the smallest ``ms`` below ``window_ms`` is played (with that ``ms``,
so the record keeps it); exact ties are broken by a generator derived from the *simulator's*
seed (never the engine's); if nobody reacts in time, ``timeout`` is played with
``ms=window_ms``. Turns outside the window (``reveal``) go to the bot's ``choose``.

Seeds: one simulator seed per game gives the engine seed, one seed per bot and the tie stream,
each through :func:`mauseloch.engine.derive_seed` on its own stream number.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ..bots import make_bot
from ..engine import SEED_LIMIT, Rng, derive_seed, new_game
from ..games.mausgeflippt import Mausgeflippt

GAME = "mausgeflippt"
STREAM_ENGINE, STREAM_TIES, STREAM_BOTS = 100, 101, 200
FIGURES = ("score", "mice", "mice_catch", "mice_flip", "laundry", "cheese")


Reactor = Callable[[dict[str, Any], list[str]], tuple[str | None, int]]


def reactor(bot: Any) -> Reactor:
    """The bot's ``react``; a turn-based bot (``random``) reacts at once (ms 0) with its choice,
    and choosing ``timeout`` means it keeps still."""
    react = getattr(bot, "react", None)
    if react is not None:
        return react

    def instant(view: dict[str, Any], legal: list[str]) -> tuple[str | None, int]:
        if len(legal) <= 1:
            return None, 0
        move: str = bot.choose(view, legal)
        return (None, 0) if move == "timeout" else (move, 0)

    return instant


# Score bands: each is a 0/1 figure per seat, so a simulation's mean is the share of games
# in that band (the distribution of the score; ``mauseloch simulate`` sums figures).
SCORE_BANDS: tuple[tuple[str, int, int], ...] = (
    ("score_1_below_0", -(10**9), -1),
    ("score_2_0_to_4", 0, 4),
    ("score_3_5_to_9", 5, 9),
    ("score_4_10_to_19", 10, 19),
    ("score_5_20_up", 20, 10**9),
)


def play_game(
    kinds: Sequence[str], seed: int, options: dict[str, Any] | None = None
) -> tuple[Mausgeflippt, dict[str, Any]]:
    """Play one whole game with one bot kind per seat; the game and its figures.

    ``seed`` is the simulator's seed for this game; the engine's seed, each bot's seed and the
    tie-break stream are derived from it on separate streams. The figures, per seat:
    ``score``, ``mice``, ``mice_catch``, ``mice_flip`` (won by "Mausgeflippt!"), ``laundry``,
    ``cheese``, ``wrong_cards``, ``wrong_flips`` (reactions that made laundry on unprotected
    mice), ``score_*`` (0/1 per score band) and ``rank``; for the game ``reason``, ``reveals``,
    ``timeouts`` and ``moves`` (its length).
    """
    players = len(kinds)
    game = cast(
        Mausgeflippt,
        new_game(GAME, players=players, seed=derive_seed(seed, STREAM_ENGINE) % SEED_LIMIT, options=options),
    )
    bots = [make_bot(GAME, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)]
    reactors = [reactor(b) for b in bots]
    ties = Rng(derive_seed(seed, STREAM_TIES))
    window: int = game.options["window_ms"]
    seats = range(players)
    mice_catch = [0] * players
    mice_flip = [0] * players
    wrong_cards = [0] * players
    wrong_flips = [0] * players
    mice = game.mice
    cheese = game.cheese
    reveals = timeouts = 0
    view = game.view
    play = game.play
    while not game.is_over:
        seat = game.to_move
        if seat is not None:
            v = view(seat)
            play(bots[seat].choose(v, v["legal_moves"]), seat=seat)
            reveals += 1
            continue
        best_ms = window
        best: list[tuple[int, str]] = []
        for s in seats:
            v = view(s)  # holds the seat's legal moves too
            move, ms = reactors[s](v, v["legal_moves"])
            if move is None or ms >= window:
                continue
            if ms < best_ms:
                best_ms, best = ms, [(s, move)]
            elif ms == best_ms:
                best.append((s, move))
        if not best:
            play("timeout", ms=window)
            timeouts += 1
            continue
        s, move = best[0] if len(best) == 1 else best[ties.below(len(best))]
        mice_before, cheese_before = mice[s], len(cheese[s])
        play(move, seat=s, ms=best_ms)
        flip = move == "flip"
        if mice[s] != mice_before:
            if flip:
                mice_flip[s] += 1
            else:
                mice_catch[s] += 1
        elif len(cheese[s]) == cheese_before:  # neither a mouse nor cheese: laundry
            if flip:
                wrong_flips[s] += 1
            else:
                wrong_cards[s] += 1
    res = game.result()
    stats: dict[str, Any] = {
        "reason": res["reason"],
        "rank": res["ranks"],
        "score": res["score"],
        "mice": res["mice"],
        "mice_catch": mice_catch,
        "mice_flip": mice_flip,
        "laundry": res["laundry"],
        "cheese": res["cheese"],
        "wrong_cards": wrong_cards,
        "wrong_flips": wrong_flips,
        "reveals": reveals,
        "timeouts": timeouts,
        "moves": game.move_count,
    }
    for name, low, high in SCORE_BANDS:
        stats[name] = [1 if low <= x <= high else 0 for x in res["score"]]
    return game, stats
