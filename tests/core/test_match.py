"""Match play (mauseloch.core.match): cumulative card points, rotating first player, one record."""

from __future__ import annotations

import json
from typing import Any

import pytest

import mauseloch
from mauseloch.bots import make_bot
from mauseloch.core.match import Match, deal_seed, load_any, replay_match
from mauseloch.core.record import save


def play_out(match: Match, deals: int | None = None) -> None:
    bots = [make_bot("mau-mau", "heuristic", seed=s) for s in range(match.players)]
    done = 0
    while True:
        game = match.game
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            game.play(bots[seat].choose(game.typed_view(seat), game.legal_moves()))
        match.deal_over()
        done += 1
        if match.is_over or done == deals:
            return
        match.next_deal()


@pytest.mark.slow
def test_points_add_up_and_the_first_player_rotates() -> None:
    match = Match(players=3, seed=11, deals=3)
    leaders = []
    while True:
        leaders.append(match.player_at(0))
        assert match.game.seed == deal_seed(11, match.deal_number - 1) < mauseloch.core.engine.SEED_LIMIT
        play_out(match, 1)
        result = match.game.result()
        # the booked points are each player's cards left, read through the seat rotation
        assert match.scores[-1] == [result["points"][match.seat_of(p)] for p in range(3)]
        if match.is_over:
            break
        match.next_deal()
    assert leaders == [0, 1, 2]
    assert match.totals == [sum(s[p] for s in match.scores) for p in range(3)]
    standings = match.standings()
    best = min(match.totals)
    assert [s["rank"] == 1 for s in standings] == [t == best for t in match.totals]


def test_a_target_score_ends_the_match_early() -> None:
    match = Match(players=4, seed=3, deals=50, target=30)
    play_out(match)
    assert max(match.totals) >= 30
    assert all(max(sum(s[p] for s in match.scores[:i]) for p in range(4)) < 30 for i in range(1, len(match.scores)))
    assert match.is_over and len(match.games) < 50
    with pytest.raises(ValueError, match="over"):
        match.next_deal()


def test_the_whole_match_is_one_record_that_replays(tmp_path: Any) -> None:
    match = Match(players=2, seed=5, deals=3, options={"ace_skips": True})
    play_out(match, 2)
    match.next_deal()
    game = match.game  # the third deal, a few moves in: a saved match goes on from here
    for _ in range(3):
        game.play(game.legal_moves()[0])
    path = save(match, tmp_path / "m.json")
    again = load_any(path)
    assert isinstance(again, Match)
    assert again.record() == match.record() and again.scores == match.scores
    assert again.game.view(0) == match.game.view(0) and not again.is_over


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("target"), "missing target"),
        (lambda r: r["games"][0].update(seed=1), "its seed"),
        (lambda r: r["games"][1]["moves"].append([0, "draw"]), "deal 2"),
        (lambda r: r["games"].append(r["games"][0]), "already over"),
        (lambda r: r.update(deals=0), "1 to 99 deals"),
        (lambda r: r.update(game="aus-die-maus"), "match play is for"),
    ],
)
def test_a_broken_match_record_is_refused_by_name(change: Any, message: str) -> None:
    match = Match(players=2, seed=9, deals=2)
    play_out(match)
    record = json.loads(json.dumps(match.record()))
    change(record)
    with pytest.raises(ValueError, match=message):
        replay_match(record)
