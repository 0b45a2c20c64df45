"""The engine's games as digests and as a speed, from one script that CPython and the offline
bundle's Pyodide both run (``scripts/pyodide_run.mjs``), so the two can be compared line by line.

    python scripts/offline_games.py digests GAMES [--first N] [--vectors DIR]
    python scripts/offline_games.py speed SECONDS

``digests``: games ``first .. first+GAMES-1`` of every registered game, each with its seed, its
player count, options and bots drawn from its number (every option the game declares, every
player count, every bot kind the library offers there: where numpy is missing that is the
plain-Python bots, the ones the bundle has), then every spec vector in ``DIR`` (the
``*.jsonl`` files named after the games: each is checked against its expected result too). One
line per game: ``game index digest``, the digest a sha256 over everything the engine gave: each
view and legal list a bot was shown and the move or reaction it chose, a refusal (reason and
parameters) of a move tried out of turn or unknown every few moves, the record (the referee's log
in it), the events, every seat's and a spectator's view at the end, and the result. The last
line: ``done GAMES SECONDS PYTHON PLATFORM``.

``speed``: seeded games of every game, bots on every seat, for about ``SECONDS`` (per game, after
one game to warm up): the engine's decisions a second (each bot's choice or reaction and the
engine's move that follows it), as one JSON line.

The script reads only the public API and the bots' registry, so both interpreters run the very
same code paths the page and the server use; it hides numpy and numba first, so CPython offers the
bots the bundle has and no others.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

for _name in ("numpy", "numba"):  # as in the bundle: the plain-Python bots only
    sys.modules[_name] = None  # type: ignore[assignment]

import msgspec  # noqa: E402

import mauseloch  # noqa: E402
from mauseloch.bots import bot_kinds, make_bot  # noqa: E402
from mauseloch.core.engine import SEED_LIMIT, Rng, derive_seed  # noqa: E402
from mauseloch.core.seeds import STREAM_BOTS, STREAM_SETTING  # noqa: E402

ENCODE = msgspec.json.Encoder(order="sorted").encode
RUN_SEED = 0x0FF11E  # game i's seed is derive_seed(RUN_SEED, i)
REFUSE_EVERY = 7  # a refused move is tried before every seventh move
NOT_A_MOVE = "not-a-move"


class Witness:
    """A bot that writes everything its bot is shown and answers into ``digest``."""

    def __init__(self, bot: Any, digest: Any) -> None:
        self.bot = bot
        self.kind = bot.kind
        self.digest = digest

    def choose(self, view: Any, legal: list[str]) -> str:
        move: str = self.bot.choose(view, legal)
        self.digest.update(ENCODE(["choose", view, legal, move]))
        return move

    def react(self, view: Any, legal: list[str]) -> tuple[str | None, int]:
        move, ms = self.bot.react(view, legal)
        self.digest.update(ENCODE(["react", view, legal, move, ms]))
        return move, ms


def setting(game: str, i: int) -> tuple[int, int, dict[str, Any], list[str], Rng]:
    """Game ``i``'s seed, player count, options and bot kinds, all drawn from ``i`` (options
    that the game refuses together, such as too many cards for the players, are drawn again),
    and the generator they were drawn from, to go on with."""
    info = mauseloch.GAMES[game]
    seed = derive_seed(RUN_SEED, i) % SEED_LIMIT
    rng = Rng(derive_seed(seed, STREAM_SETTING))
    players = info.min_players + i % (info.max_players - info.min_players + 1)
    for _ in range(100):
        options = draw_options(game, rng)
        try:
            mauseloch.new_game(game, players=players, seed=seed, options=options)
            break
        except ValueError:
            continue
    else:
        options = {}
    kinds = bot_kinds(game)
    return seed, players, options, [kinds[rng.below(len(kinds))] for _ in range(players)], rng


def draw_options(game: str, rng: Rng) -> dict[str, Any]:
    """Each option the game declares: its default half the time, else a value drawn from its
    range (up to twice its default)."""
    options: dict[str, Any] = {}
    for spec in mauseloch.GAMES[game].options:
        if rng.below(2):
            continue  # the default
        if spec.type is bool:
            options[spec.name] = bool(rng.below(2))
        else:
            low = spec.minimum if spec.minimum is not None else 0
            default = spec.default if isinstance(spec.default, int) else low + 10
            high = min(2 * default, spec.maximum if spec.maximum is not None else 2 * default)
            options[spec.name] = low + rng.below(max(1, high - low + 1))
    return options


def refusal(g: mauseloch.Game, rng: Rng) -> list[Any]:
    """Try a move that must be refused (unknown, or by a seat whose turn it is not) and say how
    it was refused; the game must be unchanged."""
    before = g.move_count
    seat = g.to_move if g.to_move is not None else rng.below(g.players)
    other = (seat + 1 + rng.below(g.players - 1)) % g.players
    legal = g.legal_moves(seat)
    tries = [(NOT_A_MOVE, seat), (legal[rng.below(len(legal))] if legal else NOT_A_MOVE, other)]
    move, by = tries[rng.below(2)]
    try:
        g.play(move, seat=by)
    except mauseloch.IllegalMove as e:
        assert g.move_count == before
        return ["refused", move, by, e.reason, e.params]
    raise AssertionError(f"{g.name}: {move!r} by seat {by} was played")


def finish(g: mauseloch.Game, digest: Any, record: Any) -> str:
    digest.update(ENCODE([record, g.events, g.result(), [g.view(s) for s in range(g.players)], g.view(None)]))
    return digest.hexdigest()


def play_game(game: str, i: int) -> str:
    """Game ``i`` of ``game`` played to the end by the bots; its digest."""
    from mauseloch.realtime.referee import Referee, play_bots

    seed, players, options, kinds, rng = setting(game, i)
    digest = hashlib.sha256(ENCODE([game, i, seed, players, options, kinds]))
    g = mauseloch.new_game(game, players=players, seed=seed, options=options)
    bots = [make_bot(game, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)]
    bots = [Witness(bot, digest) for bot in bots]
    if mauseloch.GAMES[g.name].dynamics == "reactions":
        referee = Referee.for_seed(g, seed)
        digest.update(ENCODE(refusal(g, rng)))
        play_bots(referee, bots)
        return finish(g, digest, referee.record())
    while not g.is_over:
        if g.move_count % REFUSE_EVERY == 0:
            digest.update(ENCODE(refusal(g, rng)))
        seat = g.to_move
        assert seat is not None
        g.play(bots[seat].choose(g.typed_view(seat), g.legal_moves(seat)), seat=seat)
    return finish(g, digest, g.record())


def play_vector(game: str, vector: dict[str, Any]) -> str:
    """A spec vector played as its steps say, checked against its expected end; its digest. (No
    vector reaches a reshuffle, so the seed, which the record keeps, is any fixed number.)"""
    digest = hashlib.sha256(ENCODE([game, vector]))
    g = mauseloch.new_game(game, players=vector["players"], seed=1, options=vector["options"], deck=vector["deck"])
    for _ in range(vector.get("flips", 0)):
        g.play("flip")
    for step in vector.get("steps", []):
        seat = step.get("seat", step.get("to_move"))
        legal = g.legal_moves(seat)
        if sorted(legal) != step["legal"]:
            raise AssertionError(f"{game} vector: legal moves {sorted(legal)}, the spec says {step['legal']}")
        digest.update(ENCODE([g.view(seat), legal]))
        g.play(step["move"], seat=seat)
    want, got = vector["result"], g.result()
    if not g.is_over or any(got[k] != v for k, v in want.items()):
        raise AssertionError(f"{game} vector: result {got}, the spec says {want}")
    again = mauseloch.replay(json.loads(json.dumps(g.record())))
    assert again.events == g.events and again.result() == got
    return finish(g, digest, g.record())


def digests(games: int, first: int, vectors: Path | None, out: Callable[[str], None]) -> None:
    start = time.perf_counter()
    for game in mauseloch.GAMES:
        for i in range(first, first + games):
            out(f"{game} {i} {play_game(game, i)}")
        if vectors is not None:
            path = vectors / f"{game}.jsonl"
            lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
            for k, line in enumerate(lines):
                out(f"{game} vector-{k} {play_vector(game, json.loads(line))}")
    out(f"done {games} {time.perf_counter() - start:.3f} {sys.version.split()[0]} {sys.platform}")


def speed(seconds: float) -> dict[str, Any]:
    """Decisions a second per game and over all games, bots on every seat (seeded games)."""
    per_game: dict[str, float] = {}
    for game in mauseloch.GAMES:
        play_game(game, 0)  # warm-up: first imports and caches
        decisions = 0
        i = 1
        start = time.perf_counter()
        while True:
            decisions += count_decisions(game, i)
            i += 1
            spent = time.perf_counter() - start
            if spent >= seconds:
                break
        per_game[game] = decisions / spent
    return {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "decisions_per_s": per_game,
        "seconds_per_game": seconds,
    }


def count_decisions(game: str, i: int) -> int:
    """Game ``i`` played to the end (no digests); the bots' decisions in it."""
    from mauseloch.realtime.referee import Referee, play_bots

    seed, players, options, kinds, _ = setting(game, i)
    g = mauseloch.new_game(game, players=players, seed=seed, options=options)
    counter = Counter([make_bot(game, kind, seed=derive_seed(seed, STREAM_BOTS + s)) for s, kind in enumerate(kinds)])
    if mauseloch.GAMES[g.name].dynamics == "reactions":
        play_bots(Referee.for_seed(g, seed), counter.bots)
    else:
        while not g.is_over:
            seat = g.to_move
            assert seat is not None
            g.play(counter.bots[seat].choose(g.typed_view(seat), g.legal_moves(seat)), seat=seat)
    return counter.count


class Counter:
    """Bots that count their decisions."""

    def __init__(self, bots: Sequence[Any]) -> None:
        self.count = 0
        self.bots = [_Counted(b, self) for b in bots]


class _Counted:
    def __init__(self, bot: Any, counter: Counter) -> None:
        self.bot, self.counter, self.kind = bot, counter, bot.kind

    def choose(self, view: Any, legal: list[str]) -> str:
        self.counter.count += 1
        move: str = self.bot.choose(view, legal)
        return move

    def react(self, view: Any, legal: list[str]) -> tuple[str | None, int]:
        self.counter.count += 1
        answer: tuple[str | None, int] = self.bot.react(view, legal)
        return answer


def main(argv: Sequence[str]) -> int:
    if len(argv) >= 2 and argv[0] == "digests":
        vectors = Path(argv[argv.index("--vectors") + 1]) if "--vectors" in argv else None
        first = int(argv[argv.index("--first") + 1]) if "--first" in argv else 0
        lines: list[str] = []
        digests(int(argv[1]), first, vectors, lines.append)
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    if len(argv) == 2 and argv[0] == "speed":
        print(json.dumps(speed(float(argv[1]))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
