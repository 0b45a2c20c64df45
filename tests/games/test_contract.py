"""The api.md contract, checked the same way for every game in ``mauseloch.GAMES``.

Parametrised over the registry at collection time, so a game is covered the day it registers;
the fourth game that exists only in the tests (``tests/games/fourth_game.py``) is registered by
one call for this module's tests and covered the same way. Games are driven only through the
public API (to_move, legal_moves, play, view, record, replay, events, result).
"""

from __future__ import annotations

import collections
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mauseloch
from mauseloch.core.schema import check_event
from tests.games import fourth_game

GAME_NAMES = sorted([*mauseloch.GAMES, fourth_game.INFO.name])


@pytest.fixture(scope="module", autouse=True)
def _fourth_game() -> Any:
    """The test-only game is known while this module's tests run, and only then."""
    mauseloch.register_game(fourth_game.INFO)
    yield
    mauseloch.unregister_game(fourth_game.INFO.name)


# What api.md and the spec pages fix per game (games not listed get only the generic checks).
PLAYER_RANGE = {"mau-mau": (2, 5), "aus-die-maus": (2, 6), "mausgeflippt": (2, 6)}
REASONS = {
    "mau-mau": {"out", "stalemate", "move_limit"},
    "aus-die-maus": {"chips", "empty_stack", "endless"},
    "mausgeflippt": {"mice", "cheese"},
}
FIGURES = {
    "mau-mau": ("cards", "points"),
    "aus-die-maus": ("cards", "chips"),
    "mausgeflippt": ("mice", "laundry", "cheese", "score"),
}
# The ranking rule of each spec page (MM-16, AM-12, MG-9) as a sort key: smaller is better.
RANK_KEY = {
    "mau-mau": lambda r, s: (r["cards"][s], r["points"][s]),
    "aus-die-maus": lambda r, s: (-r["cards"][s], -r["chips"][s]),
    "mausgeflippt": lambda r, s: (-r["score"][s], -r["mice"][s]),
}
MAX_MOVES = 20_000  # far above any real game; a game still running then is a bug
NOT_MOVES = ["", "   ", "definitely-not-a-move", "7Z", "JC:X", "catch", "catch nothing-grey", "flip flop", "draw draw"]
TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _players(name: str) -> list[int]:
    info = mauseloch.GAMES[name]
    return list(range(info.min_players, info.max_players + 1))


def _tokens(obj: Any) -> collections.Counter[str]:
    """Every word in the string values of a JSON value (keys are labels, not data)."""
    out: collections.Counter[str] = collections.Counter()
    if isinstance(obj, str):
        out.update(TOKEN.findall(obj.lower()))
    elif isinstance(obj, dict):
        for v in obj.values():
            out.update(_tokens(v))
    elif isinstance(obj, list | tuple):
        for v in obj:
            out.update(_tokens(v))
    return out


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _state(g: mauseloch.Game) -> Any:
    """Everything observable about a game, to show that a refused move changed nothing."""
    return (
        json.dumps(g.record(), sort_keys=True),
        json.dumps(g.events, sort_keys=True),
        [json.dumps(g.view(s), sort_keys=True) for s in [None, *range(g.players)]],
        g.to_move,
        g.is_over,
        [sorted(g.legal_moves(s)) for s in range(g.players)],
    )


def _acting_seat(g: mauseloch.Game, rng: random.Random) -> int:
    if g.to_move is not None:
        return g.to_move
    seats = [s for s in range(g.players) if g.legal_moves(s)]
    assert seats, "game not over, nobody to move and no seat has a legal move"
    return rng.choice(seats)


def _check_legal_lists(g: mauseloch.Game) -> None:
    if g.is_over:
        assert g.to_move is None
        assert g.legal_moves() == []
        assert all(g.legal_moves(s) == [] for s in range(g.players))
        return
    if g.to_move is None:
        assert g.legal_moves() == []
    else:
        assert _is_int(g.to_move) and 0 <= g.to_move < g.players
        assert g.legal_moves(), "the seat to move has no legal move"
        assert sorted(g.legal_moves()) == sorted(g.legal_moves(g.to_move))
        for s in range(g.players):
            if s != g.to_move:
                assert g.legal_moves(s) == [], f"seat {s} may move though seat {g.to_move} is to move"
    for s in range(g.players):
        moves = g.legal_moves(s)
        assert all(isinstance(m, str) for m in moves)
        assert len(moves) == len(set(moves)), f"duplicates in {moves}"
        assert all(m == m.strip() for m in moves)
        # the second version: action ids of the legal moves, and who may act
        assert g.legal_actions(s) == [g.action_id(m) for m in moves]
        assert all(g.move_of(a) == m for a, m in zip(g.legal_actions(s), moves, strict=True))
    assert g.legal_actions() == [g.action_id(m) for m in g.legal_moves()]
    assert isinstance(g.acting_seats, frozenset)
    assert g.acting_seats == {s for s in range(g.players) if set(g.legal_moves(s)) - {"timeout"}}


def _check_views(g: mauseloch.Game, deck_copies: collections.Counter[str], public: collections.Counter[str]) -> None:
    """Views are JSON-able and show no card another seat holds face down.

    A card all of whose copies are in hands is on no table: no view may mention it, except the
    view of a seat that holds it, or if it was named publicly (a public event) — a sound check
    for every game that shows hands as ``view(seat)["hand"]``.
    """
    views = {s: g.view(s) for s in [None, *range(g.players)]}
    for seat, v in views.items():
        assert json.loads(json.dumps(v)) == v, f"view({seat}) is not plain JSON"
    if g.is_over:
        return  # the end screen may show every hand
    hands = {s: collections.Counter(c.lower() for c in views[s].get("hand", [])) for s in range(g.players)}
    held = sum(hands.values(), collections.Counter())
    hidden = {c for c, n in held.items() if n >= deck_copies[c] > 0 and not public[c]}
    for seat, v in views.items():
        words = _tokens(v)
        leaked = {c for c in hidden if words[c] and (seat is None or not hands[seat][c])}
        assert not leaked, f"view({seat}) shows {sorted(leaked)} held face down by another seat"


def _check_events(g: mauseloch.Game, start: int = 0) -> collections.Counter[str]:
    """event_for redaction from event ``start`` on; returns the words of those public events."""
    public: collections.Counter[str] = collections.Counter()
    for e in g.events[start:]:
        assert isinstance(e, dict) and isinstance(e.get("type"), str)
        assert json.loads(json.dumps(e)) == e
        check_event(g.name, e)  # exactly its declared shape (mauseloch/core/events.py)
        owner = e.get("private")
        if owner is None:
            for s in [None, *range(g.players)]:
                assert mauseloch.event_for(e, s) == e
            public.update(_tokens(e))
            continue
        assert _is_int(owner) and 0 <= owner < g.players
        assert mauseloch.event_for(e, owner) == e
        secret = {c.lower() for c in e.get("cards", [])}
        for s in [None, *range(g.players)]:
            if s == owner:
                continue
            copy = mauseloch.event_for(e, s)
            assert "private" not in copy and "cards" not in copy
            check_event(g.name, copy, public=True)
            assert copy["type"] == e["type"]
            assert not secret & set(_tokens(copy)), f"{copy} still names a hidden card"
    return public


def _check_result(g: mauseloch.Game) -> None:
    res = g.result()
    assert json.loads(json.dumps(res)) == res
    n = g.players
    assert isinstance(res["reason"], str)
    if g.name in REASONS:
        assert res["reason"] in REASONS[g.name]
    ranks = res["ranks"]
    assert len(ranks) == n and all(_is_int(r) for r in ranks)
    # competition ranking: a seat's rank is 1 + the number of seats ranked strictly better
    assert ranks == [1 + sum(1 for o in ranks if o < r) for r in ranks]
    for key in FIGURES.get(g.name, ()):
        assert len(res[key]) == n and all(_is_int(x) for x in res[key]), key
    if g.name in RANK_KEY:
        keys = [RANK_KEY[g.name](res, s) for s in range(n)]
        assert ranks == [1 + sum(1 for k in keys if k < key) for key in keys], res
    if g.name == "mausgeflippt":  # MG-9: +1 per mouse, -1 per laundry card, -2 per cheese card
        parts = zip(res["mice"], res["laundry"], res["cheese"], strict=True)
        assert res["score"] == [m - la - 2 * c for m, la, c in parts]


def _random_game(
    name: str, players: int, seed: int, options: dict[str, Any] | None = None, checks: bool = True
) -> mauseloch.Game:
    """Play ``name`` at random to the end through the public API, checking as it goes."""
    rng = random.Random(seed)
    g = mauseloch.new_game(name, players=players, seed=seed, options=options)
    deck_copies = collections.Counter(c.lower() for c in g.record()["deck"])
    public: collections.Counter[str] = collections.Counter()  # words of all public events so far
    seen = 0
    for i in range(MAX_MOVES):
        if checks:
            _check_legal_lists(g)
            public.update(_check_events(g, start=seen))
            seen = len(g.events)
            _check_views(g, deck_copies, public)
        if g.is_over:
            return g
        seat = _acting_seat(g, rng)
        move = rng.choice(g.legal_moves(seat))
        if g.to_move is None:  # a simultaneous reaction: name the seat and its time
            if move == "timeout" and rng.random() < 0.5:
                g.play(move)
            else:
                g.play(move, seat=seat, ms=rng.randrange(0, 6000))
        elif rng.random() < 0.5:
            g.play(move)
        else:
            g.play(move, seat=seat)
        if checks and i % 7 == 0 and not g.is_over:
            _check_refusals(g)
        if checks and i % 11 == 0 and not g.is_over:
            _check_every_listed_move_plays(g)
    raise AssertionError(f"{name} not over after {MAX_MOVES} moves")


def _check_every_listed_move_plays(g: mauseloch.Game) -> None:
    rec = g.record()
    for seat in range(g.players):
        for move in g.legal_moves(seat):
            copy = mauseloch.replay(rec)
            copy.play(move, seat=seat)
            assert len(copy.record()["moves"]) == len(rec["moves"]) + 1


def _check_refusals(g: mauseloch.Game) -> None:
    before = _state(g)
    for bad in NOT_MOVES:
        with pytest.raises(mauseloch.IllegalMove):
            g.play(bad)
        for s in range(g.players):
            if bad not in g.legal_moves(s):
                with pytest.raises(mauseloch.IllegalMove):
                    g.play(bad, seat=s)
    if g.to_move is not None:
        other = (g.to_move + 1) % g.players
        for move in g.legal_moves():
            if move not in g.legal_moves(other):
                with pytest.raises(mauseloch.IllegalMove):
                    g.play(move, seat=other)
            with pytest.raises(mauseloch.IllegalMove):  # ms only on reactions in a window
                g.play(move, ms=0)
    else:
        for s in range(g.players):
            for move in g.legal_moves(s):
                for ms in (-1, True, 1.5, "10"):  # an int >= 0, not bool
                    with pytest.raises(mauseloch.IllegalMove):
                        g.play(move, seat=s, ms=ms)
    assert _state(g) == before


# --------------------------------------------------------------------------- registry


def test_games_registered() -> None:
    assert "mau-mau" in GAME_NAMES
    library = set(mauseloch.GAMES) - {fourth_game.INFO.name}
    assert library <= set(PLAYER_RANGE), "a game not in api.md is registered"
    assert fourth_game.INFO.name in mauseloch.GAMES  # one call registered it (the fixture)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_info(name: str) -> None:
    info = mauseloch.GAMES[name]
    assert isinstance(info.title, str) and info.title.strip()
    assert _is_int(info.min_players) and _is_int(info.max_players)
    if name in PLAYER_RANGE:
        assert (info.min_players, info.max_players) == PLAYER_RANGE[name]
    names = [o.name for o in info.options]
    assert len(names) == len(set(names))
    for opt in info.options:
        assert opt.type in (bool, int), opt
        assert isinstance(opt.description, str) and opt.description.strip(), opt
        if getattr(opt, "default_for", None) is None:
            assert isinstance(opt.default, opt.type), opt
            assert opt.type is bool or not isinstance(opt.default, bool), opt
    # the defaults a game fills in are of the option's type, for every player count
    for n in _players(name):
        options = mauseloch.new_game(name, players=n, seed=1).record()["options"]
        assert sorted(options) == sorted(names)
        for opt in info.options:
            assert isinstance(options[opt.name], opt.type)
            assert opt.type is bool or not isinstance(options[opt.name], bool)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_declared_dynamics(name: str) -> None:
    """A game says how play flows; a reaction game has a window and its windows have a referee,
    a turn-based game has neither (the server and the simulator choose by this, not by names)."""
    from mauseloch.realtime.referee import Referee, play_bots

    info = mauseloch.GAMES[name]
    assert info.dynamics in ("turns", "reactions")
    assert info.to_dict()["dynamics"] == info.dynamics
    game = mauseloch.new_game(name, players=info.min_players, seed=3)
    if info.dynamics == "turns":
        with pytest.raises(ValueError, match="turns"):
            Referee(game, ties_seed=1)
        return
    assert "window_ms" in [o.name for o in info.options]
    from mauseloch.bots import make_bot

    referee = Referee.for_seed(game, 3)
    play_bots(referee, [make_bot(name, "random", seed=s) for s in range(info.min_players)])
    assert game.is_over and mauseloch.replay(referee.record()).events == game.events


@pytest.mark.parametrize("name", GAME_NAMES)
def test_new_game_with_defaults_for_every_player_count(name: str) -> None:
    info = mauseloch.GAMES[name]
    for n in _players(name):
        g = mauseloch.new_game(name, players=n, seed=n)
        assert g.players == n
        assert not g.is_over
        rec = g.record()
        assert rec["game"] == name and rec["players"] == n and rec["seed"] == n and rec["moves"] == []
        _check_legal_lists(g)
        seat = _acting_seat(g, random.Random(0))
        assert g.legal_moves(seat)
    for bad in (info.min_players - 1, info.max_players + 1):
        with pytest.raises(ValueError, match=str(bad)):
            mauseloch.new_game(name, players=bad, seed=1)


# --------------------------------------------------------------------------- playing


@pytest.mark.slow
@pytest.mark.parametrize("name", GAME_NAMES)
def test_random_games_to_the_end(name: str) -> None:
    for n, seed in [(p, base + p) for p in _players(name) for base in (1000, 2000)]:
        g = _random_game(name, n, seed=seed)
        _check_result(g)
        _check_refusals_when_over(g)
        again = mauseloch.replay(json.loads(json.dumps(g.record())))
        assert again.is_over
        assert again.events == g.events
        assert again.result() == g.result()
        assert again.record() == g.record()
        assert all(again.view(s) == g.view(s) for s in [None, *range(n)])


def _check_refusals_when_over(g: mauseloch.Game) -> None:
    before = _state(g)
    for s in [None, *range(g.players)]:
        for move in ["flip", "draw", "pass", "reveal", "timeout", *NOT_MOVES]:
            with pytest.raises(mauseloch.IllegalMove):
                g.play(move, seat=s)
    assert _state(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_more_random_games_replay(name: str) -> None:
    """Cheaper games (no per-move view checks) over more seeds: replay and result shape."""
    for seed in range(8):
        n = _players(name)[seed % len(_players(name))]
        g = _random_game(name, n, seed=seed, checks=False)
        _check_result(g)
        again = mauseloch.replay(g.record())
        assert again.events == g.events and again.result() == g.result()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_replay_of_a_game_in_progress(name: str) -> None:
    g = mauseloch.new_game(name, players=_players(name)[-1], seed=5)
    rng = random.Random(5)
    for _ in range(15):
        if g.is_over:
            break
        seat = _acting_seat(g, rng)
        g.play(rng.choice(g.legal_moves(seat)), seat=seat)
    again = mauseloch.replay(g.record())
    assert _state(again) == _state(g)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_determinism_same_seed_same_game(name: str) -> None:
    n = _players(name)[0]
    a = _random_game(name, n, seed=77, checks=False)
    b = _random_game(name, n, seed=77, checks=False)
    assert a.record() == b.record()
    assert a.events == b.events
    assert a.result() == b.result()
    # the deal itself is a function of the seed
    assert mauseloch.new_game(name, players=n, seed=3).record() == mauseloch.new_game(name, players=n, seed=3).record()
    decks = {tuple(mauseloch.new_game(name, players=n, seed=s).record()["deck"]) for s in range(5)}
    assert len(decks) > 1, "the seed does not drive the shuffle"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_explicit_deck_is_the_seeds_deck(name: str) -> None:
    """new_game(seed=s, deck=<what s deals>) plays exactly like new_game(seed=s) (api.md)."""
    n = _players(name)[0]
    a = _random_game(name, n, seed=31, checks=False)
    b = mauseloch.new_game(name, players=n, seed=31, deck=a.record()["deck"])
    for seat, move, *ms in a.record()["moves"]:
        b.play(move, seat=seat, ms=ms[0] if ms else None)
    assert b.record() == a.record()
    assert b.events == a.events


@pytest.mark.parametrize("name", GAME_NAMES)
def test_seed_none_is_recorded(name: str) -> None:
    g = mauseloch.new_game(name, players=_players(name)[0])
    seed = g.record()["seed"]
    assert _is_int(seed) and 0 <= seed < 2**53
    assert mauseloch.replay(g.record()).record() == g.record()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_record_shape(name: str) -> None:
    g = _random_game(name, _players(name)[0], seed=9, checks=False)
    rec = g.record()
    assert json.loads(json.dumps(rec)) == rec
    assert set(rec) == {"game", "players", "options", "seed", "deck", "moves"}
    assert rec["game"] == name
    assert sorted(rec["options"]) == sorted(o.name for o in mauseloch.GAMES[name].options)
    assert all(isinstance(c, str) for c in rec["deck"])
    for entry in rec["moves"]:
        assert isinstance(entry, list) and len(entry) in (2, 3)
        assert _is_int(entry[0]) and 0 <= entry[0] < g.players  # every recorded seat is an int
        assert isinstance(entry[1], str)
        if len(entry) == 3:
            assert name == "mausgeflippt" and _is_int(entry[2]) and entry[2] >= 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_game_option_and_view_seat(name: str) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        mauseloch.new_game(name, seed=1, options={"no_such_option": True})
    g = mauseloch.new_game(name, seed=1)
    for bad in (-1, g.players, True, "0"):
        with pytest.raises(ValueError):
            g.view(bad)
    with pytest.raises(ValueError):
        g.result()


# --------------------------------------------------------------------------- what a seat may know


# Deck positions (top first, as in ``deck=``) that nobody sees at the start; permuting them must
# not change any view until the events a seat receives differ. Bottom parts are chosen where a
# pile is turned over in order, so the two games agree for a while.
def _hidden_positions(name: str, n: int, options: dict[str, Any], size: int) -> list[range]:
    """Groups of positions; cards are permuted within a group."""
    if name == "mau-mau":
        return [range(5 * n + 1, size)]  # the draw pile
    if name == "mausgeflippt":
        h = options["hand_size"]
        return [range(n * h, 58), range(58 + 16, 90), range(91, 99)]  # clothing pile, lower mice, closed cheeses
    if name == "aus-die-maus":
        return [range(0, 3 * n)]  # the bottoms of the dealt stacks
    if name == fourth_game.INFO.name:
        return [range(n * options["hand_size"], size)]  # the draw pile
    raise KeyError(name)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_depend_only_on_what_the_seat_has_seen(name: str) -> None:
    """Two games whose decks differ only in face-down positions look the same to a seat as long
    as the (redacted) events it has received, who is to move and its own legal moves are the
    same: a view shows nothing hidden, neither another seat's cards nor the order of a pile."""
    if name not in PLAYER_RANGE and name != fourth_game.INFO.name:
        pytest.skip(f"no face-down layout known for {name}")
    compared = 0
    for n in _players(name):
        for seed in range(3):
            rng = random.Random(seed * 100 + n)
            a = mauseloch.new_game(name, players=n, seed=seed)
            rec = a.record()
            deck = list(rec["deck"])
            for pos in _hidden_positions(name, n, rec["options"], len(deck)):
                cards = [deck[p] for p in pos]
                rng.shuffle(cards)
                for p, c in zip(pos, cards, strict=True):
                    deck[p] = c
            b = mauseloch.new_game(name, players=n, seed=seed, deck=deck)
            for _ in range(400):
                # to_move is public by the rules (MM-7: whether a drawn card fits shows in who moves)
                same_for = [
                    x for x in [None, *range(n)]
                    if a.to_move == b.to_move and a.legal_moves(x) == b.legal_moves(x)
                    and [mauseloch.event_for(e, x) for e in a.events] == [mauseloch.event_for(e, x) for e in b.events]
                ]  # fmt: skip
                for x in same_for:
                    assert a.view(x) == b.view(x), f"view({x}) differs though seat {x} saw the same events"
                    compared += 1
                if not same_for or a.is_over or b.is_over:
                    break
                seat = _acting_seat(a, rng)
                move = rng.choice(a.legal_moves(seat))
                if move not in b.legal_moves(seat):
                    break
                ms = rng.randrange(6000) if a.to_move is None else None
                a.play(move, seat=seat, ms=ms)
                b.play(move, seat=seat, ms=ms)
    assert compared > 3 * len(_players(name))


# --------------------------------------------------------------------------- what callers may pass

NOT_STRINGS: list[Any] = [None, 5, 7.0, True, b"flip", ("flip",), {"move": "flip"}, object()]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_non_string_move_is_illegal_move(name: str) -> None:
    """Any non-string (a list holding a legal move, None, a number, a NumPy array) is an
    IllegalMove saying a move is a string, never a TypeError, and changes nothing."""
    np = pytest.importorskip("numpy")
    rng = random.Random(5)
    g = mauseloch.new_game(name, seed=3)
    for _ in range(60):
        if g.is_over:
            break
        seat = _acting_seat(g, rng)
        legal = g.legal_moves(seat)
        before = _state(g)
        for bad in [*NOT_STRINGS, [legal[0]], np.array([legal[0]]), np.str_(legal[0]).split()]:
            for kwargs in ({}, {"seat": seat}):
                with pytest.raises(mauseloch.IllegalMove, match="must be a string"):
                    g.play(bad, **kwargs)
        assert _state(g) == before
        g.play(rng.choice(legal), seat=seat)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_numpy_integers_are_whole_numbers(name: str) -> None:
    """players, seed, seat and ms accept any integral number (operator.index), and the record,
    views and events hold plain ints, so a game driven with NumPy numbers is the same game."""
    np = pytest.importorskip("numpy")
    info = mauseloch.GAMES[name]
    n = info.max_players
    a = mauseloch.new_game(name, players=np.int64(n), seed=np.uint64(11))
    b = mauseloch.new_game(name, players=n, seed=11)
    rng = random.Random(2)
    for _ in range(200):
        if a.is_over:
            break
        seat = _acting_seat(a, rng)
        assert a.legal_moves(np.int32(seat)) == b.legal_moves(seat)
        assert a.view(np.int64(seat)) == b.view(seat)
        move = rng.choice(a.legal_moves(seat))
        ms = rng.randrange(6000) if a.to_move is None else None
        a.play(move, seat=np.int16(seat), ms=None if ms is None else np.int64(ms))
        b.play(move, seat=seat, ms=ms)
    rec = a.record()
    assert json.dumps(rec) == json.dumps(b.record())  # NumPy ints would not even serialise
    assert json.dumps(a.events) == json.dumps(b.events)
    assert all(type(m[0]) is int for m in rec["moves"]) and type(rec["players"]) is int
    assert type(a.view(np.int64(0))["seat"]) is int
    again = mauseloch.replay({**rec, "moves": [[np.int64(m[0]), *m[1:]] for m in rec["moves"]]})
    assert again.record() == rec


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bool_and_float_are_still_no_whole_numbers(name: str) -> None:
    np = pytest.importorskip("numpy")
    info = mauseloch.GAMES[name]
    for bad in (True, float(info.min_players), np.float64(info.min_players), np.bool_(True)):
        with pytest.raises(ValueError, match="players must be a whole number"):
            mauseloch.new_game(name, players=bad, seed=1)
        with pytest.raises(ValueError, match="seed must be a whole number"):
            mauseloch.new_game(name, seed=bad)
    g = mauseloch.new_game(name, seed=1)
    before = _state(g)
    seat = _acting_seat(g, random.Random(0))
    move = g.legal_moves(seat)[0]
    for bad in (True, 0.0, np.float64(0), np.bool_(False)):
        with pytest.raises(mauseloch.IllegalMove, match="seat must be"):
            g.play(move, seat=bad)
        with pytest.raises(ValueError):
            g.view(bad)
        with pytest.raises(mauseloch.IllegalMove):
            g.play(move, seat=seat, ms=bad)
    assert _state(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_int_options_accept_numpy_integers(name: str) -> None:
    np = pytest.importorskip("numpy")
    info = mauseloch.GAMES[name]
    for opt in info.options:
        if opt.type is int:
            value = mauseloch.new_game(name, seed=1).options[opt.name]
            g = mauseloch.new_game(name, seed=1, options={opt.name: np.int64(value)})
            assert type(g.options[opt.name]) is int and g.record() == mauseloch.new_game(name, seed=1).record()
            for bad in (float(value), np.float64(value), True):
                with pytest.raises(ValueError, match=f"option {opt.name} must be a whole number"):
                    mauseloch.new_game(name, seed=1, options={opt.name: bad})


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("kind", ["int64", "int32", "uint16"])
def test_every_call_that_takes_a_number_takes_numpy_integers(name: str, kind: str) -> None:
    """api.md: a NumPy integer is taken wherever a whole number is (``g.move_of(np.argmax(q))``),
    with the same answer as the plain int and plain ints in what comes back; bool and float are
    still refused, also by the calls of the learning API."""
    np = pytest.importorskip("numpy")
    to = getattr(np, kind)
    n = mauseloch.GAMES[name].max_players
    g = mauseloch.new_game(name, players=to(n), seed=to(5))
    _advance(g, random.Random(4), 15)
    for seat in range(n):
        assert g.legal_moves(to(seat)) == g.legal_moves(seat)
        assert g.legal_actions(to(seat)) == g.legal_actions(seat)
        assert g.view(to(seat)) == g.view(seat)
        for move in g.legal_moves(seat):
            assert g.parse_move(move, to(seat)) == g.parse_move(move, seat)
        assert g.determinize(to(seat), to(9)).view(seat) == g.determinize(seat, 9).view(seat)
        if hasattr(g, "hand"):  # Aus die Maus has stacks, no hands
            assert g.hand(to(seat)) == g.hand(seat)
            for bad in (True, 1.0, n, -1):
                with pytest.raises(ValueError, match="seat must be a number"):
                    g.hand(bad)
    for action in range(g.num_actions):
        assert type(g.move_of(to(action))) is str and g.move_of(to(action)) == g.move_of(action)
    q = np.zeros(g.num_actions)
    q[g.legal_actions(_acting_seat(g, random.Random(0)))[0]] = 1.0
    assert g.move_of(np.argmax(q)) in g.legal_moves(_acting_seat(g, random.Random(0)))
    for k in range(g.event_count + 1):
        assert g.events_since(to(k)) == g.events_since(k)
    a, b = g.clone(), g.clone()
    rng = random.Random(6)
    for _ in range(30):
        if a.is_over:
            break
        seat = _acting_seat(a, rng)
        move = rng.choice(a.legal_moves(seat))
        ms = rng.randrange(6000) if a.to_move is None else None
        a.play(move, seat=to(seat), ms=None if ms is None else to(ms))
        b.play(move, seat=seat, ms=ms)
    assert json.dumps(a.record()) == json.dumps(b.record())
    before = _full_state(g)
    for bad in (True, np.bool_(True), 1.0, np.float64(1), "1"):
        with pytest.raises(ValueError, match="must be"):
            g.move_of(bad)
        with pytest.raises(ValueError, match="seat must be"):
            g.determinize(bad, to(1))
        with pytest.raises(ValueError, match="index must be"):
            g.events_since(bad)
    for bad in (to(g.num_actions), np.int64(-1)):
        with pytest.raises(ValueError, match=f"from 0 to {g.num_actions - 1}"):
            g.move_of(bad)
    with pytest.raises(ValueError, match=f"seat must be a number from 0 to {n - 1}"):
        g.determinize(to(n), 1)
    assert _full_state(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_int_options_have_a_range_and_say_it(name: str) -> None:
    """Every int option has a largest value: a number past it (move_limit=10**30, which the
    kernels cannot hold) is refused by new_game naming the allowed range, not later by an
    OverflowError in the env, the batch kernel or the simulator; the largest value is taken."""
    info = mauseloch.GAMES[name]
    for opt in info.options:
        if opt.type is not int:
            continue
        assert opt.maximum is not None and opt.to_dict()["maximum"] == opt.maximum
        for bad in (opt.maximum + 1, 10**30):
            with pytest.raises(ValueError, match=rf"option {opt.name} must be at most {opt.maximum}, got {bad} "):
                mauseloch.new_game(name, seed=1, options={opt.name: bad})
            with pytest.raises(ValueError, match=f"allowed: {opt.minimum} to {opt.maximum}"):
                info.resolve_options(info.min_players, info.options_from_text([f"{opt.name}={bad}"]))
        # the largest value passes the range (Mausgeflippt's hand_size then meets players × hand_size ≤ 58)
        assert info.resolve_options(info.min_players, {opt.name: opt.maximum})[opt.name] == opt.maximum


@pytest.mark.parametrize("name", GAME_NAMES)
def test_an_option_given_twice_in_another_case_is_refused(name: str) -> None:
    """``{"ace_skips": True, "ACE_SKIPS": False}``: which one is meant is a guess, so neither is
    taken; the same twice on the command line too."""
    info = mauseloch.GAMES[name]
    for opt in info.options:
        value = info.defaults(info.max_players)[opt.name]
        for other in (opt.name.upper(), f" {opt.name} ", opt.name.title()):
            with pytest.raises(ValueError, match=f"option {opt.name} is given twice"):
                mauseloch.new_game(name, info.max_players, seed=1, options={opt.name: value, other: value})
        text = str(value).lower()
        with pytest.raises(ValueError, match=f"option {opt.name} is given twice"):
            info.options_from_text([f"{opt.name}={text}", f"{opt.name.upper()}={text}"])


# --------------------------------------------------------------------------- nothing to change from outside


@pytest.mark.parametrize("name", GAME_NAMES)
def test_options_deck_and_registry_cannot_be_changed_from_outside(name: str) -> None:
    """g.options, g.deck and GAMES are read-only: record() always tells the game played."""
    g = mauseloch.new_game(name, seed=4)
    rec = g.record()
    opt = next(iter(g.options))
    with pytest.raises(TypeError):
        g.options[opt] = 0  # type: ignore[index]
    with pytest.raises(TypeError):
        del g.options[opt]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        g.options = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        g.deck[0] = g.deck[1]  # type: ignore[index]
    with pytest.raises(AttributeError):
        g.deck.reverse()  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        g.deck = []  # type: ignore[misc]
    # what the caller gets out is theirs to change
    rec["options"][opt] = "changed"
    rec["deck"].reverse()
    g.view(None)["options"][opt] = "changed"
    assert g.record() == mauseloch.new_game(name, seed=4).record()
    assert dict(g.options) == g.record()["options"] and list(g.deck) == g.record()["deck"]
    twin = mauseloch.new_game(name, players=g.players, seed=g.seed, options=g.options, deck=g.deck)
    assert twin.record() == g.record()  # what a game shows can start the same game again
    with pytest.raises(TypeError):
        mauseloch.GAMES["x"] = mauseloch.GAMES[name]  # type: ignore[index]
    with pytest.raises(TypeError):
        del mauseloch.GAMES[name]  # type: ignore[attr-defined]
    assert name in mauseloch.GAMES


@pytest.mark.parametrize("name", GAME_NAMES)
def test_players_and_seed_cannot_be_changed_from_outside(name: str) -> None:
    """Like options and deck: a game's players and seed are what it was dealt with, so record()
    cannot name another game than the one played."""
    g = mauseloch.new_game(name, seed=4)
    rec = g.record()
    with pytest.raises(AttributeError):
        g.players = g.players + 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        g.seed = 5  # type: ignore[misc]
    assert g.record() == rec and mauseloch.replay(rec).record() == rec
    twin = g.clone()
    assert (twin.players, twin.seed) == (g.players, g.seed) and twin.record() == rec


def test_read_only_views_keep_the_game_copyable() -> None:
    import copy
    import pickle

    for name in GAME_NAMES:
        g = mauseloch.new_game(name, seed=2)
        for twin in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
            assert twin.record() == g.record()


# --------------------------------------------------------------------------- metadata


@pytest.mark.parametrize("name", GAME_NAMES)
def test_metadata_states_the_default_for_every_player_count(name: str) -> None:
    """GAMES[name].to_dict() (what the lobby and --help read) gives each option's default per
    player count, exactly what a new game fills in; a single ``default`` only where it holds
    for every count, and a ``default_text`` that people can read either way."""
    info = mauseloch.GAMES[name]
    meta = info.to_dict()
    assert json.loads(json.dumps(meta)) == meta
    for opt in meta["options"]:
        by_players = opt["defaults_by_players"]
        assert set(by_players) == {str(n) for n in _players(name)}
        for n in _players(name):
            assert by_players[str(n)] == mauseloch.new_game(name, players=n, seed=1).options[opt["name"]]
            assert by_players[str(n)] == info.defaults(n)[opt["name"]]
        values = set(by_players.values())
        assert opt["default"] == (values.pop() if len(values) == 1 else None), opt
        assert isinstance(opt["default_text"], str) and opt["default_text"]
        assert opt["name"] in info.options_help() and opt["default_text"] in info.options_help()


# --------------------------------------------------------------------------- the second version
# api.md "For search bots and learning": clone, acting_seats, parse_move, action ids,
# legal_actions, determinize. Properties over random positions of every game.

V2 = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _advance(g: mauseloch.Game, rng: random.Random, moves: int) -> None:
    """Play up to ``moves`` random moves (reactions name their seat and a time)."""
    for _ in range(moves):
        if g.is_over:
            return
        seat = _acting_seat(g, rng)
        move = rng.choice(g.legal_moves(seat))
        g.play(move, seat=seat, ms=rng.randrange(6000) if g.to_move is None else None)


def _position(name: str, data: st.DataObject) -> tuple[mauseloch.Game, random.Random]:
    """A random position of ``name``: players, seed and how far play has gone, from hypothesis."""
    n = data.draw(st.sampled_from(_players(name)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    g = mauseloch.new_game(name, players=n, seed=seed)
    rng = random.Random(seed)
    _advance(g, rng, data.draw(st.integers(0, 120), label="moves"))
    return g, rng


def _full_state(g: mauseloch.Game) -> Any:
    """``_state`` plus every seat's view (hands included) and the result once over."""
    return (_state(g), g.result() if g.is_over else None, sorted(g.acting_seats), g.legal_actions())


def _same_play(a: mauseloch.Game, b: mauseloch.Game, rng: random.Random, moves: int = 60) -> None:
    """``a`` and ``b`` are the same game card for card: every seat sees the same, also while the
    same moves are played on both (so the hidden piles' order agrees too)."""
    for _ in range(moves):
        for s in range(a.players):
            assert a.view(s) == b.view(s)
            assert a.legal_moves(s) == b.legal_moves(s)
        assert a.to_move == b.to_move and a.is_over == b.is_over
        if a.is_over:
            assert a.result() == b.result()
            return
        seat = _acting_seat(a, rng)
        move = rng.choice(a.legal_moves(seat))
        ms = rng.randrange(6000) if a.to_move is None else None
        a.play(move, seat=seat, ms=ms)
        b.play(move, seat=seat, ms=ms)


@pytest.mark.parametrize("name", GAME_NAMES)
@V2
@given(data=st.data())
def test_clone_is_independent(name: str, data: st.DataObject) -> None:
    g, rng = _position(name, data)
    c = g.clone()
    assert type(c) is type(g) and c is not g
    assert _full_state(c) == _full_state(g)
    before = _full_state(g)
    _advance(c, random.Random(rng.random()), 40)  # playing on the clone leaves g as it was
    assert _full_state(g) == before
    after_clone = _full_state(c)
    _advance(g, random.Random(rng.random()), 40)  # and the other way round
    assert _full_state(c) == after_clone
    # the clone plays exactly like the game it came from
    a, b = g.clone(), g.clone()
    _same_play(a, b, random.Random(1))
    assert a.events == b.events and a.record() == b.record()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_clone_copies_every_field(name: str) -> None:
    """A field added to a game later must be copied by its clone() too."""
    g = mauseloch.new_game(name, players=_players(name)[-1], seed=11)
    _advance(g, random.Random(11), 30)
    c = g.clone()
    for klass in type(g).__mro__:
        for slot in klass.__dict__.get("__slots__", ()):
            if slot in ("__dict__", "__weakref__") or not hasattr(g, slot):
                continue
            assert hasattr(c, slot), f"clone() forgets {slot}"
            if slot == "_options":  # set once in __init__, read only through a proxy: shared on purpose
                assert getattr(c, slot) == getattr(g, slot)
                continue
            mine, theirs = getattr(g, slot), getattr(c, slot)
            if isinstance(mine, list | dict | collections.deque) and mine:
                assert theirs == mine and theirs is not mine, f"clone() shares or changes {slot}"
    assert g.__dict__ == c.__dict__


@pytest.mark.parametrize("name", GAME_NAMES)
@V2
@given(data=st.data())
def test_parse_move(name: str, data: st.DataObject) -> None:
    g, _ = _position(name, data)
    before = _full_state(g)
    for s in range(g.players):
        for move in g.legal_moves(s):
            for spelling in (move, move.upper(), move.lower(), f"  {move.title()} "):
                assert g.parse_move(spelling, seat=s) == move
            if g.to_move == s:
                assert g.parse_move(move) == move
        for bad in [*NOT_MOVES, 7, None, ["draw"]]:
            if bad in g.legal_moves(s):
                continue
            with pytest.raises(mauseloch.IllegalMove):
                g.parse_move(bad, seat=s)
    for bad_seat in (-1, g.players, True, "0"):
        with pytest.raises(mauseloch.IllegalMove):
            g.parse_move("flip", seat=bad_seat)
    if g.to_move is not None:
        for move in g.legal_moves():
            other = (g.to_move + 1) % g.players
            if move not in g.legal_moves(other):
                with pytest.raises(mauseloch.IllegalMove):
                    g.parse_move(move, seat=other)
    assert _full_state(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
def test_action_space(name: str) -> None:
    """Ids cover every move string once, move_of inverts action_id, refusals are ValueErrors."""
    for n in _players(name):
        g = mauseloch.new_game(name, players=n, seed=n)
        size = g.num_actions
        assert _is_int(size) and size >= 1
        moves = [g.move_of(i) for i in range(size)]
        assert len(set(moves)) == size
        for i, m in enumerate(moves):
            assert g.action_id(m) == i and g.action_id(f" {m.swapcase()} ") == i
        before = _full_state(g)
        for bad in [*NOT_MOVES, 7, None, b"flip"]:
            with pytest.raises(ValueError):
                g.action_id(bad)
        for bad_id in (-1, size, True, 1.0, "0", None):
            with pytest.raises(ValueError):
                g.move_of(bad_id)
        assert _full_state(g) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@V2
@given(data=st.data())
def test_action_ids_are_stable(name: str, data: st.DataObject) -> None:
    """The same move string has the same id in every game of that name, players and options,
    whatever has been played; the space's size stays fixed."""
    g, _ = _position(name, data)
    fresh = mauseloch.new_game(name, players=g.players, seed=0, options=dict(g.options))
    assert g.num_actions == fresh.num_actions
    for s in range(g.players):
        assert g.legal_actions(s) == [fresh.action_id(m) for m in g.legal_moves(s)]
    assert [g.move_of(i) for i in range(g.num_actions)] == [fresh.move_of(i) for i in range(g.num_actions)]


@pytest.mark.parametrize("name", GAME_NAMES)
@V2
@given(data=st.data())
def test_determinize_keeps_what_the_seat_knows(name: str, data: st.DataObject) -> None:
    g, rng = _position(name, data)
    seat = data.draw(st.integers(0, g.players - 1), label="seat")
    before = _full_state(g)
    d = g.determinize(seat, seed=data.draw(st.integers(0, 2**40), label="sample seed"))
    assert _full_state(g) == before
    assert type(d) is type(g) and d is not g
    assert d.view(seat) == g.view(seat)
    assert d.legal_moves(seat) == g.legal_moves(seat)
    assert (d.to_move, d.is_over, d.players, dict(d.options)) == (g.to_move, g.is_over, g.players, dict(g.options))
    spectator = g.view(None)
    assert d.view(None) == spectator  # every count, score and public pile
    if g.is_over:
        assert d.result() == g.result()
    # the sample is a game that plays on under the same rules, to the end
    _advance(d, rng, MAX_MOVES)
    assert d.is_over
    _check_result(d)


@pytest.mark.parametrize("name", GAME_NAMES)
@V2
@given(data=st.data())
def test_determinize_depends_only_on_what_the_seat_knows(name: str, data: st.DataObject) -> None:
    """Two games that look the same to ``seat`` (same view, same public history) give the same
    sample for the same seed, card for card: here the second game is itself a sample, so it
    holds other cards in every place ``seat`` cannot see."""
    g, _ = _position(name, data)
    seat = data.draw(st.integers(0, g.players - 1), label="seat")
    s, t = data.draw(st.integers(0, 2**40), label="s"), data.draw(st.integers(0, 2**40), label="t")
    other = g.determinize(seat, seed=t)
    _same_play(g.determinize(seat, seed=s), other.determinize(seat, seed=s), random.Random(s))
    swapped = _swap_hidden(g, seat)
    if swapped is not None:
        assert swapped.view(seat) == g.view(seat)
        _same_play(g.determinize(seat, seed=s), swapped.determinize(seat, seed=s), random.Random(t))
    # and the seed decides the sample
    a, b = g.determinize(seat, seed=s), g.determinize(seat, seed=s)
    _same_play(a, b, random.Random(t))


def _swap_hidden(g: mauseloch.Game, seat: int) -> mauseloch.Game | None:
    """A copy of ``g`` with two cards swapped that ``seat`` cannot see (None if there are none).

    Reaches into each game's own fields: the public API offers no way to cheat like this.
    """
    c: Any = g.clone()
    rivals = [s for s in range(g.players) if s != seat]
    if g.is_over:
        return None
    if g.name == "mau-mau":
        if c.drawn >= 0 and c.to_move != seat:
            return None  # the card being decided on must stay with its player
        for a in rivals:
            for b in [*rivals, "pile"]:
                mine = c.hands[a]
                theirs = sum(1 << x for x in c.draw_pile) if b == "pile" else c.hands[b]
                x, y = mine & ~theirs, theirs & ~mine
                if x and y:
                    x, y = x & -x, y & -y
                    c.hands[a] = mine ^ x ^ y
                    if b == "pile":
                        i = c.draw_pile.index(y.bit_length() - 1)
                        c.draw_pile[i] = x.bit_length() - 1
                    else:
                        c.hands[b] = theirs ^ x ^ y
                    c._legal = None
                    return c  # type: ignore[no-any-return]
        return None
    if g.name == "mausgeflippt":
        for a in rivals:
            for b in rivals:
                fa = [f for f in range(26) if c.counts[a][f] and not c.counts[b][f]]
                fb = [f for f in range(26) if c.counts[b][f] and not c.counts[a][f]]
                if a != b and fa and fb:
                    for who, give, take in ((a, fa[0], fb[0]), (b, fb[0], fa[0])):
                        c.counts[who][give] -= 1
                        c.counts[who][take] += 1
                        c.masks[who] = sum(1 << f for f in range(26) if c.counts[who][f])
                    c._hands = [None] * c.players
                    return c  # type: ignore[no-any-return]
        return None
    if g.name == "aus-die-maus":  # every stack is face down, even to its owner
        cards = [(s, i) for s in range(g.players) for i in range(len(c.stacks[s]))]
        for s, i in cards:
            for u, j in cards:
                if c.stacks[s][i] != c.stacks[u][j]:
                    c.stacks[s][i], c.stacks[u][j] = c.stacks[u][j], c.stacks[s][i]
                    return c  # type: ignore[no-any-return]
        return None
    return None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_determinize_refusals(name: str) -> None:
    g = mauseloch.new_game(name, players=_players(name)[0], seed=3)
    _advance(g, random.Random(3), 10)
    before = _full_state(g)
    for bad_seat in (None, -1, g.players, True, "0", 1.0):
        with pytest.raises(ValueError):
            g.determinize(bad_seat, seed=1)
    for bad_seed in (-1, 2**64, True, 1.5, "7"):
        with pytest.raises(ValueError):
            g.determinize(0, seed=bad_seed)
    assert _full_state(g) == before
    assert g.determinize(0).view(0) == g.view(0)  # seed=None draws a fresh one


def _hidden_hand(g: Any, seat: int) -> list[str]:
    """The cards of ``seat``'s hand, or its face-down stack in Aus die Maus (engine fields)."""
    if g.name == "aus-die-maus":
        return [str(c) for c in g.stacks[seat]]
    return list(g.hand(seat))


def _all_hidden(g: Any, seat: int) -> list[str]:
    """Every card ``seat`` cannot see at the start of a game: other hands (stacks), draw pile."""
    if g.name == "aus-die-maus":
        return [str(c) for stack in g.stacks for c in stack]
    cards = [c for s in range(g.players) if s != seat for c in _hidden_hand(g, s)]
    if g.name == "mau-mau":
        from mauseloch.games.maumau import CARD_STR

        return cards + [CARD_STR[c] for c in g.draw_pile]
    if g.name == "mausgeflippt":
        from mauseloch.games.mausgeflippt import FACES

        return cards + [FACES[f] for f in g.draw_pile]
    return cards + list(g.pile)  # the test-only game keeps its draw pile as card strings


@pytest.mark.parametrize("name", GAME_NAMES)
def test_determinize_is_uniform(name: str) -> None:
    """Over many samples each hidden card lands in seat 1's hand (stack) about as often as its
    share of the cards seat 0 cannot see says: a chi-square bound, with fixed seeds."""
    g = mauseloch.new_game(name, players=3, seed=21)
    runs = 1500
    seen: collections.Counter[str] = collections.Counter()
    for i in range(runs):
        seen.update(_hidden_hand(g.determinize(0, seed=i), 1))
    kinds = collections.Counter(_all_hidden(g, 0))
    n_hidden, size = sum(kinds.values()), len(_hidden_hand(g, 1))
    assert set(seen) <= set(kinds) and sum(seen.values()) == runs * size
    chi2 = sum((seen[c] - runs * size * k / n_hidden) ** 2 / (runs * size * k / n_hidden) for c, k in kinds.items())
    dof = max(len(kinds) - 1, 1)
    assert chi2 < dof + 5 * (2 * dof) ** 0.5, (chi2, dof)  # about five standard deviations
