"""The learning environments (``mauseloch[rl]``): PettingZoo's own API and seed tests, the
observation's promise to show only what a seat may know, rewards, options, bad input."""

from __future__ import annotations

import inspect
import itertools
import random
import re

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from pettingzoo.test import api_test, seed_test

import mauseloch
from mauseloch.core.engine import IllegalMove
from mauseloch.core.registry import game_info
from mauseloch.envs import maumau_v0
from mauseloch.envs.maumau_obs import (
    LAST_DRAW,
    LAST_PASS_EMPTY,
    PublicLog,
    observation_fields,
    observation_size,
    rank_rewards,
)
from mauseloch.games.maumau import CARD_ID, fit_mask
from tests.paths import ROOT

# PettingZoo warns about any observation that is a dict (its own card games are on a whitelist);
# the dict of vector and action mask is the layout its classic environments use.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

DOCS = ROOT / "docs" / "envs.md"


@pytest.mark.slow  # PettingZoo's api_test plays long games: up to 35 s each
@pytest.mark.parametrize("players", [2, 3, 5])
def test_pettingzoo_api_test(players: int) -> None:
    api_test(maumau_v0.env(players=players, ace_skips=players == 3), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    seed_test(lambda: maumau_v0.env(players=players), num_cycles=500)


def test_every_game_option_is_an_argument() -> None:
    params = inspect.signature(maumau_v0.raw_env).parameters
    for spec in game_info("mau-mau").options:
        assert spec.name in params, spec.name
        assert params[spec.name].default == spec.default
    env = maumau_v0.raw_env(players=3, no_jack_on_jack=True, move_limit=20)
    env.reset(seed=1)
    assert env.game is not None and env.game.options["no_jack_on_jack"] and env.game.options["move_limit"] == 20


@pytest.mark.parametrize(
    "kwargs",
    [{"players": 1}, {"players": 6}, {"move_limit": 0}, {"ace_skips": "yes"}, {"render_mode": "human"}],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        maumau_v0.raw_env(**kwargs)  # type: ignore[arg-type]


def _random_game(env: maumau_v0.raw_env, seed: int, check: object = None) -> None:
    rng = random.Random(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if callable(check):
            check(env)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert agent


def test_observations_handed_out_are_never_changed_afterwards() -> None:
    """The vector is written into a fresh array at every observe(): one kept by a learner (a
    replay buffer) stays as it was while the game goes on."""
    env = maumau_v0.raw_env(players=3)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    rng = random.Random(5)
    env.reset(seed=5)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        kept.append((obs["observation"], obs["observation"].copy()))
        for other in env.possible_agents:  # other seats' vectors too, as a learner might ask
            seen = env.observe(other)["observation"]
            kept.append((seen, seen.copy()))
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(kept) > 20
    assert len({id(a) for a, _ in kept}) == len(kept)  # no array handed out twice
    assert all(np.array_equal(a, b) for a, b in kept)
    with pytest.raises(ValueError, match="unknown agent"):
        env.observe("player_9")


# (players, options, games): every player count and every option, alone and together.
EQUAL_CONFIGS: list[tuple[int, dict[str, object], int]] = [
    (2, {}, 40),
    (3, {"ace_skips": True}, 24),
    (4, {"seven_draw_then_play": True}, 16),
    (5, {"no_jack_on_jack": True, "no_win_with_jack": True}, 12),
    (3, {"ace_skips": True, "seven_draw_then_play": True, "no_jack_on_jack": True, "no_win_with_jack": True}, 30),
    (2, {"move_limit": 30, "no_win_with_jack": True}, 40),
]


@pytest.mark.parametrize(("players", "options", "games"), EQUAL_CONFIGS)
def test_the_env_plays_the_engines_games_step_by_step(players: int, options: dict[str, object], games: int) -> None:
    """The env runs on the compiled kernel; an engine game with the same seed, stepped with the
    same actions next to it (observed through ``PublicLog``, the Python path), must agree at every
    step on whose turn it is, every seat's vector and mask, and at the end on result and rewards."""
    env = maumau_v0.raw_env(players=players, **options)  # type: ignore[arg-type]
    seeds = random.Random(players * 1000 + len(options))
    for g in range(games):
        seed = seeds.getrandbits(64) if g % 2 else g  # small seeds and the whole range
        rng = random.Random(seed)
        env.reset(seed=seed)
        engine = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        log = PublicLog(engine)  # type: ignore[arg-type]
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                assert engine.is_over
                assert info["result"] == engine.result()
                env.step(None)
                continue
            assert reward == 0.0 and not engine.is_over
            assert agent == f"player_{engine.to_move}"
            for seat in range(players):
                seen = env.observe(f"player_{seat}")
                assert np.array_equal(seen["observation"], log.observe(seat)), (seed, engine.move_count, seat)
                assert np.array_equal(seen["action_mask"], log.action_mask(seat))
            mask = obs["action_mask"]
            assert np.flatnonzero(mask).tolist() == engine.legal_actions()
            action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            log.play(action)
        result = engine.result()
        assert list(totals.values()) == rank_rewards(result)
        assert abs(sum(totals.values())) < 1e-9
        game = env.game  # the env's game as an engine object: the same record
        assert game is not None and game.record() == engine.record()
        assert mauseloch.replay(game.record()).result() == result
        limit = options.get("move_limit", 1000)
        assert (result["reason"] == "move_limit") == (engine.move_count >= limit)  # type: ignore[operator]


def test_the_env_plays_a_given_deck_like_the_engine() -> None:
    """``reset(options={"deck": ...})``: the kernel deals the given deck; reshuffles still come
    from the seed (MM-8), as in the engine."""
    for seed in range(6):
        deck = mauseloch.new_game("mau-mau", players=3, seed=seed + 100).deck
        env = maumau_v0.raw_env(players=3)
        env.reset(seed=seed, options={"deck": deck})
        engine = mauseloch.new_game("mau-mau", players=3, seed=seed, deck=deck)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert info["result"] == engine.result()
                env.step(None)
                continue
            assert np.flatnonzero(obs["action_mask"]).tolist() == engine.legal_actions()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            engine.play(engine.move_of(action))
        assert env.game is not None and env.game.record() == engine.record()


def test_rank_rewards_mapping() -> None:
    assert rank_rewards({"ranks": [1, 2]}) == [1.0, -1.0]
    assert rank_rewards({"ranks": [1, 1]}) == [0.0, 0.0]
    assert rank_rewards({"ranks": [2, 1, 3]}) == [0.0, 1.0, -1.0]
    assert rank_rewards({"ranks": [1, 2, 2, 4]}) == pytest.approx([1.0, 0.0, 0.0, -1.0])
    assert rank_rewards({"ranks": [3, 1, 2, 3, 3]}) == pytest.approx([-0.5, 1.0, 0.5, -0.5, -0.5])


def test_seeded_resets_repeat_and_differ() -> None:
    a, b = maumau_v0.raw_env(players=3), maumau_v0.raw_env(players=3)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.game is not None and b.game is not None
    assert a.game.seed == b.game.seed == 5
    a.reset()
    b.reset()
    assert a.game.seed == b.game.seed != 5  # the next games come from the first seed


def _swap(deck: list[str], i: int, j: int) -> list[str]:
    deck = list(deck)
    deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("players", [2, 3])
def test_observation_never_shows_hidden_cards(players: int) -> None:
    """Two games that differ only in cards seat 0 cannot see (a rival's card swapped with a draw
    pile card, or with another rival's) give seat 0 the same observation at every step, as long
    as the same public moves are possible in both and seat 0 has not drawn a swapped card."""
    compared = 0
    for seed in range(40):
        deck = mauseloch.new_game("mau-mau", players=players, seed=seed).deck
        rng = random.Random(seed)
        dealt = 5 * players
        rival_cards = [i for i in range(dealt) if i % players != 0]
        i = rng.choice(rival_cards)
        if players > 2 and seed % 2:
            j = rng.choice([k for k in rival_cards if k % players != i % players])
        else:
            j = rng.randrange(dealt + 1, 32)
        envs = [maumau_v0.raw_env(players=players), maumau_v0.raw_env(players=players)]
        envs[0].reset(seed=seed, options={"deck": deck})
        envs[1].reset(seed=seed, options={"deck": _swap(deck, i, j)})
        ga, gb = envs[0].game, envs[1].game
        assert ga is not None and gb is not None
        assert ga.hands != gb.hands or ga.draw_pile != gb.draw_pile
        for agent in envs[0].agent_iter():
            ga, gb = envs[0].game, envs[1].game  # the engine copies, brought up to date
            assert ga is not None and gb is not None
            if ga.is_over or gb.is_over or ga.hands[0] != gb.hands[0] or agent != envs[1].agent_selection:
                break
            oa, ob = envs[0].observe("player_0"), envs[1].observe("player_0")
            assert np.array_equal(oa["observation"], ob["observation"]), (seed, ga.move_count)
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
            compared += 1
            action = int(rng.choice(np.flatnonzero(envs[0].observe(agent)["action_mask"])))
            if action not in gb.legal_actions():
                break
            for env in envs:
                env.step(action)
    assert compared > 40 * 5


@pytest.mark.parametrize("seed", range(8))
def test_observation_shows_what_the_seat_may_know(seed: int) -> None:
    """The fields carry the view's values at every step of whole games, reshuffles included
    (the test fails if a field is wired wrongly)."""
    env = maumau_v0.raw_env(players=3)
    rng = random.Random(seed)
    env.reset(seed=seed)
    fields = {name: (start, size) for name, start, size, _ in observation_fields(3)}
    while True:
        game = env.game  # the engine copy, brought up to date
        assert game is not None
        if game.is_over:
            break
        for seat in range(3):
            obs = env.observe(f"player_{seat}")["observation"]
            view = game.view(seat)

            def part(name: str, obs: np.ndarray = obs) -> np.ndarray:
                start, size = fields[name]
                return obs[start : start + size]

            assert {c for c in range(32) if part("hand")[c]} == {CARD_ID[c] for c in view["hand"]}
            assert np.flatnonzero(part("top")).tolist() == [CARD_ID[view["top"]]]
            assert {c for c in range(32) if part("discard")[c]} == {CARD_ID[c] for c in view["discard"]}
            assert part("wish").sum() == (view["wish"] is not None)
            assert np.flatnonzero(part("penalty")).tolist() == [view["penalty"] // 2]
            assert np.flatnonzero(part("to_move")).tolist() == [(view["to_move"] - seat) % 3]
            assert part("draw_pile")[0] == pytest.approx(view["draw_pile"] / 32)
            assert part("discard_pile")[0] == pytest.approx(view["discard_pile"] / 32)
            assert part("deciding_drawn")[0] == view["deciding_drawn"]
            assert part("direction")[0] == (view["direction"] == 1)
            for k in (1, 2):
                assert part(f"rival{k}.count")[0] == pytest.approx(view["hand_counts"][(seat + k) % 3] / 32)
        env.step(int(rng.choice(game.legal_actions())))


def test_what_a_rival_lacked_is_true() -> None:
    """``lacked`` is a fact: a rival holds at most as many of those cards as it has received since.
    (The log's facts have one home, ``note_move``, which the env's compiled game calls too.)"""
    seen = 0
    for seed in range(30):
        game = mauseloch.new_game("mau-mau", players=3, seed=seed)
        log = PublicLog(game)  # type: ignore[arg-type]
        rng = random.Random(seed)
        while not game.is_over:
            actor = game.to_move
            assert actor is not None
            fit = fit_mask(game.top, game.wish, False)
            had = game.hands[actor]  # type: ignore[attr-defined]
            log.play(rng.choice(game.legal_actions()))
            if log.last[actor] in (LAST_DRAW, LAST_PASS_EMPTY):  # it had to: nothing fitted (MM-6)
                assert log.lacked[actor] == fit and not had & fit
            for s in range(3):
                assert (game.hands[s] & int(log.lacked[s])).bit_count() <= log.received[s]  # type: ignore[attr-defined]
                seen += bool(log.lacked[s])
    assert seen > 100


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = maumau_v0.env(players=2)
    env.reset(seed=9)
    before = env.unwrapped.game.record()  # type: ignore[attr-defined]
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    for bad in (47, -1, "7H", 2.5, True, 1 << 70, np.array([1, 2])):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.unwrapped.game.record() == before  # type: ignore[attr-defined]
    assert np.array_equal(env.observe(env.agent_selection)["observation"], obs["observation"])


def test_a_pickled_or_copied_env_goes_on_with_the_same_game() -> None:
    """The compiled functions' entry points are bound again on loading, without touching the game."""
    import copy
    import pickle

    env = maumau_v0.env(players=3, ace_skips=True)
    env.reset(seed=12)
    rng = random.Random(12)
    for _ in range(7):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        for other in copies:
            seen, other_reward, *_ = other.last()
            assert other.agent_selection == env.agent_selection and other_reward == reward
            assert np.array_equal(seen["observation"], obs["observation"])
            assert np.array_equal(seen["action_mask"], obs["action_mask"])
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for e in (env, *copies):
            e.step(action)
    assert all(other.game.record() == env.game.record() for other in copies)  # type: ignore[union-attr]


def test_calls_out_of_order_are_clear_errors() -> None:
    env = maumau_v0.env(players=2)
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), env.render):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    env.reset(seed=1)
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_resets_are_refused_and_change_nothing() -> None:
    env = maumau_v0.env(players=2)
    env.reset(seed=3)
    game = env.game
    for kwargs in ({"seed": -1}, {"seed": "x"}, {"options": {"deck": ["7H"]}}):
        with pytest.raises(ValueError):
            env.reset(**kwargs)  # type: ignore[arg-type]
        assert env.game is game
    env.reset()
    other = maumau_v0.env(players=2)
    other.reset(seed=3)
    other.reset()
    assert env.game is not None and other.game is not None and env.game.seed == other.game.seed


def test_render_ansi() -> None:
    env = maumau_v0.env(players=3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "top " in text and "player_2" in text
    quiet = maumau_v0.raw_env(players=2)
    quiet.reset(seed=2)
    assert quiet.render() is None  # no render mode: nothing to show


def test_docs_list_every_field() -> None:
    text = DOCS.read_text()
    for name, _, _, _ in observation_fields(3):
        base = re.sub(r"^rival\d+\.", "rival k ", name).split()[-1]
        assert f"`{base}`" in text, name
    assert observation_size(2) == observation_fields(2)[-1][1] + observation_fields(2)[-1][2]
    starts = [(start, size) for _, start, size, _ in observation_fields(4)]
    assert all(a[0] + a[1] == b[0] for a, b in itertools.pairwise(starts))  # contiguous


# --------------------------------------------------------------------------- Gymnasium wrapper


def test_gymnasium_env_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    from mauseloch.envs import maumau_single

    env = gymnasium.make(maumau_single.ENV_ID, players=3, opponents=["heuristic", "random"], illegal_action="lose")
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_env_checker_passes_with_the_defaults() -> None:
    """``check_env`` steps random actions: with the defaults an illegal one ends the episode
    (reward -1) rather than raising, so the checker passes on the env as ``make`` gives it."""
    from gymnasium.utils.env_checker import check_env

    import mauseloch.envs  # noqa: F401 (registers the id)

    check_env(gymnasium.make("mauseloch/MauMau-v0").unwrapped)
    check_env(gymnasium.make("mauseloch/MauMau-v0", players=4, render_mode="ansi").unwrapped)


@pytest.mark.slow
@pytest.mark.parametrize(
    "code",
    [
        "import gymnasium, mauseloch.envs; gymnasium.make('mauseloch/MauMau-v0').reset(seed=1)",
        "import gymnasium; gymnasium.make('mauseloch.envs:mauseloch/MauMau-v0').reset(seed=1)",
    ],
)
def test_the_gymnasium_id_works_after_importing_the_package(code: str) -> None:
    """Only the private module registered the id; ``import mauseloch.envs`` (or Gymnasium's
    ``module:id`` form) is enough now. A fresh interpreter, so no earlier import helps."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def _play_single(env: object, seed: int) -> tuple[float, list[int]]:
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)  # type: ignore[attr-defined]
    actions = []
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())  # type: ignore[attr-defined]
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
        assert env.observation_space.contains(obs)  # type: ignore[attr-defined]
        if terminated or truncated:
            return reward, actions
        assert reward == 0.0


def test_single_seat_env_plays_whole_games_against_bots() -> None:
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    env = MauMauSingleEnv(players=3, seat=None, opponents="heuristic")
    seats = set()
    for seed in range(12):
        reward, _ = _play_single(env, seed)
        game = env.game
        assert game is not None and game.is_over
        seats.add(env._me)
        assert reward == rank_rewards(game.result())[env._me]
        assert mauseloch.replay(game.record()).result() == game.result()
    assert len(seats) > 1  # seat=None seats the learner anywhere
    again = MauMauSingleEnv(players=3, seat=None, opponents="heuristic")
    assert _play_single(again, 5) == _play_single(env, 5)  # a seed repeats the episode


def test_single_seat_env_refuses_bad_input() -> None:
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    with pytest.raises(ValueError, match="unknown bot"):
        MauMauSingleEnv(opponents="grandmaster")
    with pytest.raises(ValueError):
        MauMauSingleEnv(players=3, opponents=["random"])
    with pytest.raises(ValueError):
        MauMauSingleEnv(seat=2)
    env = MauMauSingleEnv(illegal_action="raise")
    with pytest.raises(RuntimeError):
        env.step(0)
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    assert np.array_equal(env.step(int(np.flatnonzero(info["action_mask"])[0]))[0].shape, obs.shape)
    lose = MauMauSingleEnv()  # the default: Gymnasium's checker steps random actions
    _, info = lose.reset(seed=4)
    _, reward, terminated, _, info = lose.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, terminated) == (-1.0, True) and "illegal" in info


def test_single_seat_env_skips_games_the_bots_finish_before_the_learner_moves() -> None:
    """With reset seed 1006528 the first game drawn lets seat 0 (random bot) go out with its
    first five moves (nines and eights give it the turn back): the learner at seat 1 never had a
    decision, so the next game is dealt. With that game's deck given, it is a clear error."""
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    first = int(np.random.default_rng(1006528).integers(1 << 53))  # Gymnasium's generator for that seed
    env = MauMauSingleEnv(players=2, seat=1, opponents="random")
    _, info = env.reset(seed=1006528)
    assert env.game is not None and env.game.seed != first
    assert not env.game.is_over and env.game.to_move == 1 and info["action_mask"].any()
    deck = mauseloch.new_game("mau-mau", players=2, seed=first).deck
    with pytest.raises(ValueError, match="before seat 1 moves"):
        env.reset(seed=1006528, options={"deck": deck})


def test_observations_are_fresh_and_masks_read_only() -> None:
    env = maumau_v0.env(players=2)
    env.reset(seed=8)
    a, b = env.observe("player_0"), env.observe("player_0")
    a["observation"][:] = 0.5
    assert not np.array_equal(a["observation"], b["observation"])  # a caller's change stays its own
    with pytest.raises(ValueError):
        a["action_mask"][0] = 1
    assert np.array_equal(a["action_mask"], b["action_mask"])


def test_single_seat_env_bad_deck_changes_nothing() -> None:
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    a, b = MauMauSingleEnv(), MauMauSingleEnv()
    a.reset(seed=2)
    b.reset(seed=2)
    game = a.game
    with pytest.raises(ValueError, match="deck"):
        a.reset(options={"deck": ["7H", "7H"]})
    assert a.game is game
    a.reset()
    b.reset()
    assert a.game is not None and b.game is not None and a.game.seed == b.game.seed


def test_a_move_limit_past_the_range_is_refused_where_the_env_and_batch_are_made() -> None:
    """The env and the batch kernel died with a raw OverflowError on move_limit=10**30."""
    from mauseloch.envs.maumau_single import MauMauSingleEnv
    from mauseloch.games.maumau.kernel import MauMauBatch, options_array

    with pytest.raises(ValueError, match="allowed: 1 to 1000000000"):
        maumau_v0.env(move_limit=10**30)
    with pytest.raises(ValueError, match="allowed: 1 to 1000000000"):
        MauMauSingleEnv(move_limit=10**30)
    with pytest.raises(ValueError, match="allowed: 1 to 1000000000"):
        MauMauBatch(4, options={"move_limit": 10**30})
    assert options_array(2, {"move_limit": 10**9})[-1] == 10**9


def test_a_numpy_seat_picks_the_learners_seat() -> None:
    from mauseloch.envs.maumau_single import MauMauSingleEnv

    env = MauMauSingleEnv(players=3, seat=np.int64(2))
    assert type(env.seat) is int and env.seat == 2
    # every number the envs take: players, options, seeds (Gymnasium's own generator refuses a
    # NumPy seed, so the env makes it a plain int first) and actions
    single = MauMauSingleEnv(players=np.int64(3), seat=np.int32(1), move_limit=np.int64(40))
    plain = MauMauSingleEnv(players=3, seat=1, move_limit=40)
    obs, info = single.reset(seed=np.int64(3))
    assert np.array_equal(obs, plain.reset(seed=3)[0])
    step = single.step(np.int64(np.flatnonzero(info["action_mask"])[0]))
    assert np.array_equal(step[0], plain.step(int(np.flatnonzero(info["action_mask"])[0]))[0])
    with pytest.raises(ValueError, match="seed"):
        single.reset(seed=np.float64(3))
    aec = maumau_v0.env(players=np.int64(3), move_limit=np.int32(50))
    aec.reset(seed=np.uint64(5))
    aec.step(np.int64(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert type(aec.unwrapped.players) is int  # type: ignore[attr-defined]
    for bad in (True, 3, 1.0, np.float64(1)):
        with pytest.raises(ValueError, match="seat"):
            MauMauSingleEnv(players=3, seat=bad)


def test_the_discard_flags_follow_the_pile_when_read_now_and_then() -> None:
    """A learner may observe only some steps (its own turns, say). The discard pile's flags must
    match the engine's pile whenever they are read, even when a reshuffle (MM-8) between two reads
    let the pile grow back to the length it had (a cache keyed by the length went stale)."""
    players = 5
    start, size = next((s, n) for name, s, n, _ in observation_fields(players) if name == "discard")
    reshuffled_reads = 0
    for seed in range(40):
        game = mauseloch.new_game("mau-mau", players=players, seed=seed)
        log = PublicLog(game)  # type: ignore[arg-type]
        rng = random.Random(seed)
        reshuffles_seen = 0
        while not game.is_over:
            if game.to_move == 0:  # read only on seat 0's turns, as a one-seat learner does
                obs = log.observe(0)
                assert sorted(np.flatnonzero(obs[start : start + size]).tolist()) == sorted(game.discard)
                reshuffles = sum(1 for e in game.events if e["type"] == "reshuffle")
                reshuffled_reads += reshuffles > reshuffles_seen
                reshuffles_seen = reshuffles
            log.play(game.action_id(rng.choice(game.legal_moves())))
    assert reshuffled_reads > 0  # the games did reach reads across a reshuffle


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: maumau_v0.env(ace_skip=True), "maumau_v0"),
        (lambda: __import__("gymnasium").make("mauseloch/MauMau-v0", ace_skip=True), "mauseloch/MauMau-v0"),
        (
            lambda: __import__("mauseloch.envs.mausgeflippt_v0").envs.mausgeflippt_v0.env(ace_skip=True),
            "mausgeflippt_v0",
        ),
    ],
    ids=["maumau_v0", "MauMau-v0", "mausgeflippt_v0"],
)
def test_a_misspelt_option_names_the_allowed_ones(make: object, name: str) -> None:
    # new_game's way: the bad name and every argument the environment takes, not a bare TypeError
    with pytest.raises(ValueError, match=rf"^unknown argument 'ace_skip' for {re.escape(name)}; allowed: players, .*"):
        make()  # type: ignore[operator]
