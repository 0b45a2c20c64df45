"""A seat's update as the table writes it (protocol.UpdateFrame: the game's view struct encoded
as it is, the live state encoded once for every seat) is the very JSON of the documented
:class:`~mauseloch.server.protocol.Update` built from the view's and the events' JSON forms."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch import event_for
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.protocol import Update, UpdateFrame, encode
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.storage.store import Store
from mauseloch.server.table import frames
from mauseloch.server.table.frames import refusals

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]  # the run_async fixture (tests/conftest.py)


def test_the_frame_has_the_update_s_fields_in_its_order() -> None:
    assert UpdateFrame.__struct_fields__ == Update.__struct_fields__
    assert UpdateFrame.__struct_config__.tag == Update.__struct_config__.tag


def new_table(store: Store, seed: int) -> TableRow:
    record = mauseloch.new_game("mau-mau", players=3, seed=seed).record()
    row = TableRow(
        id=f"t{seed}", game="mau-mau", title="", players=3, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), moves=[], by=[], clock="normal",
        seats=[SeatRow(seat=s, kind="human", name=f"P{s}", token_hash=f"h{s}") for s in range(3)],
    )  # fmt: skip
    store.create_table(row)
    return row


def test_every_seat_s_frame_is_the_documented_update(tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    hub = LocalHub()
    session = TableSession(new_table(store, 5), store, hub, Settings())
    conns = [Connection(seat=s) for s in (0, 1, 2, None)]
    for conn in conns:
        hub.subscribe(session.id, conn)
    rng = random.Random(5)
    checked = private = 0

    async def run() -> None:
        nonlocal checked, private
        session.start()
        while not session.state.game.is_over and checked < 400:
            seq = session.state.seq
            seat = session.state.game.to_move
            assert seat is not None
            await session.apply(seat, rng.choice(session.state.game.legal_moves(seat)), session.version)
            new = session.state.events[seq:]
            private += any("private" in e for e in new)
            for conn in conns:
                text = conn.outbox.get_nowait()
                assert isinstance(text, str) and conn.outbox.empty()
                sent = json.loads(text)
                expected = Update(
                    version=session.version,
                    seq=session.state.seq,
                    view=session.state.game.view(conn.seat),
                    events=[e for e in (event_for(ev, conn.seat) for ev in new) if e is not None],
                    by=None,
                    live=sent["live"],  # its clock reading is the moment it was built
                    refused=refusals(session.state.game, conn.seat),
                )
                assert text == encode(expected)
                checked += 1
        await session.stop()

    run_async(run())
    store.close()
    assert session.state.game.is_over and private > 0  # the frames of hidden draws were compared too
    assert checked > 40


def test_nothing_is_built_for_a_table_nobody_watches(
    tmp_path: Path, run_async: RunAsync, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move at a table without listeners builds no live state and no view (a game of bots at
    night, say); once someone listens, the live state is built once a move, for every seat."""
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    hub = LocalHub()
    session = TableSession(new_table(store, 7), store, hub, Settings())
    built = {"live": 0, "views": 0}
    live, view = frames.live, session.state.game.typed_view

    def counted_live(state: Any, now: float) -> Any:
        built["live"] += 1
        return live(state, now)

    def counted_view(seat: int | None) -> Any:
        built["views"] += 1
        return view(seat)

    monkeypatch.setattr(frames, "live", counted_live)
    session.state.game.typed_view = counted_view  # type: ignore[method-assign]
    rng = random.Random(7)

    async def move() -> None:
        seat = session.state.game.to_move
        assert seat is not None
        await session.apply(seat, rng.choice(session.state.game.legal_moves(seat)), session.version)

    async def run() -> None:
        session.start()
        for _ in range(3):
            await move()
        assert built == {"live": 0, "views": 0}
        conns = [Connection(seat=0), Connection(seat=1), Connection(seat=None)]
        for conn in conns:
            hub.subscribe(session.id, conn)
        for _ in range(3):
            await move()
        assert built == {"live": 3, "views": 9}
        await session.stop()

    run_async(run())
    store.close()
