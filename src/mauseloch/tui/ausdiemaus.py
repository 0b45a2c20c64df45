"""``mauseloch play aus-die-maus``: Aus die Maus! in the terminal with Rich.

Humans press Enter (or space) to flip their card, bots flip by themselves after a short pause
(``--speed`` scales it), ``--auto`` lets everybody be a bot so you can watch. On a terminal the
table is a Rich ``Live`` display and keys are read without echo; without one (piped stdin or
stdout) the game is printed line by line, every input line counts as Enter, and when the input
ends the remaining human turns are played automatically.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mauseloch.core.events import Event
from mauseloch.extras import needs
from mauseloch.games.ausdiemaus.events import (
    AusDieMausCall,
    AusDieMausCatch,
    AusDieMausChase,
    AusDieMausEnd,
    AusDieMausEscape,
    AusDieMausFlip,
    AusDieMausNewPile,
    AusDieMausPileWon,
    AusDieMausStart,
)
from mauseloch.games.ausdiemaus.views import AusDieMausResult, AusDieMausView
from mauseloch.locale import Lang, t, tn
from mauseloch.tui.common import (
    check_save_path,
    fail,
    lang_option,
    leave_unfinished,
    options_help,
    pick_lang,
    plural,
    save_for_user,
    shown,
)

with needs("terminal", __name__):
    import typer

GAME = "aus-die-maus"
# No emoji: terminals disagree on their width, which breaks the Live display's redrawing.
CARD_FACE = {
    "cheese": ("o", "cheese", "yellow"),
    "mouse1": ("M", "MOUSE, 1 paw", "bold magenta"),
    "mouse2": ("M", "MOUSE, 2 paws", "bold magenta"),
    "mouse3": ("M", "MOUSE, 3 paws", "bold magenta"),
    "cat": ("C", "CAT", "bold red"),
}
BOT_PAUSE = 0.7  # seconds at --speed 1
CHASE_PAUSE = 0.45
CALL_PAUSE = 1.4


def card_short(card: str) -> str:
    """Markup for a card in a list of many (a replay's stacks): ``o`` cheese, ``M1``–``M3`` a mouse
    with 1–3 paws, ``C`` a cat; see :data:`SHORT_LEGEND`."""
    letter, _, style = CARD_FACE[card]
    return f"[{style}]{letter}{card[-1] if card.startswith('mouse') else ''}[/]"


SHORT_LEGEND = "o cheese, M1–M3 a mouse with 1–3 paws, C a cat"


def card_text(card: str | None, lang: Lang = "en") -> str:
    """A card in words, as the page names it (cheese, a mouse with its paws, cat)."""
    if card is None:
        return "—"
    _, _, style = CARD_FACE[card]
    if card.startswith("mouse"):
        paws = int(card[-1])
        name = t("card.mouse1", lang) if paws == 1 else t("card.mouse", lang, n=paws)
    else:
        name = t(f"face.{card}", lang)
    return f"[{style}]{name}[/]"


def end_why(reason: str, lang: Lang = "en") -> str:
    """Why the game ended, in the page's words."""
    text = t(f"am.reason.{reason}", lang)
    return shown(reason) if text == f"am.reason.{reason}" else text


def describe(event: Event, names: list[str], lang: Lang = "en") -> str | None:
    """One line for the log, or None for events shown otherwise; the page's texts
    (web/js/events-ausdiemaus.js) from the catalogue."""
    named = [shown(n) for n in names]
    match event:
        case AusDieMausFlip(seat=seat, card=card):
            return t("am.ev.flip", lang, name=named[seat], card=card_text(card, lang))
        case AusDieMausCall(seat=seat, paws=paws, chaser=chaser):
            said = tn("am.ev.call", paws, lang, name=named[seat], chaser=named[chaser])
            return f"[bold magenta]{said}[/]"
        case AusDieMausChase(owner=owner, chaser=chaser, attempts_left=left):
            return "   " + tn("am.ev.chase", left, lang, chaser=named[chaser], owner=named[owner])
        case AusDieMausCatch(seat=seat, owner=owner):
            return f"[bold red]{t('am.ev.catch', lang, name=named[seat], owner=named[owner])}[/]"
        case AusDieMausEscape(seat=seat, chaser=chaser):
            return f"[green]{t('am.ev.escape', lang, name=named[seat], chaser=named[chaser])}[/]"
        case AusDieMausPileWon(seat=seat, count=count, chip=chip, chips_left=chips_left):
            if chip:
                said = tn("am.ev.pile_won_chip", chips_left, lang, name=named[seat], cards=count)
            else:
                said = tn("am.ev.pile_won", count, lang, name=named[seat])
            return f"[bold]{said}[/]"
        case AusDieMausNewPile(seat=seat, card=card):
            return "   " + t("am.ev.new_pile", lang, name=named[seat], card=card_text(card, lang))
        case AusDieMausStart(card=card):
            return t("am.ev.start", lang, card=card_text(card, lang))
        case AusDieMausEnd(reason=reason):
            return f"[bold]{t('am.ev.end', lang, reason=end_why(reason, lang))}[/]"
    return None


class KeyReader:
    """Enter/space/q from the keyboard without echo on a terminal, or lines from a pipe.

    Used as a context manager: on a terminal, echo stays off for the whole game (a key pressed
    during a bot's turn would otherwise move the cursor and break the Live display), and keys
    typed ahead are dropped before a human turn.
    """

    def __init__(self) -> None:
        self.tty = sys.stdin.isatty()
        self.ended = False
        self._saved: Any = None

    def __enter__(self) -> KeyReader:
        if self.tty:
            import termios
            import tty

            fd = sys.stdin.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    def poll(self) -> str | None:
        """A key pressed on the terminal, without waiting (None: none, or no terminal)."""
        if not self.tty or self.ended:
            return None
        import select

        ready, _, _ = select.select([sys.stdin], [], [], 0)
        if not ready:
            return None
        ch = os.read(sys.stdin.fileno(), 1)
        return ch.decode("utf-8", "replace") if ch else None

    def read(self) -> str:
        """``"flip"``, ``"quit"`` or ``"eof"``."""
        if self.ended:
            return "eof"
        if not self.tty:
            line = sys.stdin.readline()
            if not line:
                self.ended = True
                return "eof"
            return "quit" if line.strip().lower() in ("q", "quit") else "flip"
        import termios

        fd = sys.stdin.fileno()
        termios.tcflush(fd, termios.TCIFLUSH)
        while True:
            ch = os.read(fd, 1)
            if not ch:
                self.ended = True
                return "eof"
            if ch in (b"\r", b"\n", b" "):
                return "flip"
            if ch in (b"q", b"Q", b"\x03", b"\x04"):
                return "quit"


def render(game: Any, names: list[str], log: list[str], call: bool, prompt: str, lang: Lang = "en") -> Any:
    """The table as a Rich renderable."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    view: AusDieMausView = game.typed_view(None)
    chase = view.chase
    table = Table(title="Aus die Maus!", title_justify="left", expand=False)
    for col, right in (("", False), (t("table.player", lang), False), (t("am.stackCol", lang), True),
                       (t("am.chipsCol", lang), True), ("", False)):  # fmt: skip
        table.add_column(col, justify="right" if right else "left")
    for s in range(game.players):
        mark = "▶" if view.to_move == s else ""
        role = ""
        if chase:
            if chase.chaser == s:
                role = f"[bold red]{t('am.role.chaser', lang)} — {t('am.attempts', lang, n=chase.attempts_left)}[/]"
            elif chase.owner == s:
                role = f"[magenta]{t('am.role.owner', lang)}[/]"
        chips = "●" * view.chips[s]
        table.add_row(mark, shown(names[s]), str(view.stacks[s]), f"{chips} {view.chips[s]}", role)
    pile = Text.from_markup(
        f"{t('am.pile', lang, n=len(view.pile))}: {card_text(view.top, lang)}    "
        f"{t('am.chipsLeft', lang, n=view.chips_left)}    {t('term.flips', lang, n=view.flips)}"
    )
    parts: list[Any] = [table, pile]
    if call:
        parts.append(
            Panel(
                Text(t("am.call", lang).upper(), style="bold white on magenta", justify="center"),
                border_style="magenta", padding=(1, 4), expand=False,
            )
        )  # fmt: skip
    parts.append(Text.from_markup("\n".join(log[-8:]) or " "))
    if prompt:
        parts.append(Text.from_markup(prompt))
    return Group(*parts)


def ranking(game: Any, names: list[str], lang: Lang = "en") -> Any:
    from rich.table import Table

    res: AusDieMausResult = game.typed_result()
    table = Table(title=t("term.ranking", lang), title_justify="left")  # why it ended: the log's last line
    for col in ("table.rank", "table.player", "am.stackCol", "am.chipsCol"):
        table.add_column(t(col, lang), justify="left" if col == "table.player" else "right")
    for s in sorted(range(game.players), key=lambda s: (res.ranks[s], s)):
        table.add_row(str(res.ranks[s]), shown(names[s]), str(res.cards[s]), str(res.chips[s]))
    return table


def run(
    game: Any,
    humans: set[int],
    names: list[str],
    console: Any,
    speed: float,
    reader: KeyReader,
    sleep: Callable[[float], None] = time.sleep,
    kinds: dict[int, str] | None = None,
    lang: Lang = "en",
    pace: Any = None,
) -> bool:
    """Play to the end; False when a human quit. ``kinds``: the bot kind of each bot seat."""
    from mauseloch.bots import make_bot
    from mauseloch.bots.random_bot import pause_factor

    bots = {
        s: make_bot(GAME, (kinds or {}).get(s, "random"), seed=game.seed + s)
        for s in range(game.players)
        if s not in humans
    }
    live_mode = console.is_terminal
    log: list[str] = []
    seen = 0
    call = False

    def take_events() -> None:
        nonlocal seen, call
        for event in game.event_log(seen):  # every event here is public
            if isinstance(event, AusDieMausCall):
                call = True
            elif isinstance(event, (AusDieMausPileWon, AusDieMausNewPile)):
                call = False
            line = describe(event, names, lang)
            if line is not None:
                log.append(line)
                if not live_mode:
                    console.print(line)
        seen = game.event_count

    take_events()

    def step(live: Any) -> bool:
        nonlocal call
        seat = game.to_move
        human = seat in humans and not reader.ended
        asked = t("term.amPrompt", lang, name=shown(names[seat]))
        prompt = f"[bold]{asked}[/]" if human else ""
        if live is not None:
            live.update(render(game, names, log, call, prompt, lang), refresh=True)
        if human:
            if not live_mode:
                console.print(asked)
            key = reader.read()
            if key == "quit":
                return False
            if key == "eof":
                log.append(f"[dim]{t('term.amEof', lang)}[/]")
                if not live_mode:
                    console.print(log[-1])
        else:
            was_call = call
            chasing = game.typed_view(None).chase is not None
            pause = CALL_PAUSE if was_call and chasing else BOT_PAUSE
            if chasing and not was_call:
                pause = CHASE_PAUSE
            pause *= pause_factor(bots.get(seat))  # a slow bot for the youngest (a person whose input ended: 1)
            if pace is None:
                sleep(pause / speed)
            else:
                pace.wait(pause, sleep)
                if pace.quit:
                    return False
        move = "flip" if seat in humans else bots[seat].choose(game.typed_view(seat), game.legal_moves(seat))
        game.play(move, seat=seat)
        take_events()
        return True

    if live_mode:
        from rich.live import Live

        with Live(render(game, names, log, call, "", lang), console=console, auto_refresh=False) as live:
            if pace is not None:  # a paused or faster game shows so at once
                pace.on_change = lambda: live.update(render(game, names, log, call, pace.status, lang), refresh=True)
            while not game.is_over:
                if not step(live):
                    live.update(render(game, names, log, call, f"[bold]{t('term.quit', lang)}[/]", lang), refresh=True)
                    return False
                live.update(render(game, names, log, call, pace.status if pace else "", lang), refresh=True)
    else:
        while not game.is_over:
            if not step(None):
                console.print(t("term.quit", lang))
                return False
    return True


def command(
    players: int = typer.Option(4, "--players", "-p", help="Number of players, 2 to 6."),
    humans: int = typer.Option(1, "--humans", help="Human players (seats 0..K-1); the others are bots."),
    auto: bool = typer.Option(
        False, "--auto", help="Nobody human: watch the bots play (Space pauses, + and - change the speed)."
    ),
    speed: float = typer.Option(1.0, "--speed", help="Speed factor for the bots' pauses (2 = twice as fast)."),
    bots: str = typer.Option(
        "random", "--bots", "-b", help="Bot kind for every bot seat, or a comma list with one kind per bot seat."
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle (default: a fresh one)."),
    option: list[str] = typer.Option([], "--option", "-o", help=options_help(GAME)),  # noqa: B008
    save: Path | None = typer.Option(None, "--save", help="Write the game's record to this file at the end."),  # noqa: B008
    lang_text: str | None = lang_option(),
    load: Path | None = typer.Option(None, "--load", help="Go on with a game saved earlier."),  # noqa: B008
    deal: str | None = typer.Option(None, "--deal", help="Play the deal a deal code names (e.g. A4-1Z3KQ8V0)."),
) -> None:
    """Play Aus die Maus! in the terminal: press Enter to flip, catch mice with cats."""
    from rich.console import Console

    import mauseloch
    from mauseloch.bots import bots_for_seats
    from mauseloch.core.dealcode import code_of, decode
    from mauseloch.core.record import load as load_game
    from mauseloch.locale.rules import house_rules
    from mauseloch.tui.pace import Pace

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    try:
        info = mauseloch.GAMES[GAME]
        if auto:
            humans = 0
        if not speed > 0:
            raise ValueError(f"--speed must be a positive number, got {speed}")
        if load is not None:
            game = load_game(load)
            if game.name != GAME:
                raise ValueError(t("term.loadGame", lang, path=load, game=game.name, wanted=GAME))
            if game.is_over:
                raise ValueError(t("term.loadOver", lang, path=load))
        else:
            options = info.options_from_text(option)
            if deal is not None:
                named = decode(deal)
                if named.game != GAME:
                    raise ValueError(t("term.dealGame", lang, code=deal.strip(), game=named.game, wanted=GAME))
                players, seed, options = named.players, named.seed, named.options | options
            game = mauseloch.new_game(GAME, players=info.check_players(players), seed=seed, options=options)
        n = game.players
        if not 0 <= humans <= n:
            raise ValueError(f"--humans must be from 0 to {n}, got {humans}")
        kinds = dict(zip(range(humans, n), bots_for_seats(GAME, bots, n - humans), strict=True))
    except ValueError as exc:
        raise fail(console, exc) from None
    check_save_path(console, save)

    human_seats = set(range(humans))
    names = [
        (t("common.seat", lang, n=s) + (f" ({t('common.you', lang)})" if humans == 1 else ""))
        if s in human_seats
        else t("bot.name", lang, level=t(f"bot.{kinds[s]}", lang), n=s)
        for s in range(n)
    ]
    opts = game.options
    deck = t("term.amSmall" if opts["small_deck"] else "term.amFull", lang)
    head = t("term.amHead", lang, game="[bold]Aus die Maus![/]", n=n, humans=humans, deck=deck, chips=opts["chips"])
    console.print(head)
    console.print(t("term.dealCode", lang, code=code_of(game)))
    console.print(t("term.houseRules", lang, rules=" · ".join(house_rules(GAME, opts, lang))))
    if load is not None:
        console.print(t("term.loaded", lang, path=shown(load), n=game.move_count + 1))
    try:
        with KeyReader() as reader:
            pace = Pace(speed, reader.poll, lang, shown=humans == 0 and reader.tty)
            finished = run(game, human_seats, names, console, speed, reader, kinds=kinds, lang=lang, pace=pace)
    except KeyboardInterrupt:
        raise leave_unfinished(console, game, save, interrupted=True, offer=True, lang=lang) from None
    if not finished:
        raise leave_unfinished(console, game, save, interrupted=False, lang=lang)
    console.print(ranking(game, names, lang))
    save_for_user(console, game, save, lang=lang)


# -- replays (``mauseloch replay``): the terminal registers this module for the game (tui/games.py)
def replay_move(move: str, lang: Lang = "en") -> str | None:
    """A move in the reader's words (every move is a flip)."""
    return t("term.replayMove.flipStack", lang) if move == "flip" else None


def replay_event(event: Event, game: Any, names: list[str], lang: Lang = "en") -> str | None:
    """What happened, as the game's screen says it."""
    return describe(event, names, lang)


def replay_board(game: Any, names: list[str], lang: Lang = "en") -> Any:
    """Every stack with its cards (top first), chips and role in a chase; the pile and the chips left.

    The engine offers no view of the face-down stacks, so this reads the game's own stacks; they
    are only read, never changed.
    """
    from rich.table import Table

    from mauseloch.games.ausdiemaus import CARD_STR

    view: AusDieMausView = game.typed_view(None)
    table = Table(box=None, padding=(0, 1), show_header=True)
    for col, right in (("", False), (t("am.stackCol", lang), True), (t("am.chipsCol", lang), True),
                       (t("term.stackTopFirst", lang), False)):  # fmt: skip
        table.add_column(col, justify="right" if right else "left")
    chase = view.chase
    for s, stack in enumerate(game.stacks):
        role = ""
        if chase and chase.chaser == s:
            role = f" [bold red](must catch, {plural(chase.attempts_left, 'attempt')} left)[/]"
        elif chase and chase.owner == s:
            role = " [magenta](mouse owner)[/]"
        mark = " ▶" if view.to_move == s else ""
        table.add_row(
            shown(names[s]) + mark + role,
            plural(view.stacks[s], "card"),
            str(view.chips[s]),
            " ".join(card_short(CARD_STR[c]) for c in stack) or "[dim]—[/]",
        )
    table.caption = (
        f"pile: {card_text(view.top)} ({plural(len(view.pile), 'card')})   "
        f"chips left: {view.chips_left}   [dim]({SHORT_LEGEND})[/]"
    )
    table.caption_justify = "left"
    return table
