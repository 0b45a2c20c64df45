"""What every game's view and result share, as msgspec structs.

Each game declares its view and its result in its package (``games/<game>/views.py``) as
structs on these bases; the rules build them (``Game.typed_view``, ``Game.typed_result``) and
the public API hands out their JSON form (``Game.view``, ``Game.result``: ``msgspec.to_builtins``),
so a view's shape lives only in its struct. A field that only some views carry (the seat's own
hand, the result once the game is over) is ``UNSET`` elsewhere and left out of the JSON form.
"""

from __future__ import annotations

from typing import Annotated, TypedDict

import msgspec

from mauseloch.core.shapes import JSONObject, OptionValue

Seat = Annotated[int, msgspec.Meta(ge=0)]
Count = Annotated[int, msgspec.Meta(ge=0)]
Rank = Annotated[int, msgspec.Meta(ge=1)]


class View(msgspec.Struct, forbid_unknown_fields=True):
    """The part of every view that is the same for all games (``seat`` None: a spectator)."""

    game: str
    players: Annotated[int, msgspec.Meta(ge=1)]
    options: dict[str, OptionValue]
    seat: Seat | None
    to_move: Seat | None


class ViewHead(TypedDict):
    """:class:`View`'s fields as the engine fills them in for every game (``Game._view_head``)."""

    game: str
    players: int
    options: dict[str, OptionValue]
    seat: int | None
    to_move: int | None


class Result(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of every game's result: why it ended (``reason``), each seat's rank (``ranks``: 1 the
    best, a tie shares a rank), then the game's figures per seat, in that order."""


def rank_rewards(result: JSONObject) -> list[float]:
    """Reward of each seat from the final ranking (every result has ``ranks``): ``1 - 2 (p - 1) / (n - 1)`` where p is
    the seat's place, tied seats sharing the mean of the places they hold. The winner of a
    two-player game gets +1, the loser -1, a tie 0; the rewards of a game always add up to 0."""
    ranks: list[int] = result["ranks"]
    n = len(ranks)
    rewards = []
    for r in ranks:
        tied = sum(1 for other in ranks if other == r)
        place = r - 1 + (tied + 1) / 2
        rewards.append(1.0 - 2.0 * (place - 1) / (n - 1))
    return rewards
