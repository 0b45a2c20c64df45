"""Feedback that teaches: a tapped card that does not fit says why (the engine's reason, in the
page's language) next to the hand and sends nothing; a tap out of turn says whose turn it is; the
turn's sound is on (after the page's first tap), its button in sight, remembered; the title
carries a badge while the turn waits in a hidden tab; every move is told to screen readers; arrow
keys walk the hand."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from mauseloch.locale import Lang, t

from .helpers import ACTION, act, capture_frames, capture_sent, create_table, join_as, open_table

pytestmark = pytest.mark.browser

NOTE = "#hand-note"


def card_name(card: str, lang: Lang) -> str:
    return t("card.name", lang, rank=t("rank." + card[0], lang), suit=t("suit." + card[1], lang))


def worded(refusal: dict[str, Any], lang: Lang) -> str:
    """The refusal as the page must say it: the catalogue's text with cards and suits named."""
    params = dict(refusal["params"])
    for key in ("card", "top"):
        if key in params:
            params[key] = card_name(params[key], lang)
    if "suit" in params:
        params["suit"] = t("suit." + params["suit"], lang)
    if "cards" in params:
        params["cards"] = ", ".join(card_name(c.strip(), lang) for c in params["cards"].split(","))
    text = t(refusal["reason"], lang, **params)
    return text[0].upper() + text[1:] + "."


def seated_pair(new_context: Any, locale: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    """Anna (seat 0, to move) and Ben at a fresh Mau-Mau table; Anna's frames."""
    anna = new_context(locale=locale).new_page()
    ben = new_context(locale=locale).new_page()
    frames = capture_frames(anna)
    _, invite = create_table(anna, "mau-mau", ["me", "human"])
    open_table(anna)
    join_as(ben, invite, "Ben")
    anna.wait_for_selector(ACTION)
    return anna, ben, frames


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("de-DE", "de")])
def test_a_card_that_does_not_fit_says_why_and_sends_nothing(new_context: Any, locale: str, lang: Lang) -> None:
    for _ in range(6):  # a deal where Anna holds a card that does not fit (nearly every deal)
        anna, ben, frames = seated_pair(new_context, locale)
        refused = next(f for f in reversed(frames) if f["type"] in ("snapshot", "update"))["refused"]
        if refused:
            break
    else:
        pytest.fail("six deals in a row without a card that does not fit")
    sent = capture_sent(anna)
    card, refusal = next(iter(refused.items()))
    button = anna.locator(f'#board .hand button.card[data-card="{card}"]')
    assert "dimmed" in (button.get_attribute("class") or "")
    button.click()
    anna.wait_for_function("() => document.getElementById('hand-note')?.textContent")
    assert anna.inner_text(NOTE) == worded(refusal, lang)
    assert anna.get_attribute(NOTE, "aria-live") == "polite"
    if lang == "de":
        assert refusal["reason"] != "refuse.mm.noFit" or "passt nicht auf" in anna.inner_text(NOTE)
    assert not [m for m in sent if m["type"] == "move"], "a card that does not fit was sent"

    # Out of turn: Ben's tap says whose turn it is.
    ben.locator("#board .hand button.card").first.click()
    ben.wait_for_function("() => document.getElementById('hand-note')?.textContent")
    assert ben.inner_text(NOTE) == t("fb.notYourTurn", lang, name="Anna")

    # Anna plays: the note is emptied for the new position, and Ben's screen reader hears the move
    # (in a live region that was in the page, empty, before the move: so it is read).
    assert ben.get_attribute("#moves-say", "aria-live") == "polite" and ben.inner_text("#moves-say") == ""
    before = int(anna.get_attribute("#board", "data-version") or 0)
    anna.locator(ACTION).first.click()
    if anna.locator("#wish-dialog[open]").count():
        anna.locator("#wish-dialog .wish-choice").first.click()
    anna.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=before)
    assert anna.inner_text(NOTE) == ""
    ben.wait_for_function("() => document.getElementById('moves-say')?.textContent.includes('Anna')")


SIGNALS = """() => {
  window.signals = { tones: 0, buzz: [] };
  const Ctx = window.AudioContext;
  const make = Ctx.prototype.createOscillator;
  Ctx.prototype.createOscillator = function () { window.signals.tones += 1; return make.call(this); };
  navigator.vibrate = (pattern) => { window.signals.buzz.push(pattern); return true; };
}"""


def test_a_move_the_server_refuses_says_the_engines_reason_in_the_pages_language(new_context: Any) -> None:
    """A refusal from the server is never silent: the page words the engine's reason it carries."""
    anna, ben = new_context(locale="de-DE").new_page(), new_context(locale="de-DE").new_page()
    seen: dict[str, Any] = {"refused": {}}

    def swap(ws: Any) -> None:  # the page's move becomes a card that does not fit
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "move" and seen["refused"]:
                data["move"] = seen["card"] = next(iter(seen["refused"]))
            server.send(json.dumps(data))

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") in ("snapshot", "update"):
                seen["refused"] = data["refused"]
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    anna.route_web_socket(re.compile(r"/ws/"), swap)
    for _ in range(6):
        _, invite = create_table(anna, "mau-mau", ["me", "human"])
        open_table(anna)
        ben.goto(invite)
        ben.fill("#join-name", "Ben")
        ben.click("#join-button")
        anna.wait_for_selector(ACTION)
        if seen["refused"]:
            break
    else:
        pytest.fail("six deals in a row without a card that does not fit")
    refusal = seen["refused"]
    anna.locator(ACTION).first.click()
    if anna.locator("#wish-dialog[open]").count():
        anna.locator("#wish-dialog .wish-choice").first.click()
    anna.wait_for_selector("#error-box:not([hidden])")
    expected = t("table.refused", "de", message=worded(refusal[seen["card"]], "de"))
    assert anna.inner_text("#error-box") == expected
    assert anna.get_attribute("#board", "data-version") == "0"  # nothing was played


def test_the_sound_button_is_on_the_board_and_the_turn_sounds_after_the_first_tap(new_context: Any) -> None:
    """The sound is on unless switched off (a browser plays it only after the page's first tap),
    its button in sight on a phone and a laptop, remembered; vibrating has its own switch."""
    laptop = new_context(viewport={"width": 1366, "height": 768}).new_page()
    create_table(laptop, "mau-mau", ["me", "bot:random"])
    open_table(laptop)
    laptop.wait_for_selector("#sound-button[aria-pressed=true]")
    box = laptop.locator("#sound-button").bounding_box()
    assert box and box["y"] + box["height"] <= 768 and box["x"] + box["width"] <= 1366, box
    assert laptop.get_attribute("#sound-button", "aria-label") == "Sound when it is my turn"

    ctx = new_context(locale="de-DE", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    ctx.add_init_script(f"({SIGNALS})()")
    page = ctx.new_page()
    create_table(page, "mau-mau", ["me", "bot:random"], options={"move_limit": 400})
    open_table(page)
    page.wait_for_selector(ACTION)  # Anna's turn before any tap: a vibration, no sound yet
    assert page.evaluate("() => window.signals") == {"tones": 0, "buzz": [120]}
    button = page.locator("#sound-button")
    box = button.bounding_box()
    assert box and box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390, box
    assert button.get_attribute("aria-pressed") == "true"
    assert button.get_attribute("aria-label") == "Ton, wenn ich dran bin"
    act(page)  # the first tap: the next turn chimes
    page.wait_for_function("() => window.signals.tones > 0 && window.signals.buzz.length === 2")
    button.tap()  # off, and remembered
    assert button.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('ml_sound')") == "0"
    page.click("#menu-button")  # vibrating is switched in the menu
    assert page.locator("#sound-toggle").is_checked() is False
    page.locator("#vibrate-toggle").uncheck()
    assert page.inner_text("#vibrate-label") == "Vibrieren, wenn ich dran bin"
    assert page.evaluate("() => localStorage.getItem('ml_vibrate')") == "0"
    page.click("#side-close")
    page.reload()
    page.wait_for_selector(ACTION)
    assert page.get_attribute("#sound-button", "aria-pressed") == "false"
    act(page)
    page.wait_for_selector(ACTION)  # the next turn: neither sound nor vibration
    assert page.evaluate("() => window.signals") == {"tones": 0, "buzz": []}


HIDE = """() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def test_the_title_has_a_badge_while_the_turn_waits_in_a_hidden_tab(new_context: Any) -> None:
    anna = new_context().new_page()
    ben = new_context().new_page()
    _, invite = create_table(anna, "mau-mau", ["me", "human"])
    open_table(anna)
    join_as(ben, invite, "Ben")
    anna.wait_for_selector(ACTION)
    # Ben's tab goes to the background; his turn comes when Anna moves.
    ben.evaluate(HIDE)
    assert not ben.title().startswith("●")
    while True:  # Anna moves until the turn is Ben's (an eight or a nine keeps her on)
        version = int(anna.get_attribute("#board", "data-version") or 0)
        ben.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v", arg=version)
        if ben.get_attribute("#board", "data-to-move") == "1":
            break
        act(anna)
        anna.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=version)
    ben.wait_for_function("() => document.title.startsWith('● ')")
    ben.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert not ben.title().startswith("●")
    assert ben.title().endswith("— Mauseloch")
    # Hidden again while the turn still waits: the badge is back.
    ben.evaluate(HIDE)
    ben.wait_for_function("() => document.title.startsWith('● ')")


def test_arrow_keys_walk_the_hand_and_the_wish_dialog(new_context: Any) -> None:
    page = new_context().new_page()
    create_table(page, "mau-mau", ["me", "human"])
    open_table(page)
    # Ben is needed for the game to start
    ben = new_context().new_page()
    ben.goto(page.input_value("#invite-link"))
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    page.wait_for_selector(ACTION)
    cards = page.locator("#board .hand button.card")
    cards.first.focus()
    order = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == order[1]
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.dataset.card") == order[-1]
    page.keyboard.press("ArrowRight")  # round to the first
    assert page.evaluate("() => document.activeElement.dataset.card") == order[0]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == order[-1]


FLIGHTS = """() => {
  window.flights = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.flights.push(this.className + " " + (this.dataset.card || ""));
    return animate.apply(this, args);
  };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_flies_to_the_pile_unless_motion_is_reduced(new_context: Any, motion: str) -> None:
    for _ in range(6):  # a deal where Anna may play a card at once (nearly every deal)
        anna_ctx, ben_ctx = new_context(reduced_motion=motion), new_context(reduced_motion=motion)
        anna_ctx.add_init_script(f"({FLIGHTS})()")
        ben_ctx.add_init_script(f"({FLIGHTS})()")
        anna, ben = anna_ctx.new_page(), ben_ctx.new_page()
        _, invite = create_table(anna, "mau-mau", ["me", "human"])
        open_table(anna)
        join_as(ben, invite, "Ben")
        anna.wait_for_selector(ACTION)
        if anna.locator("#board button.card.legal").count():
            break
    else:
        pytest.fail("six deals in a row without a card Anna may play")
    card = anna.locator("#board button.card.legal").first
    played = card.get_attribute("data-card")
    card.click()
    if anna.locator("#wish-dialog[open]").count():
        anna.locator("#wish-dialog .wish-choice").first.click()
    for page in (anna, ben):
        page.wait_for_function("c => document.querySelector('#board .top-card')?.dataset.card === c", arg=played)
        flights = page.evaluate("() => window.flights")
        if motion == "reduce":
            assert flights == [], f"cards moved under prefers-reduced-motion: {flights}"
        else:
            assert any("top-card" in f and f.endswith(played) for f in flights), flights
