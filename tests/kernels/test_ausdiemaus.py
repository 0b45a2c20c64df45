"""The numba kernel plays exactly the engine's games: same deal from the seed, same flips, same
end, same cards and chips — on 10,000 random deals for every player count and both decks."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mauseloch
from mauseloch.core.engine import Rng, derive_seed, mix64
from mauseloch.core.seeds import STREAM_DEAL
from mauseloch.games.ausdiemaus import CARD_ID, CARD_STR, FULL_DECK, SMALL_DECK, kernel
from tests.paths import VECTORS

GAME = "aus-die-maus"
GAMES_PER_CASE = 10_000
CASES = [(n, small) for n in range(2, 7) for small in (True, False)]


def engine_outcome(game: mauseloch.Game) -> tuple[int, int, list[int], list[int]]:
    play = game.play
    flips = 0
    while not game.is_over:
        play("flip")
        flips += 1
    res = game.result()
    return kernel.REASON_CODES[res["reason"]], flips, res["cards"], res["chips"]


@pytest.mark.slow
@pytest.mark.parametrize(("players", "small"), CASES, ids=[f"{n}p-{'small' if s else 'full'}" for n, s in CASES])
def test_kernel_equals_engine_on_seeded_deals(players: int, small: bool) -> None:
    seed = 1000 * players + small
    chips = 5 if small else 9
    reasons, flips, cards, chip_counts = kernel.simulate_range(
        np.uint64(seed), 0, GAMES_PER_CASE, players, small, chips
    )
    options = {"small_deck": small}
    for i in range(GAMES_PER_CASE):
        game = mauseloch.new_game(GAME, players=players, seed=derive_seed(seed, i), options=options)
        got = engine_outcome(game)
        want = (int(reasons[i]), int(flips[i]), cards[i].tolist(), chip_counts[i].tolist())
        assert got == want, f"game {i} (seed {derive_seed(seed, i)}): engine {got}, kernel {want}"


def test_kernel_deals_the_engine_deck() -> None:
    for small in (True, False):
        for seed in range(300):
            engine_deck = mauseloch.new_game(GAME, players=4, seed=seed, options={"small_deck": small}).deck
            assert [CARD_STR[c] for c in kernel.deal_deck(np.uint64(seed), small)] == list(engine_deck)
    big = (1 << 64) - 1  # the whole uint64 range
    assert [CARD_STR[c] for c in kernel.deal_deck(np.uint64(big), False)] == list(
        mauseloch.new_game(GAME, players=4, seed=big).deck
    )


def rejected_draw(seed: int, size: int) -> int:
    """Where the engine's shuffle of ``size`` cards for game ``seed`` rejects a 16-bit draw first
    (the index of the draw, counting from 0), or -1 when it rejects none."""
    state = derive_seed(seed, STREAM_DEAL)
    draw = 0
    for i in range(size - 1, 0, -1):
        limit = 65536 - 65536 % (i + 1)
        while True:
            if draw % 4 == 0:
                state = (state + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
                word = mix64(state)
            v = (word >> (16 * (draw % 4))) & 0xFFFF
            draw += 1
            if v < limit:
                break
            return draw - 1
    return -1


def test_kernel_deals_like_the_engine_after_a_rejected_draw() -> None:
    """The kernel takes an output's four 16-bit draws in a row until one is rejected, then goes
    draw by draw: decks whose shuffle rejects a draw (about one deck in 30), at every place in an
    output, still come out as the engine deals them."""
    for small, size in ((True, len(SMALL_DECK)), (False, len(FULL_DECK))):
        places: set[int] = set()
        seed = 0
        while len(places) < 4:
            first = rejected_draw(seed, size)
            if first >= 0:
                places.add(first % 4)
                engine_deck = mauseloch.new_game(GAME, players=4, seed=seed, options={"small_deck": small}).deck
                assert [CARD_STR[c] for c in kernel.deal_deck(np.uint64(seed), small)] == list(engine_deck)
            seed += 1


def test_kernel_bounded_draws_need_no_division() -> None:
    """``v % n == v - ((v * RECIP16[n]) >> 32) * n`` for every 16-bit draw and every bound."""
    v = np.arange(65536, dtype=np.uint64)
    for n in range(1, kernel.CAP + 1):
        q = (v * kernel.RECIP16[n]) >> np.uint64(32)
        assert np.array_equal(v - q * np.uint64(n), v % np.uint64(n)), n


@pytest.mark.slow
def test_kernel_equals_engine_with_other_chip_counts() -> None:
    rng = Rng(77)
    for players, small, chips in ((2, True, 1), (3, False, 2), (4, False, 30), (5, True, 12), (6, False, 100)):
        decks = []
        base = list(SMALL_DECK if small else FULL_DECK)
        for _ in range(1000):
            rng.shuffle(base)
            decks.append(list(base))
        arr = np.array([[CARD_ID[c] for c in d] for d in decks], dtype=np.int8)
        g = len(decks)
        reasons = np.empty(g, dtype=np.int8)
        flips = np.empty(g, dtype=np.int32)
        cards = np.empty((g, players), dtype=np.int16)
        chip_counts = np.empty((g, players), dtype=np.int16)
        kernel.play_decks(arr, players, chips, reasons, flips, cards, chip_counts)
        for i, deck in enumerate(decks):
            game = mauseloch.new_game(GAME, players=players, deck=deck, options={"small_deck": small, "chips": chips})
            want = (int(reasons[i]), int(flips[i]), cards[i].tolist(), chip_counts[i].tolist())
            assert engine_outcome(game) == want


def test_kernel_fingerprint_lists_grow_without_changing_games() -> None:
    """Start the AM-11 lists with room for one position, so the growing path runs every game."""
    players, chips = 4, 30  # many pile wins without a chip
    flat, ht, chip_counts, st = kernel.new_work(players)
    flat2, ht2, chips2, st2 = kernel.new_work(players)
    for seed in range(300):
        deck = kernel.deal_deck(np.uint64(seed), False)
        tiny = np.empty((3, 1), dtype=np.int64)
        grown = kernel.play_deck_into(deck, players, chips, flat, ht, chip_counts, st, tiny, flat2, ht2, chips2, st2)
        assert grown.shape[1] > 1
        reason, flips, cards, chips_out, _ = kernel.play_deck(deck, players, chips)
        assert (st[kernel.S_REASON], st[kernel.S_FLIPS]) == (reason, flips)
        assert (ht & 0xFFFFFFFF).tolist() == cards.tolist() and chip_counts.tolist() == chips_out.tolist()
    # the seeded batch: a list that has to grow in the middle of a batch changes no game
    for players, small in ((2, True), (4, False), (6, False)):
        chips = 5 if small else 9
        want = kernel.simulate_range(np.uint64(9), 0, 500, players, small, chips)
        got = kernel.simulate_range(np.uint64(9), 0, 500, players, small, chips, 1)
        for w, g in zip(want, got, strict=True):
            assert np.array_equal(w, g)


def test_kernel_fingerprint_hits_are_checked_card_by_card() -> None:
    """With 2 players the AM-11 fingerprint (winner and stack lengths) often repeats while the
    cards differ: every such hit is replayed and compared, and the game goes on like the engine's."""
    players, chips = 2, 9
    flat, ht, chip_counts, st = kernel.new_work(players)
    flat2, ht2, chips2, st2 = kernel.new_work(players)
    lists = np.empty((3, kernel.LIST_SIZE), dtype=np.int64)
    checked = 0
    for seed in range(400):
        deck = kernel.deal_deck(np.uint64(seed), False)
        kernel.play_deck_into(deck, players, chips, flat, ht, chip_counts, st, lists, flat2, ht2, chips2, st2)
        if st[kernel.S_CHECKS] == 0:
            continue
        checked += 1
        game = mauseloch.new_game(
            GAME, players=players, deck=[CARD_STR[c] for c in deck], options={"small_deck": False}
        )
        want = engine_outcome(game)
        assert want == (
            int(st[kernel.S_REASON]),
            int(st[kernel.S_FLIPS]),
            (ht & 0xFFFFFFFF).tolist(),
            chip_counts.tolist(),
        )
        assert want[0] != kernel.ENDLESS
    assert checked > 20


def test_kernel_card_by_card_check_from_a_deal() -> None:
    """White-box: the replay behind a fingerprint hit finds the very position it is given, and
    not a different one with the same fingerprint."""
    players, chips = 3, 9
    flat, ht, chip_counts, st = kernel.new_work(players)
    flat2, ht2, chips2, st2 = kernel.new_work(players)
    deck = kernel.deal_deck(np.uint64(3), False)
    kernel._setup(deck, players, chips, flat, ht, chip_counts, st)
    kernel._replay(players, flat, ht, chip_counts, st, 5)  # the position right after pile win 5
    winner = int(st[kernel.S_WINNER])
    empty = flat[:0], ht[:0], chip_counts[:0], st[:0]
    args = (flat, ht, chip_counts, winner, flat2, ht2, chips2, st2)
    assert kernel._same_position(deck, players, chips, *empty, 5, *args)
    assert not kernel._same_position(deck, players, chips, *empty, 4, *args)
    # the same stack lengths, two different cards of a stack swapped: not the same position
    cap = kernel.CAP
    places = [
        (s * cap + (int(ht[s] >> 32) + k) % cap, s * cap + (int(ht[s] >> 32) + k + 1) % cap)
        for s in range(players)
        for k in range(int(ht[s] & 0xFFFFFFFF) - 1)
    ]
    i, j = next((i, j) for i, j in places if flat[i] != flat[j])
    flat[i], flat[j] = flat[j], flat[i]
    assert not kernel._same_position(deck, players, chips, *empty, 5, *args)
    flat[i], flat[j] = flat[j], flat[i]
    assert kernel._same_position(deck, players, chips, *empty, 5, *args)


def test_kernel_reproduces_the_vectors() -> None:
    path = VECTORS / "aus-die-maus.jsonl"
    for line in path.read_text().splitlines():
        v = json.loads(line)
        deck = np.array([CARD_ID[c] for c in v["deck"]], dtype=np.int8)
        reason, flips, cards, chips, _ = kernel.play_deck(deck, v["players"], v["options"]["chips"])
        assert flips == v["flips"]
        assert reason == kernel.REASON_CODES[v["result"]["reason"]]
        assert cards.tolist() == v["result"]["cards"] and chips.tolist() == v["result"]["chips"]


def kernel_from(game: mauseloch.Game) -> tuple[int, int, list[int], list[int], int]:
    """White-box: the engine's current position handed to ``kernel.play_position``."""
    from mauseloch.games import ausdiemaus as adm

    players = game.players
    stacks = np.zeros((players, 90), dtype=np.int8)
    sizes = np.zeros(players, dtype=np.int64)
    for s, stack in enumerate(game.stacks):  # type: ignore[attr-defined]
        sizes[s] = len(stack)
        stacks[s, : len(stack)] = list(stack)
    phase = game.phase  # type: ignore[attr-defined]
    mode = {adm.NORMAL: 0, adm.START: 4}.get(phase, game.attempts)  # type: ignore[attr-defined]
    reason, flips, cards, chips, loop_from = kernel.play_position(
        stacks, sizes, np.array(game.pile, dtype=np.int8), np.array(game.chips, dtype=np.int64),  # type: ignore[attr-defined]
        game.to_move, mode, game.owner, game.chips_left,  # type: ignore[attr-defined]
    )  # fmt: skip
    return int(reason), int(flips), cards.tolist(), chips.tolist(), int(loop_from)


def test_kernel_plays_on_from_any_engine_position() -> None:
    """Positions in the middle of games (chases included) continue identically."""
    rng = Rng(5)
    for i in range(2000):
        players = 2 + i % 5
        game = mauseloch.new_game(GAME, players=players, seed=derive_seed(31, i))
        for _ in range(rng.below(60)):
            if game.is_over:
                break
            game.play("flip")
        if game.is_over:
            continue
        before = game.move_count
        want = kernel_from(game)
        reason, _, cards, chips = engine_outcome(game)
        assert want[:4] == (reason, game.move_count - before, cards, chips)


def test_kernel_ends_a_looping_position_like_the_engine() -> None:
    """AM-11 in the kernel, including the card-by-card check of a hash hit: the position of
    ``tests/test_ausdiemaus.py`` that repeats (no real deal reaching a loop is known)."""
    from collections import deque

    from mauseloch.games import ausdiemaus as adm

    game = mauseloch.new_game(GAME, players=2, seed=5)
    game.stacks = [deque([0, 0, 1, 0]), deque([1, 0, 0, 1, 0])]  # type: ignore[attr-defined]
    game.pile = []  # type: ignore[attr-defined]
    game.phase = adm.START  # type: ignore[attr-defined]
    assert kernel_from(game) == (kernel.ENDLESS, 9, [2, 7], [0, 0], 3)
    engine_outcome(game)
    assert game.result()["reason"] == "endless" and game.loop_from == 3  # type: ignore[attr-defined]
    # longer loops: the same pattern with more rounds in each stack
    for rounds in range(1, 6):
        a = [0, 0, 1] * rounds + [0]
        b = [1, 0, 0] * rounds + [1, 0]
        game = mauseloch.new_game(GAME, players=2, seed=5)
        game.stacks = [deque(a), deque(b)]  # type: ignore[attr-defined]
        game.pile = []  # type: ignore[attr-defined]
        game.phase = adm.START  # type: ignore[attr-defined]
        want = kernel_from(game)
        reason, flips, cards, chips = engine_outcome(game)
        assert want == (reason, flips, cards, chips, game.loop_from)  # type: ignore[attr-defined]
        assert reason == kernel.ENDLESS
