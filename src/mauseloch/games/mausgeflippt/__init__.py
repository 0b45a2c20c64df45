"""Mausgeflippt: the game's package. ``rules`` holds the rules; this module declares the game
(:data:`INFO`: importing the package registers it in ``mauseloch.GAMES``) and re-exports the
rules' public names, so ``from mauseloch.games.mausgeflippt import ...`` reads the rules. The
modules of the package import from ``rules`` (never from here, which imports them for the
declaration)."""

from __future__ import annotations

from mauseloch.core.registry import BotKind, Clock, GameInfo, Seating, Simulation, register
from mauseloch.games.mausgeflippt.bots.reaction import LEVELS, maker
from mauseloch.games.mausgeflippt.cards import (
    CHEESE_ID,
    CHEESES,
    CLOTHING_DECK,
    FACE_ID,
    FACES,
    FULL_DECK,
    KINDS,
    MAX_CARDS_DEALT,
    MICE,
    MOUSE_CHEESE,
    MOUSE_ID,
    MOUSE_MASK,
    MOUSE_WEARS,
    N_CHEESES,
    N_CLOTHING,
    N_MICE,
    NFACES,
    THIRD_COPIES,
)
from mauseloch.games.mausgeflippt.events import (
    EVENTS,
    Cheese,
    Face,
    MausgeflipptCatch,
    MausgeflipptCheeseOpen,
    MausgeflipptCheeseTaken,
    MausgeflipptDeal,
    MausgeflipptDraw,
    MausgeflipptEnd,
    MausgeflipptLaundry,
    MausgeflipptMausgeflippt,
    MausgeflipptMouseUnder,
    MausgeflipptMouseWon,
    MausgeflipptProtectedCatch,
    MausgeflipptReaction,
    MausgeflipptReshuffle,
    MausgeflipptReveal,
    MausgeflipptRevealer,
    MausgeflipptTimeout,
    MausgeflipptWrongCard,
    Mouse,
)
from mauseloch.games.mausgeflippt.figures import figures
from mauseloch.games.mausgeflippt.rules import (
    FLIP,
    MAX_PLAYERS,
    OPTIONS,
    REVEAL,
    TIMEOUT,
    Mausgeflippt,
    fits,
    parse_card,
)

__all__ = [
    "CHEESES",
    "CHEESE_ID",
    "CLOTHING_DECK",
    "EVENTS",
    "FACES",
    "FACE_ID",
    "FLIP",
    "FULL_DECK",
    "INFO",
    "KINDS",
    "MAX_CARDS_DEALT",
    "MICE",
    "MOUSE_CHEESE",
    "MOUSE_ID",
    "MOUSE_MASK",
    "MOUSE_WEARS",
    "NFACES",
    "N_CHEESES",
    "N_CLOTHING",
    "N_MICE",
    "REVEAL",
    "THIRD_COPIES",
    "TIMEOUT",
    "Cheese",
    "Face",
    "Mausgeflippt",
    "MausgeflipptCatch",
    "MausgeflipptCheeseOpen",
    "MausgeflipptCheeseTaken",
    "MausgeflipptDeal",
    "MausgeflipptDraw",
    "MausgeflipptEnd",
    "MausgeflipptLaundry",
    "MausgeflipptMausgeflippt",
    "MausgeflipptMouseUnder",
    "MausgeflipptMouseWon",
    "MausgeflipptProtectedCatch",
    "MausgeflipptReaction",
    "MausgeflipptReshuffle",
    "MausgeflipptReveal",
    "MausgeflipptRevealer",
    "MausgeflipptTimeout",
    "MausgeflipptWrongCard",
    "Mouse",
    "fits",
    "parse_card",
]


INFO = register(
    GameInfo(
        name="mausgeflippt",
        title="Mausgeflippt",
        description=(
            "A speed game: a mouse is shown, the first to lay a card it wears takes it; "
            "nothing fits? shout Mausgeflippt! Mind the protected mice."
        ),
        min_players=2,
        max_players=MAX_PLAYERS,
        options=OPTIONS,
        factory=Mausgeflippt,
        dynamics="reactions",
        # the countdown before each mouse (off: the revealer turns it by hand)
        clock=Clock(relaxed=5.0, normal=3.0, fast=2.0),
        # the reaction levels, slowest first; the random bot reacts at 0 ms: a tool for the
        # simulator, faster than any person at a table
        seating=Seating(
            bot_delay=0.6,
            standin="heuristic",
            study_bots=("random",),
            bots=tuple(BotKind(level.name, maker(level)) for level in LEVELS.values()),
        ),
        simulation=Simulation(figures=figures),
        # what decides the ranking in result(), in order (MG-9: the highest score first, then the
        # most mice)
        ranked_by=(("score", "more"), ("mice", "more")),
        deal_letter="F",
        words="mg",
    )
)
