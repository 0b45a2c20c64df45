"""What a Mau-Mau seat observes, as a fixed-size vector, and the reward its final rank earns.

Shared by the PettingZoo environment (``maumau_v0``, through the compiled game of
``maumau_state``) and the Gymnasium single-seat wrapper (through :class:`PublicLog` on an engine
game), so the encoding (``_encode``) and the log's facts (``note_move``) exist once.
``docs/envs.md`` describes every field; ``observation_fields`` lists them with their offsets.

Everything here is built from what the seat may know: its own hand (``game.hand``), the public
state of the table (top card, wish, penalty, direction, the discard pile's cards, counts) and
the public move list, which :class:`PublicLog` reads as the moves are made. A rival's hand, the
draw pile's order and the cards a rival drew are never read.
"""

from __future__ import annotations

import functools
from typing import Any

from mauseloch.core.registry import game_info
from mauseloch.core.shapes import OptionDict, Options
from mauseloch.core.views import rank_rewards as rank_rewards  # this module's public name
from mauseloch.extras import needs
from mauseloch.games.maumau import MauMau

# How a rival last moved (the ``last_move`` field of each rival) and the log's facts: one home,
# the kernel's (its batches observe the same history).
from mauseloch.games.maumau.kernel import (  # noqa: F401  (LAST_* and note_move: this module's public names)
    LAST_DRAW,
    LAST_MOVE_KINDS,
    LAST_NONE,
    LAST_PASS_DRAWN,
    LAST_PASS_EMPTY,
    LAST_PLAY,
    LAST_TAKE,
    _lowest,
    note_move,
)

with needs("rl", __name__):
    import numpy as np
    from numba import njit

SCALE = 32.0  # counts are divided by the deck size, so every field lies in [0, 1]

# (name, size in cards/flags, size depends on players?, meaning) in vector order.
_OWN_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hand", 32, "own cards, one flag per card id"),
    ("top", 32, "the discard pile's top card, one-hot"),
    ("wish", 4, "the open wish (C S H D), one-hot; all 0 when none"),
    ("penalty", 5, "the open seven-penalty 0 2 4 6 8, one-hot"),
    ("direction", 1, "1 while play goes to higher seats, 0 after an odd number of nines"),
    ("deciding_drawn", 1, "1 while the seat to move decides on a card it just drew (MM-7)"),
    ("discard", 32, "the cards in the discard pile (top included), one flag per card id"),
    ("draw_pile", 1, "cards in the draw pile / 32"),
    ("discard_pile", 1, "cards in the discard pile / 32"),
    ("progress", 1, "moves played / move_limit"),
    ("options", 4, "ace_skips, seven_draw_then_play, no_jack_on_jack, no_win_with_jack"),
)
_OPTION_NAMES = ("ace_skips", "seven_draw_then_play", "no_jack_on_jack", "no_win_with_jack")
_RIVAL_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("count", 1, "cards in the rival's hand / 32"),
    ("last_move", 6, "the rival's last move: " + ", ".join(LAST_MOVE_KINDS) + " (one-hot)"),
    ("lacked", 32, "the cards that fitted when the rival last had to draw or pass without drawing: "
                   "it held none of them then (MM-6); all 0 before that"),
    ("received_since", 1, "cards the rival has received since that moment / 32"),
)  # fmt: skip
_FIELD_ORDER = (
    "hand", "top", "wish", "penalty", "direction", "deciding_drawn", "to_move",
    "discard", "draw_pile", "discard_pile", "progress", "options",
)  # fmt: skip
RIVAL_SIZE = sum(size for _, size, _ in _RIVAL_FIELDS)
Ints = tuple[int, ...] | np.ndarray  # what the compiled encoder indexes: a tuple or an int64 array


def checked_setup(players: Any, options: Options) -> tuple[int, OptionDict]:
    """The player count and every Mau-Mau option, checked by the engine (``ValueError`` naming the
    bad value), for the environments' constructors."""
    info = game_info(MauMau.name)
    n = info.check_players(players)
    return n, info.resolve_options(n, options)


def observation_fields(players: int) -> list[tuple[str, int, int, str]]:
    """Every field of the vector as ``(name, start, size, meaning)``, in order. Rival fields are
    named ``rival<k>.<field>``: rival k is the seat k places after the observer (seat + k)."""
    fields: list[tuple[str, int, int, str]] = []
    pos = 0
    for name, size, meaning in _OWN_FIELDS[:6]:
        fields.append((name, pos, size, meaning))
        pos += size
    fields.append(("to_move", pos, players, "the seat to move, k places after the observer, one-hot; all 0 once over"))
    pos += players
    for name, size, meaning in _OWN_FIELDS[6:]:
        fields.append((name, pos, size, meaning))
        pos += size
    for k in range(1, players):
        for name, size, meaning in _RIVAL_FIELDS:
            fields.append((f"rival{k}.{name}", pos, size, meaning))
            pos += size
    return fields


def observation_size(players: int) -> int:
    start, size = observation_fields(players)[-1][1:3]
    return start + size


@njit(cache=True)
def _flags(obs: np.ndarray, start: int, bits: int) -> None:
    """One 1.0 at ``start + i`` for each set bit i of the 32-bit mask ``bits`` (one pass per
    set bit, not per position)."""
    while bits:
        obs[start + _lowest(bits)] = 1.0
        bits &= bits - 1


@njit(cache=True)
def _encode(
    obs: np.ndarray, at: Ints, options: int, seat: int, hand: int, top: int, wish: int, penalty: int,
    direction: int, deciding: bool, to_move: int, discard: int, draw_len: int, discard_len: int,
    progress: float, hands: Ints, last: Ints, lacked: Ints, received: Ints,
) -> None:  # fmt: skip
    """``PublicLog.observe``'s vector into the zeros ``obs``: every field written at its start
    in ``at`` (the order of ``_FIELD_ORDER``, then rival 1), ``options`` the option flags as bits.
    ``to_move`` is -1 once the game is over; seat-indexed sequences (tuples or int64 arrays, one
    entry per seat) are by absolute seat."""
    _flags(obs, at[11], options)
    n = len(hands)
    _flags(obs, at[0], hand)
    obs[at[1] + top] = 1.0
    if wish >= 0:
        obs[at[2] + wish] = 1.0
    obs[at[3] + penalty // 2] = 1.0
    if direction == 1:
        obs[at[4]] = 1.0
    if to_move >= 0:
        if deciding:
            obs[at[5]] = 1.0
        obs[at[6] + (to_move - seat) % n] = 1.0
    _flags(obs, at[7], discard)
    obs[at[8]] = draw_len / SCALE
    obs[at[9]] = discard_len / SCALE
    obs[at[10]] = progress
    o = at[12]
    for k in range(1, n):
        s = (seat + k) % n
        h = hands[s]
        count = 0
        while h:  # a count: public
            h &= h - 1
            count += 1
        obs[o] = count / SCALE
        obs[o + 1 + last[s]] = 1.0
        _flags(obs, o + 7, lacked[s])
        obs[o + RIVAL_SIZE - 1] = min(1.0, received[s] / SCALE)
        o += RIVAL_SIZE


@functools.cache
def _layout(players: int) -> tuple[int, ...]:
    """For ``_encode``: the start of each field in the order it writes them (``_FIELD_ORDER``,
    then rival 1)."""
    fields = {name: start for name, start, _, _ in observation_fields(players)}
    return (*(fields[name] for name in _FIELD_ORDER), fields["rival1.count"])


class PublicLog:
    """The public facts about each seat's moves, kept up to date by playing every move through
    :meth:`play`: how each seat last moved, the cards that fitted when it last had to draw (or
    pass with nothing to draw) and how many cards it has received since. Every seat sees these
    moves, so one log serves all observers."""

    __slots__ = (
        "_at", "_discard", "_move_limit", "_options",
        "game", "lacked", "last", "received", "size",
    )  # fmt: skip

    def __init__(self, game: MauMau) -> None:
        self.game = game
        n = game.players
        self.last = np.full(n, LAST_NONE, dtype=np.int64)
        self.lacked = np.zeros(n, dtype=np.int64)
        self.received = np.zeros(n, dtype=np.int64)
        self._at = _layout(n)
        self.size = observation_size(n)
        self._options = sum(1 << i for i, name in enumerate(_OPTION_NAMES) if game.options[name])
        self._move_limit = int(game.options["move_limit"])
        self._discard = 0  # the discard pile's cards as a mask, made by ``observe``

    def play(self, action: int) -> None:
        """Play action id ``action`` for the seat to move (``IllegalMove``/``ValueError`` leave
        game and log as they were) and note what everyone saw."""
        game = self.game
        # move_of checks the id; a plain int in range (what learners pass) needs no check
        if type(action) is not int or not 0 <= action < len(game.ACTIONS):
            action = game.action_id(game.move_of(action))
        actor: int = game.to_move  # type: ignore[assignment]
        drew_before = game.drawn >= 0  # only whether it decides on a drawn card: public (MM-7)
        fit = game.fit  # the cards that fit now (fit_mask of the public top card and wish)
        before = game.hands[actor].bit_count()  # a count: public
        game.play(game.ACTIONS[action])
        note_move(self.last, self.lacked, self.received, actor, action, drew_before, fit,
                  game.hands[actor].bit_count() - before)  # fmt: skip

    def observe(self, seat: int) -> np.ndarray:
        """The vector ``seat`` observes now (see ``observation_fields``), a new array.

        A learner asks for a vector at every step, so the fields are written by one compiled
        call (``_encode``); here only the public facts are gathered."""
        game = self.game
        pile = game.discard
        # The pile's mask is made anew each time (about 1 µs for 30 cards): a cache keyed by the
        # pile's length went stale when a reshuffle (MM-8) between two reads let the pile grow
        # back to the same length.
        self._discard = sum(1 << c for c in pile)
        to_move = -1 if game.to_move is None else game.to_move  # None once over
        obs = np.zeros(self.size, dtype=np.float32)
        _encode(
            obs, self._at, self._options, seat, game.hands[seat], game.top, game.wish, game.penalty,
            game.direction, game.drawn >= 0, to_move, self._discard, len(game.draw_pile), len(pile),
            min(1.0, game.move_count / self._move_limit), tuple(game.hands), self.last, self.lacked,
            self.received,
        )  # fmt: skip
        return obs

    def action_mask(self, seat: int) -> np.ndarray:
        """1 for every action id ``seat`` may play now (all 0 when it is not its turn).

        Read-only: the few hundred distinct masks are made once and shared (``.copy()`` one to
        change it)."""
        game = self.game
        legal = tuple(game.legal_moves()) if seat == game.to_move else ()  # () : not its turn, or over
        mask = _MASKS.get(legal)
        if mask is None:
            mask = np.zeros(game.num_actions, dtype=np.int8)
            mask[[game.action_id(m) for m in legal]] = 1
            mask.flags.writeable = False
            _MASKS[legal] = mask
        return mask


_MASKS: dict[tuple[str, ...], np.ndarray] = {}  # a few hundred distinct legal lists in all
