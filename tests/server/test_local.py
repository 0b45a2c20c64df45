"""The offline page's table (server/local.py): the server's step and frames with no server, one
person against bots. The page gets exactly the server's messages (decoded here with the
protocol's own structs), a refusal changes nothing, a whole game ends with its record, and a
reaction game's windows run with the table's clock commands."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
import pytest

import mauseloch
from mauseloch.core.shapes import JSONObject
from mauseloch.server.local import LocalTable, Saved, for_page, offline_row, replay_for_page, restored, saved
from mauseloch.server.records import record_of
from tests.server.test_frames import frame_type

Run = Callable[[Coroutine[Any, Any, Any]], Any]
GUARD = 60.0  # seconds a whole game may take before the test says where it stood


class PageSide:
    """What a table page does with the messages: keeps the latest view and version."""

    def __init__(self, game: str) -> None:
        self.decoder = msgspec.json.Decoder(frame_type(game))  # the server's frames, strictly
        self.messages: list[JSONObject] = []
        self.arrived = asyncio.Event()

    def post(self, text: str) -> None:
        self.decoder.decode(text)
        msg = json.loads(text)
        self.messages.append(msg)
        self.arrived.set()

    def last(self, *types: str) -> JSONObject:
        return next(m for m in reversed(self.messages) if m["type"] in types)

    async def next(self) -> None:
        self.arrived.clear()
        await self.arrived.wait()


async def whole_game(game: str, bots: list[str]) -> tuple[PageSide, LocalTable]:
    page = PageSide(game)
    table = LocalTable(offline_row("offline-1", game, bots, name="Anna", seed=7), page.post, bot_delay=0.0)
    table.open()
    refused = False
    async with asyncio.timeout(GUARD):
        while table.row.status != "over":
            state = page.last("snapshot", "update")
            legal = state["view"].get("legal_moves") or []
            if legal and state["version"] == table.state.version:
                if not refused:  # a stale version is refused with the server's words; nothing changes
                    refused = True
                    table.receive(json.dumps({"type": "move", "move": legal[0], "version": state["version"] + 5}))
                    error = page.last("error")
                    assert error["code"] == "stale" and table.state.version == state["version"]
                table.receive(json.dumps({"type": "move", "move": legal[0], "version": state["version"]}))
                continue
            await page.next()
    return page, table


@pytest.mark.parametrize(("game", "bots"), [("mau-mau", ["heuristic", "random"]), ("aus-die-maus", ["random"])])
def test_a_whole_game_against_bots(run_async: Run, game: str, bots: list[str]) -> None:
    page, table = run_async(whole_game(game, bots))
    record = record_of(table.row)
    assert mauseloch.replay(record).result() == table.row.result
    assert record["played_by"].count("person") > 0 and record["played_by"].count("bot") > 0
    end = page.last("update")
    assert end["live"]["status"] == "over" and end["version"] == len(table.row.moves)
    bad = json.dumps({"type": "move", "move": "nonsense", "version": end["version"]})
    table.receive(bad)
    assert page.last("error")["code"] == "illegal" and len(table.row.moves) == end["version"]
    table.close()


def test_a_bad_message_is_refused_as_the_server_does(run_async: Run) -> None:
    async def go() -> PageSide:
        page = PageSide("mau-mau")
        table = LocalTable(offline_row("offline-2", "mau-mau", ["random"], name="Anna", seed=3), page.post)
        table.open()
        table.receive("{not json")
        table.receive(json.dumps({"type": "move", "move": "x"}))
        table.close()
        return page

    page = run_async(go())
    assert [m["code"] for m in page.messages if m["type"] == "error"] == ["bad_message", "bad_message"]
    with pytest.raises(ValueError, match="unknown bot"):
        offline_row("offline-3", "mau-mau", ["nobody"], name="Anna")


def test_a_reaction_game_shows_its_cards_and_judges_the_windows(run_async: Run) -> None:
    """Mausgeflippt: the clock pings, each card sent ahead as a window, the bots react, the
    referee's decision comes as the usual update (stored with the window's log)."""

    async def go() -> tuple[PageSide, LocalTable]:
        page = PageSide("mausgeflippt")
        row = offline_row("offline-4", "mausgeflippt", ["normal", "easy"], name="Anna", seed=11)
        table = LocalTable(row, page.post, bot_delay=0.0, scale=0.1)
        table.open()
        async with asyncio.timeout(GUARD):
            while not table.row.referee:
                for m in list(page.messages):
                    if m["type"] == "clock_ping" and not m.get("answered"):
                        m["answered"] = True
                        t = asyncio.get_running_loop().time() * 1000.0
                        table.receive(json.dumps({"type": "clock_pong", "n": m["n"], "t": t}))
                await page.next()
        table.close()
        return page, table

    page, table = run_async(go())
    types = [m["type"] for m in page.messages]
    assert "window" in types and types.index("window") < len(types) - 1
    decided = [m for m in page.messages if m["type"] == "update" and m["version"] == max(table.row.referee) + 1]
    assert decided, "the decision of a window reaches the page as an update"


def test_a_table_kept_by_the_page_opens_again_as_it_was(run_async: Run) -> None:
    """A reload: the page kept the table (local.saved, as JSON) and opens it again mid-game."""

    async def go() -> tuple[LocalTable, LocalTable, PageSide]:
        page = PageSide("mau-mau")
        row = offline_row("offline-5", "mau-mau", ["heuristic"], name="Anna", seed=5)
        table = LocalTable(row, page.post, bot_delay=0.0)
        table.open()
        async with asyncio.timeout(GUARD):
            while table.row.by.count(None) < 4:
                state = page.last("snapshot", "update")
                legal = state["view"]["legal_moves"]
                if legal and state["version"] == table.state.version:
                    table.receive(json.dumps({"type": "move", "move": legal[-1], "version": state["version"]}))
                else:
                    await page.next()
        table.close()
        kept = msgspec.json.decode(msgspec.json.encode(saved(table.row)), type=Saved)
        again_page = PageSide("mau-mau")
        again = LocalTable(restored(kept), again_page.post)
        again.open()
        again.close()
        return table, again, again_page

    table, again, page = run_async(go())
    assert table.row.moves and again.row.moves == table.row.moves and again.state.version == table.state.version
    assert page.messages[0]["type"] == "snapshot" and page.messages[0]["version"] == table.state.version


def test_the_pages_table_is_kept_after_every_move_with_its_record_at_the_end(run_async: Run) -> None:
    async def go() -> tuple[PageSide, list[str]]:
        page, kept = PageSide("aus-die-maus"), []
        new = json.dumps({"id": "offline-6", "game": "aus-die-maus", "players": 3, "name": "Anna", "seed": 9})
        table = for_page(new, page.post, kept.append)
        assert [s.bot for s in table.row.seats] == [None, "slow", "slow"]  # the stand-in's kind
        table.state.bot_delay = 0.0
        table.open()
        async with asyncio.timeout(GUARD):
            while table.row.status != "over":
                state = page.last("snapshot", "update")
                legal = state["view"].get("legal_moves") or []
                if legal and state["version"] == table.state.version:
                    table.receive(json.dumps({"type": "move", "move": legal[0], "version": state["version"]}))
                else:
                    await page.next()
        table.close()
        return page, kept

    page, kept = run_async(go())
    assert len(kept) == page.last("update")["version"]
    last = msgspec.json.decode(kept[-1], type=Saved)
    assert last.status == "over" and last.record is not None
    assert mauseloch.replay(last.record).result() == restored(last).result
    assert all(msgspec.json.decode(k, type=Saved).record is None for k in kept[:-1])


def test_a_rematch_deals_a_new_table_with_the_same_seats_as_the_server_does(run_async: Run) -> None:
    """A "Revanche" offline: the page's rematch vote deals the next table with the server's own
    following_row (same seats, bot kinds, names, house rules, clock; a new deal), kept before
    the page hears its id; a vote before the end is refused as online, and a second vote deals
    nothing more."""
    new = {"id": "offline-7", "game": "mau-mau", "bots": ["heuristic", "random"], "name": "Anna", "seed": 11,
           "options": {"ace_skips": True}, "clock": "relaxed"}  # fmt: skip
    ids = iter(["offline-8", "offline-9"])

    async def go() -> tuple[PageSide, list[str], LocalTable]:
        page, kept = PageSide("mau-mau"), []
        table = for_page(json.dumps(new), page.post, kept.append, lambda: next(ids))
        table.state.bot_delay = 0.0
        table.open()
        table.receive(json.dumps({"type": "rematch"}))
        assert page.last("error")["code"] == "not_over" and not kept
        async with asyncio.timeout(GUARD):
            while table.row.status != "over":
                state = page.last("snapshot", "update")
                legal = state["view"].get("legal_moves") or []
                if legal and state["version"] == table.state.version:
                    table.receive(json.dumps({"type": "move", "move": legal[0], "version": state["version"]}))
                else:
                    await page.next()
        played = len(kept)
        heard = len(page.messages)
        table.receive(json.dumps({"type": "rematch"}))
        assert kept[played:] and all(m.get("live", {}).get("next") is None for m in page.messages[:heard])
        table.receive(json.dumps({"type": "rematch"}))  # agreed already: no second table
        table.close()
        return page, kept[played:], table

    page, dealt, table = run_async(go())
    following, old = (msgspec.json.decode(k, type=Saved) for k in dealt)
    assert page.last("presence")["live"]["next"] == following.id == old.next == "offline-8" and old.id == "offline-7"
    assert (following.game, following.name, following.clock) == ("mau-mau", "Anna", "relaxed")
    assert following.bots == ["heuristic", "random"]
    assert following.options["ace_skips"] is True and following.options == table.row.options
    assert following.moves == [] and following.status == "playing" and following.seed != table.row.seed
    row = restored(following)
    assert [(s.kind, s.name, s.bot) for s in row.seats] == [(s.kind, s.name, s.bot) for s in table.row.seats]
    assert restored(old).next_id == "offline-8"  # a reload of the finished table still points there


def test_a_finished_table_replays_as_the_server_answers_it() -> None:
    """The offline replay page's data: the server's summary, record and frames of the table."""
    row = offline_row("offline-10", "aus-die-maus", ["random"], name="Anna", seed=3, options={"small_deck": True})
    game = mauseloch.new_game("aus-die-maus", players=2, seed=3, options={"small_deck": True})
    not_over = msgspec.json.encode(saved(row)).decode()
    with pytest.raises(ValueError, match="once the game is over"):
        replay_for_page(not_over)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    moves = game.record()["moves"]
    row.moves, row.by, row.status = [list(m) for m in moves], [None] * len(moves), "over"
    data = json.loads(replay_for_page(msgspec.json.encode(saved(row)).decode()))
    assert data["table"]["id"] == "offline-10" and data["table"]["seats"][0]["name"] == "Anna"
    assert data["record"] == record_of(restored(msgspec.json.decode(msgspec.json.encode(saved(row)), type=Saved)))
    assert len(data["frames"]) == len(row.moves) + 1
