"""Aus die Maus! exactly as ``docs/rules/aus-die-maus.md`` fixes it (rule ids AM-n in comments).

The game has no decisions: the only move is ``flip``. Cards are small ints (``CHEESE`` 0,
``MOUSE1``..``MOUSE3`` 1..3 = the number of paws, ``CAT`` 4); a stack is a deque with its top at
the left, so a flip is ``popleft`` and a won pile goes under it with ``extend`` (AM-7).

The fast kernel ``mauseloch.games.ausdiemaus.kernel`` plays the same games from the same seed or deck;
``tests/kernels/test_ausdiemaus.py`` keeps the two identical.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, Final, cast

import msgspec

from mauseloch.core.engine import Game, IllegalMove, Rng, check_deck, competition_ranks, derive_seed
from mauseloch.core.registry import OptionSpec
from mauseloch.core.seeds import STREAM_DEAL, STREAM_DETERMINIZE
from mauseloch.core.shapes import OptionDict
from mauseloch.games.ausdiemaus.events import (
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
    Reason,
)
from mauseloch.games.ausdiemaus.views import AusDieMausResult, AusDieMausView, Chase, Phase

CHEESE, MOUSE1, MOUSE2, MOUSE3, CAT = 0, 1, 2, 3, 4
CARD_STR = ("cheese", "mouse1", "mouse2", "mouse3", "cat")
CARD_ID = {s: c for c, s in enumerate(CARD_STR)}
CALL: Final = "Mouse, watch out, the cat is coming!"

# Canonical deck order (before the seeded shuffle); the kernel builds the same list.
FULL_COUNTS = (58, 6, 6, 6, 14)  # 90 cards
SMALL_COUNTS = (29, 3, 3, 3, 7)  # AM-2: the red backs, 45 cards
FULL_CHIPS, SMALL_CHIPS = 9, 5


def deck_ids(small: bool) -> list[int]:
    """The game's deck as card ids in canonical order (cheese, mice by paws, cats)."""
    counts = SMALL_COUNTS if small else FULL_COUNTS
    return [card for card, count in enumerate(counts) for _ in range(count)]


FULL_DECK = tuple(CARD_STR[c] for c in deck_ids(False))
SMALL_DECK = tuple(CARD_STR[c] for c in deck_ids(True))

# Phases of the player to move.
NORMAL, CHASE, START = 0, 1, 2
PHASE_NAMES: tuple[Phase, ...] = ("flip", "chase", "new_pile")
REASONS = ("chips", "empty_stack", "endless")


def parse_card(text: str) -> str:
    """Canonical spelling of a card string (``" Mouse2" -> "mouse2"``)."""
    s = text.strip().lower()
    if s not in CARD_ID:
        raise ValueError(f"{text!r} is not an Aus die Maus card (cheese, mouse1, mouse2, mouse3, cat)")
    return s


def deal(ids: list[int], players: int) -> tuple[list[deque[int]], int]:
    """AM-3: one card at a time to seats 0..n-1 until one is left; that one starts the pile.

    A dealt card lands on top of its stack, so each stack (top at the left) is the reverse of
    the order its cards were dealt.
    """
    last = len(ids) - 1
    return [deque(ids[seat:last:players][::-1]) for seat in range(players)], ids[last]


def _result(reason: Reason, cards: Sequence[int], chips: Sequence[int]) -> AusDieMausResult:
    """The result of a game that ended for ``reason`` with stacks of ``cards`` and ``chips``
    (AM-12: the biggest stack first, then the most chips)."""
    ranks = competition_ranks([(-c, -k) for c, k in zip(cards, chips, strict=True)])
    return AusDieMausResult(reason=reason, ranks=ranks, cards=list(cards), chips=list(chips))


def _end_event(
    reason: Reason, seat: int, flips: int, cards: tuple[int, ...], chips: tuple[int, ...], loop_from: int
) -> AusDieMausEnd:
    """The end event, made when the log is read (core/events.py: Logged)."""
    res = _result(reason, cards, chips)
    return AusDieMausEnd(
        reason=reason,
        seat=seat,
        flips=flips,
        ranks=res.ranks,
        cards=res.cards,
        chips=res.chips,
        # AM-11: the flip count when the repeated position first occurred
        loop_from=loop_from if reason == "endless" else msgspec.UNSET,
    )


MAX_PLAYERS = 6
FLIP: Final = "flip"
# A flip as ``_moves`` holds it and its event as the log holds it, by seat (and card): shared by
# every game, never changed (core/events.py: Logged).
FLIPS = tuple((seat, FLIP) for seat in range(MAX_PLAYERS))
FLIP_EVENTS = tuple(tuple((AusDieMausFlip, seat, name) for name in CARD_STR) for seat in range(MAX_PLAYERS))


class AusDieMaus(Game):
    name = "aus-die-maus"

    __slots__ = (
        "_deck", "_log", "_moves", "_options", "_seen", "attempts", "chips", "chips_left", "flips", "is_over",
        "loop_from", "owner", "phase", "pile", "_players", "reason", "_seed", "stacks", "to_move",
    )  # fmt: skip

    @classmethod
    def create(cls, players: int, seed: int, options: OptionDict, deck: list[str] | None) -> AusDieMaus:
        small = bool(options["small_deck"])
        if deck is None:  # AM-3: the seeded deal stream, like every game (api.md)
            ids = deck_ids(small)
            Rng(derive_seed(seed, STREAM_DEAL)).shuffle(ids)
            cards = list(map(CARD_STR.__getitem__, ids))
        else:
            cards = check_deck(deck, SMALL_DECK if small else FULL_DECK, parse_card)
        return cls(players, seed, options, cards)

    def __init__(self, players: int, seed: int, options: OptionDict, deck: list[str]) -> None:
        super().__init__(players, seed, options, deck)
        self.stacks, start = deal(list(map(CARD_ID.__getitem__, deck)), players)
        self.pile: list[int] = [start]  # oldest first; the start card has no effect (AM-3)
        self.chips = [0] * players
        self.chips_left = int(options["chips"])
        self.phase = NORMAL
        self.owner = -1  # the mouse's owner during a chase
        self.attempts = 0  # the chaser's attempts left
        # AM-1: seat 0 begins (the base class starts every game there)
        self.flips = 0
        self.loop_from = -1  # endless: the flip count when the repeated position first occurred
        # AM-11: positions after pile wins since the last chip was taken (a chip changes the
        # position for good, so older ones can never repeat) -> flip count when first seen.
        self._seen: dict[tuple[Any, ...], int] = {}
        # (make, *args): each struct is made when the log is read (core/events.py: Logged)
        self._log.append((AusDieMausDeal, [len(s) for s in self.stacks]))
        self._log.append((AusDieMausStart, CARD_STR[start]))

    # ------------------------------------------------------------------ moves
    def legal_moves(self, seat: int | None = None) -> list[str]:
        if seat is not None:
            self._check_seat_arg(seat)  # a whole number in range, never a bool
            if seat != self.to_move:
                return []
        return [] if self.is_over else [FLIP]

    def play(self, move: str, seat: int | None = None, ms: int | None = None) -> None:
        # ``"flip"`` is one string object wherever it is spelled in code (an interned literal): any
        # other object, a non-string or a NumPy array too, takes the checked path, which says why
        # a move is refused or lets another spelling of the flip through
        if move is not FLIP or seat is not None or ms is not None or self.is_over:
            self._check_move(move, seat, ms)
        p: int = self.to_move  # type: ignore[assignment]
        log = self._log
        card = self.stacks[p].popleft()
        self.pile.append(card)
        self.flips += 1
        self._moves.append(FLIPS[p])
        log.append(FLIP_EVENTS[p][card])
        phase = self.phase
        nxt = (p + 1) % self._players
        if phase == START:  # AM-8: the new pile's first card has no effect
            log.append((AusDieMausNewPile, p, CARD_STR[card]))
            self.phase = NORMAL
        elif MOUSE1 <= card <= MOUSE3:  # AM-5 (also AM-6: a mouse passes the chase on at once)
            self.owner = p
            self.attempts = card
            self.phase = CHASE
            log.append((AusDieMausCall, p, CALL, card, nxt))
            log.append((AusDieMausChase, p, nxt, card))
        elif phase == CHASE:  # AM-6
            if card == CAT:
                log.append((AusDieMausCatch, p, self.owner))
                self._win_pile(p, True)
                return
            self.attempts -= 1
            log.append((AusDieMausChase, self.owner, p, self.attempts))
            if self.attempts == 0:
                log.append((AusDieMausEscape, self.owner, p))
                self._win_pile(self.owner, False)
                return
            nxt = p  # the chaser tries again
        # AM-4: cheese or cat on a normal turn: nothing happens
        if self.stacks[nxt]:
            self.to_move = nxt
        else:  # AM-10
            self._finish("empty_stack", nxt)

    def _check_move(self, move: Any, seat: Any, ms: Any) -> None:
        """The slow path of ``play``: say why a move is refused (the game stays as it was)."""
        text = self._check_turn_move(move, seat, ms)
        if text.lower() != "flip":
            raise IllegalMove(f"{move!r} is not a move in Aus die Maus; the only move is flip")

    def _win_pile(self, winner: int, chip: bool) -> None:
        stack = self.stacks[winner]
        count = len(self.pile)
        stack.extend(self.pile)  # AM-7: under the stack, the oldest card first
        self.pile = []
        self.phase = NORMAL
        self.owner = -1
        self.attempts = 0
        if chip:
            self.chips[winner] += 1
            self.chips_left -= 1
        self._log.append((AusDieMausPileWon, winner, count, chip, self.chips[winner], self.chips_left))
        if chip and self.chips_left == 0:  # AM-9 comes before AM-11
            self._finish("chips", winner)
            return
        # AM-11: the position right after the win (pile empty, chips taken).
        if chip:
            self._seen.clear()
        key = (winner, tuple(self.chips), *map(bytes, self.stacks))
        first = self._seen.get(key)
        if first is not None:
            self.loop_from = first
            self._finish("endless", winner)
            return
        self._seen[key] = self.flips
        self.phase = START  # AM-8: the winner starts the new pile
        self.to_move = winner

    def _finish(self, reason: Reason, seat: int) -> None:
        self.is_over = True
        self.reason = reason
        self.to_move = None
        self._seen = {}
        cards = tuple(len(s) for s in self.stacks)
        self._log.append((_end_event, reason, seat, self.flips, cards, tuple(self.chips), self.loop_from))

    # ------------------------------------------------------------------ search and learning (api.md v2)
    def clone(self) -> AusDieMaus:
        # Written out (not a loop over the slots) for speed; the contract test checks every slot.
        new = AusDieMaus.__new__(AusDieMaus)
        new._players, new._seed = self._players, self._seed
        new._deck = self._deck  # a tuple, and the options are read only through a proxy: shared
        new._options = self._options
        new.to_move, new.is_over, new.reason = self.to_move, self.is_over, self.reason
        new._log = list(self._log)  # entries are never changed after they are logged
        new._moves = list(self._moves)  # entries are never changed after they are appended
        new._seen = dict(self._seen)
        new.stacks = [deque(s) for s in self.stacks]
        new.pile, new.chips = list(self.pile), list(self.chips)
        new.chips_left, new.phase, new.owner, new.attempts = self.chips_left, self.phase, self.owner, self.attempts
        new.flips, new.loop_from = self.flips, self.loop_from
        return new

    def parse_move(self, text: Any, seat: int | None = None) -> str:
        self._check_move(text, seat, None)
        return "flip"

    def _determinize(self, seat: int, seed: int) -> AusDieMaus:
        """Every stack is face down, even to its owner: all their cards are dealt again, keeping
        each stack's size. The positions seen after earlier pile wins (AM-11) belong to the real
        deal and are forgotten, so the sample's endless check starts afresh."""
        d = self.clone()
        d._seed, d._deck, d._log, d._seen = seed, (), [], {}
        pool = sorted(c for s in self.stacks for c in s)
        Rng(derive_seed(seed, STREAM_DETERMINIZE)).shuffle(pool)
        i = 0
        for s, stack in enumerate(self.stacks):
            d.stacks[s] = deque(pool[i : i + len(stack)])
            i += len(stack)
        return d

    # ------------------------------------------------------------------ reading
    def typed_result(self) -> AusDieMausResult:
        self._ensure_over()
        return _result(cast(Reason, self.reason), [len(s) for s in self.stacks], self.chips)

    def chase(self) -> Chase | None:
        """The open chase: the mouse's owner, the chaser and the chaser's attempts left."""
        if self.phase != CHASE or self.is_over or self.to_move is None:
            return None
        return Chase(owner=self.owner, chaser=self.to_move, attempts_left=self.attempts)

    def typed_view(self, seat: int | None) -> AusDieMausView:
        """What ``seat`` may know: stack sizes (never their order), the face-up pile, chips."""
        view = AusDieMausView(
            **self._view_head(seat),
            phase=None if self.is_over else PHASE_NAMES[self.phase],
            stacks=[len(s) for s in self.stacks],
            pile=[CARD_STR[c] for c in self.pile],
            top=CARD_STR[self.pile[-1]] if self.pile else None,
            chips=list(self.chips),
            chips_left=self.chips_left,
            chase=self.chase(),
            flips=self.flips,
            is_over=self.is_over,
        )
        if seat is not None:
            view.legal_moves = self.legal_moves(seat)
        if self.is_over:
            view.result = self.typed_result()
        return view


def _small_default(players: int, resolved: OptionDict) -> bool:
    return players <= 3


def _chips_default(players: int, resolved: OptionDict) -> int:
    return SMALL_CHIPS if resolved.get("small_deck") else FULL_CHIPS


OPTIONS = (
    OptionSpec(
        "small_deck",
        bool,
        None,
        "play with the red-back cards only (45 cards) and 5 chips",
        default_for=_small_default,
        default_text="true for 2-3 players, else false",
    ),
    OptionSpec(
        "chips",
        int,
        None,
        "chips in the game; the one who takes the last ends it",
        minimum=1,
        maximum=1_000_000_000,  # the kernel counts chips in 64 bits
        default_for=_chips_default,
        default_text="9, or 5 with the small deck",
    ),
)


AusDieMaus._register_actions(("flip",))  # the action space (api.md v2): one move
