"""``mauseloch replay FILE``: step through a saved record with every hand visible, or print JSON.

Each position shows the move that led to it, what happened, and the table as the game draws it
(Mau-Mau: hands, top card, wish; Aus die Maus!: every stack with its cards, chips and the pile;
Mausgeflippt: the scores, the shown mouse and every hand). Stepping: Enter goes on, ``b`` steps
back, a number jumps to that move, ``q`` quits.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from mauseloch.locale import Lang, t, tn
from mauseloch.tui.common import EXIT_INTERRUPTED, ask, fail, lang_option, pick_lang, plural, shown


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

    from mauseloch.core.match import Match
    from mauseloch.core.match import load_any

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
        summary: dict[str, Any] = {
            "game": game.name,
            "players": game.players,
            "seed": game.seed,
            "options": dict(game.options),
            "moves": game.move_count,
            "is_over": game.is_over,
            "result": game.result() if game.is_over else None,
        }
        typer.echo(json.dumps(summary, indent=2))
        return

    interactive = (step or sys.stdin.isatty()) and not no_step
    try:
        Replayer(console, game.record(), game.events, lang).run(interactive)
    except KeyboardInterrupt:
        console.print(f"\n[yellow]{t('term.replayStopped', lang)}[/]")
        raise typer.Exit(EXIT_INTERRUPTED) from None


class Replayer:
    """Positions 0..N of a record (position i: after its first i moves), shown one at a time."""

    def __init__(
        self, console: Any, record: dict[str, Any], events: list[dict[str, Any]], lang: Lang = "en",
        names: list[str] | None = None,
    ) -> None:  # fmt: skip
        import mauseloch

        self.console = console
        self.lang = lang
        self.record = record
        self.moves: list[list[Any]] = record["moves"]
        self.events = events  # of the whole game; a record replays to the same events
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
        while self.position < position:
            seat, move, *rest = self.moves[self.position]
            self.game.play(move, seat=seat, ms=rest[0] if rest else None)
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
        for event in self.events[first:end]:
            text = self.describe(event)
            if text:
                console.print(f"   {text}")
        console.print(self.table())

    def move_text(self, move: str) -> str:
        """A move in the reader's words, its cards drawn as every screen draws them (the
        record's notation, as typed, for anything else)."""
        name, lang = self.game.name, self.lang
        if name == "mau-mau":
            from mauseloch.tui.maumau import pretty as card_text
            from mauseloch.tui.maumau import suit_text

            if move in ("draw", "pass", "take"):
                return t(f"term.replayMove.{move}", lang)
            card, _, wish = move.partition(":")
            if len(card) == 2 and card[1] in "CSHD":
                if wish in ("C", "S", "H", "D"):
                    return t("term.replayMove.wish", lang, card=card_text(card, lang=lang), suit=suit_text(wish, lang))
                return card_text(card, lang=lang)
        elif name == "mausgeflippt":
            from mauseloch.tui.mausgeflippt import pretty as clothing_text

            kind, _, card = move.partition(" ")
            if kind == "catch" and card:
                return t("term.replayMove.catch", lang, card=clothing_text(card, lang))
            if move in ("reveal", "flip", "timeout"):
                return t(f"term.replayMove.{move}", lang)
        elif move == "flip":
            return t("term.replayMove.flipStack", lang)
        return f"[cyan]{shown(move)}[/]"

    def describe(self, event: dict[str, Any]) -> str | None:
        name = self.game.name
        if event["type"] == "deal":
            return None
        if name == "mau-mau":
            from mauseloch.tui.maumau import describe as describe_maumau

            return describe_maumau(event, None, self.lang, self.names)
        if name == "aus-die-maus":
            from mauseloch.tui.ausdiemaus import describe as describe_ausdiemaus

            return describe_ausdiemaus(event, self.names, self.lang)
        if name == "mausgeflippt":
            from mauseloch.tui.mausgeflippt import describe as describe_mausgeflippt

            return describe_mausgeflippt(event, None, self.game.view(None)["mouse_pile"], self.lang)
        return shown(event["type"])

    def table(self) -> Any:
        name = self.game.name
        if name == "mau-mau":
            return self._maumau()
        if name == "aus-die-maus":
            return self._ausdiemaus()
        return self._mausgeflippt()

    def _hands(self) -> list[list[str]]:
        """Each seat's own view shows its own hand, so the engine decides what a hand is."""
        return [self.game.view(s).get("hand") or [] for s in range(self.game.players)]

    def _maumau(self) -> Any:
        from rich.console import Group
        from rich.text import Text

        from mauseloch.tui.maumau import pretty, suit_text

        view, lang = self.game.view(None), self.lang
        lines = [
            f"   {shown(self.names[s])}{' ▶' if view['to_move'] == s else '  '} "
            + (" ".join(pretty(c, lang=lang) for c in hand) or f"[dim]{t('term.noCards', lang)}[/]")
            for s, hand in enumerate(self._hands())
        ]
        top = "   " + t("term.replayMm", lang, card=pretty(view["top"], lang=lang))
        if view["wish"]:
            top += "   " + t("mm.wish", lang, suit=suit_text(view["wish"], lang))
        if view["penalty"]:
            top += "   " + t("mm.penaltyOther", lang, n=view["penalty"])
        top += "   " + t("term.drawPile", lang, n=view["draw_pile"])
        return Group(*(Text.from_markup(line) for line in [*lines, top]))

    def _ausdiemaus(self) -> Any:
        from rich.table import Table

        from mauseloch.tui.ausdiemaus import SHORT_LEGEND, card_short, card_text

        view, lang = self.game.view(None), self.lang
        table = Table(box=None, padding=(0, 1), show_header=True)
        for col, right in (("", False), (t("am.stackCol", lang), True), (t("am.chipsCol", lang), True),
                           (t("term.stackTopFirst", lang), False)):  # fmt: skip
            table.add_column(col, justify="right" if right else "left")
        chase = view["chase"]
        for s, cards in enumerate(self._stacks()):
            role = ""
            if chase and chase["chaser"] == s:
                role = f" [bold red](must catch, {plural(chase['attempts_left'], 'attempt')} left)[/]"
            elif chase and chase["owner"] == s:
                role = " [magenta](mouse owner)[/]"
            mark = " ▶" if view["to_move"] == s else ""
            table.add_row(
                shown(self.names[s]) + mark + role,
                plural(view["stacks"][s], "card"),
                str(view["chips"][s]),
                " ".join(card_short(c) for c in cards) or "[dim]—[/]",
            )
        table.caption = (
            f"pile: {card_text(view['top'])} ({plural(len(view['pile']), 'card')})   "
            f"chips left: {view['chips_left']}   [dim]({SHORT_LEGEND})[/]"
        )
        table.caption_justify = "left"
        return table

    def _stacks(self) -> list[list[str]]:
        """Every stack's cards, top first: a replay may see what no player's view shows.

        The engine offers no view of the face-down stacks, so this reads the game's own stacks;
        they are only read, never changed.
        """
        from mauseloch.games.ausdiemaus import CARD_STR

        return [[CARD_STR[c] for c in stack] for stack in self.game.stacks]

    def _mausgeflippt(self) -> Any:
        from rich.console import Group
        from rich.padding import Padding
        from rich.table import Table
        from rich.text import Text

        from mauseloch.tui.mausgeflippt import mouse_text, piles_text, pretty, scores_table

        view = self.game.view(None)
        parts: list[Any] = [scores_table(view, self.names, expand=False, lang=self.lang)]
        if view["mouse"] is not None:
            parts.append(
                Padding(
                    Text.from_markup(mouse_text(view, tell_protected=True, lang=self.lang).replace("\n\n", "\n")),
                    (0, 3),
                )
            )
        parts.append(Padding(Text.from_markup(f"[dim]{piles_text(view, self.lang)}[/]"), (0, 3)))
        hands = Table.grid(padding=(0, 1))
        for s, hand in enumerate(self._hands()):
            hands.add_row(
                shown(self.names[s]) + ":",
                ", ".join(pretty(c, self.lang) for c in hand) or f"[dim]{t('term.noCards', self.lang)}[/]",
            )
        parts.append(Padding(hands, (0, 3)))
        return Group(*parts)

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
    from mauseloch.tui.maumau import _show_standings

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
            Replayer(console, game.record(), game.events, lang, at).run(interactive)
            if game.is_over:
                shadow.games[-1] = game
                shadow.deal_over()
                _show_standings(console, shadow, names, lang)
                if shadow.between_deals:
                    shadow.next_deal()
    except KeyboardInterrupt:
        console.print(f"\n[yellow]{t('term.replayStopped', lang)}[/]")
        raise typer.Exit(EXIT_INTERRUPTED) from None
