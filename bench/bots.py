"""The search bot against the heuristic bot, and what the API's second version costs.

Duplicate format: every deal is played once per seat arrangement (2 players: seats swapped;
4 players: the search bot in each seat in turn), so the luck of the deal cancels. Intervals are
95 % (mean of the per-deal win shares ± 1.96 standard errors, which keeps each deal's games
together). Time per move is the search bot's CPU time per decision (``time.process_time``, so
other work on the machine does not inflate it); wall time is printed too.

Parts:
1. ``clone()`` next to ``copy.deepcopy`` for every game (µs, same positions, same run).
2. search vs heuristic, 2 players (goal: search wins ≥ 60 %).
3. one search vs three heuristic, 4 players (goal: ≥ 35 %; a fair share is 25 %).
4. search without inference, and the cheating search that sees every hand, vs heuristic on the
   same deals as part 2: how much of the gap between them inference closes.
5. (``--openspiel N``) OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``, random
   roll-outs, UCT c = 2) on our Mau-Mau (``mauseloch.envs.openspiel``) against our search at equal
   play-outs per decision (``--openspiel-playouts``), 2 players, N games of duplicate deals.
   ``--only-openspiel`` skips parts 1-4.

    python bench/bots.py [--games 2000] [--games4 400] [--games-ablation 1000] [--level search]
                         [--iterations 250] [--workers 2] [--seconds S] [--json]
                         [--openspiel 40] [--openspiel-playouts 100] [--only-openspiel]
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

import mauseloch
from _report import print_json, text_to_stderr
from mauseloch.bots import make_bot
from mauseloch.core.engine import Game, derive_seed
from mauseloch.core.seeds import STREAM_RIVALS
from mauseloch.games.maumau.bots.search import LEVELS, SearchBot, level_options

GAME = "mau-mau"
BASE_SEED = 20_261_201
VARIANTS = ("inference", "no-inference", "cheat")


# --------------------------------------------------------------------------- clone cost


def clone_costs(repeat: int) -> dict[str, dict[str, float]]:
    """µs per clone() and per copy.deepcopy of a mid-game position of each game."""
    out: dict[str, dict[str, float]] = {}
    for name in sorted(mauseloch.GAMES):
        info = mauseloch.GAMES[name]
        g = mauseloch.new_game(name, players=min(4, info.max_players), seed=7)
        rng = random.Random(7)
        for _ in range(40):  # a position with some history
            if g.is_over:
                break
            seats = sorted(g.acting_seats)
            seat = rng.choice(seats)
            move = rng.choice([m for m in g.legal_moves(seat) if m != "timeout"])
            g.play(move, seat=seat, ms=1000 if g.to_move is None else None)
        clone_us = _per_call(g.clone, repeat)
        deep_us = _per_call(lambda g=g: copy.deepcopy(g), max(repeat // 20, 20))
        det_us = _per_call(lambda g=g: g.determinize(0, seed=1), max(repeat // 10, 20))
        out[name] = {"clone_us": clone_us, "deepcopy_us": deep_us, "ratio": deep_us / clone_us,
                     "determinize_us": det_us}  # fmt: skip
    return out


def _per_call(fn: Any, n: int) -> float:
    best = math.inf
    for _ in range(5):  # the best of five rounds: the least disturbed by other work
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n)
    return best * 1e6


# --------------------------------------------------------------------------- playing


def _search(seed: int, variant: str, level: Level, game_ref: list[Game]) -> SearchBot:
    """The search bot of ``level`` (its kind, and play-outs at two players if not the level's)."""
    kind, iterations = level
    options = level_options(kind)
    if iterations is not None:
        options["iterations"] = iterations
    return SearchBot(
        seed,
        kind=f"{kind}-{variant}",
        inference=variant != "no-inference",
        peek=(lambda: game_ref[0]) if variant == "cheat" else None,
        **options,
    )


Level = tuple[str, int | None]  # a search level's kind, and its play-outs at two players if not its own


def play_one(task: tuple[int, int, int, str, Level]) -> dict[str, Any]:
    """One game: deal ``deal`` with the search bot in ``search_seat``; the rest heuristic."""
    players, deal, search_seat, variant, level = task
    seed = derive_seed(BASE_SEED + players, deal)
    g = mauseloch.new_game(GAME, players=players, seed=seed)
    ref = [g]
    bots: list[Any] = [
        _search(derive_seed(seed, STREAM_RIVALS + s), variant, level, ref)
        if s == search_seat
        else make_bot(GAME, "heuristic", seed=derive_seed(seed, STREAM_RIVALS + s))
        for s in range(players)
    ]
    cpu: list[float] = []
    wall: list[float] = []
    iters: list[int] = []
    while not g.is_over:
        seat: int = g.to_move  # type: ignore[assignment]
        legal = g.legal_moves()
        if seat == search_seat:
            c0, w0 = time.process_time(), time.perf_counter()
            move = bots[seat].choose(g.typed_view(seat), legal)
            if len(legal) > 1:  # a real decision (forced moves cost nothing)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                iters.append(bots[seat].last_iterations)
        else:
            move = bots[seat].choose(g.typed_view(seat), legal)
        g.play(move)
    ranks = g.result()["ranks"]
    return {
        "deal": deal,
        "win": 1.0 if ranks[search_seat] == 1 else 0.0,
        "cpu": cpu,
        "wall": wall,
        "moves": g.move_count,
    }


def schedule(deals2: int, deals4: int, deals_ablation: int) -> list[tuple[int, int, int, str]]:
    """Every game to play, interleaved so that a run cut short by ``--seconds`` still holds
    every part in proportion: (players, deal, search seat, variant). Whole deals stay together."""
    tasks: list[tuple[int, int, int, str]] = []
    done4 = done_ablation = 0
    for d in range(deals2):
        tasks += [(2, d, s, "inference") for s in range(2)]
        while done_ablation < deals_ablation and done_ablation * deals2 <= d * deals_ablation:
            tasks += [(2, done_ablation, s, v) for v in ("no-inference", "cheat") for s in range(2)]
            done_ablation += 1
        while done4 < deals4 and done4 * deals2 <= d * deals4:
            tasks += [(4, done4, s, "inference") for s in range(4)]
            done4 += 1
    return tasks


def play_all(
    tasks: list[tuple[int, int, int, str]], level: Level, workers: int, seconds: float | None
) -> tuple[list[dict[str, Any]], bool]:
    """Play the tasks in order on ``workers`` processes until done or ``seconds`` have passed."""
    jobs = [(*t, level) for t in tasks]
    deadline = None if seconds is None else time.perf_counter() + seconds
    results: list[dict[str, Any]] = []
    cut = False
    with multiprocessing.Pool(workers) as pool:
        for i, r in enumerate(pool.imap(play_one, jobs, chunksize=1)):
            r.update(players=jobs[i][0], variant=jobs[i][3])
            results.append(r)
            if (i + 1) % 50 == 0:
                print(f"  {i + 1}/{len(jobs)} games", flush=True)
            if deadline is not None and time.perf_counter() > deadline:
                cut = True
                pool.terminate()
                break
    return results, cut


def whole_deals(results: list[dict[str, Any]], players: int, variant: str, limit: int | None = None) -> list[Any]:
    """The results of ``players``/``variant`` for deals played in every seat arrangement."""
    mine = [r for r in results if r["players"] == players and r["variant"] == variant]
    seats: dict[int, int] = {}
    for r in mine:
        seats[r["deal"]] = seats.get(r["deal"], 0) + 1
    return [r for r in mine if seats[r["deal"]] == players and (limit is None or r["deal"] < limit)]


def summary(results: list[dict[str, Any]], players: int, variant: str, level: Level, seconds: float) -> dict[str, Any]:
    per_deal: dict[int, list[float]] = {}
    for r in results:
        per_deal.setdefault(r["deal"], []).append(r["win"])
    shares = [statistics.fmean(v) for v in per_deal.values()]
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else math.nan
    cpu = sorted(t for r in results for t in r["cpu"])
    wall = [t for r in results for t in r["wall"]]
    return {
        "players": players,
        "variant": variant,
        "level": level[0],
        "playouts_per_move": _search(0, variant, level, [])._budget(players),
        "games": len(results),
        "deals": len(shares),
        "win_share": mean,
        "interval": [mean - half, mean + half],
        "cpu_ms_per_move": 1000 * statistics.fmean(cpu) if cpu else 0.0,
        "cpu_ms_per_move_p99": 1000 * cpu[int(0.99 * (len(cpu) - 1))] if cpu else 0.0,
        "wall_ms_per_move": 1000 * statistics.fmean(wall) if wall else 0.0,
        "seconds": seconds,
    }


def _line(label: str, r: dict[str, Any]) -> str:
    lo, hi = r["interval"]
    return (
        f"{label:<34} wins {100 * r['win_share']:5.1f} % [{100 * lo:4.1f}, {100 * hi:4.1f}]"
        f"  over {r['games']} games ({r['deals']} deals)  {r['playouts_per_move']} play-outs"
        f"  {r['cpu_ms_per_move']:.0f} ms CPU/move (p99 {r['cpu_ms_per_move_p99']:.0f}),"
        f" {r['wall_ms_per_move']:.0f} ms wall  [{r['seconds']:.0f} s]"
    )


# --------------------------------------------------------------------------- OpenSpiel's ISMCTS


def play_openspiel(task: tuple[int, int, int]) -> dict[str, Any]:
    """One 2-player game of deal ``deal``: OpenSpiel's ISMCTS in ``ismcts_seat``, our search (the
    ``search`` level's options, ``playouts`` play-outs a decision) in the other."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from mauseloch.envs.openspiel import deal_actions  # (and registers the game)

    deal, ismcts_seat, playouts = task
    seed = derive_seed(BASE_SEED + 50, deal)
    game = pyspiel.load_game("mauseloch_maumau", {"players": 2})
    rs = np.random.RandomState(seed % (1 << 32))
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=playouts, random_state=rs)
    ours = SearchBot(
        derive_seed(seed, STREAM_RIVALS + 1), kind="search", **(level_options("search") | {"iterations": playouts})
    )
    state = game.new_initial_state()
    for digit in deal_actions(game.deals, deal):  # the deal is the engine game of seed ``deal``
        state.apply_action(digit)
    cpu = {"ismcts": 0.0, "search": 0.0}
    decisions = {"ismcts": 0, "search": 0}
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        who = "ismcts" if seat == ismcts_seat else "search"
        c0 = time.process_time()
        if who == "ismcts":
            action = theirs.step(state)
        else:
            g = state._game
            action = g.action_id(ours.choose(g.typed_view(seat), g.legal_moves()))
        if len(legal) > 1:
            cpu[who] += time.process_time() - c0
            decisions[who] += 1
        state.apply_action(action)
    returns = state.returns()
    return {"deal": deal, "ismcts_seat": ismcts_seat, "ismcts_return": returns[ismcts_seat],
            "ismcts_won": 1.0 if returns[ismcts_seat] > 0 else 0.0, "cpu": cpu, "decisions": decisions}  # fmt: skip


def openspiel_part(games: int, playouts: int, workers: int) -> dict[str, Any]:
    """Part 5: the win share of OpenSpiel's ISMCTS against our search, 95 % interval over deals."""
    tasks = [(d, s, playouts) for d in range(max(1, games // 2)) for s in range(2)]
    with multiprocessing.Pool(workers) as pool:
        results = pool.map(play_openspiel, tasks, chunksize=1)
    per_deal: dict[int, list[float]] = {}
    for r in results:
        per_deal.setdefault(r["deal"], []).append(r["ismcts_won"])
    shares = [statistics.fmean(v) for v in per_deal.values()]
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else math.nan
    ms = {
        who: 1000 * sum(r["cpu"][who] for r in results) / max(1, sum(r["decisions"][who] for r in results))
        for who in ("ismcts", "search")
    }
    return {"games": len(results), "deals": len(shares), "playouts": playouts, "ismcts_win_share": mean,
            "interval": [mean - half, mean + half], "cpu_ms_per_decision": ms}  # fmt: skip


def finite(value: Any) -> Any:
    """``value`` with NaN (an interval over one deal) as null: JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="2-player duplicate games (part 2)")
    parser.add_argument("--games4", type=int, default=400, help="4-player games (part 3)")
    parser.add_argument("--games-ablation", type=int, default=400, help="games per variant (part 4)")
    parser.add_argument("--level", choices=list(LEVELS), default="search", help="the search level benched")
    parser.add_argument(
        "--iterations", type=int, default=None, help="play-outs a move at two players (default: the level's)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (the big runs use both cores)")
    parser.add_argument("--clone-repeat", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (whole deals count)")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    parser.add_argument("--openspiel", type=int, default=0, help="games of OpenSpiel's ISMCTS vs search (part 5)")
    parser.add_argument("--openspiel-playouts", type=int, default=100, help="play-outs a decision for both")
    parser.add_argument("--only-openspiel", action="store_true", help="run part 5 alone")
    args = parser.parse_args()
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout

    if args.openspiel or args.only_openspiel:
        part5 = openspiel_part(args.openspiel or 40, args.openspiel_playouts, args.workers)
        lo, hi = part5["interval"]
        ms = part5["cpu_ms_per_decision"]
        print(
            f"OpenSpiel ISMCTS vs our search, 2 players, {part5['playouts']} play-outs each: ISMCTS wins "
            f"{100 * part5['ismcts_win_share']:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] over {part5['games']} games "
            f"({part5['deals']} deals); CPU ms/decision: ISMCTS {ms['ismcts']:.0f}, search {ms['search']:.0f}",
            flush=True,
        )
        if args.json and args.only_openspiel:
            print_json(finite({"openspiel_ismcts_vs_search": part5}), out)
        if args.only_openspiel:
            return

    level: Level = (args.level, args.iterations)
    report: dict[str, Any] = {"level": args.level, "iterations": args.iterations}
    costs = clone_costs(args.clone_repeat)
    report["clone"] = costs
    for name, c in costs.items():
        print(
            f"clone() {name:<13} {c['clone_us']:7.1f} µs   copy.deepcopy {c['deepcopy_us']:8.1f} µs"
            f"   ({c['ratio']:.0f}× faster)   determinize {c['determinize_us']:.1f} µs"
        )

    started = time.perf_counter()
    tasks = schedule(max(1, args.games // 2), max(1, args.games4 // 4), max(1, args.games_ablation // 2))
    results, cut = play_all(tasks, level, args.workers, args.seconds)
    seconds = time.perf_counter() - started
    report["cut_short_after_seconds"] = seconds if cut else None
    if cut:
        print(f"cut short after {seconds:.0f} s: the figures below cover the whole deals played")

    two = summary(whole_deals(results, 2, "inference"), 2, "inference", level, seconds)
    report["search_vs_heuristic_2p"] = two
    print(_line("search vs heuristic, 2 players", two), flush=True)
    four = summary(whole_deals(results, 4, "inference"), 4, "inference", level, seconds)
    report["search_vs_3_heuristic_4p"] = four
    print(_line("search vs 3 heuristic, 4 players", four), flush=True)

    # The same deals for every variant: the inference figure is the part of the 2p run on them.
    played = [whole_deals(results, 2, v) for v in ("no-inference", "cheat")]
    common = min(len({r["deal"] for r in p}) for p in played)
    ablation = {v: summary(whole_deals(results, 2, v, limit=common), 2, v, level, seconds) for v in VARIANTS}
    for variant in VARIANTS:
        print(_line(f"  2p, {variant}", ablation[variant]), flush=True)
    base, inf, cheat = (ablation[v]["win_share"] for v in ("no-inference", "inference", "cheat"))
    closed = (inf - base) / (cheat - base) if cheat != base else math.nan
    report["ablation_2p"] = ablation
    report["gap_closed_by_inference"] = closed
    print(
        f"inference closes {100 * closed:.0f} % of the gap between search without it "
        f"({100 * base:.1f} %) and the cheating search ({100 * cheat:.1f} %)"
    )
    if args.json:
        print_json(finite(report), out)


if __name__ == "__main__":
    main()
