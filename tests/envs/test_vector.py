"""The compiled vector environment is Gymnasium's vector of ``mauseloch/MauMau-v0``, step by step:
same observations (the envs' one layout), masks, rewards, ends and automatic resets; checked with
random actions from the action space and with legal play over whole games."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import mauseloch.envs  # noqa: F401  (registers mauseloch/MauMau-v0)
from mauseloch.envs.maumau_obs import observation_fields, observation_size
from mauseloch.envs.vector import MauMauVectorEnv


def _pair(num_envs: int, **kw: object) -> tuple[MauMauVectorEnv, gymnasium.vector.VectorEnv]:
    ours = MauMauVectorEnv(num_envs=num_envs, **kw)  # type: ignore[arg-type]
    sync = gymnasium.make_vec("mauseloch/MauMau-v0", num_envs=num_envs, vectorization_mode="sync", **kw)
    return ours, sync


def test_random_actions_from_the_action_space_match() -> None:
    """Random actions from the batched action space: most are illegal, so episodes end with -1
    (``illegal_action="lose"``, as in MauMau-v0) and are dealt anew at the next step."""
    ours, sync = _pair(3, players=3, opponents="heuristic")
    assert ours.metadata["autoreset_mode"] == sync.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    ours.action_space.seed(7)
    np.testing.assert_array_equal(ours.reset(seed=7)[0], sync.reset(seed=7)[0])
    lost = 0
    for _ in range(200):
        actions = ours.action_space.sample()
        mine, theirs = ours.step(actions), sync.step(actions)
        for a, b in zip(mine[:4], theirs[:4], strict=True):
            np.testing.assert_array_equal(a, b)
        lost += int((mine[1] == -1.0).sum())
    assert lost > 50


@pytest.mark.parametrize(
    "kw",
    [
        {"players": 2},
        {"players": 3, "opponents": "heuristic", "seat": None, "ace_skips": True, "seven_draw_then_play": True},
        {"players": 4, "opponents": ["heuristic", "random", "heuristic"], "seat": None, "move_limit": 60},
        {"players": 5, "opponents": "heuristic", "seat": 2, "no_jack_on_jack": True, "no_win_with_jack": True},
    ],
)
def test_legal_play_matches_the_single_env_vector_step_by_step(kw: dict[str, object]) -> None:
    ours, sync = _pair(4, **kw)
    obs, info = ours.reset(seed=11)
    obs2, info2 = sync.reset(seed=11)
    assert ours.observation_space == sync.observation_space and ours.action_space == sync.action_space
    assert obs.shape == (4, observation_size(int(kw["players"])))  # type: ignore[call-overload]
    np.testing.assert_array_equal(obs, obs2)
    np.testing.assert_array_equal(info["seat"], info2["seat"])
    start = next(s for name, s, _, _ in observation_fields(int(kw["players"])) if name == "discard")  # type: ignore[call-overload]
    pile = np.arange(start, start + 32)
    rng = np.random.default_rng(0)
    ends = truncations = 0
    ended = np.zeros(4, dtype=bool)
    for _ in range(250):
        mask = info["action_mask"]
        # a slot whose game just ended shows the mask of the game it deals next (MauMau-v0's sync
        # vector shows it one step later, with that game's first observation): never all zeros
        assert mask.any(axis=1).all()
        np.testing.assert_array_equal(mask[~ended], info2["action_mask"][~ended])
        np.testing.assert_array_equal(ours.action_masks(), mask.astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        ahead = mask[ended].copy()
        obs, rew, term, trunc, info = ours.step(actions)
        obs2, rew2, term2, trunc2, info2 = sync.step(actions)
        np.testing.assert_array_equal(info2["action_mask"][ended], ahead)
        ended = term | trunc
        assert ours.observation_space.contains(obs)
        # The discard pile's flags against the engine's own pile: MauMau-v0 reads them through
        # PublicLog, whose pile cache goes stale when a reshuffle between two reads brings the
        # pile back to the length it had (seen here with five players); the rest must be equal.
        for i, env in enumerate(sync.envs):
            truth = np.zeros(32, np.float32)
            truth[env.unwrapped.game.discard] = 1.0
            np.testing.assert_array_equal(obs[i, pile], truth)
        np.testing.assert_array_equal(np.delete(obs, pile, axis=1), np.delete(obs2, pile, axis=1))
        np.testing.assert_array_equal(rew, rew2)
        np.testing.assert_array_equal(term, term2)
        np.testing.assert_array_equal(trunc, trunc2)
        np.testing.assert_array_equal(info["seat"], info2["seat"])
        ends += int((term | trunc).sum())
        truncations += int(trunc.sum())
    assert ends > 4  # several games ended and were dealt anew
    if kw.get("move_limit") == 60:
        assert truncations > 0


def test_illegal_action_raise_refuses_the_whole_step_and_lose_ends_the_episode() -> None:
    strict = MauMauVectorEnv(num_envs=3, players=2, illegal_action="raise")
    obs, info = strict.reset(seed=5)
    actions = np.array([np.flatnonzero(row)[0] for row in info["action_mask"]])
    bad = actions.copy()
    bad[1] = next(a for a in range(47) if not info["action_mask"][1, a])
    with pytest.raises(ValueError, match=r"game 1: action \d+ is not legal now; legal action ids"):
        strict.step(bad)
    # nothing moved: the legal step gives what a fresh env gives
    fresh = MauMauVectorEnv(num_envs=3, players=2, illegal_action="raise")
    fresh.reset(seed=5)
    np.testing.assert_array_equal(strict.step(actions)[0], fresh.step(actions)[0])

    lenient = MauMauVectorEnv(num_envs=2, players=2)
    obs, info = lenient.reset(seed=5)
    wrong = np.array([next(a for a in range(47) if not info["action_mask"][i, a]) for i in range(2)])
    after, rew, term, trunc, info = lenient.step(wrong)
    np.testing.assert_array_equal(after, obs)  # the games stay as they were
    assert rew.tolist() == [-1.0, -1.0] and term.all() and not trunc.any() and info["illegal"].all()


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"players": 6}, "players"),
        ({"opponents": "search"}, "built-in rivals"),
        ({"players": 3, "opponents": ["random"]}, "one per other seat"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"num_envs": 0}, "num_envs"),
        ({"wild_aces": True}, "wild_aces"),
    ],
)
def test_bad_arguments_are_refused(kw: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MauMauVectorEnv(**kw)  # type: ignore[arg-type]


def test_bad_actions_and_step_before_reset() -> None:
    envs = MauMauVectorEnv(num_envs=2)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="one action id per game"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="one action id per game"):
        envs.step(np.array([0.5, 1.0]))


def test_make_vec_with_the_vector_entry_point_gives_the_compiled_env() -> None:
    """``gymnasium.make_vec("mauseloch/MauMau-v0", …, vectorization_mode="vector_entry_point")``
    is the compiled vector env, with the arguments passed on."""
    envs = gymnasium.make_vec(
        "mauseloch/MauMau-v0", num_envs=3, vectorization_mode="vector_entry_point", players=3, opponents="heuristic"
    )
    assert isinstance(envs, MauMauVectorEnv)
    assert (envs.num_envs, envs.players, envs.opponents) == (3, 3, ["heuristic", "heuristic"])
    obs, info = envs.reset(seed=2)
    assert obs.shape == (3, envs.single_observation_space.shape[0]) and info["action_mask"].shape == (3, 47)
    envs.close()
