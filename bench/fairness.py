"""Is the fastest reaction the one that wins, across real networks? The referee against
first-message-wins, on simulated connections.

Every race is a real Mausgeflippt window decided by the real referee (``mauseloch.realtime``)
with a real ``mauseloch.fairness.Link`` per connection; only the network and the players are
simulated:

* connections: one-way delays drawn per direction (asymmetric paths) uniformly from 5–300 ms,
  each message ±50 ms of jitter (at least 1 ms); the client's clock is off by up to ±10 s;
* sessions of 20 races with 2–4 players; 16 pings before the first race, 4 between races;
  the card is shown at the start time the server sent ahead, on the client's clock;
* honest players with known true reaction times (log-normal, median 450 ms) claim them;
* the server drives the referee as a server would: messages in order of arrival, the referee
  advanced to each arrival, then to its due moments.

Figures (``--json`` prints them as one JSON line last):

* ``faster_wins_share``: the truly fastest player wins, over races where the fastest true time
  is at least 17 ms (one frame) ahead of the next;
* ``first_message_share``: the same for first-message-wins (what public reaction games do), the
  baseline; ``wrong_winner_ratio``: how many times more races first-message-wins gives to the
  wrong player than the referee does;
* ``cheater_gain_ms``: the most a cheating client gains on average per claim (its judged time
  against its honest twin's, same network, same reactions), over liars (claim L ms faster,
  or always the fastest allowed) and a client that starts faking lag (delaying its ping
  answers by 200 ms) after the game began;
* ``connect_faker_gain_ms``: the same for a client faking 200 ms of lag from its first ping —
  indistinguishable from a slow line (see ``mauseloch.fairness``), reported apart;
* ``decision_ms_p99``: from the first valid claim to the decision (the collection window).

    python bench/fairness.py --races 100000 --json
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass, field

import mauseloch
from mauseloch.engine import Rng, derive_seed
from mauseloch.fairness import Link
from mauseloch.realtime import Referee

RACES_PER_SESSION = 20
WARMUP_PINGS = 16
PINGS_PER_RACE = 4
PING_GAP_MS = 500.0
RACE_GAP_MS = 3000.0
FRAME_MS = 17
MEDIAN_REACTION_MS = 450.0
SIGMA = 0.25


class Net:
    """The simulated network and people: every random number from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.rng.random()

    def normal(self) -> float:
        u1 = 1.0 - self.rng.random()
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * self.rng.random())

    def reaction(self) -> float:
        return max(150.0, MEDIAN_REACTION_MS * math.exp(SIGMA * self.normal()))


@dataclass
class Player:
    up: float  # base one-way delays (ms)
    down: float
    skew: float  # client clock = server clock - skew
    cheat: str = "honest"
    link: Link = field(default_factory=Link)
    twin: Link = field(default_factory=Link)  # the honest twin's view of the same network

    def delay(self, net: Net, base: float) -> float:
        return max(1.0, base + net.uniform(-50.0, 50.0))

    def holds(self, warm: bool) -> float:
        """How long this client sits on a ping before answering (faked lag)."""
        if self.cheat == "connect-faker" or (self.cheat == "lag-faker" and warm):
            return 200.0
        return 0.0

    def ping(self, net: Net, now: float, warm: bool) -> None:
        down, up = self.delay(net, self.down), self.delay(net, self.up)
        answered = now + down + self.holds(warm)  # the client stamps when it answers
        self.link.ping(now, answered - self.skew, answered + up)
        honest = now + down
        self.twin.ping(now, honest - self.skew, honest + up)


def claim_of(cheat: str, true_ms: int) -> int:
    if cheat.startswith("liar-"):
        lie = cheat.removeprefix("liar-")
        return 100 if lie == "max" else max(100, true_ms - int(lie))
    if cheat.endswith("faker"):
        return 100  # exploit all the transit the link will believe
    return true_ms


@dataclass
class Figures:
    judged: int = 0
    faster_wins: int = 0
    first_message: int = 0
    decisions: list[float] = field(default_factory=list)
    gains: list[float] = field(default_factory=list)


def race(net: Net, players: list[Player], game: mauseloch.Game, referee: Referee, t0: float, fig: Figures) -> None:
    if game.to_move is not None:
        game.play("reveal")
    referee.links = {s: p.link for s, p in enumerate(players)}
    referee.open()
    arrivals = []
    true_times = []
    for s, p in enumerate(players):
        true_ms = round(net.reaction())
        true_times.append(true_ms)
        shown = p.link.client_time(t0) + p.skew  # server time the card appears on this screen
        sent = shown + true_ms
        twin_shown = p.twin.client_time(t0) + p.skew
        up = p.delay(net, p.up)
        twin_arrive = twin_shown + true_ms - t0 + up
        # a cheater knows the card ahead and shows it at the true moment, whatever it told the server
        arrive = twin_arrive if p.cheat != "honest" else sent - t0 + up
        arrivals.append((arrive, s, claim_of(p.cheat, true_ms), true_ms, twin_arrive))
    arrivals.sort()
    decision = None
    for arrive, s, claimed, true_ms, twin_arrive in arrivals:
        # as a server's event loop would: wake the referee at its due moments, then at the message
        while decision is None and (due := referee.due()) is not None and due <= arrive:
            decision = referee.advance(due)
        if decision is None:
            decision = referee.advance(arrive)
        if decision is not None:
            break
        move = next(m for m in game.legal_moves(s) if m != "timeout")
        claim = referee.claim(s, move, claimed, at=arrive)
        if players[s].cheat != "honest":
            honest, _, _ = players[s].twin.judge(true_ms, twin_arrive)
            if claim.status == "valid":
                fig.gains.append(honest - claim.time)
    if decision is None:
        decision = referee.settle()
    order = sorted(range(len(players)), key=lambda s: true_times[s])
    if decision.first is not None:
        fig.decisions.append(decision.at - decision.first)
    if all(p.cheat == "honest" for p in players) and true_times[order[1]] - true_times[order[0]] >= FRAME_MS:
        fig.judged += 1
        fig.faster_wins += decision.seat == order[0]
        fig.first_message += arrivals[0][1] == order[0]


def run(races: int, seed: int, cheat: str = "honest") -> Figures:
    net = Net(derive_seed(seed, 1))
    fig = Figures()
    game_seed = 0
    done = 0
    while done < races:
        n = 2 + net.rng.below(3)
        players = [
            Player(
                net.uniform(5, 300), net.uniform(5, 300), net.uniform(-10_000, 10_000), cheat if s == 0 else "honest"
            )
            for s in range(n)
        ]
        game_seed += 1
        game = mauseloch.new_game("mausgeflippt", players=n, seed=derive_seed(seed, game_seed) % (1 << 53))
        referee = Referee.for_seed(game, derive_seed(seed, 10_000_000 + game_seed))
        now = 0.0
        for _ in range(WARMUP_PINGS):
            for p in players:
                p.ping(net, now, warm=False)
            now += PING_GAP_MS
        for _ in range(min(RACES_PER_SESSION, races - done)):
            if game.is_over:
                game_seed += 1
                game = mauseloch.new_game("mausgeflippt", players=n, seed=derive_seed(seed, game_seed) % (1 << 53))
                referee = Referee.for_seed(game, derive_seed(seed, 10_000_000 + game_seed))
            race(net, players, game, referee, now, fig)
            done += 1
            now += RACE_GAP_MS
            for _ in range(PINGS_PER_RACE):
                for p in players:
                    p.ping(net, now, warm=True)
                now += PING_GAP_MS
    return fig


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100_000, help="honest races (each cheat: a tenth as many)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line last")
    args = parser.parse_args()
    if args.races < 20:
        parser.error("--races must be at least 20")
    start = time.perf_counter()
    honest = run(args.races, args.seed)
    cheats: dict[str, float] = {}
    for cheat in ("liar-30", "liar-100", "liar-300", "liar-max", "lag-faker", "connect-faker"):
        gains = run(max(20, args.races // 10), args.seed + 1, cheat).gains
        cheats[cheat] = sum(gains) / len(gains) if gains else 0.0
    seconds = time.perf_counter() - start
    figures: dict[str, object] = {
        "races": args.races,
        "judged_races": honest.judged,
        "faster_wins_share": round(honest.faster_wins / honest.judged, 4),
        "first_message_share": round(honest.first_message / honest.judged, 4),
        # the baseline of the same run: how many times fewer races go to the wrong player
        "wrong_winner_ratio": round(
            (honest.judged - honest.first_message) / max(1, honest.judged - honest.faster_wins), 1
        ),
        "cheater_gain_ms": round(max(v for k, v in cheats.items() if k != "connect-faker"), 1),
        "connect_faker_gain_ms": round(cheats["connect-faker"], 1),
        "gain_ms_by_cheat": {k: round(v, 1) for k, v in cheats.items()},
        "decision_ms_p50": round(percentile(honest.decisions, 0.5), 1),
        "decision_ms_p99": round(percentile(honest.decisions, 0.99), 1),
        "seconds": round(seconds, 1),
    }
    for key, value in figures.items():
        if key != "gain_ms_by_cheat":
            print(f"{key:24} {value}")
    for key, gain in cheats.items():
        print(f"  gain {key:18} {gain:.1f} ms")
    print("goals: faster_wins_share >= 0.99, cheater_gain_ms <= 50, decision_ms_p99 <= 350")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
