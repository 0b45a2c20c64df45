"""A family room in the browser, as one evening: Papa creates the room on a laptop (English), Oma
joins on a phone (German, touch) and Kind on a tablet (German); a stranger with a guessed id
sees nothing; the room page passes axe-core. Kind is learning: "Tipp" marks a legal card. Papa
starts a two-deal Mau-Mau match from the room, the others take their seats with one tap; quick
reactions show at the sender's seat on the other devices, not for a muted sender; the match is
played, its "Revanche" is a new match of two deals; after a server restart the tally and the
room's replays are right. One server and these three devices for every point (the suite's time)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .axe import axe_violations, describe
from .conftest import Server, server_fixture
from .helpers import ACTION, MAX_MOVES, OVER, act

pytestmark = pytest.mark.browser

# the standings between a match's deals show for 8 s x 0.05: the pages follow at once
rooms_server = server_fixture("rooms-server", "--clock-scale", "0.05")
LAPTOP = {"viewport": {"width": 1366, "height": 768}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "de-DE", "has_touch": True, "is_mobile": True}
TABLET = {"viewport": {"width": 820, "height": 1180}, "locale": "de-DE", "has_touch": True}


def room_json(page: Page, room: str) -> Any:
    return page.evaluate(f"fetch('/api/rooms/{room}').then((r) => r.json())")


def join_room(page: Page, link: str, name: str, avatar: str) -> None:
    page.goto(link)
    page.wait_for_selector("#member-form:not([hidden])")
    assert "#key=" not in page.url  # the secret is out of the address bar at once
    page.fill("#member-name", name)
    page.click(f"label[for=avatar-{avatar}]")
    page.click("#member-submit")
    page.wait_for_selector(f"#members .member:has-text('{name}')")


def bubble_covers(page: Page, seat: int) -> list[str]:
    """What a seat's emote bubble hides of the names and cards on the board, or that it leaves the
    window (its place at rest: the pop-in animation's transform left out)."""
    found: list[str] = page.evaluate(
        """async (seat) => {
          // after the next frame: a board redrawn just now has its bubbles placed again by then
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
          const b = document.querySelector(`#emote-layer .emote-bubble[data-seat="${seat}"]`);
          const x = b.offsetLeft - scrollX, y = b.offsetTop - scrollY, w = b.offsetWidth, h = b.offsetHeight;
          const out = [];
          if (x < 0 || y < 0 || x + w > innerWidth || y + h > innerHeight) out.push("outside the window");
          for (const el of document.querySelectorAll("#board .player-name, #board .card, #board .stack")) {
            const k = el.getBoundingClientRect();
            if (k.width && x < k.right && x + w > k.left && y < k.bottom && y + h > k.top)
              out.push(el.className + ": " + el.textContent.trim().slice(0, 20));
          }
          return out;
        }""",
        seat,
    )
    return found


def play_all(pages: list[Page]) -> None:
    """Each page plays its own turns until every page shows the game over."""
    for _ in range(MAX_MOVES):
        if all(p.locator(OVER).count() for p in pages):
            return
        for p in pages:
            if p.locator(ACTION).count():
                # the page may change under the look (a match's next deal loads): look again
                with contextlib.suppress(PlaywrightTimeout):
                    act(p, timeout=2000)
    raise AssertionError("the game did not end")


def seat_of(page: Page) -> int:
    table = page.url.rsplit("/", 1)[-1]
    return int(page.evaluate(f"fetch('/api/tables/{table}').then((r) => r.json()).then((s) => s.you)"))


def test_a_family_evening_in_a_room(browser: Any, rooms_server: Server) -> None:
    contexts = [browser.new_context(base_url=rooms_server.url, **kind) for kind in (LAPTOP, PHONE, TABLET, LAPTOP)]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(20000)
        papa, oma, kind, stranger = (ctx.new_page() for ctx in contexts)

        # -- the room: created, joined by its link on two more devices ------------------------
        papa.goto("/r/new")
        papa.fill("#room-name", "Familie Maus")
        papa.fill("#member-name", "Papa")
        papa.click("label[for=avatar-bear]")
        papa.click("#member-submit")
        papa.wait_for_selector("#members .member")
        room = papa.url.rsplit("/", 1)[-1]
        link = papa.input_value("#room-link")
        assert f"/r/{room}#key=" in link
        join_room(oma, link, "Oma", "owl")
        join_room(kind, link, "Kind", "fox")
        assert oma.inner_text("#members-heading") == "Wer im Raum ist"
        members = {m["name"]: m["id"] for m in room_json(papa, room)["members"]}
        assert list(members) == ["Papa", "Oma", "Kind"]
        papa.reload()
        papa.wait_for_selector("#members .member:has-text('Kind') .is-here")
        assert oma.locator("#members img[src$='owl.svg']").count() == 1

        # a stranger: a guessed id and the room's own id without its link show nothing
        for path in ("/r/AAAAAAAAAAAA", f"/r/{room}"):
            stranger.goto(path)
            stranger.wait_for_selector("#room-error:not([hidden])")
            assert stranger.locator("#room").is_hidden() and "Oma" not in stranger.content()
        assert room_json(stranger, room) == {"error": "no such room", "code": "not_found"}

        # axe on the room page: phone (German), tablet (German), laptop and phone (English)
        for page, size in ((oma, None), (kind, None), (papa, None), (papa, {"width": 390, "height": 844})):
            if size:
                page.set_viewport_size(size)
            violations = axe_violations(page)
            assert not violations, describe(violations)
        papa.set_viewport_size(LAPTOP["viewport"])

        # -- Kind is learning, with tips on; Papa starts a two-deal match ---------------------
        papa.check("#hints-toggle")
        papa.wait_for_function("() => document.getElementById('hints-toggle').checked")
        papa.check(f"#learning-{members['Kind']}")
        papa.wait_for_selector(f"#learning-{members['Kind']}:checked")
        papa.select_option("#next-game", "mau-mau")
        for i, who in enumerate(("Kind", "Papa", "Oma")):
            papa.select_option(f"#next-seat-{i}", f"m:{members[who]}")
        papa.select_option("#next-seat-3", "b:random")  # a seat past the remembered ones
        papa.fill("#next-deals", "2")
        # No turn clock: at --clock-scale 0.05 a 30 s turn is 1.5 s, and a stand-in moving for
        # Kind while the tip is asked for would take the marked card away.
        papa.select_option("#next-clock", "off")
        papa.click("#next-start")
        papa.wait_for_url("**/t/*")
        first = papa.url.rsplit("/", 1)[-1]
        for page in (oma, kind):  # the invitation, one tap
            page.reload()
            page.click(f"#invitations button[data-table='{first}']")
            page.wait_for_url(f"**/t/{first}")
        pages = [papa, oma, kind]
        for page in pages:
            page.wait_for_selector("#board[data-version='0']")

        # -- "Tipp" for Kind, who leads: a legal card marked, and why ---------------------------
        kind.wait_for_selector("#hint-button:not([hidden])")
        assert papa.locator("#hint-button").is_hidden()
        kind.click("#hint-button")
        kind.wait_for_selector("#board .hint-card")
        marked = kind.locator("#board .hint-card")
        assert "legal" in (marked.get_attribute("class") or "") or marked.get_attribute("data-move")
        assert kind.inner_text("#hint-say").startswith("Tipp: ")

        # -- emotes at the sender's seat, not for a muted sender --------------------------------
        oma_seat = seat_of(oma)
        oma.click("#emote-button")
        oma.click("#emote-bar [data-emote=mau]")
        for page in (papa, kind):
            page.wait_for_selector(f"#emote-layer .emote-bubble[data-seat='{oma_seat}'][data-emote=mau]")
        assert kind.inner_text(f"#emote-layer [data-seat='{oma_seat}']").endswith("Mau!")
        for page in (papa, kind):  # on Kind's tablet Oma sits at the top of the board
            assert bubble_covers(page, oma_seat) == []
        papa.check(f"#emote-mute-{oma_seat}")  # in the menu, always in sight on a laptop
        oma.click("#emote-button")
        oma.click("#emote-bar [data-emote=oh_no]")
        kind.wait_for_selector(f"#emote-layer [data-seat='{oma_seat}'][data-emote=oh_no]")
        kind_seat = seat_of(kind)
        kind.click("#emote-button")
        kind.click("#emote-bar [data-emote=clap]")
        # Kind's reaction was sent after Oma's: once it is on Papa's page, Oma's came (and was muted)
        papa.wait_for_selector(f"#emote-layer [data-seat='{kind_seat}'][data-emote=clap]")
        assert papa.locator(f"#emote-layer [data-seat='{oma_seat}'][data-emote=oh_no]").count() == 0

        # -- the match, then its "Revanche": a new match of two deals ---------------------------
        tables = [first]
        for deal in (1, 2):
            play_all(pages)
            if deal == 1:
                for page in pages:
                    page.wait_for_url(lambda url, old=tables[-1]: not url.endswith(old))
                    page.wait_for_selector("#board[data-version]")
                tables.append(papa.url.rsplit("/", 1)[-1])
        for page in pages:
            page.wait_for_selector("#match-standings")
            page.click("#rematch-button")
        for page in pages:
            page.wait_for_url(lambda url, old=tables[-1]: not url.endswith(old))
            page.wait_for_selector("#board[data-version]")
        rematch = papa.url.rsplit("/", 1)[-1]
        summary = papa.evaluate(f"fetch('/api/tables/{rematch}').then((r) => r.json())")
        first_seats = papa.evaluate(f"fetch('/api/tables/{first}').then((r) => r.json())")["seats"]
        assert [s["name"] for s in summary["seats"]] == [s["name"] for s in first_seats]  # the bot's name too
        assert summary["seats"][3]["bot"] == "random"
        assert summary["match"]["deal"] == 1 and summary["match"]["deals"] == 2 and summary["match"]["booked"] == 0
        # Kind's end screen of the new match's room: the way back to the room
        assert kind.locator("#room-line a.room-back").count() == 1

        # -- after a restart: the tally and the replays ----------------------------------------
        tally = room_json(papa, room)["tally"]["mau-mau"]
        assert tally["games"] == 2 and tally["matches"] == 1
        rooms_server.stop()
        rooms_server.start()
        papa.goto(f"/r/{room}")
        papa.wait_for_selector(".tally-game[data-game='mau-mau'] .tally-counts")
        assert papa.inner_text(".tally-game .tally-counts") == "2 games · 1 match"
        assert json.dumps(room_json(papa, room)["tally"]["mau-mau"], sort_keys=True) == json.dumps(
            tally, sort_keys=True
        )
        oma.goto(f"/r/{room}")
        oma.wait_for_selector(".tally-game .tally-counts")
        assert oma.inner_text(".tally-game .tally-counts") == "2 Spiele · 1 Match"
        assert {r["table"] for r in tally["last"]} == set(tables)
        papa.click(".tally-details summary")
        papa.click(f".tally-last li[data-table='{tables[0]}'] a")
        papa.wait_for_url(f"**/replay/{tables[0]}")
        papa.wait_for_selector("#replay-board, .replay, main")
    finally:
        for ctx in contexts:
            ctx.close()
