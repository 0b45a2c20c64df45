"""Reaction windows at a table (games whose ``GameInfo.dynamics`` is ``"reactions"``: Mausgeflippt).

The table's state holds the game and its referee; this module drives the one referee (:mod:`mauseloch.realtime.referee`)
for it with the server's clock, as the simulator and the terminal drive it with theirs:

* **Measuring connections.** Every connection of the table gets a :class:`mauseloch.realtime.fairness.Link`,
  fed by clock pings the server sends (``clock_ping``; the page answers at once in its network
  code with its own clock, ``clock_pong``): a burst when it connects, then one a second.
* **Showing the card.** When the revealer's ``reveal`` is played, the card is sent ahead: every
  connection is told (``window``) when to show it, on its own clock (from its link's offset),
  :func:`lead_ms` from now, so that every screen shows it on about the same frame. The referee's
  clock counts from that moment.
* **Claims.** A person's ``react`` carries the reaction time their device measured; the referee
  judges it with the link of the connection it came on (from the claim's arrival, crediting half
  the lowest round trip the server measured and a small lag quota: the claimed time may only
  make it worse) and waits the collection window. Bots and stand-ins react through their
  ``react`` here, at the owner, with the times they sampled (local seats, taken at their word).
* **Deciding.** When the referee is due, the table's step asks it for the decision (a ``Decide``
  command), stores it with the window's log (every claim, what was observed, the decision:
  ``ml_moves.referee``), then has the referee play it, then publishes it like any other move.

Nothing here decides what a seat may see: the window message is public, claims are never sent
to anyone, and the decision reaches the pages as the table's usual update.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from mauseloch import IllegalMove
from mauseloch.realtime.fairness import Link
from mauseloch.realtime.referee import Observed, Referee
from mauseloch.server.clock import wall
from mauseloch.server.hub import Connection
from mauseloch.server.protocol import ClockPing, ErrorCode, ProtocolError, WindowMsg, encode
from mauseloch.server.seats import BotSeat, Person
from mauseloch.server.table.commands import Command, Decide
from mauseloch.server.table.state import TableState

log = logging.getLogger("mauseloch.server")

PING_GAP = 1.0  # seconds between clock pings on a measured connection
BURST_GAP = 0.1  # seconds between the first pings of a new connection
BURST = 5  # pings sent quickly after a connection opens
PENDING_PINGS = 8  # unanswered pings remembered per connection
SHOW_MARGIN_MS = 30.0  # added to the slowest one-way time when sending a card ahead
MIN_LEAD_MS = 50.0
MAX_LEAD_MS = 400.0  # never longer ahead (a very slow connection shows it late, not everyone)
RETRY = 1.0  # seconds before a decision that could not be stored is tried again


def lead_ms(links: list[Link]) -> float:
    """How far ahead of its showing a card is sent: the slowest connection's credited one-way
    time (half its lowest round trip, :meth:`Link.transit`) plus a margin, within
    :data:`MIN_LEAD_MS`..:data:`MAX_LEAD_MS`. Not the current round trip: a client that starts
    holding its ping answers would otherwise have every card, and could show it, that much
    before the other screens; lag beyond the lowest round trip is not credited either."""
    one_way = max((link.transit() for link in links if link.pings), default=0.0)
    return min(MAX_LEAD_MS, max(MIN_LEAD_MS, one_way + SHOW_MARGIN_MS))


class SeatJudge:
    """A seat's connections as the one judge the referee asks for that seat: a claim is judged
    with the link of the connection it came on; the waits allow for the slowest of them."""

    def __init__(self, links: list[Link]) -> None:
        self.links = links
        self.current: Link = links[0]

    def judge(self, ms: int, at: float) -> tuple[int, str, Observed]:
        return self.current.judge(ms, at)

    def reach(self) -> float:
        return max(link.reach() for link in self.links)

    def round_trip(self) -> float:
        return max(link.round_trip() for link in self.links)


class Reactions:
    """The reaction windows of one table (see the module docstring): its state, whose referee
    judges the windows, and ``serial``: how a command reaches the table's step in its turn."""

    def __init__(self, state: TableState, serial: Callable[[Command], None]) -> None:
        self.state = state
        self.serial = serial
        self.links: dict[Connection, Link] = {}
        self._pings: dict[Connection, dict[int, float]] = {}  # unanswered: n -> sent (ms)
        self._count = 0
        self.show: float | None = None  # when the open window's card shows (server clock, ms)
        self.window_version = -1
        self.judges: dict[int, SeatJudge] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._pinger: asyncio.Task[None] | None = None

    @property
    def referee(self) -> Referee:
        assert self.state.referee is not None, "a reaction game"
        return self.state.referee

    # -- the server's clock --------------------------------------------------------------
    @staticmethod
    def now() -> float:
        """The server's monotonic clock in ms (the event loop's)."""
        return asyncio.get_running_loop().time() * 1000.0

    def elapsed(self) -> float:
        """The referee's clock: ms since the open window's card was shown."""
        return self.now() - (self.show if self.show is not None else self.now())

    # -- connections ---------------------------------------------------------------------
    def attach(self, conn: Connection) -> None:
        """A connection joined (after its snapshot): measure it; show it an open window's card."""
        self.links[conn] = Link()
        self._pings[conn] = {}
        if self._pinger is None or self._pinger.done():
            self._pinger = asyncio.get_running_loop().create_task(self._ping_loop())
        if self.referee.is_open and self.show is not None:
            conn.send(self._window_for(conn))

    def detach(self, conn: Connection) -> None:
        self.links.pop(conn, None)
        self._pings.pop(conn, None)

    def answer(self, conn: Connection, n: int, t: float) -> None:
        """A ``clock_pong``: one round-trip sample for the connection (unknown ``n``: ignored)."""
        sent = self._pings.get(conn, {}).pop(n, None)
        link = self.links.get(conn)
        if sent is None or link is None:
            return
        link.ping(sent, t, self.now())

    async def _ping_loop(self) -> None:
        while self.links and not self.state.stopping:
            for conn in list(self.links):
                pending = self._pings.get(conn)
                if pending is None:
                    continue
                self._count += 1
                pending[self._count] = self.now()
                while len(pending) > PENDING_PINGS:
                    pending.pop(next(iter(pending)))
                conn.send(encode(ClockPing(n=self._count)))
            young = any(len(link.pings) < BURST for link in self.links.values())
            await asyncio.sleep(BURST_GAP if young else PING_GAP)

    # -- windows -------------------------------------------------------------------------
    def _window_for(self, conn: Connection) -> str:
        assert self.show is not None
        link = self.links.get(conn)
        in_ms = max(0.0, self.show - self.now())
        start = link.client_time(self.show) if link is not None and link.pings else None
        s = self.state
        return encode(
            WindowMsg(
                version=s.version,
                seq=s.seq,
                start=None if start is None else round(start, 1),
                in_ms=round(in_ms, 1),
                window_ms=self.referee.window_ms,
            )
        )

    def opened(self) -> None:
        """The table played a ``reveal`` (or was restored with a window open): send the card
        ahead to every connection, open the referee, let the bots and stand-ins react."""
        s = self.state
        if self.referee.is_open:
            return
        self.judges = {}
        for seat, ctl in enumerate(s.seats):
            if isinstance(ctl, Person):
                links = [link for conn, link in self.links.items() if conn.seat == seat]
                if links:
                    self.judges[seat] = SeatJudge(links)
        self.referee.links = dict(self.judges)
        self.referee.open()
        self.show = self.now() + lead_ms(list(self.links.values()))
        self.window_version = s.version
        for conn in list(self.links):
            conn.send(self._window_for(conn))
        for seat, ctl in enumerate(s.seats):
            reactor = ctl.bot if isinstance(ctl, BotSeat) else ctl.standin.bot if ctl.stand_in else None
            if reactor is None:
                continue
            try:
                move, ms = reactor.react(s.game.typed_view(seat), s.game.legal_moves(seat))
                if move is not None and move != "timeout":
                    self.referee.claim(seat, move, ms)  # known ahead; counts from its time on
            except Exception:  # a broken bot keeps its paws still; the table plays on
                log.exception("bot at table %s seat %s failed to react", s.id, seat)
        self.wake()

    def claim(self, conn: Connection, move: str, version: int, ms: int, arrived: float | None = None) -> None:
        """A person's reaction (in the table's turn), ``arrived`` at that moment of :meth:`now`
        (None: now); refused claims raise ProtocolError."""
        s = self.state
        seat = conn.seat
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "spectators cannot react")
        if s.row.status != "playing" or s.game.is_over:
            raise ProtocolError(ErrorCode.ILLEGAL, "the game is over; no more reactions")
        if isinstance(s.seats[seat], BotSeat):
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat")
        if version != s.version or not self.referee.is_open or self.show is None:
            raise ProtocolError(
                ErrorCode.STALE, f"no reaction window is open at version {version} (table: {s.version})"
            )
        judge = self.judges.get(seat)
        link = self.links.get(conn)
        if judge is None or link is None:  # connected after the card was sent: measured from now on
            raise ProtocolError(
                ErrorCode.STALE, "this connection joined after the mouse was shown; the next one counts"
            )
        if link not in judge.links:
            judge.links.append(link)
        judge.current = link
        try:
            at = self.elapsed() if arrived is None else arrived - self.show
            self.referee.claim(seat, move, ms, at=at)
        except ValueError as exc:  # IllegalMove too: nothing changed
            code = ErrorCode.ILLEGAL if isinstance(exc, IllegalMove) else ErrorCode.STALE
            raise ProtocolError(code, str(exc)) from None
        self.wake()

    def wake(self) -> None:
        """Arm the timer for the referee's next due moment."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = self.referee.due()
        if due is None or self.show is None or self.state.stopping:
            return
        delay = max(0.0, (self.show + due - self.now()) / 1000.0)
        self._timer = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self.serial(Decide(version=self.window_version, at=self.elapsed(), now=wall()))

    def retry(self) -> None:
        """A decision could not be stored: it is tried again in a while."""
        log.error("a decision at table %s could not be stored; retrying", self.state.id)
        self._timer = asyncio.get_running_loop().call_later(RETRY, self._fire)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._pinger is not None:
            self._pinger.cancel()
            self._pinger = None
