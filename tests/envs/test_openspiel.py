"""Mau-Mau and Aus die Maus! as OpenSpiel games: OpenSpiel's own checks for Python games, the
deal as the engine's seed, the envs' observation as the tensors, information states that hide
what they must, and OpenSpiel's ISMCTS, MCCFR and a deep RL algorithm running on them.

The peers come with the ``research`` extra (``make test`` installs it)."""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import exploitability, ismcts, mcts, outcome_sampling_mccfr

import mauseloch
import mauseloch.envs.openspiel as mos
from mauseloch import new_game
from mauseloch.bots import make_bot
from mauseloch.envs import maumau_v0
from mauseloch.envs.maumau_obs import observation_fields, observation_size, rank_rewards


def _deal(state: pyspiel.State, seed: int) -> None:
    """Apply the chance actions that deal the engine game of seed ``seed``."""
    for action in mos.deal_actions(state.get_game().deals, seed):
        state.apply_action(action)


def _play_random(state: pyspiel.State, rng: np.random.Generator, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_load_game_takes_every_option_and_the_player_count() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 4, "ace_skips": True, "move_limit": 300})
    params = game.get_parameters()
    assert game.num_players() == 4
    assert params["ace_skips"] is True and params["move_limit"] == 300 and params["no_jack_on_jack"] is False
    assert game.num_distinct_actions() == 47
    assert game.max_chance_outcomes() == mos.DIGIT == 256  # a digit of the seed: two chance nodes
    assert game.max_game_length() == 302
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_size() == observation_size(4) == 238
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)


def test_game_info_says_what_the_openspiel_game_type_says() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 3, "move_limit": 77})
    kind = game.get_type()
    mine = mauseloch.GAMES["mau-mau"].game_type(3, {"move_limit": 77})
    assert mine["max_game_length"] + 2 == game.max_game_length()  # OpenSpiel counts the deal's 2 digits
    assert mine["utility_range"] == (game.min_utility(), game.max_utility())
    assert (mine["dynamics"], kind.dynamics) == ("sequential", pyspiel.GameType.Dynamics.SEQUENTIAL)
    assert (mine["information"], kind.information) == ("imperfect", pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert (mine["utility"], kind.utility) == ("zero-sum", pyspiel.GameType.Utility.ZERO_SUM)
    assert (mine["reward_model"], kind.reward_model) == ("terminal", pyspiel.GameType.RewardModel.TERMINAL)
    assert mine["players"] == (kind.min_num_players, kind.max_num_players)
    assert mauseloch.GAMES["mausgeflippt"].game_type()["dynamics"] == "reactions"
    assert mauseloch.GAMES["aus-die-maus"].game_type(4)["max_game_length"] is None


@pytest.mark.parametrize(
    "params",
    [{"players": 6}, {"players": 1}, {"move_limit": 0}, {"deals": 0}, {"ace_skips": 3}, {"info_state_tensor": 1}],
)
def test_load_game_refuses_bad_parameters(params: dict[str, object]) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError)):
        pyspiel.load_game("mauseloch_maumau", params)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("mauseloch_maumau", {"players": 2, "move_limit": 150}),
        ("mauseloch_maumau", {"players": 3, "no_win_with_jack": True, "seven_draw_then_play": True}),
        ("mauseloch_maumau", {"players": 5, "ace_skips": True, "no_jack_on_jack": True, "move_limit": 120}),
        ("mauseloch_maumau", {"players": 3, "info_state_tensor": True, "move_limit": 60, "deals": 1000}),
        ("mauseloch_ausdiemaus", {"players": 3}),
        ("mauseloch_ausdiemaus", {"players": 6, "deck": "small", "chips": 3}),
    ],
)
def test_openspiel_checks_for_python_games(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's random simulation of its own test suite (clones, pickling, serialise round
    trip, returns in range) and its C++ ``random_sim_test`` consistency checks."""
    # imported here: a module-level unittest class would bring its own tests into this file
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    game = pyspiel.load_game(name, params)
    np.random.seed(5)  # the sim test draws with NumPy's global generator
    GamesSimTest("test_pig").sim_game(game)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_deal_is_the_engine_game_of_that_seed_and_returns_are_rank_rewards() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 3, "ace_skips": True})
    state = game.new_initial_state()
    assert state.is_chance_node()
    _deal(state, 4242)
    engine = new_game("mau-mau", 3, 4242, {"ace_skips": True})
    assert state.legal_actions() == sorted(engine.legal_actions())
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(state.current_player(), action) == engine.move_of(action)
        state.apply_action(action)
        engine.play(engine.move_of(action))
    assert engine.is_over
    assert state.returns() == rank_rewards(engine.result())
    assert sum(state.returns()) == pytest.approx(0.0)


def test_tensors_are_the_pettingzoo_observation() -> None:
    """The same deal and moves through the PettingZoo env (the compiled kernel) and OpenSpiel:
    every seat's observation tensor equals the env's observation at every step."""
    game = pyspiel.load_game("mauseloch_maumau", {"players": 3, "move_limit": 80})
    state = game.new_initial_state()
    _deal(state, 77)
    env = maumau_v0.env(players=3, move_limit=80)
    env.reset(seed=77)
    rng = np.random.default_rng(3)
    steps = 0
    while not state.is_terminal():
        for seat in range(3):
            want = env.observe(f"player_{seat}")["observation"]
            np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat), np.float32), want)
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        env.step(action)
        steps += 1
    assert steps > 10


def test_information_state_hides_rival_cards_and_resampling_keeps_it() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 2})
    state = game.new_initial_state()
    _deal(state, 11)
    draw = new_game("mau-mau", 2, 11).action_id("draw")
    rng = np.random.default_rng(0)
    # play until each seat has drawn at least once
    drew = set()
    while len(drew) < 2 and not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        action = draw if draw in legal else int(rng.choice(legal))
        if action == draw:
            drew.add(seat)
        state.apply_action(action)
    assert drew == {0, 1}
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    hand1 = new_game("mau-mau", 2, 11).hand(1)
    assert " ".join(hand1) in theirs and " ".join(hand1) not in mine
    assert ":draw+1" in mine  # a rival's draw: only how many
    assert re.search(r"0:draw\+[789TJQKA][CSHD]", mine)  # its own draws: the card
    assert re.search(r"0:draw\+[789TJQKA][CSHD]", theirs) is None
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(8)]
    for sample in samples:
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
    assert len({str(s) for s in samples}) > 1  # the hidden cards are dealt again


def test_serialise_round_trip_mid_game() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 3, "no_jack_on_jack": True})
    state = game.new_initial_state()
    _deal(state, 9)
    _play_random(state, np.random.default_rng(2), 25)
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game)
    assert str(again) == str(state)
    assert again.information_state_string(1) == state.information_state_string(1)


def test_openspiel_ismcts_plays_mau_mau() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"players": 3, "move_limit": 60})
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, max_simulations=20,
        random_state=np.random.RandomState(1),
    )  # fmt: skip
    state = game.new_initial_state()
    _deal(state, 5)
    rng = np.random.default_rng(4)
    for _ in range(6):
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)


@pytest.mark.slow
def test_openspiel_mccfr_lowers_nash_conv_on_a_small_variant() -> None:
    """Four deals, four moves: a game small enough to measure exploitability exactly."""
    game = pyspiel.load_game("mauseloch_maumau", {"players": 2, "deals": 4, "move_limit": 4})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    before = exploitability.nash_conv(game, solver.average_policy())
    np.random.seed(0)
    for _ in range(800):
        solver.iteration()
    after = exploitability.nash_conv(game, solver.average_policy())
    assert before > 0.5
    assert after < before / 3


@pytest.mark.slow
def test_openspiel_policy_gradient_trains_on_mau_mau() -> None:
    torch = pytest.importorskip("torch")
    from open_spiel.python.pytorch import policy_gradient

    torch.manual_seed(0)
    env = rl_environment.Environment(
        "mauseloch_maumau", chance_event_sampler=rl_environment.ChanceEventSampler(seed=3), players=2, move_limit=40
    )
    size = env.observation_spec()["info_state"][0]
    assert size == 156
    agents = [
        policy_gradient.PolicyGradient(p, size, 47, loss_str="a2c", hidden_layers_sizes=[16], batch_size=2)
        for p in range(2)
    ]
    before = [p.detach().clone() for p in agents[0]._net_torso.parameters()]
    for _ in range(4):
        ts = env.reset()
        while not ts.last():
            out = agents[ts.observations["current_player"]].step(ts)
            assert out.action in ts.observations["legal_actions"][ts.observations["current_player"]]
            ts = env.step([out.action])
        for agent in agents:
            agent.step(ts)
    after = list(agents[0]._net_torso.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))


def test_tensors_stay_exact_when_read_only_now_and_then() -> None:
    """A learner reads its own seat's tensor only now and then. Deal 4 at five seats, played by
    heuristic bots: between the reads after move 0 and move 11 the draw pile runs out, the
    discard pile is shuffled into it and grows back to one card, another card: the flags must
    show the pile as it is, not as it was."""
    engine = new_game("mau-mau", 5, 4)
    bots = [make_bot("mau-mau", "heuristic", 40 + s) for s in range(5)]
    moves = []
    while len(moves) < 11:
        seat = engine.to_move
        moves.append(engine.action_id(bots[seat].choose(engine.typed_view(seat), engine.legal_moves())))
        engine.play(engine.move_of(moves[-1]))
    assert any(e["type"] == "reshuffle" for e in engine.events) and len(engine.discard) == 1
    state = pyspiel.load_game("mauseloch_maumau", {"players": 5}).new_initial_state()
    _deal(state, 4)
    start, size = next((s, n) for name, s, n, _ in observation_fields(5) if name == "discard")
    for seat in range(5):
        state.observation_tensor(seat)
    for action in moves:
        state.apply_action(action)
    truth = np.zeros(size, np.float32)
    truth[engine.discard] = 1.0
    for seat in range(5):
        np.testing.assert_array_equal(
            np.asarray(state.observation_tensor(seat), np.float32)[start : start + size], truth
        )


def test_aus_die_maus_resample_keeps_every_information_state() -> None:
    game = pyspiel.load_game("mauseloch_ausdiemaus", {"players": 3})
    state = game.new_initial_state()
    _deal(state, 5)
    for _ in range(20):
        state.apply_action(0)
    sample = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for seat in range(3):
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_string(seat) == state.observation_string(seat)
    before = sample.information_state_string(0)
    sample.apply_action(0)  # the sample's own flips extend what was known (perfect recall)
    assert sample.information_state_string(0).startswith(before + " flip(seat=")


# --------------------------------------------------------------------------- the deal's chance nodes


@pytest.mark.parametrize("name", ["mauseloch_maumau", "mauseloch_ausdiemaus"])
def test_the_default_deal_is_chance_nodes_of_at_most_256_outcomes(name: str) -> None:
    """OpenSpiel's samplers build a chance node's whole outcome list: 65,536 seeds in one node
    cost milliseconds a game, so the seed is chosen a base-256 digit at a time."""
    game = pyspiel.load_game(name)
    assert game.deals == mos.DEALS == 1 << 16
    state = game.new_initial_state()
    rng = np.random.default_rng(6)
    digits = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) <= 256 and sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert state.legal_actions() == [a for a, _ in outcomes]
        state.apply_action(int(rng.choice([a for a, _ in outcomes])))
        digits += 1
    assert digits == 2 and not state.is_terminal()


@pytest.mark.parametrize("deals", [1, 4, 256, 257, 1000])
def test_every_seed_is_dealt_with_probability_one_over_deals(deals: int) -> None:
    """The algorithms that enumerate chance outcomes (best response, expected values) see the
    same game as before the split: each seed once, with probability exactly 1 / deals, and the
    state after its digits is the engine game of that seed."""
    game = pyspiel.load_game("mauseloch_maumau", {"players": 2, "deals": deals})
    seeds: dict[int, float] = {}
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if not state.is_chance_node():
            seed = state._deal
            assert seed not in seeds
            seeds[seed] = p
            assert mos.deal_actions(deals, seed) == state.history()
            continue
        for action, q in state.chance_outcomes():
            child = state.clone()
            child.apply_action(action)
            stack.append((child, p * q))
    assert sorted(seeds) == list(range(deals))
    assert all(p == pytest.approx(1.0 / deals, rel=1e-12) for p in seeds.values())
    # the last seed's state is the engine's game of that seed
    state = game.new_initial_state()
    _deal(state, deals - 1)
    assert state.legal_actions() == sorted(new_game("mau-mau", 2, deals - 1).legal_actions())


def test_a_digit_that_is_no_outcome_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("mauseloch_maumau", {"deals": 300})  # digits: 0..1, then 0..255 or 0..43
    state = game.new_initial_state()
    with pytest.raises((ValueError, pyspiel.SpielError)):
        state.apply_action(2)
    assert str(state) == str(game.new_initial_state())
    state.apply_action(1)
    assert [a for a, _ in state.chance_outcomes()] == list(range(44))
    with pytest.raises((ValueError, pyspiel.SpielError)):
        state.apply_action(44)
    state.apply_action(43)
    assert state._deal == 299 and not state.is_chance_node()
    with pytest.raises(ValueError, match="out of range"):
        mos.deal_actions(300, 300)


# --------------------------------------------------------------------------- perfect recall


def test_the_default_game_claims_no_information_state_tensor_and_gives_none() -> None:
    """A summary tensor under a perfect-recall claim merges information sets for Deep CFR or
    NFSP; the default game says it has no information-state tensor, and its perfect-recall
    observer has the exact string and no tensor. rl_environment learns on the observation."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("mauseloch_maumau")
    assert game.get_type().provides_information_state_string
    assert not game.get_type().provides_information_state_tensor
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert observation.tensor is None and observation.dict == {}
    state = game.new_initial_state()
    _deal(state, 3)
    assert observation.string_from(state, 0) == state.information_state_string(0)
    env = rl_environment.Environment("mauseloch_maumau")
    assert env.observation_spec()["info_state"] == (observation_size(2),)


def _tensor_of_every_information_state(params: dict[str, object], games: int, seed: int) -> tuple[int, int]:
    """Random games: every decision node's information-state tensor and string of every seat
    (and of samples from ``resample_from_infostate``) must determine each other. Returns the
    decision nodes and the distinct information states seen."""
    game = pyspiel.load_game("mauseloch_maumau", params)
    rng = np.random.default_rng(seed)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    string_of: dict[bytes, str] = {}
    tensor_of: dict[str, bytes] = {}
    nodes = 0

    def note(state: pyspiel.State, seat: int) -> None:
        tensor = np.asarray(state.information_state_tensor(seat), np.float32).tobytes()
        string = state.information_state_string(seat)
        assert string_of.setdefault(tensor, string) == string, "two information states share a tensor"
        assert tensor_of.setdefault(string, tensor) == tensor, "one information state, two tensors"

    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            nodes += 1
            for seat in range(game.num_players()):
                note(state, seat)
            if rng.random() < 0.05:  # a sample keeps the resampling seat's information state
                seat = state.current_player()
                note(state.resample_from_infostate(seat, sampler), seat)
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return nodes, len(tensor_of)


def test_the_information_state_tensor_is_perfect_recall() -> None:
    """``info_state_tensor=True``: the game type says it has the tensor, and over random games
    distinct information states have distinct tensors (the issue's setting: 2 players, 64 deals,
    where the summary merged 120 of 8,702 decision nodes' information states)."""
    params = {"players": 2, "deals": 64, "move_limit": 40, "info_state_tensor": True}
    game = pyspiel.load_game("mauseloch_maumau", params)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [2 + 32 + 1 + 32 + 40 * (2 + 47 + 1 + 32)]
    nodes, states = _tensor_of_every_information_state(params, games=100, seed=1)
    assert nodes > 2000 and states > nodes  # both seats' states at every node


@pytest.mark.slow
def test_the_information_state_tensor_is_perfect_recall_at_five_seats_with_every_option() -> None:
    params = {"players": 5, "deals": 200, "move_limit": 100, "info_state_tensor": True, "ace_skips": True,
              "seven_draw_then_play": True, "no_jack_on_jack": True, "no_win_with_jack": True}  # fmt: skip
    nodes, states = _tensor_of_every_information_state(params, games=30, seed=2)
    assert nodes > 1000 and states > nodes
