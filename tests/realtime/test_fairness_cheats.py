"""Clients that lie to the reaction referee (mauseloch.realtime.fairness.Link), in virtual time.

Every cheater here sits on a line of 50 ms each way, shows the card at the true moment (the
server's show moment, 0), really reacts ``TRUE_MS`` after it and lies about the rest: how and
when it answers the clock pings, what its answers are stamped with, and the reaction time it
claims. The referee may credit only what the server measured itself; none of these may be judged
more than ``GOAL_MS`` faster than it really was (bench/fairness.py plays the same cheats through
the real server).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import mauseloch
from mauseloch.realtime import fairness
from mauseloch.realtime.fairness import Link
from mauseloch.realtime.referee import Referee

GOAL_MS = 50  # no cheat may be judged more than this faster than its true reaction
SKEW = 12_345.0  # client clock = server clock - SKEW
UP = 50.0  # one way, each way
TRUE_MS = 450
GAP = 500.0  # ms between pings

# how a client answers ping i that reached it at ``arrival`` (server time): (hold, stamp) per
# answer it sends, ``hold`` ms after the arrival, stamped with the server time ``stamp``
# (on its own clock: stamp - SKEW)
Answer = Callable[[int, float], Iterable[tuple[float, float]]]


def honest(i: int, arrival: float) -> list[tuple[float, float]]:
    return [(0.0, arrival)]


def measured(answer: Answer, pings: int = 40, first: int = 0, link: Link | None = None,
             jitter: tuple[float, ...] = (0.0,), one_way: float = UP) -> Link:  # fmt: skip
    """The link the server builds from ``pings`` pings (numbered from ``first``) answered by
    ``answer``; the answers reach it in the order they arrive, whatever the order they were sent."""
    link = link if link is not None else Link()
    samples = []
    for i in range(first, first + pings):
        sent = i * GAP
        arrival = sent + one_way
        for hold, stamp in answer(i, arrival):
            samples.append((arrival + hold + one_way + jitter[i % len(jitter)], sent, stamp - SKEW))
    for received, sent, client in sorted(samples):
        link.ping(sent, client, received)
    return link


def gains(link: Link, claim: Callable[[int], int], windows: int = 20, true_ms: int = TRUE_MS) -> list[float]:
    """The cheater's gain (its true reaction minus the time it is judged at) in each window."""
    out = []
    for _ in range(windows):
        time, status, observed = link.judge(claim(true_ms), true_ms + UP)
        assert status == "valid", observed
        out.append(true_ms - time)
    return out


def test_answers_held_two_of_three_times_and_stamped_on_arrival_gain_nothing() -> None:
    # the held cheat: 2 of every 3 answers held, stamped with the moment the ping arrived
    for hold in (300.0, 500.0):

        def held(i: int, arrival: float, hold: float = hold) -> list[tuple[float, float]]:
            return [(hold if i % 3 else 0.0, arrival)]

        def lie(true: int, hold: float = hold) -> int:
            return max(100, true - int(hold))

        assert max(gains(measured(held), lie)) <= GOAL_MS, hold


def test_answers_sent_in_reverse_order_gain_nothing() -> None:
    # ping 2k's answer waits for ping 2k+1, then both go, the later one first
    def reordered(i: int, arrival: float) -> list[tuple[float, float]]:
        return [(0.0, arrival)] if i % 2 else [(GAP + 1.0, arrival)]

    link = measured(reordered)
    assert max(gains(link, lambda true: 100)) <= GOAL_MS


def test_forged_stamps_gain_nothing() -> None:
    # answered at once, but 2 of 3 answers claim to have left 300 ms earlier (or later)
    for shift in (-300.0, 300.0):

        def forged(i: int, arrival: float, shift: float = shift) -> list[tuple[float, float]]:
            return [(0.0, arrival + (shift if i % 3 else 0.0))]

        link = measured(forged)
        assert max(gains(link, lambda true: 100)) <= GOAL_MS, shift


def test_duplicated_answers_gain_nothing() -> None:
    # every answer twice: at once, and held 300 ms with the same stamp (the server keeps the
    # first answer to a ping; a Link fed both must not believe the second either)
    def twice(i: int, arrival: float) -> list[tuple[float, float]]:
        return [(0.0, arrival), (300.0, arrival)]

    link = measured(twice)
    assert max(gains(link, lambda true: 100)) <= GOAL_MS


def test_lag_that_grows_during_the_game_gains_nothing() -> None:
    link = measured(honest, pings=40)
    # from ping 40 on the client holds every answer, 1 ms longer at each, up to 300 ms, for
    # long enough that a floor following the round trip upwards would have caught up

    def growing(i: int, arrival: float) -> list[tuple[float, float]]:
        return [(min(300.0, float(i - 40)), arrival)]

    measured(growing, pings=900, first=40, link=link)
    assert link.round_trip() >= 350  # its pings now say 300 ms more
    assert max(gains(link, lambda true: 100)) <= GOAL_MS


def test_claims_in_the_past_gain_at_most_the_goal_on_a_jittery_line() -> None:
    # honest pings over a jittery line (0..90 ms more on some answers); the claim always says
    # 100 ms (a reaction long before its message arrived) or 150 ms less than the truth
    jitter = (0.0, 30.0, 60.0, 90.0)
    for lie in (lambda true: 100, lambda true: true - 150):
        link = measured(honest, jitter=jitter)
        assert max(gains(link, lie)) <= GOAL_MS


def test_claims_in_the_future_are_judged_no_faster_than_claimed() -> None:
    # a claim slower than its arrival allows (its reaction "after" the message arrived)
    link = measured(honest)
    for claim in (TRUE_MS + 100, TRUE_MS + 400, 5000):
        time, status, _ = link.judge(claim, TRUE_MS + UP)
        assert status == "valid" and time >= claim


def test_fake_lag_from_the_first_ping_is_bounded_by_the_transit_cap() -> None:
    # holding every answer from the first ping looks exactly like a slow line: the server can
    # only bound it, by the most one-way transit it ever credits plus the lag quota
    def faker(i: int, arrival: float) -> list[tuple[float, float]]:
        return [(1000.0, arrival + 1000.0)]

    link = measured(faker)
    cap = fairness.MAX_TRANSIT_MS + fairness.QUOTA_MAX_MS
    assert max(gains(link, lambda true: 100)) <= cap - UP


def test_fake_lag_gains_exactly_the_documented_bound() -> None:
    """Answers held H ms from the first ping gain half of H, at most the ceiling less the true
    one-way time, plus the quota: what docs/protocol.md and the module say, to the ms (the first
    claim spends a full quota; the bound is reached, not only kept)."""
    for held in (200.0, 300.0, 500.0):
        link = measured(lambda i, arrival, held=held: [(held, arrival + held)])
        first = gains(link, lambda true: 100, windows=1)[0]
        bound = min(held / 2, fairness.MAX_TRANSIT_MS - UP) + fairness.QUOTA_MAX_MS
        assert first == bound, (held, first, bound)


def test_a_far_player_twenty_ms_faster_beats_a_near_one_with_jitter() -> None:
    """150 ms each way against 10 ms each way, each message 0..20 ms late: the far player's
    honest claims win every window they are 20 ms faster in."""
    jitters = [(7 * i * i + 3 * i) % 21 for i in range(64)]  # 0..20, spread
    far = measured(honest, jitter=tuple(float(j) for j in jitters), one_way=150.0)
    near = measured(honest, jitter=tuple(float(j) for j in reversed(jitters)), one_way=10.0)
    wins = 0
    for w in range(60):
        true_far = 350 + 11 * (w % 13)
        j_far, j_near = jitters[w % 64], jitters[(w * 5 + 3) % 64]
        game = mauseloch.new_game("mausgeflippt", players=2, seed=w)
        game.play("reveal")
        referee = Referee.for_seed(game, w, {0: near, 1: far})
        referee.open()
        arrivals = sorted([(true_far + 20 + 10 + j_near, 0, true_far + 20), (true_far + 150 + j_far, 1, true_far)])
        decision = None
        for at, seat, ms in arrivals:
            decision = referee.advance(at)
            if decision is not None:
                break
            referee.claim(seat, next(m for m in game.legal_moves(seat) if m != "timeout"), ms, at=at)
        decision = decision or referee.settle()
        wins += decision.seat == 1
    assert wins == 60


def test_held_answers_do_not_make_the_card_go_out_earlier() -> None:
    """The card is sent ahead by the slowest connection's one-way time: a client that starts
    holding its answers must not stretch that lead (it would have the card, and could show it,
    that much before everyone else's screen)."""
    from mauseloch.server.reactions import SHOW_MARGIN_MS, lead_ms

    honest_link = measured(honest)
    lead = lead_ms([honest_link])
    assert lead == UP + SHOW_MARGIN_MS

    def held_all(i: int, arrival: float) -> list[tuple[float, float]]:
        return [(600.0 if i >= 20 else 0.0, arrival)]  # from ping 20 on, every answer 600 ms late

    holding = measured(held_all)
    assert holding.round_trip() >= 600  # its recent pings all say so
    assert lead_ms([honest_link, holding]) == lead
