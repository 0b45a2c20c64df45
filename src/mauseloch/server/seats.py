"""Who plays each seat: a person (with presence), a bot, and the stand-in that plays for an
absent person until they return.

A controller answers two questions for its table session: how the seat shows to everyone
(``presence``) and whether a bot moves for it now (``mover()``: the bot, or None to wait for
the person). Moves a stand-in plays are stored with ``by="stand-in"``.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, field
from typing import Literal

from mauseloch.bots import Bot, bot_kinds, make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.registry import game_info
from mauseloch.core.seeds import STREAM_SEAT_BOTS, STREAM_STANDIN, STREAM_STANDIN_FALLBACK
from mauseloch.core.views import View
from mauseloch.server.storage.rows import SeatRow

log = logging.getLogger("mauseloch.server")

Presence = Literal["online", "away", "gone", "open", "bot"]
STAND_IN = "stand-in"


def standin_kind(game: str) -> str:
    """The kind the game declares for a stand-in (``GameInfo.seating``) where it has that kind,
    else its strongest (the last it offers)."""
    kinds = bot_kinds(game)
    wanted = game_info(game).seating.standin
    return wanted if wanted in kinds else kinds[-1]


class StandIn:
    """A bot that plays a seat for someone else. If it fails, a random bot makes that move (and
    the failure is logged), so a table never stalls on a broken bot.

    Both bots are made when first asked for: most seats never need a stand-in, and making eight
    bots for every new table of four was a third of the table's creation. A bot made later
    starts from the same seed, so it plays the same moves."""

    def __init__(self, game: str, seed: int, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._seed = seed

    @functools.cached_property
    def bot(self) -> Bot:
        return make_bot(self.game, standin_kind(self.game), seed=derive_seed(self._seed, STREAM_STANDIN + self.seat))

    @functools.cached_property
    def _fallback(self) -> Bot:
        return make_bot(self.game, "random", seed=derive_seed(self._seed, STREAM_STANDIN_FALLBACK + self.seat))

    def choose(self, view: View, legal: list[str]) -> str:
        try:
            move = self.bot.choose(view, legal)
            if move in legal:
                return move
            log.error("stand-in at seat %s chose %r, not a legal move; a random bot moves", self.seat, move)
        except Exception:
            log.exception("stand-in at seat %s failed; a random bot moves", self.seat)
        return self._fallback.choose(view, legal)

    def play(self, view: View, legal: list[str], table: str) -> tuple[str, str | None]:
        """Its move for the seat, stored as the stand-in's."""
        return self.choose(view, legal), STAND_IN


@dataclass(eq=False)
class Person:
    """A human seat. ``conns`` counts this process's open connections for the seat."""

    row: SeatRow
    standin: StandIn
    conns: int = 0
    grace_pending: bool = False  # a grace deadline runs: gone (or away) but not yet replaced

    kind = "human"

    @property
    def presence(self) -> Presence:
        if not self.row.taken:
            return "open"
        if self.conns > 0:
            return "online"
        return "gone" if self.row.gone else "away"

    @property
    def stand_in(self) -> bool:
        """Whether the stand-in plays this seat now."""
        # connected first: the common answer without asking whether the seat is taken
        return self.conns == 0 and self.row.taken and self.row.gone and not self.grace_pending

    def mover(self) -> StandIn | None:
        return self.standin if self.stand_in else None


@dataclass(eq=False)
class BotSeat:
    """A seat a bot plays for the whole game. A failing bot is logged, and the stand-in makes
    that move instead (never silently the first legal move)."""

    row: SeatRow
    bot: Bot
    standin: StandIn
    failed: int = field(default=0)

    kind = "bot"
    presence: Presence = "bot"
    stand_in = False

    def mover(self) -> BotSeat:
        return self

    def choose(self, view: View, legal: list[str]) -> str:
        return self.bot.choose(view, legal)

    def play(self, view: View, legal: list[str], table: str) -> tuple[str, str | None]:
        """Its move (a failing bot's is its stand-in's) and who it is stored as played by."""
        try:
            move = self.choose(view, legal)
            if move in legal:
                return move, None
            raise ValueError(f"bot chose {move!r}, not a legal move")
        except Exception:
            log.exception("bot at table %s seat %s failed; its stand-in makes this move", table, self.row.seat)
            return self.standin.play(view, legal, table)


Controller = Person | BotSeat


def controllers(game: str, seed: int, seats: list[SeatRow]) -> list[Controller]:
    out: list[Controller] = []
    for s in seats:
        standin = StandIn(game, seed, s.seat)
        if s.kind == "bot" and s.bot is not None:
            bot = make_bot(game, s.bot, seed=derive_seed(seed, STREAM_SEAT_BOTS + s.seat))
            out.append(BotSeat(row=s, bot=bot, standin=standin))
        else:
            out.append(Person(row=s, standin=standin))
    return out
