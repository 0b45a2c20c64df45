"""Mau-Mau as an RLCard environment: RLCard's random agent, DQN, NFSP and DMC run on it unchanged
(a few hundred steps each), games repeat from the seed and the engine decides every rule."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import rlcard
import torch
from rlcard.agents import DQNAgent, NFSPAgent, RandomAgent
from rlcard.utils import reorganize

import mauseloch.envs.rlcard  # noqa: F401  (registers the env)
from mauseloch import new_game
from mauseloch.envs.maumau_obs import observation_size


def _make(**config: object) -> rlcard.envs.Env:
    return rlcard.make("mauseloch-maumau", config={"seed": 0} | config)


def test_env_shape_options_and_a_random_game() -> None:
    env = _make(game_num_players=3, game_ace_skips=True, game_move_limit=200)
    assert env.num_players == 3 and env.num_actions == 47
    assert env.state_shape == [[observation_size(3)]] * 3
    assert env.game.options["ace_skips"] is True
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(3)])
    trajectories, payoffs = env.run(is_training=False)
    assert len(trajectories) == 3
    assert sum(payoffs) == pytest.approx(0.0) and max(payoffs) <= 1.0 and min(payoffs) >= -1.0
    state = trajectories[0][0]
    assert state["obs"].shape == (observation_size(3),) and state["obs"].dtype == np.float32
    assert set(state["raw_legal_actions"]) == {new_game("mau-mau", 3, 0).move_of(a) for a in state["legal_actions"]}


@pytest.mark.parametrize("config", [{"game_num_players": 6}, {"game_move_limit": 0}, {"game_wild_aces": True}])
def test_bad_config_is_refused(config: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _make(**config)


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    env = _make()
    state, _ = env.reset()
    illegal = next(a for a in range(47) if a not in state["legal_actions"])
    before = env.get_perfect_information()
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.get_perfect_information() == before


def test_same_seed_same_games_and_step_back() -> None:
    def payoffs(seed: int) -> list[list[float]]:
        env = _make(seed=seed)
        env.set_agents([RandomAgent(num_actions=47), RandomAgent(num_actions=47)])
        np.random.seed(seed)  # RLCard's random agent draws from NumPy's global generator
        return [list(env.run()[1]) for _ in range(3)]

    assert payoffs(4) == payoffs(4)
    env = _make(allow_step_back=True)
    state, _ = env.reset()
    first = env.get_perfect_information()
    env.step(next(iter(state["legal_actions"])))
    assert env.get_perfect_information() != first
    env.step_back()
    assert env.get_perfect_information() == first


def _train(agent_for: list[object], env: rlcard.envs.Env, episodes: int) -> int:
    env.set_agents(agent_for)
    steps = 0
    for _ in range(episodes):
        trajectories, payoffs = env.run(is_training=True)
        for seat, transitions in enumerate(reorganize(trajectories, payoffs)):
            if hasattr(agent_for[seat], "feed"):
                for ts in transitions:
                    agent_for[seat].feed(ts)  # type: ignore[attr-defined]
                    steps += 1
    return steps


@pytest.mark.slow
def test_rlcard_dqn_trains() -> None:
    torch.manual_seed(0)
    env = _make(game_move_limit=60)
    agent = DQNAgent(
        num_actions=47, state_shape=env.state_shape[0], mlp_layers=[32], replay_memory_init_size=50,
        batch_size=16, train_every=4, device=torch.device("cpu"),
    )  # fmt: skip
    before = [p.detach().clone() for p in agent.q_estimator.qnet.parameters()]
    steps = 0
    while steps < 200:  # a few hundred transitions fed
        steps += _train([agent, RandomAgent(num_actions=47)], env, 1)
    assert agent.train_t > 0
    assert any(not torch.equal(a, b) for a, b in zip(before, agent.q_estimator.qnet.parameters(), strict=True))
    state, _ = env.reset()
    action, _ = agent.eval_step(state)
    assert action in state["legal_actions"]


@pytest.mark.slow
def test_rlcard_nfsp_trains() -> None:
    torch.manual_seed(0)
    # NFSP picks best response or average policy from NumPy's global generator: seeded, so the
    # run (and whether its average policy has trained by 200 steps) does not hang on what other
    # tests in the same worker drew before
    np.random.seed(0)
    random.seed(0)  # the reservoir buffer samples with the random module
    env = _make(game_move_limit=60)
    agents = [
        NFSPAgent(
            num_actions=47,
            state_shape=env.state_shape[seat],
            hidden_layers_sizes=[32],
            q_mlp_layers=[32],
            anticipatory_param=0.5,
            reservoir_buffer_capacity=500,
            min_buffer_size_to_learn=20,
            batch_size=16,
            q_replay_memory_init_size=50,
            q_batch_size=16,
            train_every=4,
            q_train_every=4,
            device=torch.device("cpu"),
        )
        for seat in range(2)
    ]
    before = [p.detach().clone() for p in agents[0].policy_network.parameters()]
    steps = 0
    while steps < 200:
        for agent in agents:
            agent.sample_episode_policy()  # best response or average policy, anew each game
        steps += _train(list(agents), env, 1)
    assert any(not torch.equal(a, b) for a, b in zip(before, agents[0].policy_network.parameters(), strict=True))


_DMC = """
import multiprocessing, os, sys, threading, time
import torch
import rlcard
from rlcard.agents.dmc_agent import DMCTrainer
import mauseloch.envs.rlcard  # registers the env

FRAMES = 2 * 8 * 4

if __name__ == "__main__":
    env = rlcard.make("mauseloch-maumau", config={"seed": 0, "game_move_limit": 60})
    trainer = DMCTrainer(
        env, cuda="", savedir=sys.argv[1], xpid="maumau", num_actors=1, training_device="cpu",
        total_frames=FRAMES, unroll_length=8, batch_size=4, num_buffers=4, num_threads=1, save_interval=60,
    )
    # RLCard's learner threads may wait for a batch forever once the frames are reached (the
    # model saved, then start() never returned): train in a thread and stop once the saved
    # model holds the frames asked for.
    model = os.path.join(sys.argv[1], "maumau", "model.tar")
    learner = threading.Thread(target=trainer.start, daemon=True)
    learner.start()
    trained = False
    deadline = time.monotonic() + 200
    while not trained and time.monotonic() < deadline:
        learner.join(0.5)
        try:
            trained = torch.load(model, weights_only=False)["frames"] >= FRAMES
        except Exception:  # not saved yet, or being written
            trained = False
    for child in multiprocessing.active_children():  # RLCard never stops its actors
        child.terminate()
        child.join(10)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0 if trained else 1)  # the queues' feeder threads could hold a normal exit
"""


@pytest.mark.slow
def test_rlcard_dmc_trains(tmp_path: Path) -> None:
    """DMC with one actor process, in a process of its own: RLCard's learner waits for its actor
    without a time-out, so an actor lost inside a test worker would hang the whole suite; here it
    fails the test after a bounded wait instead."""
    script = tmp_path / "dmc.py"
    script.write_text(_DMC, encoding="utf-8")
    log = tmp_path / "dmc.log"
    # output to a file, not a pipe: a pipe stays open while any process RLCard started lives, and
    # waiting for its end waited for them too
    with log.open("wb") as out:
        # in tmp_path: RLCard's DMC logs the git branch of the directory it runs in, and a
        # checkout at a bare commit (no branch) makes it fail
        child = subprocess.Popen(
            [sys.executable, str(script), str(tmp_path)], stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path
        )
        try:
            code = child.wait(timeout=240)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise AssertionError(f"DMC did not finish in 240 s:\n{log.read_text()[-2000:]}") from None
    assert code == 0, log.read_text()[-3000:]
    saved = torch.load(f"{tmp_path}/maumau/model.tar", weights_only=False)
    assert saved["frames"] >= 2 * 8 * 4
    assert len(saved["model_state_dict"]) == 2
