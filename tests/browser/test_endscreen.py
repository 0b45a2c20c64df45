"""End screens that explain: who won, the ranking rule in one sentence and the figures that decided
it, on a 390 px phone without a table wider than the screen; between the deals of a match the
standings and "Next deal" (no "Rematch" until the match is over), and bots keep their names as
the seats rotate."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import Server
from .helpers import finished_table, play_to_end

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
RAW_KEY = re.compile(r"\b(end|match|table|pause|mytables)\.[a-zA-Z]")


def post(page: Any, server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A request from the page's own context, as the page sends it (with its ``Origin``), so the
    seat's cookie stays with this browser."""
    headers = {"Content-Type": "application/json", "Origin": server.url}
    answer = page.request.post(path, data=json.dumps(body), headers=headers)
    assert answer.ok, answer.text()
    return answer.json()  # type: ignore[no-any-return]


def overflow(page: Any) -> list[str]:
    """What sticks out to the right of the screen: the page itself, or any table of the end screen."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
            const out = [];
            const width = document.documentElement.scrollWidth;
            if (width > window.innerWidth) out.push("page " + width);
            for (const el of document.querySelectorAll("#end-screen table, #end-screen .table-scroll")) {
                const r = el.getBoundingClientRect();
                const wide = r.right > window.innerWidth + 0.5 || el.scrollWidth > el.clientWidth + 1;
                if (wide) out.push(el.className + " " + r.right);
            }
            return out;
        }"""
    )


CASES = [
    ("mau-mau", {"move_limit": 120}, "fewer cards in hand ranks higher; on a tie, fewer card points in hand"),
    ("aus-die-maus", {"chips": 4}, "more cards in the stack ranks higher; on a tie, more chips"),
    ("mausgeflippt", None, "more points ranks higher; on a tie, more mice"),
]


@pytest.mark.parametrize(("game", "options", "rule"), CASES)
def test_the_end_screen_says_who_won_and_why_on_a_phone(
    browser: Any, server: Server, game: str, options: dict[str, Any] | None, rule: str
) -> None:
    """A finished game of four, watched: the person who created it never came (a stand-in played
    her seat), bots the others; played out at full speed and stored (helpers.finished_table)."""
    phone = browser.new_context(base_url=server.url, locale="en-US", viewport=PHONE, device_scale_factor=1)
    phone.set_default_timeout(30000)
    try:
        bots = ["hard" if game == "mausgeflippt" else "random"] * 3
        table_id = finished_table(server, game, bots, options=options)
        page = phone.new_page()
        page.goto(f"/t/{table_id}?watch=1")
        page.wait_for_selector("#end-screen:not([hidden])")
        screen = page.inner_text("#end-screen")
        assert not RAW_KEY.search(screen), screen
        assert page.inner_text("#end-winner").endswith(("wins.", "share first place.")), screen
        assert page.inner_text("#end-rule") == f"How the ranking works: {rule}.", screen
        result = server.get_json(f"/api/tables/{table_id}/record")
        ranks = mauseloch_ranks(result)
        if sorted(ranks).count(1) == 1:  # a single winner: the figure that put them ahead is named
            assert " ahead of " in page.inner_text("#end-decided")
        assert page.locator("#rematch-button, #next-deal-button").count() == 0  # a spectator votes for nothing
        assert overflow(page) == [], overflow(page)
    finally:
        phone.close()


def mauseloch_ranks(record: dict[str, Any]) -> list[int]:
    import mauseloch

    return list(mauseloch.replay(record).result()["ranks"])


def test_between_deals_the_standings_and_next_deal_and_bots_keep_their_names(browser: Any, server: Server) -> None:
    ctx = browser.new_context(base_url=server.url, locale="en-US", viewport=PHONE, device_scale_factor=1)
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        bot = {"kind": "bot", "bot": "random"}
        body = {"game": "mau-mau", "seats": [{"kind": "human"}, bot, bot], "name": "Anna", "deals": 2,
                "options": {"move_limit": 60}, "clock": "off"}  # fmt: skip
        table_id = post(page, server, "/api/tables", body)["table"]
        page.goto(f"/t/{table_id}")
        page.wait_for_selector("#board[data-version]")
        names = [page.inner_text(f'#seat-list li[data-seat="{i}"] .name') for i in range(3)]
        assert names[1:] == ["Random bot 2", "Random bot 3"], names
        play_to_end(page)

        assert page.inner_text("#end-screen h2") == "Deal 1 of 2 is over"
        page.wait_for_selector("#match-standings")
        assert page.locator("#rematch-button").count() == 0  # no "Rematch" while the match goes on
        assert "fewer cards in hand" in page.inner_text("#end-rule")
        assert not RAW_KEY.search(page.inner_text("#end-screen"))  # every text in words, no key left raw
        assert overflow(page) == [], overflow(page)
        page.click("#next-deal-button")  # alone at the table: ready, so the next deal starts now
        page.wait_for_url(lambda url: table_id not in url)
        page.wait_for_selector("#board[data-version]")
        page.wait_for_function("() => document.getElementById('match-line').textContent.includes('2')")
        # everyone sat one seat on: Anna at seat 2, "Random bot 2" at seat 0, each with its name
        after = [page.inner_text(f'#seat-list li[data-seat="{i}"] .name') for i in range(3)]
        assert after == ["Random bot 2", "Random bot 3", "Anna (you)"], after
        play_to_end(page)
        assert page.inner_text("#end-screen h2").startswith("The match is over — ")  # and who won it
        page.wait_for_selector("#rematch-button")
        assert page.locator("#next-deal-button").count() == 0
    finally:
        ctx.close()
