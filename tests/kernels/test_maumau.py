"""The batched numba Mau-Mau plays exactly the engine's games: over 10,000 seeded games with
random policies (one seeded numpy generator picks, the same pick is fed to both), every step's
legal actions, the chosen action's effect on the whole game state, the observation, the rewards
and each game's end (reason, moves, ranks, cards, points) are compared; and ``simulate
mau-mau`` with random bots gives through the kernel the report the engine gives."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mauseloch
from mauseloch.core.engine import derive_seed
from mauseloch.games.maumau import CARD_ID, SUITS, MauMau
from mauseloch.games.maumau import kernel as kernel
from mauseloch.games.maumau.simulation import run_kernel
from mauseloch.study import simulate as sim

# (players, options, games to finish): every player count and every option, alone and together.
CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (2, {}, 2000),
    (3, {"ace_skips": True}, 1200),
    (4, {}, 2000),
    (5, {"seven_draw_then_play": True}, 1200),
    (3, {"no_jack_on_jack": True}, 1200),
    (4, {"no_win_with_jack": True}, 1200),
    (5, {"ace_skips": True, "seven_draw_then_play": True, "no_jack_on_jack": True, "no_win_with_jack": True}, 800),
    (2, {"move_limit": 25, "no_win_with_jack": True}, 600),
]
SLOTS = 64


def engine_state(g: MauMau) -> list[int]:
    """The engine's whole game state in the kernel's terms (white-box, like the Aus die Maus test)."""
    return [
        g.to_move, g.top, g.wish, g.penalty, g.direction, g.drawn, len(g.draw_pile), len(g.discard),
        *g.hands, *g.draw_pile, *g.discard,
    ]  # fmt: skip


STATE_COLS = [kernel.I_TO_MOVE, kernel.I_TOP, kernel.I_WISH, kernel.I_PENALTY, kernel.I_DIR, kernel.I_DRAWN,
              kernel.I_PILE, kernel.I_DISC]  # fmt: skip


def kernel_states(batch: kernel.MauMauBatch) -> list[list[int]]:
    """``engine_state`` of every slot, read from the kernel's arrays (one conversion per step)."""
    head = batch.ints[:, STATE_COLS].tolist()
    hands = batch.ints[:, kernel.I_HANDS : kernel.I_HANDS + batch.players].tolist()
    cards = batch.cards.tolist()
    out = []
    for k, h in enumerate(head):
        pile, disc = h[6], h[7]
        out.append(h + hands[k] + cards[k][:pile] + cards[k][kernel.DISC : kernel.DISC + disc])
    return out


def legal_lists(masks: np.ndarray) -> list[list[int]]:
    """Every slot's legal action ids, in increasing order."""
    rows, cols = np.nonzero(masks)
    bounds = np.searchsorted(rows, np.arange(masks.shape[0] + 1)).tolist()
    ids = cols.tolist()
    return [ids[bounds[k] : bounds[k + 1]] for k in range(masks.shape[0])]


def obs_from_view(view: dict[str, Any]) -> list[int]:
    """The documented observation up to the rivals' history (which needs the moves before the
    view: tests/bots/test_learned.py compares it), built from the seat's public view only."""
    obs = [0] * kernel.OBS_RIVALS
    seat, n = view["seat"], view["players"]
    for c in view["hand"]:
        obs[CARD_ID[c]] = 1
    obs[32 + CARD_ID[view["top"]]] = 1
    if view["wish"]:
        obs[64 + SUITS.index(view["wish"])] = 1
    obs[68] = view["penalty"]
    obs[69] = view["direction"]
    obs[70] = int(view["deciding_drawn"])
    for j in range(n):
        obs[71 + j] = view["hand_counts"][(seat + j) % n]
    obs[76] = view["draw_pile"]
    obs[77] = view["discard_pile"]
    for c in view["discard"]:
        obs[78 + CARD_ID[c]] = 1
    obs[110] = n
    obs[111] = seat
    return obs


def rewards_from(ranks: list[int]) -> list[float]:
    n = len(ranks)
    return [sum((o > r) - (o < r) for o in ranks) / (n - 1) for r in ranks]


def new_engine_game(players: int, seed: int, index: int, options: dict[str, Any]) -> MauMau:
    g = mauseloch.new_game("mau-mau", players=players, seed=derive_seed(seed, index), options=options)
    assert isinstance(g, MauMau)
    return g


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "options", "quota"), CONFIGS, ids=[f"{n}p-{i}" for i, (n, _, _) in enumerate(CONFIGS)]
)
def test_kernel_steps_equal_engine(players: int, options: dict[str, Any], quota: int) -> None:
    seed = 7919 * players + len(options)
    batch = kernel.MauMauBatch(SLOTS, players=players, seed=seed, options=options)
    games = [new_engine_game(players, seed, k, options) for k in range(SLOTS)]
    policy = np.random.default_rng(seed)
    finished = 0
    step = 0
    ends: dict[str, int] = {}
    moves = MauMau.ACTIONS  # action id -> move string, as g.move_of gives it
    while finished < quota:
        legal_now = legal_lists(batch.masks)
        picks = policy.random(SLOTS).tolist()  # the policy: a uniform pick among the legal ids
        actions = np.empty(SLOTS, dtype=np.int64)
        check_obs = step % 41
        for k, g in enumerate(games):
            legal = legal_now[k]
            assert g.legal_actions() == legal, f"game {g.seed}: legal actions differ"
            if k % 41 == check_obs:  # the observation against the seat's own view, now and then
                assert batch.to_move[k] == g.to_move
                assert batch.obs[k, : kernel.OBS_RIVALS].tolist() == obs_from_view(g.view(g.to_move))
            a = legal[int(picks[k] * len(legal))]
            actions[k] = a
            g.play(moves[a])
        _, _, rewards, dones = batch.step(actions)
        step += 1
        states = kernel_states(batch)
        done_list = dones.tolist()
        for k, g in enumerate(games):
            if not g.is_over:
                assert not done_list[k]
                assert states[k] == engine_state(g), f"game {g.seed} after {g.move_count} moves"
                continue
            assert done_list[k], f"game {g.seed} ended in the engine only"
            res = g.result()
            fin = batch.final[k].tolist()
            n = players
            assert kernel.REASONS[fin[kernel.F_REASON] - 1] == res["reason"]
            assert fin[kernel.F_MOVES] == g.move_count
            assert fin[kernel.F_RANKS : kernel.F_RANKS + n] == res["ranks"]
            assert fin[kernel.F_CARDS : kernel.F_CARDS + n] == res["cards"]
            assert fin[kernel.F_POINTS : kernel.F_POINTS + n] == res["points"]
            assert rewards[k, :n].tolist() == pytest.approx(rewards_from(res["ranks"]))
            assert float(rewards[k].sum()) == pytest.approx(0.0, abs=1e-6)
            ends[res["reason"]] = ends.get(res["reason"], 0) + 1
            for kind in {e["type"] for e in g.events} & {"reshuffle", "jack_no_win", "take", "reverse"}:
                ends[kind] = ends.get(kind, 0) + 1  # the rare rules these games went through
            finished += 1
            games[k] = new_engine_game(players, seed, int(batch.game_index[k]), options)
            assert states[k] == engine_state(games[k])
        assert not rewards[~dones.astype(bool)].any()
    assert ends.get("out", 0) > quota // 2
    assert ends.get("take", 0) > quota // 5 and ends.get("reverse", 0) > 0
    if "move_limit" in options:
        assert ends.get("move_limit", 0) > 0
    else:  # short games never empty the draw pile
        assert ends.get("reshuffle", 0) > quota // 50
    if options.get("no_win_with_jack"):
        assert ends.get("jack_no_win", 0) > 0


def test_kernel_numbers_games_in_the_order_they_start() -> None:
    batch = kernel.MauMauBatch(3, players=2, seed=5)
    assert batch.game_index.tolist() == [0, 1, 2]
    gen = np.array([1, 0, 0], dtype=np.uint64)
    seen = {0, 1, 2}
    while len(seen) < 10:
        _, _, _, dones = batch.step(batch.random_actions(gen))
        for k in np.flatnonzero(dones):
            assert int(batch.final[k, kernel.F_INDEX]) in seen
            new = int(batch.game_index[k])
            assert new == max(seen) + 1  # slots in increasing order take the next numbers
            seen.add(new)
    _, masks = batch.reset()
    assert batch.game_index.tolist() == [0, 1, 2]
    assert masks.tolist() == kernel.MauMauBatch(3, players=2, seed=5).masks.tolist()


def test_kernel_refuses_illegal_actions_and_changes_nothing() -> None:
    batch = kernel.MauMauBatch(4, players=3, seed=11)
    before = (batch.ints.copy(), batch.cards.copy(), batch.obs.copy(), batch.masks.copy())
    gen = np.array([2, 0, 0], dtype=np.uint64)
    actions = batch.random_actions(gen)
    illegal = next(a for a in range(kernel.NUM_ACTIONS) if not batch.masks[2, a])
    actions[2] = illegal
    with pytest.raises(ValueError, match="not legal in game slot 2"):
        batch.step(actions)
    for bad in ([0, 0, 0], np.zeros(4, dtype=np.float64), [-1, 0, 0, 0], [47, 0, 0, 0]):
        with pytest.raises(ValueError):
            batch.step(bad)
    after = (batch.ints, batch.cards, batch.obs, batch.masks)
    assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
    with pytest.raises(ValueError, match="players"):
        kernel.MauMauBatch(2, players=6)
    with pytest.raises(ValueError, match="option"):
        kernel.MauMauBatch(2, players=3, options={"aces": True})
    with pytest.raises(ValueError, match="num_games"):
        kernel.MauMauBatch(0)
    with pytest.raises(ValueError, match="seed"):
        kernel.MauMauBatch(2, seed=-1)


def test_batch_takes_numpy_integers_as_the_engine_does() -> None:
    """``MauMauBatch(np.int64(8), seed=np.uint64(…))`` deals the games plain ints deal."""
    plain = kernel.MauMauBatch(8, players=3, seed=5)
    numpy = kernel.MauMauBatch(np.int64(8), players=np.int32(3), seed=np.uint64(5))
    assert np.array_equal(plain.obs, numpy.obs) and np.array_equal(plain.masks, numpy.masks)


def test_kernel_action_table_is_the_engines() -> None:
    g = mauseloch.new_game("mau-mau", players=3, seed=1)
    assert g.num_actions == kernel.NUM_ACTIONS
    for a in range(kernel.NUM_ACTIONS):
        move = g.move_of(a)
        if move in ("draw", "pass", "take"):
            assert kernel.ACT_CARD[a] == -1
            assert a == {"draw": kernel.DRAW_A, "pass": kernel.PASS_A, "take": kernel.TAKE_A}[move]
        else:
            card, _, wish = move.partition(":")
            assert kernel.ACT_CARD[a] == CARD_ID[card]
            assert kernel.ACT_WISH[a] == (SUITS.index(wish) if wish else -1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, []),
        (4, []),
        (5, ["ace_skips=true", "no_win_with_jack=true"]),
        (3, ["move_limit=20", "no_jack_on_jack=true"]),
    ],
)
def test_simulate_random_uses_the_kernel_and_reports_as_the_engine(players: int, options: list[str]) -> None:
    spec = sim.make_spec("mau-mau", players, "random", 123, options)
    assert sim.chunk_runner(spec) is run_kernel
    engine_spec = sim.make_spec("mau-mau", players, "random", 123, options, engine_only=True)
    assert sim.chunk_runner(engine_spec) is sim.run_games
    want = sim.report(engine_spec, sim.simulate(engine_spec, 300, workers=1))
    got = sim.report(spec, sim.simulate(spec, 300, workers=1))
    assert got == want
    assert sim.report(spec, sim.simulate(spec, 300, workers=2)) == want


def test_simulate_with_other_bots_keeps_the_engine() -> None:
    spec = sim.make_spec("mau-mau", 3, "heuristic,random,random", 1, [])
    assert sim.chunk_runner(spec) is sim.run_games
