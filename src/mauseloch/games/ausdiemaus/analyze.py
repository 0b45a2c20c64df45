"""``mauseloch analyze aus-die-maus``: search deals at kernel speed for the longest game or for
endless ones (AM-11), and save the finds as records that ``mauseloch replay FILE`` shows.

The search (``mauseloch.games.ausdiemaus.kernel.search_deals``) restarts from random deals and climbs
by swapping two cards, keeping a swap when the game gets no shorter. It runs in slices of a few
thousand deals between which the time budget is checked (the wall clock decides only when to
stop searching, never a game). Every find is played again by the engine, which must agree with
the kernel, and saved as a record holding the deal (``deck``), so it replays exactly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mauseloch.core.registry import new_game
from mauseloch.core.shapes import OptionDict, Options
from mauseloch.games.ausdiemaus import INFO as AUS_DIE_MAUS

GAME = AUS_DIE_MAUS.name  # the one game without decisions: its deals are what there is to search
SLICE = 2_000  # deals per call into the kernel between clock checks
STALL = 400  # swaps without a gain before a restart


@dataclass
class Find:
    """A deal found by the search, with what the kernel says about it."""

    deck: list[str]
    reason: str
    flips: int
    loop_from: int = -1  # endless: the flip count when the repeated position first occurred


@dataclass
class SearchResult:
    mode: str
    players: int
    options: OptionDict
    deals: int  # deals played
    seconds: float
    finds: list[Find]  # longest: the best deal; endless: distinct endless deals, in order found
    endless_total: int  # endless deals met (with repeats)


def search(
    players: int,
    options: Options,
    mode: str,
    budget: float,
    seed: int = 0,
    keep: int = 5,
    progress: Any = None,
) -> SearchResult:
    """Search deals for ``budget`` seconds; ``progress(elapsed, best_flips, endless_found)`` each slice."""
    import numpy as np

    from mauseloch.core.seeds import STREAM_DEAL_SEARCH
    from mauseloch.games.ausdiemaus import CARD_STR, kernel

    if mode not in ("longest", "endless"):
        raise ValueError(f"search must be longest or endless, got {mode!r}")
    if budget <= 0:
        raise ValueError(f"budget must be a positive number of seconds, got {budget}")
    small = bool(options["small_deck"])
    chips = int(options["chips"])
    cur = kernel.deal_deck(np.uint64(seed), small)
    rng = np.array([kernel.derive_seed(np.uint64(seed), np.uint64(STREAM_DEAL_SEARCH))], dtype=np.uint64)
    state = np.array([-1, 0, -1, 0, 0], dtype=np.int64)
    best = cur.copy()
    cap = max(keep * 20, 64)
    found = np.zeros((cap, cur.shape[0]), dtype=np.int8)
    found_info = np.zeros((cap, 2), dtype=np.int64)
    code = kernel.SEARCH_LONGEST if mode == "longest" else kernel.SEARCH_ENDLESS
    # compile (or load) the kernel before the clock starts
    kernel.search_deals(players, chips, code, 0, STALL, rng, cur, state, best, found, found_info)
    start = time.perf_counter()
    elapsed = 0.0
    while True:
        kernel.search_deals(players, chips, code, SLICE, STALL, rng, cur, state, best, found, found_info)
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(elapsed, int(state[2]), int(state[4]))
        if elapsed >= budget:
            break
    finds: list[Find] = []
    if mode == "longest":
        if state[2] >= 0:
            finds.append(Find([CARD_STR[c] for c in best], "", int(state[2])))
    else:
        seen: set[bytes] = set()
        for k in range(min(int(state[4]), cap)):
            key = found[k].tobytes()
            if key in seen:
                continue
            seen.add(key)
            finds.append(Find([CARD_STR[c] for c in found[k]], "endless", int(found_info[k, 0]), int(found_info[k, 1])))
            if len(finds) >= keep:
                break
    return SearchResult(mode, players, dict(options), int(state[3]), elapsed, finds, int(state[4]))


def play_out(players: int, options: Options, deck: list[str], seed: int) -> Any:
    """The engine's game of ``deck``, played to its end."""
    game = new_game(GAME, players=players, seed=seed, options=options, deck=deck)
    while not game.is_over:
        game.play("flip")
    return game


def save_finds(result: SearchResult, out: Path, seed: int) -> list[tuple[Path, Any]]:
    """Play every find in the engine (it must agree with the kernel) and save it as a record."""
    from mauseloch.core.record import save

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    for k, find in enumerate(result.finds):
        game = play_out(result.players, result.options, find.deck, seed)
        res = game.result()
        if game.flips != find.flips or (result.mode == "endless" and res["reason"] != "endless"):
            raise RuntimeError(
                f"kernel and engine disagree on a found deal: kernel {find.flips} flips, "
                f"engine {game.flips} flips ({res['reason']})"
            )
        find.reason = res["reason"]
        name = f"{GAME}-{result.players}p-{result.mode}-{game.flips}flips"
        path = out / (f"{name}.json" if result.mode == "longest" else f"{name}-{k + 1}.json")
        saved.append((save(game, path), game))
    return saved
