"""The learned Mau-Mau bot: it sees in a real game what its network saw in training, it never
chooses an illegal move, and the same weights and position give the same move."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mauseloch
from mauseloch.bots import bot_kinds, make_bot
from mauseloch.core.engine import derive_seed
from mauseloch.core.registry import new_game
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau import kernel as kernel
from mauseloch.games.maumau.bots.learned import LearnedBot
from mauseloch.games.maumau.learn.history import SeatHistory
from mauseloch.games.maumau.learn.policy import NUM_FEATURES, QPolicy, mask_of, observation_from_view


def random_policy(seed: int, hidden: int = 32) -> QPolicy:
    """A network of random weights: its choices are arbitrary, which is what a legality test wants."""
    rng = np.random.default_rng(seed)
    sizes = [NUM_FEATURES, hidden, hidden, 47]
    return QPolicy([(rng.normal(size=(a, b)), rng.normal(size=b)) for a, b in itertools.pairwise(sizes)])


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {"ace_skips": True}), (4, {"seven_draw_then_play": True}), (5, {"no_win_with_jack": True}),
     (2, {"no_win_with_jack": True, "no_jack_on_jack": True})],
)  # fmt: skip
def test_observation_from_view_is_the_kernels(players: int, options: dict) -> None:
    """Game i of a batch is the engine's game of seed derive_seed(S, i): played side by side with
    the same moves, the observation each seat builds from its views (the rivals' history
    included) equals the kernel's at every decision, over whole games and reshuffles."""
    slots, seed, steps = 16, 11, 400
    batch = kernel.MauMauBatch(slots, players=players, seed=seed, options=options)
    games = [new_game("mau-mau", players=players, seed=derive_seed(seed, k), options=options)
             for k in range(slots)]  # fmt: skip
    # Each seat of each game reads the rivals' history from its own views, as a bot does.
    seats = [[SeatHistory() for _ in range(players)] for _ in range(slots)]
    rng = np.random.default_rng(3)
    compared = rivals = 0
    for _ in range(steps):
        actions = np.argmax(rng.random((slots, 47)) * batch.masks, axis=1)
        for k, game in enumerate(games):
            view = game.view(game.to_move)
            obs = seats[k][game.to_move].observation(game.typed_view(game.to_move))
            assert np.array_equal(obs, batch.obs[k]), (k, view, np.flatnonzero(obs != batch.obs[k]))
            assert np.array_equal(mask_of(view["legal_moves"]), batch.masks[k])
            compared += 1
            rivals += int(obs[kernel.OBS_RIVALS :].any())
        _, _, _, dones = batch.step(actions)
        for k, game in enumerate(games):
            game.play(MauMau.ACTIONS[actions[k]])
            if dones[k]:
                assert game.is_over
                games[k] = new_game("mau-mau", players=players, options=options,
                                    seed=derive_seed(seed, int(batch.game_index[k])))  # fmt: skip
                seats[k] = [SeatHistory() for _ in range(players)]
    assert compared == steps * slots and rivals > compared // 2  # the history is there to compare


def test_a_seat_without_history_sees_only_this_view() -> None:
    """``observation_from_view`` with no history of the seat reads the view's own recent moves."""
    game = new_game("mau-mau", players=3, seed=5)
    for _ in range(12):
        game.play(game.legal_moves()[0])
    assert observation_from_view(game.typed_view(game.to_move)).shape == (kernel.OBS_SIZE,)


def play_positions(bot_for_seat: Any, target: int, seed: int, on_game: Any = None) -> int:
    """Play whole games (2 to 5 players, every option now and then) with ``bot_for_seat(seat)``
    choosing every move until ``target`` decisions were made; each choice must be legal.
    ``on_game(players)`` hears of each game before it starts (to seat new bots)."""
    variants: list[dict[str, Any]] = [
        {}, {"ace_skips": True}, {"seven_draw_then_play": True}, {"no_jack_on_jack": True}, {"no_win_with_jack": True},
    ]  # fmt: skip
    positions = 0
    g = 0
    while positions < target:
        players = 2 + g % 4
        options = variants[(g // 4) % len(variants)]
        if on_game is not None:
            on_game(players)
        game = new_game("mau-mau", players=players, seed=seed + g, options=options)
        while not game.is_over:
            seat = game.to_move
            legal = game.legal_moves(seat)
            move = bot_for_seat(seat).choose(game.typed_view(seat), legal)
            assert move in legal, (move, legal)
            game.play(move, seat)
            positions += 1
        g += 1
    return positions


@pytest.mark.slow
def test_the_shipped_policy_never_chooses_an_illegal_move() -> None:
    bots = [LearnedBot(seed) for seed in range(5)]
    assert play_positions(lambda seat: bots[seat], 10_000, seed=1) >= 10_000


def test_a_random_network_never_chooses_an_illegal_move() -> None:
    """Arbitrary weights prefer illegal actions all the time: the mask alone keeps the bot legal."""
    bots = [LearnedBot(0, policy=random_policy(seat)) for seat in range(5)]
    assert play_positions(lambda seat: bots[seat], 3_000, seed=50) >= 3_000


def test_the_same_weights_and_position_give_the_same_move_whatever_the_seed() -> None:
    seen: list[list[str]] = []
    for seed in (0, 12345):
        game = new_game("mau-mau", players=3, seed=9)
        moves = []
        bot = make_bot("mau-mau", "learned", seed)
        while not game.is_over:
            view, legal = game.typed_view(game.to_move), game.legal_moves(game.to_move)
            move = bot.choose(view, legal)
            assert bot.choose(view, legal) == move
            moves.append(move)
            game.play(move)
        seen.append(moves)
    assert seen[0] == seen[1] and len(seen[0]) > 5


def test_learned_is_a_mau_mau_level() -> None:
    assert "learned" in bot_kinds("mau-mau")
    assert "learned" not in bot_kinds("mausgeflippt") and "learned" not in bot_kinds("aus-die-maus")
    weights = sum(f.stat().st_size for f in (Path(mauseloch.__file__).parent / "models").glob("*.npz"))
    assert 0 < weights <= 5 * 1024 * 1024


def test_learned_bots_are_the_single_seat_envs_opponents() -> None:
    pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the rl extra")
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    env = MauMauSingleEnv(players=3, seat=0, opponents="learned")
    _, info = env.reset(seed=4)
    steps = 0
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
    assert env.opponents == ["learned", "learned"] and steps > 0 and reward in (-1.0, -0.5, 0.0, 0.5, 1.0)
