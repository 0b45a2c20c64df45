"""The search's compiled play-outs play exactly the engine's games: from thousands of positions
(seeded heuristic games stopped at every stage, at every player count and option, and samples
of them made by ``MauMau.from_view`` as the search makes them), ``games.maumau.kernel.playout`` is
stepped one move at a time next to the engine driven by the heuristic bot's decision with the
same tie-breaking stream, and the whole game state is compared after every move; then the
rewards, the kernel's redeal against ``MauMau.redealt``, and ``flat_deal`` against the plain
loop (clone, play the move, play out on the engine)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import mauseloch
from mauseloch.core.engine import Rng, derive_seed
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau import kernel as kernel
from mauseloch.games.maumau.bots.heuristic import heuristic_move

CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (2, {}, 800),
    (3, {"ace_skips": True, "no_win_with_jack": True}, 600),
    (4, {}, 800),
    (5, {"seven_draw_then_play": True, "no_jack_on_jack": True}, 500),
    (2, {"move_limit": 40, "no_win_with_jack": True}, 400),
]
SHARE = 0.2


def meaningful(ints: np.ndarray, cards: np.ndarray, rngs: np.ndarray) -> list[int]:
    """The part of a kernel state that decides the game (card slots past the piles are junk)."""
    pile, disc = int(ints[kernel.I_PILE]), int(ints[kernel.I_DISC])
    state = [int(x) for x in ints]
    state += [int(x) for x in cards[:pile]] + [int(x) for x in cards[kernel.DISC : kernel.DISC + disc]]
    return state + [int(rngs[i]) for i in (kernel.R_STATE, kernel.R_WORD, kernel.R_CHUNKS, kernel.R_SEED)]


def engine_move(g: MauMau, rng: Rng) -> str:
    legal = g.legal_moves()
    mover: int = g.to_move  # type: ignore[assignment]
    hands = g.hands
    return heuristic_move(
        legal, hands[mover], mover, [h.bit_count() for h in hands], g.direction,
        g._ace_skips, g._no_win_with_jack, rng,
    )  # fmt: skip


def positions(players: int, options: dict[str, Any], games: int) -> list[MauMau]:
    """Positions of seeded heuristic games at every stage, every other one a ``from_view``
    sample of it from the seat to move (a search's starting point)."""
    out: list[MauMau] = []
    for i in range(games):
        g = mauseloch.new_game("mau-mau", players=players, seed=derive_seed(31 * players, i), options=options)
        assert isinstance(g, MauMau)
        rng = Rng(i)
        stop = i % 37
        while not g.is_over and g.move_count < stop:
            g.play(engine_move(g, rng))
        if g.is_over:
            continue
        if i % 2:
            seat: int = g.to_move  # type: ignore[assignment]
            g = MauMau.from_view(g.view(seat), seed=derive_seed(i, 5))
        out.append(g)
    return out


def rewards_of(g: MauMau, players: int) -> list[float]:
    """What a play-out scores: by the final ranks, or (cut short) by the cards in hand."""
    if g.is_over:
        ranks = g.result()["ranks"]
        return [(1 - SHARE if r == 1 else 0.0) + SHARE * (players - r) / (players - 1) for r in ranks]
    counts = [h.bit_count() for h in g.hands]
    weights = [math.exp(-0.6 * c) for c in counts]
    ranks = [1 + sum(1 for o in counts if o < c) for c in counts]
    total = sum(weights)
    return [
        (1 - SHARE) * w / total + SHARE * (players - r) / (players - 1) for w, r in zip(weights, ranks, strict=True)
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options", "games"), CONFIGS, ids=[f"{n}p-{i}" for i, (n, _, _) in enumerate(CONFIGS)]
)
def test_playout_steps_equal_the_engine(players: int, options: dict[str, Any], games: int) -> None:
    opts = kernel.options_array(players, options)
    trace = np.zeros(1, dtype=np.int64)
    rewards = np.zeros(players)
    steps = reshuffles = cut = 0
    for j, g in enumerate(positions(players, options, games)):
        ints, cards, rngs = kernel.state_of(g)
        luck = derive_seed(j, 77)
        gen = np.array([luck, 0, 0], dtype=np.uint64)
        rng = Rng(luck)
        limit = 12 if j % 5 == 0 else 400  # some play-outs cut short
        played = 0
        while played < limit and not g.is_over:
            assert kernel.playout(ints, cards, rngs, opts, gen, 1, SHARE, rewards, trace) == 1
            move = engine_move(g, rng)
            assert MauMau.ACTIONS[int(trace[0])] == move, f"position {j}, move {played}"
            g.play(move)
            played += 1
            assert meaningful(ints, cards, rngs) == meaningful(*kernel.state_of(g)), f"position {j}, move {played}"
            assert gen.tolist() == [rng.state, rng._word, rng._chunks]
        steps += played
        reshuffles += any(e["type"] == "reshuffle" for e in g.events)
        cut += not g.is_over
        # scored as it stands: no move left to play
        assert kernel.playout(ints, cards, rngs, opts, gen, 0, SHARE, rewards, trace) == 0
        assert rewards.tolist() == pytest.approx(rewards_of(g, players), rel=1e-12)
    assert steps > 5 * games and cut > 0
    if "move_limit" not in options:
        assert reshuffles > 0


@pytest.mark.parametrize(("players", "options", "games"), CONFIGS[:4], ids=[f"{n}p" for n, _, _ in CONFIGS[:4]])
def test_redeal_and_flat_deal_are_the_plain_loop(players: int, options: dict[str, Any], games: int) -> None:
    """``redeal`` gives ``MauMau.redealt``'s position; ``flat_deal`` adds what cloning it, playing
    each move and playing out on the engine (ties from ``Rng(luck)``) scores for the seat."""
    opts = kernel.options_array(players, options)
    for j, g in enumerate(positions(players, options, games // 8)):
        seat: int = g.to_move  # type: ignore[assignment]
        if g.drawn >= 0 and g.to_move != seat:
            continue
        hidden = [c for s in range(players) if s != seat for c in range(32) if g.hands[s] >> c & 1]
        hidden += g.draw_pile
        Rng(j).shuffle(hidden)
        seed, luck = derive_seed(j, 1), derive_seed(j, 2)
        sample = g.redealt(seat, hidden, seed)
        ints, cards, rngs = kernel.state_of(g)
        kernel.redeal(ints, cards, rngs, players, seat, np.array(hidden, dtype=np.int64), np.uint64(seed))
        assert meaningful(ints, cards, rngs) == meaningful(*kernel.state_of(sample))
        moves = sample.legal_moves()
        want = [0.5] * len(moves)
        for i, move in enumerate(moves):
            game = sample.clone()
            game.play(move)
            rng = Rng(luck)
            played = 0
            while not game.is_over and played < 400:
                game.play(engine_move(game, rng))
                played += 1
            want[i] += rewards_of(game, players)[seat]
        got = np.full(len(moves), 0.5)
        state = kernel.state_of(g)
        before = meaningful(*state)
        actions = np.array([MauMau._ACTION_ID[m] for m in moves], dtype=np.int64)
        kernel.flat_deal(
            *state, opts, seat, np.array(hidden, dtype=np.int64), np.uint64(seed), np.uint64(luck), actions, 400,
            SHARE, got,
        )  # fmt: skip
        assert got.tolist() == want  # the same sums, bit for bit
        assert meaningful(*state) == before  # the position is left as it was


# --------------------------------------------------------------------------- the first compile


def test_bot_kernels_are_cached_and_prepared_once() -> None:
    from numba.core.caching import NullCache

    from mauseloch.games.maumau.bots.heuristic import kernels_need_compiling, prepare

    for f in kernel.BOT_KERNELS:
        assert not isinstance(f._cache, NullCache)  # cache=True: later runs load them
    prepare()
    assert not kernels_need_compiling()


@pytest.mark.slow
def test_an_empty_numba_cache_means_the_bots_compile(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys

    code = "from mauseloch.games.maumau.bots.heuristic import kernels_need_compiling as k; print(k())"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_simulate_and_tournament_say_the_bots_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    from mauseloch.core.simulation import COMPILING
    from mauseloch.study import simulate as sim
    from mauseloch.study import tournament as tour

    monkeypatch.setattr(kernel, "bot_kernels_need_compiling", lambda: True)
    heard: list[str] = []
    sim.simulate(sim.make_spec("mau-mau", 3, "search-fast,random,random", 1, []), 2, notice=heard.append)
    assert heard == [COMPILING]
    tour.play(tour.make_tournament("mau-mau", "search-fast,random", 2, 1, [], "rotations"), 1, notice=heard.append)
    assert heard == [COMPILING] * 2
    sim.simulate(sim.make_spec("mau-mau", 2, "random", 1, []), 2, notice=heard.append)
    sim.simulate(sim.make_spec("mau-mau", 2, "heuristic", 1, []), 2, notice=heard.append)
    assert heard == [COMPILING] * 2  # random and heuristic bots need none of it (plain Python)
