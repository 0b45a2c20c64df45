"""Mau-Mau: the game's package. ``rules`` holds the rules; this module declares the game
(:data:`INFO`: importing the package registers it in ``mauseloch.GAMES``) and re-exports the
rules' public names, so ``from mauseloch.games.maumau import ...`` reads the rules. The modules of
the package import from ``rules`` (never from here, which imports them for the declaration)."""

from __future__ import annotations

from mauseloch.core.bot import Bot
from mauseloch.core.registry import BotKind, Clock, GameInfo, Seating, Simulation, register
from mauseloch.extras import COMPILED
from mauseloch.games.maumau import simulation
from mauseloch.games.maumau.bots.heuristic import HeuristicBot
from mauseloch.games.maumau.bots.heuristic import prepare as prepare_bots
from mauseloch.games.maumau.events import (
    EVENTS,
    Card,
    MauMauDeal,
    MauMauDraw,
    MauMauEnd,
    MauMauJackNoWin,
    MauMauMau,
    MauMauMauMau,
    MauMauPass,
    MauMauPenalty,
    MauMauPlay,
    MauMauReshuffle,
    MauMauReverse,
    MauMauSkip,
    MauMauStart,
    MauMauTake,
    MauMauWish,
    Suit,
)
from mauseloch.games.maumau.rules import (
    ACE,
    CARD_FIT,
    CARD_HELP,
    CARD_ID,
    CARD_STR,
    DRAW,
    EIGHT,
    FULL_DECK,
    JACK,
    JACK_BASE,
    JACKS,
    NINE,
    OPTIONS,
    PASS,
    PHASE_DRAWN,
    PHASE_PENALTY,
    POINTS,
    RANK_MASK,
    RANKS,
    SEVEN,
    SEVENS,
    SUIT_MASK,
    SUIT_SYMBOL_LETTER,
    SUITS,
    TAKE,
    WISH_HELP,
    MauMau,
    canonical_move,
    fit_mask,
    parse_card,
    parse_wish,
    sort_key,
)

__all__ = [
    "ACE",
    "CARD_FIT",
    "CARD_HELP",
    "CARD_ID",
    "CARD_STR",
    "DRAW",
    "EIGHT",
    "EVENTS",
    "FULL_DECK",
    "INFO",
    "JACK",
    "JACKS",
    "JACK_BASE",
    "NINE",
    "PASS",
    "PHASE_DRAWN",
    "PHASE_PENALTY",
    "POINTS",
    "RANKS",
    "RANK_MASK",
    "SEVEN",
    "SEVENS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_SYMBOL_LETTER",
    "TAKE",
    "WISH_HELP",
    "Card",
    "MauMau",
    "MauMauDeal",
    "MauMauDraw",
    "MauMauEnd",
    "MauMauJackNoWin",
    "MauMauMau",
    "MauMauMauMau",
    "MauMauPass",
    "MauMauPenalty",
    "MauMauPlay",
    "MauMauReshuffle",
    "MauMauReverse",
    "MauMauSkip",
    "MauMauStart",
    "MauMauTake",
    "MauMauWish",
    "Suit",
    "canonical_move",
    "fit_mask",
    "parse_card",
    "parse_wish",
    "sort_key",
]


# The compiled bots (numpy, numba): each imports its module when one is made.
def _learned(seed: int) -> Bot:
    from mauseloch.games.maumau.bots.learned import LearnedBot

    return LearnedBot(seed)


def _search_fast(seed: int) -> Bot:
    from mauseloch.games.maumau.bots.search import search_fast

    return search_fast(seed)


def _search(seed: int) -> Bot:
    from mauseloch.games.maumau.bots.search import search

    return search(seed)


def _search_learned(seed: int) -> Bot:
    from mauseloch.games.maumau.bots.search_learned import search_learned

    return search_learned(seed)


INFO = register(
    GameInfo(
        name="mau-mau",
        title="Mau-Mau",
        description="Match suit or rank, get rid of your cards; sevens draw, eights skip, nines reverse, jacks wish.",
        min_players=2,
        max_players=5,
        options=OPTIONS,
        factory=MauMau,
        clock=Clock(relaxed=60.0, normal=30.0, fast=15.0),
        seating=Seating(
            bot_delay=0.6,
            standin="heuristic",
            bots=(
                BotKind("heuristic", HeuristicBot),
                BotKind("learned", _learned, needs=COMPILED),
                BotKind("search-fast", _search_fast, needs=COMPILED),
                BotKind("search", _search, needs=COMPILED),
                BotKind("search-learned", _search_learned, needs=COMPILED),
            ),
            prepare=prepare_bots,
        ),
        simulation=Simulation(runner=simulation.run_kernel, applies=simulation.all_random, prepare=simulation.prepare),
        # what decides the ranking in result(), in order (MM-16: fewest cards left first, then
        # fewest card points)
        ranked_by=(("cards", "fewer"), ("points", "fewer")),
        deal_letter="M",
        words="mm",
        match=True,
    )
)
