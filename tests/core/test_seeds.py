"""The seed streams keep their numbers: a recorded game, the spec's vectors, a simulator's report
and a trained model replay only while every stream stays what it was when they were made."""

from __future__ import annotations

import mauseloch.core.seeds as seeds
from mauseloch.core.engine import derive_seed

STREAMS = {
    "STREAM_DEAL": 1, "STREAM_RESHUFFLE": 2, "STREAM_DETERMINIZE": 3,
    "STREAM_ENGINE": 100, "STREAM_TIES": 101, "STREAM_BOTS": 200, "STREAM_BOOTSTRAP": 300, "STREAM_SPEED": 500,
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
