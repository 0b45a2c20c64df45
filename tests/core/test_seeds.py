"""The seed streams keep their numbers: a recorded game, the spec's vectors, a simulator's report
and a trained model replay only while every stream stays what it was when they were made."""

from __future__ import annotations

import mauseloch.core.seeds as seeds
from mauseloch.core.engine import GOLDEN, Rng, derive_seed

STREAMS = {
    "STREAM_DEAL": 1, "STREAM_RESHUFFLE": 2, "STREAM_DETERMINIZE": 3,
    "STREAM_ENGINE": 100, "STREAM_TIES": 101, "STREAM_BOTS": 200, "STREAM_BOOTSTRAP": 300, "STREAM_SPEED": 500,
    "STREAM_SETTING": 600,
    "STREAM_LEARNER_SEAT": 77, "STREAM_RIVALS": 100, "STREAM_RESETS": 300, "STREAM_NEXT_SEEDS": 0x5EED,
    "STREAM_SEAT_BOTS": 1000, "STREAM_STANDIN": 2000, "STREAM_STANDIN_FALLBACK": 3000,
    "STREAM_DEAL_SEARCH": 7, "STREAM_PRIOR": 7, "STREAM_PLAYOUTS": 1_000_000, "STREAM_HISTORY": 3_000_000,
    "STREAM_TEACHER": 1, "STREAM_TEACHER_RIVALS": 2, "STREAM_STUDENT_GAMES": 50,
}  # fmt: skip


def test_every_stream_keeps_its_number() -> None:
    assert {name: getattr(seeds, name) for name in dir(seeds) if name.startswith("STREAM_")} == STREAMS


def test_the_streams_of_one_seed_draw_apart() -> None:
    """The deal, the reshuffles and a determinization of one game seed are three generators."""
    drawn = {derive_seed(7, stream) for stream in (seeds.STREAM_DEAL, seeds.STREAM_RESHUFFLE, seeds.STREAM_DETERMINIZE)}
    assert len(drawn) == 3


def _draws(before: Rng, after: Rng) -> int:
    """How many 16-bit draws the generator made from ``before`` to ``after``."""
    outputs = ((after.state - before.state) * pow(GOLDEN, -1, 1 << 64)) % (1 << 64)
    return 4 * outputs + before.words()[2] - after.words()[2]


def test_the_shuffle_is_fisher_yates_with_below() -> None:
    """``Rng.shuffle`` (four places an output unless one of its draws is rejected) shuffles as its
    definition says, ``j = below(i + 1)`` for i from the end, and leaves the generator where
    ``below`` would: for every deck size of the games and around its limit tables, after draws
    left over from an earlier ``below``, over decks whose shuffle rejects a draw."""
    rejected = 0
    for size in (0, 1, 2, 3, 4, 5, 6, 9, 32, 33, 45, 58, 90, 99, 1024, 1025, 1026, 3000, 40000):
        for seed in range(60 if size < 1000 else 3):
            for before in (0, 1, 3):  # draws of an earlier below() left in the generator's output
                fast, slow = Rng(derive_seed(seed, size)), Rng(derive_seed(seed, size))
                for _ in range(before):
                    fast.below(9)
                    slow.below(9)
                start = slow.copy()
                items, want = list(range(size)), list(range(size))
                fast.shuffle(items)
                for i in range(size - 1, 0, -1):
                    j = slow.below(i + 1)
                    want[i], want[j] = want[j], want[i]
                assert items == want and fast.words() == slow.words(), (size, seed, before)
                if size < 1000:
                    rejected += _draws(start, slow) - max(size - 1, 0)
    assert rejected >= 3  # the small decks' shuffles rejected draws too (about one deck in 30)
