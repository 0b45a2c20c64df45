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
from typing import Any

from ..bots import make_bot
from ..engine import SEED_LIMIT, Game, Rng, derive_seed, new_game

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


def play_game(
    kinds: Sequence[str], seed: int, options: dict[str, Any] | None = None) -> tuple[Game, dict[str, Any]]:
    """Play one whole game with one bot kind per seat; the game and its figures.

    The figures: per seat ``score``, ``mice``, ``mice_catch``, ``mice_flip``, ``laundry``,
    ``cheese`` and ``rank``; for the game ``reason``, ``reveals``, ``timeouts`` and ``moves``.
    """
    players = len(kinds)
    game = new_game(GAME, players=players, seed=derive_seed(seed, STREAM_ENGINE) % SEED_LIMIT, options=options)
    bots = [make_bot(GAME, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)]
    reactors = [reactor(b) for b in bots]
    ties = Rng(derive_seed(seed, STREAM_TIES))
    window: int = game.options["window_ms"]
    seats = range(players)
    mice_catch = [0] * players
    mice_flip = [0] * players
    reveals = timeouts = 0
    view = game.view
    legal_moves = game.legal_moves
    play = game.play
    while not game.is_over:
        seat = game.to_move
        if seat is not None:
            play(bots[seat].choose(view(seat), legal_moves(seat)), seat=seat)
            reveals += 1
            continue
        best_ms = window
        best: list[tuple[int, str]] = []
        for s in seats:
            move, ms = reactors[s](view(s), legal_moves(s))
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
        before = game.mice[s]  # type: ignore[attr-defined]
        play(move, seat=s, ms=best_ms)
        if game.mice[s] != before:  # type: ignore[attr-defined]
            if move == "flip":
                mice_flip[s] += 1
            else:
                mice_catch[s] += 1
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
        "reveals": reveals,
        "timeouts": timeouts,
        "moves": game.move_count,
    }
    return game, stats
