"""How often the distillation's teacher (or a student playing its seat) wins against the heuristic.

The teacher of ``games/maumau/learn/distill.py`` on one seat (seat deal % players), the heuristic on the
others, as in the labelled games but on deals of their own; prints the share of games the seat
won and its 95 % interval, and with ``--json`` one JSON line. docs/bots-figures.md, fourth round:

    python scripts/teacher_strength.py --players 4 --deals 2400 --playouts 200
"""

from __future__ import annotations

import argparse
import json
import math

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.seeds import STREAM_TEACHER, STREAM_TEACHER_RIVALS
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.learn.distill import Teacher
from mauseloch.games.maumau.learn.policy import QPolicy

SEED = 424_242  # the deals' seed: no labelled game and no tournament uses it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--playouts", type=int, default=200, help="deals each legal move is played out on")
    parser.add_argument("--student", help="a policy (.npz) whose greedy moves the seat plays instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 2 <= args.players <= 5 or args.deals < 1 or args.playouts < 1:
        parser.error("--players 2..5, --deals and --playouts at least 1")
    student = QPolicy.load(args.student) if args.student else None
    wins = 0
    for deal in range(args.deals):
        g = mauseloch.new_game(MauMau.name, players=args.players, seed=derive_seed(SEED, deal))
        mine = deal % args.players
        teacher = Teacher(derive_seed(deal, STREAM_TEACHER), args.playouts, student)
        rivals = [derive_seed(deal, STREAM_TEACHER_RIVALS + s) for s in range(args.players)]
        bots = [teacher if s == mine else make_bot(MauMau.name, "heuristic", seed=r) for s, r in enumerate(rivals)]
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            g.play(bots[seat].choose(g.typed_view(seat), g.legal_moves()))
        wins += g.result()["ranks"][mine] == 1
    share = wins / args.deals
    half = 1.96 * math.sqrt(share * (1 - share) / args.deals)
    low, high = max(0.0, share - half), min(1.0, share + half)
    print(f"{args.players} players, {args.deals} deals: the seat won {100 * share:.1f} % "
          f"[{100 * low:.1f}, {100 * high:.1f}]")  # fmt: skip
    if args.json:
        print(json.dumps({"players": args.players, "deals": args.deals, "playouts": args.playouts, "win": share,
                          "ci95": [low, high]}))  # fmt: skip


if __name__ == "__main__":
    main()
