"""The table on a phone: a small "Mau!" that never covers the ranking, long and
combining-mark names kept on their own line, no hand before the game starts, options in words."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import ACTION, OVER, create_table, open_table, play_to_end
from .test_ui import PHONE, assert_fits_phone

pytestmark = pytest.mark.browser

# 32 characters (the name limit) with as many combining marks as the server lets a name have:
# two on every letter (a pile of 15 on one letter is refused, see tests/server/test_public.py).
ZALGO = ("Z\u0337\u0322" + "o\u0338\u0324") * 5 + "Z\u0337"
WIDE = "W" * 32

# Every time the announcement shows: where its text is drawn.
WATCH_ANNOUNCE = """
window.__announced = [];
new MutationObserver(() => {
  const box = document.getElementById('announce');
  const text = box.querySelector('.announce-text');
  if (box.classList.contains('show') && text) {
    const r = text.getBoundingClientRect();
    window.__announced.push({text: text.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                             height: r.height});
  }
}).observe(document.getElementById('announce'), {attributes: true, childList: true});
"""

# Elements that show `name` as text (the innermost ones) and do not clip what they draw.
UNCLIPPED = """
name => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.textContent.includes(name)) continue;
    if ([...el.children].some((c) => c.textContent.includes(name))) continue;
    if (el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (!['hidden', 'clip'].includes(style.overflowY)) out.push(el.outerHTML.slice(0, 100));
  }
  return out;
}
"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["x"] + b["width"]
        and b["x"] < a["right"]
        and a["top"] < b["y"] + b["height"]
        and b["y"] < a["bottom"]
    )


def test_mau_is_small_and_never_over_the_ranking(new_context: Any) -> None:
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    for _ in range(4):  # a random game ends by a player going out nearly always
        create_table(page, "mau-mau", ["me", "bot:random"])
        open_table(page)
        page.evaluate(WATCH_ANNOUNCE)
        play_to_end(page)
        if "no cards left" in page.locator("#end-screen .reason").inner_text():
            break
    else:
        raise AssertionError("four games in a row ended without a Mau-Mau")
    shown = page.evaluate("window.__announced")
    assert shown, "no Mau-Mau! was announced"
    for box in shown:  # a note, not half the screen
        assert box["height"] <= PHONE["height"] * 0.1, box
        assert box["right"] - box["left"] <= PHONE["width"], box
    page.wait_for_selector("#announce.show")
    ranking = page.locator("#end-screen table.ranking").bounding_box()
    last = page.evaluate("window.__announced.at(-1)")
    now = page.locator("#announce .announce-text").bounding_box()
    assert ranking and now
    assert "Mau-Mau!" in last["text"]
    current = {"left": now["x"], "right": now["x"] + now["width"], "top": now["y"], "bottom": now["y"] + now["height"]}
    assert not overlap(current, ranking), (now, ranking)
    assert_fits_phone(page)


@pytest.mark.parametrize("name", [ZALGO, WIDE], ids=["combining-marks", "32-wide"])
def test_names_stay_on_their_line_on_a_phone(new_context: Any, name: str) -> None:
    assert len(name) == 32
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    create_table(page, "mau-mau", ["me", "bot:random"], name=name, public=True)  # public: in the lobby's list
    page.wait_for_selector(f"#tables .seat-chip:has-text('{name[:1]}')")
    assert_fits_phone(page)
    assert page.evaluate(UNCLIPPED, name) == []
    open_table(page)
    page.wait_for_selector(ACTION)
    assert_fits_phone(page)
    assert page.evaluate(UNCLIPPED, name) == []
    assert page.get_attribute("#board .me .name", "title").startswith(name)
    play_to_end(page)
    page.wait_for_selector(OVER)
    assert_fits_phone(page)
    assert page.evaluate(UNCLIPPED, name) == []


def test_the_creator_waits_without_a_hand(new_context: Any) -> None:
    anna = new_context().new_page()
    _, invite = create_table(anna, "mau-mau", ["me", "human"])
    open_table(anna)
    anna.wait_for_selector("#waiting:not([hidden])")
    assert anna.locator("#board .hand, #board .card, #board .badge").count() == 0
    assert "to move" not in anna.locator("#main").inner_text()
    assert anna.inner_text("#turn-banner") == "Waiting for players"
    assert "free seat" in anna.locator("#board").inner_text()
    assert anna.locator("#log-panel").is_hidden()  # the deal waits for the game: no log yet
    assert "Player 2" not in anna.locator("body").inner_text()

    ben = new_context().new_page()
    ben.goto(invite)
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    anna.wait_for_selector("#board .hand .card")
    assert "Ben" in anna.locator("#board").inner_text()
    assert anna.locator("#log-panel").is_visible()


@pytest.mark.parametrize("game", ["aus-die-maus", "mausgeflippt"])
def test_the_creator_of_any_game_waits_without_a_hand(new_context: Any, game: str) -> None:
    """In the other games too: no cards, no turn, no log before the game starts."""
    anna = new_context().new_page()
    create_table(anna, game, ["me", "human"])
    open_table(anna)
    anna.wait_for_selector("#waiting:not([hidden])")
    assert anna.locator("#board .hand, #board .card, #board .badge, #board button").count() == 0
    main = anna.locator("#main").inner_text()
    assert "to move" not in main and "your turn" not in main.lower() and "flip" not in main.lower()
    assert anna.inner_text("#turn-banner") == "Waiting for players"
    assert "free seat" in anna.locator("#board").inner_text()
    assert anna.locator("#log-panel").is_hidden()


def test_lobby_options_are_in_words_with_the_engine_names_kept(new_context: Any) -> None:
    page = new_context(locale="de-DE").new_page()
    page.goto("/")
    page.select_option("#game-select", "mau-mau")
    text = page.locator("#options-box").inner_text()
    assert "Ass setzt aus" in text and "Standard: nein." in text
    for internal in ("ace_skips", "move_limit", "_", "default", "true", "false"):
        assert internal not in text, f"{internal!r} shown: {text}"
    assert page.get_attribute("[data-option='ace_skips']", "title") == "ace_skips"
    page.select_option("#game-select", "aus-die-maus")
    text = page.locator("#options-box").inner_text()
    assert "Kleines Spiel" in text and "ja bei 2–3 Spielern, sonst nein" in text
    assert "_" not in text and "true" not in text and "small deck" not in text
    assert page.get_attribute("[data-option='small_deck']", "title") == "small_deck"
    page.click("#lang-switch")
    text = page.locator("#options-box").inner_text()
    assert "Small deck" in text and "yes for 2–3 players, else no" in text and "_" not in text
