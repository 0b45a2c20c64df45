"""A person in the browser plays a bot that plays through the Bot API, in each turn-based game, at
rated tables under a ladder name; the ladder page then lists both with ratings, and passes
axe-core with no serious finding. People who create or join a rated table are asked for their
ladder name once, with their seat, on a laptop and on a phone, in German and in English."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mauseloch.server.botapi.client import BotClient, registered
from mauseloch.server.storage.rows import SeatRow

from .axe import axe_violations, describe
from .conftest import Server, server_fixture
from .helpers import ACTION, MAX_MOVES, OVER, act, finished_table, play_to_end

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
        if game == "mau-mau":  # through the lobby's form: the ladder name is asked with the table
            page.goto("/")
            page.fill("#player-name", "Anna")
            page.select_option("#game-select", game)
            page.select_option("#seat-count", "2")
            page.select_option("#seat-1", "online:ladder-bot")  # offered as "Bot online: ladder-bot"
            assert page.locator("#rated-name").is_hidden()
            page.set_checked("#rated-table", True)
            assert page.input_value("#rated-name") == "Anna"  # the player's name, until changed
            page.fill("#rated-name", "Anna L")
            page.click("#create-button")
            page.wait_for_selector("#created:not([hidden])")
            table = page.input_value("#invite-link").split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
            page.goto(f"/t/{table}")
            page.wait_for_selector("#ladder-rated")  # everyone at the table sees it is rated
            page.wait_for_function("() => document.body.innerText.includes('ladder-bot (bot)')")  # shown as a bot
            assert "as Anna L" in page.inner_text("#ladder-entered")  # no second step
        else:  # the same through the API, from the page (its origin and its seat cookie)
            seats = [{"kind": "human"}, {"kind": "online-bot", "name": "ladder-bot"}]
            entry = {"name": "Anna A", "secret": "kept-in-the-browser-1"}
            body = {"game": game, "seats": seats, "name": "Anna", "rated": True, "clock": "off", "ladder": entry}
            table = post(page, "/api/tables", body)["table"]
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


def rated_game(server: Server, person: str, bots: list[str]) -> None:
    """A finished rated Mau-Mau game in ``server``'s store: ``person`` (a ladder name) at seat 0,
    the online bots ``bots`` at the others, entered as the lobby enters them (its own ladder
    per number of seats: what other tests play does not show on it)."""
    from mauseloch.server.botapi.ladder import enter_person, mark_rated
    from mauseloch.server.storage.store import Store

    table = finished_table(server, "mau-mau", ["random"] * len(bots), name=person)
    store = Store(server.db)
    try:
        row = store.load_table(table)
        assert row is not None
        for seat, name in enumerate(bots, start=1):  # played by a random bot, rated as this online bot
            row.seats[seat] = SeatRow(seat, "online-bot", name, bot=name)
        mark_rated(store, row)
        enter_person(store, table, 0, person, "kept-in-the-browser-" + person)
    finally:
        store.close()


def test_the_ladder_page_lists_the_entries_and_passes_axe(browser: Any, ladder_server: Server) -> None:
    rated_game(ladder_server, "Berta B", ["ladder-bot", "other-bot"])
    ctx = browser.new_context(base_url=ladder_server.url, locale="en-US", viewport={"width": 1200, "height": 900})
    ctx.set_default_timeout(15000)
    page = ctx.new_page()
    page.goto("/ladder?game=mau-mau&players=3")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    names = page.locator("#ladder-rows th").all_inner_texts()
    assert len(names) == 3 and any("Berta B" in n for n in names) and any("ladder-bot" in n for n in names), names
    assert page.locator("#ladder-rows svg[role='img']").count() == 3  # each entry's rating over its games
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


LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def play_all(pages: list[Any]) -> None:
    """Every person's turns on their own page until the game ends on all of them."""
    for _ in range(MAX_MOVES):
        if all(p.locator(OVER).count() for p in pages):
            return
        for p in pages:
            if p.locator(ACTION).count() or p.locator("#wish-dialog[open]").count():
                act(p, timeout=5000)
        pages[0].wait_for_timeout(30)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("creator_locale", "joiner_locale"), [("de-DE", "en-US"), ("en-US", "de-DE")], ids=["papa-de", "papa-en"]
)
def test_joining_a_rated_table_asks_once_for_the_ladder_name(
    browser: Any, ladder_server: Server, creator_locale: str, joiner_locale: str, tmp_path: Path
) -> None:
    """Papa creates a rated table on a laptop and Oma joins it on a phone (touch): each types a
    name once, in the lobby's form or the table's join panel, and both are on the ladder after
    the game, with the built-in bot named as the tables name it; the ladder explains itself in
    words for a family."""
    papa_ctx = browser.new_context(base_url=ladder_server.url, locale=creator_locale, viewport=LAPTOP)
    oma_ctx = browser.new_context(
        base_url=ladder_server.url, locale=joiner_locale, viewport=PHONE, has_touch=True, is_mobile=True
    )
    papa_name, oma_name = f"Papa {creator_locale[:2]}", f"Oma {creator_locale[:2]}"
    german = {"de-DE": True, "en-US": False}
    try:
        for ctx in (papa_ctx, oma_ctx):
            ctx.set_default_timeout(30000)
        papa, oma = papa_ctx.new_page(), oma_ctx.new_page()
        papa.goto("/")
        papa.fill("#player-name", papa_name)
        papa.select_option("#game-select", "mau-mau")
        papa.select_option("#seat-count", "3")
        papa.select_option("#seat-1", "human")
        papa.select_option("#seat-2", "bot:heuristic")
        papa.set_checked("#rated-table", True)
        label = papa.inner_text("label[for=rated-name]")
        assert label == ("Dein Name in der Rangliste" if german[creator_locale] else "Your name on the ladder")
        assert papa.input_value("#rated-name") == papa_name
        papa.screenshot(path=str(tmp_path / f"ladder-create-{creator_locale}.png"), full_page=True)
        papa.click("#create-button")
        papa.wait_for_selector("#created:not([hidden])")
        invite = papa.input_value("#invite-link")
        papa.click("#go-table")
        entered = papa.wait_for_selector("#ladder-entered")
        assert papa_name in entered.inner_text()

        oma.goto(invite)
        oma.wait_for_selector("#join-ladder")  # asked in the join panel, with the seat
        field = oma.inner_text("label[for=join-ladder]")
        assert field == ("Dein Name in der Rangliste" if german[joiner_locale] else "Your name on the ladder")
        oma.locator("#join-name").tap()
        oma.keyboard.type(oma_name)
        assert oma.input_value("#join-ladder") == oma_name  # the same name, typed once
        oma.screenshot(path=str(tmp_path / f"ladder-join-{joiner_locale}-phone.png"), full_page=True)
        oma.locator("#join-button").tap()
        said = oma.wait_for_selector("#ladder-entered")
        assert oma_name in said.inner_text()
        assert ("spielt für die Rangliste" if german[joiner_locale] else "plays for the ladder") in said.inner_text()
        play_all([papa, oma])
    finally:
        papa_ctx.close()
        oma_ctx.close()
    ladder = ladder_server.get_json("/api/ladder?game=mau-mau&players=3")
    ids = {e["id"] for e in ladder["entries"]}
    assert {f"person:{papa_name}", f"person:{oma_name}", "anchor:heuristic"} <= ids, ids
    for locale, size in ((creator_locale, LAPTOP), (joiner_locale, PHONE)):
        ctx = browser.new_context(base_url=ladder_server.url, locale=locale, viewport=size)
        try:
            page = ctx.new_page()
            page.goto("/ladder?game=mau-mau&players=3")
            page.wait_for_selector("body[data-ready='1']", state="attached")
            text = page.inner_text("main")
            for word in ("OpenSkill", "Plackett", "heuristic", "anchor"):
                assert word not in text, (locale, word)
            assert ("Heuristik-Bot" if german[locale] else "Heuristic bot") in text
            assert papa_name in text and oma_name in text
            page.screenshot(path=str(tmp_path / f"ladder-page-{locale}-{size['width']}.png"), full_page=True)
            found = axe_violations(page)
            assert not found, describe(found)
        finally:
            ctx.close()
