"""The page's event texts read only what each game's events declare.

The static half parses each game's text table (web/js/events-<game>.js) and checks every
``ev.<field>`` against the event structs (the source of docs/events.schema.json); the browser
half runs the real texts over the events of whole games, in English and German.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from mauseloch.core import events, schema
from mauseloch.core.events import event_for

JS = Path(mauseloch.__file__).parent / "web" / "js"
ENTRY = re.compile(r"^  (\w+): \(ev, c\) =>", re.M)
TABLE = re.compile(r"^export const (\w+) = \{\n(.*?)^\};", re.M | re.S)


def page_modules() -> dict[str, dict[str, str]]:
    """games.js, the page's one registry of game modules: {game: {"renderer": file, "events": file}}."""
    source = (JS / "games.js").read_text(encoding="utf-8")
    imports = dict(re.findall(r'import \* as (\w+) from "\./([\w-]+\.js)";', source))
    table = re.search(r"const MODULES = \{(.*?)\n\};", source, re.S)
    assert table, "games.js has no MODULES table"
    entries = re.findall(r'"?([\w-]+)"?: \{ renderer: (\w+), events: (\w+) \}', table.group(1))
    assert len(entries) == table.group(1).count(": {"), "an entry of games.js is not read"
    return {game: {"renderer": imports[r], "events": imports[e]} for game, r, e in entries}


def registry() -> dict[str, dict[str, str]]:
    """Each game with a module of its own: {game: its files}."""
    table = page_modules()
    return {name: table[name] for name in mauseloch.GAMES if name in table}


def game_modules() -> dict[str, str]:
    """The registry's map from game name to its text module file."""
    return {game: files["events"] for game, files in registry().items()}


def text_tables(file: str) -> dict[str, dict[str, str]]:
    """{table name: {event type: body of its text function}} of one text module."""
    source = (JS / file).read_text(encoding="utf-8")
    tables: dict[str, dict[str, str]] = {}
    for name, body in TABLE.findall(source):
        starts = list(ENTRY.finditer(body))
        entries = {}
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
            entries[m.group(1)] = body[m.end() : end]
        # Nothing in the table escapes the check: it starts with an entry of the checked form.
        assert (body[: starts[0].start()] if starts else body).strip() == "", f"{file} {name}: unparsed entries"
        tables[name] = entries
    return tables


def declared_fields(game: str) -> dict[str, set[str]]:
    """Event type -> every field its struct or its public copy declares."""
    out: dict[str, set[str]] = {}
    for cls in (*schema.event_types(game), *schema.public_event_types(game)):
        out.setdefault(events.tag(cls), set()).update(events.fields(cls))
    return out


def test_every_game_of_the_page_has_its_own_texts() -> None:
    games = registry()
    assert set(games) == set(mauseloch.GAMES), "a game has no page module in games.js"
    assert set(page_modules()) == set(mauseloch.GAMES), "games.js: a module for a game that is not declared"
    for files in games.values():
        assert (JS / files["renderer"]).exists() and (JS / files["events"]).exists()
    modules = game_modules()
    assert len(set(modules.values())) == len(modules), "two games share one text module"
    # Nothing but the registry names the games' modules: the table, the replay and the log ask it.
    for page in ("table.js", "replay.js", "events.js", "endscreen.js"):
        source = (JS / page).read_text(encoding="utf-8")
        named = {f for files in games.values() for f in files.values() if f'"./{f}"' in source}
        assert not named, f"{page} imports {named} itself instead of asking games.js"


@pytest.mark.parametrize("game", sorted(game_modules()))
def test_texts_read_only_declared_fields(game: str) -> None:
    file = game_modules()[game]
    declared = declared_fields(game)
    tables = text_tables(file)
    assert "TEXTS" in tables, f"{file} has no TEXTS table"
    assert set(tables["TEXTS"]) == set(declared), f"{file}: texts for {set(tables['TEXTS']) ^ set(declared)}"
    for table, entries in tables.items():
        for kind, body in entries.items():
            assert kind in declared, f"{file} {table}: {game} has no event {kind!r}"
            reads = set(re.findall(r"(?<![.\w])ev\.(\w+)", body))
            unknown = reads - declared[kind]
            where = f"{file} {table}.{kind}"
            assert not unknown, f"{where} reads {sorted(unknown)}; {game}'s {kind} has {sorted(declared[kind])}"
            # The event is never handed on whole (a helper could read anything from it).
            assert not re.search(r"(?<![.\w])ev\b(?!\.\w)", body), f"{where} passes `ev` on: {body.strip()}"


def test_the_static_check_catches_the_old_bug() -> None:
    """The line that printed "took undefined card(s)" read ``count`` from Mau-Mau's take."""
    assert "count" not in declared_fields("mau-mau")["take"]
    am, mg = declared_fields("aus-die-maus")["catch"], declared_fields("mausgeflippt")["catch"]
    assert "owner" in am and "owner" not in mg and "card" in mg and "card" not in am


# --------------------------------------------------------------------------- in the browser

BAD = re.compile(r"undefined|NaN|null|\[object|\{\w+\}|^\w+$")


def sample_events(game: str, games: int = 6) -> list[dict[str, Any]]:
    """Every event of a few random games, as the engine logs it and as the other seats see it."""
    out: list[dict[str, Any]] = []
    info = mauseloch.GAMES[game]
    for seed in range(games):
        rng = random.Random(seed)
        g = mauseloch.new_game(game, players=info.min_players + seed % 3, seed=seed)
        while not g.is_over:
            if g.to_move is None:  # a reaction window (Mausgeflippt): some seat reacts, or nobody
                seat = rng.randrange(g.players)
                g.play(rng.choice(g.legal_moves(seat)), seat=seat, ms=rng.randrange(100, 2000))
            else:
                g.play(rng.choice(g.legal_moves()))
        for ev in g.events:
            out.append(ev)
            public = event_for(ev, None)
            if public is not ev and public is not None:
                out.append(public)
    return out


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "de"])
def test_event_texts_in_the_browser(new_context: Any, lang: str) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.evaluate("lang => localStorage.setItem('ml_lang', lang)", lang)
    page.goto("/")
    page.wait_for_selector("#game-select option", state="attached")  # the lobby has learned the games
    for game in sorted(game_modules()):
        sample = sample_events(game)
        texts = page.evaluate(
            """async ([game, evs]) => {
                const m = await import('/static/js/events.js');
                return evs.map((ev) => m.eventText(ev, (s) => 'P' + s, game));
            }""",
            [game, sample],
        )
        bad = [(ev, text) for ev, text in zip(sample, texts, strict=True) if BAD.search(text)]
        assert not bad, f"{game} ({lang}): {bad[:5]}"
        take = [text for ev, text in zip(sample, texts, strict=True) if ev["type"] == "take"]
        if game == "mau-mau":
            assert take and all(re.search(r"\d", text) for text in take), take[:3]


def _ended_by_timeouts() -> mauseloch.Game:
    """A Mausgeflippt game ended for reason ``mice`` by timeouts while mice are left (MG-8:
    nobody reacted to the rest)."""
    g = mauseloch.new_game("mausgeflippt", players=2, seed=1)
    while not g.is_over:
        g.play("timeout" if g.to_move is None else "reveal")
    return g


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "gone", "unreacted", "all_taken"),
    [
        ("en", "the mice are gone", "nobody reacted to the last {n} mice", "every mouse is taken"),
        ("de", "die Mäuse sind weg", "auf die letzten {n} Mäuse hat niemand reagiert", "alle Mäuse sind vergeben"),
    ],
)
def test_mausgeflippt_never_says_the_mice_are_gone_while_mice_are_left(
    new_context: Any, lang: str, gone: str, unreacted: str, all_taken: str
) -> None:
    """On the page too, a game ended by timeouts has mice left; the end screen says
    nobody reacted to them, the log's end line says nothing untrue either way."""
    page = new_context().new_page()
    page.goto("/")
    page.evaluate("lang => localStorage.setItem('ml_lang', lang)", lang)
    page.goto("/")
    g = _ended_by_timeouts()
    end = g.events[-1]
    assert end["type"] == "end" and end["reason"] == "mice" and g.view(0)["mouse_pile"] > 0
    # the same end with the last mouse taken (rare in play: the cheese mostly runs out first)
    for view in (g.view(0), g.view(0) | {"mouse_pile": 0}):
        mice_left = view["mouse_pile"] > 0
        shown = page.evaluate(
            """async ([view, end]) => {
                const mg = await import('/static/js/mausgeflippt.js');
                const ev = await import('/static/js/events.js');
                return [mg.endTable(view, (s) => 'P' + s).querySelector('.reason').textContent,
                        ev.eventText(end, (s) => 'P' + s, 'mausgeflippt')];
            }""",
            [view, end],
        )
        assert all(gone not in text for text in shown), shown
        expected = unreacted.format(n=view["mouse_pile"]) if mice_left else all_taken
        assert expected in shown[0], shown
