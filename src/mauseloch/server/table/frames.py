"""What each seat is sent: the one place that decides what a seat sees (pure).

Every frame is built from the table's state as the typed messages of server/protocol.py: the
seat's view from the engine (``Game.typed_view``: exactly what that seat may know), the events
through :func:`~mauseloch.core.events.seen_by` (a private event loses its hidden cards for
everyone but its owner), the refusals of the seat's hand, the table's summary and its live
state. A publisher asks :func:`message_for` once per seat that listens, so nothing is built for
a table nobody watches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mauseloch.core.events import OWNER, Event, seen_by
from mauseloch.server.match import match_state
from mauseloch.server.protocol import (
    Deadline,
    EmoteFrame,
    ErrorCode,
    ErrorMsg,
    Live,
    Pace,
    PauseState,
    Pong,
    PresenceMsg,
    Refusal,
    SeatLive,
    Snapshot,
    TableSummary,
    Update,
    encode,
    encode_raw,
    refusals,
)
from mauseloch.server.seats import STAND_IN, Controller
from mauseloch.server.summary import table_summary
from mauseloch.server.table.commands import EmoteOf, Frame, LiveOf, UpdateOf
from mauseloch.server.table.state import TableState

SNAPSHOT_EVENTS = 50  # the last events a snapshot carries
MessageFor = Callable[[int | None], str]


def summary(s: TableState) -> TableSummary:
    away = {d.seat: round(d.due, 3) for d in s.away if d.seat is not None}
    return table_summary(s.row, s.version, [(p.presence, p.stand_in) for p in s.seats], s.game.to_move, away)


def live(s: TableState, now: float) -> Live:
    """What changes without a move: presence, stand-ins, the running clock, pause, rematch votes."""
    deadline: Deadline | None = None
    seat = s.game.to_move
    turn = s.deadlines.get("turn")
    turn = turn if turn is not None and turn.version == s.version else None  # this turn's clock
    bot_due = None if s.bot is None else s.bot.due
    if s.row.status == "playing" and not s.game.is_over and seat is not None:
        # paused or someone away: the frozen clock with the seconds it has left (a reaction
        # game's countdown waits)
        if s.stopped:
            if not s.reactions and turn is not None and turn.left is not None:
                deadline = Deadline(seat, "turn", left=round(turn.left, 3))
        elif s.reactions:  # the countdown to the next card, whoever turns it
            due = turn.due if turn is not None else bot_due
            if due is not None:
                deadline = Deadline(seat, "reveal", due=round(due, 3))
        elif s.seats[seat].stand_in and bot_due is not None:
            deadline = Deadline(seat, STAND_IN, due=round(bot_due, 3))
        elif turn is not None:
            deadline = Deadline(seat, "turn", due=round(turn.due, 3))
    paused, pause, asked = s.paused, s.deadlines.get("pause"), s.asked
    return Live(
        status=s.row.status,
        seats=[_seat_live(s, p) for p in s.seats],
        deadline=deadline,
        rematch=sorted(s.votes),
        next=s.row.next_id,
        match=match_state(s.row),
        pace=Pace(paused, s.speed),
        pause=PauseState(
            paused,
            None if pause is None else pause.seat,
            asked[0] if asked else None,
            asked[1:],
            [seat for seat in s.present() if seat not in asked] if asked else [],
        ),
        now=round(now, 3),
    )


def _seat_live(s: TableState, p: Controller) -> SeatLive:
    """A seat's presence; over days, when it is back if away and the away days it still has."""
    if not s.over_days:
        return SeatLive(p.presence, p.stand_in)
    away = s.deadlines.get("away", p.row.seat)
    return SeatLive(p.presence, p.stand_in, None if away is None else round(away.due, 3), s.away_days_left(p.row.seat))


def _seen(events: list[Event], seat: int | None) -> list[Event]:
    return [seen_by(e, seat) for e in events]


def snapshot(s: TableState, seat: int | None, now: float) -> str:
    first = max(0, s.seq - SNAPSHOT_EVENTS)
    return encode(Snapshot(version=s.version, seq=s.seq, seat=seat, view=s.game.typed_view(seat),
                           events=_seen(s.game.event_log(first), seat), by=s.by[first:], table=summary(s),
                           live=live(s, now), refused=refusals(s.game, seat)))  # fmt: skip


def message_for(s: TableState, frame: Frame, now: float) -> MessageFor:
    """Each seat's message of ``frame``, built when the hub first asks for that seat (the live
    state, the same in every seat's frame, encoded once)."""
    if isinstance(frame, UpdateOf):
        game, version, seq, new, by = s.game, s.version, s.seq, frame.events, frame.by
        private = any(getattr(e, OWNER, None) is not None for e in new)
        # the live state, the same in every seat's frame, encoded once: msgspec writes a Raw as it is
        shared: list[Any] = []

        def update(seat: int | None) -> str:
            if not shared:
                shared.append(encode_raw(live(s, now)))
            message: Update[Any, Any] = Update(version=version, seq=seq, view=game.typed_view(seat),
                                               events=_seen(new, seat) if private else new, by=by,
                                               live=shared[0], refused=refusals(game, seat))  # fmt: skip
            return encode(message)

        return update
    if isinstance(frame, EmoteOf):
        text = encode(EmoteFrame(seat=frame.seat, emote=frame.emote))
        return lambda seat: text
    if isinstance(frame, LiveOf):
        texts: list[str] = []

        def presence(seat: int | None) -> str:
            if not texts:
                texts.append(encode(PresenceMsg(version=s.version, seq=s.seq, live=live(s, now))))
            return texts[0]

        return presence
    return lambda seat: snapshot(s, seat, now)


def error(s: TableState, code: ErrorCode, message: str, refusal: Refusal | None = None) -> str:
    return encode(ErrorMsg(version=s.version, seq=s.seq, code=code, message=message, refusal=refusal))


def pong(s: TableState) -> str:
    return encode(Pong(version=s.version, seq=s.seq))
