"""Fair reaction times (mauseloch.realtime.fairness) and the referee collecting remote claims."""

from __future__ import annotations

import json

import pytest

import mauseloch
from mauseloch.realtime import fairness
from mauseloch.realtime.fairness import ANTICIPATION_MS, MAX_TRANSIT_MS, QUOTA_GAIN_MS, QUOTA_MAX_MS, Link
from mauseloch.realtime.referee import COLLECT_CAP_MS, Referee
from tests.paths import ROOT

GAME = "mausgeflippt"


def steady(up: float, down: float, skew: float = 12_345.0, jitter: tuple[float, ...] = (0.0,)) -> Link:
    """A link after 16 pings over a path of ``up``/``down`` ms (client clock = server - skew)."""
    link = Link()
    now = 0.0
    for i in range(fairness.KEEP):
        j = jitter[i % len(jitter)]
        answered = now + down
        link.ping(now, answered - skew, answered + up + j)
        now += 500
    return link


def honest_arrival(link: Link, up: float, reaction: float, skew: float = 12_345.0) -> float:
    """When an honest claim arrives (ms after the server's show moment 0): the client shows the
    card at the start time it was sent, on its own clock, and its message takes ``up``."""
    shown = link.client_time(0.0) + skew
    return shown + reaction + up


def test_offset_and_round_trip_come_from_the_fastest_ping() -> None:
    link = steady(30, 70)
    assert link.round_trip() == 100
    # NTP from a sample with 30 up, 70 down: off by (30 - 70) / 2 = -20
    assert link.offset() == pytest.approx(12_345.0 - 20)


def test_an_honest_claim_on_an_asymmetric_path_stands() -> None:
    for up, down in ((5, 300), (300, 5), (120, 120)):
        link = steady(up, down)
        at = honest_arrival(link, up, 430)
        time, status, observed = link.judge(430, at)
        assert (time, status) == (430, "valid"), (up, down, observed)


def test_a_claim_faster_than_the_connection_allows_gains_at_most_the_quota() -> None:
    link = steady(50, 50)
    at = honest_arrival(link, 50, 600)
    time, status, observed = link.judge(300, at)  # claims 300 ms faster than it could have been
    assert status == "valid"
    assert time == 600 - QUOTA_MAX_MS and observed["clamped_from"] == 300
    # a claim slower than its arrival allows counts as claimed: a claim only ever makes it worse
    time, _, observed = link.judge(599 + 40, at)
    assert time == 639 and "clamped_from" not in observed


def test_the_credited_transit_is_half_the_lowest_round_trip_ever_measured() -> None:
    link = steady(30, 70)
    assert link.transit() == 50 and link.reach() == 50 + QUOTA_MAX_MS
    now = 100_000.0
    for _ in range(2 * fairness.KEEP):  # later answers all slower: the floor stays
        link.ping(now, now + 300 - 12_345.0, now + 400)
        now += 500
    assert link.round_trip() == 400 and link.floor_rtt == 100 and link.transit() == 50
    far = steady(600, 600)  # a round trip of 1.2 s is credited only up to the cap
    assert far.transit() == MAX_TRANSIT_MS
    assert Link().transit() == 0.0 and Link().round_trip() == 0.0


def test_claims_under_100_ms_are_anticipation() -> None:
    link = steady(20, 20)
    _, status, observed = link.judge(ANTICIPATION_MS - 1, 150.0)
    assert status == "anticipation" and observed["anticipation"]
    assert link.judge(ANTICIPATION_MS, 150.0)[1] == "valid"


def test_a_claim_sent_before_the_card_could_be_seen_is_anticipation() -> None:
    # the card is sent ahead of its show time: a client that answers on receipt is not reacting
    link = steady(40, 40)
    _, status, observed = link.judge(300, 60.0)  # arrived 60 ms after the show: left at +20
    assert status == "anticipation" and observed["early"]
    assert link.judge(300, -30.0)[1] == "anticipation"  # arrived before the show
    assert link.judge(ANTICIPATION_MS, ANTICIPATION_MS + 40.0)[1] == "valid"  # the fastest honest claim


def test_the_lag_quota_limits_what_a_liar_gains_per_claim() -> None:
    # jittery answers (0..90 ms above the fastest): the quota pays for what a claim asks beyond
    # half the floor, and refills by QUOTA_GAIN_MS a claim
    link = steady(100, 100, jitter=(0, 30, 60, 90))
    extras = []
    for _ in range(60):
        at = honest_arrival(link, 100, 500)
        time, _, _ = link.judge(100, at)  # always claims the fastest allowed
        extras.append(500 - time)
    assert extras[0] == QUOTA_MAX_MS  # the quota starts full
    assert all(e == QUOTA_GAIN_MS for e in extras[1:])  # then only what it regained
    assert link.quota == QUOTA_GAIN_MS
    for _ in range(3):  # honest claims let it refill
        link.judge(500, honest_arrival(link, 100, 500))
    assert link.quota == QUOTA_MAX_MS


def test_lag_that_appears_later_is_paid_from_the_quota() -> None:
    link = steady(20, 20)
    now = 10_000.0
    for _ in range(fairness.KEEP):  # the client starts sitting on every ping for 200 ms
        answered = now + 20 + 200
        link.ping(now, answered - 12_345.0, answered + 20)
        now += 500
    assert link.round_trip() == pytest.approx(240)
    # it shows the card at the true moment, reacts in 500 ms (20 ms up) and claims 100 ms
    gains = [500 - link.judge(100, 520.0)[0] for _ in range(30)]
    assert gains[0] == QUOTA_MAX_MS and all(g == QUOTA_GAIN_MS for g in gains[1:])


def test_bad_ping_is_refused() -> None:
    link = Link()
    with pytest.raises(ValueError, match="before it was sent"):
        link.ping(100.0, 5.0, 50.0)
    assert not link.pings
    with pytest.raises(ValueError, match="no ping"):
        link.offset()


def remote_referee(links: dict[int, Link], players: int = 3) -> tuple[mauseloch.Game, Referee]:
    game = mauseloch.new_game(GAME, players=players, seed=9)
    game.play("reveal")
    referee = Referee.for_seed(game, 9, links)
    referee.open()
    return game, referee


def move(game: mauseloch.Game, seat: int) -> str:
    return next(m for m in game.legal_moves(seat) if m != "timeout")


def test_the_faster_reactor_on_a_slow_line_wins_within_the_collection_window() -> None:
    near, far = steady(10, 10), steady(150, 150)  # round trips 20 and 300 ms
    game, referee = remote_referee({0: near, 1: far}, players=2)
    a_at = honest_arrival(near, 10, 420)  # the near player: 420 ms, arrives first
    b_at = honest_arrival(far, 150, 380)  # the far player: 380 ms, arrives 110 ms later
    assert a_at < b_at
    assert referee.advance(a_at) is None
    referee.claim(0, move(game, 0), 420, at=a_at)
    assert referee.advance(a_at) is None  # collecting: the far line could still bring a faster claim
    assert referee.due() is not None and referee.due() <= a_at + COLLECT_CAP_MS  # type: ignore[operator]
    assert referee.advance(b_at - 1) is None
    referee.claim(1, move(game, 1), 380, at=b_at)
    decision = referee.advance(b_at)
    assert decision is not None and decision.seat == 1 and decision.ms == 380
    entry = referee.log[-1]
    assert [c["seat"] for c in entry["claims"]] == [0, 1] and all("observed" in c for c in entry["claims"])
    assert game.record()["moves"][-1] == [1, move_of(entry), 380]


def move_of(entry: dict) -> str:
    return str(entry["decision"]["move"])


def test_collection_ends_when_nobody_can_beat_the_best_and_never_after_the_cap() -> None:
    near, far = steady(10, 10), steady(150, 150)
    game, referee = remote_referee({0: near, 1: far}, players=2)
    a_at = honest_arrival(near, 10, 420)
    referee.claim(0, move(game, 0), 420, at=a_at)
    referee.advance(a_at)
    due = referee.due()
    assert due is not None and a_at < due <= a_at + min(COLLECT_CAP_MS, far.round_trip())
    assert due == pytest.approx(max(a_at, 420 + far.reach()))
    decision = referee.advance(due)
    assert decision is not None and decision.seat == 0 and decision.first == a_at
    assert decision.at - decision.first <= COLLECT_CAP_MS
    # with only near lines the window closes almost at once
    near2 = steady(10, 10)
    game, referee = remote_referee({0: steady(10, 10), 1: near2}, players=2)
    at = honest_arrival(near2, 10, 500)
    referee.claim(1, move(game, 1), 500, at=at)
    referee.advance(at)
    due = referee.due()
    assert due is not None and due - at <= near2.round_trip()


def test_anticipation_does_not_win_and_costs_the_seat_its_claim() -> None:
    a, b = steady(20, 20), steady(20, 20)
    game, referee = remote_referee({0: a, 1: b}, players=2)
    guess = referee.claim(0, move(game, 0), 60, at=90.0)
    assert guess.status == "anticipation"
    assert referee.claim(0, move(game, 0), 400, at=430.0).status == "again"
    referee.claim(1, move(game, 1), 450, at=470.0)
    decision = referee.settle()
    assert decision.seat == 1


def test_a_refereed_record_with_remote_claims_replays() -> None:
    links = {0: steady(10, 80), 1: steady(200, 40), 2: steady(60, 60)}
    game = mauseloch.new_game(GAME, players=3, seed=21, options={"hand_size": 5})
    referee = Referee.for_seed(game, 21, links)
    rounds = 0
    while not game.is_over and rounds < 200:
        rounds += 1
        if game.to_move is not None:
            game.play("reveal")
        referee.open()
        arrivals = sorted(
            (honest_arrival(links[s], (10, 200, 60)[s], 300 + 37 * ((rounds + s * 5) % 7)), s) for s in range(3)
        )
        for at, s in arrivals:
            if referee.advance(at) is not None:
                break
            referee.claim(s, move(game, s), 300 + 37 * ((rounds + s * 5) % 7), at=at)
        if referee.is_open:
            referee.settle()
    record = json.loads(json.dumps(referee.record()))
    again = mauseloch.replay(record)
    assert again.events == game.events
    decisions = [e["decision"] for e in record["referee"]]
    played = [m for m in record["moves"] if m[1] != "reveal"]
    assert [[d["move"], d["ms"]] for d in decisions] == [m[1:] for m in played]


@pytest.mark.slow
def test_the_benchmark_plays_every_cheat_through_the_real_server() -> None:
    """bench/fairness.py --smoke --json: every cheat is reported, answers held 200, 300 and 500 ms
    from the first ping among them, with their bound, and a ceiling of its own is measured too (no
    timing is asserted here)."""
    import subprocess
    import sys

    bench = ROOT / "bench" / "fairness.py"
    done = subprocess.run([sys.executable, str(bench), "--smoke", "--ceilings", "150", "--json"],
                          capture_output=True, text=True, timeout=300, check=True)  # fmt: skip
    from tests.bench.test_bench_smoke import json_line

    figures = json_line("fairness.py", done.stdout)
    fake_lag = {"fake-lag-200", "fake-lag-300", "fake-lag-500"}
    cheats = {"held-300", "held-500", "reordered", "duplicated", "forged-t", *fake_lag, "lag-grows",
              "claim-past", "claim-lower", "claim-future"}  # fmt: skip
    assert set(figures["gain_ms_by_cheat"]) == set(figures["gain_ms_mean_by_cheat"]) == cheats
    assert all(isinstance(v, (int, float)) for v in figures["gain_ms_by_cheat"].values())
    assert figures["largest_cheat"] in cheats
    assert figures["largest_gain_ms"] == max(figures["gain_ms_by_cheat"].values())
    assert 0.0 <= figures["faster_wins_share"] <= 1.0 and figures["far_near_windows"] >= 0
    assert sum(figures["judged_claims_by_cheat"].values()) >= 1
    assert figures["transit_ceiling_ms"] == MAX_TRANSIT_MS and set(figures["fake_lag_bound_ms"]) == fake_lag
    at = figures["by_ceiling"]["150"]
    assert set(at["fake_lag_gain_ms"]) == set(at["fake_lag_bound_ms"]) == fake_lag
    assert at["fake_lag_bound_ms"]["fake-lag-500"] == 150 - 50 + QUOTA_MAX_MS  # the ceiling less the true 50 ms
    assert 0.0 <= at["faster_wins_share"] <= 1.0
