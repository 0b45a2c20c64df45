"""Back and Forward keep the seat: the table page and its summary are never
served from the browser's cache, so a page shown again knows the seat this browser took."""

from __future__ import annotations

from typing import Any

from .helpers import create_table


def test_back_and_forward_show_the_seat_taken_not_the_join_form(new_context: Any) -> None:
    anna = new_context().new_page()
    table_id, _ = create_table(anna, "mau-mau", ["me", "human"], clock="off", public=True)

    ben = new_context(locale="de-DE").new_page()
    ben.goto(f"/t/{table_id}")
    ben.wait_for_selector("#join-panel:not([hidden])")  # the summary says: seat 2 is free
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#board .hand button.card")
    ben.click("header .brand")  # to the lobby
    ben.wait_for_selector("#create-form")
    for step in ("back", "forward", "back"):
        if step == "back":
            ben.go_back()
            ben.wait_for_selector("#board .hand button.card")  # his seat, his hand
            assert ben.locator("#join-panel").is_hidden(), "the join form came back from a cache"
            assert ben.locator("#error-box").is_hidden()
        else:
            ben.go_forward()
            ben.wait_for_selector("#create-form")
    assert anna.context.request.get(f"/api/tables/{table_id}").json()["seats"][1]["name"] == "Ben"
