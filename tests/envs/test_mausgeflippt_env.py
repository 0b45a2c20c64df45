"""Mausgeflippt as a PettingZoo Parallel environment (mauseloch.envs.mausgeflippt_v0): the
PettingZoo API and seed tests, masks from the engine, observations from the seat's view only,
episodes that end, and the referee's decisions (earliest time, seeded ties)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test, parallel_seed_test

import mauseloch
from mauseloch.core.engine import IllegalMove
from mauseloch.envs.mausgeflippt_v0 import (
    REACTIONS,
    MausgeflipptParallelEnv,
    fields,
    observe,
    parallel_env,
)
from mauseloch.games.mausgeflippt import CHEESES, CLOTHING_DECK, MICE


def play_random(env: MausgeflipptParallelEnv, seed: int, rng_seed: int = 0) -> list[dict[str, Any]]:
    """One episode with masked random actions; every step's (obs, rewards, terms, truncs, infos)."""
    rng = np.random.default_rng(rng_seed)
    obs, _ = env.reset(seed=seed)
    steps = []
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        steps.append({"obs": obs, "rewards": rewards, "terms": terms, "truncs": truncs, "infos": infos})
    return steps


# ---------------------------------------------------------------------------- PettingZoo's own tests
@pytest.mark.parametrize("players", [2, 3, 6])
def test_parallel_api_test(players: int) -> None:
    parallel_api_test(parallel_env(players=players, hand_size=5), num_cycles=1000)


def test_parallel_seed_test() -> None:
    parallel_seed_test(lambda: parallel_env(players=4))


@pytest.mark.filterwarnings("ignore:Observation")  # a dict of vector and mask, as PettingZoo's classic envs
@pytest.mark.parametrize("players", [2, 4])
def test_aec_env_and_raw_env_pass_pettingzoos_tests(players: int) -> None:
    """PettingZoo's convention: ``env()`` and ``raw_env()`` next to ``parallel_env()``; its
    ``max_cycles_test`` asks the module for both, ``api_test`` and ``seed_test`` run on the AEC
    form. One AEC cycle (every seat once) is one mouse of the Parallel env."""
    from pettingzoo.test import api_test, max_cycles_test, seed_test

    from mauseloch.envs import mausgeflippt_v0

    max_cycles_test(mausgeflippt_v0)
    api_test(mausgeflippt_v0.env(players=players, hand_size=5), num_cycles=300)
    seed_test(lambda: mausgeflippt_v0.raw_env(players=players))
    aec, par = mausgeflippt_v0.env(players=players), parallel_env(players=players)
    aec.reset(seed=5)
    par.reset(seed=5)
    for _ in range(3):  # the same game: every seat's same action gives the same observations
        actions = {a: par.no_reaction - 1 if k == 0 else par.no_reaction for k, a in enumerate(par.agents)}
        for agent in aec.agent_iter(len(par.agents)):
            aec.step(actions[agent])
        obs = par.step(actions)[0]
        for agent in par.agents:
            assert np.array_equal(aec.observe(agent)["observation"], obs[agent]["observation"])
    with pytest.raises(AssertionError, match="reset"):
        mausgeflippt_v0.env().step(0)


def test_reset_with_a_seed_is_deterministic_and_unseeded_resets_follow_it() -> None:
    a, b = parallel_env(), parallel_env()
    for env in (a, b):
        env.reset(seed=11)
    first = [env.reset()[0]["player_0"]["observation"] for env in (a, b)]
    assert np.array_equal(first[0], first[1])
    steps_a, steps_b = play_random(a, 5), play_random(b, 5)
    assert len(steps_a) == len(steps_b)
    for x, y in zip(steps_a, steps_b, strict=True):
        assert x["infos"] == y["infos"] and x["rewards"] == y["rewards"]
    assert a.game is not None and b.game is not None and a.game.record() == b.game.record()
    other = parallel_env()
    play_random(other, 6)
    assert other.game is not None and other.game.record() != a.game.record()


# ---------------------------------------------------------------------------- actions and masks
def test_actions_encode_reaction_and_time_bucket() -> None:
    env = parallel_env(window_ms=1000, bucket_ms=150)
    assert env.buckets == 6  # 150, 300, ..., 900 ms: all below the window
    assert env.action_space("player_0").n == len(REACTIONS) * 6 + 1
    assert REACTIONS[-1] == "flip" and len(REACTIONS) == 27 and "timeout" not in REACTIONS
    assert env.decode(env.no_reaction) is None
    for action in range(env.no_reaction):
        move, ms = env.decode(action)  # type: ignore[misc]
        assert ms < 1000 and ms % 150 == 0 and env.encode(move, ms) == action
    assert env.decode(7) == ("catch " + REACTIONS[1][6:], 300)


@pytest.mark.slow
def test_masks_are_the_engines_legal_reactions_in_every_bucket() -> None:
    env = parallel_env(players=3, hand_size=4)
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=3)
    checked = 0
    while env.agents:
        game = env.game
        assert game is not None and game.to_move is None  # a mouse is shown at every step
        for s, agent in enumerate(env.possible_agents):
            mask = obs[agent]["action_mask"]
            assert mask[env.no_reaction] == 1
            legal = {m for m in game.legal_moves(s) if m != "timeout"}
            for action in range(env.no_reaction):
                move, _ = env.decode(action)  # type: ignore[misc]
                assert bool(mask[action]) == (move in legal)
                if move not in legal:
                    with pytest.raises(IllegalMove):
                        game.parse_move(move, seat=s)
            assert bool(mask[: env.no_reaction].any()) == bool(game.hand(s))
            checked += 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)
    assert checked > 30


def test_a_masked_action_is_no_reaction_and_a_bad_one_changes_nothing() -> None:
    env = parallel_env(players=2)
    obs, _ = env.reset(seed=8)
    game = env.game
    assert game is not None
    illegal = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    _, _, _, _, infos = env.step({"player_0": illegal, "player_1": env.no_reaction})
    assert infos["player_0"]["illegal"] and not infos["player_1"]["illegal"]
    assert infos["player_0"]["winner"] is None and infos["player_0"]["move"] == "timeout"
    moves = game.move_count
    for bad in (-1, env.no_reaction + 1, 1.5, True, "flip"):
        with pytest.raises(ValueError):
            env.step({"player_0": bad})
    good = first_reaction(env, env._observations(), "player_0", 0)
    with pytest.raises(ValueError, match="player_1"):  # a later seat's bad action: nobody's claim is taken
        env.step({"player_0": good, "player_1": -1})
    assert env.referee is not None and env.referee.claims == []
    with pytest.raises(ValueError, match="not playing"):
        env.step({"player_9": 0})
    assert game.move_count == moves and env.referee is not None and env.referee.is_open


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 7}, "players"),
        ({"hand_size": 0}, "hand_size"),
        ({"players": 6, "hand_size": 10}, "hand_size"),
        ({"window_ms": 50}, "window_ms"),
        ({"window_ms": 100, "bucket_ms": 150}, "bucket_ms"),
        ({"bucket_ms": 0}, "bucket_ms"),
        ({"reward": "money"}, "reward"),
        ({"render_mode": "human"}, "render_mode"),
        ({"max_cycles": 0}, "max_cycles"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parallel_env(**kwargs)


# ---------------------------------------------------------------------------- the referee decides
def first_reaction(env: MausgeflipptParallelEnv, obs: dict[str, Any], agent: str, bucket: int) -> int:
    legal = np.flatnonzero(obs[agent]["action_mask"][: env.no_reaction])
    return int(legal[0]) - int(legal[0]) % env.buckets + bucket


def test_the_earliest_bucket_wins() -> None:
    env = parallel_env(players=3)
    obs, _ = env.reset(seed=4)
    actions = {
        "player_0": first_reaction(env, obs, "player_0", 5),
        "player_1": first_reaction(env, obs, "player_1", 2),
        "player_2": env.no_reaction,
    }
    _, _, _, _, infos = env.step(actions)
    info = infos["player_0"]
    assert info["winner"] == "player_1" and info["ms"] == 3 * env.bucket_ms and info["tied"] == ["player_1"]
    assert info["move"] == env.decode(actions["player_1"])[0]  # type: ignore[index]
    assert env.game is not None and env.game.record()["moves"][-2][:3] == [1, info["move"], 450]


def tie_winners(seed: int) -> list[str]:
    env = parallel_env(players=4, hand_size=5)
    obs, _ = env.reset(seed=seed)
    winners = []
    while env.agents and len(winners) < 12:
        actions = {a: first_reaction(env, obs, a, 0) for a in env.agents if obs[a]["action_mask"][:-1].any()}
        obs, _, _, _, infos = env.step(actions)
        info = next(iter(infos.values()))
        assert info["tied"] == sorted(actions) and info["winner"] in actions and info["ms"] == env.bucket_ms
        winners.append(info["winner"])
    return winners


def test_ties_are_drawn_from_the_referees_seeded_stream() -> None:
    runs = {seed: tie_winners(seed) for seed in range(6)}
    assert runs[0] == tie_winners(0)  # the same seed: the same draws
    assert len({w for ws in runs.values() for w in ws}) > 1  # not always the lowest seat
    assert len({tuple(ws) for ws in runs.values()}) > 1


# ---------------------------------------------------------------------------- observations
def test_observations_fit_the_space_and_the_documented_layout() -> None:
    env = parallel_env(players=3)
    obs, _ = env.reset(seed=2)
    assert sum(length for _, length, _ in fields(3)) == obs["player_0"]["observation"].size
    space = env.observation_space("player_0")
    for step in play_random(env, 2)[:40]:
        for o in step["obs"].values():
            assert space.contains(o)
    view = mauseloch.new_game("mausgeflippt", players=3, seed=1).typed_view(1)
    vec, at = observe(view), 0
    parts = {}
    for name, length, _ in fields(3):
        parts[name] = vec[at : at + length]
        at += length
    assert parts["hand"].sum() == 7 and parts["hand_counts"].tolist() == [7, 7, 7]
    assert parts["revealer"].tolist() == [0, 0, 1]  # seat 0 reveals: two seats after seat 1
    assert parts["mouse_wears"].sum() == 0 and parts["cheeses_left"][0] == 9


def test_observations_never_depend_on_hidden_cards() -> None:
    """Two deals that differ only in a card of seat 1's hand and one deep in the draw pile:
    seat 0 sees the same observations; seat 1 does not."""
    players, hand_size = 3, 7
    deck = list(CLOTHING_DECK) + list(MICE) + list(CHEESES)
    dealt = players * hand_size
    swap = next(i for i in range(dealt, len(CLOTHING_DECK)) if deck[i] != deck[1])
    other = list(deck)
    other[1], other[swap] = other[swap], other[1]  # index 1 goes to seat 1; swap: the draw pile's bottom
    games = [mauseloch.new_game("mausgeflippt", players=players, seed=0, deck=d) for d in (deck, other)]
    for g in games:
        g.play("reveal")
    assert np.array_equal(observe(games[0].typed_view(0)), observe(games[1].typed_view(0)))
    assert np.array_equal(observe(games[0].typed_view(2)), observe(games[1].typed_view(2)))
    assert not np.array_equal(observe(games[0].typed_view(1)), observe(games[1].typed_view(1)))


def test_observations_equal_those_of_every_game_the_seat_cannot_tell_apart() -> None:
    env = parallel_env(players=4, hand_size=6)
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=9)
    steps = 0
    while env.agents and steps < 25:
        game = env.game
        assert game is not None
        for s in range(4):
            twin = game.determinize(s, seed=steps + 100 * s)
            assert np.array_equal(observe(twin.typed_view(s)), obs[f"player_{s}"]["observation"])
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, *_ = env.step(actions)
        steps += 1


# ---------------------------------------------------------------------------- episodes and rewards
def test_episodes_end_with_score_rewards_adding_up_to_the_final_score() -> None:
    for seed in range(5):
        env = parallel_env(players=3)
        steps = play_random(env, seed, rng_seed=seed)
        game = env.game
        assert game is not None and game.is_over and env.agents == []
        last = steps[-1]
        assert all(last["terms"].values()) and not any(last["truncs"].values())
        assert all(not any(s["terms"].values()) for s in steps[:-1])
        totals = [sum(s["rewards"][f"player_{p}"] for s in steps) for p in range(3)]
        assert totals == game.result()["score"]
        assert mauseloch.replay(game.record()).events == game.events  # the episode is a real, replayable game
        assert steps[-1]["infos"]["player_0"]["winner"] in (None, "player_0", "player_1", "player_2")


def test_rank_rewards_come_at_the_end_only() -> None:
    env = parallel_env(players=3, reward="rank")
    steps = play_random(env, 7)
    assert all(r == 0.0 for s in steps[:-1] for r in s["rewards"].values())
    assert env.game is not None
    ranks = env.game.result()["ranks"]
    assert [steps[-1]["rewards"][f"player_{p}"] for p in range(3)] == [1.0 - (r - 1) for r in ranks]


def test_max_cycles_truncates() -> None:
    env = parallel_env(players=2, max_cycles=3)
    steps = play_random(env, 1)
    assert len(steps) == 3 and all(steps[-1]["truncs"].values()) and not any(steps[-1]["terms"].values())
    with pytest.raises(ValueError, match="reset"):
        env.step({})


def test_render_ansi_shows_the_public_table() -> None:
    env = parallel_env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "mouse m" in text and "player_1: 7 cards" in text
    assert parallel_env().render() is None


@pytest.mark.parametrize("kind", ["int64", "int32", "uint16"])
def test_every_number_the_env_takes_may_be_a_numpy_integer(kind: str) -> None:
    """``bucket_ms`` and ``max_cycles`` refused NumPy integers (``type(x) is int``); decode,
    encode and action_mask took any value unchecked. Now all go through the engine's as_int."""
    to = getattr(np, kind)
    env = parallel_env(players=to(3), hand_size=to(5), window_ms=to(3000), bucket_ms=to(100), max_cycles=to(50))
    plain = parallel_env(players=3, hand_size=5, window_ms=3000, bucket_ms=100, max_cycles=50)
    assert (env.buckets, env.bucket_ms, env.max_cycles) == (plain.buckets, 100, 50) and type(env.bucket_ms) is int
    obs, _ = env.reset(seed=to(4))
    assert np.array_equal(obs["player_0"]["observation"], plain.reset(seed=4)[0]["player_0"]["observation"])
    assert np.array_equal(env.action_mask(to(1)), env.action_mask(1))
    for action in (0, 7, env.no_reaction):
        assert env.decode(to(action)) == env.decode(action)
    assert env.encode(REACTIONS[1], to(250)) == env.encode(REACTIONS[1], 250)
    assert env.step({a: to(env.no_reaction) for a in env.agents})[0].keys() == set(env.agents)
    for bad in (True, 1.5, -1, env.no_reaction + 1):
        with pytest.raises(ValueError, match="action must be"):
            env.decode(bad)
    for bad_ms in (True, -1, 2.5):
        with pytest.raises(ValueError, match="ms must be"):
            env.encode(REACTIONS[1], bad_ms)
    with pytest.raises(ValueError, match="is no reaction"):
        env.encode("reveal", 100)
    with pytest.raises(ValueError, match="seat must be"):
        env.action_mask(3)
    for name in ("bucket_ms", "max_cycles"):
        with pytest.raises(ValueError, match=name):
            parallel_env(**{name: np.float64(100)})
