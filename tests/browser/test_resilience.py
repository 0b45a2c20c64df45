"""A seat survives a reload, a visit through the plain invite link, and a server restart."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import act, board_state, capture_sent, create_table, open_table, play_to_end, seen_text

pytestmark = pytest.mark.browser


def make_moves(page: Any, count: int, end_ok: bool = False) -> None:
    """``count`` moves of this page's seat; with ``end_ok`` fewer when the game ends first (a bot
    with its eights may play out its hand within five turns of a random deal)."""
    made = 0
    while made < count:
        move = act(page)
        if move == "over" and end_ok:
            return
        assert move != "over", "the game ended before the test could reload"
        if move is not None:
            made += 1


def test_reload_and_invite_link_keep_the_seat(new_context: Any, server: Any) -> None:
    page = new_context().new_page()
    table_id, invite = create_table(page, "mau-mau", ["me", "bot:heuristic"], options={"move_limit": 400})
    open_table(page)
    make_moves(page, 1)
    before = int(board_state(page)["version"] or 0)

    page.reload()
    page.wait_for_selector("#board[data-version]")
    assert page.inner_text("#conn-status") == "Connected"
    assert page.locator("#join-panel").is_hidden()
    assert page.locator("#board .hand button.card").count() > 0
    assert "Anna (you)" in seen_text(page, "#board .me")
    assert int(board_state(page)["version"] or 0) >= before
    make_moves(page, 1, end_ok=True)

    page.goto(invite)  # no token in the address: the cookie keeps the seat
    page.wait_for_selector("#board[data-version]")
    assert page.locator("#join-panel").is_hidden()
    assert "Anna (you)" in seen_text(page, "#board .me")
    make_moves(page, 1, end_ok=True)
    assert int(server.get_json(f"/api/tables/{table_id}")["version"]) > before


def test_server_restart_mid_game(new_context: Any, server: Any) -> None:
    page = new_context().new_page()
    table_id, _ = create_table(page, "mau-mau", ["me", "bot:heuristic", "bot:heuristic"])
    open_table(page)
    make_moves(page, 1)
    page.wait_for_selector('#board[data-pending="0"]')
    played = int(server.get_json(f"/api/tables/{table_id}")["version"])

    sent = capture_sent(page)
    server.kill()
    page.wait_for_selector('#conn-status[data-state="reconnecting"]')
    assert page.inner_text("#offline").startswith("Connection lost — ")  # said on the board
    server.start()
    page.wait_for_selector('#conn-status[data-state="connected"]', timeout=30000)
    assert "Anna (you)" in seen_text(page, "#board .me")

    play_to_end(page)
    record = server.get_json(f"/api/tables/{table_id}/record")
    assert len(record["moves"]) > played  # the game went on after the restart, to its end
    hellos = [m for m in sent if m["type"] == "hello"]
    # the same seat, again; its token travels in the HttpOnly cookie of the handshake, never in a message
    assert hellos and all(m["seat"] == 0 and m["token"] is None for m in hellos)
    moves = [m["move"] for m in sent if m["type"] == "move"]
    assert moves == [m for seat, m in record["moves"][played:] if seat == 0]


def test_a_wrong_seat_link_is_refused_and_forgotten(new_context: Any) -> None:
    anna = new_context().new_page()
    table_id, _ = create_table(anna, "mau-mau", ["me", "human"], public=True)  # Ben may join without an invite

    ben = new_context().new_page()
    ben.goto(f"/t/{table_id}#seat=0&token=not-the-token")
    ben.wait_for_selector("#join-panel:not([hidden])")
    assert ben.inner_text("#error-box").startswith("This seat link is not valid")
    assert ben.url.endswith(f"/t/{table_id}")  # the bad token is gone from the address
    assert ben.locator("#board .hand").count() == 0
    ben.reload()  # and from storage: the page offers to join again, without an error
    ben.wait_for_selector("#join-panel:not([hidden])")
    assert ben.locator("#error-box").is_hidden()
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#board .hand button.card")
    assert "Ben (you)" in seen_text(ben, "#board .me")
