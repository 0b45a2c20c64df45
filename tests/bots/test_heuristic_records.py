"""The heuristic bot and the search bot play exactly the games recorded with the plain-Python
heuristic (``tests/data/heuristic_games.json``, written by this module with
``python tests/test_heuristic_records.py --write`` at commit 3e7ea99, before the heuristic's
decision moved into a compiled kernel).

Every recorded game is played again move by move: heuristic against heuristic at every player
count and option (3,300 games, 78,259 moves, 39,741 of them a choice among two or more),
``heuristic_agrees`` for each card move of every free choice of those games (139,437 answers),
and a few games of the search bot (flat and ISMCTS, with inference and reading the rivals'
choices) against heuristic bots, which go through the search's deals, its reading of the
rivals and its play-outs: one changed decision anywhere changes the record.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.seeds import STREAM_RIVALS
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.bots.heuristic import heuristic_agrees
from mauseloch.games.maumau.bots.search import SearchBot

DATA = Path(__file__).resolve().parent / "data" / "heuristic_games.json"
BASE_SEED = 4_242_001
ALL = {"ace_skips": True, "seven_draw_then_play": True, "no_jack_on_jack": True, "no_win_with_jack": True}
# (players, options, games): every player count, every option alone and all together.
HEURISTIC_CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (2, {}, 800),
    (3, {}, 500),
    (4, {}, 500),
    (5, {}, 300),
    (2, {"ace_skips": True, "no_win_with_jack": True}, 300),
    (3, {"seven_draw_then_play": True}, 200),
    (4, {"no_jack_on_jack": True}, 200),
    (5, ALL, 200),
    (2, {"move_limit": 30}, 100),
]
# (players, options, flat, iterations, games): the search bot in seat g % players.
SEARCH_CONFIGS: list[tuple[int, dict[str, Any], bool, int, int]] = [
    (2, {}, True, 24, 6),
    (3, {"no_win_with_jack": True, "ace_skips": True}, True, 24, 3),
    (4, {}, True, 24, 8),
    (5, {"seven_draw_then_play": True, "no_jack_on_jack": True}, True, 24, 5),
    (3, {}, False, 24, 3),
]
ACTION = MauMau._ACTION_ID
CODE = "".join(chr(48 + a) for a in range(len(MauMau.ACTIONS)))  # one character per action id


def _key(players: int, options: dict[str, Any], *rest: Any) -> str:
    return json.dumps([players, options, *rest], sort_keys=True)


def heuristic_games(players: int, options: dict[str, Any], games: int) -> tuple[list[str], list[str]]:
    """Each game's moves (one character per action id) and, per game, ``heuristic_agrees`` for
    every card move of every free choice with more than one ('1' or '0' each)."""
    records: list[str] = []
    agrees: list[str] = []
    for i in range(games):
        seed = derive_seed(BASE_SEED + players, i)
        g = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        assert isinstance(g, MauMau)
        bots = [make_bot("mau-mau", "heuristic", seed=derive_seed(seed, STREAM_RIVALS + s)) for s in range(players)]
        moves: list[str] = []
        bits: list[str] = []
        while not g.is_over:
            seat: int = g.to_move  # type: ignore[assignment]
            legal = g.legal_moves()
            view = g.typed_view(seat)
            if not g.penalty and g.drawn < 0 and len(legal) > 1:
                counts = view.hand_counts
                for m in legal:
                    ok = heuristic_agrees(
                        m, legal, g.hands[seat], seat, counts, g.direction,
                        bool(options.get("ace_skips")), bool(options.get("no_win_with_jack")),
                    )  # fmt: skip
                    bits.append("1" if ok else "0")
            move = bots[seat].choose(view, legal)
            moves.append(CODE[ACTION[move]])
            g.play(move)
        records.append("".join(moves))
        agrees.append("".join(bits))
    return records, agrees


def search_games(players: int, options: dict[str, Any], flat: bool, iterations: int, games: int) -> list[str]:
    records: list[str] = []
    for i in range(games):
        seed = derive_seed(BASE_SEED + 10 * players + flat, i)
        g = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        searcher = i % players
        bots: list[Any] = [
            SearchBot(derive_seed(seed, STREAM_RIVALS + s), iterations=iterations, flat=flat)
            if s == searcher
            else make_bot("mau-mau", "heuristic", seed=derive_seed(seed, STREAM_RIVALS + s))
            for s in range(players)
        ]
        moves: list[str] = []
        while not g.is_over:
            seat: int = g.to_move  # type: ignore[assignment]
            move = bots[seat].choose(g.typed_view(seat), g.legal_moves())
            moves.append(CODE[ACTION[move]])
            g.play(move)
        records.append("".join(moves))
    return records


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options", "games"),
    HEURISTIC_CONFIGS,
    ids=[f"{n}p-{i}" for i, (n, _, _) in enumerate(HEURISTIC_CONFIGS)],
)
def test_heuristic_plays_the_recorded_games(players: int, options: dict[str, Any], games: int) -> None:
    want = _data()["heuristic"][_key(players, options, games)]
    records, agrees = heuristic_games(players, options, games)
    for i, (got, expected) in enumerate(zip(records, want["records"], strict=True)):
        assert got == expected, f"game {i}: first difference at move {_first_difference(got, expected)}"
    assert agrees == want["agrees"]
    # the records hold real choices: many positions with more than one legal move
    assert sum(len(a) for a in agrees) > 20 * games


@pytest.mark.parametrize(
    ("players", "options", "flat", "iterations", "games"),
    SEARCH_CONFIGS,
    ids=[f"{n}p-{'flat' if f else 'ismcts'}-{i}" for i, (n, _, f, _, _) in enumerate(SEARCH_CONFIGS)],
)
def test_search_plays_the_recorded_games(
    players: int, options: dict[str, Any], flat: bool, iterations: int, games: int
) -> None:
    want = _data()["search"][_key(players, options, flat, iterations, games)]
    got = search_games(players, options, flat, iterations, games)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"game {i}: first difference at move {_first_difference(a, b)}"


def _first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _write() -> None:
    heuristic: dict[str, Any] = {}
    decisions = 0
    for players, options, games in HEURISTIC_CONFIGS:
        records, agrees = heuristic_games(players, options, games)
        heuristic[_key(players, options, games)] = {"records": records, "agrees": agrees}
        decisions += sum(len(r) for r in records)
        print(players, options, games, sum(len(r) for r in records), "moves", sum(len(a) for a in agrees), "agrees")
    search = {}
    for players, options, flat, iterations, games in SEARCH_CONFIGS:
        played = search_games(players, options, flat, iterations, games)
        search[_key(players, options, flat, iterations, games)] = played
        print(players, options, flat, "search", [len(r) for r in played])
    DATA.write_text(json.dumps({"heuristic": heuristic, "search": search}, indent=0) + "\n")
    print(decisions, "moves in all")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write()
