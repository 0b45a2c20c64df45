"""Mausgeflippt through the real server: a client that holds its clock answers wins nothing.

The set-up: two players 50 ms each way (``DelayedClient`` of test_reactions_net). The
cheater answers 2 of every 3 ``clock_ping``s 300 ms late, stamped with its clock at the moment
the ping arrived, and the third at once; it really reacts ``CHEAT_MS`` after the show and
claims ``CLAIM_MS``. The honest player really reacts ``HONEST_MS`` after it. Believing the
stamps, the referee credited the held answers as transit and gave the cheater every mouse; it
must give every one to the honest player, judging the cheater within 50 ms of its true time.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from ..browser.conftest import Server, server_fixture
from .test_reactions_net import MICE, DelayedClient, play_duel, referee_windows, two_seat_table

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
    table, created, joined, ws_url = two_seat_table(server)
    honest = DelayedClient(ws_url, 0, created["token"], rtt_ms=100, react_ms=HONEST_MS, clock_off_ms=3000.0)
    cheat = HoldingClient(ws_url, joined["seat"], joined["token"], rtt_ms=100, react_ms=CHEAT_MS, clock_off_ms=-2000.0)
    counted, lateness = play_duel(run_async, honest, cheat, timed=honest)
    # fewer means this process could not keep time on this machine, not that the referee erred
    assert len(counted) >= MICE // 2, f"the honest player's part was played late in most windows: {lateness}"
    windows = referee_windows(server, table, counted)
    # shown with a wrong winner: the referee's reasons
    assert [honest.winners[i] for i in counted] == [honest.seat] * len(counted), (honest.winners, lateness, windows)
    for window in windows:
        assert window["decision"]["seat"] == honest.seat, window
        for claim in window["claims"]:
            if claim["seat"] == cheat.seat:  # when its claim came in time to be judged at all
                assert claim["time"] >= CHEAT_MS - 50, window
    # the cheater's claims came too late to count, never as broken messages
    assert all(e["code"] == "stale" for e in honest.errors + cheat.errors), honest.errors + cheat.errors
