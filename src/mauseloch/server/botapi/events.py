"""The lines of a bot's event stream (``GET /api/bot/stream``, docs/bot-api.md), declared once:
the server writes them (:mod:`mauseloch.server.botapi.online`) and the Python client reads them
(:mod:`mauseloch.server.botapi.client`), so this module needs msgspec alone."""

from __future__ import annotations

import msgspec

from mauseloch.core.shapes import OptionDict


class ChallengeInfo(msgspec.Struct):
    id: str
    game: str
    players: int
    options: OptionDict
    by: str = msgspec.field(name="from")  # who challenged
    table: str
    seat: int


class ChallengeEvent(msgspec.Struct, tag="challenge"):
    challenge: ChallengeInfo


class GameStart(msgspec.Struct, tag="game_start"):
    table: str
    seat: int


class GameFinish(msgspec.Struct, tag="game_finish"):
    table: str


BotEvent = ChallengeEvent | GameStart | GameFinish
