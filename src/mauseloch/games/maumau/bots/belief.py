"""What a Mau-Mau seat can know of the hidden cards from the whole public history.

``History`` reads a seat's views turn by turn (``view.recent``: the moves since its last
one) and writes the game down as positions of the deck sequence and events on them (see
``games.maumau.bots.belief_kernel``): every card dealt, drawn or left in the draw pile is a position in its group
(the deal, or a reshuffle's new pile: MM-2, MM-8), owned by whoever received it; the seat's own
positions hold the cards it saw arrive, the rivals' positions are hidden. ``History.sample``
starts a particle that agrees with every card the rivals played (each in a position its player
received before playing it), lets ``games.maumau.bots.belief_kernel.chain`` move it towards the particles that
explain the rivals' draws, passes and choices, and returns the rivals' hands and the draw pile
of each sample, as the search deals them.

This is exact inference about the past: a choice made before a rival drew is read with the
hand the rival held then, whatever it drew since, and every fact holds across the draws that
follow it, as far as the cards drawn can be told apart.
"""

from __future__ import annotations

import math

from mauseloch.core.engine import Rng
from mauseloch.extras import needs
from mauseloch.games.maumau.rules import CARD_ID, NINE, SEVEN, SEVENS, SUITS, MauMau, fit_mask
from mauseloch.games.maumau.views import MauMauView, seat_view

with needs("sim", "the Mau-Mau search bots"):
    import numpy as np

OWNER_PILE = -1  # a position still in the draw pile
OWNER_DISCARD = -2  # the turned-up starting card (MM-2)


class History:
    """The public history of one Mau-Mau game as one seat has seen it."""

    def __init__(self) -> None:
        self.ok = False  # False: the history is not known from the start (or lost): not usable
        self._next = -1

    # ------------------------------------------------------------------ reading views
    def observe(self, view: MauMauView) -> None:
        """Read the moves since the last view; the history stays usable only while every count
        it keeps agrees with the view's."""
        recent = view.played
        start = view.moves_played - len(recent)
        if self._next < 0:
            if start != 0:
                return  # joined in the middle: the history before is unknown
            self._begin(view)
            self._next = 0
        elif self._next < start or not self.ok:
            self.ok = False
            return
        for i in range(self._next - start, len(recent)):
            self._move(recent[i].seat, recent[i].move)
        self._next = view.moves_played
        self._settle_draw(None)
        self._own_cards(view)
        if (
            self.counts != list(view.hand_counts)
            or self.pile != view.draw_pile
            or len(self.discard) != view.discard_pile
        ):
            self.ok = False

    def _begin(self, view: MauMauView) -> None:
        from mauseloch.games.maumau.bots.belief_kernel import RECV

        self.ok = True
        self.seat: int = view.own_seat
        self.players: int = view.players
        options = view.options
        self.no_jj = bool(options.get("no_jack_on_jack"))
        self.no_win_with_jack = bool(options.get("no_win_with_jack"))
        n = self.players
        self.owner: list[int] = []  # of each position
        self.group: list[int] = []
        self.known: list[int] = []  # the card, where the seat saw it (-1: hidden)
        self.recv_event: list[int] = []  # the event that gave the position to a rival (-1: none)
        self.contents: list[int] = [(1 << 32) - 1]  # each group's cards, a mask
        self.card_group = [0] * 32  # the group each card lives in now
        self.events: list[tuple[int, int, int, int, int]] = []
        self.event_counts: list[list[int]] = []
        self.plays: list[tuple[int, int, int, int]] = []  # (event, seat, card, group): cards rivals played
        self.counts = [5] * n
        for _ in range(5):  # MM-2: five rounds, one card at a time
            for s in range(n):
                p = self._position(s, 0)
                if s != self.seat:
                    self.recv_event[p] = self._event(RECV, s, p)
        hand = view.own_hand
        mine = [p for p, o in enumerate(self.owner) if o == self.seat]
        for p, c in zip(mine, sorted(CARD_ID[c] for c in hand), strict=True):
            self.known[p] = c
        first = view.discard[0] if len(view.discard) else view.top
        self._position(OWNER_DISCARD, 0, CARD_ID[first])
        self.pile = 32 - 5 * n - 1
        self.discard = [CARD_ID[first]]
        self.top, self.wish, self.penalty, self.direction = CARD_ID[first], -1, 0, 1
        self.hand = sum(1 << CARD_ID[c] for c in hand)
        self.my_played = 0  # cards the seat played since its last view
        self.my_new: list[int] = []  # its positions since its last view
        self.drawing: tuple[int, int, int] | None = None  # (seat, position or -1, fit): a draw just made

    def _position(self, owner: int, group: int, card: int = -1) -> int:
        self.owner.append(owner)
        self.group.append(group)
        self.known.append(card)
        self.recv_event.append(-1)
        return len(self.owner) - 1

    def _event(self, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        self.events.append((kind, seat, a, b, c))
        self.event_counts.append(list(self.counts))
        return len(self.events) - 1

    def _fit(self) -> int:
        return fit_mask(self.top, self.wish, self.no_jj)

    def _receive(self, seat: int, count: int) -> list[int]:
        """``seat`` draws ``count`` cards (fewer when none are left), reshuffling as MM-8 says."""
        from mauseloch.games.maumau.bots.belief_kernel import RECV

        got = []
        for _ in range(count):
            if not self.pile:
                if len(self.discard) <= 1:
                    break
                g = len(self.contents)
                mask = 0
                for c in self.discard[:-1]:
                    mask |= 1 << c
                    self.card_group[c] = g
                self.contents.append(mask)
                self.pile = len(self.discard) - 1
                self.discard = self.discard[-1:]
            p = self._position(seat, len(self.contents) - 1)
            self.pile -= 1
            if seat == self.seat:
                self.my_new.append(p)
            else:
                self.recv_event[p] = self._event(RECV, seat, p)
            got.append(p)
        self.counts[seat] += len(got)
        return got

    def _settle_draw(self, next_seat: int | None) -> None:
        """A rival's draw whose card was neither played nor kept did not fit (MM-7)."""
        from mauseloch.games.maumau.bots.belief_kernel import DRAWN_NO_FIT

        if self.drawing is not None and next_seat != self.drawing[0]:
            seat, p, fit = self.drawing
            if p >= 0 and seat != self.seat:
                self._event(DRAWN_NO_FIT, seat, p, fit)
            self.drawing = None

    def _move(self, who: int, move: str) -> None:
        from mauseloch.games.maumau.bots.belief_kernel import (
            DRAWN_KEPT,
            NO_FIT,
            PLAY_COUNTER,
            PLAY_DRAWN,
            PLAY_FREE,
            TAKE,
        )

        self._settle_draw(who)
        rival = who != self.seat
        if move == "draw":
            fit = self._fit()
            if rival:
                self._event(NO_FIT, who, 0, fit)
            got = self._receive(who, 1)
            self.drawing = (who, got[0] if got else -1, fit)
            return
        if move == "pass":
            if self.drawing is not None:  # kept the card just drawn (MM-7)
                _, p, fit = self.drawing
                if rival and p >= 0:
                    self._event(DRAWN_KEPT, who, p, fit)
                self.drawing = None
            elif rival:  # MM-14: nothing fitted and nothing could be drawn
                self._event(NO_FIT, who, 0, self._fit())
            return
        if move == "take":
            if rival:
                self._event(TAKE, who)
            self._receive(who, self.penalty)
            self.penalty = 0
            return
        card_str, _, wish = move.partition(":")
        card = CARD_ID[card_str]
        action = MauMau._ACTION_ID[move]
        if rival:
            if self.drawing is not None:
                e = self._event(PLAY_DRAWN, who, action, self.drawing[1], self.direction)
            elif self.penalty:
                e = self._event(PLAY_COUNTER, who, action)
            else:
                e = self._event(PLAY_FREE, who, action, self._fit(), self.direction)
            self.plays.append((e, who, card, self.card_group[card]))
        else:
            self.my_played |= 1 << card
        self.drawing = None
        self.counts[who] -= 1
        self.discard.append(card)
        self.top = card
        self.wish = SUITS.index(wish) if wish else -1
        if self.counts[who] == 0:
            if self.wish >= 0 and self.no_win_with_jack and (self.pile or len(self.discard) > 1):
                self._receive(who, 1)  # MM-15: a last jack does not win
            return
        if card & 7 == NINE:
            self.direction = -self.direction
        elif card & 7 == SEVEN:
            self.penalty += 2

    def _own_cards(self, view: MauMauView) -> None:
        """The cards the seat received since its last view go into its new positions, each in
        the group it came from."""
        hand = 0
        for c in view.own_hand:
            hand |= 1 << CARD_ID[c]
        came = hand & ~(self.hand & ~self.my_played)
        cards = [c for c in range(32) if came >> c & 1]
        if len(cards) != len(self.my_new):
            self.ok = False
            return
        for p in self.my_new:
            g = self.group[p]
            fits = [c for c in cards if self.card_group[c] == g]
            if not fits:
                self.ok = False
                return
            self.known[p] = fits[0]
            cards.remove(fits[0])
        self.hand, self.my_played, self.my_new = hand, 0, []

    # ------------------------------------------------------------------ sampling
    def particle(self, rng: Rng) -> tuple[np.ndarray, list[int], list[int], np.ndarray] | None:
        """A first particle: every card a rival played in a position that rival received
        before the play (a drawn card played at once in the position of that draw), the rest of
        each group at random; with the positions' owners and groups (the draw pile's last) and
        which positions the history fixes. None when the history cannot be explained."""
        from mauseloch.games.maumau.bots import belief_kernel as kb

        n_pos = len(self.owner)
        owner = self.owner + [OWNER_PILE] * self.pile
        group = self.group + [len(self.contents) - 1] * self.pile
        cards_at = np.array(self.known + [-1] * self.pile, dtype=np.int64)
        forced = np.zeros(len(owner), dtype=bool)
        placed: set[tuple[int, int]] = set()  # (group, card) put where its play says
        for kind, _seat, action, p, _d in self.events:
            if kind == kb.PLAY_DRAWN and p >= 0:
                card = CARD_ID[MauMau.ACTIONS[action][:2]]
                cards_at[p] = card
                forced[p] = True
                placed.add((group[p], card))
        # What each rival was seen not to hold, and when: (event, mask); what a drawn card was
        # seen to be or not to be (MM-7).
        lacks: dict[int, list[tuple[int, int]]] = {}
        forbid = [0] * len(owner)  # the cards a position cannot hold
        for e, (kind, who, a, b, _c) in enumerate(self.events):
            if kind == kb.NO_FIT:
                lacks.setdefault(who, []).append((e, b))
            elif kind == kb.TAKE:
                lacks.setdefault(who, []).append((e, SEVENS))
            elif kind == kb.DRAWN_NO_FIT:
                forbid[a] |= b
            elif kind == kb.DRAWN_KEPT:
                forbid[a] |= ~b & ((1 << 32) - 1)

        def lacked(p: int, card: int, until: int) -> bool:
            """Whether the rival owning ``p`` was seen not to hold ``card`` between receiving
            ``p`` and event ``until``."""
            return forbid[p] >> card & 1 == 1 or any(
                self.recv_event[p] < e < until and mask >> card & 1 for e, mask in lacks.get(owner[p], ())
            )

        # Each card a rival played goes in a position of that rival received before the play
        # and not while the rival was seen not to hold it (a matching, random among many).
        todo = [(e, who, card, g) for e, who, card, g in self.plays if (g, card) not in placed]
        options = []
        for e, who, card, g in todo:
            free = [
                p for p in range(n_pos)
                if owner[p] == who and group[p] == g and cards_at[p] < 0 and 0 <= self.recv_event[p] < e
                and not lacked(p, card, e)
            ]  # fmt: skip
            rng.shuffle(free)
            options.append(free)
        match = _matching(options)
        if match is None:
            return None
        for (_e, _who, card, _g), p in zip(todo, match, strict=True):
            cards_at[p] = card
        # The cards still in the rivals' hands stay there to the end: whatever the rival was
        # seen not to hold after receiving the position is no card for it.
        end = len(self.events)
        for g, mask in enumerate(self.contents):
            where = [p for p in range(len(owner)) if group[p] == g]
            used = 0
            for p in where:
                if cards_at[p] >= 0:
                    used |= 1 << int(cards_at[p])
            rest = [c for c in range(32) if (mask & ~used) >> c & 1]
            empty = [p for p in where if cards_at[p] < 0]
            if len(rest) != len(empty):
                return None
            rng.shuffle(rest)
            fill = _matching([[c for c in rest if owner[p] < 0 or not lacked(p, c, end)] for p in empty])
            if fill is None:  # no way to keep every fact: a random fill, the chain mends it
                fill = rest
            for p, c in zip(empty, fill, strict=True):
                cards_at[p] = c
        return cards_at, owner, group, forced

    def sample(
        self, count: int, rng: Rng, seed: int, *, burn: int, thin: int, read_choices: float, ace_skips: bool
    ) -> np.ndarray | None:
        """``count`` guesses at the hidden cards, each as the search deals them (the rivals'
        hands in seat order, then the draw pile top first), or None when the history is not
        usable. ``read_choices``: the weight a particle keeps for each choice it explains
        otherwise than the heuristic would."""
        from mauseloch.games.maumau.bots import belief_kernel as kb

        if not self.ok:
            return None
        n_pos = len(self.owner)
        first = self.particle(rng)
        if first is None:
            return None
        cards_at, owner, group, forced = first
        hidden = [p for p in range(len(owner)) if (p >= n_pos or self.known[p] < 0) and not forced[p]]
        movable = np.array([p for p in hidden if owner[p] >= 0], dtype=np.int64)
        groups = len(self.contents)
        partners = np.zeros((groups, max(1, len(hidden))), dtype=np.int64)
        partner_count = np.ones(groups, dtype=np.int64)
        for g in range(groups):
            mine = [p for p in hidden if group[p] == g]
            partners[g, : len(mine)] = mine
            partner_count[g] = max(1, len(mine))
        ev = np.array(self.events, dtype=np.int64).reshape(-1, kb.EV_COLS)
        ev_counts = np.array(self.event_counts, dtype=np.int64).reshape(-1, self.players)
        out_hands = np.zeros((count, self.players), dtype=np.int64)
        out_cards = np.zeros((count, len(owner)), dtype=np.int64)
        facts = np.zeros((count, 2), dtype=np.int64)
        gen = np.array([seed], dtype=np.uint64)
        soft_w = -math.log(read_choices) if read_choices > 0 else 0.0
        kb.chain(
            ev, ev_counts, cards_at, self.players, ace_skips, self.no_win_with_jack, movable, partners,
            partner_count, np.array(group, dtype=np.int64), 3.0 * max(soft_w, 3.0), soft_w, burn, thin, gen,
            out_hands, out_cards, facts,
        )  # fmt: skip
        # (hands of a sample that breaks no rule have the counts of the view, so every row is as
        # wide as the first)
        if not (facts[:, 0] == 0).any():
            return None
        out_hands[0] = out_hands[int(np.argmax(facts[:, 0] == 0))]
        return kb.deals_of(out_hands, out_cards, facts, self.seat, self.players, n_pos, gen)


def warm() -> None:
    """Compile (the first time) or load from numba's cache the chain's kernels, on a short game
    of their own, so that no decision of a search level waits for them."""
    from mauseloch.core.registry import new_game

    game = new_game(MauMau.name, players=2, seed=1)
    history = History()
    for _ in range(6):
        if game.to_move == 0:
            history.observe(seat_view(game.typed_view(0), "warm"))
        game.play(game.legal_moves()[-1])
    history.observe(seat_view(game.typed_view(0), "warm"))
    history.sample(2, Rng(1), 1, burn=2, thin=1, read_choices=0.05, ace_skips=False)


def kernels_need_compiling() -> bool:
    """True when the chain's kernels are neither loaded nor in numba's cache."""
    from mauseloch.games.maumau.bots import belief_kernel as kb
    from mauseloch.kernels.rng import needs_compiling

    return any(needs_compiling(f) for f in (kb.contradictions, kb.chain, kb.deals_of))


def _matching(options: list[list[int]]) -> list[int] | None:
    """One distinct choice from each list (Kuhn's augmenting paths, each list tried in its own
    order), or None when there is none."""
    taken: dict[int, int] = {}  # choice -> the list that has it

    def place(i: int, seen: set[int]) -> bool:
        for x in options[i]:
            if x in seen:
                continue
            seen.add(x)
            if x not in taken or place(taken[x], seen):
                taken[x] = i
                return True
        return False

    for i in range(len(options)):
        if not place(i, set()):
            return None
    chosen = [0] * len(options)
    for x, i in taken.items():
        chosen[i] = x
    return chosen
