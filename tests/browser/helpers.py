"""What the browser tests do again and again: create a table in the lobby, make a move the way a
person would (click whatever the page offers), play to the end, and check captured WebSocket
frames against the real hands of the finished game."""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import mauseloch

# Something this page may do now: a highlighted card, an action button, the flip button.
ACTION = (
    '#board[data-pending="0"] button.card.legal, '
    '#board[data-pending="0"] .btn-action, '
    '#board[data-pending="0"] .flip-button'
)
OVER = '#board[data-over="1"]'
MAX_MOVES = 3000
CARD = re.compile(r"\b[789TJQKA][CSHD]\b")


def create_table(
    page: Page,
    game: str,
    seats: list[str],
    options: dict[str, Any] | None = None,
    name: str = "Anna",
    clock: str | None = None,
    public: bool = False,
    deal: str | None = None,
) -> tuple[str, str]:
    """Create a table with the lobby form; ``seats[1:]`` are "human" or "bot:<kind>" (seat 0 is us).
    Private (the form's default: joined only through the invite link) unless ``public``; ``deal``:
    a deal code (the same cards, seats and stand-ins every run), else a random deal.

    Returns (table id, absolute invite link) and leaves the page on the lobby's "created" panel.
    """
    page.goto("/")
    page.fill("#player-name", name)
    page.select_option("#game-select", game)
    for key, value in (options or {}).items():
        control = page.locator(f"#opt-{key}")
        if not control.is_visible():  # an engine setting, behind the lobby's "More options"
            page.locator("#more-options").evaluate("(box) => { box.open = true; }")
        kind = control.get_attribute("data-kind")
        if kind == "bool":
            control.set_checked(bool(value))
        elif kind == "tri":
            control.select_option("true" if value else "false")
        else:
            control.fill(str(value))
    page.select_option("#seat-count", str(len(seats)))
    for i, kind in enumerate(seats[1:], start=1):
        page.select_option(f"#seat-{i}", kind)
    if clock is not None:
        page.select_option("#clock-select", clock)
    if deal is not None:  # behind the lobby's "More options"
        page.locator("#more-options").evaluate("(box) => { box.open = true; }")
        page.fill("#deal-code", deal)
    page.set_checked("#public-table", public)
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    invite = page.input_value("#invite-link")
    table_id = invite.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]  # a private one's secret follows "#"
    return table_id, invite


def open_table(page: Page) -> None:
    """Follow the lobby's "Go to the table" link and wait for the first snapshot."""
    page.click("#go-table")
    page.wait_for_selector("#board[data-version]")


def join_as(page: Page, invite: str, name: str) -> None:
    """Open an invite link, take the seat as ``name`` and wait for the hand (Mau-Mau)."""
    page.goto(invite)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#board .hand button.card")


def seen_text(page: Page, selector: str) -> str:
    """The text a person reads in ``selector`` on one line: the player boxes lay a name and its
    "(you)" out side by side as flex items, which ``inner_text`` puts on lines of their own."""
    return " ".join(page.inner_text(selector).split())


def board_state(page: Page) -> dict[str, str | None]:
    board = page.locator("#board")
    return {
        "version": board.get_attribute("data-version"),
        "to_move": board.get_attribute("data-to-move"),
        "over": board.get_attribute("data-over"),
    }


def act(page: Page, timeout: float = 15000) -> str | None:
    """Make one move as a person would: click the first thing offered; pick a suit for a jack.

    Returns the move clicked ("over" when the game ended first), or None when the page changed
    under the click (the next call looks again).
    """
    if page.locator("#wish-dialog[open]").count():  # a jack clicked before: finish its move
        page.locator("#wish-dialog .wish-choice").first.click()
        return "wish"
    page.wait_for_selector(f"{OVER}, {ACTION}", timeout=timeout)
    if page.locator(OVER).count():
        return "over"
    target = page.locator(ACTION).first
    try:
        move = target.get_attribute("data-move", timeout=2000) or target.get_attribute("data-card", timeout=2000)
        target.click(timeout=2000)
    except (PlaywrightTimeout, PlaywrightError):
        return None
    if page.locator("#wish-dialog[open]").count():
        choice = page.locator("#wish-dialog .wish-choice").first
        suit = choice.get_attribute("data-suit")
        choice.click()
        move = f"{move}:{suit}"
    return move


def play_to_end(page: Page) -> int:
    """Play every turn of this page until the end screen shows; returns how many moves it made."""
    made = 0
    for _ in range(MAX_MOVES):
        move = act(page, timeout=30000)
        if move == "over":
            page.wait_for_selector("#end-screen:not([hidden])")
            return made
        if move is not None:
            made += 1
    raise AssertionError(f"the game did not end within {MAX_MOVES} moves")


@contextmanager
def people(browser: Any, server: Any, *locales: str, **options: Any) -> Iterator[list[Page]]:
    """One page per locale, each in a browser context of its own on ``server`` (as many people
    at as many devices; ``options`` go to every context), all closed afterwards."""
    contexts = [browser.new_context(base_url=server.url, locale=locale, **options) for locale in locales]
    try:
        for ctx in contexts:
            ctx.set_default_timeout(15000)
        yield [ctx.new_page() for ctx in contexts]
    finally:
        for ctx in contexts:
            ctx.close()


def _capture(page: Page, event: str) -> list[dict[str, Any]]:
    """Every WebSocket frame of ``event`` (``framereceived``, ``framesent``) on this page from
    now on, parsed."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on(event, lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def capture_frames(page: Page) -> list[dict[str, Any]]:
    """Every WebSocket frame this page receives from now on, parsed."""
    return _capture(page, "framereceived")


def capture_sent(page: Page) -> list[dict[str, Any]]:
    """Every WebSocket message this page sends from now on, parsed."""
    return _capture(page, "framesent")


def hands_by_version(record: dict[str, Any]) -> list[list[set[str]]]:
    """hands[v][seat]: the cards each seat held after v moves of the recorded game."""
    game = mauseloch.new_game(
        record["game"], players=record["players"], seed=record["seed"], options=record["options"], deck=record["deck"]
    )

    def now() -> list[set[str]]:
        return [set(game.view(s)["hand"]) for s in range(game.players)]

    out = [now()]
    for entry in record["moves"]:
        game.play(entry[1], seat=entry[0])
        out.append(now())
    return out


def check_no_hidden_cards(frames: list[dict[str, Any]], record: dict[str, Any], seat: int | None) -> int:
    """Assert that no frame shows a card another seat holds at that moment; returns frames checked.

    A view may show this connection's own hand (which must be exactly the real one) and, once
    the game is over, every hand. Events with cards must be this seat's own private events.
    """
    hands = hands_by_version(record)
    checked = 0
    for msg in frames:
        if msg["type"] not in ("snapshot", "update"):
            continue
        version = msg["version"]
        real = hands[version]
        hidden = set().union(*(h for s, h in enumerate(real) if s != seat))
        view = dict(msg["view"])
        for ev in msg["events"]:
            if any(isinstance(c, str) for c in ev.get("cards") or []):  # card strings, not counts
                assert ev.get("private") == seat and seat is not None, f"cards of another seat in {ev}"
            if msg["type"] == "update":
                leaked = set(CARD.findall(json.dumps(ev))) & hidden
                assert not leaked, f"event {ev} at version {version} shows hidden cards {leaked}"
        if view.get("is_over"):
            checked += 1
            continue
        assert "hands" not in view, f"every hand sent before the end, version {version}"
        own = view.pop("hand", None)
        legal = view.pop("legal_moves", [])
        drawn = view.pop("drawn", None)
        if seat is None:
            assert own is None, "a spectator was sent a hand"
        else:
            assert set(own) == real[seat], f"seat {seat} was sent {own}, holds {sorted(real[seat])}"
            assert {m.split(":")[0] for m in legal if CARD.fullmatch(m.split(":")[0])} <= real[seat]
            assert drawn is None or drawn in real[seat]
        leaked = set(CARD.findall(json.dumps(view))) & hidden
        assert not leaked, f"view at version {version} shows hidden cards {leaked}"
        checked += 1
    return checked


class QuietSeat:
    """A person at a table who is connected and does nothing unless told: a seat taken through
    the API (as a program takes one: the token comes in the answer) and a WebSocket that keeps
    the latest state. Cheaper than a browser page for the people a test only needs seated."""

    def __init__(self, server: Any, table: str, name: str, invite: str | None = None) -> None:
        body: dict[str, Any] = {"name": name}
        if invite:
            body["invite"] = invite
        request = urllib.request.Request(f"{server.url}/api/tables/{table}/join", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=10) as answer:
            joined = json.loads(answer.read())
        self.url = server.url.replace("http", "ws", 1) + f"/ws/{table}"
        self.seat: int = joined["seat"]
        self.token: str = joined["token"]
        self.state: dict[str, Any] | None = None
        self.sent: int | None = None  # the version the last move was made on
        self.ws: Any = None
        self.sockets = contextlib.ExitStack()  # every socket this seat opened, closed by drop()
        self.back()

    def back(self) -> None:
        """Connect (again) and say hello with the seat's token."""
        from websockets.sync.client import connect

        self.ws = self.sockets.enter_context(connect(self.url))
        self.ws.send(json.dumps({"type": "hello", "token": self.token, "seat": self.seat, "last_seq": 0}))
        threading.Thread(target=self._read, args=(self.ws,), daemon=True).start()

    def _read(self, ws: Any) -> None:
        try:
            for text in ws:
                frame = json.loads(text)
                if frame["type"] in ("snapshot", "update") and ws is self.ws:
                    self.state = frame
        except Exception:
            return

    def my_turn(self) -> bool:
        view = self.state["view"] if self.state else {}
        return bool(view.get("to_move") == self.seat and view.get("legal_moves") and not view.get("is_over"))

    def move(self) -> str:
        """Make this seat's first legal move (once it is this seat's turn)."""
        deadline = time.monotonic() + 15  # a safety net only
        while not self.my_turn():
            assert time.monotonic() < deadline, "this seat's turn never came"
            time.sleep(0.02)
        assert self.state is not None
        move = str(self.state["view"]["legal_moves"][0])
        self.sent = int(self.state["version"])
        self.ws.send(json.dumps({"type": "move", "move": move, "version": self.sent}))
        return move

    def play_turn(self) -> None:
        """Make this seat's moves until its turn is over (a card drawn may be played or kept)."""
        deadline = time.monotonic() + 15  # a safety net only
        while True:
            self.move()
            assert self.sent is not None
            while self.state is None or self.state["version"] <= self.sent:
                assert time.monotonic() < deadline, "the move was not answered"
                time.sleep(0.02)
            if not self.my_turn():
                return

    def drop(self) -> None:
        """The connection is lost (closed without leaving: the seat is away, not gone)."""
        self.sockets.close()


def finished_table(
    server: Any, game: str, bots: list[str], name: str = "Anna", options: dict[str, Any] | None = None, seed: int = 1
) -> str:
    """A public table of ``game`` that is over, in ``server``'s database; returns its id.

    Seat 0 is a person called ``name`` who never came (its stand-in played), ``bots`` the others'
    kinds. The whole game is played here by the bots at full speed, a reaction game's windows by
    the referee in virtual time (as the simulator plays them), and stored in one transaction as
    the server stores a table it played: the server loads a finished table from its store when
    it is asked for. For tests of what a finished table looks like, without waiting for a game
    in real time (a Mausgeflippt game takes a minute and more at a server's pace)."""
    from mauseloch.bots import make_bot
    from mauseloch.core.registry import game_info
    from mauseloch.realtime.referee import Referee, play_bots
    from mauseloch.server.lobby import hash_token
    from mauseloch.server.seats import standin_kind
    from mauseloch.server.storage.rows import SeatRow, TableRow, now
    from mauseloch.server.storage.store import Store

    info = game_info(game)
    played = mauseloch.new_game(game, players=len(bots) + 1, seed=seed, options=options)
    players = [make_bot(game, kind, seed=seed + i) for i, kind in enumerate([standin_kind(game), *bots])]
    if info.dynamics == "reactions":
        referee = Referee.for_seed(played, seed)
        play_bots(referee, players)
        windows = referee.log
    else:
        while not played.is_over:
            seat = played.to_move
            played.play(players[seat].choose(played.typed_view(seat), played.legal_moves(seat)), seat=seat)
        windows = []
    record = played.record()
    seats = [SeatRow(0, "human", name, token_hash=hash_token(secrets.token_urlsafe(16)), gone=True)]
    seats += [SeatRow(i, "bot", f"{kind.capitalize()} bot {i + 1}", bot=kind) for i, kind in enumerate(bots, start=1)]
    row = TableRow(id="done-" + secrets.token_urlsafe(6), game=game, title="", players=len(seats),
                   options=record["options"], seed=record["seed"], deck=record["deck"], status="over",
                   created=now(), seats=seats, public=True)  # fmt: skip
    store = Store(server.db)
    try:
        plan = store.create_table.plan(row)
        # the moves in order; each one a reaction window decided carries that window's log
        again = mauseloch.new_game(game, players=row.players, seed=row.seed, options=row.options, deck=row.deck)
        window = iter(windows)
        for version, (seat, move, *ms) in enumerate(record["moves"]):
            decided = next(window) if again.to_move is None else None
            mover = decided["decision"].get("seat") if decided is not None else seat  # None: nobody in time
            plan += store.add_move.plan(row.id, version, seat, move, ms[0] if ms else None,
                                        "stand-in" if mover == 0 else None, None, decided)  # fmt: skip
            again.play(move, seat=seat, **({"ms": ms[0]} if ms else {}))
        plan += store.set_status.plan(row.id, "over", played.result())
        store.writes.now(plan)
    finally:
        store.close()
    return row.id
