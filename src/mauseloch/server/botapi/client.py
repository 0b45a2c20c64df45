"""Run a bot against a server through the Bot API (``mauseloch bot connect``): the standard
library's HTTP, and msgspec to read what the server sends into the server's own structs.

The client keeps the bot's event stream open (reconnecting after a lost connection, waiting longer
each time up to :data:`MAX_BACKOFF`), accepts every challenge for a game it can play, and plays
each game it starts in a thread of its own: it reads the seat's game stream and, whenever the
seat's view says it is to move, asks the bot for a move among the view's legal moves and posts it
with the version it saw. A move refused as stale is simply followed by the newer update.

Each line is read as the struct the server wrote it from: the event stream's as
:mod:`~mauseloch.server.botapi.events` declares them, the game stream's snapshots and updates as
:mod:`~mauseloch.server.protocol` declares them with the game's own view struct (found through the
game's declaration), so a bot gets ``g.typed_view(seat)``'s equal. Lines of a type the client does
not read are skipped. A frame is read as strictly as the server's schema declares it: one this
client cannot read (a server of another version) ends that game with a log line that says so,
rather than a reconnection that would fail the same way. The HTTP bodies it sends and the
answers it gets stay JSON.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, Protocol, Union

import msgspec

from mauseloch.core.shapes import JSONObject
from mauseloch.core.views import View
from mauseloch.server.botapi.events import BotEvent, ChallengeEvent, ChallengeInfo, GameFinish, GameStart
from mauseloch.server.protocol import ClockPing, WindowMsg, game_frames

log = logging.getLogger("mauseloch.botclient")

READ_TIMEOUT = 30.0  # seconds without even a keep-alive line: the connection is dead
MAX_BACKOFF = 30.0
REACTION_MS = 400  # a bot without a ``react`` of its own reacts this long after a card shows


def clock_ms() -> float:
    """This process's clock in ms, as the answer to a server's clock ping carries it."""
    return time.monotonic() * 1000.0


class Bot(Protocol):
    """What the client needs of a bot: a move among ``legal`` for its seat's ``view``, the game's
    view struct (the same protocol as :class:`mauseloch.bots.Bot`; ``react`` is optional here)."""

    def choose(self, view: View, legal: list[str]) -> str: ...


class _Kind(msgspec.Struct):
    """What tells a line apart before it is read whole: its type, and its view's game."""

    type: str = ""
    view: _Game | None = None


class _Game(msgspec.Struct):
    game: str


_kind = msgspec.json.Decoder(_Kind)
_event = msgspec.json.Decoder(BotEvent)
EVENTS = frozenset({"challenge", "game_start", "game_finish"})  # the event stream's lines it reads
_table_line = msgspec.json.Decoder(ClockPing | WindowMsg | GameFinish)
TABLE_LINES = frozenset({"clock_ping", "window", "game_finish"})  # a game stream's lines, but frames
FRAMES = frozenset({"snapshot", "update"})


@cache
def _frame(game: str) -> msgspec.json.Decoder[Any]:
    """The decoder of ``game``'s snapshots and updates: its view struct, its events as a seat sees them."""
    snapshot, update = game_frames(game)
    return msgspec.json.Decoder(Union[snapshot, update])  # noqa: UP007 - types known at run time


# game, seat, table id -> the bot that plays that seat
BotFactory = Callable[[str, int, str], Bot]


class Refusal(Exception):
    def __init__(self, status: int, body: JSONObject) -> None:
        super().__init__(f"{status}: {body.get('code')}: {body.get('error')}")
        self.status = status
        self.body = body


class BotClient:
    """One bot token on one server. ``games``: stop after that many finished games (None: never);
    ``accept``: which challenges to take (default: every game ``factory`` can play)."""

    def __init__(
        self,
        url: str,
        token: str,
        factory: BotFactory,
        *,
        accept: Callable[[ChallengeInfo], bool] | None = None,
        games: int | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.factory = factory
        self.accept = accept or (lambda challenge: True)
        self.games = games
        self.finished = 0
        self.stop = threading.Event()
        self._playing: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    # -- HTTP ------------------------------------------------------------------------------
    def _request(self, method: str, path: str, body: JSONObject | None = None) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/x-ndjson"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return urllib.request.Request(self.url + path, data=data, method=method, headers=headers)

    def post(self, path: str, body: JSONObject | None = None) -> JSONObject:
        """POST ``body``; the JSON answer, or :class:`Refusal` with the server's code."""
        try:
            with urllib.request.urlopen(self._request("POST", path, body or {}), timeout=READ_TIMEOUT) as resp:
                answer: JSONObject = json.loads(resp.read() or b"{}")
                return answer
        except urllib.error.HTTPError as exc:
            try:
                refusal = json.loads(exc.read() or b"{}")
            except ValueError:
                refusal = {}
            raise Refusal(exc.code, refusal) from None

    def lines(self, path: str) -> Iterator[bytes]:
        """The lines of an NDJSON stream (keep-alive lines skipped) until it ends, each with the
        type the struct it holds is tagged with."""
        try:
            resp = urllib.request.urlopen(self._request("GET", path), timeout=READ_TIMEOUT)
        except urllib.error.HTTPError as exc:
            raise Refusal(exc.code, json.loads(exc.read() or b"{}")) from None
        with resp:
            for raw in resp:
                if self.stop.is_set():
                    return
                if raw.strip():
                    yield raw

    # -- the bot's life --------------------------------------------------------------------
    def run(self) -> None:
        """Until stopped (or ``games`` are played): the event stream, reconnecting as needed. A
        bad or revoked token (401) ends it at once: waiting would not make it good."""
        backoff = 1.0
        while not self.stop.is_set():
            try:
                for raw in self.lines("/api/bot/stream"):
                    backoff = 1.0
                    if _kind.decode(raw).type in EVENTS:
                        self.on_event(_event.decode(raw))
                    if self.stop.is_set():
                        break
            except Refusal as exc:
                if exc.status == 401:
                    raise
                log.warning("event stream refused (%s); again in %.0f s", exc, backoff)
            except (OSError, ValueError) as exc:
                log.warning("event stream lost (%s); again in %.0f s", exc, backoff)
            if self.stop.wait(backoff):
                break
            backoff = min(MAX_BACKOFF, backoff * 2)
        for thread in list(self._playing.values()):
            thread.join(READ_TIMEOUT)

    def on_event(self, event: BotEvent) -> None:
        if isinstance(event, ChallengeEvent):
            ch = event.challenge
            verb = "accept" if self.accept(ch) else "decline"
            try:
                self.post(f"/api/bot/challenge/{ch.id}/{verb}")
            except Refusal as exc:
                log.warning("challenge %s: %s refused: %s", ch.id, verb, exc)
        elif isinstance(event, GameStart):
            self.start_game(event.table, event.seat)

    def start_game(self, table: str, seat: int) -> None:
        with self._lock:
            if table in self._playing and self._playing[table].is_alive():
                return
            thread = threading.Thread(target=self.play, args=(table, seat), name=f"bot-{table}", daemon=True)
            self._playing[table] = thread
        thread.start()

    def play(self, table: str, seat: int) -> None:
        """Play ``seat`` of ``table`` until the game finishes (reconnecting to its stream)."""
        bot: Bot | None = None
        view: View | None = None
        seen = -1  # the version of ``view``
        window: WindowMsg | None = None  # a reaction window waiting for the view that shows its card
        backoff = 1.0
        while not self.stop.is_set():
            try:
                for raw in self.lines(f"/api/bot/game/{table}/stream"):
                    backoff = 1.0
                    head = _kind.decode(raw)
                    if head.type in TABLE_LINES:
                        msg = _table_line.decode(raw)
                        if isinstance(msg, GameFinish):
                            self._finished()
                            return
                        if isinstance(msg, ClockPing):  # a reaction game measures the connection: answer at once
                            self._post_quietly(f"/api/bot/game/{table}/clock", {"n": msg.n, "t": clock_ms()})
                        else:  # a window may come before the update that shows the card
                            window = msg
                    elif head.type in FRAMES and head.view is not None:
                        frame = _frame(head.view.game).decode(raw)
                        view, seen = frame.view, frame.version
                    if window is not None and view is not None and bot is not None and seen == window.version:
                        self._react_later(table, bot, view, window)
                        window = None
                    if head.type not in FRAMES or view is None:
                        continue
                    if bot is None:
                        bot = self.factory(view.game, seat, table)
                    legal = _legal(view)
                    if view.to_move == seat and legal and not getattr(view, "is_over", False):
                        self._move(table, bot, view, legal, seen)
            except Refusal as exc:
                if exc.status in (401, 403, 404):
                    log.warning("table %s: %s", table, exc)
                    return
            except msgspec.ValidationError as exc:  # reading it again would fail again: no waiting
                log.error(
                    "table %s: the server sent a frame this client cannot read (%s); it runs another"
                    " version of mauseloch: install that version to play its tables",
                    table,
                    exc,
                )
                return
            except (OSError, ValueError) as exc:
                log.warning("table %s: stream lost (%s)", table, exc)
            if self.stop.wait(backoff):
                return
            backoff = min(MAX_BACKOFF, backoff * 2)

    def _move(self, table: str, bot: Bot, view: View, legal: list[str], version: int) -> None:
        choice = bot.choose(view, legal)
        while not self.stop.is_set():
            try:
                self.post(f"/api/bot/game/{table}/move", {"move": choice, "version": version})
                return
            except Refusal as exc:
                if exc.status == 429:  # over the moves a second: wait as told, then the same move
                    time.sleep(1.0)
                    continue
                # stale, not started, not our turn any more: the next update says what now
                log.info("table %s: move %s refused: %s", table, choice, exc)
                return

    def _post_quietly(self, path: str, body: JSONObject) -> None:
        try:
            self.post(path, body)
        except (Refusal, OSError) as exc:
            log.info("%s refused: %s", path, exc)

    def _react_later(self, table: str, bot: Bot, view: View, window: WindowMsg) -> None:
        """A reaction window opened: the bot's reaction (a reaction bot's ``react`` gives the move
        and its time; any other bot's ``choose`` reacts after :data:`REACTION_MS`) is sent once
        the card shows plus that time. Sent later than the bot would: the server measures it."""
        legal = _legal(view)
        if not legal:
            return
        react = getattr(bot, "react", None)
        if react is not None:
            move, ms = react(view, legal)
        else:
            move, ms = bot.choose(view, legal), REACTION_MS
        if move is None or move == "timeout":
            return
        delay = (window.in_ms + ms) / 1000.0
        body = {"move": move, "version": window.version, "ms": int(ms)}
        timer = threading.Timer(delay, self._post_quietly, args=(f"/api/bot/game/{table}/react", body))
        timer.daemon = True
        timer.start()

    def _finished(self) -> None:
        with self._lock:
            self.finished += 1
            if self.games is not None and self.finished >= self.games:
                self.stop.set()


def _legal(view: View) -> list[str]:
    """The seat's legal moves its view lists (every game's seat view does; none in another's)."""
    legal = getattr(view, "legal_moves", None)
    return legal if isinstance(legal, list) else []


def registered(kind: str) -> BotFactory:
    """A factory of the registered bot ``kind`` (mauseloch.bots), seeded per table and seat."""
    import zlib

    from mauseloch.bots import make_bot

    def factory(game: str, seat: int, table: str) -> Bot:
        bot: Bot = make_bot(game, kind, seed=zlib.crc32(f"{table}:{seat}".encode()))
        return bot

    return factory


def from_class(path: str) -> BotFactory:
    """A factory of a class implementing :class:`Bot`, named ``module:Class`` (or ``file.py:Class``);
    it is called with ``(game, seat)``, or without arguments if it takes none."""
    import importlib
    import importlib.util
    import inspect

    where, _, name = path.partition(":")
    if where.endswith(".py"):
        spec = importlib.util.spec_from_file_location("mauseloch_user_bot", where)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    cls = getattr(module, name or "Bot")
    takes = len(inspect.signature(cls).parameters)

    def factory(game: str, seat: int, table: str) -> Bot:
        bot: Bot = cls(game, seat) if takes >= 2 else cls()
        return bot

    return factory
