"""Card Race: a fourth game that exists only in the tests, declared and registered by one call
(``mauseloch.register_game(INFO)``), to prove that the platform asks a game's declaration and
never names a game: the contract test, the lobby, a web table, replay, simulate and tournament
play it with no generic file edited for it.

Rules: cards c1..c24 are shuffled from the seed; every player gets ``hand_size`` cards, the rest
is the draw pile (face down). In turn a player lays a card higher than the top of the discard
pile, or draws the top card of the draw pile, or passes when neither is possible; once every
player has passed in a row the discard pile is cleared (a new round: any card may be laid). The
first with an empty hand ends the game (``out``); fewer cards left rank better.

Its view and result are structs on the engine's bases, as every game declares them
(``typed_view``, ``typed_result``); ``view()`` and ``result()`` are the engine's JSON forms.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from mauseloch.core.engine import Game, IllegalMove, Rng, as_int, check_deck, competition_ranks, derive_seed
from mauseloch.core.events import Count, Event, PerSeat, Seat, declare
from mauseloch.core.registry import BotKind, GameInfo, OptionSpec, Seating
from mauseloch.core.seeds import STREAM_DEAL, STREAM_DETERMINIZE
from mauseloch.core.views import Rank, Result, View

CARDS = tuple(f"c{i}" for i in range(1, 25))


class RaceDeal(Event, tag="deal"):
    hidden = ("cards",)
    seat: Seat
    count: Count
    cards: list[str]
    private: Seat


class RacePlay(Event, tag="play"):
    seat: Seat
    card: str


class RaceDraw(Event, tag="draw"):
    hidden = ("cards",)
    seat: Seat
    count: Count
    cards: list[str]
    private: Seat


class RacePass(Event, tag="pass"):
    seat: Seat


class RaceNewRound(Event, tag="new_round"):
    seat: Seat  # who lays the first card of the round


class RaceEnd(Event, tag="end"):
    reason: Literal["out"]
    ranks: PerSeat
    cards: PerSeat


EVENTS = declare(RaceDeal, RacePlay, RaceDraw, RacePass, RaceNewRound, RaceEnd)


class RaceResult(Result):
    reason: Literal["out"]
    ranks: list[Rank]
    cards: list[Count]  # cards left per seat


class RaceView(View):
    hands: list[Count]  # cards in each hand
    pile: Count  # cards left to draw
    top: str | None  # the discard pile's top card (None: a new round)
    legal_moves: list[str]  # none for a spectator
    is_over: bool
    hand: list[str] | msgspec.UnsetType = msgspec.UNSET  # a seat's own (not a spectator's)
    result: RaceResult | msgspec.UnsetType = msgspec.UNSET  # once over


def _value(card: str) -> int:
    return int(card[1:])


def _parse(text: str) -> str:
    card = text.strip().lower()
    if card not in CARDS:
        raise ValueError(f"{text!r} is not a card (c1 to c24)")
    return card


class CardRace(Game):
    name = "card-race"

    @classmethod
    def create(cls, players: int, seed: int, options: dict[str, Any], deck: list[str] | None) -> CardRace:
        if deck is None:
            cards = list(CARDS)
            Rng(derive_seed(seed, STREAM_DEAL)).shuffle(cards)
        else:
            cards = check_deck(deck, CARDS, _parse)
        return cls(players, seed, options, cards)

    def __init__(self, players: int, seed: int, options: dict[str, Any], deck: list[str]) -> None:
        super().__init__(players, seed, options, deck)
        size = options["hand_size"]
        self.hands = [list(deck[s * size : (s + 1) * size]) for s in range(players)]
        self.pile = list(deck[players * size :])  # top first
        self.discard: list[str] = []
        self.passes = 0
        for s, hand in enumerate(self.hands):
            self._log.append(RaceDeal(seat=s, count=len(hand), cards=list(hand), private=s))

    def legal_moves(self, seat: int | None = None) -> list[str]:
        seat = self._check_seat_arg(seat)
        if self.is_over or (seat is not None and seat != self.to_move):
            return []
        top = _value(self.discard[-1]) if self.discard else 0
        hand = self.hands[self.to_move]  # type: ignore[index]
        moves = sorted((c for c in hand if _value(c) > top), key=_value)
        return [*moves, "draw"] if self.pile else moves or ["pass"]

    def parse_move(self, text: Any, seat: int | None = None) -> str:
        seat = self._check_seat_arg(seat)
        move = text.strip().lower() if isinstance(text, str) else None
        if move is None or move not in self.legal_moves(self.to_move if seat is None else seat):
            raise IllegalMove(f"{text!r} is not a legal move now")
        return move

    def play(self, move: str, seat: int | None = None, ms: int | None = None) -> None:
        move = self.parse_move(self._check_turn_move(move, seat, ms))
        s = self.to_move
        assert s is not None
        self._moves.append((s, move))
        if move == "draw":
            card = self.pile.pop(0)
            self.hands[s].append(card)
            self._log.append(RaceDraw(seat=s, count=1, cards=[card], private=s))
        elif move == "pass":
            self.passes += 1
            self._log.append(RacePass(seat=s))
        else:
            self.hands[s].remove(move)
            self.discard.append(move)
            self.passes = 0
            self._log.append(RacePlay(seat=s, card=move))
        if not self.hands[s]:
            self.is_over, self.to_move, self.reason = True, None, "out"
            res = self.typed_result()
            self._log.append(RaceEnd(reason="out", ranks=res.ranks, cards=res.cards))
            return
        self.to_move = (s + 1) % self._players
        if self.passes == self._players:
            self.discard, self.passes = [], 0
            self._log.append(RaceNewRound(seat=self.to_move))

    def typed_view(self, seat: int | None) -> RaceView:
        head = self._view_head(seat)
        seat = head["seat"]
        return RaceView(
            **head,
            hands=[len(h) for h in self.hands],
            pile=len(self.pile),
            top=self.discard[-1] if self.discard else None,
            legal_moves=self.legal_moves(seat) if seat is not None else [],
            is_over=self.is_over,
            hand=msgspec.UNSET if seat is None else list(self.hands[seat]),
            result=self.typed_result() if self.is_over else msgspec.UNSET,
        )

    def typed_result(self) -> RaceResult:
        self._ensure_over()
        cards = [len(h) for h in self.hands]
        return RaceResult(reason="out", ranks=competition_ranks(cards), cards=cards)

    def clone(self) -> CardRace:
        other = CardRace.__new__(CardRace)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.pile, other.discard = list(self.pile), list(self.discard)
        other._log, other._moves = list(self._log), list(self._moves)
        return other

    def _determinize(self, seat: int, seed: int) -> CardRace:
        """Every card ``seat`` cannot see (other hands, the draw pile) dealt again from ``seed``."""
        d = self.clone()
        others = [s for s in range(self._players) if s != seat]
        pool = sorted([c for s in others for c in self.hands[s]] + self.pile, key=_value)
        Rng(derive_seed(seed, STREAM_DETERMINIZE)).shuffle(pool)
        for s in others:
            d.hands[s], pool = pool[: len(self.hands[s])], pool[len(self.hands[s]) :]
        d.pile = pool
        return d

    def hand(self, seat: int) -> list[str]:
        return list(self.hands[as_int(seat, "seat", 0, self._players - 1)])


class Lowest:
    """A bot the game brings itself: it lays its lowest card that fits, else draws or passes."""

    kind = "lowest"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: View, legal: list[str]) -> str:
        return legal[0]  # the cards come first, lowest first

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        return None, 0


CardRace._register_actions(("draw", "pass", *CARDS))
HAND = OptionSpec("hand_size", int, 5, "cards in each hand at the start", minimum=1, maximum=6)
INFO = GameInfo(
    name="card-race",
    title="Card Race",
    description="Lay a higher card or draw; the first with an empty hand wins.",
    min_players=2,
    max_players=4,
    options=(HAND,),
    factory=CardRace,
    seating=Seating(standin="lowest", bots=(BotKind("lowest", Lowest),)),
    deal_letter="R",
    events=EVENTS,
)
