"""Fair reaction times over real networks: what the referee may believe of a remote claim.

A remote player's device measures the reaction itself (from the frame the card was painted to
the input event) and sends that time, the *claim*. The first message to reach the server is not
the fastest player: it is the one who lives closest. So the referee (:mod:`mauseloch.realtime`)
judges claims, and this module says how far a claim can be trusted, from what the server itself
observed of the connection. Plain Python, no clock, no asyncio: the caller passes every time
(ms on the server's clock), so the server, the benchmark and the tests run the same code.

One :class:`Link` per connection:

* **Pings.** The server sends a ping at ``sent``; the client answers with its own clock reading
  ``client``; the answer arrives at ``received``. The link keeps the last :data:`KEEP` samples.
  Its round trip is the fastest recent one; its *clock offset* (client clock + offset = server
  clock) is NTP's estimate from that fastest sample, ``(sent + received) / 2 - client``.
* **Showing.** The server sends the card ahead with its start time in the client's own clock
  (:meth:`Link.client_time`), so every screen shows it at once. A client shows it at
  ``-error`` of the server's moment, where ``error`` is the offset's error; each ping's answer
  left the client at a time the client stamped, so ``received - (client + offset)`` is that
  answer's one-way time *plus the same error* (the "uplink" samples). An honest claim implies a
  transit ``at - ms`` (arrival after the show minus the claimed reaction) that is exactly such a
  one-way time plus that error: the samples are what honest claims look like, whatever the
  asymmetry of the path.
* **Judging a claim** (:meth:`Link.judge`): claims under :data:`ANTICIPATION_MS` are
  anticipation (a guess, refused), and so is a claim that arrives sooner after the show than
  :data:`ANTICIPATION_MS` plus the fastest uplink observed (the card is sent ahead: such an
  answer left before the card could have been seen). The transit a claim asks for is granted freely up to the
  median uplink (less any rise of the round trip above the connection's long-run floor: lag
  that appeared lately may be faked); beyond that only from the *lag credit*, and never beyond
  the slowest uplink observed (plus :data:`TOLERANCE_MS`) or :data:`EXTRA_CAP_MS` above the
  free part; a claim slower than the fastest observed uplink allows is clamped the other way.
  The claim counts at ``at - transit``.
* **Lag credit** (after lichess's ``LagTracker``): each claim may use what the credit holds;
  the credit then refills by :data:`CREDIT_GAIN_MS` up to :data:`CREDIT_MAX_MS`. A client that
  lies about its times or fakes lag gets at most about the refill per claim on average.
* **Floor.** The lowest round trip seen on the connection rises towards the current one only by
  :data:`FLOOR_DRIFT_MS` per ping, so a connection that really got slower is trusted again
  after a while, and lag faked later in a game is paid from the credit meanwhile.

What cannot be told apart: a client that delays every answer from its very first ping looks
exactly like a slow line. The web client therefore answers pings at once in its network code;
the transit credited is never more than :data:`MAX_TRANSIT_MS`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

KEEP = 16  # recent ping samples kept per connection
ANTICIPATION_MS = 100  # a claimed reaction faster than this is a guess, not a reaction
TOLERANCE_MS = 5.0  # timer and frame granularity around the observed uplinks
EXTRA_CAP_MS = 100.0  # the most transit granted above the free part in one claim
CREDIT_MAX_MS = 120.0  # lag credit: the most a connection may hold
CREDIT_GAIN_MS = 20.0  # lag credit regained per claim
FLOOR_DRIFT_MS = 0.5  # how fast the long-run floor of the round trip follows it upwards, per ping
MAX_TRANSIT_MS = 400.0  # the most one-way transit ever credited

VALID, ANTICIPATION = "valid", "anticipation"


@dataclass(frozen=True)
class Ping:
    sent: float  # server clock
    client: float  # the client's clock when it answered
    received: float  # server clock

    @property
    def rtt(self) -> float:
        return self.received - self.sent


@dataclass
class Link:
    """What the server observed of one connection, and its lag credit (see the module docstring)."""

    pings: deque[Ping] = field(default_factory=lambda: deque(maxlen=KEEP))
    credit: float = CREDIT_MAX_MS
    floor_rtt: float | None = None  # the long-run lowest round trip
    _stats: tuple[float, float, float, float, float] | None = None  # rtt, offset, low, median, high

    # ------------------------------------------------------------------ observing
    def ping(self, sent: float, client: float, received: float) -> None:
        """Record a ping's answer (a reply arriving before its ping was sent is refused)."""
        if not received >= sent:
            raise ValueError(f"a ping's answer cannot arrive ({received}) before it was sent ({sent})")
        sample = Ping(float(sent), float(client), float(received))
        self.pings.append(sample)
        self._stats = None
        fastest = min(p.received - p.sent for p in self.pings)
        if self.floor_rtt is None or fastest < self.floor_rtt:
            self.floor_rtt = fastest
        else:
            self.floor_rtt = min(fastest, self.floor_rtt + FLOOR_DRIFT_MS)

    def _computed(self) -> tuple[float, float, float, float, float]:
        if self._stats is None:
            if not self.pings:
                raise ValueError("no ping answered yet on this connection")
            best = min(self.pings, key=lambda p: p.rtt)
            offset = (best.sent + best.received) / 2 - best.client
            uplinks = sorted(p.received - (p.client + offset) for p in self.pings)
            n = len(uplinks)
            median = (uplinks[(n - 1) // 2] + uplinks[n // 2]) / 2
            self._stats = (best.rtt, offset, uplinks[0], median, uplinks[-1])
        return self._stats

    def round_trip(self) -> float:
        """The fastest recent round trip (ms); 0 before any ping."""
        return self._computed()[0] if self.pings else 0.0

    def offset(self) -> float:
        """Client clock + offset = server clock (NTP's estimate from the fastest recent ping)."""
        return self._computed()[1]

    def client_time(self, server_time: float) -> float:
        """``server_time`` on the client's clock: when the client is to show a card."""
        return server_time - self.offset()

    def _bounds(self) -> tuple[float, float, float]:
        """(lowest, free, highest) transit a claim may be credited with now."""
        if not self.pings:
            return 0.0, 0.0, 0.0
        rtt, _, low, median, high = self._computed()
        rise = max(0.0, (rtt - (self.floor_rtt if self.floor_rtt is not None else rtt)) / 2)
        free = min(max(0.0, median - rise), MAX_TRANSIT_MS)
        top = min(high + TOLERANCE_MS, free + rise + EXTRA_CAP_MS, MAX_TRANSIT_MS)
        return min(max(0.0, low - TOLERANCE_MS), free), free, max(top, free)

    # ------------------------------------------------------------------ judging
    def reach(self) -> float:
        """The longest transit a claim arriving now could be credited with (ms)."""
        _, free, top = self._bounds()
        return free + min(self.credit, top - free)

    def judge(self, ms: int, at: float) -> tuple[int, str, dict[str, Any]]:
        """The time a claimed reaction of ``ms`` arriving ``at`` (both ms after the card was shown)
        counts as, its status (``valid`` or ``anticipation``) and what was observed."""
        low, free, top = self._bounds()
        asked = at - ms
        observed: dict[str, Any] = {
            "rtt": round(self.round_trip(), 1),
            "offset": round(self.offset(), 1) if self.pings else None,
            "free": round(free, 1),
            "top": round(top, 1),
            "credit": round(self.credit, 1),
        }
        if ms < ANTICIPATION_MS:
            observed["anticipation"] = True
            return ms, ANTICIPATION, observed
        if at < ANTICIPATION_MS + low:
            # arrived before any honest reaction could have: the card was sent ahead, and this
            # answer left before (or too soon after) it was shown on the client
            observed["anticipation"] = True
            observed["early"] = True
            return ms, ANTICIPATION, observed
        extra = min(max(0.0, min(asked, top) - free), self.credit)
        transit = max(min(asked, free + extra), low)
        self.credit = min(CREDIT_MAX_MS, self.credit - extra + CREDIT_GAIN_MS)
        time = max(ANTICIPATION_MS, round(at - transit))
        observed["transit"] = round(transit, 1)
        if time != ms:
            observed["clamped_from"] = ms
        return time, VALID, observed
