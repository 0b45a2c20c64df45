"""Engine throughput: random self-play of each game through the public string API
(``new_game``, ``legal_moves``, ``play``; 4 players), in decisions per second of CPU time, next
to Mau-Mau's nearest peers driven from Python in the same run: OpenSpiel's C++
``crazy_eights(players=4)`` and RLCard's UNO (install the ``bench`` extra for them).

Decisions per second is the figure to compare (the games differ in length). A decision is a
move chosen from ``legal_moves()``: in Mau-Mau every move, in Aus die Maus! every flip, in
Mausgeflippt every reveal and every seat's pick among its reactions (``legal_moves(seat)``).
A round gives every runner the same CPU time in short turns (``--slices``), the runners taking
turns, so that machine noise hits every runner alike; the median round counts, and a ratio is
the median of each round's own ratio. The engines and the peers play in child processes, started
anew every round (a process's memory layout moves its speed by a percent or two).

``--against REV`` is the guard against a slower engine: the same workload (the same games, from
the same seeds) at git revision REV (its ``src/`` from ``git archive``, in a temporary folder)
and at this working tree, each in a child process with that ``PYTHONPATH``, interleaved, and
prints this tree's ratio per game (> 1: faster). Run it whenever a change touches ``core/`` or
``games/``, against the main branch (docs/engine-figures.md has the figures).

    python bench/engine.py [--seconds 2] [--rounds 5] [--slices 20] [--against REV] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _report import print_json, text_to_stderr

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("mau-mau", "aus-die-maus", "mausgeflippt")
MAUMAU = "mauseloch mau-mau (string API)"
OPENSPIEL = "openspiel crazy_eights (C++)"
RLCARD = "rlcard uno"

Runner = Callable[[float, random.Random], tuple[int, int, float]]  # -> decisions, games, seconds


def make_mauseloch(players: int = 4, clock: Callable[[], float] = time.perf_counter) -> Runner:
    """Mau-Mau with random legal moves through the public string API (``clock``: how seconds
    are counted)."""
    import mauseloch

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        new_game = mauseloch.new_game
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            g = new_game("mau-mau", players=players, seed=rng.getrandbits(53))
            while not g.is_over:
                g.play(choice(g.legal_moves()))
                decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


def make_ausdiemaus(players: int = 4, clock: Callable[[], float] = time.perf_counter) -> Runner:
    """Aus die Maus! through the public API: ``play("flip")`` until the game is over."""
    import mauseloch

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        new_game = mauseloch.new_game
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            g = new_game("aus-die-maus", players=players, seed=rng.getrandbits(53))
            while not g.is_over:
                g.play(g.legal_moves()[0])
                decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


def make_mausgeflippt(players: int = 4, clock: Callable[[], float] = time.perf_counter) -> Runner:
    """Mausgeflippt through the public API: ``reveal``, then every seat picks a random move of
    ``legal_moves(seat)``; of the seats that picked a reaction one (at random) arrives first,
    else the window times out (as bench/mausgeflippt.py plays it)."""
    import mauseloch

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        new_game = mauseloch.new_game
        choice = rng.choice
        seats = range(players)
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            g = new_game("mausgeflippt", players=players, seed=rng.getrandbits(53))
            while not g.is_over:
                if g.to_move is not None:
                    g.play("reveal")
                    decisions += 1
                    continue
                reactions = []
                for s in seats:
                    move = choice(g.legal_moves(s))
                    decisions += 1
                    if move != "timeout":
                        reactions.append((s, move))
                if reactions:
                    s, move = choice(reactions)
                    g.play(move, seat=s, ms=0)
                else:
                    g.play("timeout")
            games += 1
        return decisions, games, clock() - start

    return run


WORKLOADS: dict[str, Callable[..., Runner]] = {
    "mau-mau": make_mauseloch,
    "aus-die-maus": make_ausdiemaus,
    "mausgeflippt": make_mausgeflippt,
}


def make_openspiel(clock: Callable[[], float] = time.perf_counter) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("crazy_eights", {"players": 4})

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(choice(outcomes)[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


def make_rlcard(players: int = 4, clock: Callable[[], float] = time.perf_counter) -> Runner | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"game_num_players": players, "seed": 1})

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        choice = rng.choice
        decisions = games = 0
        start = clock()
        deadline = start + seconds
        while clock() < deadline:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(choice(list(state["legal_actions"])))
                decisions += 1
            games += 1
        return decisions, games, clock() - start

    return run


PEERS: dict[str, Callable[..., Runner | None]] = {OPENSPIEL: make_openspiel, RLCARD: make_rlcard}


def mauseloch_memory(games: int = 300) -> tuple[float, float]:
    """Peak Python memory while playing one game at a time, and per finished game kept (KiB)."""
    import mauseloch

    rng = random.Random(7)
    tracemalloc.start()
    kept = []
    for _ in range(games):
        g = mauseloch.new_game("mau-mau", players=4, seed=rng.getrandbits(53))
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
        kept.append(g)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024, current / 1024 / games


# --------------------------------------------------------------------------- the engines in child processes


def worker() -> None:
    """A child process: plays what the parent asks, one JSON line in and out each time, with the
    ``mauseloch`` its ``PYTHONPATH`` gives (this tree's or REV's)."""
    import mauseloch

    runners: dict[str, Runner | None] = {game: make(4, time.process_time) for game, make in WORKLOADS.items()}
    print(json.dumps({"module": mauseloch.__file__, "games": sorted(mauseloch.GAMES)}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        if ask.get("memory"):
            peak, per_game = mauseloch_memory()
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(json.dumps({"peak_kib": peak, "kib_per_game": per_game, "max_rss_mib": rss}), flush=True)
            continue
        if ask["game"] not in runners:  # a peer, loaded when first asked for
            runners[ask["game"]] = PEERS[ask["game"]](clock=time.process_time)
        run = runners[ask["game"]]
        assert run is not None, f"{ask['game']} is not installed"
        decisions, games, seconds = run(ask["seconds"], random.Random(ask["seed"]))
        print(json.dumps({"decisions": decisions, "games": games, "seconds": seconds}), flush=True)


class Engine:
    """A child process running :func:`worker` on the sources in ``src``; :meth:`start` starts
    it anew (a new process lays out its memory anew: each round gets its own)."""

    def __init__(self, src: Path) -> None:
        self.src = src
        self.start()

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.src), "PYTHONHASHSEED": "0"}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        hello = self._read()
        module = Path(hello["module"]).resolve()
        if not module.is_relative_to(self.src.resolve()):
            self.close()
            raise SystemExit(f"the engine of {self.src} imported mauseloch from {module}")
        self.games: list[str] = hello["games"]

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"an engine process ended (exit code {self.proc.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, **question: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(question) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def runner(self, game: str) -> Runner:
        def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
            answer = self.ask(game=game, seconds=seconds, seed=rng.getrandbits(53))
            return answer["decisions"], answer["games"], answer["seconds"]

        return run

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)

    def restart(self) -> None:
        self.close()
        self.start()


def checkout(rev: str, into: Path) -> Path:
    """``src/`` of git revision ``rev`` unpacked into ``into`` (the repository is left as it is)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"--against {rev}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


# --------------------------------------------------------------------------- measuring


def measure(
    runners: dict[str, Runner],
    seconds: float,
    rounds: int,
    slices: int = 20,
    seed: int = 2026,
    fresh: Callable[[], None] = lambda: None,
) -> dict[str, list[Any]]:
    """Every runner ``rounds`` times; per runner each round's (decisions/s, games/s,
    decisions/game). A round begins with ``fresh()`` (new engine processes) and a short warm-up
    of every runner, then gives each runner ``seconds`` of CPU time in ``slices`` turns, the
    runners taking turns, so that whatever else the machine does during a round falls on all of
    them alike (on a shared machine it changes from one second to the next). Runners whose name
    ends in ``@REV`` play the same games as the one before them (the same seeds) and the two swap
    places every turn."""
    names = list(runners)
    rng = random.Random(seed)
    rates: dict[str, list[Any]] = {name: [] for name in names}
    turns = 0
    for _ in range(rounds):
        fresh()
        for name in names:  # warm up caches and imports
            runners[name](min(0.3, seconds), random.Random(0))
        tally = {name: [0, 0, 0.0] for name in names}  # decisions, games, seconds
        for _ in range(slices):
            order = list(names)
            for i, name in enumerate(names):  # the REV twin goes first every other turn
                if "@" in name and turns % 2:
                    order[i - 1], order[i] = order[i], order[i - 1]
            turns += 1
            seeds: dict[str, int] = {}
            for name in order:
                base = name.split("@")[0]
                seeds.setdefault(base, rng.getrandbits(53))
                for i, figure in enumerate(runners[name](seconds / slices, random.Random(seeds[base]))):
                    tally[name][i] += figure
        for name, (decisions, games, took) in tally.items():
            rates[name].append((decisions / took, games / took, decisions / max(games, 1)))
    return rates


def paired(rates: dict[str, list[Any]], a: str, b: str) -> float:
    """The median of each round's ratio of ``a``'s decisions/s to ``b``'s."""
    return statistics.median(x[0] / y[0] for x, y in zip(rates[a], rates[b], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of one measured round per runner")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the median counts")
    parser.add_argument("--slices", type=int, default=20, help="turns a round is taken in, runner after runner")
    parser.add_argument("--against", metavar="REV", help="also play the same games at git revision REV; print ratios")
    parser.add_argument("--json", action="store_true", help="one JSON line on stdout, the text on stderr")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    out = text_to_stderr(args.json)  # under --json: the text to stderr, one JSON line on stdout

    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        engines = {"tree": Engine(ROOT / "src"), "peers": Engine(ROOT / "src")}  # the peers in a process of their own
        rev = args.against
        if rev:
            engines[rev] = Engine(checkout(rev, Path(tmp)))
        compared = [game for game in GAMES if rev and game in engines[rev].games]
        runners: dict[str, Runner] = {}
        for game in GAMES:
            runners[game] = engines["tree"].runner(game)
            if game in compared:
                runners[f"{game}@{rev}"] = engines[rev].runner(game)
            elif rev:
                print(f"{game}: not a game at {rev}, measured here only")
        missing = []  # peers of the ``bench`` extra that are not installed: left out, and said so
        for label, module in ((OPENSPIEL, "pyspiel"), (RLCARD, "rlcard")):
            if importlib.util.find_spec(module) is None:
                print(f"{label}: not installed (pip install -e '.[bench]')")
                missing.append(label)
            else:
                runners[label] = engines["peers"].runner(label)
        try:
            started = [True]  # the first round plays on the processes just started

            def fresh() -> None:
                if not started.pop():
                    for engine in engines.values():
                        engine.restart()
                started.append(False)

            rates = measure(runners, args.seconds, args.rounds, args.slices, fresh=fresh)
            memory = engines["tree"].ask(memory=True)
        finally:
            for engine in engines.values():
                engine.close()

    def median(name: str, i: int) -> float:
        return statistics.median(r[i] for r in rates[name])

    def each_round(a: str, b: str) -> list[float]:
        return [round(x[0] / y[0], 3) for x, y in zip(rates[a], rates[b], strict=True)]

    rounds = f"median of {args.rounds} interleaved rounds of {args.seconds:g} s"
    print(f"\n4 players, random legal moves, CPU time, {rounds}")
    print(f"{'engine':34} {'decisions/s':>12} {'games/s':>10} {'decisions/game':>15}")
    figures: dict[str, Any] = {"bench": "engine", "seconds": args.seconds, "rounds": args.rounds, "engines": {}}
    for label, name in ((MAUMAU, "mau-mau"), (OPENSPIEL, OPENSPIEL), (RLCARD, RLCARD)):
        if name not in rates:
            continue
        dps, gps, length = median(name, 0), median(name, 1), median(name, 2)
        print(f"{label:34} {dps:12,.0f} {gps:10,.0f} {length:15.1f}")
        row = {"decisions_per_s": round(dps), "games_per_s": round(gps, 1), "decisions_per_game": round(length, 1)}
        if name != "mau-mau":
            row["mauseloch_vs_this"] = round(paired(rates, "mau-mau", name), 2)
            row["mauseloch_vs_this_each_round"] = each_round("mau-mau", name)
        figures["engines"][label] = row
    for label, row in figures["engines"].items():
        if "mauseloch_vs_this" in row:
            print(f"ratio mauseloch / {label}: {row['mauseloch_vs_this']:.2f}x decisions per second")

    games: dict[str, Any] = {}
    print(f"\n{'game':14} {'this tree/s':>12}" + (f" {rev[:12] + '/s':>15} {'ratio':>7}" if rev else ""))
    for game in GAMES:
        row = {"decisions_per_s": round(median(game, 0)), "decisions_per_game": round(median(game, 2), 1)}
        line = f"{game:14} {row['decisions_per_s']:12,}"
        if game in compared:
            row["against_decisions_per_s"] = round(median(f"{game}@{rev}", 0))
            row["ratio"] = round(paired(rates, game, f"{game}@{rev}"), 3)
            row["ratio_each_round"] = each_round(game, f"{game}@{rev}")
            each = ", ".join(map(str, row["ratio_each_round"]))
            line += f" {row['against_decisions_per_s']:15,} {row['ratio']:6.3f}x  ({each})"
        games[game] = row
        print(line)
    if rev:
        print(f"ratio: this tree / {rev}, the median of each round's own ratio (> 1: this tree is faster)")
    print(f"mauseloch memory: peak {memory['peak_kib']:,.0f} KiB playing 300 games, "
        f"{memory['kib_per_game']:.1f} KiB per finished game kept")  # fmt: skip
    rss = memory["max_rss_mib"]
    print(f"engine process max RSS: {rss:,.0f} MiB")
    if args.json:
        figures |= {"not_installed": missing, "games": games, "against": rev}
        figures |= {"memory_peak_kib": round(memory["peak_kib"]), "kib_per_game_kept": round(memory["kib_per_game"], 1)}
        print_json(figures | {"max_rss_mib": round(rss)}, out)


if __name__ == "__main__":
    main()
