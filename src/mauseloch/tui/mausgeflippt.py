"""``mauseloch play mausgeflippt``: the speed game in real time in the terminal, with Textual.

After a short countdown the next mouse appears. Your hand is on the keys 1–9, 0, a, b… (``catch``),
space shouts "Mausgeflippt!" (``flip``). Bots react after the times they sampled (see
``games/mausgeflippt/bots/reaction.py``), in real time. Who was first is decided by the one referee
(:mod:`mauseloch.realtime.referee`), the same as in the simulator: this client only gives it the times —
the bots' sampled ones, and yours, measured here with a monotonic clock from the moment the
mouse is drawn on screen — and wakes it with timers of the app. The engine never reads a clock.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mauseloch.core.events import Event, public_type, seen_by, tag
from mauseloch.extras import needs
from mauseloch.games.mausgeflippt.events import (
    MausgeflipptCatch,
    MausgeflipptCheeseOpen,
    MausgeflipptCheeseTaken,
    MausgeflipptDraw,
    MausgeflipptEnd,
    MausgeflipptMausgeflippt,
    MausgeflipptProtectedCatch,
    MausgeflipptReaction,
    MausgeflipptReshuffle,
    MausgeflipptReveal,
    MausgeflipptTimeout,
    MausgeflipptWrongCard,
)
from mauseloch.games.mausgeflippt.views import MausgeflipptView, ShownMouse
from mauseloch.locale import Lang, list_names, t, tn
from mauseloch.tui.common import (
    check_save_path,
    fail,
    lang_option,
    leave_unfinished,
    options_help,
    pick_lang,
    save_for_user,
    shown,
)

with needs("terminal", __name__):
    import typer

COLOUR_STYLE = {
    "blue": "bold dodger_blue1",
    "brown": "bold dark_orange3",
    "yellow": "bold yellow",
    "green": "bold green3",
    "red": "bold red1",
}
# Keys for the cards of the hand, in hand order: 1–9, 0, then letters (q quits, so no q).
CARD_KEYS = "1234567890abcdefghijklmnoprstuvwxyz"
OUTCOME_EVENTS = ("catch", "wrong_card", "mausgeflippt", "protected_catch", "cheese_taken", "timeout")
DrawSeen = public_type(MausgeflipptDraw)  # what the other seats see of a draw (derived: no cards)


def pretty(card: str, lang: Lang = "en") -> str:
    """Rich markup for a clothing card in the page's words: its kind and its colour's name, drawn
    in that colour (the word tells colours apart where the colour does not show or cannot be seen)."""
    kind, _, colour = card.partition("-")
    face = t(
        "mg.face", lang, kind=_word(f"mg.kind.{kind}", kind, lang), colour=_word(f"mg.colour.{colour}", colour, lang)
    )
    return f"[{COLOUR_STYLE.get(colour, 'bold')}]{face}[/]"


def _word(key: str, fallback: str, lang: Lang) -> str:
    """The catalogue's word for ``key``, else ``fallback`` as it is (escaped for markup)."""
    text = t(key, lang)
    return shown(fallback) if text == key else text


def cheese_name(cheese: str, lang: Lang = "en") -> str:
    return _word(f"mg.cheese.{cheese}", cheese, lang)


def mouse_name(mouse: str, lang: Lang = "en") -> str:
    """``mouse 7`` (``Maus 7``) for the engine's ``m07``."""
    number = mouse[1:].lstrip("0")
    return t("mg.mouse", lang, n=number) if mouse[:1] == "m" and number.isdigit() else shown(mouse)


def hand_cells(hand: list[str], lang: Lang = "en") -> Any:
    """The hand as cells of ``key card``: laid out in columns, a key is never parted from its card
    by a line break, however many cards and however narrow the screen (down to one card a line)."""
    from rich.columns import Columns
    from rich.text import Text

    cells = [
        Text.from_markup(f"[bold cyan]{key}[/] {pretty(card, lang)}", overflow="fold")
        for key, card in zip(CARD_KEYS, hand, strict=False)
    ]
    return Columns(cells, padding=(0, 3)) if cells else Text(t("mgt.empty", lang))


def seat_name(seat: int, me: int | None, lang: Lang = "en") -> str:
    """'You' at the keyboard, 'Bot n' for the others, 'Seat n' in a replay (``me`` None)."""
    if me is None:
        return t("common.seat", lang, n=seat)
    return t("mgt.you", lang) if seat == me else t("mgt.bot", lang, n=seat)


def scores_table(view: MausgeflipptView, names: list[str], expand: bool = True, lang: Lang = "en") -> Any:
    """Every seat's cards in hand, mice, laundry, cheese and score; ◆ marks who reveals next."""
    from rich.table import Table

    table = Table(expand=expand, box=None)
    for key in ("", "mgt.cardsCol", "mg.miceCol", "mg.laundryCol", "mg.cheeseCol", "mg.scoreCol"):
        table.add_column(t(key, lang) if key else "", justify="left" if not key else "right")
    for s, name in enumerate(names):
        mark = " ◆" if s == view.revealer and not view.is_over else ""
        table.add_row(
            shown(name) + mark,
            str(view.hand_counts[s]),
            str(view.mice[s]),
            str(len(view.laundry[s])),
            str(len(view.cheese[s])),
            f"[bold]{view.score[s]}[/]",
        )
    return table


def mouse_text(mouse: ShownMouse, tell_protected: bool = False, lang: Lang = "en") -> str:
    """Markup for the shown mouse: its number, its cheese and the clothes it wears. Whether the
    open cheese protects it is for the players to notice; a replay may say so."""
    wears = "   ".join(pretty(c, lang) for c in mouse.wears)
    name = mouse_name(mouse.mouse, lang)
    name = name[:1].upper() + name[1:]
    guard = f"  [bold red]({t('mg.protectedNote', lang)})[/]" if tell_protected and mouse.protected else ""
    carries = t("mg.carries", lang, cheese=f"[bold]{cheese_name(mouse.cheese, lang)}[/]")
    return f"[bold]{name}[/] {carries}{guard}\n\n{wears}"


def score_parts(mice: int, laundry: int, cheese: int, score: int, lang: Lang = "en") -> str:
    """ "3 mice, 1 piece of laundry, 0 cheeses, 1 point": each count with its own noun."""
    counts = (("end.mg.mice", mice), ("end.mg.laundry", laundry), ("end.mg.cheese", cheese), ("end.mg.points", score))
    return ", ".join(tn(key, n, lang) for key, n in counts)


def piles_text(view: MausgeflipptView, lang: Lang = "en") -> str:
    if view.open_cheese:
        cheese = t("mg.openCheese", lang, cheese=f"[bold]{cheese_name(view.open_cheese, lang)}[/]")
        cheese += f" ({tn('mg.cheesesLeft', view.cheeses_left, lang)})"
    else:
        cheese = t("mg.noCheese", lang)
    mice = view.mouse_pile + (1 if view.mouse else 0)
    return f"{cheese}   {tn('mg.miceLeft', mice, lang)}   {t('term.drawPile', lang, n=view.draw_pile)}"


def describe(event: Event, me: int | None, mice_left: int = 0, lang: Lang = "en") -> str | None:
    """A line of text for an event as ``me`` may see it (the copy :func:`seen_by` gives ``me``;
    None: not worth a line); ``mice_left``: mice still in the pile when the game ends."""
    seat: int | None = getattr(event, "seat", None)
    who = shown(seat_name(seat, me, lang)) if seat is not None else ""
    mine = seat is not None and seat == me

    def said(key: str, **params: object) -> str:
        """``key`` with the seat as its subject (``key.you`` when it is the player's own)."""
        return t(f"{key}.you" if mine else key, lang, name=who, **params)

    match event:
        case MausgeflipptReveal(mouse=mouse):
            return said("mgt.ev.reveal", mouse=mouse_name(mouse, lang))
        case MausgeflipptReaction(move=move, ms=ms):
            if move == "timeout":
                return None  # nobody reacted: the timeout event says so
            if move == "flip":
                move = t("mg.flip", lang)
            elif move.startswith("catch "):
                move = pretty(move.removeprefix("catch "), lang)
            else:
                move = shown(move)
            if ms is None:
                return t("mg.ev.reaction", lang, name=who, move=move)
            return t("mg.ev.reactionMs", lang, name=who, move=move, ms=ms)
        case MausgeflipptCatch(card=card, mouse=mouse):
            return f"[bold green]{said('mgt.ev.catch', mouse=mouse_name(mouse, lang), card=pretty(card, lang))}[/]"
        case MausgeflipptWrongCard(card=card, mouse=mouse):
            return f"[bold red]{said('mgt.ev.wrong', mouse=mouse_name(mouse, lang), card=pretty(card, lang))}[/]"
        case MausgeflipptMausgeflippt(mouse=mouse, correct=correct, fitting=fitting, protected=protected):
            if protected:
                return f"[bold red]{said('mgt.ev.flipProtected')}[/]"
            if correct:
                return f"[bold green]{t('mgt.ev.flipRight', lang, name=who, mouse=mouse_name(mouse, lang))}[/]"
            cards = ", ".join(pretty(c, lang) for c in fitting)
            return f"[bold red]{t('mgt.ev.flipWrong', lang, name=who, cards=cards)}[/]"
        case MausgeflipptProtectedCatch(card=card):
            return f"[bold red]{said('mgt.ev.protectedCatch', card=pretty(card, lang))}[/]"
        case MausgeflipptCheeseTaken(cheese=cheese):
            return f"[bold red]{said('mgt.ev.cheeseTaken', cheese=cheese_name(cheese, lang))}[/]"
        case MausgeflipptCheeseOpen(cheese=cheese, left=left):
            return t("mgt.ev.cheeseOpen", lang, cheese=f"[bold]{cheese_name(cheese, lang)}[/]", n=left)
        case MausgeflipptDraw(cards=cards):  # whole: the drawer's own (or a replay's)
            return said("mgt.ev.drew", cards=", ".join(pretty(c, lang) for c in cards) or t("mgt.ev.drewNothing", lang))
        # another seat's draw: the count, not the cards; the derived struct keeps MausgeflipptDraw's
        # count, which mypy cannot see through public_type
        case DrawSeen(count=count):  # type: ignore[misc]
            return tn("mgt.ev.drewCount", count, lang, name=who)
        case MausgeflipptReshuffle(count=count):
            return tn("mg.ev.reshuffle", count, lang)
        case MausgeflipptTimeout(mouse=mouse):
            return t("mg.out.timeoutText", lang, mouse=mouse_name(mouse, lang))
        case MausgeflipptEnd(reason=reason):
            if reason == "cheese":
                why = t("mg.reason.cheese", lang)
            elif mice_left:
                why = tn("mgt.reason.unreacted", mice_left, lang)
            else:
                why = t("mgt.reason.allTaken", lang)
            return f"[bold]{t('mgt.ev.end', lang, reason=why)}[/]"
    return None


def make_app(
    game: Any,
    bots: dict[int, Any],
    me: int = 0,
    *,
    time_scale: float = 1.0,
    countdown: int = 3,
    clock: Callable[[], float] = time.monotonic,
    ties_seed: int | None = None,
    lang: Lang = "en",
) -> Any:
    """The Textual app for ``game`` with ``me`` at the keyboard and ``bots`` on the other seats.

    ``time_scale`` shortens every wait (countdown, bot reactions, window) for tests and demos;
    reaction times are recorded in game milliseconds (real time divided by the scale).
    ``ties_seed`` seeds the referee's tie stream (default: the tie stream of the game's seed).
    ``lang``: the language of every text on the screen.
    """
    from rich.text import Text
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.containers import Vertical
    from textual.widgets import Footer, Header, RichLog, Static

    from mauseloch.realtime.referee import Referee

    referee = Referee.for_seed(game, game.seed) if ties_seed is None else Referee(game, ties_seed)

    class MausgeflipptApp(App[None]):
        TITLE = "Mausgeflippt"
        CSS = """
        #scores { height: auto; }
        #mouse { height: 7; border: round $accent; padding: 0 1; content-align: center middle; }
        #hand { height: auto; border: round $primary; padding: 0 1; }
        #log { height: 1fr; border: round $panel; }
        """
        BINDINGS = [  # noqa: RUF012
            ("q", "quit_game", t("mgt.quitKey", lang)),
            ("space", "flip", t("mg.flip", lang)),
            Binding(
                "ctrl+c", "interrupt", t("mgt.quitKey", lang), show=False, priority=True
            ),  # Textual only offers ctrl+q
        ]

        def __init__(self) -> None:
            super().__init__()
            self.game = game
            self.referee = referee
            self.me = me
            self.round = 0  # which mouse the pending timers belong to
            self.shown_at = 0.0
            self.seen = game.event_count
            self.status = ""
            self.finished = False
            self.interrupted = False  # left with Ctrl-C

        def compose(self) -> ComposeResult:
            yield Header()
            with Vertical():
                yield Static(id="scores")
                yield Static(id="mouse")
                yield Static(id="hand")
                yield RichLog(id="log", markup=True, wrap=True)
            yield Footer()

        def on_mount(self) -> None:
            self.query_one("#hand", Static).border_title = t("mgt.handTitle", lang)
            opts = self.game.options
            intro = t(
                "mgt.intro",
                lang,
                game="[bold]Mausgeflippt[/]",
                seed=self.game.seed,
                n=self.game.players,
                hand=opts["hand_size"],
                window=opts["window_ms"],
            )
            space = t("mg.spaceKey", lang)
            keys = t("mgt.keys", lang, cards="[bold]1–9[/]", space=f"[bold]{space}[/]", q="[bold]q[/]")
            self.log_line(f"{intro} {keys}")
            self.refresh_table()
            if self.game.is_over:
                self.show_end()
            else:
                self.start_countdown()

        # -- drawing ------------------------------------------------------------------
        def log_line(self, text: str | Text) -> None:
            """``text``: markup built here (user and engine text inside escaped), or plain ``Text``."""
            self.query_one("#log", RichLog).write(text)

        def refresh_table(self) -> None:
            view = self.game.typed_view(self.me)
            names = [
                seat_name(s, self.me, lang)
                + (f" ({_word(f'bot.{bots[s].kind}', bots[s].kind, lang)})" if s in bots else "")
                for s in range(game.players)
            ]
            self.query_one("#scores", Static).update(scores_table(view, names, lang=lang))
            body = mouse_text(view.mouse, lang=lang) if view.mouse is not None else self.status or " "
            self.query_one("#mouse", Static).update(f"{body}\n\n[dim]{piles_text(view, lang)}[/]")
            self.query_one("#hand", Static).update(hand_cells(self.game.hand(self.me), lang))

        def show_news(self) -> None:
            events = self.game.event_log(self.seen)
            for event in events:
                mice_left = self.game.typed_view(None).mouse_pile
                text = describe(seen_by(event, self.me), self.me, mice_left, lang)
                if text:
                    self.log_line(text)
            self.seen += len(events)

        # -- the flow: countdown, reveal, reactions, pause ----------------------------
        def after(self, seconds: float, callback: Callable[[], object]) -> None:
            """Call ``callback`` on the app ``seconds`` from now, late rather than never.

            Textual's one-shot ``set_timer`` skips its call when its moment has passed by the time
            its task first reads the clock (the process was descheduled a moment, as on a loaded
            machine): with waits of a millisecond or less that leaves a window open for good.
            """

            async def wait() -> None:
                await asyncio.sleep(seconds)
                self.call_next(callback)

            self.run_worker(wait(), group="after")

        def start_countdown(self, step: int | None = None) -> None:
            step = countdown if step is None else step
            if step > 0:
                if self.game.revealer == self.me:
                    who = t("mg.youReveal", lang)
                else:
                    who = t("mg.revealerNext.name", lang, name=shown(seat_name(self.game.revealer, self.me, lang)))
                self.status = f"[bold]{t('mg.countdown', lang, s=step)}[/]  ({who})"
                self.refresh_table()
                self.after(0.6 * time_scale, lambda: self.start_countdown(step - 1))
                return
            self.reveal()

        def reveal(self) -> None:
            g = self.game
            g.play("reveal", seat=g.revealer)
            self.round += 1
            current = self.round
            self.status = ""
            self.show_news()
            self.refresh_table()
            self.shown_at = clock()
            self.referee.open()
            for s, bot in bots.items():  # the bots' sampled times are known ahead: the referee waits for them
                move, ms = bot.react(g.typed_view(s), g.legal_moves(s))
                if move is not None and move != "timeout":
                    self.referee.claim(s, move, ms)
            self.wake_referee(current)

        def elapsed_ms(self) -> int:
            """Game milliseconds since the mouse was drawn (real time divided by the scale)."""
            return max(0, round((clock() - self.shown_at) * 1000 / time_scale))

        def wake_referee(self, current: int) -> None:
            """Arm a timer for the referee's next due moment (a bot's time or the deadline)."""
            due = self.referee.due()
            if due is None:
                return
            delay = max(0.0, (due - self.elapsed_ms()) / 1000 * time_scale)

            def fire() -> None:
                if self.round != current:
                    return  # this mouse is decided already
                if self.referee.advance(max(self.elapsed_ms(), due)) is not None:
                    self.resolved()
                else:
                    self.wake_referee(current)

            self.after(delay, fire)

        def resolved(self) -> None:
            self.round += 1  # pending timers of this mouse become stale
            outcome = [
                describe(e, self.me, lang=lang) or ""
                for e in self.game.event_log(self.seen)
                if tag(type(e)) in OUTCOME_EVENTS
            ]
            self.status = "\n".join(outcome)
            self.show_news()
            self.refresh_table()
            if self.game.is_over:
                self.show_end()
            else:
                self.after(1.2 * time_scale, lambda: self.start_countdown())

        def human(self, move: str) -> None:
            g = self.game
            if g.is_over:
                return
            if not g.view(None)["window_open"]:
                self.log_line(f"[dim]{t('mgt.wait', lang)}[/]")
                return
            ms = self.elapsed_ms()
            try:
                self.referee.claim(self.me, move, ms)
            except ValueError as exc:  # IllegalMove: the game and the referee are unchanged
                self.log_line(Text(str(exc), style="red"))
                return
            # decided at once: a bot whose time was earlier (its timer just late) still wins
            if self.referee.advance(ms) is not None:
                self.resolved()

        def on_key(self, event: Any) -> None:
            key = event.key
            if len(key) == 1 and key in CARD_KEYS:
                hand = self.game.view(self.me)["hand"]
                index = CARD_KEYS.index(key)
                if index >= len(hand):
                    self.log_line(Text(tn("mgt.noCard", len(hand), lang, pressed=key), style="red"))
                    return
                self.human("catch " + hand[index])

        def action_flip(self) -> None:
            self.human("flip")

        def action_quit_game(self) -> None:
            self.exit()

        def action_interrupt(self) -> None:
            self.interrupted = True
            self.exit()

        def show_end(self) -> None:
            self.finished = True
            res = self.game.result()
            winners = [seat_name(s, self.me, lang) for s in range(self.game.players) if res["ranks"][s] == 1]
            names = list_names(winners, lang)
            self.status = f"[bold]{tn('mgt.winners', max(res['score']), lang, names=names)}[/]"
            self.refresh_table()
            order = sorted(range(self.game.players), key=lambda s: res["ranks"][s])
            for s in order:
                line = score_parts(res["mice"][s], res["laundry"][s], res["cheese"][s], res["score"][s], lang)
                self.log_line(
                    "  " + t("mgt.rankLine", lang, rank=res["ranks"][s], name=seat_name(s, self.me, lang), line=line)
                )
            self.log_line(t("mgt.pressQ", lang, q="[bold]q[/]"))

    return MausgeflipptApp()


def command(
    players: int = typer.Option(4, "--players", "-p", help="Number of players, 2 to 6 (you are seat 0)."),
    bots: str = typer.Option(
        "normal",
        "--bots",
        "-b",
        help="Bot level for every other seat (little, child, easy, normal or hard), or a comma list with one per bot"
        " seat.",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle (default: a fresh one)."),
    option: list[str] = typer.Option([], "--option", "-o", help=options_help("mausgeflippt")),  # noqa: B008
    save: Path | None = typer.Option(None, "--save", help="Write the game's record to this file at the end."),  # noqa: B008
    lang_text: str | None = lang_option(),
    deal: str | None = typer.Option(None, "--deal", help="Play the deal a deal code names (e.g. F4-1Z3KQ8V0)."),
) -> None:
    """Play Mausgeflippt in real time against reaction bots."""
    from rich.console import Console

    import mauseloch
    from mauseloch.bots import bots_for_seats, make_bot
    from mauseloch.core.dealcode import code_of, decode
    from mauseloch.core.engine import derive_seed
    from mauseloch.core.seeds import STREAM_BOTS
    from mauseloch.locale.rules import house_rules

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    info = mauseloch.GAMES["mausgeflippt"]
    try:
        options = info.options_from_text(option)
        if deal is not None:
            named = decode(deal)
            if named.game != info.name:
                raise ValueError(t("term.dealGame", lang, code=deal.strip(), game=named.game, wanted=info.name))
            players, seed, options = named.players, named.seed, named.options | options
        game = mauseloch.new_game("mausgeflippt", players=players, seed=seed, options=options)
        levels = bots_for_seats("mausgeflippt", bots, game.players - 1)
        seat_bots = {
            s: make_bot("mausgeflippt", levels[s - 1], seed=derive_seed(game.seed, STREAM_BOTS + s))
            for s in range(1, game.players)
        }
    except ValueError as exc:
        raise fail(console, exc) from None
    check_save_path(console, save)
    # said before the full-screen app starts, and kept on the screen after it ends
    console.print(t("term.dealCode", lang, code=code_of(game)))
    console.print(t("term.houseRules", lang, rules=" · ".join(house_rules(info.name, game.options, lang))))

    app = make_app(game, seat_bots, me=0, lang=lang)
    try:
        app.run()
    except KeyboardInterrupt:  # a SIGINT from outside the app's keyboard
        record = app.referee.record()
        raise leave_unfinished(console, game, save, interrupted=True, record=record, offer=True, lang=lang) from None
    record = app.referee.record()  # with every reaction the referee saw
    if not game.is_over:
        raise leave_unfinished(
            console, game, save, interrupted=app.interrupted, record=record, offer=app.interrupted, lang=lang
        )  # Ctrl-C in the app offers to save, as a SIGINT from outside and the other games do
    save_for_user(console, game, save, record, lang)
    res = game.result()
    console.print(t("mgt.yourScore", lang, score=res["score"][0], rank=res["ranks"][0], n=game.players))


# -- replays (``mauseloch replay``): the terminal registers this module for the game (tui/games.py)
def replay_move(move: str, lang: Lang = "en") -> str | None:
    """A move in the reader's words, a clothing card drawn as the game's screen draws it."""
    kind, _, card = move.partition(" ")
    if kind == "catch" and card:
        return t("term.replayMove.catch", lang, card=pretty(card, lang))
    if move in ("reveal", "flip", "timeout"):
        return t(f"term.replayMove.{move}", lang)
    return None


def replay_event(event: Event, game: Any, names: list[str], lang: Lang = "en") -> str | None:
    """What happened, as the game's screen says it to a spectator (whole: a replay sees every hand)."""
    return describe(event, None, game.typed_view(None).mouse_pile, lang)


def replay_board(game: Any, names: list[str], lang: Lang = "en") -> Any:
    """The scores, the shown mouse (and whether it is protected), the piles and every hand."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    view = game.typed_view(None)
    parts: list[Any] = [scores_table(view, names, expand=False, lang=lang)]
    if view.mouse is not None:
        parts.append(
            Padding(
                Text.from_markup(mouse_text(view.mouse, tell_protected=True, lang=lang).replace("\n\n", "\n")), (0, 3)
            )
        )
    parts.append(Padding(Text.from_markup(f"[dim]{piles_text(view, lang)}[/]"), (0, 3)))
    hands = Table.grid(padding=(0, 1))
    for s in range(game.players):
        hand = game.view(s).get("hand") or []
        hands.add_row(
            shown(names[s]) + ":", ", ".join(pretty(c, lang) for c in hand) or f"[dim]{t('term.noCards', lang)}[/]"
        )
    parts.append(Padding(hands, (0, 3)))
    return Group(*parts)
