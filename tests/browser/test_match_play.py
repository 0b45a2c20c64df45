"""Family play in the browser: a three-deal Mau-Mau match in German at a phone's size, the rules
dialog with the house rules, the standings between deals, and the whole match as one record.
The rules dialog and the standings are photographed as a person would see them (into the test's
temporary folder: docs/screenshots/ is scripts/screenshots.py's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mauseloch.core.match import Match, replay_match

from .conftest import Server, server_fixture
from .helpers import play_to_end

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


# Faster clocks: the standings show for 8 s × 0.5 between deals (time for a person, and for this test
# on a busy machine, to read them before the page follows its seat).
fast_server = server_fixture("family-server", "--clock-scale", "0.5")


def test_a_three_deal_match_in_german_with_the_rules_at_hand(browser: Any, fast_server: Server, tmp_path: Path) -> None:
    ctx = browser.new_context(base_url=fast_server.url, locale="de-DE", viewport=PHONE, device_scale_factor=1)
    ctx.set_default_timeout(20000)
    try:
        page = ctx.new_page()
        page.goto("/")
        page.fill("#player-name", "Anna")
        page.select_option("#game-select", "mau-mau")
        page.click("#more-options summary")  # the move limit is an engine setting
        page.fill("#opt-move_limit", "60")
        page.select_option("#seat-count", "3")
        page.select_option("#seat-1", "bot:random")
        page.select_option("#seat-2", "bot:random")
        assert page.inner_text("label[for=match-deals]") == "Partie über mehrere Runden"
        page.select_option("#match-deals", "3")
        page.click("#create-button")
        page.wait_for_selector("#created:not([hidden])")
        page.click("#go-table")
        page.wait_for_selector("#board[data-version]")

        # the house rules in the table's menu (a drawer on a phone), the rules a click away, in German
        page.click("#menu-button")
        page.wait_for_selector("#house-rules:not([hidden])")
        assert page.inner_text("#house-rules").startswith("Hausregeln an diesem Tisch: Ass setzt aus: nein")
        assert "Zuggrenze" not in page.inner_text("#house-rules")  # an engine setting, no house rule
        assert page.inner_text("#match-line") == "Partie: Runde 1 von 3 · Anna (du) spielt in dieser Runde aus."
        page.click("#side-close")
        page.click("#rules-button")
        page.wait_for_selector("#rules-dialog[open] .rules-text h1")
        dialog = page.inner_text("#rules-dialog")
        assert "Mau-Mau — die Regeln" in dialog and "Hausregeln an diesem Tisch" in dialog
        assert "Ass setzt aus: nein" in dialog and "Spielcode: —" in dialog  # no code while the deal runs
        page.screenshot(path=str(tmp_path / "rules-dialog-phone.png"))
        page.click("#rules-dialog button[type=submit]")
        page.wait_for_selector("#rules-dialog:not([open])", state="attached")

        # pace: pause the bots and go on again (the server keeps the pace for the table)
        page.click("#menu-button")
        page.wait_for_selector("#pace-row:not([hidden]) #pace-button")
        page.click("#pace-button")
        page.wait_for_selector("#pace-button[aria-pressed=true]")
        assert page.inner_text("#pace-button") == "Weiter"
        page.click("#pace-button")
        page.wait_for_selector("#pace-button[aria-pressed=false]")
        page.keyboard.press("Escape")  # the menu closes: the table again

        tables = []
        for deal in (1, 2, 3):
            page.wait_for_function(
                f"() => document.getElementById('match-line').textContent.startsWith('Partie: Runde {deal} von 3')"
            )
            tables.append(page.url.rstrip("/").rsplit("/", 1)[-1])
            play_to_end(page)
            page.wait_for_selector("#match-standings")
            standings = page.inner_text("#match-standings")
            assert f"Stand nach Runde {deal}" in standings and "Anna" in standings
            if deal < 3:
                assert "Gleich beginnt die nächste Runde" in standings
                page.wait_for_url(lambda url, old=page.url: url != old)  # every seat follows
                page.wait_for_selector("#board[data-version]")
        assert "Die Partie ist vorbei. Gewonnen ha" in page.inner_text("#match-standings")
        assert page.inner_text("#end-screen h2").startswith("Die Partie ist vorbei — ")
        assert "Random bot" not in page.inner_text("#match-standings")
        page.locator("#match-standings").scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "match-standings-phone.png"))
        page.click("#rules-button")
        page.wait_for_selector("#deal-code")
        code = page.inner_text("#deal-code")
        assert code.startswith("M3-")
        record = page.evaluate(f"fetch('/api/tables/{tables[-1]}/match').then((r) => r.json())")
        match = replay_match(record)
        assert isinstance(match, Match) and match.is_over and len(match.games) == 3
        assert [g.players for g in match.games] == [3, 3, 3]
        assert len(set(tables)) == 3
    finally:
        ctx.close()
