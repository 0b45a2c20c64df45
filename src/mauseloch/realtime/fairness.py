"""Fair reaction times over real networks: what the referee may believe of a remote claim.

A remote player's device measures the reaction itself (from the frame the card was painted to
the input event) and sends that time, the *claim*. The first message to reach the server is not
the fastest player: it is the one who lives closest. So the referee (:mod:`mauseloch.realtime.referee`)
judges each claim by what the server itself measured of the connection, and the claim may only
ever make it worse. Plain Python, no clock, no asyncio: the caller passes every time (ms on the
server's clock), so the server, the benchmark and the tests run the same code.

One :class:`Link` per connection:

* **Pings.** The server sends a ping at ``sent``; the client answers with its own clock reading
  ``client``; the answer arrives at ``received``. Only ``sent`` and ``received`` are the
  server's own: a client can make a round trip look longer (hold, reorder or repeat its
  answers), never shorter than its line, so the link keeps the *lowest* round trip it ever
  measured (the floor) and the fastest of the last :data:`KEEP` (the current round trip).
* **Showing.** The server sends the card ahead with its start time on the client's own clock
  (:meth:`Link.client_time`, NTP's offset from the fastest recent ping, the one place the
  client's stamp is used). A forged stamp only moves when that client is told to show the card;
  it is never used to judge a claim.
* **Judging a claim** (:meth:`Link.judge`: ``ms`` claimed, arriving ``at`` ms after the server's
  show moment). The server credits the claim's message with one-way transit: half the floor
  (for a client that showed the card at the start it was sent, the arrival after the show is
  its reaction plus half the round trip, on any path, asymmetric or not), never more than
  :data:`MAX_TRANSIT_MS`. Anything the claim asks beyond that (network jitter, lag that
  appeared since the floor was measured) is paid from the *lag quota*, after lichess's
  ``LagTracker``: each claim may use what the quota holds, the quota then refills by
  :data:`QUOTA_GAIN_MS` up to :data:`QUOTA_MAX_MS`. So the time a claim counts as is
  ``max(ms, at - floor / 2 - the quota it used)``: held or forged clock answers, lag faked later
  in the game and claims in the past gain at most what the quota holds, and a claim slower than
  its arrival allows (in the future) counts as claimed. A claim under :data:`ANTICIPATION_MS`,
  or arriving so soon after the show that the base transit leaves less than that (less
  :data:`TOLERANCE_MS`), is anticipation (a guess, refused): the card is sent ahead, and such a
  message left before the card could have been seen. Either way no claim counts under
  :data:`ANTICIPATION_MS`.

What cannot be told apart: a client that holds every answer from its very first ping looks
exactly like a slow line (no measurement the server makes can tell a held answer from a long
cable). Holding them ``H`` ms it is credited ``H / 2`` more transit than its line has, but never
more than :data:`MAX_TRANSIT_MS` in all, and the quota besides: it gains
``min(H / 2, MAX_TRANSIT_MS - its true one-way time) + QUOTA_MAX_MS``, the most at any ``H`` of
twice the ceiling less twice its one-way time or more. The ceiling is as low as the far player
of ``bench/fairness.py`` allows (an honest player that far away who reacts 20 ms sooner must
still win): every ms above it is a ms more for a faked slow line. The web client answers pings
at once in its network code.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from mauseloch.realtime.referee import Observed

KEEP = 16  # recent ping samples kept per connection (the current round trip, the clock offset)
ANTICIPATION_MS = 100  # a claimed reaction faster than this is a guess, not a reaction
TOLERANCE_MS = 5.0  # timer and frame granularity: how much sooner an honest fastest claim may arrive
QUOTA_MAX_MS = 25.0  # lag quota: the most transit beyond half the floor one claim may be credited
QUOTA_GAIN_MS = 15.0  # lag quota regained per claim
# the most one-way transit ever credited from the floor (round trips to 300 ms): the lowest ceiling
# at which bench/fairness.py's far player (150 ms each way, reacting 20 ms sooner) still wins every
# window (--ceilings 125,150,175,200: 0.47, 1.0, 1.0, 0.95 of them); a held answer gains at most
# this less its line's one-way time, plus the quota (docs/mausgeflippt-figures.md)
MAX_TRANSIT_MS = 150.0

VALID, ANTICIPATION = "valid", "anticipation"


@dataclass(frozen=True)
class Ping:
    sent: float  # server clock
    client: float  # the client's clock when it answered (its word: used only for the show time)
    received: float  # server clock

    @property
    def rtt(self) -> float:
        return self.received - self.sent


@dataclass
class Link:
    """What the server observed of one connection, and its lag quota (see the module docstring)."""

    pings: deque[Ping] = field(default_factory=lambda: deque(maxlen=KEEP))
    quota: float = QUOTA_MAX_MS
    floor_rtt: float | None = None  # the lowest round trip ever measured on this connection
    _best: Ping | None = None  # the fastest recent sample (None: to be found again)

    # ------------------------------------------------------------------ observing
    def ping(self, sent: float, client: float, received: float) -> None:
        """Record a ping's answer (a reply arriving before its ping was sent is refused)."""
        if not received >= sent:
            raise ValueError(f"a ping's answer cannot arrive ({received}) before it was sent ({sent})")
        sample = Ping(float(sent), float(client), float(received))
        self.pings.append(sample)
        self._best = None
        if self.floor_rtt is None or sample.rtt < self.floor_rtt:
            self.floor_rtt = sample.rtt

    def _fastest(self) -> Ping:
        if self._best is None:
            if not self.pings:
                raise ValueError("no ping answered yet on this connection")
            self._best = min(self.pings, key=lambda p: p.rtt)
        return self._best

    def round_trip(self) -> float:
        """The fastest recent round trip (ms); 0 before any ping."""
        return self._fastest().rtt if self.pings else 0.0

    def offset(self) -> float:
        """Client clock + offset = server clock (NTP's estimate from the fastest recent ping)."""
        best = self._fastest()
        return (best.sent + best.received) / 2 - best.client

    def client_time(self, server_time: float) -> float:
        """``server_time`` on the client's clock: when the client is to show a card."""
        return server_time - self.offset()

    def transit(self) -> float:
        """The one-way transit every claim is credited with: half the floor, at most
        :data:`MAX_TRANSIT_MS` (0 before any ping)."""
        return min(self.floor_rtt / 2, MAX_TRANSIT_MS) if self.floor_rtt is not None else 0.0

    # ------------------------------------------------------------------ judging
    def reach(self) -> float:
        """The longest transit a claim arriving now could be credited with (ms)."""
        return self.transit() + self.quota

    def judge(self, ms: int, at: float) -> tuple[int, str, Observed]:
        """The time a claimed reaction of ``ms`` arriving ``at`` (both ms after the card was shown)
        counts as, its status (``valid`` or ``anticipation``) and what was observed."""
        base = self.transit()
        observed: Observed = {
            "rtt": round(self.round_trip(), 1),
            "floor": None if self.floor_rtt is None else round(self.floor_rtt, 1),
            "offset": round(self.offset(), 1) if self.pings else None,
            "base": round(base, 1),
            "quota": round(self.quota, 1),
        }
        if ms < ANTICIPATION_MS:
            observed["anticipation"] = True
            return ms, ANTICIPATION, observed
        if at - base < ANTICIPATION_MS - TOLERANCE_MS:
            # arrived before any honest reaction could have: the card was sent ahead, and this
            # answer left before (or too soon after) it was shown on the client
            observed["anticipation"] = True
            observed["early"] = True
            return ms, ANTICIPATION, observed
        extra = min(max(0.0, at - ms - base), self.quota)  # what the claim asks beyond the base
        self.quota = min(QUOTA_MAX_MS, self.quota - extra + QUOTA_GAIN_MS)
        time = max(ms, round(at - base - extra))
        observed["transit"] = round(min(at - ms, base + extra), 1)
        if time != ms:
            observed["clamped_from"] = ms
        return time, VALID, observed
