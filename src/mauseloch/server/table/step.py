"""The one step of a table: ``step(state, command) -> Outcome``.

Every check, every move played, the end of a game, presence, pause, rematch and who moves next
are decided here and nowhere else. The step is pure: it reads no clock (each command carries its
``now``), does no I/O and never touches an event loop; it changes only the state it is given and
says everything else in its :class:`~.commands.Outcome` (writes, frames, timers), which the
runner (runner.py) carries out. A refused command raises :class:`ProtocolError` and changes
nothing.

A move is written ahead: the step checks it and asks for its row (``MoveRow``, fenced by the
store's key ``(table, version)``); only once :class:`~.commands.Committed` says it is stored is
it played, counted and published, so the state never runs ahead of the store and nothing is
published before it is stored.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from mauseloch import IllegalMove
from mauseloch.bots.random_bot import pause_factor
from mauseloch.core.registry import game_info
from mauseloch.server.clock import (
    AWAY_DAYS,
    CLOSE_WAITING,
    GRACE_LEFT,
    GRACE_LOST,
    REMINDERS,
    Deadline,
    month_start,
)
from mauseloch.server.emotes import EMOTES, taken
from mauseloch.server.match import MATCH_PAUSE, match_state
from mauseloch.server.protocol import ErrorCode, ProtocolError, refusal
from mauseloch.server.records import build
from mauseloch.server.seats import STAND_IN, BotSeat, Controller, Person, controllers
from mauseloch.server.storage.rows import DeadlinesRow, GoneRow, MoveRow, StatusRow
from mauseloch.server.table import commands as c
from mauseloch.server.table.state import LIVE, BotTurn, Pending, TableState

log = logging.getLogger("mauseloch.server")

BOT_RETRY = 2.0  # seconds before a bot tries again when its move could not be stored


def step(state: TableState, command: c.Command) -> c.Outcome:
    out = c.Outcome()
    state.now = command.now
    HANDLERS[type(command)](state, command, out)
    assert not (out.fence and out.frames), "a fenced write is published after its commit"
    return out


# -- moves ----------------------------------------------------------------------------------
def _move(s: TableState, cmd: c.Move, out: c.Outcome) -> None:
    """A person's move: checked against the version, the seat, the engine; then written ahead."""
    seat, version = cmd.seat, cmd.version
    _open(s)
    if cmd.again and 0 <= version < s.version:
        done = s.row.moves[version]  # played once, before its first answer was lost with the owner
        if done[0] == seat and str(done[1]).lower() == cmd.move.strip().lower():
            return
    if s.paused:
        raise ProtocolError(ErrorCode.PAUSED, "the table is paused; nothing changed (anyone seated can resume it)")
    if s.away:
        raise ProtocolError(ErrorCode.PAUSED, "someone is away and the table waits for them; nothing changed")
    if version != s.version:
        raise ProtocolError(ErrorCode.STALE, f"the table is at version {s.version}, your move was for {version}")
    if seat is None:
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "spectators cannot move")
    game = s.game
    if game.is_over or s.row.status != "playing":
        raise ProtocolError(ErrorCode.ILLEGAL, "the game is over; no more moves")
    if isinstance(s.seats[seat], BotSeat):
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat")
    if not game.legal_moves(seat):
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"it is seat {game.to_move}'s turn, not yours")
    if cmd.move.strip().lower() == "timeout":
        raise ProtocolError(ErrorCode.ILLEGAL, "timeout is played by the server's clock, never by a client")
    if s.reactions and s.window_open():
        raise ProtocolError(ErrorCode.ILLEGAL, "a reaction is sent as a react message with its time (docs/protocol.md)")
    try:  # the engine's canonical spelling; it says why a move is not legal
        move = game.parse_move(cmd.move, seat=seat)
    except IllegalMove as exc:
        why = None if exc.reason is None else refusal(exc.reason, exc.params)
        raise ProtocolError(ErrorCode.ILLEGAL, str(exc), refusal=why) from None
    _ahead(s, out, Pending(seat, move, None, cmd.ms, "person", None))


def _open(s: TableState) -> None:
    """A move or a reaction is taken only by a running table whose game began."""
    if s.stopping:
        raise ProtocolError(ErrorCode.SERVER_ERROR, "the server is shutting down; nothing changed")
    if s.row.status == "waiting":
        raise ProtocolError(ErrorCode.NOT_STARTED, "the game starts when every human seat is taken")


def _ahead(s: TableState, out: c.Outcome, p: Pending) -> None:
    """Write ``p`` ahead, with the table's deadlines from then on (the next turn's clock)."""
    seconds = s.turn_seconds
    if seconds is not None:
        p.turn = Deadline("turn", s.now + s.deadlines.seconds(seconds), version=s.version + 1)
    rows = [d.to_dict() for d in s.deadlines.items.values() if d.kind != "turn"]  # read only: no copy
    rows += [] if p.turn is None else [p.turn.to_dict()]
    s.pending = p
    out.writes.append(MoveRow(s.id, s.version, p.seat, p.move, p.ms, p.by, rows, p.referee))
    out.fence = True


def _committed(s: TableState, cmd: c.Committed, out: c.Outcome) -> None:
    p = s.pending
    assert p is not None, "nothing was written ahead"
    if p.since is not None:  # the game's end is stored (a failure is only logged): now it is told
        s.pending = None
        _advance(s, out, p.by, p.since)
        return
    if cmd.failed is not None:
        s.pending = None
        if cmd.failed == "stale":  # another writer (a second process) stored this version first
            log.warning("table %s version %s was stored by another writer; reloading", s.id, s.version)
            out.reload = True
        elif p.origin == "person":
            out.error = ProtocolError(ErrorCode.SERVER_ERROR, "the server could not store the move; nothing changed")
        elif p.origin == "bot":  # nothing changed: the bot tries again in a while
            s.bot = None
            out.wake.append((BOT_RETRY, c.Retry(now=s.now)))
        else:
            out.window_retry = True
        return
    if p.decision is not None:
        assert s.referee is not None
        s.referee.commit(p.decision)  # the referee plays its decision
    else:
        s.game.play(p.move, seat=p.seat, ms=p.ms)
    s.row.moves.append([p.seat, p.move] if p.ms is None else [p.seat, p.move, p.ms])
    s.row.by.append(p.by)
    if p.referee is not None:
        s.row.referee[len(s.row.moves) - 1] = p.referee
    if p.turn is not None:
        s.deadlines.set(p.turn)
        _remind(s, out, p.turn, s.turn_seconds or 0.0)
    else:
        s.deadlines.remove("turn")
    if s.game.is_over and s.row.status != "over":  # stored before anyone hears that the game ended
        p.since = _counted(s, p.by)
        out.writes.append(StatusRow(s.id, "over", s.game.result()))
        out.fence = True
        return
    s.pending = None
    _advance(s, out, p.by)


def _reloaded(s: TableState, cmd: c.Reloaded, out: c.Outcome) -> None:
    row = cmd.row
    if row is not None:
        s.row.moves, s.row.by, s.row.status = row.moves, row.by, row.status
        s.game, s.by = build(s.row)
        s.version, s.seq = len(s.row.moves), s.game.event_count
        s.rebuilt()
        out.frames.append(c.SNAPSHOTS)
        _schedule(s, out)
    out.error = ProtocolError(ErrorCode.STALE, f"the table moved on to version {s.version}; nothing changed")


def _counted(s: TableState, by: str | None) -> int:
    """The move just played counted: its events logged, version and seq one on; the seq before
    it (a snapshot taken while the game's end is stored shows the position its version names)."""
    since = s.seq
    s.seq = s.game.event_count
    s.by += [by] * (s.seq - since)
    s.version += 1
    return since


def _advance(s: TableState, out: c.Outcome, by: str | None, since: int | None = None) -> None:
    """The move played is counted, its consequences follow and its update is published."""
    new = s.game.event_log(_counted(s, by) if since is None else since)
    if s.game.is_over and s.row.status != "over":
        _over(s, out)
    _schedule(s, out)  # before publishing: the update tells the next deadline
    if s.reactions and s.row.status == "playing" and s.window_open():
        out.window = True  # the card is sent ahead, before the update that shows it
    out.frames.append(c.UpdateOf(new, by))
    _tell(s, out)


def _tell(s: TableState, out: c.Outcome) -> None:
    """Who is pushed after a move: everyone at the game's end; else the person whose turn it
    has just become (once: not again while they keep the turn, so at most one until they move)."""
    if s.row.status == "over":
        out.tell += [c.Tell(p.row.seat, "end") for p in s.people()]
        return
    seat, moves = s.game.to_move, s.row.moves
    if seat is None or s.row.status != "playing" or (moves and moves[-1][0] == seat):
        return
    person = s.person(seat)
    if person is not None and person.row.taken and not person.stand_in:
        out.tell.append(c.Tell(seat, "turn"))


def _over(s: TableState, out: c.Outcome) -> None:
    """The game is over: its status and result, no deadline left, no pause asked for, and a
    match that goes on deals its next table once the standings have shown."""
    s.row.status, s.row.result = "over", s.game.result()
    s.deadlines.clear()  # the pause too
    _save(s, out)
    s.asked = []
    match = match_state(s.row)
    if match is not None and not match.over:
        out.wake.append((MATCH_PAUSE * s.deadlines.scale, c.NextDeal(now=s.now)))


# -- who moves next ---------------------------------------------------------------------------
def _schedule(s: TableState, out: c.Outcome) -> None:
    """After any change: the bot or stand-in to move moves after its pause, or the clock of the
    person to move runs."""
    if s.stopping or not s.started:
        return
    game, deadlines = s.game, s.deadlines
    if s.row.status != "playing" or game.is_over or game.to_move is None:
        deadlines.remove("turn")
        return
    if s.stopped:  # nothing moves by itself; a turn that began meanwhile keeps its whole time
        s.bot = None
        _freeze(s, out)
        return
    if s.reactions and any(p.conns == 0 and not p.stand_in for p in s.people()):
        deadlines.remove("turn")  # a reaction game shows no card while someone is away (not yet replaced)
        s.bot = None
        return
    seconds = s.turn_seconds
    mover = s.seats[game.to_move].mover()
    if mover is not None and not (s.reactions and seconds is not None):  # reaction games: a countdown
        deadlines.remove("turn")  # in memory only: a bot's turn has no clock
        if s.bot is None or s.bot.version != s.version:
            delay = s.bot_delay if s.bot_delay is not None else game_info(s.row.game).seating.bot_delay / s.speed
            s.bot = BotTurn(s.version, s.now + delay * pause_factor(getattr(mover, "bot", None)))
        return
    s.bot = None
    turn = deadlines.get("turn")
    if seconds is None:
        deadlines.remove("turn")
    elif turn is None or turn.version != s.version:  # no stored deadline for this turn yet
        deadlines.set(turn := Deadline("turn", s.now + deadlines.seconds(seconds), version=s.version))
        _save(s, out)
        _remind(s, out, turn, seconds)


def _remind(s: TableState, out: c.Outcome, turn: Deadline, seconds: float) -> None:
    """Over days, the person whose clock ``turn`` is is reminded before it runs out, each
    reminder pushed at its moment (if they have not moved by then)."""
    if not s.over_days:  # the common case first: asked after every move
        return
    seat = s.game.to_move
    person = s.person(seat)
    if seat is None or turn.version is None or s.game.is_over or person is None or person.stand_in:
        return
    start = turn.due - s.deadlines.seconds(seconds)
    for part in REMINDERS:
        at = start + s.deadlines.seconds(seconds * part)
        if at > s.now:  # a clock that ran on after a stop: those whose moment passed were told
            out.tell.append(c.Tell(seat, "remind", seconds * (1 - part), at, turn.version))


def _bot_due(s: TableState, cmd: c.BotDue, out: c.Outcome) -> None:
    bot = s.bot
    if s.stopping or bot is None or bot.version != cmd.version:
        return
    s.bot = None
    seat = s.game.to_move
    if s.version != cmd.version or s.game.is_over or seat is None or s.row.status != "playing" or s.stopped:
        return  # paused: it moves once the pause ends (the resume schedules it again)
    if s.seats[seat].mover() is None:  # the person came back in time: their move
        _schedule(s, out)
        return
    _bot_move(s, out, seat, s.seats[seat], bot.due)


def _bot_move(s: TableState, out: c.Outcome, seat: int, ctl: Controller, due: float | None) -> None:
    """The bot or stand-in of ``seat`` moves now (a failing bot's move is its stand-in's)."""
    mover = ctl if isinstance(ctl, BotSeat) else ctl.standin
    move, by = mover.play(s.game.typed_view(seat), s.game.legal_moves(seat), s.id)
    if by == STAND_IN and due is not None and s.now - due > 1.0:
        log.warning("table %s: a stand-in moved %.2f s past its deadline", s.id, s.now - due)
    _ahead(s, out, Pending(seat, move, by, None, "bot", None))


def _due(s: TableState, cmd: c.Due, out: c.Outcome) -> None:
    d, deadlines = cmd.deadline, s.deadlines
    if s.stopping or deadlines.get(d.kind, d.seat) != d or not d.armed:
        return  # a pause, an allowance and a frozen clock are never due
    if d.kind == "grace" and d.seat is not None:
        deadlines.remove("grace", d.seat)
        _save(s, out)
        _gone(s, out, d.seat)
        return
    if d.kind == "away" and d.seat is not None:  # back: the clock runs on unless the table still waits
        deadlines.remove("away", d.seat)
        _run_on(s, out)
        out.frames.append(c.LIVE_FRAME)
        return
    if d.kind == "close":
        deadlines.remove("close")
        if s.row.status == "waiting":
            _close(s, out, "everyone left before the game began")
        return
    seat = s.game.to_move  # a turn clock ran out: the stand-in plays this one move for the seat
    if d.version != s.version or seat is None or s.game.is_over or s.row.status != "playing":
        deadlines.remove("turn")
    elif s.reactions:  # the countdown ended: the next card is turned for the revealer
        _ahead(s, out, Pending(seat, "reveal", None, None, "bot", None))
    elif s.seats[seat].mover() is not None:
        deadlines.remove("turn")
    else:
        log.info("table %s: seat %s ran out of time; the stand-in moves", s.id, seat)
        _bot_move(s, out, seat, s.seats[seat], d.due)


def _retry(s: TableState, cmd: c.Retry, out: c.Outcome) -> None:
    _schedule(s, out)


def _save(s: TableState, out: c.Outcome) -> None:
    # the timers run on in memory; a failed write is logged, only a restart would forget them
    out.writes.append(DeadlinesRow(s.id, s.deadlines.to_list()))


# -- the life cycle ---------------------------------------------------------------------------
def _start(s: TableState, cmd: c.Start, out: c.Outcome) -> None:
    if s.started:
        return
    s.started = True
    if s.row.status == "playing" and s.game.is_over:
        # its moves end the game, its end was not stored (its process died): finished now
        log.warning("table %s: its moves end the game, its end was not stored; storing it now", s.id)
        _over(s, out)
        out.writes.append(StatusRow(s.id, "over", s.row.result))
    if s.row.status in LIVE:  # nobody is connected to a fresh server: the grace of a lost connection
        for p in s.people():  # (not stored: a second restart gives it again)
            if not p.row.gone and not p.conns:
                _lost(s, p.row.seat)
    _schedule(s, out)
    out.window = s.reactions and s.row.status == "playing" and s.window_open()  # shown again, judged afresh


def _stop(s: TableState, cmd: c.Stop, out: c.Outcome) -> None:
    s.stopping = True
    s.bot = None


def _expire(s: TableState, cmd: c.Expire, out: c.Outcome) -> None:
    if s.row.status == "waiting" and not s.stopping:
        _close(s, out, "nobody joined in time", status="expired")


def _close(s: TableState, out: c.Outcome, why: str, status: str = "closed") -> None:
    log.info("table %s %s: %s", s.id, status, why)
    s.row.status = status
    out.writes.append(StatusRow(s.id, status))
    s.deadlines.clear()
    _save(s, out)
    out.frames.append(c.LIVE_FRAME)


# -- who is at the table ---------------------------------------------------------------------
def _attach(s: TableState, cmd: c.Attach, out: c.Outcome) -> None:
    """A connection joins; the person of its seat is back (the runner sends its snapshot)."""
    person = s.person(cmd.seat)
    if person is None:
        return
    person.conns += 1
    if person.conns > 1:
        return
    seat = person.row.seat
    changed = person.grace_pending or person.row.gone
    person.grace_pending = False
    had = [s.deadlines.remove("grace", seat), s.deadlines.remove("close")] != [None, None]
    _set_gone(s, out, person, False)
    if had:
        _save(s, out)
    if changed:
        _schedule(s, out)
    out.frames.append(c.LIVE_FRAME)


def _detach(s: TableState, cmd: c.Detach, out: c.Outcome) -> None:
    """A connection ends: the last of a person's starts their grace time (short when they left)."""
    person = s.person(cmd.seat)
    if person is None or not person.row.taken:
        return
    seat, left = person.row.seat, cmd.left
    person.conns = max(0, person.conns - 1)
    if left and cmd.everywhere:
        out.close_seat = seat  # the leave button: every tab goes
        person.conns = 0
    if person.conns > 0:
        return
    if left:
        _set_gone(s, out, person, True)
    # after the game too: someone who is gone does not hold up a rematch
    if s.row.status in (*LIVE, "over") and (_lost(s, seat, GRACE_LEFT) if left else _lost(s, seat)):
        _save(s, out)
    _presence_changed(s, out)
    out.frames.append(c.LIVE_FRAME)
    _check_rematch(s, out)


def _lost(s: TableState, seat: int, left: float | None = None) -> bool:
    """``seat``'s grace begins: ``left`` seconds after leaving, else the grace of a lost
    connection if none runs yet (none over days: a closed page is normal); whether it began."""
    if left is None and (s.deadlines.get("grace", seat) is not None or s.over_days):
        return False
    s.grace(seat, GRACE_LOST if left is None else left)
    return True


def _gone(s: TableState, out: c.Outcome, seat: int) -> None:
    """A grace time ran out: the person counts as gone; a stand-in plays from now on."""
    person = s.person(seat)
    if person is None:
        return
    person.grace_pending = False
    if person.conns > 0:
        return
    _set_gone(s, out, person, True)
    if s.row.status == "waiting" and all(p.row.gone and not p.grace_pending for p in s.people()):
        s.deadlines.set(Deadline("close", s.now + s.deadlines.seconds(CLOSE_WAITING)))
        _save(s, out)
    _presence_changed(s, out)
    _schedule(s, out)
    out.frames.append(c.LIVE_FRAME)
    _check_rematch(s, out)


def _set_gone(s: TableState, out: c.Outcome, person: Person, gone: bool) -> None:
    if person.row.gone != gone:
        person.row.gone = gone
        out.writes.append(GoneRow(s.id, person.row.seat, gone))


def _seat_taken(s: TableState, cmd: c.SeatTaken, out: c.Outcome) -> None:
    """A free seat was taken (the lobby's join): everyone gets a fresh snapshot. Until the
    newcomer's page connects, the seat has the grace of a lost connection."""
    person = s.person(cmd.seat)
    s.deadlines.remove("close")  # someone new sat down
    if person is not None and person.conns == 0 and _lost(s, cmd.seat):
        _save(s, out)
    _schedule(s, out)
    out.frames.append(c.SNAPSHOTS)
    _first_turn(s, out, cmd.seat)


def _first_turn(s: TableState, out: c.Outcome, joined: int | None) -> None:
    """The game has just begun (the last seat taken): whoever moves first is told, unless it is
    the person who has just sat down (their page shows it)."""
    seat = s.game.to_move
    person = s.person(seat)
    if seat is None or seat == joined or person is None or not person.row.taken:
        return
    if s.row.status == "playing" and s.version == 0:
        out.tell.append(c.Tell(seat, "turn"))


def _reseated(s: TableState, cmd: c.Reseated, out: c.Outcome) -> None:
    s.seats[cmd.seat] = controllers(s.row.game, s.row.seed, [s.row.seats[cmd.seat]])[0]
    if not s.row.seats[cmd.seat].taken:  # a taken one: its SeatTaken tells everyone
        out.frames.append(c.SNAPSHOTS)


def _playing(s: TableState, cmd: c.Playing, out: c.Outcome) -> None:
    if s.row.status == "waiting":
        s.row.status = "playing"
        if not cmd.stored:
            out.writes.append(StatusRow(s.id, "playing"))
        if cmd.joined is None:  # else the seat's SeatTaken tells, once
            _first_turn(s, out, None)


# -- rematch --------------------------------------------------------------------------------
def _vote(s: TableState, cmd: c.Vote, out: c.Outcome) -> None:
    if cmd.seat is None or s.person(cmd.seat) is None:
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "only the people at the table can ask for a rematch")
    if s.row.status != "over":
        raise ProtocolError(ErrorCode.NOT_OVER, "a rematch is possible once the game is over")
    s.votes.add(cmd.seat)
    out.frames.append(c.LIVE_FRAME)
    _check_rematch(s, out)


def _check_rematch(s: TableState, out: c.Outcome) -> None:
    """The next table is dealt once every person still here voted (someone gone holds up nothing)."""
    if s.row.status != "over" or not s.votes or s.row.next_id is not None:
        return
    staying = [p.row.seat for p in s.people() if p.presence != "gone"]
    if all(seat in s.votes for seat in staying):
        out.next_table = True
        out.frames.append(c.LIVE_FRAME)


def _next_deal(s: TableState, cmd: c.NextDeal, out: c.Outcome) -> None:
    if not s.stopping and s.row.next_id is None:
        out.next_table = True
        out.frames.append(c.LIVE_FRAME)


def _seated(s: TableState, seat: int | None, does: str) -> int:
    """``seat``, if a person sits there; else the refusal: only they ``does``."""
    person = s.person(seat)
    if seat is None or person is None or not person.row.taken:
        raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"only the people seated at the table {does}")
    return seat


def _being_played(s: TableState, can: str) -> None:
    if s.row.status != "playing" or s.game.is_over:
        raise ProtocolError(ErrorCode.NOT_STARTED, f"only a game being played {can}")


# -- emotes ---------------------------------------------------------------------------------
def _emote(s: TableState, cmd: c.Emote, out: c.Outcome) -> None:
    """A quick reaction: from a person seated, one of the fixed set, within the seat's rate."""
    seat = _seated(s, cmd.seat, "send reactions")
    if cmd.emote not in EMOTES:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"unknown emote {cmd.emote!r}; available: {', '.join(EMOTES)}")
    bucket = taken(s.emoted.get(seat), cmd.now)
    if bucket is None:
        raise ProtocolError(ErrorCode.RATE_LIMITED, "too many reactions from this seat; wait a moment")
    s.emoted[seat] = bucket
    out.frames.append(c.EmoteOf(seat, cmd.emote))


# -- pause and pace ----------------------------------------------------------------------------
def _pace(s: TableState, cmd: c.Pace, out: c.Outcome) -> None:
    """Someone seated sets the bots' ``speed`` and stands on a pause: asks for one or agrees
    (``paused``), or resumes or withdraws; alone, a pause starts at once, else once everyone
    connected agreed. While paused nothing moves by itself, the turn clock is frozen and moves
    are refused; anyone seated resumes it; it ends by itself when nobody is left."""
    seat = _seated(s, cmd.seat, "pause it or set the bots' pace")
    stands = s.paused or seat in s.asked
    if cmd.paused and not stands:
        _being_played(s, "can be paused")
        s.asked.append(seat)
    elif not cmd.paused and stands:
        if s.paused:
            _resume(s, out)
        elif s.asked[0] == seat:  # the asker withdraws the request
            s.asked = []
        else:
            s.asked.remove(seat)
    s.speed = cmd.speed
    _check_pause(s, out)
    _schedule(s, out)
    out.frames.append(c.LIVE_FRAME)


def _check_pause(s: TableState, out: c.Outcome) -> None:
    """A request everyone connected agreed to pauses the table; one nobody stands by is dropped."""
    if s.paused or not s.asked:
        return
    present = s.present()
    s.asked = [seat for seat in s.asked if seat in present]
    if s.asked and all(seat in s.asked for seat in present):
        s.deadlines.set(Deadline("pause", s.now, seat=s.asked[0]))
        s.asked = []
        _freeze(s, out)
        _save(s, out)


def _freeze(s: TableState, out: c.Outcome) -> None:
    """Hold the running turn clock with the seconds it has left (stored: a restart keeps them)."""
    turn = s.deadlines.get("turn")
    if turn is not None and turn.left is None:
        s.deadlines.set(turn.frozen(s.now))
        _save(s, out)
        if s.over_days and s.game.to_move is not None:  # its reminders wait for the clock too
            out.tell.append(c.Tell(s.game.to_move, "stop"))


def _resume(s: TableState, out: c.Outcome) -> None:
    """End the pause: the turn clock runs on with the time it had left."""
    s.deadlines.remove("pause")
    s.asked = []
    _run_on(s, out)


def _run_on(s: TableState, out: c.Outcome) -> None:
    """A stop ended (a pause, someone away): unless another holds it, the turn clock runs on
    with the time it had left, and its reminders come later by the stop."""
    turn = s.deadlines.get("turn")
    if turn is not None and turn.left is not None and not s.stopped:
        s.deadlines.set(turn := turn.thawed(s.now))
        _remind(s, out, turn, s.turn_seconds or 0.0)
    _save(s, out)
    _schedule(s, out)


# -- away days ---------------------------------------------------------------------------------
def _away(s: TableState, cmd: c.Away, out: c.Outcome) -> None:
    """A person at a table over days is away for some days (up to ``AWAY_DAYS`` a calendar
    month, stored with the table): the clock stops for everyone, as in a pause, until they are
    back (then, or earlier by coming back, the days not begun are theirs again)."""
    seat = _seated(s, cmd.seat, "can be away")
    if not s.over_days:
        raise ProtocolError(ErrorCode.NOT_STARTED, "only a table over days has away days")
    away, left, day = s.deadlines.get("away", seat), s.away_days_left(seat), s.deadlines.seconds(86400.0)
    if cmd.days == 0:
        if away is None:
            raise ProtocolError(ErrorCode.NOT_STARTED, "you are not away; nothing changed")
        s.deadlines.remove("away", seat)
        unused = math.floor(max(0.0, away.due - s.now) / day)  # the days not begun are given back
        _used(s, seat, AWAY_DAYS - left - unused)
        _run_on(s, out)
        out.frames.append(c.LIVE_FRAME)
        return
    _being_played(s, "can wait for you")
    if away is not None:
        raise ProtocolError(ErrorCode.NOT_STARTED, "you are away already; come back first")
    if cmd.days > left:
        raise ProtocolError(
            ErrorCode.AWAY_USED_UP,
            f"you may be away {left} more days at this table this month (of {AWAY_DAYS}); nothing changed",
        )
    _used(s, seat, AWAY_DAYS - left + cmd.days)
    s.deadlines.set(Deadline("away", s.now + cmd.days * day, seat=seat))
    _freeze(s, out)
    _save(s, out)
    _schedule(s, out)
    out.frames.append(c.LIVE_FRAME)


def _used(s: TableState, seat: int, days: int) -> None:
    s.deadlines.set(Deadline("allowance", month_start(s.now), seat=seat, version=max(0, days)))


def _presence_changed(s: TableState, out: c.Outcome) -> None:
    """A pause with no person left ends (the stand-ins finish the game); a request may now be agreed."""
    if s.paused and not any(not p.row.gone for p in s.people()):
        _resume(s, out)
    _check_pause(s, out)


# -- reaction windows ------------------------------------------------------------------------
def _react(s: TableState, cmd: c.React, out: c.Outcome) -> None:
    if not s.reactions:
        raise ProtocolError(ErrorCode.ILLEGAL, f"{s.row.game} is played in turns, not by reactions")
    _open(s)


def _decide(s: TableState, cmd: c.Decide, out: c.Outcome) -> None:
    referee = s.referee
    if s.stopping or referee is None or not referee.is_open or s.version != cmd.version:
        return
    decision = referee.decide(cmd.at)
    if decision is None:
        out.window_wake = True
        return
    # a timeout is stored as the revealer's (the engine's actor for it)
    seat = int(s.game.view(None)["revealer"]) if decision.seat is None else decision.seat
    ctl = s.seats[seat]
    by = STAND_IN if decision.seat is not None and isinstance(ctl, Person) and ctl.stand_in else None
    _ahead(s, out, Pending(seat, decision.move, by, decision.ms, "decision", None, referee.entry(decision), decision))


HANDLERS: dict[type[c.Command], Callable[[TableState, Any, c.Outcome], None]] = {
    c.Move: _move,
    c.Emote: _emote,
    c.Away: _away,
    c.Committed: _committed,
    c.Reloaded: _reloaded,
    c.BotDue: _bot_due,
    c.Due: _due,
    c.Retry: _retry,
    c.Start: _start,
    c.Stop: _stop,
    c.Expire: _expire,
    c.Attach: _attach,
    c.Detach: _detach,
    c.SeatTaken: _seat_taken,
    c.Playing: _playing,
    c.Reseated: _reseated,
    c.Vote: _vote,
    c.NextDeal: _next_deal,
    c.Pace: _pace,
    c.React: _react,
    c.Decide: _decide,
}
