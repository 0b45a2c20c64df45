"""The machinery every game's rules share: errors, the checks of numbers and seeds, the seeded
generator and the game base class.

A game's rules subclass :class:`Game`; its declaration (:class:`mauseloch.core.registry.GameInfo`)
names that class and registers it, so the engine knows no game and no registry: everything public
that needs a game's name (``new_game``, ``replay``, records, events) is built above it once, and
the games only hold their rules.
"""

from __future__ import annotations

import operator
import secrets
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import msgspec

from mauseloch.core.events import Event, Logged, made
from mauseloch.core.shapes import JSONObject, OptionDict, Options, Record
from mauseloch.core.views import Result, View, ViewHead

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment
SEED_LIMIT = 1 << 53  # seeds survive JSON in a browser (exact in a double)


class IllegalMove(ValueError):
    """A move that is not legal now: unknown string, wrong seat, not allowed, or game over.

    The game is left exactly as it was. ``reason`` (when the game gives one) is the message
    catalogue's key of the refusal and ``params`` its placeholders, so that a client can say it in
    the player's language (``mauseloch.locale.t(exc.reason, lang, **exc.params)``).
    """

    def __init__(self, message: str = "", reason: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


def whole_number(value: Any) -> int | None:
    """``value`` as a plain ``int`` if it is a whole number, else None.

    Anything integral counts (``int``, ``numpy.int64``: whatever has ``__index__``), so callers
    can pass numbers straight from NumPy; ``bool`` does not (``True`` is no player count), nor
    ``float``. Returning a plain ``int`` keeps records and views JSON-able.
    """
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def as_int(
    value: Any,
    name: str,
    low: int | None = None,
    high: int | None = None,
    error: type[Exception] = ValueError,
) -> int:
    """``value`` as a plain ``int`` in ``[low, high]`` (either end may be open), else ``error``
    naming ``name`` and the allowed range.

    The one check every public call that takes a whole number goes through: ``int``, NumPy
    integers (``g.move_of(np.argmax(q))``) and anything else with ``__index__`` pass, ``bool``
    and ``float`` do not (see :func:`whole_number`)."""
    number = value if type(value) is int else whole_number(value)  # a plain int: the common case
    if low is not None and high is not None:  # a seat, an action id: say the whole range at once
        if number is None or not low <= number <= high:
            raise error(f"{name} must be a number from {low} to {high}, got {value!r}")
        return number
    if number is None:
        raise error(f"{name} must be a whole number, got {value!r}")
    if low is not None and number < low:
        raise error(f"{name} must be at least {low}, got {number}")
    if high is not None and number > high:
        raise error(f"{name} must be at most {high}, got {number}")
    return number


# --------------------------------------------------------------------------- randomness


def mix64(x: int) -> int:
    """SplitMix64's finaliser: a well-spread 64-bit hash of ``x``."""
    x &= MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def derive_seed(seed: int, stream: int) -> int:
    """An independent 64-bit seed for sub-generator ``stream`` of ``seed``.

    Deal and reshuffles use different streams (api.md), so a game dealt from an explicit
    deck reshuffles exactly like the game its seed would have dealt.
    """
    return mix64((seed & MASK64) ^ mix64(stream + 0x632BE59BD9B4E019))


# A 16-bit draw below ``_LIMITS[n]`` gives an unbiased number below ``n`` (``v % n``); the rest is
# rejected. For the shuffles of the games' decks, without a division each time.
_LIMITS = tuple(65536 - 65536 % n if n else 0 for n in range(1025))


class Rng:
    """SplitMix64 with unbiased bounded integers and Fisher-Yates shuffles.

    Written out here (not ``random.Random``) so every Python version and the numba kernels
    produce the same numbers from the same seed. Bounds up to 2**16 use 16-bit chunks of a
    64-bit output (four per output, lowest first) with rejection, so they stay unbiased and a
    32-card shuffle costs eight outputs instead of 31; larger bounds use a whole output.
    """

    __slots__ = ("_chunks", "_word", "state")

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64
        self._word = 0  # unused 16-bit chunks of the last output, lowest first
        self._chunks = 0

    def words(self) -> tuple[int, int, int]:
        """The whole state, as three words (a compiled kernel carries the generator on in them)."""
        return self.state, self._word, self._chunks

    def load(self, words: Sequence[int]) -> None:
        """Go on from :meth:`words` (as a kernel left them)."""
        self.state, self._word, self._chunks = (int(w) for w in words)

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError(f"bound must be positive, got {n}")
        if n <= 1 << 16:
            limit = 65536 - 65536 % n
            while True:
                if not self._chunks:
                    self._word = self.next64()
                    self._chunks = 4
                v = self._word & 0xFFFF
                self._word >>= 16
                self._chunks -= 1
                if v < limit:
                    return v % n
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates from the end, in place: ``j = below(i + 1)`` for i = len-1 .. 1."""
        if len(items) > 1 << 16:
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # ``below`` inlined: a deal is on the hot path of every simulated game. A new output's
        # four 16-bit draws serve four places at once unless one is rejected (about one deck in
        # 30); then, and for the draws left of an earlier output, it goes draw by draw.
        s, word, chunks = self.state, self._word, self._chunks
        i = len(items) - 1
        limit = _LIMITS if i < len(_LIMITS) - 1 else [65536 - 65536 % n if n else 0 for n in range(i + 2)]
        while i > 0:
            if not chunks:
                s = (s + GOLDEN) & MASK64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                word = z ^ (z >> 31)
                if i >= 4:
                    v0, v1, v2, v3 = word & 0xFFFF, word >> 16 & 0xFFFF, word >> 32 & 0xFFFF, word >> 48
                    if v0 < limit[i + 1] and v1 < limit[i] and v2 < limit[i - 1] and v3 < limit[i - 2]:
                        j = v0 % (i + 1)
                        items[i], items[j] = items[j], items[i]
                        j = v1 % i
                        items[i - 1], items[j] = items[j], items[i - 1]
                        j = v2 % (i - 1)
                        items[i - 2], items[j] = items[j], items[i - 2]
                        j = v3 % (i - 2)
                        items[i - 3], items[j] = items[j], items[i - 3]
                        i -= 4
                        word = 0  # all four draws used
                        continue
                chunks = 4
            v = word & 0xFFFF
            word >>= 16
            chunks -= 1
            if v < limit[i + 1]:
                j = v % (i + 1)
                items[i], items[j] = items[j], items[i]
                i -= 1
        self.state, self._word, self._chunks = s, word, chunks

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 random bits (a whole output)."""
        return (self.next64() >> 11) / float(1 << 53)

    def copy(self) -> Rng:
        """An independent generator that goes on exactly like this one (for ``Game.clone``)."""
        other = Rng.__new__(Rng)
        other.state, other._word, other._chunks = self.state, self._word, self._chunks
        return other


def fresh_seed() -> int:
    """A new seed from the operating system (never the global ``random``)."""
    return secrets.randbelow(SEED_LIMIT)


def check_seed(value: Any) -> int:
    if type(value) is int and 0 <= value < 1 << 64:  # the common case, checked at once
        return value
    if value is None:
        return fresh_seed()
    seed = as_int(value, "seed")
    if not 0 <= seed < (1 << 64):
        raise ValueError(f"seed must be in [0, 2**64), got {seed}")
    return seed


def check_deck(deck: Any, expected: Sequence[str], parse: Callable[[str], str]) -> list[str]:
    """``deck`` normalised to canonical strings; it must be a permutation of ``expected``."""
    if not isinstance(deck, (list, tuple)):
        raise ValueError(f"deck must be a list of card strings, got {type(deck).__name__}")
    cards: list[str] = []
    for i, raw in enumerate(deck):
        if not isinstance(raw, str):
            raise ValueError(f"deck[{i}] must be a card string, got {raw!r}")
        try:
            cards.append(parse(raw))
        except ValueError as exc:
            raise ValueError(f"deck[{i}]: {exc}") from None
    if len(cards) != len(expected):
        raise ValueError(f"deck must hold exactly {len(expected)} cards, got {len(cards)}")
    if sorted(cards) != sorted(expected):
        have: dict[str, int] = {}
        for c in cards:
            have[c] = have.get(c, 0) + 1
        want: dict[str, int] = {}
        for c in expected:
            want[c] = want.get(c, 0) + 1
        extra = sorted(c for c in have if have[c] > want.get(c, 0))
        missing = sorted(c for c in want if want[c] > have.get(c, 0))
        raise ValueError(
            f"deck is not the game's deck: too many {', '.join(extra) or '-'}; missing {', '.join(missing) or '-'}"
        )
    return cards


# --------------------------------------------------------------------------- results


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """Rank 1 for the smallest key; equal keys share a rank, the next rank skips (1, 2, 2, 4)."""
    return [1 + sum(1 for other in keys if other < key) for key in keys]


# --------------------------------------------------------------------------- the game base


class Game:
    """Behaviour shared by every game. Subclasses implement the rules.

    ``to_move`` and ``is_over`` are plain attributes (read them, never assign): the hot loop
    of a simulation reads them millions of times.
    """

    __slots__ = ("__dict__",)  # subclasses list their own hot fields

    name: ClassVar[str]  # the declared name (set by :func:`mauseloch.core.registry.register`)

    to_move: int | None
    is_over: bool
    _players: int  # read through ``players``, ``seed``, ``options`` and ``deck``: nobody may
    _seed: int  # change them under a running game, or record() would lie
    _options: OptionDict
    _deck: tuple[str, ...]

    # Subclasses log their declared event structs (games/<game>/events.py) as they happen, or
    # ``(make, *args)`` tuples made into the structs when the log is read (core/events.py:
    # Logged, made); ``events`` hands out new dicts each time, so no caller can alter the log.
    _log: list[Logged]
    _moves: list[Any]  # (seat, move) or (seat, move, ms) in the order played

    def __init__(self, players: int, seed: int, options: OptionDict, deck: list[str]) -> None:
        self._players = players
        self._seed = seed
        self._options = options
        self._deck = tuple(deck)
        self._log = []
        self._moves = []
        self.to_move = 0  # every game starts with seat 0
        self.is_over = False
        self.reason: str | None = None

    # -- to implement ------------------------------------------------------------------
    @classmethod
    def create(cls, players: int, seed: int, options: OptionDict, deck: list[str] | None) -> Game:
        """A new game from checked arguments (``deck`` still to be checked)."""
        raise NotImplementedError

    def legal_moves(self, seat: int | None = None) -> list[str]:
        raise NotImplementedError

    def play(self, move: str, seat: int | None = None, ms: int | None = None) -> None:
        raise NotImplementedError

    def typed_view(self, seat: int | None) -> View:
        """What ``seat`` may know (None: a spectator), as the game's view struct."""
        raise NotImplementedError

    def typed_result(self) -> Result:
        """The end of the game as the game's result struct (only once it is over)."""
        raise NotImplementedError

    def view(self, seat: int | None) -> JSONObject:
        """What ``seat`` may know, as a new JSON-able dict (the view struct's JSON form)."""
        view: JSONObject = msgspec.to_builtins(self.typed_view(seat))
        return view

    def result(self) -> JSONObject:
        """The end of the game as a new JSON-able dict (the result struct's JSON form)."""
        result: JSONObject = msgspec.to_builtins(self.typed_result())
        return result

    # -- shared -----------------------------------------------------------------------
    @property
    def players(self) -> int:
        """The number of players the game was dealt for."""
        return self._players

    @property
    def seed(self) -> int:
        """The seed the game was made with (drawn and kept when ``new_game`` got None)."""
        return self._seed

    @property
    def options(self) -> Options:
        """Every option of this game, defaults filled in: a read-only view."""
        return MappingProxyType(self._options)

    @property
    def deck(self) -> tuple[str, ...]:
        """The deck as dealt, top card first (a tuple: the deal cannot be changed afterwards)."""
        return self._deck

    @property
    def events(self) -> list[JSONObject]:
        """The full log as new dicts: a caller may change them without touching the game."""
        result: list[JSONObject] = msgspec.to_builtins(made(self._log))
        return result

    def events_since(self, index: int) -> list[JSONObject]:
        """Events from position ``index`` of the log on (servers send only what is new)."""
        result: list[JSONObject] = msgspec.to_builtins(made(self._log, as_int(index, "index", 0)))
        return result

    def event_log(self, index: int = 0) -> list[Event]:
        """The log from position ``index`` on as the declared event structs: read them, never
        change them; a private one is whole (redact with :func:`mauseloch.core.events.seen_by`)."""
        return made(self._log, as_int(index, "index", 0))

    @property
    def event_count(self) -> int:
        return len(self._log)

    @property
    def move_count(self) -> int:
        return len(self._moves)

    def record(self) -> Record:
        return {
            "game": self.name,
            "players": self._players,
            "options": dict(self._options),
            "seed": self._seed,
            "deck": list(self._deck),
            "moves": [list(m) for m in self._moves],
        }

    def _check_seat_arg(self, seat: Any) -> int | None:
        """``seat`` as a plain int (None stays None), or IllegalMove naming the allowed seats."""
        if seat is None:
            return None
        if type(seat) is int and 0 <= seat < self._players:  # the common case, checked at once
            return seat
        return as_int(seat, "seat", 0, self._players - 1, IllegalMove)

    def _view_head(self, seat: int | None) -> ViewHead:
        """The part of every view that is the same for all games (the seat checked first)."""
        seat = self._check_seat_arg(seat)
        return {
            "game": self.name,
            "players": self._players,
            "options": dict(self._options),
            "seat": seat,
            "to_move": self.to_move,
        }

    def _check_turn_move(self, move: Any, seat: Any, ms: Any) -> str:
        """The refusals every turn-based game shares (no reaction time, game over, wrong seat,
        not a string); returns the move trimmed for the game's own checks."""
        if ms is not None:
            raise IllegalMove("ms (a reaction time) is only for Mausgeflippt reactions")
        if self.is_over:
            raise IllegalMove(f"the game is over ({self.reason}); no more moves")
        seat = self._check_seat_arg(seat)
        if seat is not None and seat != self.to_move:
            raise IllegalMove(f"it is seat {self.to_move}'s turn, not seat {seat}'s")
        if not isinstance(move, str):
            raise IllegalMove(f"a move must be a string, got {move!r}")
        return move.strip()

    # -- the second version: search bots and learning (api.md) ---------------------------
    # Each game lists every move string of its action space once, in action-id order, and
    # says how a move string is spelled canonically (``_move_key``); the rest is shared.
    ACTIONS: ClassVar[tuple[str, ...]] = ()
    _ACTION_ID: ClassVar[dict[str, int]] = {}

    def clone(self) -> Game:
        """An independent copy: playing on either never changes the other."""
        raise NotImplementedError

    def parse_move(self, text: Any, seat: int | None = None) -> str:
        """The canonical spelling of ``text`` if it is a legal move now (for ``seat``), else
        :class:`IllegalMove` saying why; the game is left as it was."""
        raise NotImplementedError

    def refused_cards(self, seat: int | None) -> dict[str, tuple[str, dict[str, object]]]:
        """For the seat to move in a game whose hand cards are moves: why each card of its hand
        that starts no legal move now is refused, card -> the refusal's key in the message
        catalogue and its placeholders (as :class:`IllegalMove` gives them), so a page can say why
        the moment the card is tapped. Empty for every other seat, and for a game that does not
        say (the default)."""
        return {}

    @staticmethod
    def _move_key(text: str) -> str:
        """``text`` spelled as the game spells its moves (case, spaces)."""
        return text.strip().lower()

    @property
    def acting_seats(self) -> frozenset[int]:
        """The seats that may move now (turn-based games: the seat to move)."""
        return frozenset() if self.to_move is None else frozenset((self.to_move,))

    @property
    def num_actions(self) -> int:
        """Size of the action space: every move string the game knows has an id below it."""
        return len(self.ACTIONS)

    def action_id(self, move: Any) -> int:
        """The stable id of a move string (legal now or not); ValueError for a non-move."""
        if not isinstance(move, str):
            raise ValueError(f"a move must be a string, got {move!r}")
        ids = self._ACTION_ID
        action = ids.get(move)
        if action is None:
            action = ids.get(self._move_key(move))
            if action is None:
                raise ValueError(f"{move!r} is not a {self.name} move")
        return action

    def move_of(self, action_id: Any) -> str:
        """The canonical move string of an action id (the inverse of :meth:`action_id`)."""
        return self.ACTIONS[as_int(action_id, "an action id", 0, len(self.ACTIONS) - 1)]

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The action ids of ``legal_moves(seat)``."""
        ids = self._ACTION_ID
        return [ids[m] for m in self.legal_moves(seat)]

    def determinize(self, seat: Any, seed: int | None = None) -> Game:
        """A game drawn uniformly among those ``seat`` cannot tell apart from this one: every
        card it cannot see is dealt again; the sample depends only on what ``seat`` may know.
        Its record and events need not replay; later reshuffles come from ``seed``."""
        return self._determinize(as_int(seat, "seat", 0, self._players - 1), check_seed(seed))

    def _determinize(self, seat: int, seed: int) -> Game:
        raise NotImplementedError

    @classmethod
    def _register_actions(cls, actions: tuple[str, ...]) -> None:
        cls.ACTIONS = actions
        cls._ACTION_ID = {m: i for i, m in enumerate(actions)}

    def _ensure_over(self) -> None:
        if not self.is_over:
            raise ValueError("the game is not over yet; result() is only available at the end")

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"to_move={self.to_move}"
        return f"<{type(self).__name__} players={self._players} seed={self._seed} {state}>"
