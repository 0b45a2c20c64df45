"""The batched kernel's observation of a Mau-Mau seat, built from the seat's views alone.

The learned bots see in a real game what their network saw in training: the 268 values of
``games.maumau.kernel._observe`` (the layout is the kernel module's docstring), the rivals' public
history included. The history comes from the public move list (``view.recent``: the moves
since the seat's own last move, read once each), replayed through the kernel's own
``note_move`` with what every seat saw: the cards that fitted (top card and wish), whether the
mover decided on a card it had just drawn, and how many cards its hand received (a draw is one
card; a penalty taken is as many as the piles held, MM-8; a last jack under
``no_win_with_jack`` brings one). ``tests/bots/test_learned.py`` compares the result with the
kernel's at every decision.

A seat that took its place mid-game (its first view does not start at the deal) never saw the
earlier moves: its history starts from that view, as if nobody had moved before.
"""

from __future__ import annotations

from mauseloch.extras import needs
from mauseloch.games.maumau.kernel import (
    DRAW_A,
    H_LACKED,
    H_LAST,
    H_RECEIVED,
    N_HIST,
    OBS_RIVALS,
    OBS_SIZE,
    PASS_A,
    RIVAL_OBS,
    TAKE_A,
    note_move,
)
from mauseloch.games.maumau.rules import CARD_ID, JACK, SEVEN, SUITS, MauMau, fit_mask
from mauseloch.games.maumau.views import MauMauView

with needs("sim", __name__):
    import numpy as np

HAND = 5  # cards dealt to each seat (MM-2)
_ACTION_ID = MauMau._ACTION_ID


class SeatHistory:
    """The public history of every seat, as one seat reads it from its own views in order.

    ``observe(view)`` reads the moves it has not read yet (calling it twice with one view
    changes nothing); ``observation(view)`` is the kernel's int8 observation of that view."""

    __slots__ = ("_counts", "_disc", "_drew", "_next", "_nojj", "_nowin", "_penalty", "_pile", "_players", "_top",
                 "_wish", "hist")  # fmt: skip

    def __init__(self) -> None:
        self._next = -1  # index of the first move not read yet; -1: nothing read
        self._players = 0
        self.hist = np.zeros(N_HIST, dtype=np.int64)  # the kernel's ``hist`` row of this game

    def _begin(self, view: MauMauView, start: int) -> None:
        """Start afresh: at the deal when ``start`` is 0, else at this view (moves before unseen)."""
        n: int = view.players
        self._players = n
        self.hist[:] = 0
        options = view.options
        self._nojj = bool(options.get("no_jack_on_jack"))
        self._nowin = bool(options.get("no_win_with_jack"))
        self._drew: int | None = None
        if start == 0:
            self._top = CARD_ID[view.discard[0]]  # the starting card, bottom of the pile
            self._wish, self._penalty = -1, 0
            self._pile, self._disc = 32 - HAND * n - 1, 1
            self._counts = [HAND] * n
            self._next = 0
        else:
            self._top = CARD_ID[view.top]
            self._wish = SUITS.index(view.wish) if view.wish else -1
            self._penalty = view.penalty
            self._pile, self._disc = view.draw_pile, view.discard_pile
            self._counts = list(view.hand_counts)
            self._next = view.moves_played
            if view.deciding_drawn and view.played:
                self._drew = view.played[-1].seat

    def _draw(self, count: int) -> int:
        """Cards the piles give to a seat drawing ``count`` (MM-8: the discard pile, all but its
        top card, becomes the draw pile when that runs out)."""
        got = 0
        for _ in range(count):
            if self._pile == 0:
                if self._disc <= 1:
                    break
                self._pile, self._disc = self._disc - 1, 1
            self._pile -= 1
            got += 1
        return got

    def observe(self, view: MauMauView) -> None:
        recent = view.played
        start = view.moves_played - len(recent)
        moves = view.moves_played
        if self._next < 0 or self._next < start or moves < self._next or view.players != self._players:
            self._begin(view, start)  # the first look, a gap, or another game
        h = self.hist
        last, lacked, received = h[H_LAST:H_LACKED], h[H_LACKED:H_RECEIVED], h[H_RECEIVED:N_HIST]
        for i in range(self._next - start, len(recent)):
            who, move = recent[i].seat, recent[i].move
            action = _ACTION_ID[move]
            fit = fit_mask(self._top, self._wish, self._nojj)
            drew_before = self._drew == who
            got = 0
            self._drew = None
            if action == DRAW_A:
                got = self._draw(1)
                self._drew = who  # it moves again only to decide on the card it drew (MM-7)
            elif action == TAKE_A:
                got = self._draw(self._penalty)
                self._penalty = 0
            elif action != PASS_A:
                card = CARD_ID[move[:2]]
                self._disc += 1
                self._top = card
                self._wish = SUITS.index(move[3]) if len(move) > 2 else -1
                got = -1
                if self._counts[who] == 1 and card & 7 == JACK and self._nowin:
                    got += self._draw(1)  # MM-15: a last jack does not win while a card can be drawn
                elif card & 7 == SEVEN:
                    self._penalty += 2
            self._counts[who] += got
            note_move(last, lacked, received, who, action, drew_before, fit, got)
        self._next = view.moves_played

    def observation(self, view: MauMauView) -> np.ndarray:
        """The kernel's observation (int8, ``OBS_SIZE``) of the seat whose ``view`` this is, on
        its turn, after reading the view's new moves."""
        self.observe(view)
        obs = np.zeros(OBS_SIZE, dtype=np.int8)
        for card in view.own_hand:
            obs[CARD_ID[card]] = 1
        obs[32 + CARD_ID[view.top]] = 1
        if view.wish is not None:
            obs[64 + SUITS.index(view.wish)] = 1
        obs[68] = view.penalty
        obs[69] = view.direction
        obs[70] = 1 if view.deciding_drawn else 0
        seat, n = view.own_seat, view.players
        counts = view.hand_counts
        for j in range(n):
            obs[71 + j] = counts[(seat + j) % n]
        obs[76] = view.draw_pile
        obs[77] = view.discard_pile
        for card in view.discard:
            obs[78 + CARD_ID[card]] = 1
        obs[110] = n
        obs[111] = seat
        h = self.hist
        for j in range(1, n):
            s = (seat + j) % n
            o = OBS_RIVALS + RIVAL_OBS * (j - 1)
            obs[o + h[H_LAST + s]] = 1
            bits = int(h[H_LACKED + s])
            for c in range(32):
                if bits >> c & 1:
                    obs[o + 6 + c] = 1
            obs[o + RIVAL_OBS - 1] = min(int(h[H_RECEIVED + s]), 127)
        return obs
