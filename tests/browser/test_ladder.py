"""A person in the browser plays a bot that plays through the Bot API, in each turn-based game, at
rated tables under a ladder name; the ladder page then lists both with ratings, and passes
axe-core with no serious finding."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from mauseloch.server.botapi.client import BotClient, registered

from .axe import axe_violations, describe
from .conftest import Server, server_fixture
from .helpers import play_to_end

pytestmark = pytest.mark.browser

ladder_server = server_fixture("mauseloch-ladder")
GAMES = ("mau-mau", "aus-die-maus")


@pytest.fixture(scope="module")
def bot(ladder_server: Server) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "mauseloch.cli", "bot-token", "create", "--name", "ladder-bot",
         "--db", ladder_server.db],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    client = BotClient(ladder_server.url, out.stdout.strip(), registered("random"))
    thread = threading.Thread(target=client.run, daemon=True)
    thread.start()
    yield client
    client.stop.set()


def post(page: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST from the page itself (its origin and cookies, as the lobby's scripts do)."""
    answer: dict[str, Any] = page.evaluate(
        """async ([path, body]) => {
          const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify(body) });
          return { status: r.status, body: await r.json() };
        }""",
        [path, body],
    )
    assert answer["status"] == 200, answer
    return answer["body"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", GAMES)
def test_a_person_plays_an_online_bot_at_a_rated_table(
    browser: Any, ladder_server: Server, bot: Any, game: str
) -> None:
    ctx = browser.new_context(base_url=ladder_server.url, locale="en-US", viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(15000)
    try:
        page = ctx.new_page()
        page.goto("/")
        for _ in range(600):  # the bot's event stream is open before its seat is offered
            if "ladder-bot" in ladder_server.get_json("/api/bots/online")["bots"]:
                break
            time.sleep(0.05)
        if game == "mau-mau":  # through the lobby's form and the table page's ladder field
            page.goto("/")
            page.fill("#player-name", "Anna")
            page.select_option("#game-select", game)
            page.select_option("#seat-count", "2")
            page.select_option("#seat-1", "online:ladder-bot")  # offered as "Bot online: ladder-bot"
            page.set_checked("#rated-table", True)
            page.click("#create-button")
            page.wait_for_selector("#created:not([hidden])")
            table = page.input_value("#invite-link").split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            page.goto(f"/t/{table}")
            page.wait_for_selector("#ladder-rated")  # everyone at the table sees it is rated
            page.wait_for_function("() => document.body.innerText.includes('ladder-bot (bot)')")  # shown as a bot
            page.fill("#ladder-name", "Anna L")
            page.click("#ladder-form button[type=submit]")
            page.wait_for_selector("#ladder-entered")
            page.reload()  # the server says which name the seat plays for: no form again
            page.wait_for_selector("#ladder-entered")
            assert page.locator("#ladder-form").count() == 0
        else:  # the same through the API, from the page (its origin and its seat cookie)
            seats = [{"kind": "human"}, {"kind": "online-bot", "name": "ladder-bot"}]
            body = {"game": game, "seats": seats, "name": "Anna", "rated": True, "clock": "off"}
            table = post(page, "/api/tables", body)["table"]
            post(page, f"/api/tables/{table}/ladder", {"name": "Anna A", "secret": "kept-in-the-browser-1"})
            page.goto(f"/t/{table}")
        assert play_to_end(page) > 0
        summary = ladder_server.get_json(f"/api/tables/{table}")
        assert summary["status"] == "over"
        assert summary["seats"][1]["kind"] == "online-bot" and summary["seats"][1]["bot"] == "ladder-bot"
    finally:
        ctx.close()
    ladder = ladder_server.get_json(f"/api/ladder?game={game}&players=2")
    assert ladder["entries"], ladder
    person = "person:Anna L" if game == "mau-mau" else "person:Anna A"
    assert {e["id"] for e in ladder["entries"]} == {person, "bot:ladder-bot"}
    assert all(e["games"] == 1 for e in ladder["entries"])


def test_the_ladder_page_lists_the_entries_and_passes_axe(browser: Any, ladder_server: Server) -> None:
    ctx = browser.new_context(base_url=ladder_server.url, locale="en-US", viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    page.goto("/ladder?game=mau-mau&players=2")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    names = page.locator("#ladder-rows th").all_inner_texts()
    assert any("Anna L" in n for n in names) and any("ladder-bot" in n for n in names)
    assert page.locator("#ladder-rows svg[role='img']").count() == 2
    found = axe_violations(page)
    assert not found, describe(found)
    page.click("#lang-switch")
    assert page.locator("h1").inner_text() == "Rangliste"
    found = axe_violations(page)
    assert not found, describe(found)
    ctx.close()


def test_a_declined_challenge_says_so_at_the_table(browser: Any, ladder_server: Server) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mauseloch.cli", "bot-token", "create", "--name", "shy-bot", "--db", ladder_server.db],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    shy = BotClient(ladder_server.url, out.stdout.strip(), registered("random"), accept=lambda challenge: False)
    threading.Thread(target=shy.run, daemon=True).start()
    ctx = browser.new_context(base_url=ladder_server.url, locale="de-DE", viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(15000)
    try:
        for _ in range(600):
            if "shy-bot" in ladder_server.get_json("/api/bots/online")["bots"]:
                break
            time.sleep(0.05)
        page = ctx.new_page()
        page.goto("/")
        page.fill("#player-name", "Anna")
        page.select_option("#seat-count", "2")
        page.select_option("#seat-1", "online:shy-bot")
        page.click("#create-button")
        page.wait_for_selector("#created:not([hidden])")
        table = page.input_value("#invite-link").split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        page.goto(f"/t/{table}")
        said = page.wait_for_selector("#challenge-states li[data-state='declined']")
        assert "shy-bot hat die Herausforderung abgelehnt" in said.inner_text()
        assert ladder_server.get_json(f"/api/tables/{table}")["status"] == "waiting"
        found = axe_violations(page)  # the creator's choice of another seat kind included
        assert not found, describe(found)
        # the creator puts a built-in bot in the declined seat: the table starts
        choice = page.locator("#challenge-states form.seat-change[data-seat='1']")
        assert "Platz 2 stattdessen" in choice.inner_text()
        choice.locator("select").select_option("bot:random")
        choice.locator("button[type=submit]").click()
        page.wait_for_selector("#challenge-states", state="detached")
        summary = ladder_server.get_json(f"/api/tables/{table}")
        assert summary["status"] == "playing" and summary["seats"][1]["kind"] == "bot"
        assert play_to_end(page) > 0
    finally:
        shy.stop.set()
        ctx.close()
