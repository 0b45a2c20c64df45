"""The one referee of reaction windows (mauseloch.realtime.referee): deadline, first decisive claim,
ties from the seeded stream, and the same outcome whoever drives its clock."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mauseloch
import mauseloch.bots
from mauseloch.core.engine import Rng
from mauseloch.core.views import View
from mauseloch.games.mausgeflippt.views import MausgeflipptView
from mauseloch.realtime.referee import Referee, play_bots
from mauseloch.tui.mausgeflippt import make_app

GAME = "mausgeflippt"


def fresh(seed: int = 3, players: int = 3, **options: Any) -> mauseloch.Game:
    game = mauseloch.new_game(GAME, players=players, seed=seed, options=options or None)
    game.play("reveal")
    return game


def reactions(game: mauseloch.Game, seat: int) -> list[str]:
    return [m for m in game.legal_moves(seat) if m != "timeout"]


def test_the_earliest_claim_decides_when_its_time_comes() -> None:
    game = fresh()
    ref = Referee(game, ties_seed=1)
    ref.open()
    ref.claim(0, reactions(game, 0)[0], 500)
    ref.claim(2, reactions(game, 2)[0], 320)
    assert ref.due() == 320
    assert ref.advance(319) is None and ref.is_open  # nobody has reacted yet at 319 ms
    decision = ref.advance(320)
    assert decision is not None and (decision.seat, decision.ms, decision.tied) == (2, 320, (2,))
    assert not ref.is_open and game.record()["moves"][-1] == [2, reactions_move(ref), 320]
    assert game.to_move == 2  # MG-6: the reacting player reveals next


def reactions_move(ref: Referee) -> str:
    return str(ref.log[-1]["decision"]["move"])


def test_decide_then_commit_plays_the_same_decision_once() -> None:
    """A server stores a decision before it counts: decide() does not play, commit() does."""
    game = fresh()
    ref = Referee(game, ties_seed=1)
    ref.open()
    ref.claim(1, reactions(game, 1)[0], 250)
    ref.claim(2, reactions(game, 2)[0], 250)  # an exact tie: drawn once from the stream
    decision = ref.decide(250)
    assert decision is not None and decision.tied == (1, 2)
    assert ref.decide(400) is decision and ref.is_open and game.to_move is None  # nothing played yet
    assert ref.entry(decision) == {"claims": [c.to_dict() for c in ref.claims], "decision": decision.to_dict()}
    with pytest.raises(ValueError):
        ref.claim(0, reactions(game, 0)[0], 100)  # decided: no more claims
    assert ref.commit(decision) is decision
    assert not ref.is_open and game.record()["moves"][-1] == [decision.seat, decision.move, 250]
    assert ref.log[-1] == ref.log[-1] | {"decision": decision.to_dict()}
    with pytest.raises(ValueError):
        ref.commit(decision)  # once only


def test_a_claim_known_late_still_beats_a_later_one() -> None:
    # the terminal: a bot's timer fires late, the key press (measured 410 ms) reaches the
    # referee first; the bot's 400 ms is earlier and wins
    game = fresh()
    ref = Referee(game, ties_seed=1)
    ref.open()
    ref.claim(1, reactions(game, 1)[0], 400)
    ref.claim(0, reactions(game, 0)[0], 410)
    decision = ref.advance(410)
    assert decision is not None and decision.seat == 1 and decision.ms == 400


def test_deadline_plays_timeout_and_late_claims_do_not_count() -> None:
    game = fresh(window_ms=1000)
    ref = Referee(game, ties_seed=1)
    ref.open()
    late = ref.claim(1, reactions(game, 1)[0], 1000)
    assert late.status == "late"
    assert ref.due() == 1000 and ref.advance(999) is None
    decision = ref.advance(1000)
    assert decision is not None and (decision.seat, decision.move, decision.ms) == (None, "timeout", 1000)
    assert game.record()["moves"][-1] == [0, "timeout", 1000]
    assert ref.log[-1]["claims"][0]["status"] == "late"


def test_exact_ties_are_drawn_from_the_seeded_stream() -> None:
    def winners(seed: int) -> list[int]:
        game = mauseloch.new_game(GAME, players=3, seed=1)
        ref = Referee(game, ties_seed=seed)
        out = []
        while not game.is_over and len(out) < 40:
            game.play("reveal")
            ref.open()
            for s in range(3):
                ref.claim(s, reactions(game, s)[0], 250)
            decision = ref.settle()
            assert decision.tied == (0, 1, 2) and decision.ms == 250
            out.append(decision.seat)
        return out

    a, b = winners(7), winners(7)
    assert a == b  # the same seed, the same winners
    assert set(a) == {0, 1, 2}  # every tied seat can win
    assert winners(8) != a  # another seed, another draw
    # and the draw is the stream's: the first window of seed 7 takes Rng(7).below(3)
    assert a[0] == Rng(7).below(3)


def test_bad_claims_change_nothing() -> None:
    game = fresh()
    ref = Referee(game, ties_seed=1)
    with pytest.raises(ValueError, match="no reaction window"):
        ref.claim(0, "flip", 100)
    ref.open()
    with pytest.raises(ValueError, match="already open"):
        ref.open()
    before = json.dumps(game.record())
    for seat, move, ms, match in (
        (0, "catch no-such-card", 100, "not a reaction"),
        (0, "timeout", 100, "not a reaction"),
        (7, "flip", 100, "seat must be"),
        (0, "flip", -1, "ms must be"),
        (0, "flip", 1.5, "ms must be"),
        (0, 3, 100, "must be a string"),
    ):
        with pytest.raises(ValueError, match=match):
            ref.claim(seat, move, ms)  # type: ignore[arg-type]
    assert ref.claims == [] and json.dumps(game.record()) == before
    ref.claim(0, " FLIP ", 300)
    assert ref.claim(0, "flip", 200).status == "again"  # one claim per seat and window
    assert ref.settle().ms == 300


def test_a_turn_based_game_has_no_referee() -> None:
    with pytest.raises(ValueError, match="turns"):
        Referee(mauseloch.new_game("mau-mau", players=2, seed=1), ties_seed=1)
    assert mauseloch.GAMES["mau-mau"].dynamics == "turns"
    assert mauseloch.GAMES[GAME].dynamics == "reactions"
    assert mauseloch.GAMES[GAME].to_dict()["dynamics"] == "reactions"


class ScriptedBot:
    """Reacts from its view alone, with times that often tie (so the tie stream matters)."""

    kind = "scripted"

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def choose(self, view: View, legal: list[str]) -> str:
        return legal[0]

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        assert isinstance(view, MausgeflipptView) and view.mouse is not None
        number = int(view.mouse.mouse[1:])
        moves = [m for m in legal if m != "timeout"]
        if not moves or (number + self.seat) % 5 == 0:
            return None, 0
        return moves[(number + self.seat) % len(moves)], 300 + 40 * ((number * (self.seat + 1)) % 3)


class StillBot(ScriptedBot):
    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        return None, 0


@pytest.mark.slow
def test_simulator_and_terminal_give_the_same_game_for_the_same_reaction_times(run_async: Any) -> None:
    options = {"hand_size": 4, "window_ms": 2000}
    sim_game = mauseloch.new_game(GAME, players=3, seed=42, options=options)
    sim = Referee(sim_game, ties_seed=99)
    play_bots(sim, [StillBot(0), ScriptedBot(1), ScriptedBot(2)])
    ties = [e["decision"]["tied"] for e in sim.log if len(e["decision"]["tied"]) > 1]
    assert ties  # the comparison covers drawn ties

    term_game = mauseloch.new_game(GAME, players=3, seed=42, options=options)
    app = make_app(term_game, {1: ScriptedBot(1), 2: ScriptedBot(2)}, me=0, time_scale=0.001, countdown=1, ties_seed=99)

    async def run() -> None:
        async with app.run_test() as pilot:
            while not app.finished:  # the game's end, however slow the machine; a stall meets the guard
                await pilot.pause(0.001)
            await pilot.press("q")

    run_async(asyncio.wait_for(run(), 120))
    assert term_game.record() == sim_game.record()
    assert [(e["decision"]["seat"], e["decision"]["ms"], e["decision"]["tied"]) for e in app.referee.log] == [
        (e["decision"]["seat"], e["decision"]["ms"], e["decision"]["tied"]) for e in sim.log
    ]


def test_referee_record_replays_and_its_log_matches_the_moves() -> None:
    game = mauseloch.new_game(GAME, players=4, seed=5)
    referee = Referee.for_seed(game, 5)
    play_bots(
        referee, [mauseloch.bots.make_bot(GAME, k, seed=s) for s, k in enumerate(["easy", "normal", "hard", "random"])]
    )
    record = json.loads(json.dumps(referee.record()))
    again = mauseloch.replay(record)
    assert again.events == game.events and again.result() == game.result()
    reactions_played = [m for m in record["moves"] if m[1] != "reveal"]
    decisions = [e["decision"] for e in record["referee"]]
    assert len(decisions) == len(reactions_played)
    for move, decision in zip(reactions_played, decisions, strict=True):
        assert move[1:] == [decision["move"], decision["ms"]]
        if decision["seat"] is not None:
            assert move[0] == decision["seat"]


@settings(max_examples=60, deadline=None)
@given(
    times=st.lists(st.one_of(st.none(), st.integers(0, 2500)), min_size=2, max_size=6),
    order_seed=st.integers(0, 1000),
    ties_seed=st.integers(0, 2**32),
)
def test_the_decision_depends_on_the_times_not_on_the_order_of_submission(
    times: list[int | None], order_seed: int, ties_seed: int
) -> None:
    def decide(order: list[int]) -> tuple[Any, ...]:
        game = fresh(seed=11, players=len(times), window_ms=2000, hand_size=3)
        ref = Referee(game, ties_seed=ties_seed)
        ref.open()
        for s in order:
            ms = times[s]
            if ms is not None:
                ref.claim(s, reactions(game, s)[0], ms)
        d = ref.settle()
        return d.seat, d.move, d.ms, d.tied, json.dumps(game.record())

    seats = list(range(len(times)))
    shuffled = seats[:]
    Rng(order_seed).shuffle(shuffled)
    first, second = decide(seats), decide(shuffled)
    assert first == second
    in_time = [ms for ms in times if ms is not None and ms < 2000]
    seat, _, ms, tied, _ = first
    if not in_time:
        assert seat is None and ms == 2000
    else:
        assert ms == min(in_time) and times[seat] == ms
        assert list(tied) == [s for s in seats if times[s] == ms]


def test_a_saved_refereed_record_loads_and_replays(tmp_path: Any) -> None:
    from mauseloch.core.record import load, save

    game = mauseloch.new_game(GAME, players=2, seed=8)
    referee = Referee.for_seed(game, 8)
    play_bots(referee, [mauseloch.bots.make_bot(GAME, "hard", seed=s) for s in range(2)])
    path = save(game, tmp_path / "game.json", referee.record())
    assert json.loads(path.read_text())["referee"] == referee.log
    assert load(path).events == game.events
