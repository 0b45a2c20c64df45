"""The table laid out for play: at a decision, everything it needs is on one screen.

For each game, one table is opened in a touch-enabled context and the viewport is resized through
a phone in portrait (390x844) and landscape (844x390), a tablet (820x1180), a laptop (1366x768)
and a desktop (1920x1080), in German and then in English. At every size, in one measurement
(``MEASURE``): the elements that decide the move are inside the viewport at the same time (your
hand, the pile and what decides it, whose turn with the clock, your primary action), nothing
sticks out sideways or scrolls sideways except the hand's own strip, every control is at least
44x44 CSS px, and axe-core finds nothing serious or critical. The end screens get the same
checks for overflow, targets and axe.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .axe import axe_violations, describe
from .conftest import Server
from .helpers import ACTION, OVER, QuietSeat, act, create_table, finished_table, open_table, play_to_end

pytestmark = pytest.mark.browser

SIZES = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "tablet": {"width": 820, "height": 1180},
    "laptop": {"width": 1366, "height": 768},
    "desktop": {"width": 1920, "height": 1080},
}

# Where each element is, whether something sticks out or scrolls sideways, and which controls are
# smaller than 44x44 px, measured in one go (the page cannot change in between); and whether the
# page is in the state `ready` selects then (null: any state).
MEASURE = """
([selectors, ready]) => {
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const boxes = {};
  for (const [key, sel] of Object.entries(selectors)) {
    const el = document.querySelector(sel);
    if (!el) { boxes[key] = null; continue; }
    const r = el.getBoundingClientRect();
    boxes[key] = {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height};
  }
  // A sideways scroller is allowed only for the hand's own strip.
  const allowed = (el) => el.matches('.hand-cards');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const overflow = [];
  if (document.documentElement.scrollWidth > vw + 1) overflow.push('page ' + document.documentElement.scrollWidth);
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || el.closest('.sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > vw + 1 || r.left < -1) {
      let a = el.parentElement, inStrip = false;
      while (a && a !== document.body) { if (allowed(a)) { inStrip = true; break; } a = a.parentElement; }
      if (!inStrip) overflow.push('sticks out: ' + el.outerHTML.slice(0, 120));
    }
    const st = getComputedStyle(el);
    // (a text field's own text scrolls inside it by design)
    if (st.overflowX !== 'visible' && st.textOverflow !== 'ellipsis' && !allowed(el)
        && !el.matches('input, select, textarea') && el.scrollWidth > el.clientWidth + 1) {
      overflow.push('scrolls sideways: ' + el.outerHTML.slice(0, 120) + ' ' + el.scrollWidth + '>' + el.clientWidth);
    }
  }
  const small = [];
  for (let el of document.querySelectorAll('button, a.btn, a.brand, input, select, summary')) {
    if (!shown(el) || el.closest('.sr-only, [inert]')) continue;
    if (el.matches('input[type=checkbox]')) el = el.closest('label') || el;
    const r = el.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) small.push(el.outerHTML.slice(0, 100) + ` ${r.width}x${r.height}`);
  }
  const main = document.getElementById('main');
  const scroll = {height: main.scrollHeight, client: main.clientHeight, top: main.scrollTop};
  return {vw, vh, boxes, scroll, overflow: overflow.slice(0, 8), small: small.slice(0, 8),
          ready: !ready || document.querySelector(ready) !== null};
}
"""

# What decides a move in each game, and your own part of the table.
DECISION = {
    "mau-mau": {
        "hand": "#board .hand .hand-cards",
        "top card": "#board .top-card",
        "draw pile": "#board .draw-pile",
        "direction": "#board .table-info .direction",
        "rivals": "#board .opponents",
        "turn": "#turn-banner",
        "clock": "#turn-clock",
        "action": "#board [data-primary]",
    },
    "aus-die-maus": {
        "my stack": "#board .am-player.me",
        "pile": "#board .am-centre .pile",
        "chips left": "#board .chips-left",
        "every stack": "#board .am-players",
        "turn": "#turn-banner",
        "clock": "#turn-clock",
        "action": "#board .flip-button",
    },
    "mausgeflippt": {
        "hand": "#board .mg-hand-cards",
        "mouse": "#board .mg-mouse",
        "open cheese": "#board .mg-open-cheese",
        "players": "#board .mg-players",
        "action": "#board .mg-flip",
        "last card": "#board .mg-hand-cards .mg-card:last-child",
    },
}
# Shown only when they apply: checked then.
OPTIONAL = {
    "mau-mau": {"wish": "#board .badge-big.wish", "penalty": "#board .badge-big.penalty"},
    "aus-die-maus": {"chase": "#board .chase-banner"},
    "mausgeflippt": {},
}
TURNS = 5  # the turns a measurement waits for this seat's decision (see check_decision)
READY = {
    "mau-mau": ACTION,
    "aus-die-maus": "#board .flip-button",
    "mausgeflippt": '#board[data-window="shown"] .mg-mouse .mg-face',
}


def settle(page: Any) -> None:
    """The layout at rest: the page's finite animations have ended (a played card flying to the pile
    sticks out of the table for a moment), then two animation frames (a resize has been drawn)."""
    page.evaluate(
        """async () => {
          const finite = document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
          await Promise.all(finite.map((a) => a.finished.catch(() => null)));
        }"""
    )
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def inside(box: dict[str, float], size: dict[str, int]) -> bool:
    return (
        box["width"] > 0
        and box["height"] > 0
        and box["left"] >= -1
        and box["top"] >= -1
        and box["right"] <= size["width"] + 1
        and box["bottom"] <= size["height"] + 1
    )


def check_fits(
    page: Any, where: str, size: dict[str, int], selectors: dict[str, str], got: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The checks of a measurement (``got``: one taken already, else one taken now)."""
    if got is None:
        got = page.evaluate(MEASURE, [selectors, None])
    assert (got["vw"], got["vh"]) == (size["width"], size["height"]), got
    assert not got["overflow"], f"{where}: sideways overflow {got['overflow']}"
    assert not got["small"], f"{where}: touch targets under 44x44 px {got['small']}"
    return got


def check_decision(page: Any, game: str, where: str, size: dict[str, int]) -> dict[str, Any]:
    """The checks at this seat's decision, measured while it is one: the turn clock runs (30 s
    a Mau-Mau move, a few seconds an Aus die Maus! flip) and its stand-in may move for this seat
    while a test goes through the sizes; then the measurement waits for the next decision."""
    selectors = {**DECISION[game], **OPTIONAL[game]}
    for _ in range(TURNS):
        if "clock" in DECISION[game]:
            # the clock comes with the table's news a moment after the view: when a bot's turn
            # passes to this seat, the page shows the view with no clock until that news is in
            page.wait_for_selector("#turn-clock:not(:empty)")
        got: dict[str, Any] = page.evaluate(MEASURE, [selectors, READY[game]])
        if got["ready"]:
            break
        reach(page, game)
        settle(page)
    else:
        raise AssertionError(f"{where}: this seat had no decision to measure in {TURNS} turns")
    check_fits(page, where, size, selectors, got)
    # the whole table fits: nothing to scroll to, nothing scrolled away (the rivals, the last moves)
    assert got["scroll"]["height"] <= got["scroll"]["client"] + 1, f"{where}: the table scrolls {got['scroll']}"
    for key in DECISION[game]:
        box = got["boxes"][key]
        assert box is not None, f"{where}: no {key} ({selectors[key]})"
        assert inside(box, size), f"{where}: {key} is not on the screen: {box}"
    for key in OPTIONAL[game]:
        box = got["boxes"][key]
        assert box is None or inside(box, size), f"{where}: {key} is not on the screen: {box}"
    return got


def check_axe(page: Any, where: str) -> None:
    found = axe_violations(page)
    assert not found, f"{where}:\n{describe(found)}"


def reach(page: Any, game: str) -> None:
    """Wait until this seat has a decision to make (in Mausgeflippt: reveal, then the mouse)."""
    if game == "mausgeflippt":
        page.wait_for_selector(f"#board .mg-reveal, {READY[game]}", timeout=60000)
        if page.locator("#board .mg-reveal").count():
            page.click("#board .mg-reveal")
    page.wait_for_selector(READY[game], timeout=60000)
    if "clock" in DECISION[game]:  # the clock comes with the table's news, a moment after the view
        page.wait_for_selector("#turn-clock:not(:empty)")


def open_game(browser: Any, server: Server, game: str) -> tuple[Any, Any]:
    """A table of `game` at its first decision for seat 0, in a touch context (German)."""
    ctx = browser.new_context(base_url=server.url, locale="de-DE", has_touch=True, viewport=SIZES["phone"])
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    if game == "mausgeflippt":
        # A second person who never reacts and a long window: the mouse stays on the table.
        create_table(page, game, ["me", "human"], options={"window_ms": 600000})
        ben = browser.new_context(base_url=server.url, locale="de-DE").new_page()
        invite = page.input_value("#invite-link")
        open_table(page)
        ben.goto(invite)
        ben.fill("#join-name", "Ben")
        ben.click("#join-button")
    elif game == "aus-die-maus":
        create_table(page, game, ["me", "bot:random", "bot:random"], clock="relaxed")
        open_table(page)
    else:
        # A few moves in: the log's ticker has lines. A random bot with eights wins before seat
        # 0's fourth decision in about 1 deal of 100: then a new table.
        for _ in range(5):
            create_table(page, game, ["me", "bot:random", "bot:random", "bot:random"])
            open_table(page)
            for _ in range(3):
                act(page)
            page.wait_for_selector(f"{OVER}, {ACTION}")
            if not page.locator(OVER).count():
                break
    return ctx, page


@pytest.mark.parametrize("game", ["mau-mau", "aus-die-maus", "mausgeflippt"])
def test_a_decision_fits_every_screen_in_german_and_english(browser: Any, server: Server, game: str) -> None:
    ctx, page = open_game(browser, server, game)
    try:
        for lang in ("de", "en"):
            if lang == "en":
                page.set_viewport_size(SIZES["laptop"])  # the menu is a side panel there
                page.click("#lang-switch")
                assert page.get_attribute("html", "lang") == "en"
            for name, size in SIZES.items():
                reach(page, game)
                page.set_viewport_size(size)
                settle(page)
                check_decision(page, game, f"{game} {lang} {name}", size)
                check_axe(page, f"{game} {lang} {name}")
    finally:
        ctx.close()


@pytest.mark.parametrize(
    ("game", "seats"),
    [("mau-mau", ["me"] + ["bot:random"] * 4), ("aus-die-maus", ["me"] + ["bot:random"] * 5)],
    ids=["mau-mau-5", "aus-die-maus-6"],
)
def test_a_full_table_with_long_names_fits_every_screen(
    browser: Any, server: Server, game: str, seats: list[str]
) -> None:
    """The most seats a game has, and a 32-character name: the rivals' strip stays compact."""
    ctx = browser.new_context(base_url=server.url, locale="de-DE", has_touch=True, viewport=SIZES["phone"])
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        create_table(page, game, seats, name="W" * 32, clock="relaxed")
        open_table(page)
        for name, size in SIZES.items():
            reach(page, game)
            page.set_viewport_size(size)
            settle(page)
            check_decision(page, game, f"{game} {len(seats)} seats {name}", size)
    finally:
        ctx.close()


def test_waiting_and_joining_fit_every_screen(browser: Any, server: Server) -> None:
    """The panels before a game: the creator's invite link, and the join form of the one invited."""
    ctx = browser.new_context(base_url=server.url, locale="de-DE", has_touch=True, viewport=SIZES["phone"])
    other = browser.new_context(base_url=server.url, locale="en-US", has_touch=True, viewport=SIZES["phone"])
    try:
        anna = ctx.new_page()
        _, invite = create_table(anna, "mau-mau", ["me", "human", "bot:random"], name="W" * 32)
        open_table(anna)
        anna.wait_for_selector("#waiting:not([hidden])")
        ben = other.new_page()
        ben.goto(invite)
        ben.wait_for_selector("#join-panel:not([hidden])")
        for page, panel in ((anna, "#waiting"), (ben, "#join-panel")):
            for name, size in SIZES.items():
                page.set_viewport_size(size)
                settle(page)
                got = check_fits(page, f"{panel} {name}", size, {"panel": panel})
                assert inside(got["boxes"]["panel"], {"width": size["width"], "height": 10**6}), got["boxes"]
            check_axe(page, panel)
    finally:
        ctx.close()
        other.close()


def test_a_long_hand_scrolls_in_its_strip_and_keeps_the_pile_in_sight(browser: Any, server: Server) -> None:
    """After penalties a hand can hold twenty cards: they overlap, then scroll inside the strip.

    The cards are copies of the real hand's (the engine decides how long a hand gets; this is
    about where twenty of them go). The page draws the whole board again on every frame (the
    turn clock's news, a presence change come after the move's view), so the copies are made
    again each time it does, in the same task, before anything is laid out or measured."""
    ctx, page = open_game(browser, server, "mau-mau")
    try:
        page.wait_for_selector(ACTION)
        page.evaluate(
            """() => {
              const fill = () => {
                const row = document.querySelector('#board .hand-cards');
                const first = row && row.querySelector('button.card');
                if (first) while (row.children.length < 20) row.append(first.cloneNode(true));
              };
              fill();
              new MutationObserver(fill).observe(document.getElementById('board'), { childList: true, subtree: true });
            }"""
        )
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            settle(page)
            where = f"20 cards, {name}"
            check_decision(page, "mau-mau", where, size)
            strip = page.evaluate(
                """() => { const r = document.querySelector('#board .hand-cards');
                           return {scroll: r.scrollWidth, client: r.clientWidth,
                                   edges: [...r.children].map((c) => c.getBoundingClientRect().width)}; }"""
            )
            assert len(strip["edges"]) == 20, f"{where}: {strip}"
            assert min(strip["edges"]) >= 44, f"{where}: a card's edge is too narrow to tap: {strip['edges']}"
            if size["width"] < 1000:  # twenty cards do not fit a phone or a tablet: the strip scrolls
                assert strip["scroll"] > strip["client"], f"{where}: {strip}"
    finally:
        ctx.close()


def test_the_reason_for_a_card_that_does_not_fit_shows_beside_the_hand(browser: Any, server: Server) -> None:
    """A tap on a card that does not fit says why next to the hand, and the hand and the pile stay
    on the screen with it (on a landscape phone it lies over the line above the cards). Taken at
    the fullest moment of a turn: a card just drawn that fits (its note, "keep it", the rest
    dimmed)."""
    full = '#board[data-pending="0"]:has(.note):has(.btn-action[data-move="pass"]):has(button.card.dimmed)'
    ctx, page = open_game(browser, server, "mau-mau")
    try:
        for _ in range(600):
            page.wait_for_selector(f"{OVER}, {ACTION}")
            if page.locator(OVER).count():  # a new game: no drawn card that fits came in this one
                ctx.close()
                ctx, page = open_game(browser, server, "mau-mau")
                continue
            if page.locator(full).count():
                break
            act(page)
        else:
            raise AssertionError("no drawn card that fits in 600 moves")
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            settle(page)
            page.locator("#board .hand button.card.dimmed").first.click()
            page.wait_for_selector("#hand-note:not(:empty)")
            settle(page)
            got = check_decision(page, "mau-mau", f"reason, {name}", size)
            note = page.evaluate(MEASURE, [{"note": "#hand-note"}, None])["boxes"]["note"]
            assert note is not None and inside(note, size), f"reason, {name}: the reason is not on the screen: {note}"
            assert note["bottom"] <= got["boxes"]["hand"]["bottom"], f"reason, {name}: {note} is not beside the hand"
    finally:
        ctx.close()


def test_a_call_with_a_long_name_never_widens_the_page(browser: Any, server: Server) -> None:
    """A call such as "Mau-Mau! — <32 characters> (you)" in the turn line is cut with an ellipsis.
    It is written into the page the way table.js's announce() writes it, and held for every size."""
    ctx, page = open_game(browser, server, "mau-mau")
    try:
        page.wait_for_selector(ACTION)
        call = "Mau-Mau! — " + "W" * 32 + " (you)"
        page.evaluate(
            """(text) => {
              const box = document.getElementById('announce');
              const span = document.createElement('span');
              span.className = 'announce-text mau_mau';
              span.textContent = text;
              // held for every size: the page takes its call down after a while, and says the
              // moves a stand-in makes when this seat's turn clock runs out
              const hold = () => {
                if (box.firstChild !== span) box.replaceChildren(span);
                if (!box.classList.contains('show')) box.classList.add('show');
              };
              hold();
              new MutationObserver(hold).observe(box, { attributes: true, childList: true });
            }""",
            call,
        )
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            settle(page)
            check_decision(page, "mau-mau", f"call, {name}", size)
    finally:
        ctx.close()


def test_the_menu_holds_the_seat_controls_on_a_phone(browser: Any, server: Server) -> None:
    """On a phone the seat link, sign-out, leave, pace and the full log are one tap away, in a
    drawer that closes with Escape and gives the focus back to the menu button."""
    ctx, page = open_game(browser, server, "mau-mau")
    try:
        page.wait_for_selector(ACTION)
        for control in ("#leave-button", "#my-seat-button", "#log", "#pace-row", "#lang-switch"):
            assert page.locator(control).is_hidden(), control
        assert page.get_attribute("#menu-button", "aria-expanded") == "false"
        page.click("#menu-button")
        assert page.get_attribute("#menu-button", "aria-expanded") == "true"
        for control in ("#leave-button", "#my-seat-button", "#renew-button", "#log", "#lang-switch", "#seat-list"):
            assert page.locator(control).is_visible(), control
        assert page.evaluate("document.activeElement.id") == "side-close"
        check_fits(page, "menu open, phone", SIZES["phone"], {})
        check_axe(page, "menu open, phone")
        assert page.evaluate("document.getElementById('main').inert")  # the table under it takes no taps
        page.keyboard.press("Escape")
        assert page.locator("#leave-button").is_hidden()
        assert page.evaluate("document.activeElement.id") == "menu-button"
        assert not page.evaluate("document.getElementById('main').inert")
        page.click("#menu-button")
        page.mouse.click(8, SIZES["phone"]["height"] // 2)  # a tap on the dimmed table beside the drawer
        assert page.locator("#leave-button").is_hidden()
        page.set_viewport_size(SIZES["laptop"])  # a side panel: always in sight, no menu button
        settle(page)
        assert page.locator("#leave-button").is_visible() and page.locator("#menu-button").is_hidden()
    finally:
        ctx.close()


def check_end_everywhere(page: Any, where: str) -> None:
    for lang in ("de", "en"):
        if lang == "en":
            page.set_viewport_size(SIZES["laptop"])
            page.click("#lang-switch")
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            settle(page)
            parts = {"end": "#end-screen", "ranking": "#end-screen table"}
            got = check_fits(page, f"{where} {lang} {name}", size, parts)
            assert got["boxes"]["end"] is not None and got["boxes"]["ranking"] is not None
            assert got["boxes"]["ranking"]["right"] <= size["width"], f"{where} {lang} {name}: {got['boxes']}"
        check_axe(page, f"{where} {lang}")


@pytest.mark.parametrize("game", ["mau-mau", "aus-die-maus"])
def test_the_end_screen_fits_every_screen(browser: Any, server: Server, game: str) -> None:
    ctx = browser.new_context(base_url=server.url, locale="de-DE", has_touch=True, viewport=SIZES["phone"])
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        create_table(page, game, ["me", "bot:random", "bot:random"], name="W" * 32)
        open_table(page)
        play_to_end(page)
        check_end_everywhere(page, game)
    finally:
        ctx.close()


def test_the_mausgeflippt_end_screen_fits_every_screen(browser: Any, server: Server) -> None:
    """Watched: a finished game of hard bots and the creator's stand-in (she never came), played
    out at full speed and stored (helpers.finished_table), her name 32 characters long."""
    ctx = browser.new_context(base_url=server.url, locale="de-DE", has_touch=True, viewport=SIZES["phone"])
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        table_id = finished_table(server, "mausgeflippt", ["hard", "hard"], name="W" * 32)
        page.goto(f"/t/{table_id}?watch=1")
        page.wait_for_selector("#end-screen:not([hidden])")
        check_end_everywhere(page, "mausgeflippt")
    finally:
        ctx.close()


SMALL = {"width": 360, "height": 740}
# The bot of each game with the longest name ("Heuristik-Bot 2", "Zufalls-Bot 2")
LONGEST_BOT = {"mau-mau": "heuristic", "aus-die-maus": "random"}
PLAYERS = {"mau-mau": range(2, 6), "aus-die-maus": range(2, 7), "mausgeflippt": range(2, 7)}
# What must be in sight while the last mouse's outcome shows (the next mouse is not turned yet).
AFTER_MOUSE = {
    "hand": "#board .mg-hand-cards",
    "last card": "#board .mg-hand-cards .mg-card:last-child",
    "outcome": "#board .mg-outcome",
    "action": "#board .mg-flip",
    "players": "#board .mg-players",
}
# The words a phone's top bar and the players' boxes must show whole (no ellipsis, no line cut off):
# the table's title, the turn line, every player's name.
CUT = """() => [...document.querySelectorAll('#table-title, #turn-banner, #board .player .name-text')]
  .filter((el) => el.getClientRects().length
          && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1))
  .map((el) => el.id || el.textContent)"""
# Oma's own box in Mausgeflippt: her name and "(you)" as shown, and whether the name is cut.
MY_NAME = """() => {
  const who = document.querySelector('#board .mg-player.me .who');
  const name = who.querySelector('.name-text');
  return {text: who.textContent,
          cut: name.scrollWidth > name.clientWidth + 1 || name.scrollHeight > name.clientHeight + 1};
}"""


def small_table(page: Any, server: Server, game: str, players: int) -> list[QuietSeat]:
    """A table of `game` for `players` at its first decision for Oma (seat 0). Mausgeflippt's
    others are people who never react (a long window: the mouse stays shown); the other games
    have bots."""
    quiet: list[QuietSeat] = []
    if game == "mausgeflippt":
        body = {"game": game, "seats": [{"kind": "human"}] * players, "name": "Oma", "clock": "off",
                "options": {"window_ms": 600000}}  # fmt: skip
    else:
        bots = [{"kind": "bot", "bot": LONGEST_BOT[game]}] * (players - 1)
        body = {"game": game, "seats": [{"kind": "human"}, *bots], "name": "Oma", "clock": "relaxed"}
    answer = page.request.post("/api/tables", data=body, headers={"Origin": server.url})
    assert answer.ok, answer.text()
    created = answer.json()
    for name in ("Kind", "Papa", "Opa", "Tante", "Onkel")[: players - 1] if game == "mausgeflippt" else ():
        quiet.append(QuietSeat(server, created["table"], name, created["invite_secret"]))
    page.goto(f"/t/{created['table']}")
    reach(page, game)
    return quiet


def check_mausgeflippt_for_six(page: Any, lang: str, react: bool) -> None:
    """Mausgeflippt for six on the small phone: "Oma (du)" whole, no keycaps on a touch screen;
    when `react`, Oma claims the mouse, and with its outcome shown "Mausgeflippt!" and the whole
    hand are in sight on both phones, and her box says what she won or got."""
    me = page.evaluate(MY_NAME)
    assert me == {"text": "Oma (du)" if lang == "de" else "Oma (you)", "cut": False}, me
    assert page.locator("#board .mg-key:visible").count() == 0
    if not react:
        return
    # a person's reaction: a claim within 100 ms of the mouse is a guess the referee never counts
    page.wait_for_timeout(200)
    page.click("#board .mg-flip")
    page.wait_for_selector("#board .mg-outcome")
    for size in (SIZES["phone"], SMALL):
        page.set_viewport_size(size)
        settle(page)
        got = check_fits(page, f"mausgeflippt for 6 after a mouse, {size}", size, AFTER_MOUSE)
        for key, box in got["boxes"].items():
            assert box is not None and inside(box, size), f"after a mouse, {size}: {key} {box}"
    # her box says what she won or got (a mouse, laundry, a cheese), each number with its own word
    label = page.get_attribute("#board .mg-player.me", "aria-label") or ""
    said = re.findall(r"\b(\d+) (mouse|mice|piece of laundry|pieces of laundry|cheese|cheeses)\b", label)
    assert len(said) == 3 and any(n != "0" for n, _ in said), label
    assert all((n == "1") == (word in ("mouse", "piece of laundry", "cheese")) for n, word in said), label
    page.set_viewport_size(SMALL)


def test_every_number_of_players_fits_a_small_phone(browser: Any, server: Server) -> None:
    """Each game with each number of players it takes, at its first decision on a 360x740 touch
    phone (German with an even number of players, English with an odd one; Mausgeflippt for six
    in both, as check_mausgeflippt_for_six says): everything in sight, and the title, the turn
    line and every player's name whole."""
    ctx = browser.new_context(base_url=server.url, has_touch=True, is_mobile=True, viewport=SMALL)
    ctx.set_default_timeout(30000)
    page = ctx.new_page()
    try:
        page.goto("/")
        for game, counts in PLAYERS.items():
            for players in counts:
                six = game == "mausgeflippt" and players == 6
                for lang in ("de", "en") if six else ("de" if players % 2 == 0 else "en",):
                    page.evaluate("(lang) => localStorage.setItem('ml_lang', lang)", lang)
                    quiet = small_table(page, server, game, players)
                    settle(page)
                    check_decision(page, game, f"{game} for {players}, {lang}, 360x740", SMALL)
                    assert page.evaluate(CUT) == [], f"{game} for {players}, {lang}: words cut"
                    if six:
                        check_mausgeflippt_for_six(page, lang, react=lang == "en")
                    for seat in quiet:
                        seat.drop()
    finally:
        ctx.close()
