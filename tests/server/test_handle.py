"""One interface to a table (server/handle.py): the local authority and the proxy of a table owned
by another process both implement it, neither inheriting the other, and the proxy never replays
the game."""

from __future__ import annotations

import inspect
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

import mauseloch
from mauseloch.core.engine import Game
from mauseloch.server.clock import Deadline
from mauseloch.server.handle import TableHandle
from mauseloch.server.hub import LocalHub
from mauseloch.server.ownership import RemoteTable
from mauseloch.server.protocol import TableSummary
from mauseloch.server.records import build
from mauseloch.server.session import Settings, TableSession
from mauseloch.server.storage.rows import SeatRow, TableRow, now
from mauseloch.server.storage.store import Store


def handle_members() -> set[str]:
    return {name for name in vars(TableHandle) if not name.startswith("_")} | set(TableHandle.__annotations__)


def stored_row(moves: int) -> TableRow:
    """A running table of Anna and a bot with ``moves`` moves stored (what the store gives back)."""
    game = mauseloch.new_game("mau-mau", players=2, seed=5)
    played = []
    for _ in range(moves):
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves(seat)[0]
        game.play(move, seat=seat)
        played.append([seat, move])
    record = game.record()
    return TableRow(
        id="t1", game="mau-mau", title="", players=2, options=record["options"], seed=record["seed"],
        deck=record["deck"], status="playing", created=now(), moves=played, by=[None] * moves,
        seats=[SeatRow(seat=0, kind="human", name="Anna", token_hash="ab"),
               SeatRow(seat=1, kind="bot", name="Random bot 2", bot="random")],
    )  # fmt: skip


class OwnerElsewhere:
    """What a RemoteTable asks of its lobby here: the hub, the store, the owner's last summary."""

    def __init__(self, store: Store, written: TableSummary | None = None) -> None:
        self.cluster_hub = LocalHub()
        self.store = store
        self.written = written  # None: the owner wrote none yet, the stored row tells the presence

    def summary_of(self, table_id: str) -> TableSummary | None:
        return self.written


def test_both_implement_every_member_of_the_handle_and_neither_inherits_the_other() -> None:
    assert not issubclass(RemoteTable, TableSession) and not issubclass(TableSession, RemoteTable)
    for cls in (TableSession, RemoteTable):
        missing = [m for m in handle_members() if not hasattr(cls, m) and m not in ("row", "version", "stopping")]
        assert missing == [], cls
    for name in ("apply", "attach", "detach", "set_pace", "write"):  # the same calls, argument for argument
        want = list(inspect.signature(getattr(TableHandle, name)).parameters)
        assert list(inspect.signature(getattr(TableSession, name)).parameters) == want
        assert list(inspect.signature(getattr(RemoteTable, name)).parameters) == want


def test_the_proxy_tells_what_the_store_holds_without_replaying_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'm.db'}")
    row = stored_row(6)
    local = TableSession(TableRow(**vars(row)), store, LocalHub(), Settings())
    back = time.time() + 86400
    away = TableRow(**{**vars(row), "clock": "1d", "deadlines": [Deadline("away", back, seat=0).to_dict()]})
    owner = TableSession(TableRow(**vars(away)), store, LocalHub(), Settings())

    def no_replay(self: Game, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("the proxy replayed a move")

    monkeypatch.setattr(type(local.state.game), "play", no_replay)
    remote = RemoteTable(OwnerElsewhere(store), row)  # type: ignore[arg-type]  # the lobby's few members
    assert remote.version == local.version == 6
    # Anna away (nobody connected yet), the bot a bot; whose turn only once the owner has said it
    assert remote.summary() == msgspec.structs.replace(local.summary(), to_move=None)
    told = RemoteTable(OwnerElsewhere(store, local.summary()), row)  # type: ignore[arg-type]
    assert told.summary() == local.summary() and told.summary().to_move == 1
    # over days, Anna away for a day: the stored row says until when, as the owner does, and the
    # owner's word wins over an older row ("My tables" shows it)
    assert [s.away for s in owner.summary().seats] == [round(back, 3), None]
    stored = RemoteTable(OwnerElsewhere(store), away)  # type: ignore[arg-type]
    assert stored.summary() == msgspec.structs.replace(owner.summary(), to_move=None)
    older = TableRow(**{**vars(away), "deadlines": []})  # read before Anna went
    assert RemoteTable(OwnerElsewhere(store, owner.summary()), older).summary() == owner.summary()  # type: ignore[arg-type]
    assert remote.status == "playing" and remote.id == "t1"
    with pytest.raises(AssertionError, match="replayed"):
        build(row)  # the check bites: building the game does replay
