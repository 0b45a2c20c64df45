"""The requests banner (web/js/requests.js) as people tap it: a row whose words change while
someone reaches for its button keeps that button, so the tap lands."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import server_fixture

server = server_fixture("banner-server")


@pytest.mark.browser
def test_a_request_keeps_its_button_when_another_vote_changes_its_words(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("#game-select option", state="attached")  # the page's modules are in
    seen = page.evaluate(
        """async () => {
            const m = await import('/static/js/requests.js');
            const box = document.createElement('div');
            document.body.append(box);
            const taps = [];
            const table = { seats: [{ kind: 'human' }, { kind: 'human' }, { kind: 'human' }], clock: 'off' };
            const seats = [{ presence: 'here' }, { presence: 'here' }, { presence: 'here' }];
            const ctx = (votes) => ({
                table, seat: 2, conn: { send() {} }, view: { is_over: true },
                live: { status: 'over', seats, rematch: votes },
                name: (i) => ['Anna', 'Ben', 'Cleo'][i],
                vote: () => taps.push(votes.length),
            });
            m.renderRequests(box, ctx([0]));
            const button = box.querySelector('#request-rematch');
            const first = box.querySelector('.request-text').textContent;
            m.renderRequests(box, ctx([0, 1]));  // Ben votes as Cleo reaches for the button
            const second = box.querySelector('.request-text').textContent;
            button.click();
            const same = box.querySelector('#request-rematch') === button && button.isConnected;
            m.renderRequests(box, ctx([0, 1, 2]));  // her own vote: nothing left to tap
            const buttons = box.querySelectorAll('button').length;
            return { first, second, same, taps, rows: box.children.length, buttons };
        }"""
    )
    assert seen["first"] != seen["second"], seen  # the words changed ...
    assert seen["same"] and seen["taps"] == [2], seen  # ... the button is the one tapped, doing what it says now
    assert seen["rows"] == 1 and seen["buttons"] == 0, seen
