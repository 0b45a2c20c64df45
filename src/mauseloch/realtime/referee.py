"""One referee for reaction windows: who was first, for every game whose ``GameInfo.dynamics``
is ``"reactions"`` (Mausgeflippt).

The engine has no clock: in a window every seat may react and the first reaction *played*
resolves it. Deciding which reaction that is belongs here, once, for every caller:

* the simulator drives a :class:`Referee` in virtual time (bots' sampled times, ``settle()``);
* the terminal drives it with Textual timers and a monotonic clock;
* the server (:mod:`mauseloch.server.reactions`) drives it with asyncio, with a judge per remote
  connection (:mod:`mauseloch.realtime.fairness`) that corrects the reaction times its clients claim.

Times are milliseconds on the referee's clock, counted from the moment the shown card appears
(0). The referee never reads a clock: callers pass the times. A window opens (:meth:`open`),
takes claims (:meth:`claim`: seat, move, the reaction time ``ms`` and when it arrived ``at``),
and the caller calls :meth:`advance` at :meth:`due` (or whenever something happened). It
closes on the first decisive claim or at the deadline (``window_ms``, then ``timeout``).

Rules of the decision, the same for every caller:

* a claim is *ready* once the referee's clock has reached both its arrival and its time (a
  bot's sampled 640 ms is submitted at 0 but only counts from 640 ms on);
* a local seat's claim is judged at its own ``ms``; a remote seat's claim at the time its
  judge corrects it to (clamped to what that connection makes possible; anticipation refused);
* with remote seats the referee keeps collecting after the first valid claim for as long as a
  connection that has not claimed could still deliver a faster corrected time, at most its
  slowest connection's round trip and never more than :data:`COLLECT_CAP_MS`;
* the smallest judged time wins; exact ties are drawn from the referee's own seeded stream
  (``Rng(ties_seed)``, seats in order), so the same claims always give the same winner;
* the winner's move is played with its judged time (``g.play(move, seat=, ms=)``); nobody in
  time: ``timeout`` with ``ms=window_ms``.

Every claim, what was observed of it and the decision are kept in :attr:`Referee.log`;
:meth:`Referee.record` is the game's record with that log under ``"referee"`` (replay reads
only the moves, which hold each decision's seat, move and time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict

from mauseloch.core.bot import Bot
from mauseloch.core.engine import Game, IllegalMove, Rng, derive_seed
from mauseloch.core.registry import game_info
from mauseloch.core.seeds import STREAM_TIES
from mauseloch.core.shapes import Record

COLLECT_CAP_MS = 300.0  # the longest the referee waits after the first valid claim

VALID, LATE, AGAIN, ANTICIPATION = "valid", "late", "again", "anticipation"


class Observed(TypedDict, total=False):
    """What a judge saw of a remote seat's claim (ms; :meth:`mauseloch.realtime.fairness.Link.judge`)."""

    rtt: float  # the connection's fastest recent round trip
    floor: float | None  # the lowest round trip seen
    offset: float | None  # the page's clock minus the server's, once measured
    base: float  # the transit credited to every claim
    quota: float  # what is left of the extra transit a claim may ask for
    anticipation: bool  # faster than a person reacts
    early: bool  # arrived before any honest reaction could have
    transit: float  # the transit this claim was credited with
    clamped_from: int  # the reaction time claimed, where it was judged at another


class ClaimEntry(TypedDict):
    """A claim in the referee's log (:meth:`Claim.to_dict`)."""

    seat: int
    move: str
    ms: int
    at: float
    time: int
    status: str
    observed: NotRequired[Observed]


class DecisionEntry(TypedDict):
    """A decision in the referee's log (:meth:`Decision.to_dict`)."""

    seat: int | None
    move: str
    ms: int
    at: float
    first: float | None
    tied: list[int]


class WindowEntry(TypedDict):
    """One decided window of the referee's log: its claims and its decision."""

    claims: list[ClaimEntry]
    decision: DecisionEntry


class RefereedRecord(Record):
    """A reaction game's record with its referee's log: per decided window its claims and decision."""

    referee: list[WindowEntry]


class Judge(Protocol):
    """What the referee asks of a remote connection (see :class:`mauseloch.realtime.fairness.Link`)."""

    def judge(self, ms: int, at: float) -> tuple[int, str, Observed]:
        """The time a claim of ``ms`` arriving ``at`` counts as, its status and what was observed."""
        ...

    def reach(self) -> float:
        """The longest transit a claim arriving now could be credited with (ms)."""
        ...

    def round_trip(self) -> float:
        """The connection's fastest recent round trip (ms)."""
        ...


@dataclass
class Claim:
    """One reaction as the referee received it."""

    seat: int
    move: str
    ms: int  # the reaction time given (local: measured here; remote: measured on the device)
    at: float  # when the referee received it
    time: int  # the time it is judged at
    status: str  # valid | late (not before the deadline) | again (the seat claimed before) | anticipation
    observed: Observed = field(default_factory=Observed)  # what the judge saw (remote seats)

    @property
    def ready(self) -> float:
        return max(self.at, float(self.time))

    def to_dict(self) -> ClaimEntry:
        entry: ClaimEntry = {
            "seat": self.seat,
            "move": self.move,
            "ms": self.ms,
            "at": round(self.at, 3),
            "time": self.time,
            "status": self.status,
        }
        if self.observed:
            entry["observed"] = self.observed
        return entry


@dataclass(frozen=True)
class Decision:
    """How a window closed: the seat whose move was played (None: timeout), at which judged time."""

    seat: int | None
    move: str
    ms: int
    at: float  # when the referee decided (its clock)
    first: float | None  # when the first valid claim was ready (None: nobody reacted in time)
    tied: tuple[int, ...]  # the seats tied at ``ms`` (more than one: drawn from the tie stream)

    def to_dict(self) -> DecisionEntry:
        return {
            "seat": self.seat,
            "move": self.move,
            "ms": self.ms,
            "at": round(self.at, 3),
            "first": None if self.first is None else round(self.first, 3),
            "tied": list(self.tied),
        }


def _canonical(move: Any) -> str:
    if not isinstance(move, str):
        raise IllegalMove(f"a move must be a string, got {move!r}")
    return " ".join(move.strip().lower().split())


class Referee:
    """Decides every reaction window of one game (see the module docstring).

    ``ties_seed``: the seed of the tie stream (e.g. ``derive_seed(seed, STREAM_TIES)``).
    ``links``: a :class:`Judge` for each remote seat; seats without one are local (their claims
    are taken at their word, as a simulator's or a terminal's are).
    """

    def __init__(self, game: Game, ties_seed: int, links: Mapping[int, Judge] | None = None) -> None:
        if game_info(game.name).dynamics != "reactions":
            raise ValueError(f"{game.name} is played in turns; a referee is only for reaction games")
        self.game = game
        self.ties = Rng(ties_seed)
        self.window_ms = int(game.options["window_ms"])
        self.links: dict[int, Judge] = dict(links or {})
        self._log: list[tuple[list[Claim], Decision]] = []  # turned into dicts only when read
        self._claims: list[Claim] | None = None  # None: no window open
        self._first: float | None = None
        self._pending: Decision | None = None  # decided, not yet played (see decide/commit)
        self._now = 0.0

    @classmethod
    def for_seed(cls, game: Game, seed: int, links: Mapping[int, Judge] | None = None) -> Referee:
        """A referee whose tie stream is stream :data:`STREAM_TIES` of ``seed``."""
        return cls(game, derive_seed(seed, STREAM_TIES), links)

    # ------------------------------------------------------------------ the window
    @property
    def log(self) -> list[WindowEntry]:
        """Per decided window: ``{"claims": [...], "decision": {...}}`` (new dicts each time)."""
        return [{"claims": [c.to_dict() for c in claims], "decision": d.to_dict()} for claims, d in self._log]

    @property
    def is_open(self) -> bool:
        return self._claims is not None

    @property
    def claims(self) -> list[Claim]:
        return list(self._claims or [])

    def open(self) -> None:
        """Start judging the window the game has just opened (after its ``reveal``)."""
        if self._claims is not None:
            raise ValueError("a reaction window is already open")
        if self.game.is_over or self.game.to_move is not None:
            raise ValueError("the game has no reaction window open (reveal a card first)")
        self._claims = []
        self._first = None
        self._pending = None
        self._now = 0.0

    def claim(self, seat: int, move: str, ms: int, at: float | None = None) -> Claim:
        """Take a reaction: ``seat`` plays ``move`` ``ms`` after the card was shown; ``at`` is
        when it reached the referee (None: a local seat, known at once or scheduled ahead).

        A move the seat may not make, a bad seat or time raise ``IllegalMove``/``ValueError``
        and change nothing.
        """
        claims = self._claims
        if claims is None:
            raise ValueError("no reaction window is open")
        if self._pending is not None:
            raise ValueError("the window is decided; no more claims")
        if type(seat) is not int or not 0 <= seat < self.game.players:  # not bool either
            raise IllegalMove(f"seat must be a number from 0 to {self.game.players - 1}, got {seat!r}")
        if type(ms) is not int or ms < 0:
            raise ValueError(f"ms must be a whole number of milliseconds ≥ 0, got {ms!r}")
        if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float)) or at != at):
            raise ValueError(f"at must be a time in ms, got {at!r}")
        legal = self.game.legal_moves(seat)
        canon = move if move in legal and move != "timeout" else _canonical(move)  # the common case: as listed
        if canon == "timeout":
            raise IllegalMove("timeout is not a reaction: the referee plays it at the deadline")
        if canon not in legal:
            raise IllegalMove(f"{move!r} is not a reaction seat {seat} can make now; legal: {', '.join(legal)}")
        arrived = float(ms) if at is None else float(at)
        link = self.links.get(seat)
        if any(c.seat == seat for c in claims):
            entry = Claim(seat, canon, ms, arrived, ms, AGAIN)
        elif link is None:
            entry = Claim(seat, canon, ms, arrived, ms, VALID if ms < self.window_ms else LATE)
        else:
            time, status, observed = link.judge(ms, arrived)
            if status == VALID and (time >= self.window_ms or arrived >= self.window_ms):
                status = LATE
            entry = Claim(seat, canon, ms, arrived, time, status, observed)
        claims.append(entry)
        return entry

    def due(self) -> float | None:
        """When :meth:`advance` must next be called (the referee's clock); None: no window open."""
        if self._claims is None:
            return None
        if self._first is not None:
            return max(self._close_at(), self._now)
        ready = [max(c.ready, self._now) for c in self._claims if c.status == VALID]
        return min([float(self.window_ms), *ready])

    def advance(self, now: float) -> Decision | None:
        """Bring the referee's clock to ``now``; if the window is decided, play the decision into
        the game and return it (the window is then closed)."""
        decision = self.decide(now)
        return None if decision is None else self.commit(decision)

    def decide(self, now: float) -> Decision | None:
        """Like :meth:`advance`, but the decision is only returned, not played: a server stores
        it first and then calls :meth:`commit`. Asked again before that, the same decision
        comes back (the tie stream is drawn once)."""
        if self._claims is None:
            return None
        if self._pending is not None:
            return self._pending
        self._now = max(self._now, float(now))
        now = self._now
        ready = [c for c in self._claims if c.status == VALID and c.at <= now and c.time <= now]
        if ready:
            if self._first is None:
                self._first = min(c.ready for c in ready)
            if now >= self._close_at():
                self._pending = self._decide(now, ready)
        elif now >= self.window_ms:
            self._pending = Decision(None, "timeout", self.window_ms, now, None, ())
        return self._pending

    def commit(self, decision: Decision) -> Decision:
        """Play ``decision`` (from :meth:`decide`) into the game, log it and close the window."""
        if decision is not self._pending:
            raise ValueError("commit takes the decision decide() returned for the open window")
        return self._close(decision)

    def entry(self, decision: Decision) -> WindowEntry:
        """The log entry ``decision`` gets (a :class:`WindowEntry`, stored with the move as JSON):
        the open window's claims and the decision."""
        return {"claims": [c.to_dict() for c in self._claims or []], "decision": decision.to_dict()}

    def settle(self) -> Decision:
        """Virtual time: advance from one due moment to the next until the window is decided."""
        while True:
            due = self.due()
            if due is None:
                raise ValueError("no reaction window is open")
            decision = self.advance(due)
            if decision is not None:
                return decision

    # ------------------------------------------------------------------ deciding
    def _close_at(self) -> float:
        """The moment the collection after the first valid claim ends."""
        assert self._first is not None and self._claims is not None
        if not self.links:
            return self._first  # local seats: whoever is ready first is first
        valid = [c for c in self._claims if c.status == VALID and c.ready <= self._now]
        best = min(c.time for c in valid) if valid else self._first
        claimed = {c.seat for c in self._claims}
        waits = [best + link.reach() for seat, link in self.links.items() if seat not in claimed]
        cap = min(COLLECT_CAP_MS, max(link.round_trip() for link in self.links.values()))
        return min(self._first + cap, max([self._first, *waits]))

    def _decide(self, now: float, ready: Sequence[Claim]) -> Decision:
        best = min(c.time for c in ready)
        tied = sorted(c.seat for c in ready if c.time == best)
        seat = tied[0] if len(tied) == 1 else tied[self.ties.below(len(tied))]
        move = next(c.move for c in ready if c.seat == seat)
        return Decision(seat, move, best, now, self._first, tuple(tied))

    def _close(self, decision: Decision) -> Decision:
        # the game first: should it refuse, the window stays open and nothing is logged
        self._pending = decision
        if decision.seat is None:
            self.game.play("timeout", ms=decision.ms)
        else:
            self.game.play(decision.move, seat=decision.seat, ms=decision.ms)
        self._log.append((self._claims or [], decision))
        self._claims = None
        self._first = None
        self._pending = None
        return decision

    def record(self) -> RefereedRecord:
        """The game's record plus this referee's log (``"referee"``: per window its claims and
        decision); replay reads only the moves."""
        return {**self.game.record(), "referee": self.log}


def play_bots(referee: Referee, bots: Sequence[Bot]) -> None:
    """Play ``referee``'s game to the end in virtual time with one bot per seat: turns go to the
    bot's ``choose``, every window to each bot's ``react`` (its move and time)."""
    game = referee.game
    while not game.is_over:
        seat = game.to_move
        if seat is not None:
            game.play(bots[seat].choose(game.typed_view(seat), game.legal_moves(seat)), seat=seat)
            continue
        referee.open()
        for s, bot in enumerate(bots):
            move, ms = bot.react(game.typed_view(s), game.legal_moves(s))
            if move is not None and move != "timeout":
                referee.claim(s, move, ms)
        referee.settle()
