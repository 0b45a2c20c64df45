"""Every event of every game fits its declared struct exactly, for every seat's copy of it, over
random seeded games with random options; each public copy is derived from its event by the
redaction rule; the exported schema is up to date."""

from __future__ import annotations

import collections
import json
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mauseloch
from mauseloch.core import events, schema
from mauseloch.core.registry import OptionSpec
from mauseloch.server import protocol, wire

MAX_MOVES = 20000


def _option_values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    if spec.type is bool:
        return st.booleans()
    low = spec.minimum if spec.minimum is not None else 0
    if spec.name == "move_limit":  # short games end by the limit, long ones by the rules
        return st.sampled_from([low, low + 1, 12, 60, spec.default])
    # a default that depends on the player count (Aus die Maus!'s chips) is None here
    return st.integers(min_value=low, max_value=max(low + 12, spec.default or low))


@st.composite
def setups(draw: st.DrawFn, name: str) -> tuple[int, int, dict[str, Any]]:
    info = mauseloch.GAMES[name]
    players = draw(st.integers(info.min_players, info.max_players))
    options = {spec.name: draw(_option_values(spec)) for spec in info.options if draw(st.booleans())}
    if name == "mausgeflippt" and "hand_size" in options:  # players × hand_size ≤ 58 (MG-1)
        options["hand_size"] = min(options["hand_size"], 58 // players)
    return players, draw(st.integers(0, 2**53 - 1)), options


def play_random(name: str, players: int, seed: int, options: dict[str, Any]) -> mauseloch.Game:
    """A whole game with seeded random moves (reactions from random seats with random times)."""
    rng = random.Random(seed)
    g = mauseloch.new_game(name, players=players, seed=seed, options=options)
    for _ in range(MAX_MOVES):
        if g.is_over:
            return g
        if g.to_move is not None:
            g.play(rng.choice(g.legal_moves()))
        else:
            seat = rng.choice([s for s in range(g.players) if g.legal_moves(s)])
            g.play(rng.choice(g.legal_moves(seat)), seat=seat, ms=rng.randrange(6000))
    raise AssertionError(f"{name} not over after {MAX_MOVES} moves")


def check_all(name: str, g: mauseloch.Game) -> collections.Counter[str]:
    """Every event and every seat's (and a spectator's) copy fits its struct; returns the types."""
    seen: collections.Counter[str] = collections.Counter()
    for ev in g.events:
        shape = schema.check_event(name, ev)
        assert isinstance(shape, schema.event_types(name))
        seen[ev["type"]] += 1
        for seat in (None, *range(g.players)):
            schema.check_seen(name, ev, seat)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(mauseloch.GAMES))
def test_every_event_fits_its_struct_with_random_options(name: str) -> None:
    @settings(max_examples=25)
    @given(setup=setups(name))
    def run(setup: tuple[int, int, dict[str, Any]]) -> None:
        players, seed, options = setup
        check_all(name, play_random(name, players, seed, options))

    run()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(mauseloch.GAMES))
def test_seeded_games_use_every_declared_event(name: str) -> None:
    """Over seeded games every declared shape occurs (none is dead or misnamed)."""
    info = mauseloch.GAMES[name]
    seen: collections.Counter[str] = collections.Counter()
    for seed in range(60):
        players = info.min_players + seed % (info.max_players - info.min_players + 1)
        options: dict[str, Any] = {}
        if name == "mau-mau":
            options = {"ace_skips": seed % 2 == 0, "no_win_with_jack": seed % 3 != 0, "move_limit": 300}
        seen.update(check_all(name, play_random(name, players, seed, options)))
    declared = {events.tag(cls) for cls in schema.event_types(name)}
    assert set(seen) <= declared
    assert declared == set(seen), f"never emitted: {declared - set(seen)}"


def test_the_public_copy_is_derived_by_the_redaction_rule() -> None:
    """A private event's public shape is its own without ``private`` and the hidden fields; the
    typed copy a seat sees (seen_by) is the dict copy (event_for), for every seat and a spectator."""
    for name in sorted(mauseloch.GAMES):
        for cls in schema.event_types(name):
            public = events.public_type(cls)
            if not cls.hidden:
                assert public is cls
                continue
            assert events.tag(public) == events.tag(cls)
            assert set(events.fields(public)) == set(events.fields(cls)) - {"private", *cls.hidden}
        g = play_random(name, mauseloch.GAMES[name].min_players + 1, 11, {})
        typed = g.event_log()
        assert msgspec.to_builtins(typed) == g.events
        for seat in (None, *range(g.players)):
            seen = [msgspec.to_builtins(events.seen_by(e, seat)) for e in typed]
            assert seen == [mauseloch.event_for(e, seat) for e in g.events]
    assert schema.private_event_types("aus-die-maus") == ()


@pytest.mark.parametrize("name", ["mau-mau", "aus-die-maus", "mausgeflippt"])
def test_a_move_makes_no_event_until_somebody_reads_the_log(name: str) -> None:
    """The rules log ``(make, *args)`` and the structs are made when the log is read, once: a
    simulation that never reads an event pays nothing for it; a clone taken before the read
    reads the same events."""
    g = play_random(name, 3, 5, {})
    twin = g.clone()
    assert g.event_count > 10
    assert not any(isinstance(entry, events.Event) for entry in g._log)  # nothing made while playing
    tail = g.event_log(g.event_count - 4)
    assert len(tail) == 4 and all(isinstance(e, events.Event) for e in tail)
    assert sum(isinstance(entry, events.Event) for entry in g._log) == 4  # only what was read
    typed = g.event_log()
    assert all(a is b for a, b in zip(typed, g.event_log(), strict=True))  # made once, then kept
    assert msgspec.to_builtins(typed) == g.events == twin.events == mauseloch.replay(g.record()).events


def test_a_rule_must_name_declared_fields() -> None:
    class Peek(events.Event, tag="peek"):
        hidden = ("card",)
        seat: int
        private: int

    with pytest.raises(TypeError, match="card"):
        events.declare(Peek)


def test_a_wrong_field_is_refused() -> None:
    """The page once read ``count`` from ``take``; the shape says ``amount``."""
    schema.check_event("mau-mau", {"type": "take", "seat": 1, "amount": 2})
    with pytest.raises(msgspec.ValidationError):
        schema.check_event("mau-mau", {"type": "take", "seat": 1, "count": 2})
    with pytest.raises(msgspec.ValidationError):  # an extra field
        schema.check_event("mau-mau", {"type": "take", "seat": 1, "amount": 2, "count": 2})
    with pytest.raises(msgspec.ValidationError):  # a private event's cards in a public copy
        schema.check_event("mau-mau", {"type": "draw", "seat": 1, "count": 1, "cards": ["7H"]}, public=True)
    with pytest.raises(msgspec.ValidationError):  # unknown type
        schema.check_event("mau-mau", {"type": "flip", "seat": 1, "card": "cat"})


def test_the_two_catch_events_are_different_shapes() -> None:
    am = {events.tag(c): c for c in schema.event_types("aus-die-maus")}["catch"]
    mg = {events.tag(c): c for c in schema.event_types("mausgeflippt")}["catch"]
    assert am is not mg
    assert events.fields(am) != events.fields(mg)
    schema.check_event("aus-die-maus", {"type": "catch", "seat": 0, "owner": 1})
    with pytest.raises(msgspec.ValidationError):
        schema.check_event("mausgeflippt", {"type": "catch", "seat": 0, "owner": 1})


def test_schema_file_is_up_to_date() -> None:
    """docs/events.schema.json is what the structs say (regenerate: scripts/event_schema.py)."""
    assert schema.SCHEMA_PATH.exists(), "run: PYTHONPATH=src python scripts/event_schema.py"
    on_disk = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    assert on_disk == wire.schema(), "docs/events.schema.json is stale: run scripts/event_schema.py"
    assert set(on_disk["games"]) == set(mauseloch.GAMES)
    codes = on_disk["$defs"]["ErrorCode"]["enum"]
    assert set(codes) == {code.value for code in protocol.ErrorCode}  # the page's words cover each (test_page_words)
