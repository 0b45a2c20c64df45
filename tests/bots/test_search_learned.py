"""search-learned: legal, deterministic for a seed and a budget, offered wherever levels are, and
its play-outs keep the rivals' history as the batched kernel does."""

from __future__ import annotations

import numpy as np
import pytest

from mauseloch.bots import bot_kinds, make_bot
from mauseloch.core.registry import new_game
from mauseloch.games.maumau import kernel as kernel
from mauseloch.games.maumau.bots import search_learned as sl
from mauseloch.games.maumau.bots.search_learned import SearchLearnedBot
from tests.bots.test_learned import play_positions, random_policy


def game_moves(kinds: list[str], seeds: list[int], game_seed: int, players: int) -> list[str]:
    game = new_game("mau-mau", players=players, seed=game_seed)
    bots = [make_bot("mau-mau", kind, seed) for kind, seed in zip(kinds, seeds, strict=True)]
    moves = []
    while not game.is_over:
        seat = game.to_move
        move = bots[seat].choose(game.typed_view(seat), game.legal_moves(seat))
        moves.append(move)
        game.play(move, seat)
    return moves


def test_search_learned_is_a_mau_mau_level_after_the_others() -> None:
    kinds = bot_kinds("mau-mau")
    assert kinds[-1] == "search-learned" and kinds.index("search") < kinds.index("search-learned")
    assert "search-learned" not in bot_kinds("mausgeflippt")


@pytest.mark.parametrize("players", [2, 4])
def test_the_same_seed_and_budget_give_the_same_game(players: int) -> None:
    kinds = ["search-learned"] + ["heuristic"] * (players - 1)
    first = game_moves(kinds, [3] * players, 21, players)
    assert first == game_moves(kinds, [3] * players, 21, players) and len(first) > 5


@pytest.mark.slow
def test_search_learned_never_chooses_an_illegal_move() -> None:
    """Every player count and option, with the shipped network and with arbitrary weights (which
    value illegal actions highest all the time: the masks alone keep the search legal); a bot
    plays one game, as at a table."""
    bots: list[SearchLearnedBot] = []

    def shipped(seat: int) -> SearchLearnedBot:
        return bots[seat]

    def fresh_bots(players: int, arbitrary: bool) -> None:
        bots[:] = [SearchLearnedBot(s, iterations=40, policy=random_policy(s) if arbitrary else None,
                                    leaf="playout" if arbitrary else "q") for s in range(players)]  # fmt: skip

    for arbitrary, target, seed in ((False, 1_500, 70), (True, 500, 90)):
        assert play_positions(shipped, target, seed=seed, on_game=lambda n, a=arbitrary: fresh_bots(n, a)) >= target


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="leaf"):
        SearchLearnedBot(0, leaf="deep")
    with pytest.raises(ValueError, match="blend"):
        SearchLearnedBot(0, blend=1.5)
    with pytest.raises(ValueError, match="depth"):
        SearchLearnedBot(0, depth=-1)
    with pytest.raises(ValueError, match="budget"):
        SearchLearnedBot(0, iterations=None, time_ms=10)


def test_play_outs_keep_the_history_as_the_batches_do() -> None:
    """start_rows (a deal and a move) and advance_rows (the rivals as the heuristic) step a game
    and its history as MauMauBatch does: at the seat's next turn the observation is the batch's."""
    players, seed, seat = 3, 5, 0
    batch = kernel.MauMauBatch(1, players=players, seed=seed)
    opts = kernel.options_array(players)
    rng = np.random.default_rng(1)
    checked = 0
    while checked < 40:
        assert batch.to_move[0] == seat
        action = int(rng.choice(np.flatnonzero(batch.masks[0])))
        ints, cards, rngs = batch.ints[0].copy(), batch.cards[0].copy(), batch.rngs[0].copy()
        hidden = [c for s in range(players) if s != seat for c in range(32) if ints[kernel.I_HANDS + s] >> c & 1]
        deal = np.array([hidden + cards[: ints[kernel.I_PILE]][::-1].tolist()], dtype=np.int64)
        fresh = rngs[kernel.R_STATE] == kernel.derive_seed(rngs[kernel.R_SEED], np.uint64(2))  # no reshuffle yet
        sizes = ((kernel.N_INTS, np.int64), (64, np.int8), (kernel.N_RNGS, np.uint64), (kernel.N_HIST, np.int64))
        rows = [np.empty((1, w), dtype=t) for w, t in sizes]
        sl.start_rows(ints, cards, rngs, opts, seat, deal, rngs[kernel.R_SEED : kernel.R_SEED + 1].copy(),
                      np.array([action]), batch.hist[0].copy(), *rows)  # fmt: skip
        obs = np.zeros((1, kernel.OBS_SIZE), dtype=np.int8)
        masks = np.zeros((1, kernel.NUM_ACTIONS), dtype=np.uint8)
        live = np.ones(1, dtype=np.uint8)
        sl.advance_rows(*rows, opts, seat, np.zeros((1, 3), dtype=np.uint64), live, obs, masks, np.zeros(1), 0.25)
        # the batch: the same move, then the heuristic for the rivals with the same tie-breaker
        gen = np.zeros(3, dtype=np.uint64)
        _, _, _, dones = batch.step(np.array([action]))
        while not dones[0] and batch.to_move[0] != seat:
            a = kernel._move_heuristic(batch.ints[0], players, opts, gen)
            _, _, _, dones = batch.step(np.array([a]))
        if dones[0]:
            assert not live[0]
            while batch.to_move[0] != seat:  # the next game, up to the seat's turn
                batch.step(np.array([int(np.flatnonzero(batch.masks[0])[0])]))
            continue
        if fresh:
            assert live[0] and np.array_equal(obs[0], batch.obs[0]) and np.array_equal(masks[0], batch.masks[0])
            checked += 1 if batch.obs[0, kernel.OBS_RIVALS :].any() else 0
