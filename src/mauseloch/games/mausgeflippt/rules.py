"""Mausgeflippt exactly as ``docs/rules/mausgeflippt.md`` fixes it (rule ids MG-n in comments).

A speed game: the revealer turns a mouse face up, then every seat may react at once and the
first reaction the engine receives resolves the mouse (MG-3..MG-6). The engine has no clock:
the caller decides the order of arrival and may pass each reaction's time (``ms``), which is
recorded but never judged.

Representation (mutable state, like Mau-Mau): the 26 clothing faces are ints ``0..25`` in the
order of the spec's table, a hand is a list of 26 counts plus a bit mask of the faces held, so
"which of my cards fit this mouse" is one ``&`` with the mouse's mask. Legal reaction lists are
memoised per mask. Draw pile and discard pile keep their top at the end of a list; the mouse
pile and the cheese pile are deques with their top on the left.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, cast

import msgspec

from mauseloch.core.engine import (
    Game,
    IllegalMove,
    Rng,
    as_int,
    check_deck,
    competition_ranks,
    derive_seed,
    whole_number,
)
from mauseloch.core.registry import OptionSpec
from mauseloch.core.seeds import STREAM_DEAL, STREAM_DETERMINIZE, STREAM_RESHUFFLE
from mauseloch.core.shapes import OptionDict
from mauseloch.games.mausgeflippt.cards import (
    CHEESE_ID,
    CHEESES,
    CLOTHING_DECK,
    FACE_ID,
    FACES,
    FULL_DECK,
    MAX_CARDS_DEALT,
    MICE,
    MOUSE_CHEESE,
    MOUSE_ID,
    MOUSE_MASK,
    MOUSE_WEARS,
    N_CHEESES,
    N_CLOTHING,
    N_MICE,
    NFACES,
)
from mauseloch.games.mausgeflippt.events import (
    MausgeflipptCatch,
    MausgeflipptCheeseOpen,
    MausgeflipptCheeseTaken,
    MausgeflipptDeal,
    MausgeflipptDraw,
    MausgeflipptEnd,
    MausgeflipptLaundry,
    MausgeflipptMausgeflippt,
    MausgeflipptMouseUnder,
    MausgeflipptMouseWon,
    MausgeflipptProtectedCatch,
    MausgeflipptReaction,
    MausgeflipptReshuffle,
    MausgeflipptReveal,
    MausgeflipptRevealer,
    MausgeflipptTimeout,
    MausgeflipptWrongCard,
)
from mauseloch.games.mausgeflippt.views import MausgeflipptResult, MausgeflipptView, Reason, ShownMouse

# Action codes: a catch is its face id; the rest are negative.
FLIP, TIMEOUT, REVEAL = -1, -2, -3
_REVEAL_ONLY: tuple[list[str], dict[str, int]] = (["reveal"], {"reveal": REVEAL})
_NO_MOVES: tuple[list[str], dict[str, int]] = ([], {})
_MEMO: dict[int, tuple[list[str], dict[str, int]]] = {}
# Masks kept at most, then the memo starts afresh: hands change with every reaction, so a game
# meets ever new masks (a long simulation filled hundreds of MiB), and a small memo is faster
# than a big one (bench/engine.py: +12 % decisions a second against no bound).
_MEMO_CAP = 256
CATCHES = tuple("catch " + face for face in FACES)  # the catch of each face, as a move


def _reactions_for(mask: int) -> tuple[list[str], dict[str, int]]:
    """The reactions of a seat holding the faces in ``mask``: catch each face, flip, timeout."""
    moves: dict[str, int] = {}
    bits = mask
    while bits:  # the faces held, lowest first
        low = bits & -bits
        f = low.bit_length() - 1
        moves[CATCHES[f]] = f
        bits ^= low
    if mask:
        moves["flip"] = FLIP  # MG-4: only with at least one card in hand
    moves["timeout"] = TIMEOUT
    entry = (list(moves), moves)
    if len(_MEMO) >= _MEMO_CAP:
        _MEMO.clear()
    _MEMO[mask] = entry
    return entry


def parse_card(text: str) -> str:
    """Canonical spelling of a clothing, mouse or cheese card (``" Tie-Blue" -> "tie-blue"``)."""
    s = text.strip().lower()
    if s in FACE_ID or s in MOUSE_ID or s in CHEESE_ID:
        return s
    raise ValueError(
        f"{text!r} is not a Mausgeflippt card (clothing like tie-blue, a mouse m01..m32, "
        f"or a cheese: {', '.join(CHEESES)})"
    )


def fits(card: str, mouse: str) -> bool:
    """Whether clothing ``card`` fits ``mouse`` (the mouse wears exactly that face)."""
    return card in MOUSE_WEARS[MOUSE_ID[mouse]]


def _result(reason: Reason, mice: Sequence[int], laundry: Sequence[int], cheese: Sequence[int]) -> MausgeflipptResult:
    """The result of a game that ended for ``reason`` with these mice, laundry cards and cheese
    cards per seat (MG-9: +1 a mouse, -1 a laundry card, -2 a cheese card; the highest score
    first, then the most mice)."""
    score = [w - x - 2 * c for w, x, c in zip(mice, laundry, cheese, strict=True)]
    ranks = competition_ranks([(-p, -w) for p, w in zip(score, mice, strict=True)])
    return MausgeflipptResult(
        reason=reason, ranks=ranks, mice=list(mice), laundry=list(laundry), cheese=list(cheese), score=score
    )


# What the rules log is made into events only when the log is read (core/events.py: Logged):
# these make the events whose fields the rules hold in another form.


def _deal_event(seat: int, counts: tuple[int, ...]) -> MausgeflipptDeal:
    cards = [FACES[f] for f in range(NFACES) for _ in range(counts[f])]  # in table order, as hand() has them
    return MausgeflipptDeal(seat=seat, count=len(cards), cards=cards, private=seat)


def _reveal_event(seat: int, m: int, protected: bool) -> MausgeflipptReveal:
    wears, cheese = list(MOUSE_WEARS[m]), CHEESES[MOUSE_CHEESE[m]]
    return MausgeflipptReveal(seat=seat, mouse=MICE[m], wears=wears, cheese=cheese, protected=protected)


def _shout_event(
    seat: int, mouse: str, correct: bool, washed: Sequence[int], hand_count: int, protected: bool
) -> MausgeflipptMausgeflippt:
    fitting = [FACES[f] for f in washed]
    return MausgeflipptMausgeflippt(
        seat=seat, mouse=mouse, correct=correct, fitting=fitting, hand_count=hand_count, protected=protected
    )


def _laundry_event(seat: int, cards: list[int], total: int) -> MausgeflipptLaundry:
    return MausgeflipptLaundry(seat=seat, laundry=[FACES[f] for f in cards], total=total)


def _draw_event(seat: int, got: list[int], wanted: int) -> MausgeflipptDraw:
    return MausgeflipptDraw(seat=seat, count=len(got), wanted=wanted, cards=[FACES[f] for f in got], private=seat)


def _end_event(
    reason: Reason, mice: tuple[int, ...], laundry: tuple[int, ...], cheese: tuple[int, ...]
) -> MausgeflipptEnd:
    return MausgeflipptEnd(**msgspec.to_builtins(_result(reason, mice, laundry, cheese)))


MAX_PLAYERS = 6
REVEALS = tuple((seat, "reveal") for seat in range(MAX_PLAYERS))  # a reveal as ``_moves`` holds it: shared


class Mausgeflippt(Game):
    name = "mausgeflippt"

    __slots__ = (
        "_deck",
        "_hands",
        "_log",
        "_moves",
        "_options",
        "_reshuffle_rng",
        "cheese",
        "cheese_pile",
        "counts",
        "current",
        "discard",
        "draw_pile",
        "hand_size",
        "is_over",
        "laundry",
        "masks",
        "mice",
        "mouse_pile",
        "_players",
        "protected",
        "reason",
        "revealer",
        "_seed",
        "sizes",
        "streak",
        "to_move",
        "window_ms",
    )  # fmt: skip

    @classmethod
    def create(cls, players: int, seed: int, options: OptionDict, deck: list[str] | None) -> Mausgeflippt:
        hand_size = int(options["hand_size"])
        if players * hand_size > MAX_CARDS_DEALT:
            raise ValueError(
                f"hand_size={hand_size} is too large for {players} players: "
                f"players × hand_size must be at most {MAX_CARDS_DEALT} (the clothing cards)"
            )
        if int(options["window_ms"]) < 100:  # the option's minimum already says so; kept for clarity
            raise ValueError(f"option window_ms must be at least 100, got {options['window_ms']}")
        if deck is None:
            clothing, mice, cheeses = list(CLOTHING_DECK), list(MICE), list(CHEESES)
            rng = Rng(derive_seed(seed, STREAM_DEAL))  # MG-2: the deal's own stream
            rng.shuffle(clothing)
            rng.shuffle(mice)
            rng.shuffle(cheeses)
            cards = clothing + mice + cheeses
        else:
            cards = check_deck(deck, FULL_DECK, parse_card)
            for start, size, part, table in (
                (0, N_CLOTHING, "clothing cards", FACE_ID),
                (N_CLOTHING, N_MICE, "mice", MOUSE_ID),
                (N_CLOTHING + N_MICE, N_CHEESES, "cheeses", CHEESE_ID),
            ):
                for i in range(start, start + size):
                    if cards[i] not in table:
                        raise ValueError(
                            f"deck[{i}] is {cards[i]!r}, but positions {start}..{start + size - 1} hold the "
                            f"{part}: the deck lists 58 clothing cards, then 32 mice, then 9 cheeses"
                        )
        return cls(players, seed, options, cards)

    def __init__(self, players: int, seed: int, options: OptionDict, deck: list[str]) -> None:
        super().__init__(players, seed, options, deck)
        self.hand_size = int(options["hand_size"])
        self.window_ms = int(options["window_ms"])
        self._reshuffle_rng = Rng(derive_seed(seed, STREAM_RESHUFFLE))  # MG-7: separate from the deal
        clothing = list(map(FACE_ID.__getitem__, deck[:N_CLOTHING]))
        # MG-2: one card at a time to seats 0, 1, ... until each holds hand_size.
        dealt = players * self.hand_size
        self.counts, self.masks = [], []
        for seat in range(players):
            counts, mask = [0] * NFACES, 0
            for f in clothing[seat:dealt:players]:
                counts[f] += 1
                mask |= 1 << f
            self.counts.append(counts)
            self.masks.append(mask)
        self.sizes = [self.hand_size] * players
        self.draw_pile = clothing[dealt:][::-1]  # top at the end
        self.discard: list[int] = []
        self.mouse_pile = deque(map(MOUSE_ID.__getitem__, deck[N_CLOTHING : N_CLOTHING + N_MICE]))
        self.cheese_pile = deque(map(CHEESE_ID.__getitem__, deck[N_CLOTHING + N_MICE :]))
        self.revealer = 0  # MG-1
        self.current = -1  # the revealed mouse while the window is open
        self.protected = False
        self.streak = 0  # timeouts in a row (MG-8)
        self.mice = [0] * players
        self.laundry: list[list[str]] = [[] for _ in range(players)]  # face up: public
        self.cheese: list[list[str]] = [[] for _ in range(players)]
        self._hands: list[list[str] | None] = [None] * players  # hand() cache, dropped on change
        # MG-1: seat 0 reveals first (the base class starts every game there)
        log = self._log  # (make, *args): each struct is made when the log is read (core/events.py)
        for seat in range(players):
            log.append((_deal_event, seat, tuple(self.counts[seat])))
        log.append((MausgeflipptCheeseOpen, CHEESES[self.cheese_pile[0]], len(self.cheese_pile)))

    # ------------------------------------------------------------------ legal moves
    def legal_moves(self, seat: int | None = None) -> list[str]:
        if seat is None:
            seat = self.to_move
            if seat is None:
                return []  # over, or the window is open (api.md)
        elif type(seat) is not int or not 0 <= seat < self._players:  # the common case checked at once
            self._check_seat_arg(seat)
        if self.is_over:
            return []
        if self.current < 0:
            return ["reveal"] if seat == self.revealer else []
        mask = self.masks[seat]
        return (_MEMO.get(mask) or _reactions_for(mask))[0].copy()  # a new list: the memo's stays

    # ------------------------------------------------------------------ playing
    def play(self, move: str, seat: int | None = None, ms: int | None = None) -> None:
        if self.current >= 0 and seat is not None and type(move) is str:  # a mouse is shown: not over
            # the hot path of a reaction: a known seat, a listed move, a plain ms
            if type(seat) is int and 0 <= seat < self._players and (ms is None or (type(ms) is int and ms >= 0)):
                mask = self.masks[seat]
                action = (_MEMO.get(mask) or _reactions_for(mask))[1].get(move)
                if action is not None:
                    self._react(seat, move, action, ms)
                    return
        elif (
            type(move) is str
            and move == "reveal"
            and ms is None
            and not self.is_over
            and self.current < 0
            and (seat is None or (type(seat) is int and seat == self.revealer))
        ):
            self._reveal()
            return
        actor, canon, action = self._check_move(move, seat, ms)
        if action == REVEAL:
            self._reveal()
        else:  # ms was checked: a whole number (maybe a NumPy one), recorded as a plain int
            self._react(actor, canon, action, None if ms is None else whole_number(ms))

    def _check_move(self, move: Any, seat: Any, ms: Any) -> tuple[int, str, int]:
        """The slow path of ``play``: normalise the move or explain why it is refused."""
        if self.is_over:
            raise IllegalMove(f"the game is over ({self.reason}); no more moves")
        seat = self._check_seat_arg(seat)
        if not isinstance(move, str):
            raise IllegalMove(f"a move must be a string, got {move!r}")
        canon = " ".join(move.strip().lower().split())
        window = self.current >= 0
        if ms is not None:
            number = whole_number(ms)
            if number is None or number < 0:
                raise IllegalMove(f"ms must be a whole number of milliseconds ≥ 0, got {ms!r}")
            if not window:
                raise IllegalMove("ms (a reaction time) is only allowed on reactions while a mouse is shown")
        if not window:
            if canon != "reveal":
                if canon in ("flip", "timeout") or canon.startswith("catch"):
                    raise IllegalMove(f"no mouse is shown yet: seat {self.revealer} must reveal first")
                raise IllegalMove(f"{move!r} is not a move; now seat {self.revealer} may only reveal")
            if seat is not None and seat != self.revealer:
                raise IllegalMove(f"it is seat {self.revealer}'s turn to reveal, not seat {seat}'s")
            return self.revealer, canon, REVEAL
        if canon == "timeout":
            return (self.revealer if seat is None else seat), canon, TIMEOUT
        if canon == "reveal":
            raise IllegalMove(f"a mouse ({MICE[self.current]}) is already shown; react to it or time out")
        if canon != "flip" and not canon.startswith("catch "):
            raise IllegalMove(f"{move!r} is not a move: react with 'catch kind-colour', 'flip' or 'timeout'")
        if seat is None:
            raise IllegalMove(f"a reaction names its seat: play({canon!r}, seat=...)")
        legal, table = _MEMO.get(self.masks[seat]) or _reactions_for(self.masks[seat])
        action = table.get(canon)
        if action is not None:
            return seat, canon, action
        if canon == "flip":
            raise IllegalMove(f"seat {seat} holds no cards, so cannot flip")
        card = canon[6:]
        if card not in FACE_ID:
            raise IllegalMove(f"{card!r} is not a clothing card (like tie-blue); legal now: {', '.join(legal)}")
        raise IllegalMove(f"seat {seat} does not hold {card}; legal now: {', '.join(legal)}")

    def _reveal(self) -> None:
        m = self.mouse_pile.popleft()
        self.current = m
        self.protected = MOUSE_CHEESE[m] == self.cheese_pile[0]
        self.to_move = None
        self._moves.append(REVEALS[self.revealer])
        self._log.append((_reveal_event, self.revealer, m, self.protected))

    def _react(self, actor: int, move: str, action: int, ms: int | None) -> None:
        m = self.current
        self.current = -1
        self._moves.append((actor, move) if ms is None else (actor, move, ms))
        log = self._log
        log.append((MausgeflipptReaction, actor, move, ms))
        if action == TIMEOUT:  # MG-6
            self.mouse_pile.append(m)
            self.streak += 1
            log.append((MausgeflipptTimeout, self.revealer, MICE[m], self.streak))
            log.append((MausgeflipptMouseUnder, MICE[m], len(self.mouse_pile)))
            self.revealer = (self.revealer + 1) % self._players
            if self.streak >= len(self.mouse_pile):  # MG-8: nobody will take the rest
                self._finish("mice")
                return
            log.append((MausgeflipptRevealer, self.revealer))
            self.to_move = self.revealer
            return
        self.streak = 0
        if self.protected:  # MG-5
            if action >= 0:
                self._remove(actor, action, 1)
                self.discard.append(action)
                log.append((MausgeflipptProtectedCatch, actor, FACES[action], MICE[m]))
            else:
                size = self.sizes[actor]
                washed = self._wash(actor, self.masks[actor] & MOUSE_MASK[m])
                log.append((_shout_event, actor, MICE[m], False, washed, size, True))
                if washed:
                    self._to_laundry(actor, washed)
            cheese = self.cheese_pile.popleft()
            self.cheese[actor].append(CHEESES[cheese])
            log.append((MausgeflipptCheeseTaken, actor, CHEESES[cheese], MICE[m], len(self.cheese[actor])))
            self.mouse_pile.append(m)
            log.append((MausgeflipptMouseUnder, MICE[m], len(self.mouse_pile)))
            self._draw(actor, self.hand_size - self.sizes[actor])
            if not self.cheese_pile:
                self._finish("cheese")  # MG-8
                return
            log.append((MausgeflipptCheeseOpen, CHEESES[self.cheese_pile[0]], len(self.cheese_pile)))
        elif action >= 0:  # MG-3
            self._remove(actor, action, 1)
            if MOUSE_MASK[m] >> action & 1:
                self.discard.append(action)
                self.mice[actor] += 1
                log.append((MausgeflipptCatch, actor, FACES[action], MICE[m]))
                log.append((MausgeflipptMouseWon, actor, MICE[m], "catch", self.mice[actor]))
            else:
                log.append((MausgeflipptWrongCard, actor, FACES[action], MICE[m]))
                self._to_laundry(actor, [action])
                self.mouse_pile.append(m)
                log.append((MausgeflipptMouseUnder, MICE[m], len(self.mouse_pile)))
            self._draw(actor, 1)
        else:  # MG-4
            fitting = self.masks[actor] & MOUSE_MASK[m]
            if not fitting:
                self.mice[actor] += 1
                log.append((_shout_event, actor, MICE[m], True, (), self.sizes[actor], False))
                log.append((MausgeflipptMouseWon, actor, MICE[m], "flip", self.mice[actor]))
            else:
                size = self.sizes[actor]
                washed = self._wash(actor, fitting)
                log.append((_shout_event, actor, MICE[m], False, washed, size, False))
                self._to_laundry(actor, washed)
                self.mouse_pile.append(m)
                log.append((MausgeflipptMouseUnder, MICE[m], len(self.mouse_pile)))
                self._draw(actor, len(washed))
        self.revealer = actor  # MG-6: the reacting player reveals next
        if not self.mouse_pile:
            self._finish("mice")  # MG-8: the last mouse is taken
            return
        log.append((MausgeflipptRevealer, actor))
        self.to_move = actor

    def _remove(self, seat: int, face: int, n: int) -> None:
        self._hands[seat] = None
        counts = self.counts[seat]
        counts[face] -= n
        self.sizes[seat] -= n
        if not counts[face]:
            self.masks[seat] &= ~(1 << face)

    def _wash(self, seat: int, fitting: int) -> list[int]:
        """Take every card of the faces in ``fitting`` out of the hand (they become laundry)."""
        counts = self.counts[seat]
        washed: list[int] = []
        f = 0
        while fitting:
            if fitting & 1:
                washed.extend([f] * counts[f])
                self._remove(seat, f, counts[f])
            fitting >>= 1
            f += 1
        return washed

    def _to_laundry(self, seat: int, cards: list[int]) -> None:
        laundry = self.laundry[seat]
        laundry.extend([FACES[f] for f in cards])
        self._log.append((_laundry_event, seat, cards, len(laundry)))  # ``cards`` is never changed afterwards

    def _draw(self, seat: int, count: int) -> None:
        """Draw up to ``count`` cards, reshuffling the discard pile when needed (MG-7)."""
        if count <= 0:
            return
        pile = self.draw_pile
        counts = self.counts[seat]
        self._hands[seat] = None
        got: list[int] = []
        for _ in range(count):
            if not pile:
                if not self.discard:
                    break
                pile.extend(self.discard)
                self.discard.clear()
                self._reshuffle_rng.shuffle(pile)
                self._log.append((MausgeflipptReshuffle, len(pile)))
            f = pile.pop()
            got.append(f)
            counts[f] += 1
            self.masks[seat] |= 1 << f
        self.sizes[seat] += len(got)
        self._log.append((_draw_event, seat, got, count))

    def _finish(self, reason: str) -> None:
        self.is_over = True
        self.reason = reason
        self.to_move = None
        self.current = -1
        laundry = tuple(len(x) for x in self.laundry)
        self._log.append((_end_event, reason, tuple(self.mice), laundry, tuple(len(x) for x in self.cheese)))

    # ------------------------------------------------------------------ search and learning (api.md v2)
    def clone(self) -> Mausgeflippt:
        # Written out (not a loop over the slots) for speed; the contract test checks every slot.
        new = Mausgeflippt.__new__(Mausgeflippt)
        new._players, new._seed = self._players, self._seed
        new._deck = self._deck  # a tuple, and the options are read only through a proxy: shared
        new._options = self._options
        new.to_move, new.is_over, new.reason = self.to_move, self.is_over, self.reason
        new.hand_size, new.window_ms = self.hand_size, self.window_ms
        new._log = list(self._log)  # entries are never changed after they are logged
        new._moves = list(self._moves)  # entries are never changed after they are appended
        new._reshuffle_rng = self._reshuffle_rng.copy()
        new.counts = [list(c) for c in self.counts]
        new.masks, new.sizes = list(self.masks), list(self.sizes)
        new._hands = list(self._hands)  # cached lists are replaced, never changed
        new.draw_pile, new.discard = list(self.draw_pile), list(self.discard)
        new.mouse_pile, new.cheese_pile = deque(self.mouse_pile), deque(self.cheese_pile)
        new.revealer, new.current, new.protected, new.streak = self.revealer, self.current, self.protected, self.streak
        new.mice = list(self.mice)
        new.laundry = [list(x) for x in self.laundry]
        new.cheese = [list(x) for x in self.cheese]
        return new

    def parse_move(self, text: Any, seat: int | None = None) -> str:
        return self._check_move(text, seat, None)[1]

    @staticmethod
    def _move_key(text: str) -> str:
        return " ".join(text.strip().lower().split())

    @property
    def acting_seats(self) -> frozenset[int]:
        if self.is_over:
            return frozenset()
        if self.current < 0:
            return frozenset((self.revealer,))
        return frozenset(s for s in range(self._players) if self.masks[s])  # timeout alone is no act

    def _determinize(self, seat: int, seed: int) -> Mausgeflippt:
        """Deal again what ``seat`` cannot see: the other hands and the draw pile, the mice never
        shown since the deal (those put under the pile were seen going there) and the closed
        cheeses. Each part is gathered in a fixed order first, so nothing hidden decides it."""
        rng = Rng(derive_seed(seed, STREAM_DETERMINIZE))
        d = self.clone()
        d._seed, d._deck, d._log = seed, (), []  # nothing of the real deal or its log stays
        d._reshuffle_rng = Rng(derive_seed(seed, STREAM_RESHUFFLE))
        # once over, every view shows every hand (the end screen): only the piles stay hidden
        others = [] if self.is_over else [s for s in range(self._players) if s != seat]
        pool = sorted(self.draw_pile + [f for s in others for f in self._hand_ids(s)])
        rng.shuffle(pool)
        i = 0
        for s in others:
            counts = [0] * NFACES
            for f in pool[i : i + self.sizes[s]]:
                counts[f] += 1
            i += self.sizes[s]
            d.counts[s] = counts
            d.masks[s] = sum(1 << f for f in range(NFACES) if counts[f])
        d.draw_pile = pool[i:]
        d._hands = [None] * self._players
        reveals = sum(1 for m in self._moves if m[1] == "reveal")
        unseen = max(0, N_MICE - reveals)  # the top of the pile: never revealed since the deal
        mice = list(d.mouse_pile)
        top = sorted(mice[:unseen])
        rng.shuffle(top)
        d.mouse_pile = deque(top + mice[unseen:])
        closed = sorted(list(d.cheese_pile)[1:])
        rng.shuffle(closed)
        d.cheese_pile = deque(list(d.cheese_pile)[:1] + closed)
        return d

    # ------------------------------------------------------------------ reading
    def _hand_ids(self, seat: int) -> list[int]:
        counts = self.counts[seat]
        return [f for f in range(NFACES) for _ in range(counts[f])]

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat`` in table order (library users and the engine's own tests)."""
        seat = as_int(seat, "seat", 0, self._players - 1)
        cached = self._hands[seat]
        if cached is None:
            cached = self._hands[seat] = [FACES[f] for f in self._hand_ids(seat)]
        return list(cached)

    def scores(self) -> list[int]:
        """MG-9: +1 per mouse, −1 per laundry card, −2 per cheese card (also while playing)."""
        return [self.mice[s] - len(self.laundry[s]) - 2 * len(self.cheese[s]) for s in range(self._players)]

    def typed_result(self) -> MausgeflipptResult:
        self._ensure_over()
        laundry = [len(x) for x in self.laundry]
        return _result(cast(Reason, self.reason), self.mice, laundry, [len(x) for x in self.cheese])

    def typed_view(self, seat: int | None) -> MausgeflipptView:
        m = self.current
        view = MausgeflipptView(
            **self._view_head(seat),
            revealer=self.revealer,
            window_open=m >= 0,
            mouse=None
            if m < 0
            else ShownMouse(
                mouse=MICE[m], wears=list(MOUSE_WEARS[m]), cheese=CHEESES[MOUSE_CHEESE[m]], protected=self.protected
            ),
            open_cheese=CHEESES[self.cheese_pile[0]] if self.cheese_pile else None,
            cheeses_left=len(self.cheese_pile),
            mouse_pile=len(self.mouse_pile),
            draw_pile=len(self.draw_pile),
            discard_pile=len(self.discard),
            discard_top=FACES[self.discard[-1]] if self.discard else None,
            discard=[FACES[f] for f in self.discard],  # bottom first: every card was laid face up
            hand_counts=list(self.sizes),
            laundry=[list(x) for x in self.laundry],
            mice=list(self.mice),
            cheese=[list(x) for x in self.cheese],
            score=self.scores(),
            timeouts_in_row=self.streak,
            moves_played=len(self._moves),
            is_over=self.is_over,
        )
        if seat is not None:
            view.hand = self.hand(seat)
            if self.is_over:
                view.legal_moves = []
            elif m >= 0:
                mask = self.masks[seat]
                view.legal_moves = list((_MEMO.get(mask) or _reactions_for(mask))[0])
            else:
                view.legal_moves = ["reveal"] if seat == self.revealer else []
        if self.is_over:
            view.result = self.typed_result()
            view.hands = [self.hand(s) for s in range(self._players)]
        return view


OPTIONS = (
    OptionSpec(
        "hand_size",
        int,
        7,
        "clothing cards in each hand (players × hand_size ≤ 58)",
        minimum=1,
        maximum=58,  # the clothing cards; the game checks players × hand_size ≤ 58
    ),
    OptionSpec(
        "window_ms",
        int,
        6000,
        "how long the server waits for a reaction before it plays timeout",
        minimum=100,
        maximum=3_600_000,  # an hour: a longer wait is no reaction game, and timers hold it
        house_rule=False,
    ),
)


# The action space (api.md v2): a catch per clothing face, then flip, timeout and reveal.
Mausgeflippt._register_actions((*("catch " + f for f in FACES), "flip", "timeout", "reveal"))
