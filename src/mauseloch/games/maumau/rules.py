"""Mau-Mau exactly as ``docs/rules/mau-mau.md`` fixes it (rule ids MM-n in comments).

Cards are ints ``suit * 8 + rank`` (ranks 7 8 9 T J Q K A, suits C S H D) and a hand is a
32-bit mask, so "which cards fit" is one ``&``. Legal move lists are memoised per (fitting
cards, phase): a simulation asks for the same few hundred lists millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import msgspec

from mauseloch.core.engine import Game, IllegalMove, Rng, as_int, check_deck, check_seed, competition_ranks, derive_seed
from mauseloch.core.registry import OptionSpec
from mauseloch.core.seeds import STREAM_DEAL, STREAM_DETERMINIZE, STREAM_RESHUFFLE
from mauseloch.core.shapes import JSONObject, OptionDict
from mauseloch.games.maumau.events import (
    WISHES,
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
)
from mauseloch.games.maumau.views import MauMauResult, MauMauView, Played, Reason, seat_view
from mauseloch.locale import t as say

RANKS = "789TJQKA"
SUITS = "CSHD"
POINTS = (7, 8, 9, 10, 2, 3, 4, 11)  # by rank index: A 11, T 10, K 4, Q 3, J 2, 9/8/7 face
SEVEN, EIGHT, NINE, JACK, ACE = 0, 1, 2, 4, 7
MAX_PLAYERS = 5

CARD_STR = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(32))
CARD_ID = {s: c for c, s in enumerate(CARD_STR)}
FULL_DECK = tuple(CARD_STR[s * 8 + r] for s in range(4) for r in range(8))
SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASK = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))
JACKS = RANK_MASK[JACK]
SEVENS = RANK_MASK[SEVEN]
BIT = tuple(1 << c for c in range(32))  # a card's bit in a hand
# A card's rank if the rank may act when played (seven, eight, nine, ace: MM-9..MM-11), else -1
ACTING_RANK = tuple(c & 7 if c & 7 in (SEVEN, EIGHT, NINE, ACE) else -1 for c in range(32))
CARD_FIT = tuple(SUIT_MASK[c >> 3] | RANK_MASK[c & 7] | JACKS for c in range(32))  # MM-4, MM-5, no wish

# Action codes: a plain card is its id; a jack with a wish is JACK_BASE + card * 4 + suit.
JACK_BASE = 100
DRAW, PASS, TAKE = -1, -2, -3
PHASE_PENALTY = 1 << 32
PHASE_DRAWN = 1 << 33

_NO_MOVES: tuple[list[str], dict[str, int]] = ([], {})
_MEMO: dict[int, tuple[list[str], dict[str, int]]] = {}
_MEMO_CAP = 1 << 16  # keys kept at most, then the memo starts afresh: a long simulation meets ever more
_DRAW_ONLY = (["draw"], {"draw": DRAW})
_PASS_ONLY = (["pass"], {"pass": PASS})


def _moves_for(key: int) -> tuple[list[str], dict[str, int]]:
    """The legal list and its string -> action index for a memo key (see ``_legal_key``)."""
    moves: dict[str, int] = {}
    bits = key & 0xFFFFFFFF
    c = 0
    while bits:
        if bits & 1:
            if c & 7 == JACK:
                for w in range(4):
                    moves[CARD_STR[c] + ":" + SUITS[w]] = JACK_BASE + c * 4 + w
            else:
                moves[CARD_STR[c]] = c
        bits >>= 1
        c += 1
    if key & PHASE_PENALTY:
        moves["take"] = TAKE
    elif key & PHASE_DRAWN:
        moves["pass"] = PASS
    entry = (list(moves), moves)
    if len(_MEMO) >= _MEMO_CAP:
        _MEMO.clear()
    _MEMO[key] = entry
    return entry


# Input spellings people use (the spec's own is the output): suit symbols, also the outlined
# ones, and 10 for the ten; upper or lower case.
SUIT_SYMBOL_LETTER = str.maketrans({"♣": "C", "♠": "S", "♥": "H", "♦": "D", "♧": "C", "♤": "S", "♡": "H", "♢": "D"})
CARD_HELP = "rank 7 8 9 T J Q K A (10 for T), then suit C S H D or ♣ ♠ ♥ ♦"
WISH_HELP = "C (♣ clubs), S (♠ spades), H (♥ hearts) or D (♦ diamonds)"


def _spell(text: str) -> str:
    """Upper case with suit letters and T for the ten: ``" 10♥ " -> "TH"`` (maybe no card)."""
    s = text.strip().upper().translate(SUIT_SYMBOL_LETTER)
    return "T" + s[2:] if s.startswith("10") else s


def fit_mask(top: int, wish: int, no_jack_on_jack: bool) -> int:
    """The cards (a mask of ids) that fit on ``top`` with ``wish`` open (-1: none): MM-4, MM-5,
    MM-12. Public so a bot can tell what a rival who had to draw did not hold (MM-6)."""
    if wish >= 0:  # a wish is open: only the wished suit, or a jack
        fit = SUIT_MASK[wish]
        return fit & ~JACKS if no_jack_on_jack else fit | JACKS
    fit = CARD_FIT[top]
    if no_jack_on_jack and top & 7 == JACK:
        fit &= ~JACKS
    return fit


def parse_card(text: str) -> str:
    """Canonical spelling of a card string (``"7h " -> "7H"``, ``"10♥" -> "TH"``)."""
    s = _spell(text)
    if s not in CARD_ID:
        raise ValueError(f"{text!r} is not a Mau-Mau card: {CARD_HELP}")
    return s


def parse_wish(text: str) -> str:
    """The suit letter of a jack's wish (``"h"``, ``"♥"`` -> ``"H"``), else a ValueError saying what
    a wish may be."""
    s = _spell(text)
    if len(s) == 1 and s in SUITS:
        return s
    if not s:
        raise ValueError(f"a jack needs a wished suit: {WISH_HELP}")
    raise ValueError(f"{text.strip()!r} is not a suit to wish: wish {WISH_HELP}")


def canonical_move(text: str) -> str:
    """The spec's spelling of a move string, legal or not (``" 10h" -> "TH"``, ``"js:♥" -> "JS:H"``)."""
    low = text.strip().lower()
    if low in ("draw", "pass", "take"):
        return low
    card, colon, wish = text.partition(":")
    return _spell(card) + colon + wish.strip().upper().translate(SUIT_SYMBOL_LETTER)


def _bits_to_cards(bits: int) -> list[str]:
    """The cards of a hand's bits, lowest id first: by suit, then rank (hand order, as
    :func:`sort_key` orders them, since a card's id is ``suit * 8 + rank``)."""
    cards = []
    while bits:
        low = bits & -bits
        cards.append(CARD_STR[low.bit_length() - 1])
        bits ^= low
    return cards


def sort_key(card: str) -> tuple[int, int]:
    """Hand order for people: by suit, then rank."""
    return (SUITS.index(card[1]), RANKS.index(card[0]))


# The points of the cards of one suit's byte of a hand (bit r: rank r), for a hand's points.
BYTE_POINTS = tuple(sum(POINTS[r] for r in range(8) if b >> r & 1) for b in range(256))


def _result(reason: Reason, hands: Sequence[int]) -> MauMauResult:
    """The result of a game that ended for ``reason`` with ``hands`` (MM-16: fewest cards, then
    fewest card points)."""
    cards = [h.bit_count() for h in hands]
    points = [BYTE_POINTS[h & 0xFF] + BYTE_POINTS[h >> 8 & 0xFF] + BYTE_POINTS[h >> 16 & 0xFF] + BYTE_POINTS[h >> 24]
              for h in hands]  # fmt: skip
    ranks = competition_ranks(list(zip(cards, points, strict=True)))
    return MauMauResult(reason=reason, ranks=ranks, cards=cards, points=points)


# What the rules log is made into events only when the log is read (core/events.py: Logged):
# these make the events whose fields the rules hold in another form.


def _deal_event(seat: int, hand: int) -> MauMauDeal:
    cards = _bits_to_cards(hand)
    return MauMauDeal(seat=seat, count=len(cards), cards=cards, private=seat)


def _draw_event(seat: int, got: Sequence[int]) -> MauMauDraw:
    return MauMauDraw(seat=seat, count=len(got), cards=[CARD_STR[c] for c in got], private=seat)


def _end_event(reason: Reason, hands: tuple[int, ...]) -> MauMauEnd:
    return MauMauEnd(**msgspec.to_builtins(_result(reason, hands)))


# A card played and a card drawn as the log holds them, by seat and card: shared by every game,
# never changed (tuples made into their events when the log is read, core/events.py: Logged).
PLAY_EVENTS = tuple(tuple((MauMauPlay, seat, name) for name in CARD_STR) for seat in range(MAX_PLAYERS))
DRAW_EVENTS = tuple(tuple((_draw_event, seat, (card,)) for card in range(32)) for seat in range(MAX_PLAYERS))


class MauMau(Game):
    name = "mau-mau"

    __slots__ = (
        "_players", "_seed", "_options", "_deck", "to_move", "is_over", "_log", "_moves",
        "hands", "draw_pile", "discard", "top", "wish", "penalty",
        "direction", "drawn", "fit", "reason", "winner", "_legal", "_reshuffle_rng",
        "_ace_skips", "_then_play", "_no_jack_on_jack", "_no_win_with_jack", "_move_limit", "_shared_view",
    )  # fmt: skip
    _shared_view: tuple[int, MauMauView] | None  # the moves played and the public view of then

    @classmethod
    def create(cls, players: int, seed: int, options: OptionDict, deck: list[str] | None) -> MauMau:
        if deck is None:
            cards = list(FULL_DECK)
            Rng(derive_seed(seed, STREAM_DEAL)).shuffle(cards)
        else:
            cards = check_deck(deck, FULL_DECK, parse_card)
        return cls(players, seed, options, cards)

    def __init__(self, players: int, seed: int, options: OptionDict, deck: list[str]) -> None:
        super().__init__(players, seed, options, deck)
        self._ace_skips: bool = bool(options["ace_skips"])
        self._then_play: bool = bool(options["seven_draw_then_play"])
        self._no_jack_on_jack: bool = bool(options["no_jack_on_jack"])
        self._no_win_with_jack: bool = bool(options["no_win_with_jack"])
        self._move_limit: int = int(options["move_limit"])
        self._reshuffle_rng: Rng | None = None  # made at the first reshuffle (most games have none)
        ids = list(map(CARD_ID.__getitem__, deck))
        # MM-2: five rounds, one card at a time to seats 0..n-1; next card starts the pile.
        n, bit = players, BIT
        hands = [bit[ids[s]] | bit[ids[s + n]] | bit[ids[s + 2 * n]] | bit[ids[s + 3 * n]] | bit[ids[s + 4 * n]]
                 for s in range(n)]  # fmt: skip
        self.hands = hands
        dealt = 5 * n
        self.top = ids[dealt]
        self.discard = [self.top]
        self.draw_pile = ids[:dealt:-1]  # the rest, top of the draw pile at the end
        self.wish = -1  # MM-3: the starting card has no effect, not even a jack's wish
        self.penalty = 0
        self.direction = 1
        self.drawn = -1  # the card just drawn while its player may still play it (MM-7)
        self.winner: int | None = None
        self._legal: tuple[list[str], dict[str, int]] | None = None
        self._update_fit()
        log = self._log  # (make, *args): each struct is made when the log is read (core/events.py)
        for seat in range(players):
            log.append((_deal_event, seat, hands[seat]))
        log.append((MauMauStart, CARD_STR[self.top]))

    # ------------------------------------------------------------------ legal moves
    def _update_fit(self) -> None:
        """The mask of cards that fit now (MM-4, MM-5, MM-12)."""
        self.fit = fit_mask(self.top, self.wish, self._no_jack_on_jack)

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def legal_moves(self, seat: int | None = None) -> list[str]:
        if seat is not None:
            self._check_seat_arg(seat)
            if seat != self.to_move:
                return []
        legal = self._legal
        if legal is None:  # computed once per position; play() reuses it
            if self.is_over:
                legal = _NO_MOVES
            else:
                hand = self.hands[self.to_move]  # type: ignore[index]
                if self.penalty:  # MM-9: any seven, or take
                    key = (hand & SEVENS) | PHASE_PENALTY
                elif self.drawn >= 0:  # MM-7: the drawn card, or keep it
                    key = (1 << self.drawn) | PHASE_DRAWN
                else:
                    key = hand & self.fit  # MM-6: must play when a card fits
                if key:
                    legal = _MEMO.get(key) or _moves_for(key)
                else:  # MM-6, MM-14: nothing fits
                    legal = _DRAW_ONLY if self._can_draw() else _PASS_ONLY
            self._legal = legal
        return legal[0].copy()  # a new list: the memo's stays as it is

    def _legal_table(self) -> tuple[list[str], dict[str, int]]:
        """The legal moves of the player to move, with each string's action code."""
        if self._legal is None:
            self.legal_moves()
        return self._legal  # type: ignore[return-value]

    # ------------------------------------------------------------------ playing
    def play(self, move: str, seat: int | None = None, ms: int | None = None) -> None:
        legal = self._legal or self._legal_table()
        try:
            action = legal[1].get(move)
        except TypeError:  # an unhashable non-string (a list): the checked path refuses it
            action = None
        if action is None or seat is not None or ms is not None:  # the checked path
            move, action = self._check_move(move, seat, ms)
        actor: int = self.to_move  # type: ignore[assignment]
        self._legal = None
        moves = self._moves
        moves.append((actor, move))
        if action >= 0:  # a card (inlined: two moves in three are card plays)
            if action >= JACK_BASE:
                card, wish = divmod(action - JACK_BASE, 4)
            else:
                card, wish = action, -1
            hand = self.hands[actor] & ~(1 << card)
            self.hands[actor] = hand
            self.discard.append(card)
            self.top = card
            self.wish = wish
            self.drawn = -1
            log = self._log
            log.append(PLAY_EVENTS[actor][card])
            if wish >= 0:
                log.append((MauMauWish, actor, WISHES[wish]))
                # _update_fit inlined on the hot path; a played jack always carries a wish.
                fit = SUIT_MASK[wish]
                self.fit = fit & ~JACKS if self._no_jack_on_jack else fit | JACKS
            else:
                self.fit = CARD_FIT[card]
            left = hand.bit_count()
            n = self._players
            d = self.direction
            if left == 0:
                # MM-15: a last jack does not win with the option, unless nothing can be drawn.
                if not (wish >= 0 and self._no_win_with_jack and self._can_draw()):
                    self._finish("out", actor)
                    return  # the winning card has no effect
                log.append((MauMauJackNoWin, actor))
                self._draw(actor, 1)
                nxt = (actor + d) % n
            else:
                if left == 1:
                    log.append((MauMauMau, actor))  # MM-13
                rank = ACTING_RANK[card]
                if rank < 0:  # a card without an effect: the next seat
                    nxt = (actor + d) % n
                elif rank == SEVEN:  # MM-9
                    self.penalty += 2
                    nxt = (actor + d) % n
                    log.append((MauMauPenalty, nxt, self.penalty))
                elif rank == EIGHT or (rank == ACE and self._ace_skips):  # MM-10, MM-11
                    log.append((MauMauSkip, (actor + d) % n))
                    nxt = (actor + 2 * d) % n
                elif rank == NINE:  # MM-10a
                    d = self.direction = -d
                    log.append((MauMauReverse, actor, 1 if d > 0 else -1))
                    nxt = actor if n == 2 else (actor + d) % n
                else:
                    nxt = (actor + d) % n
            self.to_move = nxt
        elif action == DRAW:
            # MM-6/MM-7: one card; if it fits, play it or pass, otherwise the turn passes at once.
            pile = self.draw_pile
            if pile:  # _draw(actor, 1) written out: no reshuffle needed
                card = pile.pop()
                self.hands[actor] |= BIT[card]
                self._log.append(DRAW_EVENTS[actor][card])
            else:
                got = self._draw(actor, 1)
                card = got[0] if got else -1
            if card >= 0 and BIT[card] & self.fit:
                self.drawn = card
            else:
                self.to_move = (actor + self.direction) % self._players
        elif action == PASS:
            self.drawn = -1
            self._log.append((MauMauPass, actor))
            self.to_move = (actor + self.direction) % self._players
        else:
            self._take(actor)
        # MM-14a: a win was handled already; then stalemate (MM-14), then the move limit (MM-15a).
        if not self.draw_pile and not self.is_over:
            self._check_stalemate()
        if len(moves) >= self._move_limit and not self.is_over:
            self._finish("move_limit", None)

    def _check_move(self, move: Any, seat: Any, ms: Any) -> tuple[str, int]:
        """The slow path of ``play``: explain why a move is refused, or normalise its spelling."""
        canon = canonical_move(self._check_turn_move(move, seat, ms))
        legal = self._legal_table()
        action = legal[1].get(canon)
        if action is not None:
            return canon, action
        key, params = self._why_illegal(move, canon, legal[0])
        moves = ", ".join(legal[0])
        text = f"{say(key, 'en', **params)}; {say('refuse.legalNow', 'en', moves=moves)}"
        raise IllegalMove(text, key, moves=moves, **params)

    def _why_illegal(self, raw: str, canon: str, legal: list[str]) -> tuple[str, dict[str, object]]:
        """Why ``canon`` (spelled as the spec spells moves) is not legal now: the refusal's key in
        the message catalogue (locale/refusals.toml) and its placeholders."""
        if canon in ("draw", "pass", "take"):
            return self._why_not(canon)
        card, colon, wish = canon.partition(":")
        if card not in CARD_ID:
            return "refuse.mm.notAMove", {"raw": repr(raw)}
        cid = CARD_ID[card]
        is_jack = cid & 7 == JACK
        if not self.hands[self.to_move] >> cid & 1:  # type: ignore[index]
            return "refuse.mm.notInHand", {"card": card}
        if is_jack and any(m.startswith(card + ":") for m in legal):  # the jack may go: the wish is wrong
            try:
                parse_wish(wish)
            except ValueError:
                if not _spell(wish):
                    return "refuse.mm.noWish", {"card": card}
                return "refuse.mm.badWish", {"card": card, "wish": repr(wish.strip())}
        if not is_jack and colon and card in legal:
            return "refuse.mm.wishWithoutJack", {"card": card, "wish": wish}
        if self.penalty:
            return "refuse.mm.penalty", {"n": self.penalty}
        if self.drawn >= 0:
            return "refuse.mm.afterDraw", {"card": CARD_STR[self.drawn]}
        if is_jack and self._no_jack_on_jack and self.top & 7 == JACK:
            if self.wish >= 0:
                return "refuse.mm.noJackOnJackWish", {"suit": SUITS[self.wish]}
            return "refuse.mm.noJackOnJack", {}
        if self.wish >= 0:
            return "refuse.mm.noFitWish", {"card": card, "suit": SUITS[self.wish]}
        return "refuse.mm.noFit", {"card": card, "top": CARD_STR[self.top]}

    def _why_not(self, word: str) -> tuple[str, dict[str, object]]:
        """Why ``draw``, ``pass`` or ``take`` is refused now (MM-6, MM-7, MM-9, MM-14)."""
        if self.penalty:
            return ("refuse.mm.penaltyDraw" if word == "draw" else "refuse.mm.penalty"), {"n": self.penalty}
        if word == "take":
            return "refuse.mm.nothingToTake", {}
        if self.drawn >= 0:
            return "refuse.mm.drawnAlready", {"card": CARD_STR[self.drawn]}
        fitting = [CARD_STR[c] for c in range(32) if (self.hands[self.to_move] & self.fit) >> c & 1]  # type: ignore[index]
        if fitting:
            return "refuse.mm.mustPlay", {"cards": ", ".join(fitting)}
        if word == "pass":
            return "refuse.mm.drawFirst", {}
        return "refuse.mm.stockEmpty", {}

    def _draw(self, seat: int, count: int) -> list[int]:
        """Draw up to ``count`` cards, reshuffling the discard pile when needed (MM-8)."""
        got: list[int] = []
        pile = self.draw_pile
        for _ in range(count):
            if not pile:
                if len(self.discard) <= 1:
                    break
                pile.extend(self.discard[:-1])
                del self.discard[:-1]
                if self._reshuffle_rng is None:  # MM-8: its own stream, apart from the deal
                    self._reshuffle_rng = Rng(derive_seed(self._seed, STREAM_RESHUFFLE))
                self._reshuffle_rng.shuffle(pile)
                self._log.append((MauMauReshuffle, len(pile)))
            got.append(pile.pop())
        hand = self.hands[seat]
        for c in got:
            hand |= 1 << c
        self.hands[seat] = hand
        self._log.append((_draw_event, seat, got))  # ``got`` is never changed afterwards
        return got

    def _take(self, actor: int) -> None:
        amount = self.penalty
        self._log.append((MauMauTake, actor, amount))  # then the draw event says how many came
        self._draw(actor, amount)
        self.penalty = 0
        if not self._then_play:  # MM-9: taking costs the turn unless the option says otherwise
            self.to_move = (actor + self.direction) % self._players

    def _check_stalemate(self) -> None:
        """MM-14: no penalty, nothing to draw, and no hand holds a card that fits."""
        if not self.penalty and not self.draw_pile and len(self.discard) <= 1:
            fit = self.fit
            if not any(h & fit for h in self.hands):
                self._finish("stalemate", None)

    def _finish(self, reason: str, winner: int | None) -> None:
        self.is_over = True
        self.reason = reason
        self.winner = winner
        self.to_move = None
        self._legal = None
        if winner is not None:
            self._log.append((MauMauMauMau, winner))
        self._log.append((_end_event, reason, tuple(self.hands)))

    # ------------------------------------------------------------------ search and learning (api.md v2)
    def clone(self) -> MauMau:
        # Written out (not a loop over the slots): a clone is a search bot's hot path, a few µs.
        # The contract test checks that no slot is forgotten.
        new = MauMau.__new__(MauMau)
        new._players, new._seed = self._players, self._seed
        new._deck = self._deck  # a tuple, and the options are read only through a proxy: shared
        new._options = self._options
        new.to_move, new.is_over, new.reason, new.winner = self.to_move, self.is_over, self.reason, self.winner
        new._log = list(self._log)  # entries are never changed after they are logged
        new._moves = list(self._moves)
        new.hands = list(self.hands)  # ints: a copied list is a copied hand
        new.draw_pile = list(self.draw_pile)
        new.discard = list(self.discard)
        new.top, new.wish, new.penalty, new.direction = self.top, self.wish, self.penalty, self.direction
        new.drawn, new.fit, new._legal = self.drawn, self.fit, self._legal  # _legal's lists are never changed
        rng = self._reshuffle_rng
        new._reshuffle_rng = None if rng is None else rng.copy()
        new._ace_skips, new._then_play = self._ace_skips, self._then_play
        new._no_jack_on_jack, new._no_win_with_jack = self._no_jack_on_jack, self._no_win_with_jack
        new._move_limit = self._move_limit
        new._shared_view = None  # built anew by the clone's first view
        return new

    def parse_move(self, text: Any, seat: int | None = None) -> str:
        return self._check_move(text, seat, None)[0]

    @staticmethod
    def _move_key(text: str) -> str:
        s = text.strip()
        low = s.lower()
        return low if low in ("draw", "pass", "take") else s.upper()

    def _determinize(self, seat: int, seed: int) -> MauMau:
        sample = MauMau.from_view(self.typed_view(seat), seed)
        sample._moves = list(self._moves)  # every Mau-Mau move string is public
        return sample

    @classmethod
    def from_view(cls, view: MauMauView | JSONObject, seed: int | None = None, deal: list[str] | None = None) -> MauMau:
        """A game that ``view``'s seat cannot tell apart from the one the view was taken from.

        Every card the seat cannot see (the other hands, the draw pile) is dealt at random from
        ``seed``, or as ``deal`` lists it: the other seats' hands in seat order, then the draw pile
        top first (a search bot with its own inference deals this way). When the seat to move is
        another seat deciding on a drawn card (MM-7), that card is one of its cards that fits (the
        first that fits in ``deal``). The game plays on under the same rules; later reshuffles
        come from ``seed``. Its record and events do not replay (the sample has no history).
        ``view`` is the seat's view struct or, as the public API documents, its JSON form
        (``g.view(seat)``), which is converted first.
        """
        if isinstance(view, dict):
            try:
                view = msgspec.convert(view, MauMauView)
            except msgspec.ValidationError as exc:
                raise ValueError(f"from_view needs the view of a seat of a Mau-Mau game: {exc}") from None
        view = seat_view(view, "from_view")
        seed = check_seed(seed)
        seat, players, counts = view.own_seat, view.players, list(view.hand_counts)
        game = cls.__new__(cls)
        Game.__init__(game, players, seed, dict(view.options), [])
        options = game.options
        game._ace_skips = bool(options["ace_skips"])
        game._then_play = bool(options["seven_draw_then_play"])
        game._no_jack_on_jack = bool(options["no_jack_on_jack"])
        game._no_win_with_jack = bool(options["no_win_with_jack"])
        game._move_limit = int(options["move_limit"])
        game._reshuffle_rng = None  # made from this sample's seed at its first reshuffle
        discard = [CARD_ID[c] for c in view.discard]
        game.discard = discard
        game.top = discard[-1]
        game.wish = SUITS.index(view.wish) if view.wish else -1
        game.penalty = view.penalty
        game.direction = view.direction
        game.to_move = view.to_move
        game.winner = None
        game._legal = None
        game._update_fit()
        recent = [(m.seat, m.move) for m in view.played]
        game._moves = [(-1, "?")] * (view.moves_played - len(recent)) + recent
        own = 0
        for card in view.own_hand:
            own |= 1 << CARD_ID[card]
        seen = own
        for c in discard:
            seen |= 1 << c
        pool = [c for c in range(32) if not seen >> c & 1]  # in id order: nothing hidden decides it
        decider = view.to_move if view.deciding_drawn and view.to_move != seat else None
        drawn = -1
        if deal is not None:
            ids = [CARD_ID[parse_card(c)] for c in deal]
            if sorted(ids) != pool:
                raise ValueError("deal must list exactly the cards the seat cannot see")
            if decider is not None:
                start = sum(counts[s] for s in range(decider) if s != seat)
                drawn = next((c for c in ids[start : start + counts[decider]] if 1 << c & game.fit), -1)
                if drawn < 0:
                    raise ValueError(f"seat {decider} decides on a drawn card, but deal gives it none that fits")
        else:
            rng = Rng(derive_seed(seed, STREAM_DETERMINIZE))
            if decider is not None:  # MM-7: the card it drew fits; uniform among the hidden ones that do
                fitting = [c for c in pool if 1 << c & game.fit]
                drawn = fitting[rng.below(len(fitting))]
                pool.remove(drawn)
            rng.shuffle(pool)
            ids = pool
            if decider is not None:
                ids.insert(sum(counts[s] for s in range(decider) if s != seat), drawn)
        if view.is_over:  # the end screen shows every hand
            assert not isinstance(view.hands, msgspec.UnsetType) and not isinstance(view.result, msgspec.UnsetType)
            hands = [sum(1 << CARD_ID[c] for c in h) for h in view.hands]
            held = 0
            for h in hands:
                held |= h
            ids = [c for c in ids if not held >> c & 1]
            game.is_over = True
            game.reason = view.result.reason
            game.to_move = None
            game.winner = next((s for s in range(players) if not hands[s]), None)
        else:
            hands = []
            i = 0
            for s in range(players):
                if s == seat:
                    hands.append(own)
                    continue
                hand = 0
                for c in ids[i : i + counts[s]]:
                    hand |= 1 << c
                hands.append(hand)
                i += counts[s]
            ids = ids[i:]
        game.hands = hands
        game.draw_pile = ids[::-1]  # top at the end
        if game.to_move == seat and isinstance(view.drawn, str):
            drawn = CARD_ID[view.drawn]
        game.drawn = drawn
        return game

    def redealt(self, seat: int, ids: list[int], seed: int) -> MauMau:
        """A clone in which every card ``seat`` cannot see is dealt as ``ids`` lists them (card
        ids: the other seats' hands in seat order, each as many cards as it holds now, then the
        draw pile top first), and later reshuffles (MM-8) come from ``seed``.

        For a search that deals thousands of samples of one position: on a sample made by
        ``from_view(view, seed, deal)`` it gives what ``from_view(view, seed2, deal2)`` would, at
        the cost of a clone. Only while no other seat decides on a drawn card (MM-7), whose card
        would have to fit."""
        if self.drawn >= 0 and self.to_move != seat:
            raise ValueError("redealt: another seat decides on a drawn card; use from_view")
        game = self.clone()
        hands = game.hands
        i = 0
        for s in range(len(hands)):
            if s != seat:
                n = hands[s].bit_count()
                hand = 0
                for c in ids[i : i + n]:
                    hand |= 1 << c
                hands[s] = hand
                i += n
        if len(ids) - i != len(self.draw_pile):
            raise ValueError("redealt: ids must list exactly the cards the seat cannot see")
        game.draw_pile = ids[i:][::-1]  # top at the end
        game._seed = seed
        game._reshuffle_rng = None  # made from ``seed`` at the next reshuffle
        game._legal = None
        return game

    def _recent_moves(self, seat: int) -> list[Played]:
        """The moves since ``seat``'s own last move, that one included (all when it has none)."""
        moves = self._moves
        i = len(moves) - 1
        while i >= 0 and moves[i][0] != seat:
            i -= 1
        return [Played(m[0], m[1]) for m in moves[max(i, 0) :]]

    # ------------------------------------------------------------------ reading
    def refused_cards(self, seat: int | None) -> dict[str, tuple[str, dict[str, object]]]:
        if seat is None or seat != self.to_move or self.is_over:
            return {}
        names, actions = self._legal_table()
        playable = 0  # the cards some legal move lays (a jack with any wish)
        for action in actions.values():
            if action >= JACK_BASE:
                playable |= 1 << (action - JACK_BASE) // 4
            elif action >= 0:
                playable |= 1 << action
        refused: dict[str, tuple[str, dict[str, object]]] = {}
        for card in self.hand(seat):
            if not playable >> CARD_ID[card] & 1:
                refused[card] = self._why_illegal(card, card, names)
        return refused

    def hand(self, seat: int) -> list[str]:
        """The cards of ``seat`` in hand order (library users and the engine's own tests)."""
        return _bits_to_cards(self.hands[as_int(seat, "seat", 0, self._players - 1)])  # in hand order

    def typed_result(self) -> MauMauResult:
        self._ensure_over()
        return _result(cast(Reason, self.reason), self.hands)

    def typed_view(self, seat: int | None) -> MauMauView:
        seat = self._check_seat_arg(seat)
        public = self._public_view()
        if seat is None:
            return msgspec.structs.replace(public)
        return msgspec.structs.replace(
            public,
            seat=seat,
            hand=_bits_to_cards(self.hands[seat]),
            drawn=CARD_STR[self.drawn] if self.drawn >= 0 and seat == self.to_move else None,
            legal_moves=self.legal_moves(seat),
            recent=self._recent_moves(seat),
        )

    def _public_view(self) -> MauMauView:
        """A spectator's view of this position, which every seat's view extends: built once a
        position (a server sends one to every seat after each move). Every change of a game is a
        move, so the number of moves played names the position; a game made otherwise (a clone, a
        sample of ``from_view``) has none yet. Its lists are shared by the views made from it, as
        ``legal_moves`` shares the game's own: read them, never change them."""
        cached: tuple[int, MauMauView] | None = getattr(self, "_shared_view", None)
        played = len(self._moves)
        if cached is not None and cached[0] == played:
            return cached[1]
        view = MauMauView(
            **self._view_head(None),
            top=CARD_STR[self.top],
            wish=WISHES[self.wish] if self.wish >= 0 else None,
            penalty=self.penalty,
            direction=1 if self.direction > 0 else -1,
            draw_pile=len(self.draw_pile),
            discard_pile=len(self.discard),
            discard=[CARD_STR[c] for c in self.discard],  # bottom first: everyone saw them laid
            deciding_drawn=self.drawn >= 0 and not self.is_over,  # MM-7: the player to move drew a card that fits
            hand_counts=[h.bit_count() for h in self.hands],
            moves_played=played,
            is_over=self.is_over,
        )
        if self.is_over:
            view.result = self.typed_result()
            view.hands = [_bits_to_cards(h) for h in self.hands]
        self._shared_view = (played, view)
        return view


OPTIONS = (
    OptionSpec("ace_skips", bool, False, "an ace makes the next player miss a turn, like an eight"),
    OptionSpec(
        "seven_draw_then_play",
        bool,
        False,
        "after taking a seven-penalty you move at once instead of missing the turn",
    ),
    OptionSpec("no_jack_on_jack", bool, False, "a jack may not be played on a jack; the wish stays valid"),
    OptionSpec("no_win_with_jack", bool, False, "a last jack does not win: draw one penalty card and play on"),
    OptionSpec(
        "move_limit",
        int,
        1000,
        "the game ends after this many moves with the normal ranking",
        minimum=1,
        maximum=1_000_000_000,  # the kernels count moves in 32 and 64 bits
        house_rule=False,
    ),
)


# The action space (api.md v2): plain cards by card id, each jack with each wish, then the rest.
MauMau._register_actions(
    (
        *(m for c in range(32) for m in ([CARD_STR[c] + ":" + w for w in SUITS] if c & 7 == JACK else [CARD_STR[c]])),
        "draw",
        "pass",
        "take",
    )
)
