"""Regenerate docs/baselines.md: every shipped bot of each game against every other, and their speed.

    python scripts/baselines.py [--deals 60] [--speed-games 2] [--games mau-mau,aus-die-maus,mausgeflippt]
                                [--seed 2026] [--workers 1] [--out docs/baselines.md]

Strength: duplicate tournaments (``mauseloch.study.tournament``) of every bot kind the registry
offers (``bot_kinds``), one seat each, in every rotation of the seats, so every deal is played
from every seat. Where the kinds fit the game's seats, one table holds them all; where they do not
(Mau-Mau: six kinds, five seats), several tables, chosen so that every two kinds share one
(:func:`tables`). Bradley–Terry ratings on the pairwise placings (Elo scale, mean 0, within a
table) with 95 % bootstrap intervals over deals; win shares and mean ranks with 95 % intervals
over deals.

Speed: CPU time (``time.process_time``) per move of games in which the bot holds every seat,
played by the simulator's runner (the same code path as ``simulate``), after a first game that
compiles or loads the kernels. Other work on the machine does not inflate CPU time; it is still
the machine's figure, so the file says which machine and when.

Every figure comes from the seed: the same command gives the same table (speeds aside).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

import mauseloch
from mauseloch.bots import bot_kinds
from mauseloch.core.engine import derive_seed
from mauseloch.core.registry import game_info
from mauseloch.core.seeds import STREAM_SPEED
from mauseloch.study import tournament
from mauseloch.study.backend import LocalBackend
from mauseloch.study.simulate import game_runner, make_spec, prepare_bots

ROOT = Path(__file__).resolve().parent.parent


def tables(kinds: list[str], seats: int) -> list[list[str]]:
    """Tables of at most ``seats`` of ``kinds`` (each in the order of ``kinds``) that together seat
    every two kinds at one table at least once: one table when all fit; else, table by table, the
    first pair not yet seated together, then the kinds that seat the most new pairs with it
    (the earlier kind on a tie)."""
    if len(kinds) <= seats:
        return [list(kinds)]
    apart = {frozenset(pair) for pair in combinations(kinds, 2)}
    out: list[list[str]] = []
    while apart:
        first = min(apart, key=lambda pair: sorted(kinds.index(k) for k in pair))
        table = sorted(first, key=kinds.index)
        while len(table) < seats:
            table.append(
                max(
                    (k for k in kinds if k not in table),
                    key=lambda k: (sum(frozenset((k, t)) in apart for t in table), -kinds.index(k)),
                )
            )
        table.sort(key=kinds.index)
        apart -= {frozenset(pair) for pair in combinations(table, 2)}
        out.append(table)
    return out


def strength(game: str, kinds: list[str], deals: int, seed: int, workers: int) -> dict[str, Any]:
    spec = tournament.make_tournament(game, ",".join(kinds), len(kinds), seed, (), "rotations")
    return tournament.report(spec, tournament.play(spec, deals, LocalBackend(workers)))


def speed(game: str, kind: str, players: int, games: int, seed: int) -> dict[str, float]:
    """CPU ms per move and moves per CPU second with ``kind`` in every seat."""
    spec = make_spec(game, players, kind, seed, ())
    prepare_bots(spec)
    run = game_runner(game)
    run([kind] * players, derive_seed(seed, STREAM_SPEED - 1), dict(spec.options))  # warm-up
    moves, cpu = 0, 0.0
    for i in range(games):
        start = time.process_time()
        _, stats = run([kind] * players, derive_seed(seed, STREAM_SPEED + i), dict(spec.options))
        cpu += time.process_time() - start
        moves += stats.moves
    return {"ms_per_move": 1000.0 * cpu / moves, "moves_per_s": moves / cpu if cpu else float("inf"), "moves": moves}


def _ci(x: dict[str, Any], scale: float = 1.0, digits: int = 1) -> str:
    if x["ci95"] is None:
        return f"{scale * x['mean']:.{digits}f}"
    lo, hi = (scale * v for v in x["ci95"])
    return f"{scale * x['mean']:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def section(
    rep: dict[str, Any], speeds: dict[str, dict[str, float]], speed_games: int, table: int, of: int, kinds: int
) -> list[str]:
    title = game_info(rep["game"]).title
    heading = [f"## {title}", ""] if table == 1 else []
    if of > 1:
        if table == 1:
            heading += [
                f"{kinds} bot kinds and {rep['players']} seats: {of} tables, which together seat every two "
                "kinds at one table; ratings compare the bots of one table.",
                "",
            ]
        heading += [f"### Table {table} of {of}: {', '.join(r['bot'] for r in rep['kinds'])}", ""]
    lines = [
        *heading,
        f"{rep['players']} players, one seat per bot, default options; {rep['deals']} deals × "
        f"{len(rep['arrangements'])} rotations = {rep['games']} games (mean {rep['mean_moves']:.0f} moves), "
        f"seed {rep['seed']}.",
        "",
        "| bot | rating (95 % CI) | win share % (95 % CI) | mean rank (95 % CI) | CPU ms per move | moves per CPU s |",
        "|---|---|---|---|---|---|",
    ]
    for row in sorted(rep["kinds"], key=lambda r: -r["rating"]):
        r_ci = row["rating_ci95"]
        rating = f"{row['rating']:+.0f}" + ("" if r_ci is None else f" ({r_ci[0]:+.0f} to {r_ci[1]:+.0f})")
        sp = speeds[row["bot"]]
        lines.append(
            f"| {row['bot']} | {rating} | {_ci(row['win_share'], 100)} | {_ci(row['mean_rank'], 1, 2)} "
            f"| {sp['ms_per_move']:.3f} | {sp['moves_per_s']:,.0f} |"
        )
    kinds = [r["bot"] for r in rep["kinds"]]
    lines += ["", "Placed above (row over column, % of the games both played; ties half):", ""]
    lines.append("| | " + " | ".join(kinds) + " |")
    lines.append("|---" * (len(kinds) + 1) + "|")
    for a in kinds:
        cells = ("–" if a == b else f"{100 * rep['pairwise'][a][b]:.1f}" for b in kinds)
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    lines += ["", f"Speed: {speed_games} games with the bot in all {rep['players']} seats.", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--speed-games", type=int, default=2)
    ap.add_argument("--games", default=",".join(sorted(mauseloch.GAMES)))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "baselines.md")
    args = ap.parse_args(argv)
    if args.deals < 2 or args.speed_games < 1:
        ap.error("--deals must be at least 2 (intervals need two deals) and --speed-games at least 1")
    games = [game_info(g).name for g in args.games.split(",")]
    started = time.time()
    command = "python scripts/baselines.py " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in (("deals", args.deals), ("speed_games", args.speed_games),
                                                   ("games", ",".join(games)), ("seed", args.seed))
    )  # fmt: skip
    body: list[str] = []
    for game in games:
        kinds = bot_kinds(game)
        seated = tables(kinds, game_info(game).max_players)
        speeds: dict[str, dict[str, float]] = {}
        for number, table in enumerate(seated, 1):
            print(f"{game}: tournament of {', '.join(table)} ...", file=sys.stderr, flush=True)
            rep = strength(game, table, args.deals, args.seed, args.workers)
            for kind in table:
                if kind not in speeds:
                    print(f"{game}: speed of {kind} ...", file=sys.stderr, flush=True)
                    speeds[kind] = speed(game, kind, rep["players"], args.speed_games, args.seed)
            body += section(rep, speeds, args.speed_games, number, len(seated), len(kinds))
    head = [
        "# Baselines: every shipped bot against every other",
        "",
        "Generated by `scripts/baselines.py`; do not edit by hand. Regenerate with:",
        "",
        f"    {command}",
        "",
        f"mauseloch {mauseloch.__version__ if hasattr(mauseloch, '__version__') else ''}".rstrip()
        + f", {datetime.date.today().isoformat()}, {platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores (shared with other work), "
        f"{time.time() - started:.0f} s in all.",
        "",
        "Ratings: Bradley–Terry on pairwise placings, Elo scale (400·log10 of the odds, mean 0), 95 % "
        "bootstrap intervals over deals. Win shares and mean ranks: mean over deals with 95 % intervals "
        "(normal approximation). Speeds: CPU time, so the machine's load does not inflate them.",
        "",
    ]
    args.out.write_text("\n".join(head + body).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
