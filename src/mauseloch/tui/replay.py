"""``mauseloch replay FILE``: step through a saved record with every hand visible, or print JSON.

Each position shows the move that led to it, what happened, and the table as the game draws it:
the game's terminal module (:mod:`mauseloch.tui.games`) has ``replay_move``, ``replay_event``
and ``replay_board`` for that; a game without one gets generic text (its moves as recorded, its
events' fields, each hand and the public view). Stepping: Enter goes on, ``b`` steps
back, a number jumps to that move, ``q`` quits.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from mauseloch.core.events import Event, tag
from mauseloch.core.record import played
from mauseloch.core.shapes import OptionDict, Record
from mauseloch.core.views import Result
from mauseloch.extras import needs
from mauseloch.locale import Lang, t, tn
from mauseloch.tui.common import EXIT_INTERRUPTED, ask, fail, lang_option, pick_lang, show_standings, shown
from mauseloch.tui.games import TerminalGame, terminal_game

with needs("terminal", __name__):
    import typer


class Summary(msgspec.Struct):
    """``mauseloch replay FILE --json``: the game's setup, how far it went and its result."""

    game: str
    players: int
    seed: int
    options: OptionDict
    moves: int
    is_over: bool
    result: Result | None


def command(
    file: Path = typer.Argument(..., help="A record saved by 'mauseloch play --save', the web site or 'analyze'."),  # noqa: B008
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON instead of stepping through."),
    step: bool = typer.Option(
        False, "--step", help="Wait after each move: Enter next, b back, q quit (default on a terminal)."
    ),
    no_step: bool = typer.Option(False, "--all", help="Print every move without waiting."),
    lang_text: str | None = lang_option(),
) -> None:
    """Replay a saved game or match: every move with every hand visible, then the result."""
    from rich.console import Console

    from mauseloch.core.match import Match, load_any

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    try:
        loaded = load_any(file)
    except (ValueError, TypeError) as exc:  # a record's contents are shown as text, never as markup
        raise fail(console, exc) from None
    if isinstance(loaded, Match):
        _replay_match(console, loaded, as_json, (step or sys.stdin.isatty()) and not no_step, lang)
        return
    game = loaded

    if as_json:
        result = game.typed_result() if game.is_over else None
        summary = Summary(game.name, game.players, game.seed, dict(game.options), game.move_count, game.is_over, result)
        typer.echo(json.dumps(msgspec.to_builtins(summary), indent=2))  # the standard library's layout
        return

    interactive = (step or sys.stdin.isatty()) and not no_step
    try:
        Replayer(console, game.record(), lang).run(interactive)
    except KeyboardInterrupt:
        console.print(f"\n[yellow]{t('term.replayStopped', lang)}[/]")
        raise typer.Exit(EXIT_INTERRUPTED) from None


class Replayer:
    """Positions 0..N of a record (position i: after its first i moves), shown one at a time."""

    def __init__(
        self, console: Any, record: Record, lang: Lang = "en", names: list[str] | None = None,
    ) -> None:  # fmt: skip
        import mauseloch

        self.console = console
        self.lang = lang
        self.record = record
        self.moves: list[list[Any]] = record["moves"]
        self.title = mauseloch.GAMES[record["game"]].title
        self.names = names or [t("common.seat", lang, n=s) for s in range(record["players"])]
        self.game = self._fresh()
        self.position = 0
        self.event_counts = [self.game.event_count]  # after each position seen so far

    def _fresh(self) -> Any:
        import mauseloch

        r = self.record
        return mauseloch.new_game(r["game"], players=r["players"], seed=r["seed"], options=r["options"], deck=r["deck"])

    def go_to(self, position: int) -> None:
        """Forward one move at a time; backwards by replaying from the start (records are short)."""
        if position < self.position:
            self.game, self.position = self._fresh(), 0
        for _ in played(self.game, self.moves[self.position : position]):  # the one replay loop
            self.position += 1
            if len(self.event_counts) <= self.position:
                self.event_counts.append(self.game.event_count)

    def run(self, interactive: bool, read: Callable[[str], str] | None = None) -> None:
        console = self.console
        ask_line = read or (lambda prompt: ask(console, prompt))
        last = len(self.moves)
        lang = self.lang
        head = t("term.replayHead", lang, game=f"[bold]{self.title}[/]", n=self.record["players"],
                 seed=self.record["seed"], moves=tn("term.moves", last, lang))  # fmt: skip
        console.print(head)
        self.show()
        while True:
            if not interactive:
                if self.position == last:
                    break
                self.go_to(self.position + 1)
                self.show()
                continue
            try:
                answer = ask_line(f"[dim]{t('term.replayPrompt', lang)}[/]").strip().lower()
            except EOFError:  # the input ended: show the rest without waiting
                interactive = False
                continue
            if answer in ("q", "quit", "exit"):
                console.print(t("term.replayStoppedAt", lang, i=self.position, n=last))
                return
            if answer in ("b", "back"):
                if self.position == 0:
                    console.print(f"[dim]{t('term.replayAtStart', lang)}[/]")
                    continue
                self.go_to(self.position - 1)
            elif answer.isdigit():
                if int(answer) > last:
                    said = t("term.replayNoMove", lang, i=int(answer), moves=tn("term.moves", last, lang))
                    console.print(f"[red]{said}[/]")
                    continue
                self.go_to(int(answer))
            elif answer == "":
                if self.position == last:
                    break
                self.go_to(self.position + 1)
            else:
                console.print(f"[red]{t('term.replayNotUnderstood', lang, text=shown(answer))}[/]")
                continue
            self.show()
        self.show_result()

    # -- drawing ----------------------------------------------------------------------
    def show(self) -> None:
        console, i = self.console, self.position
        if i == 0:
            console.print(f"\n[bold]{t('replay.start', self.lang)}[/]")
            first, end = 0, self.event_counts[0]
        else:
            seat, move, *rest = self.moves[i - 1]
            timing = f" after {rest[0]} ms" if rest and rest[0] is not None else ""
            console.print(
                f"\n[bold]{t('replay.step', self.lang, i=i, n=len(self.moves))}[/]: {shown(self.names[seat])} — "
                f"{self.move_text(move)}{timing}"
            )
            first, end = self.event_counts[i - 1], self.event_counts[i]
        for event in self.game.event_log(first)[: end - first]:  # the replayed game's, as the rules logged them
            text = self.describe(event)
            if text:
                console.print(f"   {text}")
        console.print(self.table())

    def _terminal(self) -> TerminalGame | None:
        """The game's terminal module (:mod:`mauseloch.tui.games`) where it has one: it describes
        the game's moves, events and table; None for a game without one (generic text)."""
        return terminal_game(self.game.name)

    def move_text(self, move: str) -> str:
        """A move in the reader's words, its cards drawn as every screen draws them (the
        record's notation, as typed, where the game has no words for it)."""
        module = self._terminal()
        text = None if module is None else module.replay_move(move, self.lang)
        return text if text is not None else f"[cyan]{shown(move)}[/]"

    def describe(self, event: Event) -> str | None:
        if tag(type(event)) == "deal":
            return None
        module = self._terminal()
        if module is not None:
            return module.replay_event(event, self.game, self.names, self.lang)
        fields = msgspec.to_builtins(event)  # the event's JSON form: its tag and fields in order
        details = ", ".join(f"{key} {shown(value)}" for key, value in fields.items() if key != "type")
        return f"{shown(fields['type'])}{': ' + details if details else ''}"

    def table(self) -> Any:
        module = self._terminal()
        if module is not None:
            return module.replay_board(self.game, self.names, self.lang)
        return self._generic_board()

    def _generic_board(self) -> Any:
        """A game without a terminal module: each seat's hand where its view has one, then what
        everybody sees, one entry a line."""
        from rich.console import Group
        from rich.text import Text

        view = self.game.view(None)
        lines = []
        for s in range(self.game.players):
            hand = self.game.view(s).get("hand")
            mark = " ▶" if view.get("to_move") == s else "  "
            lines.append(f"   {shown(self.names[s])}{mark} {shown(hand) if hand is not None else ''}")
        hidden = ("game", "players", "options", "seat", "to_move", "legal_moves", "result")
        lines += [f"   {key}: {shown(value)}" for key, value in view.items() if key not in hidden]
        return Group(*(Text(line) for line in lines))

    def show_result(self) -> None:
        from rich.table import Table

        console, game = self.console, self.game
        if not game.is_over:
            console.print(f"\n[yellow]{t('term.replayEndsEarly', self.lang)}[/]")
            return
        result = game.result()
        columns = [k for k, v in result.items() if k != "ranks" and isinstance(v, list)]
        table = Table(title=t("term.resultHead", self.lang), title_justify="left")
        for col in ("rank", "player", *columns):
            table.add_column(col.replace("_", " "), justify="left" if col == "player" else "right")
        for s in sorted(range(game.players), key=lambda s: (result["ranks"][s], s)):
            table.add_row(str(result["ranks"][s]), shown(self.names[s]), *(shown(result[c][s]) for c in columns))
        console.print()
        console.print(table)


def _replay_match(console: Any, match: Any, as_json: bool, interactive: bool, lang: Lang) -> None:
    """A match record: its summary as JSON, or every deal in turn with the standings after it."""
    from mauseloch.core.match import Match

    if as_json:
        summary = {
            "match": True, "game": match.name, "players": match.players, "seed": match.seed,
            "options": dict(match.options), "deals": len(match.games), "is_over": match.is_over,
            "totals": match.totals, "standings": match.standings(),
        }  # fmt: skip
        typer.echo(json.dumps(summary, indent=2))
        return
    names = [t("common.seat", lang, n=p) for p in range(match.players)]
    shadow = Match(match.name, match.players, match.seed, match.options, match.deals, match.target)
    try:
        for i, game in enumerate(match.games):
            heading = "match.headingTarget" if match.target else "match.heading"
            console.print(f"\n[bold]{t(heading, lang, deal=i + 1, deals=match.deals, target=match.target)}[/]")
            at = [names[match.player_at(s, i)] for s in range(match.players)]
            Replayer(console, game.record(), lang, at).run(interactive)
            if game.is_over:
                shadow.games[-1] = game
                shadow.deal_over()
                show_standings(console, shadow, names, lang)
                if shadow.between_deals:
                    shadow.next_deal()
    except KeyboardInterrupt:
        console.print(f"\n[yellow]{t('term.replayStopped', lang)}[/]")
        raise typer.Exit(EXIT_INTERRUPTED) from None
