"""Helpers of the server tests: seated WebSocket players and lobby calls."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, ClassVar

import anyio
from starlette.testclient import TestClient

RECEIVE_GUARD = 20.0  # seconds: only so a broken server fails the test instead of hanging it


class Player:
    """One WebSocket connection to a table and everything it received."""

    open: ClassVar[list[Player]] = []  # closed by the client fixture, so its event loop can stop

    def __init__(self, client: TestClient, table: str, headers: dict[str, str] | None = None) -> None:
        self.client = client
        self.table = table
        self._cm = client.websocket_connect(f"/ws/{table}", headers=headers or {})
        self.ws = self._cm.__enter__()
        self._exited = False
        Player.open.append(self)
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None  # the last snapshot or update
        self.live: dict[str, Any] | None = None  # the last presence/clock information
        self.closed: int | None = None

    def close(self) -> None:
        if not self._exited:
            self._exited = True
            self._cm.__exit__(None, None, None)
            if self.closed is None:
                self.closed = 1000

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        else:
            self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def recv(self, presence: bool = False) -> dict[str, Any]:
        """The next frame; ``presence`` frames (sent whenever someone comes or goes) are noted
        in ``self.live`` and skipped unless asked for."""
        while True:
            frame = self._recv()
            if frame.get("live"):
                self.live = frame["live"]
            if presence or frame["type"] != "presence":
                return frame

    def _recv(self) -> dict[str, Any]:
        async def receive() -> Any:
            with anyio.fail_after(RECEIVE_GUARD):
                return await self.ws._send_rx.receive()

        message = self.ws.portal.call(receive)
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            return {"type": "closed", "code": self.closed}
        text = message.get("text")
        assert text is not None, message
        self.raw.append(text)
        frame = json.loads(text)
        self.frames.append(frame)
        if frame["type"] in ("snapshot", "update"):
            self.state = frame
        return frame

    def hello(
        self, token: str | None = None, seat: int | None = None, last_seq: int = 0, invite: str | None = None
    ) -> dict[str, Any]:
        """Say hello; a spectator (no token, no seat) of a private table created here brings its
        invite, as the page opened by the invite link does (``invite`` to send another)."""
        message: dict[str, Any] = {"type": "hello", "token": token, "seat": seat, "last_seq": last_seq}
        if invite is None and token is None and seat is None:
            invite = INVITES.get(self.table)
        if invite is not None:
            message["invite"] = invite
        self.send(message)
        return self.recv()

    def move(self, move: str, version: int | None = None) -> None:
        assert self.state is not None
        self.send({"type": "move", "move": move, "version": self.state["version"] if version is None else version})

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        return self.state["view"]

    def my_turn(self) -> bool:
        view = self.view
        return not view["is_over"] and bool(view.get("legal_moves"))

    def until(self, condition: Callable[[Player], bool], limit: int = 10_000) -> None:
        """Receive until ``condition`` holds for the latest state (errors fail the test)."""
        for _ in range(limit):
            if self.state is not None and condition(self):
                return
            frame = self.recv()
            assert frame["type"] not in ("error", "closed"), frame
        raise AssertionError("condition never met")


INVITES: dict[str, str] = {}  # table id -> the invite secret of the private tables created here


def create_table(
    client: TestClient, seats: list[dict[str, Any]], game: str = "mau-mau", **extra: Any
) -> dict[str, Any]:
    """A table as the lobby creates it (private unless ``public=True``); its invite is kept for :func:`join`."""
    body = {"game": game, "seats": seats, "name": "Anna", **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    created: dict[str, Any] = response.json()
    if created.get("invite_secret"):
        INVITES[created["table"]] = created["invite_secret"]
    return created


def join(client: TestClient, table: str, name: str = "Ben", seat: int | None = None) -> dict[str, Any]:
    """Take a seat as someone who followed the invite link would."""
    body: dict[str, Any] = {"name": name}
    if table in INVITES:
        body["invite"] = INVITES[table]
    if seat is not None:
        body["seat"] = seat
    response = client.post(f"/api/tables/{table}/join", json=body)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def seated(client: TestClient, table: str, seat: int, token: str) -> Player:
    player = Player(client, table)
    frame = player.hello(token, seat)
    assert frame["type"] == "snapshot", frame
    assert frame["seat"] == seat
    return player


def open_seat(client: TestClient, url: str) -> None:
    """Open a seat link (``/t/<id>#seat=<n>&token=<token>``) as the table page does: the seat and
    token after the ``#`` are traded for the seat's cookie."""
    path, _, fragment = url.partition("#")
    fields = dict(part.split("=", 1) for part in fragment.split("&"))
    table = path.rsplit("/", 1)[-1]
    body = {"seat": int(fields["seat"]), "token": fields["token"]}
    response = client.post(f"/api/tables/{table}/open-seat", json=body, headers={"Origin": "http://testserver"})
    assert response.status_code == 200, response.text


HUMAN = {"kind": "human"}
# a Mau-Mau deal for two (mauseloch.core.dealcode) long enough for a test's whole story: a random
# deal may end before it
LONG_DEAL = "M2-7"
RANDOM_BOT = {"kind": "bot", "bot": "random"}


def play_out(
    players: list[Player], rng: random.Random, watchers: tuple[Player, ...] = (), moves: int | None = None
) -> None:
    """Human seats only (no bots): the seat to move plays, then everyone gets one update.

    Until the game is over, or for ``moves`` moves.
    """
    for _ in range(10_000 if moves is None else moves):
        if players[0].view["is_over"]:
            break
        mover = next(p for p in players if p.my_turn())
        version = mover.state["version"]  # type: ignore[index]
        mover.move(rng.choice(mover.view["legal_moves"]))
        for p in (*players, *watchers):
            frame = p.recv()
            assert frame["type"] == "update", frame
            assert frame["version"] == version + 1
            assert frame["seq"] == p.frames[-2]["seq"] + len(frame["events"])  # seq follows on


def shut_down(client: TestClient) -> None:
    """Stop a server the way a restart does: its connections go, then its lifespan ends."""
    for player in [p for p in Player.open if p.client is client]:
        player.close()
        Player.open.remove(player)
    client.__exit__(None, None, None)
