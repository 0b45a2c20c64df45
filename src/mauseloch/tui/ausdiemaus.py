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

import typer

from mauseloch import GAMES

from .common import check_save_path, fail, leave_unfinished, plural, save_for_user, says

GAME = "aus-die-maus"
OPTION_HELP = "A rule option as NAME=VALUE; repeatable. " + GAMES[GAME].options_help()
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


def card_text(card: str | None) -> str:
    if card is None:
        return "—"
    _, name, style = CARD_FACE[card]
    return f"[{style}]{name}[/]"


def end_why(reason: str, seat: int, names: list[str]) -> str:
    """Why the game ended, in words (``seat``: who ended it)."""
    return {
        "chips": f"{names[seat]} took the last chip",
        "empty_stack": f"{names[seat]} has no card left to flip",
        "endless": "the deal loops forever (a position repeated)",
    }.get(reason, reason)


def describe(event: dict[str, Any], names: list[str]) -> str | None:
    """One line for the log, or None for events shown otherwise."""
    kind = event["type"]
    if kind == "flip":
        return f"{says(names[event['seat']], 'flip')} {card_text(event['card'])}"
    if kind == "call":
        return f"[bold magenta]“Mouse, watch out, the cat is coming!”[/] — {says(names[event['chaser']], 'chase')}"
    if kind == "chase":
        return f"   {names[event['chaser']]}: {plural(event['attempts_left'], 'attempt')} left"
    if kind == "catch":
        return f"[bold red]{says(names[event['seat']], 'catch')} the mouse of {names[event['owner']]}![/]"
    if kind == "escape":
        return f"[green]The mouse of {names[event['seat']]} escapes.[/]"
    if kind == "pile_won":
        chip = " and a chip" if event["chip"] else ""
        who = says(names[event["seat"]], "win")
        pile = plural(event["count"], "card")
        return f"[bold]{who} the pile ({pile}){chip}[/]; {plural(event['chips_left'], 'chip')} left"
    if kind == "new_pile":
        return f"   {says(names[event['seat']], 'start')} a new pile (no effect)"
    if kind == "start":
        return f"The pile starts with {card_text(event['card'])} (no effect)"
    if kind == "end":
        return f"[bold]Game over: {end_why(event['reason'], event['seat'], names)}.[/]"
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


def render(game: Any, names: list[str], log: list[str], call: bool, prompt: str) -> Any:
    """The table as a Rich renderable."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    view = game.view(None)
    chase = view["chase"]
    table = Table(title="Aus die Maus!", title_justify="left", expand=False)
    for col in ("", "player", "stack", "chips", ""):
        table.add_column(col, justify="right" if col in ("stack", "chips") else "left")
    for s in range(game.players):
        mark = "▶" if view["to_move"] == s else ""
        role = ""
        if chase:
            if chase["chaser"] == s:
                role = f"[bold red]must catch — {plural(chase['attempts_left'], 'attempt')} left[/]"
            elif chase["owner"] == s:
                role = "[magenta]mouse owner[/]"
        chips = "●" * view["chips"][s]
        table.add_row(mark, names[s], plural(view["stacks"][s], "card"), f"{chips} {view['chips'][s]}", role)
    pile = Text.from_markup(
        f"Pile: {card_text(view['top'])}   ({plural(len(view['pile']), 'card')})    "
        f"Chips left: {view['chips_left']}    Flips: {view['flips']}"
    )
    parts: list[Any] = [table, pile]
    if call:
        parts.append(
            Panel(
                Text(
                    "MOUSE, WATCH OUT,\nTHE CAT IS COMING!", style="bold white on magenta", justify="center"
                ),
                border_style="magenta", padding=(1, 4), expand=False,
            )
        )  # fmt: skip
    parts.append(Text.from_markup("\n".join(log[-8:]) or " "))
    if prompt:
        parts.append(Text.from_markup(prompt))
    return Group(*parts)


def ranking(game: Any, names: list[str]) -> Any:
    from rich.table import Table

    res = game.result()
    table = Table(title="Ranking", title_justify="left")  # why it ended: the log's last line
    for col in ("rank", "player", "cards", "chips"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for s in sorted(range(game.players), key=lambda s: (res["ranks"][s], s)):
        table.add_row(str(res["ranks"][s]), names[s], str(res["cards"][s]), str(res["chips"][s]))
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
) -> bool:
    """Play to the end; False when a human quit. ``kinds``: the bot kind of each bot seat."""
    from mauseloch.bots import make_bot

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
        for event in game.events_since(seen):
            if event["type"] == "call":
                call = True
            elif event["type"] in ("pile_won", "new_pile"):
                call = False
            line = describe(event, names)
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
        prompt = f"[bold]{names[seat]}: press Enter to flip[/] (q quits)" if human else ""
        if live is not None:
            live.update(render(game, names, log, call, prompt), refresh=True)
        if human:
            if not live_mode:
                console.print(f"{names[seat]}: press Enter to flip (q quits)")
            key = reader.read()
            if key == "quit":
                return False
            if key == "eof":
                log.append("[dim](input ended: the remaining turns flip by themselves)[/]")
                if not live_mode:
                    console.print(log[-1])
        else:
            was_call = call
            pause = CALL_PAUSE if was_call and game.view(None)["chase"] else BOT_PAUSE
            if game.view(None)["chase"] and not was_call:
                pause = CHASE_PAUSE
            sleep(pause / speed)
        move = "flip" if seat in humans else bots[seat].choose(game.view(seat), game.legal_moves(seat))
        game.play(move, seat=seat)
        take_events()
        return True

    if live_mode:
        from rich.live import Live

        with Live(render(game, names, log, call, ""), console=console, auto_refresh=False, transient=False) as live:
            while not game.is_over:
                if not step(live):
                    live.update(render(game, names, log, call, "[bold]Quit.[/]"), refresh=True)
                    return False
                live.update(render(game, names, log, call, ""), refresh=True)
    else:
        while not game.is_over:
            if not step(None):
                console.print("Quit.")
                return False
    return True


def command(
    players: int = typer.Option(4, "--players", "-p", help="Number of players, 2 to 6."),
    humans: int = typer.Option(1, "--humans", help="Human players (seats 0..K-1); the others are bots."),
    auto: bool = typer.Option(False, "--auto", help="Nobody human: watch the bots play."),
    speed: float = typer.Option(1.0, "--speed", help="Speed factor for the bots' pauses (2 = twice as fast)."),
    bots: str = typer.Option(
        "random", "--bots", "-b", help="Bot kind for every bot seat, or a comma list with one kind per bot seat."
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle (default: a fresh one)."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help=OPTION_HELP
    ),
    save: Path | None = typer.Option(None, "--save", help="Write the game's record to this file at the end."),  # noqa: B008
) -> None:
    """Play Aus die Maus! in the terminal: press Enter to flip, catch mice with cats."""
    from rich.console import Console

    import mauseloch
    from mauseloch.bots import bots_for_seats

    console = Console(highlight=False)
    try:
        info = mauseloch.GAMES[GAME]
        n = info.check_players(players)
        if auto:
            humans = 0
        if not 0 <= humans <= n:
            raise ValueError(f"--humans must be from 0 to {n}, got {humans}")
        if not speed > 0:
            raise ValueError(f"--speed must be a positive number, got {speed}")
        game = mauseloch.new_game(GAME, players=n, seed=seed, options=info.options_from_text(option))
        kinds = dict(zip(range(humans, n), bots_for_seats(GAME, bots, n - humans), strict=True))
    except ValueError as exc:
        raise fail(console, exc) from None
    check_save_path(console, save)

    human_seats = set(range(humans))
    if humans == 1:
        names = ["You"] + [f"Bot {s}" for s in range(1, n)]
    else:
        names = [f"Player {s + 1}" if s in human_seats else f"Bot {s}" for s in range(n)]
    opts = game.options
    console.print(
        f"[bold]Aus die Maus![/] — {n} players ({humans} human), "
        f"{'small' if opts['small_deck'] else 'full'} deck, {opts['chips']} chips. Seed {game.seed}."
    )
    try:
        with KeyReader() as reader:
            finished = run(game, human_seats, names, console, speed, reader, kinds=kinds)
    except KeyboardInterrupt:
        raise leave_unfinished(console, game, save, interrupted=True) from None
    if not finished:
        raise leave_unfinished(console, game, save, interrupted=False)
    console.print(ranking(game, names))
    save_for_user(console, game, save)
