"""Quick reactions at a table ("emotes"): a fixed set, never free text, rate-limited per seat.

Not to be confused with a reaction game's reaction windows (server/reactions.py). Only the ids
travel; each page says them in its reader's language (locale/rooms.toml, ``emote.<id>``). The
numbers are the table's limits, kept here with the ids because the table's step (which runs in
the offline bundle too, stdlib only) applies them; server/limits.py names them with the others.
"""

from __future__ import annotations

EMOTES = ("clap", "wow", "laugh", "heart", "mau", "well_played", "oh_no", "good_luck")
EMOTES_PER_SECOND = 0.5  # a seat's emotes on average ...
EMOTE_BURST = 3  # ... with this many at once


def taken(bucket: tuple[float, float] | None, now: float) -> tuple[float, float] | None:
    """A token bucket (tokens, when) after one emote at ``now``; None: over the limit."""
    tokens, at = bucket if bucket is not None else (float(EMOTE_BURST), now)
    tokens = min(float(EMOTE_BURST), tokens + (now - at) * EMOTES_PER_SECOND)
    if tokens < 1.0:
        return None
    return tokens - 1.0, now
