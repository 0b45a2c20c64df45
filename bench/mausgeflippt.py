"""Mausgeflippt simulation throughput next to Mau-Mau's, in the same run.

Both games are played to the end by random bots through the public string API (4 players):

* Mau-Mau: ``play(random legal move)`` until over.
* Mausgeflippt: ``reveal``; then every seat picks a random move from ``legal_moves(seat)``;
  the seats that did not pick ``timeout`` are the reactions, one of them (at random) arrives
  first; nobody → ``timeout``.

A third row plays Mausgeflippt with the reaction bots of ``games/mausgeflippt/bots/reaction.py`` through the
simulation runner (views, sampled times, tie-breaks): what ``mauseloch simulate`` pays per game.
Rounds are interleaved so that machine noise hits every runner alike; the median round counts.

    python bench/mausgeflippt.py [--seconds 2] [--rounds 5] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import mauseloch
from _report import print_json, text_to_stderr
from mauseloch.core.engine import SEED_LIMIT, Rng
from mauseloch.study.simulate import game_runner

Runner = Callable[[float, Rng], tuple[int, int, float]]  # -> decisions, games, seconds


def run_maumau(seconds: float, rng: Rng) -> tuple[int, int, float]:
    new_game = mauseloch.new_game
    below = rng.below
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = new_game("mau-mau", players=4, seed=rng.next64() % SEED_LIMIT)
        while not g.is_over:
            legal = g.legal_moves()
            g.play(legal[below(len(legal))])
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - start


def run_mausgeflippt_random(seconds: float, rng: Rng) -> tuple[int, int, float]:
    new_game = mauseloch.new_game
    below = rng.below
    decisions = games = 0
    seats = range(4)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        g = new_game("mausgeflippt", players=4, seed=rng.next64() % SEED_LIMIT)
        while not g.is_over:
            if g.to_move is not None:
                g.play("reveal")
                decisions += 1
                continue
            reactions = []
            for s in seats:
                legal = g.legal_moves(s)
                move = legal[below(len(legal))]
                decisions += 1
                if move != "timeout":
                    reactions.append((s, move))
            if reactions:
                s, move = reactions[below(len(reactions))]
                g.play(move, seat=s, ms=0)
            else:
                g.play("timeout")
        games += 1
    return decisions, games, time.perf_counter() - start


def run_mausgeflippt_reaction(seconds: float, rng: Rng) -> tuple[int, int, float]:
    kinds = ("easy", "normal", "hard", "normal")
    play_game = game_runner("mausgeflippt")
    decisions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        _game, stats = play_game(kinds, rng.next64(), {})
        decisions += stats.figures["reveals"] * 5  # a reveal and four sampled reactions per mouse
        games += 1
    return decisions, games, time.perf_counter() - start


RUNNERS: dict[str, Runner] = {
    "mau-mau, random bots": run_maumau,
    "mausgeflippt, random bots": run_mausgeflippt_random,
    "mausgeflippt, reaction bots (simulator)": run_mausgeflippt_reaction,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per runner per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the median counts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout

    rng = Rng(args.seed)
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in RUNNERS}
    for _ in range(args.rounds):
        for name, run in RUNNERS.items():
            decisions, games, secs = run(args.seconds, rng)
            rates[name].append((games / secs, decisions / secs))
    base = statistics.median(g for g, _ in rates["mau-mau, random bots"])
    print(f"4 players, {args.rounds} rounds of {args.seconds:g} s, median round")
    print(f"{'runner':42} {'games/s':>10} {'decisions/s':>12} {'vs mau-mau':>11}")
    rows = []
    for name, values in rates.items():
        games = statistics.median(g for g, _ in values)
        decisions = statistics.median(d for _, d in values)
        print(f"{name:42} {games:10.0f} {decisions:12.0f} {games / base:10.2f}x")
        rows.append({"runner": name, "games_per_s": round(games, 1), "decisions_per_s": round(decisions)})
        rows[-1]["vs_maumau"] = round(games / base, 2)
    if args.json:
        print_json({"bench": "mausgeflippt", "seconds": args.seconds, "rounds": args.rounds, "rows": rows}, out)


if __name__ == "__main__":
    main()
