"""Mausgeflippt through the real server: a client that holds its clock answers wins nothing.

The set-up: two players 50 ms each way (``DelayedClient`` of test_reactions_net). The
cheater answers 2 of every 3 ``clock_ping``s 300 ms late, stamped with its clock at the moment
the ping arrived, and the third at once; it really reacts ``CHEAT_MS`` after the show and
claims ``CLAIM_MS``. The honest player really reacts ``HONEST_MS`` after it. Believing the
stamps, the referee credited the held answers as transit and gave the cheater every mouse; it
must give every one to the honest player, judging the cheater within 50 ms of its true time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from mauseloch.server.storage import Store

from ..browser.conftest import Server, server_fixture
from .test_reactions_net import MOST_MICE, DelayedClient, post

MICE = 4
HONEST_MS, CHEAT_MS, CLAIM_MS = 400, 480, 150
HOLD_S = 0.3


server = server_fixture("cheats-server", "--clock-scale", "0.5")


class HoldingClient(DelayedClient):
    """Holds 2 of every 3 clock answers (stamped on arrival) and claims ``CLAIM_MS``."""

    pings = 0

    def handle(self, ws: Any, msg: dict[str, Any]) -> None:
        if msg["type"] != "clock_ping":
            super().handle(ws, msg)
            return
        pong = {"type": "clock_pong", "n": msg["n"], "t": self.clock()}  # stamped as it arrives
        self.pings += 1
        if self.pings % 3:
            self.later(HOLD_S, self._send(ws, pong))  # put on the line after the hold
        else:
            self.send(ws, pong)

    async def _send(self, ws: Any, msg: dict[str, Any]) -> None:
        self.send(ws, msg)

    async def _claim(self, ws: Any, msg: dict[str, Any]) -> None:
        self.send(ws, msg | {"ms": CLAIM_MS})  # it reacted CHEAT_MS after the show


@pytest.mark.slow
def test_held_clock_answers_do_not_buy_a_faster_reaction(
    server: Server, run_async: Callable[[Coroutine[Any, Any, None]], None]
) -> None:
    created = post(server, "/api/tables", {"game": "mausgeflippt", "seats": [{"kind": "human"}] * 2, "clock": "fast"})
    table = created["table"]
    joined = post(server, f"/api/tables/{table}/join", {"name": "Ben", "invite": created["invite_secret"]})
    ws_url = server.url.replace("http://", "ws://") + f"/ws/{table}"
    honest = DelayedClient(ws_url, 0, created["token"], rtt_ms=100, react_ms=HONEST_MS, clock_off_ms=3000.0)
    cheat = HoldingClient(ws_url, joined["seat"], joined["token"], rtt_ms=100, react_ms=CHEAT_MS, clock_off_ms=-2000.0)

    def judged() -> list[int]:  # windows in which this process played the honest part on time
        decided = min(len(honest.winners), len(cheat.winners))
        return honest.on_time(sorted(honest.windows)[:decided])

    def done() -> bool:
        decided = min(len(honest.winners), len(cheat.winners))
        return len(judged()) >= MICE or decided >= MOST_MICE

    async def play() -> None:
        await asyncio.gather(honest.run(done), cheat.run(done))

    run_async(play())
    played = sorted(honest.windows)[: min(len(honest.winners), len(cheat.winners))]
    lateness = {v: round(honest.late_ms.get(v, 0.0)) for v in played}
    counted = judged()
    # fewer means this process could not keep time on this machine, not that the referee erred
    assert len(counted) >= MICE // 2, f"the honest player's part was played late in most windows: {lateness}"
    assert [honest.winners[i] for i in counted] == [honest.seat] * len(counted), (honest.winners, lateness)
    store = Store(server.db)
    row = store.load_table(table)
    store.close()
    assert row is not None
    logged = [row.referee[i] for i in sorted(row.referee)]
    windows = [logged[i] for i in counted]
    for window in windows:
        assert window["decision"]["seat"] == honest.seat, window
        for claim in window["claims"]:
            if claim["seat"] == cheat.seat:  # when its claim came in time to be judged at all
                assert claim["time"] >= CHEAT_MS - 50, window
    # the cheater's claims came too late to count, never as broken messages
    assert all(e["code"] == "stale" for e in honest.errors + cheat.errors), honest.errors + cheat.errors
