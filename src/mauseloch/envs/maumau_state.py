"""``mauseloch.envs.maumau_state``: one Mau-Mau game on the compiled kernel, what ``maumau_v0`` steps.

The code lives with its game (``mauseloch.games.maumau.envs.state``); this is its public import path.
"""

from __future__ import annotations

from mauseloch.games.maumau.envs.state import (
    ILLEGAL,
    OVER,
    SEAT_BITS,
    ST_AT,
    ST_CARDS,
    ST_INTS,
    ST_LACKED,
    ST_LAST,
    ST_OPTION_FLAGS,
    ST_OPTS,
    ST_RECEIVED,
    ST_RNGS,
    ST_SIZE,
    direct,
    mask_of,
    new_state,
    observe,
    outcome,
    play,
    play_observe,
    put_deck,
    result,
    start,
    start_observe,
)

__all__ = [
    "ILLEGAL",
    "OVER",
    "SEAT_BITS",
    "ST_AT",
    "ST_CARDS",
    "ST_INTS",
    "ST_LACKED",
    "ST_LAST",
    "ST_OPTION_FLAGS",
    "ST_OPTS",
    "ST_RECEIVED",
    "ST_RNGS",
    "ST_SIZE",
    "direct",
    "mask_of",
    "new_state",
    "observe",
    "outcome",
    "play",
    "play_observe",
    "put_deck",
    "result",
    "start",
    "start_observe",
]
