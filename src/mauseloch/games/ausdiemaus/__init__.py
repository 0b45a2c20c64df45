"""Aus die Maus!: the game's package. ``rules`` holds the rules; this module declares the game
(:data:`INFO`: importing the package registers it in ``mauseloch.GAMES``) and re-exports the
rules' public names, so ``from mauseloch.games.ausdiemaus import ...`` reads the rules. The
modules of the package import from ``rules`` (never from here, which imports them for the
declaration)."""

from __future__ import annotations

from mauseloch.bots.random_bot import SlowBot
from mauseloch.core.registry import BotKind, Clock, GameInfo, Seating, Simulation, register
from mauseloch.games.ausdiemaus import simulation
from mauseloch.games.ausdiemaus.events import (
    EVENTS,
    AusDieMausCall,
    AusDieMausCatch,
    AusDieMausChase,
    AusDieMausDeal,
    AusDieMausEnd,
    AusDieMausEscape,
    AusDieMausFlip,
    AusDieMausNewPile,
    AusDieMausPileWon,
    AusDieMausStart,
    Card,
)
from mauseloch.games.ausdiemaus.rules import (
    CALL,
    CARD_ID,
    CARD_STR,
    CAT,
    CHASE,
    CHEESE,
    FULL_CHIPS,
    FULL_COUNTS,
    FULL_DECK,
    MAX_PLAYERS,
    MOUSE1,
    MOUSE2,
    MOUSE3,
    NORMAL,
    OPTIONS,
    PHASE_NAMES,
    REASONS,
    SMALL_CHIPS,
    SMALL_COUNTS,
    SMALL_DECK,
    START,
    AusDieMaus,
    deal,
    deck_ids,
    parse_card,
)

__all__ = [
    "CALL",
    "CARD_ID",
    "CARD_STR",
    "CAT",
    "CHASE",
    "CHEESE",
    "EVENTS",
    "FULL_CHIPS",
    "FULL_COUNTS",
    "FULL_DECK",
    "INFO",
    "MOUSE1",
    "MOUSE2",
    "MOUSE3",
    "NORMAL",
    "PHASE_NAMES",
    "REASONS",
    "SMALL_CHIPS",
    "SMALL_COUNTS",
    "SMALL_DECK",
    "START",
    "AusDieMaus",
    "AusDieMausCall",
    "AusDieMausCatch",
    "AusDieMausChase",
    "AusDieMausDeal",
    "AusDieMausEnd",
    "AusDieMausEscape",
    "AusDieMausFlip",
    "AusDieMausNewPile",
    "AusDieMausPileWon",
    "AusDieMausStart",
    "Card",
    "deal",
    "deck_ids",
    "parse_card",
]


INFO = register(
    GameInfo(
        name="aus-die-maus",
        title="Aus die Maus!",
        description="Turn over cards in turn; a mouse starts a chase, a cat catches it and wins the pile and a chip.",
        min_players=2,
        max_players=MAX_PLAYERS,
        options=OPTIONS,
        factory=AusDieMaus,
        # every move is a flip: a short clock, and a bot flips a little slower than it could
        clock=Clock(relaxed=10.0, normal=6.0, fast=3.0),
        # the slow bot flips like the random one, for the youngest: the table waits longer for it
        seating=Seating(bot_delay=0.8, standin="heuristic", bots=(BotKind("slow", SlowBot),)),
        simulation=Simulation(runner=simulation.run_kernel, prepare=simulation.prepare, length_unit="flips"),
        # what decides the ranking in result(), in order (AM-12: the biggest stack first, then the
        # most chips)
        ranked_by=(("cards", "more"), ("chips", "more")),
        deal_letter="A",
        words="am",
    )
)
