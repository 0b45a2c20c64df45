"""Properties of Mau-Mau over seeds, options and player counts (hypothesis).

Games are played at random through the public API; the checks hold after every move.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import mauseloch

ALL = frozenset(r + s for s in "CSHD" for r in "789TJQKA")
CARD = re.compile(r"\b[789TJQKA][CSHD]\b")
WORDS = ("draw", "pass", "take")

seeds = st.integers(min_value=0, max_value=2**53 - 1)
player_counts = st.integers(min_value=2, max_value=5)
option_sets = st.fixed_dictionaries(
    {
        "ace_skips": st.booleans(),
        "seven_draw_then_play": st.booleans(),
        "no_jack_on_jack": st.booleans(),
        "no_win_with_jack": st.booleans(),
    },
    optional={"move_limit": st.integers(min_value=1, max_value=300)},
)
EXAMPLES = 40


def new(seed: int, players: int, options: dict[str, Any]) -> mauseloch.Game:
    return mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)


def hands(g: mauseloch.Game) -> list[set[str]]:
    return [set(g.view(s)["hand"]) for s in range(g.players)]


def snapshot(g: mauseloch.Game) -> str:
    return json.dumps(
        [g.record(), g.events, [g.view(s) for s in [None, *range(g.players)]], g.to_move, g.is_over], sort_keys=True
    )


def games(seed: int, players: int, options: dict[str, Any], policy: int) -> Any:
    """Yield the game after every move (and once before the first) until it ends."""
    g = new(seed, players, options)
    rng = random.Random(policy)
    limit = g.record()["options"]["move_limit"]
    yield g
    for _ in range(limit):
        if g.is_over:
            return
        g.play(rng.choice(g.legal_moves()))
        yield g
    assert g.is_over, "not over after move_limit moves"


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_cards_are_conserved_and_hands_match_the_events(
    seed: int, players: int, options: dict[str, Any], policy: int
) -> None:
    for g in games(seed, players, options, policy):
        hs = hands(g)
        v = g.view(None)
        assert sum(len(h) for h in hs) == sum(v["hand_counts"])
        assert [len(h) for h in hs] == v["hand_counts"]
        assert len(set().union(*hs)) == sum(len(h) for h in hs), "a card in two hands"
        assert set().union(*hs) <= ALL
        assert v["top"] not in set().union(*hs)
        assert sum(len(h) for h in hs) + v["draw_pile"] + v["discard_pile"] == 32
        # the full event log explains every hand: dealt + drawn - played
        rebuilt: list[set[str]] = [set() for _ in range(players)]
        for e in g.events:
            if e["type"] in ("deal", "draw"):
                assert e["private"] == e["seat"]
                assert not rebuilt[e["seat"]] & set(e["cards"])
                rebuilt[e["seat"]] |= set(e["cards"])
            elif e["type"] == "play":
                rebuilt[e["seat"]].remove(e["card"])
        assert rebuilt == hs


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_views_show_no_hidden_card(seed: int, players: int, options: dict[str, Any], policy: int) -> None:
    discard: set[str] = set()  # cards face up on the discard pile, followed through public events
    seen = 0
    for g in games(seed, players, options, policy):
        evs = g.events
        for i in range(seen, len(evs)):
            e = evs[i]
            if e["type"] == "start":
                discard = {e["card"]}
            elif e["type"] == "play":
                discard.add(e["card"])
            elif e["type"] == "reshuffle":  # all but the top card went back face down
                discard = {last_play(evs[:i])}
        seen = len(evs)
        if g.is_over:
            break
        hs = hands(g)
        for viewer in [None, *range(players)]:
            own = hs[viewer] if viewer is not None else set()
            view = g.view(viewer)
            # the moves since the seat's own last one are history everyone saw (cards played),
            # even when a reshuffle has since put those cards back face down
            recent = view.pop("recent", [])
            assert set(CARD.findall(json.dumps(recent))) <= {e["card"] for e in evs if e["type"] == "play"}
            shown = set(CARD.findall(json.dumps(view)))
            hidden = ALL - own - discard  # other hands and the draw pile
            assert not shown & hidden, f"view({viewer}) shows {sorted(shown & hidden)}"
        # every redacted copy of a private event hides its cards
        for e in evs:
            if "private" in e:
                for s in [None, *range(players)]:
                    if s != e["private"]:
                        assert not set(CARD.findall(json.dumps(mauseloch.event_for(e, s)))) & set(e["cards"])


def last_play(evs: list[dict[str, Any]]) -> str:
    """The top card at a point of the log: the last card played, else the starter."""
    for e in reversed(evs):
        if e["type"] in ("play", "start"):
            return str(e["card"])
    raise AssertionError("no starter in the log")


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_every_listed_move_plays(seed: int, players: int, options: dict[str, Any], policy: int) -> None:
    rng = random.Random(policy + 1)
    for g in games(seed, players, options, policy):
        if g.is_over:
            assert g.legal_moves() == []
            break
        moves = g.legal_moves()
        assert moves and len(moves) == len(set(moves))
        assert g.view(g.to_move)["legal_moves"] == moves
        if rng.random() < 0.2:  # a sample of positions: every move, from a fresh copy
            rec = g.record()
            for move in moves:
                copy = mauseloch.replay(rec)
                copy.play(move)
                assert copy.record()["moves"][-1] == [g.to_move, move]


@settings(max_examples=EXAMPLES)
@given(
    seed=seeds,
    players=player_counts,
    options=option_sets,
    policy=st.integers(0, 2**32),
    junk=st.lists(st.text(max_size=8), min_size=1, max_size=6),
)
def test_other_strings_and_other_seats_are_refused_and_change_nothing(
    seed: int, players: int, options: dict[str, Any], policy: int, junk: list[str]
) -> None:
    rng = random.Random(policy + 2)
    for g in games(seed, players, options, policy):
        if rng.random() > 0.25 and not g.is_over:
            continue
        before = snapshot(g)
        legal_now = set(g.legal_moves())
        canon = {m.lower() if m.lower() in WORDS else m.upper() for m in legal_now}
        tries: list[tuple[str, int | None]] = [(j, None) for j in junk if j.strip().lower() not in canon
                                               and j.strip().upper() not in canon]  # fmt: skip
        tries += [(c, None) for c in sorted(ALL) if c not in legal_now]
        if g.to_move is not None:
            tries += [(m, s) for m in legal_now for s in range(players) if s != g.to_move]
        for move, seat in tries:
            try:
                g.play(move, seat=seat)
            except mauseloch.IllegalMove:
                pass
            else:
                raise AssertionError(f"{move!r} (seat {seat}) was accepted; legal: {sorted(legal_now)}")
        assert snapshot(g) == before


@settings(max_examples=EXAMPLES)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_replay_equals_the_game_and_every_game_ends(
    seed: int, players: int, options: dict[str, Any], policy: int
) -> None:
    g = None
    for i, g in enumerate(games(seed, players, options, policy)):
        if i % 25 == 0:
            again = mauseloch.replay(json.loads(json.dumps(g.record())))
            assert snapshot(again) == snapshot(g)
    assert g is not None and g.is_over
    rec = g.record()
    assert len(rec["moves"]) <= rec["options"]["move_limit"]
    res = g.result()
    if res["reason"] == "move_limit":
        assert len(rec["moves"]) == rec["options"]["move_limit"]
        assert all(c > 0 for c in res["cards"])
    else:
        assert res["reason"] == "out"
        assert res["cards"].count(0) == 1 and res["ranks"][res["cards"].index(0)] == 1
    again = mauseloch.replay(rec)
    assert again.events == g.events and again.result() == res and snapshot(again) == snapshot(g)


# --------------------------------------------------------------------------- a reference model

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 9, "8": 8, "7": 7}


class Model:
    """Mau-Mau written straight from mau-mau.md, independent of the engine, as an oracle.

    Shuffles are the implementation's own, so after a reshuffle the model takes the order of the
    cards drawn from the engine's private draw events and only checks where they may come from.
    """

    def __init__(self, players: int, options: dict[str, Any], deck: list[str]) -> None:
        self.n = players
        self.o = options
        self.hands = [set(deck[s : 5 * players : players]) for s in range(players)]  # MM-2
        self.discard = [deck[5 * players]]
        self.pile: list[str] = deck[5 * players + 1 :]  # top first; order known until a reshuffle
        self.shuffled: set[str] = set()  # reshuffled cards, order unknown to the model (always under nothing)
        self.wish: str | None = None  # MM-3: the starter has no effect
        self.penalty = 0
        self.dir = 1
        self.to_move: int | None = 0
        self.drawn: str | None = None
        self.moves = 0
        self.reason: str | None = None
        self.winner: int | None = None

    @property
    def top(self) -> str:
        return self.discard[-1]

    def can_draw(self) -> bool:
        return bool(self.pile or self.shuffled) or len(self.discard) > 1

    def fits(self, card: str) -> bool:
        top = self.top
        if card[0] == "J":  # MM-5, MM-12
            return not (self.o["no_jack_on_jack"] and top[0] == "J")
        if self.wish is not None:  # MM-4
            return card[1] == self.wish
        return card[1] == top[1] or card[0] == top[0]

    @staticmethod
    def spell(card: str) -> set[str]:
        return {f"{card}:{s}" for s in "CSHD"} if card[0] == "J" else {card}

    def legal(self) -> set[str]:
        if self.to_move is None:
            return set()
        hand = self.hands[self.to_move]
        if self.penalty:  # MM-9
            return {c for c in hand if c[0] == "7"} | {"take"}
        if self.drawn is not None:  # MM-7
            return (self.spell(self.drawn) if self.fits(self.drawn) else set()) | {"pass"}
        moves = set().union(*[self.spell(c) for c in hand if self.fits(c)])
        if moves:
            return moves  # MM-6
        return {"draw"} if self.can_draw() else {"pass"}  # MM-14

    def draw(self, seat: int, count: int, got: list[str]) -> None:
        """Check that the engine drew ``got`` as the rules say, then move those cards."""
        want = min(count, len(self.pile) + len(self.shuffled) + len(self.discard) - 1)
        assert len(got) == want, f"drew {len(got)} cards, the rules give {want}"
        for card in got:
            if self.pile:
                assert card == self.pile.pop(0), "draw pile not drawn top first"
            else:
                if not self.shuffled:  # MM-8: all but the top card of the discard pile
                    self.shuffled = set(self.discard[:-1])
                    del self.discard[:-1]
                assert card in self.shuffled, f"{card} was not in the reshuffled cards"
                self.shuffled.remove(card)
            self.hands[seat].add(card)

    def play(self, move: str, drawn: list[str]) -> tuple[int, int]:
        """Apply ``move``; returns (Mau announcements, Mau-Mau announcements) expected."""
        actor = self.to_move
        assert actor is not None
        nxt: int | None = (actor + self.dir) % self.n
        mau = maumau = 0
        self.moves += 1
        if move == "draw":
            self.draw(actor, 1, drawn)
            if self.fits(drawn[0]):
                self.drawn, nxt = drawn[0], actor
        elif move == "pass":
            self.drawn = None
        elif move == "take":
            self.draw(actor, self.penalty, drawn)
            self.penalty = 0
            if self.o["seven_draw_then_play"]:
                nxt = actor
        else:
            card, _, wish = move.partition(":")
            self.hands[actor].remove(card)
            self.discard.append(card)
            self.wish = wish or None
            self.drawn = None
            left = len(self.hands[actor])
            if left == 0 and not (wish and self.o["no_win_with_jack"] and self.can_draw()):
                self.reason, self.winner, nxt, maumau = "out", actor, None, 1  # MM-15
            elif left == 0:
                self.draw(actor, 1, drawn)
            else:
                mau = int(left == 1)  # MM-13
                if card[0] == "7":
                    self.penalty += 2
                elif card[0] == "8" or (card[0] == "A" and self.o["ace_skips"]):
                    nxt = (actor + 2 * self.dir) % self.n
                elif card[0] == "9":
                    self.dir = -self.dir
                    nxt = actor if self.n == 2 else (actor + self.dir) % self.n
        self.to_move = nxt
        stuck = not self.penalty and not self.can_draw() and not any(self.fits(c) for h in self.hands for c in h)
        if self.reason is None and stuck:
            self.reason, self.to_move = "stalemate", None  # MM-14
        if self.reason is None and self.moves >= self.o["move_limit"]:
            self.reason, self.to_move = "move_limit", None  # MM-15a
        return mau, maumau

    def result(self) -> dict[str, Any]:
        cards = [len(h) for h in self.hands]
        points = [sum(POINTS[c[0]] for c in h) for h in self.hands]
        keys = list(zip(cards, points, strict=True))
        ranks = [1 + sum(1 for k in keys if k < key) for key in keys]  # MM-16
        return {"reason": self.reason, "ranks": ranks, "cards": cards, "points": points}


@settings(max_examples=150)
@given(seed=seeds, players=player_counts, options=option_sets, policy=st.integers(0, 2**32))
def test_engine_agrees_with_a_reference_model(seed: int, players: int, options: dict[str, Any], policy: int) -> None:
    g = new(seed, players, options)
    model = Model(players, g.record()["options"], g.record()["deck"])
    rng = random.Random(policy)
    while True:
        assert g.to_move == model.to_move
        assert g.is_over == (model.reason is not None)
        assert set(g.legal_moves()) == model.legal()
        assert [set(g.view(s)["hand"]) for s in range(players)] == model.hands
        v = g.view(None)
        assert (v["top"], v["wish"], v["penalty"]) == (model.top, model.wish, model.penalty)
        if g.is_over:
            break
        move = rng.choice(g.legal_moves())
        before = len(g.events)
        g.play(move)
        new_events = g.events[before:]
        got = [c for e in new_events if e["type"] == "draw" for c in e["cards"]]
        mau, maumau = model.play(move, got)
        assert sum(e["type"] == "mau" for e in new_events) == mau
        assert sum(e["type"] == "mau_mau" for e in new_events) == maumau
    assert g.result() == model.result()
