"""Mausgeflippt in the browser: three people and a bot play a whole game, a spectator watches, and
every WebSocket frame each page receives is checked for hidden cards of other seats.

The server runs with fast clocks (a 0.1 s countdown before each mouse) and a short reaction
window (600 ms option). The people react to the first mice (a key, the space bar, a touch
target), each a little after the mouse is painted (quicker than 100 ms would be a guess), then
keep still: the game ends when as many mice in a row went unanswered as are left (MG-8). The
bot is the child level, too slow for such a short window, so it never takes a mouse here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import mauseloch

from .conftest import Server, server_fixture
from .helpers import capture_frames, create_table, open_table

pytestmark = pytest.mark.browser

REACTED = 3  # mice the people take before they keep still
WINDOW_MS = 600
PAUSE_MS = 120  # after the painted frame: a reaction, not a guess
SHOWN = '#board[data-window="shown"] .mg-mouse .mg-face'
REACT = """([how, pause]) => new Promise((done) => setTimeout(() => {
  if (how === "tap") document.querySelector(".mg-hand .mg-card").click();
  else document.dispatchEvent(new KeyboardEvent("keydown", { key: how, bubbles: true }));
  done();
}, pause))"""
OUTCOMES = """() => {
  window.outcomes = [];
  new MutationObserver(() => {
    for (const el of document.querySelectorAll("#board .mg-outcome")) {
      for (const c of el.classList) if (c.startsWith("mg-outcome-")) window.outcomes.push(c);
    }
  }).observe(document.getElementById("board"), { childList: true, subtree: true });
}"""


fast_server = server_fixture("mauseloch-reactions", "--clock-scale", "0.05")


def real_hands(record: dict[str, Any]) -> list[list[list[str]]]:
    """hands[v][seat]: each seat's cards (sorted) after v moves of the recorded game."""
    game = mauseloch.new_game(
        record["game"], players=record["players"], seed=record["seed"], options=record["options"], deck=record["deck"]
    )
    out = [[sorted(game.view(s)["hand"]) for s in range(game.players)]]
    for entry in record["moves"]:
        game.play(entry[1], seat=entry[0], ms=entry[2] if len(entry) > 2 else None)
        out.append([sorted(game.view(s)["hand"]) for s in range(game.players)])
    return out


def people_won(frames: list[dict[str, Any]]) -> int:
    """How many mice so far went to a person's reaction (seats 0-2), as a spectator saw it."""
    return sum(
        1
        for msg in list(frames)
        if msg["type"] == "update"
        for ev in msg["events"]
        if ev["type"] == "reaction" and ev["seat"] in (0, 1, 2) and ev["move"] != "timeout"
    )


def check_frames(frames: list[dict[str, Any]], hands: list[list[list[str]]], seat: int | None) -> int:
    """No frame shows another seat's hand: views carry only this seat's own (the real one), events
    with cards are this seat's private ones, claims are never sent. Returns the views checked."""
    checked = 0
    for msg in frames:
        text = json.dumps(msg)
        assert "claims" not in text and "observed" not in text, f"a claim was sent to seat {seat}: {text[:200]}"
        if msg["type"] == "window":
            assert set(msg) == {"type", "version", "seq", "start", "in_ms", "window_ms"}
        if msg["type"] not in ("snapshot", "update"):
            continue
        view = msg["view"]
        for ev in msg["events"]:
            if "cards" in ev:
                assert seat is not None and ev.get("private") == seat, f"cards of another seat in {ev}"
        if view["is_over"]:
            continue
        assert "hands" not in view
        if seat is None:
            assert "hand" not in view and "legal_moves" not in view
        else:
            assert sorted(view["hand"]) == hands[msg["version"]][seat]
        checked += 1
    return checked


def test_three_people_and_a_bot_play_mausgeflippt_to_the_end(browser: Any, fast_server: Server) -> None:
    contexts = [browser.new_context(base_url=fast_server.url, locale="en-US") for _ in range(3)]
    # the spectator watches in German on a phone
    contexts.append(
        browser.new_context(base_url=fast_server.url, locale="de-DE", viewport={"width": 390, "height": 844})
    )
    for ctx in contexts:
        ctx.set_default_timeout(30000)
    anna, ben, cleo, watcher = (ctx.new_page() for ctx in contexts)
    frames = {
        name: capture_frames(p) for name, p in (("anna", anna), ("ben", ben), ("cleo", cleo), ("watcher", watcher))
    }
    try:
        anna.goto("/")
        anna.select_option("#game-select", "mausgeflippt")
        offered = anna.locator("#seat-1 option").evaluate_all("els => els.map((e) => e.value)")
        assert {"bot:child", "bot:easy", "bot:normal", "bot:hard"} <= set(offered)
        table_id, invite = create_table(
            anna, "mausgeflippt", ["me", "human", "human", "bot:child"], options={"window_ms": WINDOW_MS}, clock="fast"
        )
        open_table(anna)
        # the spectator comes while the table waits, by the invite link (a private table is watched
        # only with it): the game starts when Cleo sits down
        link, _, secret = invite.partition("#")
        watcher.goto(f"{link}?watch=1#{secret}")
        watcher.wait_for_selector("#board[data-version]")
        # every outcome the spectator's board shows (each lasts only the short countdown here)
        watcher.evaluate(OUTCOMES)
        for page, name in ((ben, "Ben"), (cleo, "Cleo")):
            page.goto(invite)
            page.fill("#join-name", name)
            page.click("#join-button")
            page.wait_for_selector("#board[data-version]")
        for page in (anna, ben, cleo, watcher):
            page.wait_for_selector("#board[data-game='mausgeflippt']", state="attached")
        for page in (anna, ben, cleo):
            page.wait_for_selector("#board .mg-hand .mg-card")
        assert watcher.locator("#board .mg-hand").count() == 0

        # Each person reacts in turn: a number key, a touch target, the space bar, each PAUSE_MS
        # after the mouse was painted. The page does it itself (a round trip to Playwright takes
        # longer than the short window on a busy machine); if a reaction still comes too late,
        # the next mouse is tried.
        reactors = [(anna, "1"), (ben, "tap"), (cleo, " ")]
        before = people_won(frames["watcher"])
        for i in range(REACTED + 6):
            if people_won(frames["watcher"]) >= before + REACTED:
                break
            page, how = reactors[i % len(reactors)]
            page.wait_for_selector(SHOWN)  # the mouse's clothes, in words
            version = int(page.get_attribute("#board", "data-version") or "0")
            page.evaluate(REACT, [how, PAUSE_MS])
            for p in (anna, ben, cleo, watcher):
                p.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=version)
        assert people_won(frames["watcher"]) >= before + REACTED

        for page in (anna, ben, cleo, watcher):
            page.wait_for_selector("#end-screen:not([hidden])", timeout=90000)
        outcomes = set(watcher.evaluate("window.outcomes"))
        assert "mg-outcome-timeout" in outcomes and outcomes & {
            "mg-outcome-caught",
            "mg-outcome-laundry",
            "mg-outcome-protected",
        }
        assert watcher.locator("#end-screen .ranking tbody tr").count() == 4
        assert "Mäuse" in watcher.inner_text("#end-screen")  # German on the phone

        record = fast_server.get_json(f"/api/tables/{table_id}/record")
        assert mauseloch.replay(record).result()["reason"] in ("mice", "cheese")  # the record replays to the end
        people = {e["decision"]["seat"] for e in record["referee"] if e["decision"]["seat"] is not None}
        assert people and people <= {0, 1, 2}
        claims = [c for e in record["referee"] for c in e["claims"] if c["seat"] in (0, 1, 2)]
        # the page measures from the frame it painted, which on a loaded machine can come a frame
        # or more after the test saw the mouse in the page: a claim may be a little under PAUSE_MS
        assert len(claims) >= REACTED and all(c["ms"] > 0 and "observed" in c for c in claims)
        hands = real_hands(record)
        for seat, name in enumerate(("anna", "ben", "cleo")):
            assert check_frames(frames[name], hands, seat) > REACTED
        assert check_frames(frames["watcher"], hands, None) > REACTED

        # The replay shows each reaction's time; the record downloads.
        anna.goto(f"/replay/{table_id}")
        anna.wait_for_selector("#board[data-game='mausgeflippt']")
        decided = [i for i, m in enumerate(record["moves"]) if m[1] != "reveal"]  # one referee entry each
        first = next(i for i, e in zip(decided, record["referee"], strict=True) if e["claims"]) + 1
        anna.locator("#slider").fill(str(first))
        anna.wait_for_selector(".frame-events .claim")
        assert "ms" in anna.locator(".frame-events .claim").first.inner_text()
        download = anna.request.get(anna.get_attribute("#download", "href") or "")
        assert download.ok and download.json()["moves"] == record["moves"]
    finally:
        for ctx in contexts:
            ctx.close()
