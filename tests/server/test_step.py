"""The table's step without an event loop: any sequence of commands keeps its promises.

A driver plays the runner's part with a store in memory: it stores each outcome's writes in
order, answers each fenced write (stored, stored first by another writer, or failed) and
renders every frame for every seat as the hub would. Over any sequence of commands (moves good
and bad, presence, pauses, votes, bots and clocks due) the versions of the published updates
strictly increase, nothing is published before it is stored, and every seat's frame holds that
seat's own view.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import msgspec
from hypothesis import given
from hypothesis import strategies as st

import mauseloch
from mauseloch.server.protocol import ProtocolError
from mauseloch.server.storage.rows import MoveRow, SeatRow, TableRow, now
from mauseloch.server.table import commands as c
from mauseloch.server.table import frames
from mauseloch.server.table.state import TableState
from mauseloch.server.table.step import step
from tests.paths import ROOT

ACTIONS = (
    "burst",
    "move",
    "move",
    "move",
    "bad",
    "stale",
    "attach",
    "detach",
    "leave",
    "bot",
    "due",
    "pace",
    "away",
    "vote",
    "expire",
)
COMMITS = ("stored", "stored", "stored", "stored", "stale", "error")


def new_row(seed: int, kinds: list[str], clock: str) -> TableRow:
    # a short move limit: many examples play a game to its end (a rematch, a table over)
    record = mauseloch.new_game("mau-mau", players=len(kinds), seed=seed, options={"move_limit": 40}).record()
    seats = [
        SeatRow(seat=i, kind="bot", name=f"Bot {i}", bot="random")
        if kind == "bot"
        else SeatRow(seat=i, kind="human", name=f"P{i}", token_hash=f"h{i}")
        for i, kind in enumerate(kinds)
    ]
    return TableRow(id="t", game="mau-mau", title="", players=len(kinds), options=record["options"],
                    seed=record["seed"], deck=record["deck"], status="playing", created=now(), seats=seats,
                    clock=clock)  # fmt: skip


@dataclass
class Driver:
    """The runner's part, in memory and without asyncio."""

    state: TableState
    moves: list[list[Any]] = field(default_factory=list)  # what the store holds
    published: list[int] = field(default_factory=list)  # the versions of the updates published
    t: float = 1_000.0

    def now(self) -> float:
        self.t += 0.5
        return self.t

    def run(self, command: c.Command, commits: list[str]) -> None:
        try:
            out = step(self.state, command)
        except ProtocolError:
            return  # refused: nothing changed (checked by the caller's invariants)
        while True:
            for w in out.writes:
                if isinstance(w, MoveRow):
                    assert w.version == len(self.moves) == self.state.version  # written ahead, in order
            if not out.fence:
                break
            answer = commits.pop() if commits else "stored"
            move = out.writes[-1]
            if isinstance(move, MoveRow) and answer == "stale":  # another writer stored it first
                self.moves.append([move.seat, move.move])
                row = copy.deepcopy(self.state.row)
                row.moves, row.by = [list(m) for m in self.moves], [*row.by, None]
                out = step(self.state, c.Committed(failed="stale", now=self.now()))
                assert out.reload and not out.frames
                out = step(self.state, c.Reloaded(row=row, now=self.now()))
                break
            if isinstance(move, MoveRow) and answer == "error":
                out = step(self.state, c.Committed(failed="error", now=self.now()))
                assert self.state.version == len(self.moves)  # nothing changed
                break
            if isinstance(move, MoveRow):
                self.moves.append([move.seat, move.move] if move.ms is None else [move.seat, move.move, move.ms])
            out = step(self.state, c.Committed(now=self.now()))
        self.publish(out)

    def publish(self, out: c.Outcome) -> None:
        s = self.state
        for frame in out.frames:
            assert s.version == len(self.moves) and s.row.moves == self.moves  # nothing shown before stored
            if isinstance(frame, c.UpdateOf):
                assert not self.published or s.version > self.published[-1]
                self.published.append(s.version)
            for seat in [None, *range(s.row.players)]:
                sent = json.loads(frames.message_for(s, frame, self.t)(seat))
                if "view" in sent:  # an update or a snapshot: that seat's own view
                    assert sent["view"] == json.loads(json.dumps(s.game.view(seat)))
                    assert sent["version"] == s.version


def command_of(d: Driver, action: str, n: int) -> c.Command:
    s, now = d.state, d.now()
    seat = s.game.to_move
    players = s.row.players
    pick = n % players
    if action == "bot" or (action == "move" and s.bot is not None):  # a bot's or a stand-in's turn
        return c.BotDue(version=s.version, now=s.bot.due if s.bot is not None else now)
    if action in ("move", "bad", "stale"):
        who = seat if seat is not None else pick
        legal = s.game.legal_moves(who) if seat is not None else []
        move = legal[n % len(legal)] if legal and action != "bad" else "no-such-card"
        return c.Move(seat=who, move=move, version=s.version - (action == "stale"), now=now)
    if action == "attach":
        return c.Attach(seat=pick if n % 3 else None, now=now)
    if action in ("detach", "leave"):
        return c.Detach(seat=pick, left=action == "leave", everywhere=bool(n % 2), now=now)
    if action == "due":
        due = list(s.deadlines)
        if due:
            d.t = max(d.t, due[n % len(due)].due)
            return c.Due(deadline=due[n % len(due)], now=d.t)
        return c.Retry(now=now)
    if action == "pace":
        return c.Pace(seat=pick, paused=bool(n % 2), speed=1.0, now=now)
    if action == "away":
        return c.Away(seat=pick, days=n % 4, now=now)
    if action == "vote":
        return c.Vote(seat=pick, now=now)
    return c.Expire(now=now)


@given(
    seed=st.integers(0, 2**31),
    kinds=st.lists(st.sampled_from(["human", "human", "bot"]), min_size=2, max_size=4),
    clock=st.sampled_from(["off", "fast", "1d"]),
    actions=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 10**6)), max_size=80),
    commits=st.lists(st.sampled_from(COMMITS), max_size=80),
)
def test_any_sequence_of_commands_keeps_the_tables_promises(
    seed: int, kinds: list[str], clock: str, actions: list[tuple[str, int]], commits: list[str]
) -> None:
    d = Driver(TableState.of(new_row(seed, kinds, clock), now=1_000.0, bot_delay=0.0))
    d.run(c.Start(now=d.now()), commits)
    for action, n in actions:
        before = (d.state.version, d.state.seq)
        for i in range(25 if action == "burst" else 1):  # a burst: the game plays on for a while
            d.run(command_of(d, "move" if action == "burst" else action, n + i), commits)
        assert d.state.pending is None  # every fenced write was answered
        assert d.state.version >= before[0] and d.state.seq == len(d.state.by) == d.state.game.event_count >= before[1]
        assert d.state.version == len(d.moves) == len(d.state.row.moves)  # memory and store agree
    replayed = mauseloch.new_game("mau-mau", players=d.state.row.players, seed=d.state.row.seed,
                                  options=d.state.row.options, deck=d.state.row.deck)  # fmt: skip
    for seat, move, *_ in d.moves:
        replayed.play(move, seat=seat)
    assert replayed.view(None) == d.state.game.view(None)  # the store's moves are the game


def test_a_refused_command_changes_nothing() -> None:
    state = TableState.of(new_row(3, ["human", "human"], "off"), now=1_000.0)
    step(state, c.Start(now=1_000.0))
    before = msgspec.json.encode([state.version, state.seq, state.row.moves, state.deadlines.to_list()])
    seat = state.game.to_move
    assert seat is not None
    for command in (
        c.Move(seat=1 - seat, move=state.game.legal_moves(seat)[0], version=0, now=1_001.0),  # not its turn
        c.Move(seat=seat, move="timeout", version=0, now=1_001.0),
        c.Move(seat=seat, move=state.game.legal_moves(seat)[0], version=5, now=1_001.0),  # stale
        c.Move(seat=None, move=state.game.legal_moves(seat)[0], version=0, now=1_001.0),
        c.Vote(seat=seat, now=1_001.0),  # not over
        c.Pace(seat=None, paused=True, speed=1.0, now=1_001.0),
    ):
        try:
            step(state, command)
        except ProtocolError:
            pass
        else:
            raise AssertionError(f"{command} was not refused")
    assert msgspec.json.encode([state.version, state.seq, state.row.moves, state.deadlines.to_list()]) == before
    assert state.pending is None


def test_reminders_over_days_follow_the_clock_through_a_pause() -> None:
    state = TableState.of(new_row(3, ["human", "human"], "1d"), now=1_000.0)
    reminds = [t.at for t in step(state, c.Start(now=1_000.0)).tell if t.kind == "remind"]
    assert reminds == [1_000.0 + 43_200, 1_000.0 + 77_760]  # half the day, nine tenths of it
    seat = state.game.to_move
    assert seat is not None
    step(state, c.Attach(seat=seat, now=1_000.0))
    paused = step(state, c.Pace(seat=seat, paused=True, speed=1.0, now=50_000.0))  # after the first
    assert [(t.seat, t.kind) for t in paused.tell] == [(seat, "stop")]  # those told before are void
    resumed = step(state, c.Pace(seat=seat, paused=False, speed=1.0, now=60_000.0))
    assert [(t.kind, t.at) for t in resumed.tell] == [("remind", 1_000.0 + 77_760 + 10_000)]  # later by the stop


def test_away_days_stop_the_clock_and_are_counted_a_month() -> None:
    day, t0 = 86_400.0, 1_796_601_600.0  # 2026-12-07 00:00 UTC
    state = TableState.of(new_row(3, ["human", "human"], "1d"), now=t0)
    step(state, c.Start(now=t0))
    seat = state.game.to_move
    assert seat is not None
    away = step(state, c.Away(seat=1 - seat, days=10, now=t0 + 3_600))
    assert [(t.seat, t.kind) for t in away.tell] == [(seat, "stop")]  # the mover's clock stands still too
    seats = frames.live(state, t0 + 3_600).seats
    assert (seats[1 - seat].away, seats[1 - seat].away_days, seats[seat].away) == (t0 + 3_600 + 10 * day, 4, None)
    for refused, code in (
        (c.Move(seat=seat, move=state.game.legal_moves(seat)[0], version=0, now=t0 + 7_200), "paused"),
        (c.Away(seat=1 - seat, days=2, now=t0 + 7_200), "not_started"),  # away already
        (c.Away(seat=seat, days=15, now=t0 + 7_200), "away_used_up"),
    ):
        try:
            step(state, refused)
        except ProtocolError as exc:
            assert exc.code == code, exc
        else:
            raise AssertionError(f"{refused} was not refused")
    back = step(state, c.Away(seat=1 - seat, days=0, now=t0 + 3_600 + 2.5 * day))  # early: 7 days given back
    assert [t.kind for t in back.tell] == ["remind", "remind"]  # the whole day is still the mover's
    assert state.deadlines.get("turn").due == t0 + 2.5 * day + day  # type: ignore[union-attr]
    assert frames.live(state, state.now).seats[1 - seat].away_days == 11
    reloaded = TableState.of(dataclasses.replace(state.row, deadlines=state.deadlines.to_list()), now=state.now)
    assert reloaded.away_days_left(1 - seat) == 11  # stored with the table
    try:
        step(state, c.Away(seat=1 - seat, days=12, now=state.now))
    except ProtocolError as exc:
        assert exc.code == "away_used_up" and "11 more days" in exc.message
    else:
        raise AssertionError("more than the month's away days")
    step(state, c.Away(seat=1 - seat, days=11, now=state.now))
    gone = state.deadlines.get("away", 1 - seat)
    assert gone is not None
    step(state, c.Due(deadline=gone, now=gone.due))  # back when the days are over: the clock runs on
    assert not state.stopped and state.deadlines.get("turn").left is None  # type: ignore[union-attr]
    assert state.away_days_left(1 - seat) == 0
    state.now = t0 + 30 * day  # a new month: fourteen days again
    assert state.away_days_left(1 - seat) == 14
    timed = TableState.of(new_row(3, ["human", "human"], "off"), now=t0)
    step(timed, c.Start(now=t0))
    try:
        step(timed, c.Away(seat=0, days=1, now=t0))
    except ProtocolError as exc:
        assert exc.code == "not_started"
    else:
        raise AssertionError("away days at a timed table")


def test_the_table_machine_needs_the_standard_library_and_msgspec_only() -> None:
    """The state, the step and the frames run as they are in a browser's Python (Pyodide)."""
    code = (
        "import sys\n"
        "import mauseloch.server.table.step, mauseloch.server.table.frames, mauseloch.server.table.commands\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    found = set(json.loads(out.stdout.strip().replace("'", '"')))
    assert found - {"__main__", "_distutils_hack", "typing_extensions"} == {"mauseloch", "msgspec"}
