"""The JAX Mau-Mau (``mauseloch.envs.jax``) plays exactly the engine's games: the spec's vectors
step by step, and seeded games with random legal actions drawn inside JAX (one compiled, vmapped
roll-out per player count), every step's whole state (seat to move, top card, wish, penalty,
direction, the card being decided on, both piles card by card, every hand), legal actions,
rewards and end compared with the engine playing the same actions, and the observation compared
with the environments' (``PublicLog``) for a sample of the games.

``MAUSELOCH_JAX_GAMES`` sets how many random games (default :data:`GAMES`, shared out over
:data:`CONFIGS` in their proportions); the 10,000 games of docs/learning-figures.md are
``MAUSELOCH_JAX_GAMES=10000 pytest tests/games/test_maumau_jax.py -k random_games -s``."""

from __future__ import annotations

import functools
import json
import os
import time
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = jax.numpy

import mauseloch  # noqa: E402
from mauseloch.envs.jax import MauMau, seed_of  # noqa: E402
from mauseloch.envs.maumau_obs import PublicLog, rank_rewards  # noqa: E402
from mauseloch.games.maumau import CARD_ID  # noqa: E402
from mauseloch.games.maumau import MauMau as Engine  # noqa: E402
from tests.paths import ROOT  # noqa: E402

ACTIONS = Engine.ACTIONS
REASONS = ("out", "stalemate", "move_limit")


@functools.cache
def _env(players: int) -> MauMau:
    return MauMau(players=players)


HASH = 0x9E3779B1  # a pile's signature: sum of (card + 1) * HASH**i over its cards, modulo 2**32


@functools.cache
def _opts(players: int, options: str) -> np.ndarray:
    """``State._opts`` of a game under ``options`` (JSON), checked by the environment."""
    return MauMau(players=players, **json.loads(options))._opts


def _pile_hash(cards: list[int]) -> int:
    h, f = 0, 1
    for c in cards:
        h = (h + (c + 1) * f) & 0xFFFFFFFF
        f = (f * HASH) & 0xFFFFFFFF
    return h


_POWERS = np.asarray([pow(HASH, i, 1 << 32) for i in range(32)], np.uint32)


def _jax_pile_hash(cards: Any, length: Any) -> Any:
    live = jnp.arange(32) < length
    return jnp.sum(jnp.where(live, (cards.astype(jnp.uint32) + 1) * jnp.asarray(_POWERS), 0), dtype=jnp.uint32)


def _mask_bits(mask: Any) -> Any:
    """The 47 legal flags as two words (ids 0..31, 32..46)."""
    bits = jnp.left_shift(jnp.uint32(1), jnp.arange(47, dtype=jnp.uint32) % 32)
    on = jnp.where(mask, bits, 0)
    return jnp.sum(on[:32], dtype=jnp.uint32), jnp.sum(on[32:], dtype=jnp.uint32)


def _engine_row(g: Engine) -> list[int]:
    """The engine's whole state in the terms the roll-out reads (piles as signatures)."""
    return [-1 if g.to_move is None else g.to_move, g.top, g.wish, g.penalty, g.direction, g.drawn,
            len(g.draw_pile), len(g.discard), _pile_hash(g.draw_pile), _pile_hash(g.discard), *g.hands]  # fmt: skip


CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (2, {}, 2000),
    (3, {"ace_skips": True}, 1000),
    (4, {}, 1500),
    (5, {"seven_draw_then_play": True}, 1000),
    (3, {"no_jack_on_jack": True}, 1500),
    (4, {"no_win_with_jack": True}, 1500),
    (5, {"ace_skips": True, "seven_draw_then_play": True, "no_jack_on_jack": True, "no_win_with_jack": True}, 1000),
    (2, {"move_limit": 25, "no_win_with_jack": True}, 500),
]
GAMES = 2000  # random games in the suite, one batch a configuration
BATCH = 500  # games a compiled call plays at once: one shape, so one compilation per player count
CHUNK = 32  # steps a roll-out call plays
OBSERVED = 48  # games of each batch whose observations are compared at every step
# The roll-outs below are compiled once per player count and then run for a second or two: LLVM's
# optimisations of XLA's CPU code cost more compile time (about 3x) than they save in run time.
# The results are the same: the observations are compared exactly, the rest are integers.
QUICK_COMPILE = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


@functools.cache
def _roller(players: int) -> Any:
    """CHUNK steps of every game of a batch: the action given in ``forced`` (-1: a uniformly
    random legal one, drawn in JAX); each step's action and the state as ``_engine_row`` reads it."""
    step = jax.vmap(_env(players).step)
    pile_hash = jax.vmap(_jax_pile_hash)
    mask_bits = jax.vmap(_mask_bits)

    def one(carry: tuple[Any, Any], forced: Any) -> tuple[tuple[Any, Any], dict[str, Any]]:
        state, key = carry
        key, sub = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jnp.where(forced >= 0, forced, jax.random.categorical(sub, logits).astype(jnp.int32))
        state = step(state, action)
        low, high = mask_bits(state.legal_action_mask)
        row = jnp.stack([state._to_move, state._top, state._wish, state._penalty, state._dir, state._drawn,
                         state._pile, state._ndisc], axis=1)  # fmt: skip
        seen = {
            "action": action, "row": row, "hashes": jnp.stack([pile_hash(state._draw, state._pile),
                                                                pile_hash(state._discard, state._ndisc)], axis=1),
            "hands": state._hands, "mask": jnp.stack([low, high], axis=1), "rewards": state.rewards,
            "over": state._over, "terminated": state.terminated, "obs": state.observation[:OBSERVED],
        }  # fmt: skip
        return (state, key), seen

    return jax.jit(lambda state, key, forced: jax.lax.scan(one, (state, key), forced), compiler_options=QUICK_COMPILE)


@functools.cache
def _dealer(players: int) -> Any:
    """A batch of games: from its seed, or (``use_deck``) from its deck, under ``opts``."""
    env = _env(players)

    def deal(seed: Any, deck: Any, use_deck: Any, opts: Any) -> Any:
        dealt, seeded = env._init(deck, seed, opts), env._init_seeded(seed, opts)
        return jax.tree.map(lambda a, b: jnp.where(use_deck, a, b), dealt, seeded)

    return jax.jit(jax.vmap(deal), compiler_options=QUICK_COMPILE)


def _deal(players: int, seeds: list[int], options: list[dict[str, Any]], decks: list[list[str]] | None = None) -> Any:
    """A batch of BATCH games (the given ones first, seeds 0.. after them)."""
    pad = BATCH - len(seeds)
    seeds = seeds + list(range(pad))
    options = options + [options[-1]] * pad
    words = jnp.asarray([[s >> 32, s & 0xFFFFFFFF] for s in seeds], jnp.uint32)
    ids = [[CARD_ID[c] for c in deck] for deck in decks or []]
    ids += [list(range(32))] * (BATCH - len(ids))
    use = jnp.asarray([k < len(decks or []) for k in range(BATCH)])
    opts = jnp.asarray(np.stack([_opts(players, json.dumps(o, sort_keys=True)) for o in options]))
    return _dealer(players)(words, jnp.asarray(ids, jnp.int32), use, opts)


@pytest.mark.slow
def test_the_spec_vectors_step_by_step() -> None:
    """Every vector of tests/vectors/mau-mau.jsonl (played from its deck, under its options):
    the seat to move and the sorted legal moves at each step, then the end, the ranks' rewards."""
    vectors = [json.loads(line) for line in (ROOT / "tests" / "vectors" / "mau-mau.jsonl").read_text().splitlines()]
    for players in sorted({v["players"] for v in vectors}):
        batch = [v for v in vectors if v["players"] == players]
        state = _deal(players, [0] * len(batch), [v["options"] for v in batch], [v["deck"] for v in batch])
        # per step t: the seat to move and the legal ids before move t (after move t - 1)
        to_move = [np.asarray(state._to_move)]
        legal_words = [np.stack([np.asarray(w) for w in jax.vmap(_mask_bits)(state.legal_action_mask)], axis=1)]
        ends: list[dict[str, np.ndarray]] = []
        key = jax.random.key(0)
        longest = max(len(v["steps"]) for v in batch)
        for first in range(0, longest, CHUNK):
            forced = np.full((CHUNK, BATCH), -1, np.int32)
            for k, v in enumerate(batch):
                for t, step in enumerate(v["steps"][first : first + CHUNK]):
                    forced[t, k] = ACTIONS.index(step["move"])
            (state, key), seen = _roller(players)(state, key, jnp.asarray(forced))
            seen_np = {name: np.asarray(value) for name, value in seen.items()}
            to_move += list(seen_np["row"][:, :, 0])
            legal_words += list(seen_np["mask"])
            ends += [{name: seen_np[name][t] for name in ("terminated", "over", "rewards")} for t in range(CHUNK)]
        for k, v in enumerate(batch):
            for t, step in enumerate(v["steps"]):
                where = f"vector {vectors.index(v)}, step {t}"
                word = int(legal_words[t][k][0]) | int(legal_words[t][k][1]) << 32
                assert int(to_move[t][k]) == step["to_move"], where
                assert sorted(ACTIONS[a] for a in range(47) if word >> a & 1) == step["legal"], where
                assert bool(ends[t]["terminated"][k]) == (t == len(v["steps"]) - 1), where
            last = ends[len(v["steps"]) - 1]
            assert REASONS[int(last["over"][k]) - 1] == v["result"]["reason"]
            assert last["rewards"][k].tolist() == pytest.approx(rank_rewards(v["result"]))


def _batches(wanted: int) -> list[tuple[int, dict[str, Any], int, int]]:
    """``wanted`` games shared out over CONFIGS in their proportions (10,000: CONFIGS' own
    counts), as batches of at most BATCH games: (players, options, games, first game)."""
    out = []
    for players, options, share in CONFIGS:
        count = max(1, round(share * wanted / 10_000))
        out += [(players, options, min(BATCH, count - g0), g0) for g0 in range(0, count, BATCH)]
    return out


@pytest.mark.slow
def test_random_games_step_by_step_against_the_engine() -> None:
    started = time.perf_counter()
    wanted = int(os.environ.get("MAUSELOCH_JAX_GAMES", GAMES))
    total = 0
    rare: dict[str, int] = {}
    for players, options, games, first in _batches(wanted):
        seeds = [7919 * players + 104729 * (first + g) + len(options) for g in range(games)]
        state = _deal(players, seeds, [options] * games)
        engines = [mauseloch.new_game("mau-mau", players, s, options) for s in seeds]
        logs = [PublicLog(g) for g in engines[:OBSERVED]]
        hands0 = np.asarray(state._hands).tolist()  # the deal
        for k, g in enumerate(engines):
            assert hands0[k] == list(g.hands), f"deal of seed {seeds[k]}"
        obs0 = np.asarray(state.observation[:OBSERVED])
        for k, log in enumerate(logs):
            np.testing.assert_array_equal(obs0[k], log.observe(engines[k].to_move))
        key = jax.random.key(players * 31 + len(options) + first)
        forced = jnp.full((CHUNK, BATCH), -1, jnp.int32)
        live = list(range(games))
        while live:
            (state, key), seen = _roller(players)(state, key, forced)
            at = np.asarray(live)
            got = {name: np.asarray(value)[:, at].tolist() for name, value in seen.items() if name != "obs"}
            obs = np.asarray(seen["obs"])
            ended = set()
            for t in range(CHUNK):
                for i, k in enumerate(live):
                    if k in ended:
                        continue
                    g = engines[k]
                    a = got["action"][t][i]
                    legal = g.legal_actions()
                    assert a in legal, f"seed {seeds[k]} move {g.move_count}: {ACTIONS[a]} not legal"
                    actor = g.to_move
                    if k < OBSERVED:
                        logs[k].play(a)
                    else:
                        g.play(ACTIONS[a])
                    where = f"seed {seeds[k]} after move {g.move_count}"
                    assert got["row"][t][i] + got["hashes"][t][i] + got["hands"][t][i] == _engine_row(g), where
                    if g.is_over:
                        res = g.result()
                        assert got["terminated"][t][i] and REASONS[got["over"][t][i] - 1] == res["reason"], where
                        assert got["rewards"][t][i] == pytest.approx(rank_rewards(res)), where
                        for kind in {e["type"] for e in g.events} & {"reshuffle", "jack_no_win", "take", "reverse"}:
                            rare[kind] = rare.get(kind, 0) + 1
                        rare[res["reason"]] = rare.get(res["reason"], 0) + 1
                        ended.add(k)
                    else:
                        assert not got["terminated"][t][i] and not any(got["rewards"][t][i]), where
                        bits = sum(1 << b for b in g.legal_actions())
                        assert got["mask"][t][i] == [bits & 0xFFFFFFFF, bits >> 32], where
                    if k < OBSERVED:
                        seat = actor if g.to_move is None else g.to_move  # once over: the last mover's
                        np.testing.assert_array_equal(obs[t][k], logs[k].observe(seat), err_msg=where)
            live = [k for k in live if k not in ended]
        total += games
    took = time.perf_counter() - started
    print(f"\n{total} games in {took:.1f} s; rare rules seen: {rare}")
    assert total == sum(games for _, _, games, _ in _batches(wanted)) >= wanted
    assert rare["reshuffle"] > total / 10 and rare["take"] > total / 2 and rare["reverse"] > total / 2
    assert rare["jack_no_win"] > 0 and rare["move_limit"] > 0


@functools.cache
def _single(players: int) -> tuple[Any, Any]:
    """``init`` and ``step`` of one game at ``players`` seats (default options), compiled."""
    env = _env(players)
    return jax.jit(env.init), jax.jit(env.step)


def test_init_from_a_key_is_the_engine_game_of_its_seed() -> None:
    env = _env(3)
    init, _ = _single(3)
    key = jax.random.key(2026)
    state = init(key)
    seed = seed_of(key)
    assert 0 <= seed < 2**53
    g = mauseloch.new_game("mau-mau", 3, seed)
    assert np.asarray(state._hands).tolist() == list(g.hands) and int(state._top) == g.top
    assert np.flatnonzero(np.asarray(state.legal_action_mask)).tolist() == g.legal_actions()
    np.testing.assert_array_equal(np.asarray(state.observation), PublicLog(g).observe(0))
    assert env.observation_shape == (197,) and env.num_actions == 47 and env.num_players == 3


def test_illegal_actions_end_the_game_as_in_pgx_and_an_ended_game_stays() -> None:
    init, step = _single(3)
    state = init(jax.random.key(1))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    actor = int(state.current_player)
    ended = step(state, illegal)
    assert bool(ended.terminated)
    want = [0.5, 0.5, 0.5]
    want[actor] = -1.0
    assert np.asarray(ended.rewards).tolist() == want
    assert np.asarray(ended.legal_action_mask).all()  # a policy can still sample
    again = step(ended, 0)
    assert not np.asarray(again.rewards).any() and bool(again.terminated)
    assert np.asarray(again._hands).tolist() == np.asarray(ended._hands).tolist()
    for bad in (-1, 47, 1000):
        assert bool(step(state, bad).terminated)


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="ace_skip"):
        MauMau(players=2, ace_skip=True)
    with pytest.raises(ValueError):
        MauMau(players=6)
