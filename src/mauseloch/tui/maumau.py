"""``mauseloch play mau-mau``: one person in the terminal against bots, drawn with Rich."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from mauseloch.games.maumau import parse_card, parse_wish

from .common import (
    check_save_path,
    fail,
    leave_unfinished,
    plural,
    save_for_user,
    say_error,
    shown,
)

SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_STYLE = {"C": "bold", "S": "bold", "H": "bold red", "D": "bold red"}
SUIT_WORD = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
END_WHY = {
    "out": "a player is out of cards",
    "move_limit": "the move limit is reached",
    "stalemate": "no hand has a card that fits and none is left to draw",
}


def pretty(card: str, style: str | None = None) -> str:
    """Rich markup for a card, the one way every screen shows one: the spec's rank letter (T is
    the ten, as in the moves and messages) and the suit's symbol, whose shape, not its colour,
    tells suits apart. ``style`` overrides the suit's colour (dim for cards that cannot go)."""
    return f"[{style or SUIT_STYLE[card[1]]}]{card[0]}{SUIT_SYMBOL[card[1]]}[/]"


def seat_name(seat: int, me: int | None) -> str:
    """'You' for the player at the keyboard, 'Bot n' at a game against bots, 'Seat n' in a replay."""
    if me is None:
        return f"Seat {seat}"
    return "You" if seat == me else f"Bot {seat}"


def describe(event: dict[str, Any], me: int | None) -> str | None:
    """A line of text for an event as ``me`` may see it (None: not worth a line)."""
    kind = event["type"]
    who = seat_name(event["seat"], me) if "seat" in event else ""
    if kind == "play":
        return f"{who} played {pretty(event['card'])}"
    if kind == "wish":
        return f"{who} wished {SUIT_SYMBOL[event['suit']]} {SUIT_WORD[event['suit']]}"
    if kind == "penalty":
        return f"[yellow]Penalty of {event['amount']} is open for {seat_name(event['seat'], me)}[/]"
    if kind == "take":
        return f"{who} took the penalty of {event['amount']}"
    if kind == "skip":
        return f"{who} must skip a turn"
    if kind == "reverse":
        return f"{who} reversed the direction of play"
    if kind == "draw":
        if "cards" in event:
            cards = " ".join(pretty(c) for c in event["cards"]) or "nothing"
            return f"{who} drew {cards}"
        return f"{who} drew {plural(event['count'], 'card')}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "reshuffle":
        return f"The discard pile was shuffled into a new draw pile ({event['count']} cards)"
    if kind == "mau":
        return f"[bold magenta]{who}: Mau![/]"
    if kind == "mau_mau":
        return f"[bold magenta]{who}: Mau-Mau![/]"
    if kind == "jack_no_win":
        return f"{who} played a last jack, which may not win: one penalty card"
    if kind == "start":
        return f"The first card is {pretty(event['card'])}"
    if kind == "end":
        return f"[bold]Game over: {END_WHY.get(event['reason'], shown(event['reason']))}.[/]"
    return None


def command(
    players: int = typer.Option(4, "--players", "-p", help="Number of players, 2 to 5 (you are seat 0)."),
    bots: str = typer.Option(
        "heuristic",
        "--bots",
        "-b",
        help="Bot kind for every other seat (random or heuristic), or a comma list with one kind per bot seat.",
    ),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Seed for the shuffle (default: a fresh one)."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="A rule option as NAME=VALUE, e.g. ace_skips=true; repeatable."
    ),
    save: Path | None = typer.Option(None, "--save", help="Write the game's record to this file at the end."),  # noqa: B008
) -> None:
    """Play Mau-Mau in the terminal against bots."""
    from rich.console import Console

    import mauseloch
    from mauseloch.bots import bots_for_seats, make_bot

    console = Console(highlight=False)
    info = mauseloch.GAMES["mau-mau"]
    try:
        options = info.options_from_text(option)
        game = mauseloch.new_game("mau-mau", players=players, seed=seed, options=options)
        kinds = bots_for_seats("mau-mau", bots, game.players - 1)
        seat_bots = {s: make_bot("mau-mau", kinds[s - 1], seed=game.seed + s) for s in range(1, game.players)}
    except ValueError as exc:
        raise fail(console, exc) from None
    check_save_path(console, save)

    me = 0
    against = kinds[0] + " bots" if len(set(kinds)) == 1 else "bots (" + ", ".join(kinds) + ")"
    console.print(f"[bold]Mau-Mau[/] — {players} players, you against {against}. Seed {game.seed}.")
    house = [info.option(k).description for k, v in game.options.items() if v is True]
    console.print(f"House rules: {'; '.join(house) or 'none'}. The game ends after {game.options['move_limit']} moves.")
    console.print(
        "Type a card (7H, TD or 10D, J♣:S) or its number, [bold]d[/]raw, [bold]p[/]ass, [bold]t[/]ake, or q to quit.\n"
    )
    seen = 0
    try:
        while not game.is_over:
            if game.to_move == me:
                seen = _show_news(console, game, me, seen)
                _show_table(console, game, me)
                _play_human(console, game, me)
            else:
                seat = game.to_move
                assert seat is not None
                game.play(seat_bots[seat].choose(game.view(seat), game.legal_moves()))
    except EOFError:  # q, or the input ended
        raise leave_unfinished(console, game, save, interrupted=False) from None
    except KeyboardInterrupt:
        raise leave_unfinished(console, game, save, interrupted=True) from None

    _show_news(console, game, me, seen)
    _show_result(console, game, me)
    save_for_user(console, game, save)


def _show_news(console: Any, game: Any, me: int, seen: int) -> int:
    from mauseloch import event_for

    events = game.events
    lines = []
    for event in events[seen:]:
        visible = event_for(event, me)
        text = describe(visible, me) if visible is not None and event["type"] != "deal" else None
        if text:
            lines.append(text)
    if lines:
        console.print("[dim]Since your last move:[/]")
        for line in lines:
            console.print(f"  {line}")
    return len(events)


def _show_table(console: Any, game: Any, me: int) -> None:
    from rich.panel import Panel

    view = game.view(me)
    legal = set(view["legal_moves"])
    legal_cards = {m.partition(":")[0] for m in legal}
    others = "   ".join(
        f"{seat_name(s, me)}: {plural(c, 'card')}" + (" ←" if s == view["to_move"] else "")
        for s, c in enumerate(view["hand_counts"])
        if s != me
    )
    top = f"Top card {pretty(view['top'])}"
    if view["wish"]:
        top += f"   [bold yellow]wish: {SUIT_SYMBOL[view['wish']]} {SUIT_WORD[view['wish']]}[/]"
    if view["penalty"]:
        top += f"   [bold red]penalty open: draw {view['penalty']} or play a seven[/]"
    direction = "clockwise" if view["direction"] == 1 else "counter-clockwise"
    hand = "  ".join(
        f"[cyan]{i}[/]:{pretty(c)}" if c in legal_cards else f"[dim]{i}:[/]{pretty(c, 'dim')}"
        for i, c in enumerate(view["hand"], 1)
    )
    extra = [m for m in ("draw", "pass", "take") if m in legal]
    lines = [
        others,
        f"{top}   draw pile {view['draw_pile']}   play goes {direction}",
        "",
        f"Your hand: {hand}",
    ]
    if view["drawn"]:
        lines.append(f"You drew {pretty(view['drawn'])}: play it or pass.")
    if extra:
        lines.append("Also possible: " + ", ".join(extra))
    console.print(Panel("\n".join(lines), title=f"Move {view['moves_played'] + 1}", expand=False))


def _play_human(console: Any, game: Any, me: int) -> None:
    """Read moves until the engine accepts one; bad input gets a clear message and changes nothing.
    A jack that may go but comes without a good wish asks for the wish again, saying what is wrong."""
    view = game.view(me)
    hand: list[str] = view["hand"]
    legal: list[str] = view["legal_moves"]
    shortcuts = {"d": "draw", "p": "pass", "t": "take"}
    while True:
        text = console.input("[bold]Your move> [/]").strip()
        if text.lower() in ("q", "quit", "exit"):
            raise EOFError
        if not text:
            continue
        move = shortcuts.get(text.lower(), text)
        number, colon, wish = move.partition(":")
        if number.strip().isdigit():
            index = int(number)
            if not 1 <= index <= len(hand):
                say_error(console, f"There is no card {index}: your hand has cards 1 to {len(hand)}.", prefix="")
                continue
            move = hand[index - 1] + colon + wish
            number = hand[index - 1]
        try:
            card = parse_card(number)
        except ValueError:
            card = ""  # not a card: the engine says what is wrong
        if card and any(m.startswith(card + ":") for m in legal):  # a jack that may go
            move = f"{card}:{_ask_wish(console, wish, bool(colon))}"
        try:
            game.play(move, seat=me)  # the engine judges; a refused move changes nothing
        except ValueError as exc:
            say_error(console, exc, prefix="")
            continue
        return


def _ask_wish(console: Any, wish: str, typed: bool) -> str:
    """The wished suit: the one typed after the colon if good, else asked for until it is."""
    while True:
        try:
            return parse_wish(wish)
        except ValueError as exc:
            if typed:  # a wish was given (maybe an empty line): say what is wrong with it
                say_error(console, exc, prefix="")
        wish = console.input("Wish a suit — C ♣, S ♠, H ♥ or D ♦: ")
        if wish.strip().lower() in ("q", "quit", "exit"):
            raise EOFError
        typed = True


def _show_result(console: Any, game: Any, me: int) -> None:
    from rich.table import Table

    result = game.result()
    view = game.view(me)
    table = Table(title=f"Result: {END_WHY.get(result['reason'], shown(result['reason']))}")
    for column in ("Rank", "Player", "Cards", "Points", "Left in hand"):
        table.add_column(column)
    order = sorted(range(game.players), key=lambda s: result["ranks"][s])
    for s in order:
        table.add_row(
            str(result["ranks"][s]),
            seat_name(s, me),
            str(result["cards"][s]),
            str(result["points"][s]),
            " ".join(pretty(c) for c in view["hands"][s]),
        )
    console.print(table)
    rank = result["ranks"][me]
    console.print("[bold green]You won![/]" if rank == 1 else f"You finished at rank {rank}.")
