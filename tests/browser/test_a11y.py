"""axe-core finds nothing on the table in every state (waiting, playing, ended; each game; on the
table's pages not even a minor finding), with the wish and the rules dialog open; no serious or
critical problem on the replay page and the lobby."""

from __future__ import annotations

from typing import Any

import pytest

from .axe import axe_violations, describe
from .conftest import Server, server_fixture
from .helpers import ACTION, OVER, act, create_table, finished_table, open_table, play_to_end

pytestmark = pytest.mark.browser


EVERY_IMPACT = ("minor", "moderate", "serious", "critical")


def check(page: Any, state: str, impacts: tuple[str, ...] = ("serious", "critical")) -> None:
    found = axe_violations(page, impacts)
    assert not found, f"{state}:\n{describe(found)}"


def check_table(page: Any, state: str) -> None:
    """A table page: nothing at all, not even a minor finding (a page's heading, an empty header)."""
    check(page, state, EVERY_IMPACT)


fast_server = server_fixture("mauseloch-a11y", "--clock-scale", "0.05")


def test_the_lobby(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("#game-select option", state="attached")
    check(page, "lobby")


def play_until_a_jack_asks_for_a_wish(page: Any) -> bool:
    """Play this page's turns until a jack may be played: click it and leave its wish dialog open."""
    for _ in range(400):
        page.wait_for_selector(f"{OVER}, {ACTION}")
        if page.locator(OVER).count():
            return False
        jack = page.locator('#board[data-pending="0"] button.card.legal[data-card^="J"]')
        if jack.count():
            jack.first.click()
            page.wait_for_selector("#wish-dialog[open]")
            return True
        act(page)
    return False


def test_mau_mau_waiting_playing_dialogs_ended_and_replay(new_context: Any) -> None:
    page = new_context().new_page()
    _, invite = create_table(page, "mau-mau", ["me", "human"])
    open_table(page)
    page.wait_for_selector("#waiting:not([hidden])")
    check_table(page, "a table waiting for a player")
    guest = new_context(locale="de-DE").new_page()
    guest.goto(invite)
    guest.wait_for_selector("#join-panel:not([hidden])")
    check_table(guest, "the invited guest's join panel, in German")

    for _ in range(6):
        table_id, _ = create_table(page, "mau-mau", ["me", "bot:random"], options={"move_limit": 80})
        open_table(page)
        page.wait_for_selector(ACTION)
        if play_until_a_jack_asks_for_a_wish(page):
            break
    else:
        pytest.fail("six games without a jack to play")
    check_table(page, "the wish dialog")
    # arrow keys walk the suits (the first has the focus as the dialog opens)
    suits = page.locator("#wish-dialog .wish-choice")
    order = [suits.nth(i).get_attribute("data-suit") for i in range(suits.count())]
    focused = "() => document.activeElement.dataset.suit"
    assert page.evaluate(focused) == order[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == order[1]
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == order[-1]
    page.keyboard.press("Escape")
    page.wait_for_selector("#wish-dialog:not([open])", state="attached")

    dimmed = page.locator("#board .hand button.card.dimmed")
    if dimmed.count():
        dimmed.first.click()
        page.wait_for_function("() => document.getElementById('hand-note')?.textContent")
    check_table(page, "playing, with a reason next to the hand")

    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open]")
    check_table(page, "the rules dialog")
    page.keyboard.press("Escape")

    page.click("#pace-button")  # alone at the table: paused at once
    page.wait_for_function("() => document.getElementById('pause-status').textContent")
    check_table(page, "a paused table")
    page.click("#pace-button")
    page.wait_for_function("() => !document.getElementById('pause-status').textContent")

    play_to_end(page)
    check_table(page, "the end screen")

    page.goto(f"/replay/{table_id}")
    page.wait_for_selector("#board .card")
    check(page, "the replay's first step")
    page.click("#last")
    page.wait_for_selector("#end-screen:not([hidden])")
    check(page, "the replay's last step")


def test_aus_die_maus_waiting_playing_and_ended(new_context: Any) -> None:
    page = new_context().new_page()
    create_table(page, "aus-die-maus", ["me", "human"])
    open_table(page)
    page.wait_for_selector("#waiting:not([hidden])")
    check_table(page, "a table waiting for a player")
    create_table(page, "aus-die-maus", ["me", "bot:random", "bot:random"])
    open_table(page)
    page.wait_for_selector(ACTION)
    check_table(page, "playing")
    play_to_end(page)
    check_table(page, "the end screen")


def test_mausgeflippt_waiting_playing_and_ended(browser: Any, fast_server: Server) -> None:
    ctx = browser.new_context(base_url=fast_server.url, locale="en-US")
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        create_table(page, "mausgeflippt", ["me", "human"])
        open_table(page)
        page.wait_for_selector("#waiting:not([hidden])")
        check_table(page, "a table waiting for a player")

        create_table(page, "mausgeflippt", ["me", "bot:child"], options={"window_ms": 600})
        open_table(page)
        page.wait_for_selector("#board .mg-hand")
        check_table(page, "playing, before a mouse")
        page.wait_for_selector('#board[data-window="shown"] .mg-mouse .mg-face')
        check_table(page, "playing, a mouse shown")

        # a finished game, watched: hard bots and the stand-in of the creator, who never came
        table_id = finished_table(fast_server, "mausgeflippt", ["hard", "hard"])
        page.goto(f"/t/{table_id}?watch=1")
        page.wait_for_selector("#end-screen:not([hidden])")
        check_table(page, "the end screen")
        page.goto(f"/replay/{table_id}")
        page.wait_for_selector("#board .mg-players")
        page.click("#last")
        check(page, "the replay's last step")
    finally:
        ctx.close()


@pytest.mark.parametrize("path", ["/no-such-page", "/t/no-such-table", "/replay/no-such-table"])
def test_the_error_pages(new_context: Any, path: str) -> None:
    page = new_context().new_page()
    page.goto(path)
    page.wait_for_load_state("networkidle")
    check(page, f"the page of {path}")
