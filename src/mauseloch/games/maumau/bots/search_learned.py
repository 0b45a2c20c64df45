"""``search-learned``: the determinised flat search of ``bots.search``, guided by the learned policy.

The search draws the hidden cards as the level ``search`` does (deals from the whole public
history, ``games.maumau.bots.belief``), tries each candidate move on every deal with the same luck (common
random numbers) and plays the move of the best mean. What the learned Q network
(``bots.learned``, the shipped weights) adds:

- **Prior**: the network's value of each legal move at the root orders the moves, keeps the
  best ``width`` of them for the search (a jack's four wishes are four moves: the network tells
  the wishes apart), breaks ties, and is added to each move's mean with weight ``q_prior``.
- **Play-outs**: after the move tried, the rivals play as the heuristic would (the model of the
  rivals the search already uses) until the seat is to move again; there the learned policy
  chooses the seat's move (``depth`` times, one batched network call for all deals and moves at
  once), and the position reached is valued by the network (``leaf="q"``: the best legal move's
  value, the expected final reward) or played out to the end with the heuristic on every seat
  (``leaf="playout"``). A game that ends on the way scores its final reward, in the network's
  units (the search's play-out reward, 0 to 1: ``1 - rank_share`` for first place plus
  ``rank_share`` times the share of the other seats ranked below).
- **Blend**: with ``blend`` > 0 the search's own play-outs (the heuristic on every seat from
  the move on, ``games.maumau.kernel.flat_deal``) run on the same deals, and each move's score is
  ``(1 - blend)`` times the guided estimate plus ``blend`` times theirs (on the same scale).
- **Belief**: the deals come from the search's belief from the whole public history (the
  level), or with ``belief="learned"`` from the learned model of the rivals' hands
  (``learn/hands.py``, the shipped ``maumau-hands.npz``): measured on the same deals, the two
  are within the noise of each other (docs/bots-figures.md, fourth round).

Everything is deterministic for a seed and a budget: ``iterations`` play-outs (a move on a
deal) at two players, × (players/2) at more. The network sees in the play-outs what it saw in
training: the kernel's observation with the rivals' public history, kept along each play-out
by the kernel's own ``note_move`` from the history the seat has read (``learn.history``).
"""

from __future__ import annotations

from typing import Any

from mauseloch.core.engine import derive_seed
from mauseloch.core.seeds import STREAM_HISTORY, STREAM_PLAYOUTS
from mauseloch.core.views import View
from mauseloch.extras import needs
from mauseloch.games.maumau.bots.learned import shipped_hands, shipped_policy
from mauseloch.games.maumau.bots.search import Level, SearchBot, level_options
from mauseloch.games.maumau.rules import CARD_STR, MauMau
from mauseloch.games.maumau.views import MauMauView, seat_view

with needs("sim", "the search-learned bot"):
    import numpy as np
    from numba import njit

    from mauseloch.games.maumau import kernel as K
    from mauseloch.games.maumau.learn.hands import PLACES, HandModel, draw_deals
    from mauseloch.games.maumau.learn.history import SeatHistory
    from mauseloch.games.maumau.learn.policy import QPolicy, features, mask_of

# The reward the shipped network learned: the search's play-out reward (0 to 1, 1 - rank_share
# for first place plus rank_share times the rank's share of the seats beaten; the teacher of
# configs/maumau-distilled.toml has the search's rank_share).
RANK_SHARE = 0.2


@njit(cache=True)
def _step(row: np.ndarray, cards: np.ndarray, rngs: np.ndarray, h: np.ndarray, opts: np.ndarray, a: int) -> None:
    """Play action ``a`` and note it in the history row ``h`` (what every seat saw)."""
    actor = row[K.I_TO_MOVE]
    drew_before = row[K.I_DRAWN] >= 0
    fit = row[K.I_FIT]
    before = row[K.I_COUNTS + actor]
    K.apply(row, cards, rngs, a, opts)
    K.note_move(
        h[K.H_LAST : K.H_LACKED], h[K.H_LACKED : K.H_RECEIVED], h[K.H_RECEIVED : K.N_HIST], actor, a, drew_before,
        fit, row[K.I_COUNTS + actor] - before,
    )  # fmt: skip


@njit(cache=True)
def _final_value(row: np.ndarray, n: int, seat: int, share: float) -> float:
    """``seat``'s reward of the ended game in ``row``, in the network's units."""
    ranks = np.zeros(n, dtype=np.int64)
    hand_cards = np.zeros(n, dtype=np.int64)
    points = np.zeros(n, dtype=np.int64)
    K.result(row, n, ranks, hand_cards, points)
    # the search's play-out reward (games.maumau.kernel.playout): what the distilled network learned
    r = ranks[seat]
    return (1.0 - share if r == 1 else 0.0) + share * (n - r) / (n - 1)


@njit(cache=True)
def start_rows(
    base_ints: np.ndarray, base_cards: np.ndarray, base_rngs: np.ndarray, opts: np.ndarray, seat: int,
    deals: np.ndarray, seeds: np.ndarray, actions: np.ndarray, hist0: np.ndarray,
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, hist: np.ndarray,
) -> None:  # fmt: skip
    """Row ``d * M + i``: the position redealt as deal ``d`` (``games.maumau.kernel.redeal``, later
    reshuffles from ``seeds[d]``) with move ``actions[i]`` played, the history ``hist0`` on."""
    n = opts[K.O_PLAYERS]
    m = actions.shape[0]
    bi = base_ints.copy()
    bc = base_cards.copy()
    br = base_rngs.copy()
    for d in range(deals.shape[0]):
        bi[:] = base_ints
        bc[:] = base_cards
        br[:] = base_rngs
        K.redeal(bi, bc, br, n, seat, deals[d], np.uint64(seeds[d]))
        for i in range(m):
            r = d * m + i
            ints[r] = bi
            cards[r] = bc
            rngs[r] = br
            hist[r] = hist0
            _step(ints[r], cards[r], rngs[r], hist[r], opts, actions[i])


@njit(cache=True)
def advance_rows(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, hist: np.ndarray, opts: np.ndarray, seat: int,
    gens: np.ndarray, live: np.ndarray, obs: np.ndarray, masks: np.ndarray, values: np.ndarray, share: float,
) -> None:  # fmt: skip
    """Each live row on with the heuristic for the rivals (ties from ``gens[r]``) until ``seat``
    is to move, its observation and mask then into ``obs[r]``, ``masks[r]``; a game that ends
    first leaves the live rows with its value in ``values[r]``."""
    n = opts[K.O_PLAYERS]
    for r in range(ints.shape[0]):
        if not live[r]:
            continue
        row = ints[r]
        while not row[K.I_OVER] and row[K.I_TO_MOVE] != seat:
            _step(row, cards[r], rngs[r], hist[r], opts, K._move_heuristic(row, n, opts, gens[r]))
        if row[K.I_OVER]:
            live[r] = 0
            values[r] = _final_value(row, n, seat, share)
        else:
            K._observe(row, cards[r], n, obs[r], masks[r])
            K._observe_rivals(hist[r], seat, n, obs[r])


@njit(cache=True)
def apply_rows(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, hist: np.ndarray, opts: np.ndarray, live: np.ndarray,
    actions: np.ndarray,
) -> None:  # fmt: skip
    """The learned policy's ``actions[r]`` for ``seat`` in each live row."""
    for r in range(ints.shape[0]):
        if live[r]:
            _step(ints[r], cards[r], rngs[r], hist[r], opts, actions[r])


@njit(cache=True)
def playout_rows(
    ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray, opts: np.ndarray, seat: int, gens: np.ndarray,
    live: np.ndarray, values: np.ndarray, limit: int, share: float,
) -> None:  # fmt: skip
    """Each live row played out with the heuristic on every seat; ``seat``'s value (a game cut
    short by ``limit``: the play-out's estimate from the cards in hand)."""
    n = opts[K.O_PLAYERS]
    rewards = np.zeros(n)
    trace = np.zeros(0, dtype=np.int64)
    for r in range(ints.shape[0]):
        if not live[r]:
            continue
        K.playout(ints[r], cards[r], rngs[r], opts, gens[r], limit, share, rewards, trace)
        if ints[r, K.I_OVER]:
            values[r] = _final_value(ints[r], n, seat, share)
        else:
            values[r] = 2.0 * rewards[seat] - 1.0


class SearchLearnedBot(SearchBot):
    """The flat search guided by a learned Q network; see the module docstring."""

    def __init__(
        self,
        seed: int = 0,
        *,
        kind: str = "search-learned",
        policy: QPolicy | None = None,
        depth: int = 1,
        leaf: str = "q",
        width: int = 6,
        q_prior: float = 0.0,
        blend: float = 0.0,
        belief: str = "history",
        hands: HandModel | None = None,
        **search: Any,
    ) -> None:
        if leaf not in ("q", "playout"):
            raise ValueError(f"leaf must be 'q' or 'playout', got {leaf!r}")
        if belief not in ("history", "learned"):
            raise ValueError(f"belief must be 'history' or 'learned', got {belief!r}")
        if not 0.0 <= blend <= 1.0:
            raise ValueError(f"blend must lie in [0, 1], got {blend}")
        if depth < 0 or width < 1:
            raise ValueError(f"depth must be at least 0 and width at least 1, got {depth} and {width}")
        super().__init__(seed, kind=kind, **search)
        if self.iterations is None:
            raise ValueError("search-learned needs a budget in play-outs (iterations)")
        self.policy = policy if policy is not None else shipped_policy()
        self.depth, self.leaf, self.width, self.q_prior, self.blend = depth, leaf, width, q_prior, blend
        self.seat_history = SeatHistory()
        # Where the deals come from: the search's belief from the whole history (None), or the
        # learned model of the rivals' hands (learn/hands.py, the shipped weights unless ``hands``).
        self.hands = (hands if hands is not None else shipped_hands()) if belief == "learned" else None

    def choose(self, view: View, legal: list[str]) -> str:
        if legal:
            view = seat_view(view, "the search bot")
            self.seat_history.observe(view)  # every view: the history must see each move
        return super().choose(view, legal)

    def _choose_flat(self, view: MauMauView, legal: list[str], budget: int | None) -> str:
        assert budget is not None
        policy = self.policy
        seat: int = view.own_seat
        root = self.seat_history.observation(view)
        mask = mask_of(legal)
        q = policy.values(policy.features(root[None, :], mask[None, :]))[0]
        ids = sorted((MauMau._ACTION_ID[m] for m in legal), key=lambda a: (-q[a], a))[: self.width]
        if len(ids) == 1:
            return MauMau.ACTIONS[ids[0]]
        actions = np.array(ids, dtype=np.int64)
        m = len(ids)
        deals_wanted = max(1, budget // m)
        decision_seed = derive_seed(self._seed, view.moves_played)
        drawn: np.ndarray | None = None
        pool = self._pool(view)
        if self.hands is not None and self.peek is None:
            drawn = self._learned_deals(view.hand_counts, seat, root, mask, pool, deals_wanted, decision_seed)
        elif self.peek is None:
            drawn = self._sample_history(decision_seed, deals_wanted)
        have = 0 if drawn is None else len(drawn)
        deals = np.array([drawn[d] if d < have else self._deal_ids(view, pool) for d in range(deals_wanted)],  # type: ignore[index]
                         dtype=np.int64)  # fmt: skip
        k = K
        base = k.state_of(MauMau.from_view(view, seed=decision_seed, deal=[CARD_STR[c] for c in deals[0]]))
        opts = k.options_array(view.players, options=view.options)
        seeds = np.array([derive_seed(decision_seed, d) for d in range(deals_wanted)], dtype=np.uint64)
        rows = deals_wanted * m
        ints = np.empty((rows, k.N_INTS), dtype=np.int64)
        cards = np.empty((rows, 64), dtype=np.int8)
        rngs = np.empty((rows, k.N_RNGS), dtype=np.uint64)
        hist = np.empty((rows, k.N_HIST), dtype=np.int64)
        start_rows(*base, opts, seat, deals, seeds, actions, self.seat_history.hist, ints, cards, rngs, hist)
        gens = np.zeros((rows, 3), dtype=np.uint64)
        lucks = np.array(
            [derive_seed(decision_seed, STREAM_PLAYOUTS + d) for d in range(deals_wanted)], dtype=np.uint64
        )
        gens[:, 0] = np.repeat(lucks, m)
        live = np.ones(rows, dtype=np.uint8)
        values = np.zeros(rows)
        obs = np.zeros((rows, k.OBS_SIZE), dtype=np.int8)
        masks = np.zeros((rows, k.NUM_ACTIONS), dtype=np.uint8)
        for level in range(self.depth + 1):
            advance_rows(ints, cards, rngs, hist, opts, seat, gens, live, obs, masks, values, RANK_SHARE)
            at = np.flatnonzero(live)
            if not len(at):
                break
            if level == self.depth and self.leaf == "playout":
                playout_rows(ints, cards, rngs, opts, seat, gens, live, values, self._limit(), RANK_SHARE)
                break
            qs = policy.values(policy.features(obs[at], masks[at]))
            qs = np.where(masks[at].astype(bool), qs, -np.inf)
            if level == self.depth:  # the leaf: the value of the seat's best move there
                values[at] = qs.max(axis=1)
                break
            chosen = np.zeros(rows, dtype=np.int64)
            chosen[at] = qs.argmax(axis=1)
            apply_rows(ints, cards, rngs, hist, opts, live, chosen)
        self.last_iterations = rows
        score = values.reshape(deals_wanted, m).mean(axis=0)
        if self.blend:  # the search's own play-outs on the same deals (heuristic on every seat)
            sums = np.zeros(m)
            for d in range(deals_wanted):
                k.flat_deal(*base, opts, seat, deals[d], seeds[d], lucks[d], actions, self._limit(),
                            self.rank_share, sums)  # fmt: skip
            self.last_iterations += rows
            score = (1 - self.blend) * score + self.blend * sums / deals_wanted
        score = score + self.q_prior * q[actions]
        best = int(np.argmax(score))  # the first of the best: the move the network values more
        return MauMau.ACTIONS[ids[best]]

    def _learned_deals(
        self, counts: list[int], seat: int, obs: np.ndarray, mask: np.ndarray, pool: list[int], deals: int,
        decision_seed: int,
    ) -> np.ndarray:  # fmt: skip
        """``deals`` deals drawn from the learned model of the rivals' hands (learn/hands.py);
        ``counts``: the cards in each hand."""
        assert self.hands is not None
        players = len(counts)
        room = np.zeros(PLACES, dtype=np.int64)
        for j in range(1, players):
            room[j] = counts[(seat + j) % players]
        room[0] = len(pool) - int(room[1:].sum())
        # the hand model's own input layout (the Q network's may be the first one, narrower)
        probs = self.hands.probs(features(obs[None, :], mask[None, :]), players)[0]
        uniforms = np.random.default_rng(derive_seed(decision_seed, STREAM_HISTORY)).random((deals, len(pool), 2))
        return draw_deals(probs, np.array(pool, dtype=np.int64), room, players, seat, uniforms)


# The levels: the search's deals from the whole history and a budget that grows with the seats
# (1,200 play-outs a decision at four players); what the network adds is set here. Pilots on
# the same 300 heads-up deals against the heuristic (docs/bots-figures.md, with the Deep Monte
# Carlo network): one learned move of the seat's own then the network's value (depth 1, leaf
# "q") 63.0 %, the value at once (depth 0) 60.3 %, heuristic play-outs after the learned move
# 62.8 %, 5x the play-outs 64.3 %, the network's value as a prior 64.3 %, a blend with heuristic
# play-outs 65.2 %: all within the intervals' +-3 points, so the level is the cheapest (about
# 4 ms a move heads-up). With the distilled network it wins 65.2 % against the heuristic and
# 52.8 % against search over 1,200 games; 2,400 play-outs gain nothing against search.
class LearnedLevel(Level, total=False):
    """What a level sets of :class:`SearchLearnedBot`'s keywords beyond the search's."""

    depth: int
    leaf: str
    width: int
    q_prior: float
    blend: float


LEVELS: dict[str, LearnedLevel] = {
    "search-learned": {"iterations": 600, "depth": 1, "leaf": "q", "width": 6, "q_prior": 0.0, "blend": 0.0},
}


def search_learned(seed: int) -> SearchLearnedBot:
    """The level ``search-learned`` (Mau-Mau's declaration names it: ``GameInfo.seating.bots``)."""
    options = level_options("search") | {"halving": False} | LEVELS["search-learned"]
    return SearchLearnedBot(seed, kind="search-learned", **options)
