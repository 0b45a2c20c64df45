"""Train a Mau-Mau player on the CPU with nothing but numpy, then measure it against the random bot.

The learner is a linear softmax policy over the legal action ids (logits ``W[a] · x`` for the
observation vector ``x`` of ``docs/envs.md`` plus a bias), trained by REINFORCE with a learned
linear baseline (the value ``w · x``) in the Gymnasium environment ``mauseloch/MauMau-v0``,
heads-up against the random bot, seated at either seat. A linear policy is enough to learn what
matters against a random player: counter sevens rather than take, play a card found by drawing,
keep jacks and wish the suit one holds most of, play sevens and eights when the rival is close.

    python examples/train_maumau.py [--minutes 8] [--eval-games 1000] [--save policy.npz]

Needs the ``rl`` extra (``pip install 'mauseloch[rl]'``). Prints the win rate over the
evaluation games (the learner plays its most likely legal action) and one JSON line last.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from mauseloch.envs.maumau_single import MauMauSingleEnv


class LinearPolicy:
    """Softmax over the legal actions of ``W @ [x, 1]``; a linear value ``w · [x, 1]`` as baseline."""

    def __init__(self, obs_size: int, num_actions: int) -> None:
        self.W = np.zeros((num_actions, obs_size + 1))
        self.w = np.zeros(obs_size + 1)

    @staticmethod
    def features(obs: np.ndarray) -> np.ndarray:
        return np.append(obs.astype(np.float64), 1.0)

    def probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.W[legal] @ x
        z -= z.max()
        p = np.exp(z)
        return p / p.sum()

    def save(self, path: str) -> None:
        np.savez(path, W=self.W, w=self.w)


Step = tuple[np.ndarray, np.ndarray, np.ndarray, int]  # features, legal ids, their probabilities, chosen index


def play_episode(env: MauMauSingleEnv, policy: LinearPolicy, seed: int, rng: np.random.Generator | None) -> tuple[
    float, list[Step]
]:  # fmt: skip
    """One game: sampled actions while training (``rng``), else the most likely legal action.
    Returns the final reward and the learner's steps."""
    obs, info = env.reset(seed=seed)
    steps: list[Step] = []
    while True:
        legal = np.flatnonzero(info["action_mask"])
        x = policy.features(obs)
        p = policy.probs(x, legal)
        if rng is None:
            i = int(p.argmax())
        else:
            i = min(int(np.searchsorted(np.cumsum(p), rng.random() * p.sum())), len(legal) - 1)
            steps.append((x, legal, p, i))
        obs, reward, terminated, truncated, info = env.step(int(legal[i]))
        if terminated or truncated:
            return float(reward), steps


def train(
    minutes: float, seed: int, lr: float = 0.02, lr_value: float = 0.01, max_episodes: int | None = None
) -> tuple[LinearPolicy, int]:
    env = MauMauSingleEnv(players=2, seat=None, opponents="random")
    policy = LinearPolicy(env.observation_space.shape[0], int(env.action_space.n))
    rng = np.random.default_rng(seed)
    deadline = time.perf_counter() + minutes * 60
    episodes = 0
    while time.perf_counter() < deadline and (max_episodes is None or episodes < max_episodes):
        reward, steps = play_episode(env, policy, seed * 1_000_003 + episodes, rng)
        for x, legal, p, i in steps:
            advantage = reward - policy.w @ x
            policy.w += lr_value * advantage * x
            p[i] -= 1.0  # -(onehot - p): the gradient of -log p[i] with respect to the logits
            policy.W[legal] -= lr * advantage * np.outer(p, x)
        episodes += 1
    return policy, episodes


def evaluate(policy: LinearPolicy, games: int, seed: int) -> dict[str, Any]:
    """Heads-up against the random bot, the learner at seat 0 and seat 1 in turn."""
    envs = [MauMauSingleEnv(players=2, seat=s, opponents="random") for s in (0, 1)]
    wins = ties = 0
    for g in range(games):
        reward, _ = play_episode(envs[g % 2], policy, 10**9 + seed * 100_003 + g, None)
        wins += reward > 0
        ties += reward == 0
    return {"games": games, "wins": wins, "ties": ties, "win_rate": wins / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=8.0, help="training time (wall clock)")
    parser.add_argument("--episodes", type=int, default=None, help="stop training after this many games")
    parser.add_argument("--eval-games", type=int, default=1000, help="games against the random bot afterwards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default=None, help="write the weights to this .npz file")
    args = parser.parse_args()
    start = time.perf_counter()
    policy, episodes = train(args.minutes, args.seed, max_episodes=args.episodes)
    trained = time.perf_counter() - start
    print(f"trained {episodes:,} games in {trained / 60:.1f} min")
    result = evaluate(policy, args.eval_games, args.seed)
    print(
        f"against the random bot, heads-up: won {result['wins']} of {result['games']} "
        f"({100 * result['win_rate']:.1f} %), {result['ties']} ties"
    )
    if args.save:
        policy.save(args.save)
    print(json.dumps({"example": "train_maumau", "episodes": episodes, "train_seconds": round(trained, 1)} | result))


if __name__ == "__main__":
    main()
