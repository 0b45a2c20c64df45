"""Trust at the big moments, as a family meets them: Papa at a 1366x768 laptop (English), Oma at a
390x844 phone (German, touch).

- A request that waits for a person (a pause, the match's next deal, a rematch) and a person whose
  connection is lost are a banner at the top of the table with their buttons, in sight on the
  phone too, not only in the closed menu drawer.
- The end of a match names the match's winner in its headline, the last deal's winner below it.
- "Rematch" after a match is a new match of the same length at the same table: the same title,
  everyone in their first seats, the bots with their names.

One server for the module, its clocks four times slower than a family's (``--clock-scale 4``): the
standings show 32 s between two deals, so the next deal waits for the people's taps, not the
server's pause.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from mauseloch.locale import catalogue, list_names, tn, tnames

from .conftest import Server, server_fixture
from .helpers import ACTION, QuietSeat, act, people

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

slow_server = server_fixture("mauseloch-trust", "--clock-scale", "4")


def post(page: Page, server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A request from the page's own context (with its ``Origin``): the seat's cookie stays there."""
    answer = page.request.post(path, data=body, headers={"Origin": server.url})
    assert answer.ok, answer.text()
    return answer.json()  # type: ignore[no-any-return]


def in_sight(page: Page, selector: str) -> None:
    """``selector`` is shown inside the viewport, not covered by the menu drawer (not inert)."""
    page.wait_for_selector(selector)
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box, size)
    assert not page.locator(selector).evaluate("(el) => Boolean(el.closest('[inert]'))"), selector


def version(page: Page) -> int:
    return int(page.get_attribute("#board", "data-version") or -1)


def play_deal(server: Server, table: str, pages: dict[int, Page]) -> None:
    """Play a deal to its end: each page makes its own seat's moves, the bot its own."""
    for _ in range(400):
        summary = server.get_json(f"/api/tables/{table}")
        if summary["status"] == "over":
            for page in pages.values():
                page.wait_for_selector("#end-screen:not([hidden])")
            return
        for page in pages.values():  # whose turn it is, read from pages that are not a move behind
            page.wait_for_function("v => Number(document.getElementById('board').dataset.version) >= v",
                                   arg=summary["version"])  # fmt: skip
        if next(iter(pages.values())).get_attribute("#board", "data-over") == "1":
            # the deal ended at this version: the summary was read while its end was being
            # stored (its status says "over" once stored, before the pages hear of it)
            continue
        to_move = next(iter(pages.values())).get_attribute("#board", "data-to-move")
        page = pages.get(int(to_move)) if to_move else None
        if page is not None and act(page) in (None, "over"):
            continue  # the page changed under the click: look again
        # a move was made (this page's, or the bot's after its short pause): wait until it is
        # shown, so that the next look at the table does not see the turn before it
        page = page or next(iter(pages.values()))
        page.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v",
                               arg=summary["version"])  # fmt: skip
    raise AssertionError("the deal did not end")


def names_in_seats(page: Page, players: int) -> list[str]:
    return [" ".join(page.inner_text(f'#seat-list li[data-seat="{i}"] .name').split()) for i in range(players)]


@pytest.fixture
def family(browser: Any, slow_server: Server) -> Iterator[tuple[Page, Page]]:
    """Papa (English, laptop) and Oma (German, phone with touch), each in a browser of their own."""
    with people(browser, slow_server, "en-US", viewport=LAPTOP) as (papa,), \
         people(browser, slow_server, "de-DE", viewport=PHONE, has_touch=True, is_mobile=True) as (oma,):  # fmt: skip
        yield papa, oma


def test_requests_on_the_board_the_matchs_winner_and_a_rematch_that_keeps_the_match(
    family: tuple[Page, Page], slow_server: Server
) -> None:
    papa, oma = family
    body = {"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            "name": "Papa", "deals": 2, "clock": "off", "options": {"move_limit": 10}}  # fmt: skip
    created = post(papa, slow_server, "/api/tables", body)
    table = created["table"]
    # Oma's connection runs through the test, so that it can be lost for a while
    routes: list[tuple[Any, Any]] = []
    cut = {"on": False}

    def route(ws: Any) -> None:
        if cut["on"]:
            ws.close()  # no way through: the page tries again and again
            return
        routes.append((ws, ws.connect_to_server()))

    oma.route_web_socket(re.compile(r"/ws/"), route)
    papa.goto(f"/t/{table}")
    oma.goto(created["invite"])
    oma.fill("#join-name", "Oma")
    oma.click("#join-button")
    for page in (papa, oma):
        page.wait_for_selector("#board .hand button.card")
    first_names = names_in_seats(oma, 3)
    assert first_names == ["Papa", "Oma (du)", "Heuristik-Bot 3"], first_names
    assert oma.inner_text("#table-title") == "Mau-Mau bei Papa"

    # A pause asked at the laptop: on the phone a banner asks, with its button in sight
    papa.click("#pace-button")
    in_sight(oma, "#requests .request[data-kind=pause-ask] #request-pause")
    assert oma.inner_text("#requests .request-text") == "Papa möchte pausieren – einverstanden?"
    assert oma.inner_text("#request-pause") == "Pause zustimmen"
    assert papa.inner_text("#requests .request-text") == "Pause asked: waiting for Oma to agree."
    oma.tap("#request-pause")
    in_sight(papa, "#requests .request[data-kind=paused] #request-pause")
    assert papa.inner_text("#requests .request-text").startswith("Paused by Papa")
    assert papa.inner_text("#request-pause") == "Go on"
    in_sight(oma, "#requests .request[data-kind=paused] #request-pause")
    assert oma.inner_text("#request-pause") == "Weiter"
    papa.click("#request-pause")  # anyone seated goes on, from the banner
    for page in (papa, oma):
        page.wait_for_selector("#requests", state="hidden")

    # Oma's connection is lost: Papa is told the table waits for her; she is back, and so is play
    cut["on"] = True
    for ws, server in routes:
        server.close()
        ws.close()
    in_sight(papa, "#requests .request[data-kind=away]")
    assert papa.inner_text("#requests .request-text").startswith("Oma is not connected — the table waits")
    in_sight(oma, "#offline")
    cut["on"] = False
    oma.wait_for_selector('#conn-status[data-state="connected"]')
    papa.wait_for_selector("#requests", state="hidden")

    play_deal(slow_server, table, {0: papa, 1: oma})
    # Papa is ready for the next deal: Oma's phone asks her, with the button in sight
    papa.click("#next-deal-button")
    in_sight(oma, "#requests .request[data-kind=next-deal] #request-next-deal")
    assert oma.inner_text("#requests .request-text") == "Papa ist bereit für die nächste Runde."
    assert oma.inner_text("#request-next-deal") == "Nächste Runde"
    assert papa.inner_text("#requests .request-text") == (
        "The next deal starts once Oma is ready, or by itself in a moment."
    )
    oma.tap("#request-next-deal")
    for page in (papa, oma):
        page.wait_for_function(
            "id => location.pathname.startsWith('/t/') && !location.pathname.endsWith('/' + id)", arg=table
        )
        page.wait_for_selector("#board .hand button.card")
    second = papa.url.rsplit("/", 1)[-1]
    play_deal(slow_server, second, {2: papa, 0: oma})  # everyone sat one seat on

    # The match is over: the headline names the match's winner, the last deal's comes below it
    match = slow_server.get_json(f"/api/tables/{second}")["match"]
    assert match["over"]
    best = [row["seat"] for row in match["standings"] if row["rank"] == 1]
    for page, heading, one, shared in (
        (papa, "The match is over — ", "{} wins", "{} share the win"),
        (oma, "Die Partie ist vorbei — ", "{} gewinnt", "{} teilen sich den Sieg"),
    ):
        winners = [" ".join(page.inner_text(f'#seat-list li[data-seat="{s}"] .name').split()) for s in best]
        shown = " ".join(page.inner_text("#end-screen h2").split())
        joined = list_names(winners, "de" if page is oma else "en")  # "A, B, and C" / "A, B und C"
        words = (one if len(winners) == 1 else shared).format(joined)
        assert shown == heading + " ".join(words.split()), shown
        assert all(name in " ".join(page.inner_text("#end-winner").split()) for name in winners)
        assert page.locator("#end-deal-winner").count() == 1  # the last deal's result, below

    # Rematch: Papa asks; Oma's phone asks her; the rematch is the same match again at Papa's table
    papa.click("#rematch-button")
    in_sight(oma, "#requests .request[data-kind=rematch] #request-rematch")
    assert oma.inner_text("#requests .request-text") == "Papa möchte eine Revanche."
    oma.tap("#request-rematch")
    for page in (papa, oma):  # both follow to the rematch's table (the server sends them on to its plain address)
        page.wait_for_function(
            "ids => location.pathname.startsWith('/t/') && !ids.some((id) => location.pathname.endsWith('/' + id))",
            arg=[table, second],
        )
        page.wait_for_selector("#board .hand button.card")
    assert papa.inner_text("#table-title") == "Mau-Mau at Papa's"
    assert oma.inner_text("#table-title") == "Mau-Mau bei Papa"
    papa.wait_for_function("() => document.getElementById('match-line').textContent.startsWith('Match: deal 1 of 2')")
    assert names_in_seats(oma, 3) == first_names
    assert names_in_seats(papa, 3) == ["Papa (you)", "Oma", "Heuristic bot 3"]


# What the header draws and cuts: anything wider than its box or the screen, and the turn line's
# words cut with an ellipsis.
HEADER = """() => {
  const bar = document.querySelector('.table-topbar');
  const vw = document.documentElement.clientWidth;
  const out = [];
  for (const el of bar.querySelectorAll('*')) {
    if (el.getClientRects().length === 0 || el.closest('.sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 || r.left < -1) out.push('off screen: ' + el.outerHTML.slice(0, 80));
    if (el.matches('button, .turn-banner, .turn-clock') && el.scrollWidth > el.clientWidth + 1)
      out.push('cut: ' + el.outerHTML.slice(0, 80));
  }
  return {height: bar.getBoundingClientRect().height, problems: out};
}"""

# Every text of the lost connection's banner and every wait it chose before the next try.
WATCH_OFFLINE = """() => {
  window.offline = {texts: [], waits: []};
  const box = document.getElementById('offline');
  new MutationObserver(() => {
    if (!box.hidden && window.offline.texts.at(-1) !== box.textContent) window.offline.texts.push(box.textContent);
    const wait = box.dataset.retryMs;
    if (wait && window.offline.waits.at(-1) !== wait) window.offline.waits.push(wait);
  }).observe(box, {attributes: true, childList: true, characterData: true, subtree: true});
}"""
COUNTED_DOWN = "() => { const t = window.offline.texts; const i = t.findIndex((s) => / 2\\ss$/.test(s)); return i >= 0 && t.slice(i).some((s) => / 1\\ss$/.test(s)); }"  # noqa: E501


def test_a_lost_connection_is_told_on_the_board_and_play_goes_on_soon_after(browser: Any, slow_server: Server) -> None:
    """The server goes away during Oma's turn: a banner on the board counts down to the next try,
    the header stays as it was, the clock says its time is unknown; the page tries again at least
    every 1.5 s, so play goes on within 2 s of the server's return."""
    with people(browser, slow_server, "de-DE", viewport=PHONE, has_touch=True, is_mobile=True) as (oma,), \
         people(browser, slow_server, "en-US", viewport=LAPTOP) as (papa,):  # fmt: skip
        bots = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
        created = post(oma, slow_server, "/api/tables", {"game": "mau-mau", "seats": [{"kind": "human"}, *bots],
                                                         "name": "Oma", "clock": "normal"})  # fmt: skip
        oma.goto(f"/t/{created['table']}")
        papa.goto(created["invite"])
        papa.fill("#join-name", "Papa")
        papa.click("#join-button")
        oma.wait_for_selector(f"{ACTION}")  # Oma leads: her turn, her clock
        for page in (oma, papa):
            page.wait_for_selector("#turn-clock:not(:empty)")
            page.evaluate(WATCH_OFFLINE)
        before = {id(page): page.evaluate(HEADER) for page in (oma, papa)}
        assert before[id(oma)]["problems"] == [], before
        assert oma.inner_text("#turn-banner") == "▶ Du bist dran"

        slow_server.kill()
        for page, words in ((oma, r"Verbindung weg — (neuer Versuch in \d\ss|verbinde neu…)"),
                            (papa, r"Connection lost — (trying again in \d\ss|connecting again…)")):  # fmt: skip
            in_sight(page, "#offline")
            assert re.fullmatch(words, page.inner_text("#offline")), page.inner_text("#offline")
            page.wait_for_function(COUNTED_DOWN)  # "in 2 s", then "in 1 s"
            header = page.evaluate(HEADER)
            assert header["problems"] == [] and header["height"] == before[id(page)]["height"], header
            assert page.get_attribute("#turn-clock", "class") == "turn-clock unsure"
        assert oma.inner_text("#turn-clock") == "Zeit unklar" and papa.inner_text("#turn-clock") == "time unknown"
        assert oma.inner_text("#turn-banner") == "▶ Du bist dran"  # the header as it was
        assert oma.locator("#board .hand button.card").count() > 0  # the cards stay, dimmed, with the banner's words

        slow_server.start()
        for page in (oma, papa):
            page.wait_for_selector('#conn-status[data-state="connected"]')
            page.wait_for_selector("#offline", state="hidden")
            waits = [int(ms) for ms in page.evaluate("window.offline.waits")]
            assert waits and max(waits) <= 1500, waits  # found again within 1.5 s of its return, at most
        assert oma.inner_text("#turn-clock").startswith("noch ")
        act(oma)  # play goes on
        papa.wait_for_function("() => Number(document.getElementById('board').dataset.version) >= 1")


NOTE = "#hand-note"
# The top bar's words and the players' names that are cut (an ellipsis, a line cut off).
WHOLE = """() => [...document.querySelectorAll('#table-title, #turn-banner, #board .player .name-text')]
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.id || el.textContent)"""
# Every plural text of the catalogue as the page says it, for numbers that pick each form, and
# names as a list; in both languages.
PAGE_WORDS = """async ([keys, numbers, lists]) => {
  const m = await import('/static/js/i18n.js');
  const out = {};
  for (const lang of ['de', 'en']) {
    m.setLang(lang);
    out[lang] = {plural: keys.map((k) => numbers.map((n) => m.tn(k, n))),
                 lists: lists.map((names) => m.listNames(names)),
                 agree: lists.map((names) => m.tnames('end.nextDealWaiting', names))};
  }
  return out;
}"""


def play_until_opas_turn(oma: Page) -> None:
    """Oma's moves until the turn is the other seat's (a card she draws may keep the turn hers)."""
    opas_turn = '#board[data-to-move="1"][data-pending="0"]'
    for _ in range(20):
        oma.wait_for_selector(f"{opas_turn}, {ACTION}")
        if oma.locator(opas_turn).count():
            return
        act(oma)
    raise AssertionError("Oma's turn did not end")


def test_a_refusal_stays_until_the_next_tap_and_words_agree_with_their_numbers(
    browser: Any, slow_server: Server
) -> None:
    with people(browser, slow_server, "de-DE", viewport=PHONE, has_touch=True, is_mobile=True) as (oma,):
        body = {"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "name": "Oma", "clock": "off"}
        created = post(oma, slow_server, "/api/tables", body)
        opa = QuietSeat(slow_server, created["table"], "Großvater Heinrich", created["invite_secret"])
        # the page's timers run on a clock of the test's: the note's 3 s pass when the test says so
        oma.clock.install()
        oma.goto(f"/t/{created['table']}")
        play_until_opas_turn(oma)  # Oma leads; then it is Opa's turn, and he takes his time
        oma.clock.pause_at(dt.datetime.now() + dt.timedelta(minutes=1))
        oma.tap("#board .hand button.card >> nth=0")
        assert oma.inner_text(NOTE) == "Du bist nicht dran: Großvater Heinrich ist am Zug."
        # the phone's top bar says it whole, the title too
        assert oma.inner_text("#turn-banner") == "Warte auf Großvater Heinrich"
        assert oma.evaluate(WHOLE) == [], oma.evaluate(WHOLE)
        before = version(oma)
        opa.play_turn()  # the table moves on and the board is drawn again: the note stays to be read
        oma.wait_for_function("v => Number(document.getElementById('board').dataset.version) > v", arg=before)
        assert oma.inner_text(NOTE) == "Du bist nicht dran: Großvater Heinrich ist am Zug."
        oma.tap("#ticker-box")  # the next tap ends it
        assert oma.inner_text(NOTE) == ""

        oma.tap("#menu-button")  # English, from the menu
        oma.tap("#lang-switch")
        oma.tap("#side-close")
        play_until_opas_turn(oma)
        oma.tap("#board .hand button.card >> nth=0")
        assert oma.inner_text(NOTE) == "It is not your turn: Großvater Heinrich is to move."
        oma.clock.run_for(2900)
        assert oma.inner_text(NOTE) == "It is not your turn: Großvater Heinrich is to move."
        oma.clock.run_for(200)  # 3 s, untouched: gone
        assert oma.inner_text(NOTE) == ""
        opa.drop()

        # The page's words and the terminal's: one catalogue, the same plural forms (CLDR's)
        keys = sorted({k.rsplit(".", 1)[0] for k in catalogue()["en"] if k.endswith(".one")})
        numbers = [0, 1, 2, -1, 1.5]
        lists = [["Oma"], ["Kind", "Oma"], ["Papa", "Kind", "Oma"]]
        said = oma.evaluate(PAGE_WORDS, [keys, numbers, lists])
        for lang in ("de", "en"):
            assert said[lang]["plural"] == [[tn(k, n, lang) for n in numbers] for k in keys], lang
            assert said[lang]["lists"] == [list_names(names, lang) for names in lists]
            assert said[lang]["agree"] == [tnames("end.nextDealWaiting", names, lang) for names in lists]
        assert said["de"]["agree"][0].startswith("Die nächste Runde beginnt, sobald Oma so weit ist,")
        assert said["de"]["agree"][1].startswith("Die nächste Runde beginnt, sobald Kind und Oma so weit sind,")
        assert said["en"]["agree"][2].startswith("The next deal starts once Papa, Kind, and Oma are ready,")
        mice = keys.index("end.mg.mice")
        assert said["de"]["plural"][mice][:3] == ["0 Mäuse", "1 Maus", "2 Mäuse"]

        # A name cut at the limit says so, in the page's language
        oma.goto("/")
        # the field holds names to the server's limit once the lobby has it (/api/games): its note
        # next to the field says so
        oma.wait_for_selector("#player-name + .name-cut", state="attached")
        oma.fill("#player-name", "Großmutter Wilhelmine von Oberammergau")  # 38 characters
        assert len(oma.input_value("#player-name")) == 32
        assert oma.inner_text(".name-cut") == "A name has at most 32 characters: the rest was cut off."
        oma.click("#lang-switch")
        assert oma.inner_text(".name-cut") == "Ein Name hat höchstens 32 Zeichen: der Rest wurde abgeschnitten."
        oma.fill("#player-name", "Oma")
        assert oma.locator(".name-cut").is_hidden()
