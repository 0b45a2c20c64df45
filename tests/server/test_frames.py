"""Every frame a seat gets is its game's documented message: a seat's update as the table writes
it (the game's view struct encoded as it is, the live state encoded once for every seat) is the
very JSON of the :class:`~mauseloch.server.protocol.Update` built from the view's and the events'
JSON forms, and every snapshot, update and presence frame of every game decodes strictly as the
struct the JSON Schema (docs/events.schema.json) is written from."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Union

import msgspec
import pytest

import mauseloch
from mauseloch import event_for
from mauseloch.core.registry import GAMES
from mauseloch.core.schema import seen_event_types, view_types
from mauseloch.server.hub import Connection, LocalHub
from mauseloch.server.protocol import (
    ClockPing,
    ErrorMsg,
    Pong,
    PresenceMsg,
    Snapshot,
    Update,
    WindowMsg,
    encode,
    refusals,
)
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.storage.store import Store
from mauseloch.server.table import frames

RunAsync = Callable[[Coroutine[Any, Any, Any]], Any]  # the run_async fixture (tests/conftest.py)


def frame_type(game: str) -> Any:
    """What a seat of ``game`` may be sent, as the schema's structs (checked strictly)."""
    view, seen = view_types(game)[0], Union[seen_event_types(game)]  # noqa: UP007
    return Union[Snapshot[view, seen], Update[view, seen], PresenceMsg, ErrorMsg, Pong, ClockPing, WindowMsg]  # type: ignore[valid-type]  # noqa: UP007


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_frame_of_every_game_is_its_documented_message(game: str, tmp_path: Path, run_async: RunAsync) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    record = mauseloch.new_game(game, players=3, seed=3).record()
    row = TableRow(id="t", game=game, title="", players=3, options=record["options"], seed=record["seed"],
                   deck=record["deck"], status="playing", created=now(), clock="fast",
                   seats=[SeatRow(seat=0, kind="human", name="Anna", token_hash="h0"),
                          *(SeatRow(seat=s, kind="bot", name=f"Bot {s}", bot="random") for s in (1, 2))])  # fmt: skip
    store.create_table(row)
    hub = LocalHub()
    session = TableSession(row, store, hub, Settings(bot_delay=0.0, clock_scale=0.01))
    decoder = msgspec.json.Decoder(frame_type(game))
    seen: dict[str, int] = {}

    async def run() -> None:
        conns = [Connection(seat=0), Connection(seat=None)]
        session.start()
        for conn in conns:
            session.attach(conn)
        session.set_pace(0, False, 1.5)  # a presence frame: the bots' pace
        for _ in range(200):
            await asyncio.sleep(0.005)
            if session.state.game.is_over:
                break
            seat = session.state.game.to_move
            if seat == 0 and not session.busy:
                await session.apply(0, session.state.game.legal_moves(0)[0], session.version)
        await session.stop()
        for conn in conns:
            while not conn.outbox.empty():
                text = conn.outbox.get_nowait()
                assert text is not None
                message = decoder.decode(text)  # unknown fields, missing fields, wrong types: refused
                seen[type(message).__name__] = seen.get(type(message).__name__, 0) + 1

    run_async(run())
    store.close()
    assert seen.get("Snapshot") == 2 and seen.get("Update", 0) > 4 and seen.get("PresenceMsg", 0) >= 1


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
            new = session.state.game.events_since(seq)
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
