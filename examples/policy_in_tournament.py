"""A trained policy as a bot in ``mauseloch tournament``: train, register, compare.

    python examples/policy_in_tournament.py [--games 400] [--deals 100]

1. Train a linear softmax policy over features of each legal move (numpy only, REINFORCE with a
   running-mean baseline, heads-up against the random bot on the engine's games).
2. Put it behind the ``Bot`` protocol (``choose(view, legal) -> move``, ``react`` for reaction
   games) and register it with ``register_bot`` under a kind of its own.
3. Run a duplicate tournament of it against the shipped random and heuristic bots
   (``mauseloch.study.tournament``): win shares and Bradley-Terry ratings with intervals.

A bot sees only its seat's view (the game's view struct, ``g.typed_view(seat)``; this one reads
Mau-Mau's, ``MauMauView``) and its legal moves, as every shipped bot does; any trained model fits
the same way: compute its input from the view, score the legal moves, return one.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

import mauseloch
from mauseloch.bots import make_bot, register_bot
from mauseloch.core.views import View
from mauseloch.games.maumau import POINTS, RANKS
from mauseloch.games.maumau.views import MauMauView, seat_view
from mauseloch.study import tournament

FEATURES = 11


def features(view: MauMauView, move: str) -> np.ndarray:
    """What the policy knows about playing ``move`` now, from the view alone."""
    f = np.zeros(FEATURES)
    if move in ("draw", "pass", "take"):
        f[("draw", "pass", "take").index(move)] = 1.0
        return f
    rank, suit = move[0], move[1]
    hand = [c for c in view.own_hand if c != move[:2]]
    f[3] = rank == "J"
    f[4] = rank == "7"
    f[5] = rank in "8A"  # skips (the ace only with ace_skips; the policy learns what it is worth)
    f[6] = rank == "9"
    f[7] = POINTS[RANKS.index(rank)] / 11.0
    f[8] = sum(c[1] == (move[3] if ":" in move else suit) for c in hand) / 8.0  # cards that follow suit
    f[9] = min(view.hand_counts[s] for s in range(view.players) if s != view.seat) <= 2
    f[10] = f[9] * (rank in "78")  # a seven or a skip when a rival is about to go out
    return f


def scores(weights: np.ndarray, view: View, legal: list[str]) -> tuple[np.ndarray, np.ndarray]:
    seen = seat_view(view, "the linear policy")  # a Mau-Mau seat's view, or a ValueError that says so
    phi = np.stack([features(seen, m) for m in legal])
    return phi, phi @ weights


class PolicyBot:
    """The trained policy as a bot: the legal move it scores highest."""

    kind = "linear-policy"

    def __init__(self, weights: np.ndarray) -> None:
        self.weights = weights

    def choose(self, view: View, legal: list[str]) -> str:
        return legal[int(np.argmax(scores(self.weights, view, legal)[1]))]

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        return None, 0  # Mau-Mau has no reaction windows


def train(games: int, seed: int = 0, lr: float = 0.05) -> np.ndarray:
    """REINFORCE heads-up against the random bot, the learner's seat alternating."""
    rng = np.random.default_rng(seed)
    w = np.zeros(FEATURES)
    baseline = 0.0
    for i in range(games):
        g = mauseloch.new_game("mau-mau", 2, seed=seed * 1_000_003 + i)
        me = i % 2
        rival = make_bot("mau-mau", "random", seed=i)
        grads = []
        while not g.is_over:
            seat = g.to_move
            legal = g.legal_moves()
            if seat != me:
                g.play(rival.choose(g.typed_view(seat), legal))
                continue
            phi, s = scores(w, g.typed_view(seat), legal)
            p = np.exp(s - s.max())
            p /= p.sum()
            k = int(rng.choice(len(legal), p=p))
            grads.append(phi[k] - p @ phi)
            g.play(legal[k])
        ret = 1.0 if g.result()["ranks"][me] == 1 else -1.0
        baseline += 0.05 * (ret - baseline)
        if grads:
            w += lr * (ret - baseline) * np.sum(grads, axis=0)
    return w


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="training games")
    ap.add_argument("--deals", type=int, default=100, help="tournament deals")
    args = ap.parse_args(argv)
    weights = train(args.games)
    register_bot(PolicyBot.kind, lambda seed: PolicyBot(weights), game="mau-mau")
    spec = tournament.make_tournament("mau-mau", f"{PolicyBot.kind},heuristic,random", 3, seed=1)
    rep = tournament.report(spec, tournament.play(spec, args.deals))
    for row in rep["kinds"]:
        lo, hi = row["rating_ci95"] or (row["rating"], row["rating"])
        print(f"{row['bot']:<14} wins {100 * row['win_share']['mean']:5.1f} %  rating {row['rating']:+5.0f} "
              f"({lo:+.0f} to {hi:+.0f})")  # fmt: skip
    return rep


if __name__ == "__main__":
    main()
