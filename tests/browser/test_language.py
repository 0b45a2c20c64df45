"""No English left in the German page: table titles, error texts, suit letters;
and the name field takes the server's own limit."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

import mauseloch
from mauseloch.server.names import MAX_NAME

from .helpers import create_table, open_table

pytestmark = pytest.mark.browser


def german(new_context: Any) -> Any:
    return new_context(locale="de-DE").new_page()


def test_default_titles_follow_the_page_language(new_context: Any) -> None:
    page = german(new_context)
    table_id, _ = create_table(page, "mau-mau", ["me", "bot:random"], name="Anna", public=True)
    page.wait_for_selector(f"#tables li[aria-label*='{table_id}'] strong")
    assert page.inner_text(f"#tables li[aria-label*='{table_id}'] strong") == "Mau-Mau bei Anna"
    open_table(page)
    page.wait_for_function("() => document.getElementById('table-title').textContent === 'Mau-Mau bei Anna'")
    assert "at Anna" not in page.inner_text("header")
    page.click("#lang-switch")
    assert page.inner_text("#table-title") == "Mau-Mau at Anna's"


def test_server_refusals_are_shown_in_german(new_context: Any, server: Any) -> None:
    anna = german(new_context)
    table_id, invite = create_table(anna, "mau-mau", ["me", "human"], name="Anna", public=True)
    ben = german(new_context)
    ben.goto(invite)
    ben.wait_for_selector("#join-button:visible")
    # Someone else takes the last seat while Ben is still typing his name.
    req = urllib.request.Request(
        f"{server.url}/api/tables/{table_id}/join",
        data=json.dumps({"name": "Cleo"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as res:
        assert res.status == 200
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#join-error:not([hidden])")
    text = ben.inner_text("#join-error")
    assert text == "Jemand war schneller: Dieser Platz ist schon besetzt.", text
    assert not ben.get_attribute("#join-error", "title")  # no English tooltip over the German words

    lobby = german(new_context)
    lobby.goto("/")
    lobby.fill("#player-name", "Dora")
    lobby.wait_for_selector("#tables li")
    # The lobby's join for a full table (the listing may still offer it): the same German words.
    lobby.evaluate(
        """async (id) => {
            const api = await import('/static/js/api.js');
            const i18n = await import('/static/js/i18n.js');
            try { await api.postJSON(`/api/tables/${id}/join`, {name: 'Dora'}); }
            catch (err) { document.body.dataset.refusal = i18n.errorText(err.code, err.message); }
        }""",
        table_id,
    )
    assert lobby.get_attribute("body", "data-refusal") == "Jemand war schneller: Dieser Platz ist schon besetzt."


def test_name_fields_take_the_servers_limit(new_context: Any) -> None:
    page = german(new_context)
    page.goto("/")
    page.wait_for_selector("#seat-1 option", state="attached")  # the limits have come
    page.fill("#player-name", "")
    page.type("#player-name", "x" * 40)
    assert len(page.input_value("#player-name")) == MAX_NAME
    # the lobby counts characters as people see them: a family emoji is one, not eleven UTF-16 units
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    page.fill("#player-name", "Anna-Lena Maximiliane Sophie " + family)
    assert page.input_value("#player-name") == "Anna-Lena Maximiliane Sophie " + family
    page.fill("#player-name", family * 40)
    assert page.input_value("#player-name") == family * MAX_NAME
    _, invite = create_table(page, "mau-mau", ["me", "human"])
    other = german(new_context)
    other.goto(invite)
    other.wait_for_selector("#join-name")
    other.fill("#join-name", family * 40)  # the join field counts characters people see, too
    other.wait_for_function(f"() => document.getElementById('join-name').value === {json.dumps(family * MAX_NAME)}")


def view_with_a_wish() -> dict[str, Any]:
    """A Mau-Mau view (of the seat to move) with a wish in force, from a seeded random game."""
    for seed in range(200):
        rng = random.Random(seed)
        g = mauseloch.new_game("mau-mau", players=2, seed=seed)
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
            if not g.is_over and g.view(None)["wish"] == "C":
                return g.view(g.to_move)
    raise AssertionError("no wish for clubs in 200 games")


def test_suits_are_named_in_german_without_english_letters(new_context: Any) -> None:
    page = german(new_context)
    page.goto("/")
    view = view_with_a_wish()
    shown = page.evaluate(
        """async (view) => {
            const mm = await import('/static/js/maumau.js');
            const cards = await import('/static/js/cards.js');
            const board = document.createElement('div');
            document.body.append(board);
            mm.render(board, view, {seat: view.seat, name: (s) => 'P' + s, canAct: false, move: () => {}});
            return {text: board.querySelector('.wish').textContent, svg: cards.cardSVG('7C') + cards.cardSVG('8D')};
        }""",
        view,
    )
    assert shown["text"] == "Gewünscht: Kreuz", shown["text"]
    assert ">Kr</text>" in shown["svg"] and ">Ka</text>" in shown["svg"]
    assert ">C</text>" not in shown["svg"] and ">D</text>" not in shown["svg"]
