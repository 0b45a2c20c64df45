"""The fourth game (tests/games/fourth_game.py) in the lobby and at a web table: the real server
runs with the game registered by its one call, and the page, which has no module for it, draws
it from its view alone (web/js/generic.js) and replays it. No generic file names it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mauseloch
from tests.browser.conftest import Server
from tests.browser.helpers import OVER, create_table, open_table, play_to_end
from tests.games import fourth_game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
NAME = fourth_game.INFO.name
# ``mauseloch serve`` with the test-only game registered by its one call first
REGISTERED = (
    f"import sys; sys.path.insert(0, {str(ROOT)!r}); import mauseloch; "
    "from tests.games import fourth_game; mauseloch.register_game(fourth_game.INFO); "
    "from mauseloch.cli import main; main()"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("fourth-game"))
    srv.program = ["-c", REGISTERED]
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def registered() -> Iterator[None]:
    """The game known in this process too (to replay the table's record here)."""
    mauseloch.register_game(fourth_game.INFO)
    yield
    mauseloch.unregister_game(NAME)


def test_the_lobby_offers_it_with_its_options_bots_and_clock(server: Server, new_context: Any) -> None:
    games = server.get_json("/api/games")
    entry = next(g for g in games["games"] if g["name"] == NAME)
    assert entry["title"] == "Card Race"  # no page module in games.js: drawn generically
    assert games["bots"][NAME] == ["random", "lowest"]
    assert games["clocks"][NAME]["default"] == "normal"
    page = new_context().new_page()
    page.goto("/")
    page.select_option("#game-select", NAME)
    assert page.locator("#opt-hand_size").input_value() == "5"  # its option, with its default
    # no words of its own for the option (no declared prefix): those every game's hand_size shares
    assert page.inner_text("label[for='opt-hand_size']") == "Cards in each hand"
    assert page.locator("#seat-1 option[value='bot:lowest']").count() == 1  # its own bot
    assert page.locator("#match-deals-field").is_hidden()  # it declares no match play
    # no words of its own for its clock: the lobby's; a game that has them (by its declared
    # prefix: Mausgeflippt's countdown) shows its own
    assert "s a move" in page.inner_text("#clock-select")
    page.select_option("#game-select", "mausgeflippt")
    assert "countdown" in page.inner_text("#clock-select") and "s a move" not in page.inner_text("#clock-select")


def test_a_table_plays_it_to_the_end_and_replays_it(server: Server, new_context: Any, registered: None) -> None:
    page = new_context().new_page()
    table_id, _ = create_table(page, NAME, ["human", "bot:lowest", "bot:random"], options={"hand_size": 3})
    open_table(page)
    page.wait_for_selector("#board .generic-view")  # the generic view: what the view shows everybody
    assert "Your cards: c" in page.inner_text("#board .generic-hand")
    moves = play_to_end(page)  # a button per legal move, clicked as a person would
    assert moves >= 1 and page.locator(OVER).count() == 1
    ranking = page.inner_text("#end-screen .ranking")
    assert "Rank" in ranking and "cards" in ranking  # the result's per-seat lists as columns
    record = server.get_json(f"/api/tables/{table_id}/record")
    game = mauseloch.replay(json.loads(json.dumps(record)))
    assert game.is_over and game.name == NAME
    mine = [move for seat, move, *_ in record["moves"] if seat == 0]
    assert len(mine) == moves
    page.goto(f"/replay/{table_id}")
    page.wait_for_selector("#board .generic-view dt")  # the replay draws each frame the same way
    assert "pile" in page.inner_text("#board .generic-view")
