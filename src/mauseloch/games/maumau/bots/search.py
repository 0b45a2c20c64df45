"""The Mau-Mau search bot: Monte Carlo search over determinisations.

Like every bot it sees only its seat's view and its legal moves. It deals the cards it cannot
see at random (``MauMau.from_view`` once, then ``MauMau.redealt`` for each further deal, the
engine's sampler behind ``Game.determinize``), plays each deal out and keeps the move that did
best. Two ways, both deterministic for a seed and a budget:

- **flat** (the default, the levels): every legal move is played out on the *same* deals with the
  *same* play-out seeds (common random numbers: the luck of a deal falls on every move alike, so a
  few dozen deals tell close moves apart); the best mean reward wins. Measured against ISMCTS
  (docs/bots-figures.md): as good at two players, better at four with the same number of
  play-outs (35.6 % against 27.0 %, on other deals).
- **ISMCTS** (``flat=False``): one tree shared by all deals (single-observer ISMCTS: UCB1 with
  availability counts), every seat's reward backed up.

**Play-outs** run whole in compiled code (``games.maumau.kernel.playout``, ``flat_deal``): the
engine's game step and the heuristic bot's own decision (``heuristic_action``: one copy of its
habits) for every seat, with no random moves (the rivals at the bench and at most tables play
like that, so play-outs judge moves the way they will be played on). A deal goes into the
kernel as ``MauMau.redealt`` would make it (``games.maumau.kernel.redeal``).
**Prior**: the heuristic's choice starts ``prior`` wins ahead, so the search overrules it only on
evidence. A jack's wish for a suit the hand lacks is not tried in the flat search.

**Inference** (on by default) reads the public moves since its last turn (``view.recent``):
a rival who had to ``draw`` (or ``pass`` without drawing) held no card that fitted then (MM-6),
and a rival who chose ``take`` probably held no seven. Each such fact becomes a constraint on
that rival's hand, loosened by every card the rival has received since; deals are drawn so that
the hard constraints hold (the constrained rival's hand is dealt first from the cards it may
hold) and the soft ones weight them by rejection. **Reading choices** (``read_choices``, on by
default) models the rivals as the heuristic: when a rival chose a card freely, a deal in which
the heuristic holding that rival's hand then (its hand now plus the cards it has played since,
while it has received none) would have played another card keeps only ``read_choices`` of its
weight; so does a deal in which a rival who kept a drawn card that fitted holds no jack (the
heuristic keeps nothing else).

**History** (``history``, on in the levels): deals are drawn from every public move since the
deal instead (``games.maumau.bots.belief``): a Markov chain over the positions every hidden card had in the
deck, checked against each draw, pass, penalty taken and free choice of every rival
(``games.maumau.bots.belief_kernel``), so a rival's older moves count as well. A bot that took its seat mid-game
never saw the start and deals as above.
**Halving** (``halving``, on in the levels): rounds that each play out the better half of the
moves left on new deals, so the play-outs go to the close moves.

**Budget**: ``iterations`` play-outs at two players, × (players/2) ** ``budget_exponent`` at more
(-1, the default: about the same time a decision at every table size; the levels use +1, more
seats more play-outs), deterministic for a seed; or ``time_ms`` (wall clock; not deterministic,
for people at a table). Levels (``LEVELS``): ``search-fast`` (300) and ``search`` (1,000).

**Cheating** (``peek``): the bench's upper bound sees the true hands of all seats (the draw
pile's order stays unknown). It is never registered, so no table offers it.

Why no Mausgeflippt search bot: its only decision is which reaction to make when a mouse is
shown, and the best one is known at once from the own hand (catch with a fitting card, else
flip, never touch a protected mouse); who wins a mouse is decided by reaction time, which search
cannot change. Aus die Maus! has no decisions at all.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, TypedDict

from mauseloch.core.engine import Game, Rng, derive_seed
from mauseloch.core.seeds import STREAM_HISTORY, STREAM_PLAYOUTS, STREAM_PRIOR
from mauseloch.core.views import View
from mauseloch.extras import needs
from mauseloch.games.maumau.bots.belief import History
from mauseloch.games.maumau.bots.heuristic import HeuristicBot, kernel
from mauseloch.games.maumau.rules import (
    CARD_ID,
    CARD_STR,
    JACK,
    JACKS,
    NINE,
    SEVEN,
    SEVENS,
    SUIT_MASK,
    SUITS,
    MauMau,
    fit_mask,
)
from mauseloch.games.maumau.views import MauMauView, seat_view

with needs("sim", "the Mau-Mau search bots"):
    import numpy as np

SOFT_WEIGHT = 0.15  # how much a deal keeps when a rival holds a seven it did not play on a penalty
ROLLOUT_LIMIT = 400  # moves; a rollout still running then is scored as it stands


class _Node:
    """One node of the shared tree: reached by ``player`` playing the move that leads here."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


class Fact(TypedDict):
    """What inference holds of a rival (:meth:`SearchBot.facts`)."""

    seat: int
    lacks: list[str]  # the cards it held none of
    received_since: int  # cards it has received since
    soft: bool  # read from a choice, not from a draw


class _Constraint:
    """``seat`` held none of ``mask`` when it had received ``received`` cards in all."""

    __slots__ = ("mask", "received", "seat", "soft")

    def __init__(self, seat: int, mask: int, received: int, soft: bool) -> None:
        self.seat, self.mask, self.received, self.soft = seat, mask, received, soft


class _Choice:
    """``seat`` played ``move`` when the cards in ``fit`` fitted, the hands held ``counts`` cards
    and play went in ``direction``; it had received ``received`` cards in all then, and has played
    ``played`` (a mask, ``move``'s card included) since."""

    __slots__ = ("action", "counts", "direction", "fit", "move", "played", "received", "seat")

    def __init__(self, seat: int, move: str, fit: int, counts: list[int], direction: int, received: int) -> None:
        self.seat, self.move, self.fit, self.direction = seat, move, fit, direction
        self.counts = np.array(counts, dtype=np.int64)  # as the kernel takes them, made once
        self.action = MauMau._ACTION_ID[move]
        self.received = received
        self.played = 1 << CARD_ID[move[:2]]


class SearchBot:
    """ISMCTS for Mau-Mau; see the module docstring."""

    def __init__(
        self,
        seed: int = 0,
        *,
        kind: str = "search",
        iterations: int | None = 400,
        time_ms: float | None = None,
        inference: bool = True,
        exploration: float = 0.4,
        prior: float = 3.0,
        read_choices: float = 0.05,
        tries: int = 10,
        flat: bool = True,
        rank_share: float = 0.2,
        rollout_depth: int | None = None,
        peek: Callable[[], Game] | None = None,
        history: bool = False,
        burn: int = 1000,
        thin: int = 20,
        halving: bool = False,
        budget_exponent: float = -1.0,
    ) -> None:
        if iterations is None and time_ms is None:
            raise ValueError("a search needs a budget: iterations or time_ms")
        self.kind = kind
        self.iterations = iterations
        self.time_ms = time_ms
        self.inference = inference
        self.exploration = exploration
        # Inference from the cards rivals chose: a deal in which the heuristic, holding that
        # rival's hand then, would not have played its card keeps this weight (0: not read).
        self.read_choices = read_choices
        self.tries = tries  # deals proposed at most per sample (rejection sampling)
        self.flat = flat  # every root move on the same deals and play-out seeds (see _choose_flat)
        self.rank_share = rank_share
        self.peek = peek  # the cheating variant's window on the real game (bench only)
        # The heuristic's choice gets a head start of ``prior`` wins at the root (progressive bias).
        self.prior = prior
        self._heuristic = HeuristicBot(derive_seed(seed, STREAM_PRIOR)) if prior > 0 or flat else None
        self.rollout_depth = rollout_depth  # None: play out to the end; else score by cards left
        self._rng = Rng(seed)
        self._seed = seed
        self._ace_skips = self._no_win_with_jack = False  # the table's options, read per decision
        self.last_iterations = 0  # how many the last decision ran (the bench reports it)
        # What the public moves told so far (see _observe).
        self._next = -1  # absolute index of the first move not yet read
        self._top = -1
        self._wish = -1
        self._penalty = 0
        self._drew: int | None = None  # the seat whose last move was a draw (its pass is no news)
        self._received: list[int] = []
        self._constraints: list[_Constraint] = []
        self._choices: list[_Choice] = []
        self._kept: list[int] = []  # jacks each rival drew and kept (see _observe)
        self._counts: list[int] = []
        self._direction = 1
        # Inference from the whole history (bots.belief): deals drawn by a Markov chain over
        # every hidden card of the game, when the history is known from the start.
        self._history = History() if history and inference else None
        self.burn, self.thin = burn, thin
        self.halving = halving
        # Play-outs at ``players`` seats: ``iterations`` × (players/2) ** budget_exponent (-1: the
        # same time a decision at every table size; +1: the levels, more at more seats).
        self.budget_exponent = budget_exponent

    # ------------------------------------------------------------------ choosing
    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        """Mau-Mau is played in turns and never opens a reaction window: keep still."""
        return None, 0

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("the search bot was asked to move with no legal moves")
        view = self._read(view)
        if len(legal) == 1:
            return legal[0]
        budget = None if self.iterations is None else self._budget(view.players)
        if self.flat:
            return self._choose_flat(view, legal, budget)
        seat: int = view.own_seat
        root = _Node(seat)
        if self._heuristic is not None and self.prior > 0:
            hint = self._heuristic.choose(view, legal)
            child = root.children[hint] = _Node(seat)
            child.visits, child.reward = 1, self.prior  # as if tried once with reward ``prior``
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        pool = self._pool(view)
        count = 0
        decision_seed = derive_seed(self._seed, view.moves_played)
        base: MauMau | None = None
        while True:
            if budget is not None and count >= budget:
                break
            if deadline is not None and count and time.perf_counter() >= deadline:
                break
            deal = self._deal_ids(view, pool)
            if base is None:
                base = MauMau.from_view(view, seed=decision_seed, deal=[CARD_STR[c] for c in deal])
            self._iterate(base.redealt(seat, deal, derive_seed(decision_seed, count)), root)
            count += 1
        self.last_iterations = count
        # The most visited move; the legal list's order breaks ties (deterministic).
        best = max(legal, key=lambda m: root.children[m].visits if m in root.children else -1)
        return best

    def _choose_flat(self, view: MauMauView, legal: list[str], budget: int | None) -> str:
        """Every legal move played out on the same deals with the same play-out seeds (common
        random numbers: the luck of a deal falls on every move alike, so a few hundred play-outs
        tell close moves apart); the best mean reward wins, ties go to the heuristic's choice."""
        assert self._heuristic is not None
        hint = self._heuristic.choose(view, legal)
        held = 0
        for c in view.own_hand:
            held |= 1 << CARD_ID[c]
        held &= ~JACKS
        # A jack's wish for a suit the hand holds none of is never tried (it hands the suit to
        # the rivals); the heuristic's own wish always is.
        moves = [hint] + [m for m in legal if m != hint and (m[0] != "J" or held & SUIT_MASK[SUITS.index(m[3])])]
        totals = [0.0] * len(moves)
        totals[0] += self.prior
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        pool = self._pool(view)
        decision_seed = derive_seed(self._seed, view.moves_played)
        k = kernel()
        opts = k.options_array(view.players, options=view.options)
        actions = np.array([MauMau._ACTION_ID[m] for m in moves], dtype=np.int64)
        sums = np.array(totals)  # the prior first: the sums as the plain loop added them
        limit = self._limit()
        state: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        count = deals = 0
        # How many deals each round plays out, and on how many of the moves: one round of all of
        # them, or (halving) rounds that each keep the better half for the next.
        rounds = self._rounds(len(moves), budget)
        drawn: np.ndarray | None = None
        if self._history is not None and self.peek is None and budget is not None:
            wanted = sum(n for n, _ in rounds) if rounds else max(budget, len(moves)) // len(moves)
            drawn = self._sample_history(decision_seed, wanted)
        alive = list(range(len(moves)))
        for r in range(len(rounds) if rounds else 1):
            playing = actions[alive]
            round_sums = np.zeros(len(alive))
            if rounds:
                round_sums[:] = sums[alive]
            while True:
                if rounds:
                    if deals >= sum(n for n, _ in rounds[: r + 1]):
                        break
                elif budget is not None and count + len(moves) > max(budget, len(moves)):
                    break
                if deadline is not None and count and time.perf_counter() >= deadline:
                    break
                deal = drawn[deals] if drawn is not None and deals < len(drawn) else self._deal_ids(view, pool)
                state = self._flat_deal(view, state, opts, deal, decision_seed, deals, playing,
                                        round_sums if rounds else sums, limit)  # fmt: skip
                count += len(alive)
                deals += 1
            if rounds:
                sums[alive] = round_sums
                if r + 1 < len(rounds):  # the better half goes on (ties: the earlier move)
                    keep = rounds[r + 1][1]
                    alive = sorted(sorted(alive, key=lambda i: (-sums[i], i))[:keep])
        totals = sums.tolist()
        self.last_iterations = count
        best = max(alive, key=lambda i: (totals[i], -i))
        return moves[best]

    def _read(self, view: View) -> MauMauView:
        """Read a view before a decision (which the search deals from with ``MauMau.from_view``):
        what inference learns from the moves since the last one, the history's belief, the
        table's options."""
        view = seat_view(view, "the search bot")
        if self.inference:
            self._observe(view)
        if self._history is not None:
            self._history.observe(view)
        options = view.options
        self._ace_skips = bool(options.get("ace_skips"))
        self._no_win_with_jack = bool(options.get("no_win_with_jack"))
        return view

    def _sample_history(self, decision_seed: int, wanted: int) -> np.ndarray | None:
        """``wanted`` deals drawn from the whole public history (None without it)."""
        if self._history is None:
            return None
        return self._history.sample(
            wanted, self._rng, derive_seed(decision_seed, STREAM_HISTORY),
            burn=self.burn, thin=self.thin, read_choices=self.read_choices, ace_skips=self._ace_skips,
        )  # fmt: skip

    def _flat_deal(
        self, view: MauMauView, state: tuple[np.ndarray, np.ndarray, np.ndarray] | None, opts: np.ndarray,
        deal: Any, decision_seed: int, d: int, actions: np.ndarray, sums: np.ndarray, limit: int,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
        """Play each of ``actions`` out on deal number ``d`` with the same play-out seed
        (compiled: the heuristic on every seat, the engine's game step), as MauMau.redealt would
        deal it, adding each reward to ``sums``; the position's kernel state, made from the view
        on the first deal (``state`` None) and dealt into on every one."""
        k = kernel()
        if state is None:
            state = k.state_of(MauMau.from_view(view, seed=decision_seed, deal=[CARD_STR[c] for c in deal]))
        k.flat_deal(
            *state, opts, view.own_seat, np.array(deal, dtype=np.int64), np.uint64(derive_seed(decision_seed, d)),
            np.uint64(derive_seed(decision_seed, STREAM_PLAYOUTS + d)), actions, limit, self.rank_share, sums,
        )  # fmt: skip
        return state

    def _rounds(self, moves: int, budget: int | None) -> list[tuple[int, int]]:
        """(deals, moves played out on each) for every round of a halving search with ``budget``
        play-outs; empty for the plain flat search (one round, every move on every deal)."""
        if not self.halving or budget is None or moves < 3:
            return []
        sizes = [moves]
        while sizes[-1] > 2:
            sizes.append((sizes[-1] + 1) // 2)
        per_round = max(budget, moves) / len(sizes)
        return [(max(1, int(per_round // n)), n) for n in sizes]

    def _budget(self, players: int) -> int:
        """Play-outs for a decision at ``players`` seats: ``iterations`` counts them at two."""
        assert self.iterations is not None
        if self.budget_exponent == -1:  # exact in integers (recorded games replay as they were)
            return max(1, self.iterations * 2 // players)
        return max(1, int(self.iterations * (players / 2) ** self.budget_exponent + 1e-9))

    def _limit(self) -> int:
        return ROLLOUT_LIMIT if self.rollout_depth is None else self.rollout_depth

    def _rollout(self, game: MauMau, rng: Rng) -> list[float]:
        """Play ``game`` out in the kernel with the heuristic on every seat (ties from ``rng``,
        which goes on where the play-out left it); each seat's reward."""
        k = kernel()
        ints, cards, rngs = k.state_of(game)
        gen = np.array(rng.words(), dtype=np.uint64)
        rewards = np.zeros(game.players)
        opts = k.options_array(game.players, game.options)
        k.playout(ints, cards, rngs, opts, gen, self._limit(), self.rank_share, rewards, _NO_TRACE)
        rng.load(gen.tolist())
        out: list[float] = rewards.tolist()
        return out

    def _iterate(self, game: MauMau, root: _Node) -> None:
        rng = self._rng
        node = root
        path = [root]
        c = self.exploration
        # Selection and expansion: down the tree while every legal move has been tried here.
        while not game.is_over:
            mover: int = game.to_move  # type: ignore[assignment]
            legal = game.legal_moves()
            children = node.children
            untried = [m for m in legal if m not in children]
            if untried:
                move = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
                child = children[move] = _Node(mover)
                for m in legal:
                    if m != move and m in children:
                        children[m].avail += 1
                game.play(move)
                path.append(child)
                break
            best_score = -1.0
            best: _Node | None = None
            best_move = legal[0]
            for m in legal:
                ch = children[m]
                ch.avail += 1
                score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score, best, best_move = score, ch, m
            game.play(best_move)
            node = best  # type: ignore[assignment]
            path.append(node)
        rewards = self._rollout(game, rng)
        for n in path:
            n.visits += 1
            if n is not root:
                n.reward += rewards[n.player]

    # ------------------------------------------------------------------ dealing what is hidden
    @staticmethod
    def _pool(view: MauMauView) -> list[int]:
        seen = 0
        for c in view.own_hand:
            seen |= 1 << CARD_ID[c]
        for c in view.discard:
            seen |= 1 << CARD_ID[c]
        return [c for c in range(32) if not seen >> c & 1]

    def _deal(self, view: MauMauView, pool: list[int]) -> list[str]:
        """The other hands in seat order, then the draw pile top first: the cards ``view``
        cannot see, as ``MauMau.from_view`` takes them."""
        return [CARD_STR[c] for c in self._deal_ids(view, pool)]

    def _deal_ids(self, view: MauMauView, pool: list[int]) -> list[int]:
        seat: int = view.own_seat
        counts: list[int] = view.hand_counts
        rivals = [s for s in range(view.players) if s != seat]
        if self.peek is not None:
            return self._true_deal(view, pool, rivals)
        rng = self._rng
        best: tuple[float, list[int]] | None = None
        for _ in range(self.tries):  # rejection for the soft constraints; hard ones hold by construction
            hands = self._propose(pool, rivals, counts)
            weight = self._weight(hands)
            if best is None or weight > best[0]:
                best = (weight, [c for s in rivals for c in hands[s]] + hands[-1])
            if weight >= 1.0 or rng.random() < weight:
                break
        assert best is not None
        return best[1]

    def _propose(self, pool: list[int], rivals: list[int], counts: list[int]) -> dict[int, list[int]]:
        """A random deal in which each rival keeps its tightest hard fact: at most as many of
        the cards it lacked as it has received since. Such a hand is drawn exactly (how many of
        those cards it holds follows the hypergeometric law cut at that bound); the most
        constrained rival is dealt first, the draw pile gets the rest."""
        rng = self._rng
        rest = list(pool)
        rng.shuffle(rest)
        tightest: dict[int, tuple[int, int]] = {}
        for con in self._constraints:
            if not con.soft:
                budget = self._received[con.seat] - con.received
                if con.seat not in tightest or budget < tightest[con.seat][1]:
                    tightest[con.seat] = (con.mask, budget)
        hands: dict[int, list[int]] = {}
        for s in sorted(rivals, key=lambda r: r not in tightest):
            n = counts[s]
            take = rest[:n]
            if s in tightest:
                mask, budget = tightest[s]
                lacked = [c for c in rest if mask >> c & 1]
                others = [c for c in rest if not mask >> c & 1]
                lo, hi = max(0, n - len(others)), min(budget, len(lacked), n)
                if lo <= hi:  # else the facts contradict each other: forget them here
                    weights = [math.comb(len(lacked), k) * math.comb(len(others), n - k) for k in range(lo, hi + 1)]
                    x = rng.random() * sum(weights)
                    k = lo
                    for w in weights:
                        x -= w
                        if x < 0:
                            break
                        k += 1
                    k = min(k, hi)
                    take = lacked[:k] + others[: n - k]
            hands[s] = take
            taken = set(take)
            rest = [c for c in rest if c not in taken]
        hands[-1] = rest  # the draw pile
        return hands

    def _weight(self, hands: dict[int, list[int]]) -> float:
        weight = 1.0
        for con in self._constraints:
            allowed = self._received[con.seat] - con.received  # cards received since may be any
            held = sum(1 for c in hands[con.seat] if con.mask >> c & 1)
            if held > allowed:
                weight *= SOFT_WEIGHT ** (held - allowed) if con.soft else 0.0
        if self.read_choices and weight:
            for s, kept in enumerate(self._kept):
                if kept and sum(1 for c in hands[s] if c & 7 == JACK) < kept:
                    weight *= self.read_choices
            agrees = kernel().heuristic_agrees  # what maumau_heuristic.heuristic_agrees asks, on masks
            for ch in self._choices:
                hand = ch.played
                for c in hands[ch.seat]:
                    hand |= 1 << c
                fitting = hand & ch.fit
                # more than one legal move (a jack alone is four: one per wish)
                choice = fitting & (fitting - 1) or fitting & JACKS
                if choice and not agrees(
                    ch.action, fitting, hand, ch.seat, ch.counts, len(ch.counts), ch.direction,
                    self._ace_skips, self._no_win_with_jack,
                ):  # fmt: skip
                    weight *= self.read_choices
        return weight

    def _true_deal(self, view: MauMauView, pool: list[int], rivals: list[int]) -> list[int]:
        real = self.peek()  # type: ignore[misc]
        hands = [[CARD_ID[c] for c in real.view(s)["hand"]] for s in rivals]
        held = {c for h in hands for c in h}
        pile = [c for c in pool if c not in held]
        self._rng.shuffle(pile)  # even the cheat does not know the draw pile's order
        return [c for h in hands for c in h] + pile

    # ------------------------------------------------------------------ inference
    def _observe(self, view: MauMauView) -> None:
        """Read the public moves since the last turn into constraints on the rivals' hands."""
        players: int = view.players
        seat: int = view.own_seat
        recent = view.played
        start = view.moves_played - len(recent)
        if self._next < 0 or self._next < start:  # first look (or a gap): start afresh
            self._received = [0] * players
            self._constraints = []
            self._top = CARD_ID[view.discard[0]] if start == 0 else CARD_ID[view.top]
            self._wish = -1 if start == 0 else (SUITS.index(view.wish) if view.wish else -1)
            self._penalty = 0 if start == 0 else view.penalty
            self._drew = None
            self._next = start
            self._choices = []
            self._kept = [0] * players
            self._counts = [5] * players if start == 0 else list(view.hand_counts)
            self._direction = 1 if start == 0 else view.direction
        no_jj = bool(view.options.get("no_jack_on_jack"))
        for i in range(self._next - start, len(recent)):
            who, move = recent[i].seat, recent[i].move
            if move == "draw":
                if who != seat:
                    self._constraints.append(
                        _Constraint(who, fit_mask(self._top, self._wish, no_jj), self._received[who], False)
                    )
                self._received[who] += 1
                self._counts[who] += 1
                self._drew = who
                continue
            if move == "pass":
                if who != seat and self._drew != who:  # MM-14: nothing fitted and nothing to draw
                    self._constraints.append(
                        _Constraint(who, fit_mask(self._top, self._wish, no_jj), self._received[who], False)
                    )
                elif who != seat:  # kept a drawn card that fitted: the heuristic keeps only a jack
                    self._kept[who] += 1
            elif move == "take":
                if who != seat:  # countering is never forced, so only a soft fact
                    self._constraints.append(_Constraint(who, SEVENS, self._received[who], True))
                self._received[who] += self._penalty
                self._counts[who] += self._penalty
                self._penalty = 0
            else:
                card, _, wish = move.partition(":")
                if who != seat and not self._penalty and self._drew != who:  # a free choice (MM-6)
                    fit = fit_mask(self._top, self._wish, no_jj)
                    self._choices.append(
                        _Choice(who, move, fit, list(self._counts), self._direction, self._received[who])
                    )
                for ch in self._choices:
                    if ch.seat == who:
                        ch.played |= 1 << CARD_ID[card]
                if CARD_ID[card] & 7 == JACK and self._kept[who]:
                    self._kept[who] -= 1
                self._counts[who] -= 1
                if CARD_ID[card] & 7 == NINE:
                    self._direction = -self._direction
                self._top = CARD_ID[card]
                self._wish = SUITS.index(wish) if wish else -1
                if self._top & 7 == SEVEN:
                    self._penalty += 2
            self._drew = None
        self._next = view.moves_played
        # A fact about a rival whose hand has been renewed by as many cards as it held is void.
        counts: list[int] = view.hand_counts
        self._constraints = [
            con for con in self._constraints if self._received[con.seat] - con.received < counts[con.seat]
        ]
        # A choice is read only while its rival has received nothing since: its hand then is
        # its hand now and the cards it played since, exactly.
        self._choices = [ch for ch in self._choices if self._received[ch.seat] == ch.received]
        self._counts = list(counts)

    def facts(self) -> list[Fact]:
        """What inference holds now (for tests and curious people)."""
        return [
            {
                "seat": con.seat,
                "lacks": [CARD_STR[c] for c in range(32) if con.mask >> c & 1],
                "received_since": self._received[con.seat] - con.received,
                "soft": con.soft,
            }
            for con in self._constraints
        ]


_NO_TRACE = np.zeros(0, dtype=np.int64)


# Play-outs per decision at two players (players/2 times that at more, LEVEL_OPTIONS) and what
# a level sets beyond LEVEL_OPTIONS. With compiled play-outs and the history's chain, ``search``
# cost 7 ms CPU a two-player decision and 19 ms a four-player one (2,000 play-outs) on the quiet
# 2-core machine.
# No stronger level: twice the play-outs at two players and four times at four (8,000 a move,
# 69 ms CPU) won 66.2 % and 32.0 %, against 65.5 % and 31.9 % (docs/bots-figures.md).
class Level(TypedDict, total=False):
    """What a level sets of :class:`SearchBot`'s keywords."""

    iterations: int
    history: bool
    halving: bool
    budget_exponent: float
    burn: int
    thin: int


LEVELS: dict[str, Level] = {
    "search-fast": {"iterations": 300},
    "search": {"iterations": 1000},
}
# What every level adds to a plain SearchBot: deals drawn from the whole public history (a Markov
# chain, bots.belief), halving rounds, and a budget that grows with the seats instead of
# shrinking (4 players: 2,000 play-outs for ``search``). The bench: 65.5 % at two players and
# 31.9 % at four against the heuristic, from 61.8 % and 29.0 % for the former level.
LEVEL_OPTIONS: Level = {"history": True, "halving": True, "budget_exponent": 1.0, "burn": 300, "thin": 5}


def level_options(kind: str) -> Level:
    """The SearchBot keywords of level ``kind`` (a key of :data:`LEVELS`)."""
    return LEVEL_OPTIONS | LEVELS[kind]


def search_fast(seed: int) -> SearchBot:
    """The level ``search-fast`` (Mau-Mau's declaration names it: ``GameInfo.seating.bots``)."""
    return SearchBot(seed, kind="search-fast", **level_options("search-fast"))


def search(seed: int) -> SearchBot:
    """The level ``search``."""
    return SearchBot(seed, kind="search", **level_options("search"))
