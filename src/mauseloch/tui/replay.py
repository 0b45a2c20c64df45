"""``mauseloch replay FILE``: step through a saved record with every hand visible, or print JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer


def command(
    file: Path = typer.Argument(..., help="A record saved by 'mauseloch play --save', the web site or 'analyze'."),  # noqa: B008
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON instead of stepping through."),
    step: bool = typer.Option(
        False, "--step", help="Wait for Enter after each move (default when the terminal is interactive)."
    ),
    no_step: bool = typer.Option(False, "--all", help="Print every move without waiting."),
) -> None:
    """Replay a saved game: every move with every hand visible, then the result."""
    from rich.console import Console

    from mauseloch.record import load

    console = Console(highlight=False)
    try:
        game = load(file)
    except ValueError as exc:
        console.print(f"[red]Error:[/] {exc}")
        raise typer.Exit(2) from None

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
    _step_through(console, game.record(), interactive)


def _step_through(console: Any, record: dict[str, Any], interactive: bool) -> None:
    import mauseloch

    from .maumau import describe as describe_maumau

    game = mauseloch.new_game(
        record["game"], players=record["players"], seed=record["seed"], options=record["options"], deck=record["deck"]
    )
    console.print(
        f"[bold]{mauseloch.GAMES[game.name].title}[/] — {game.players} players, seed {game.seed}, "
        f"{len(record['moves'])} moves"
    )
    seen = 0
    for i, entry in enumerate([None, *record["moves"]]):
        if entry is not None:
            seat, move = entry[0], entry[1]
            timing = f" after {entry[2]} ms" if len(entry) > 2 and entry[2] is not None else ""
            game.play(move, seat=seat, ms=entry[2] if len(entry) > 2 else None)
            console.print(f"\n[bold]{i}.[/] seat {seat}: [cyan]{move}[/]{timing}")
        events = game.events
        for event in events[seen:]:
            text = describe_maumau(event, None) if game.name == "mau-mau" else _generic(event)
            if text and event["type"] != "deal":
                console.print(f"   {text}")
        seen = len(events)
        _show_hands(console, game)
        if interactive and not game.is_over and i < len(record["moves"]):
            try:
                input()
            except EOFError:
                interactive = False
    if game.is_over:
        result = game.result()
        console.print(f"\n[bold]Result[/] ({result['reason']}): ranks {result['ranks']}")
        for key, value in result.items():
            if key not in ("reason", "ranks"):
                console.print(f"   {key}: {value}")
    else:
        console.print("\n[yellow]The record ends before the game does.[/]")


def _generic(event: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "private"))
    return f"{event['type']}: {fields}" if fields else event["type"]


def _show_hands(console: Any, game: Any) -> None:
    """Every hand: each seat's own view shows its own hand, so the engine decides what a hand is."""
    parts = []
    for seat in range(game.players):
        view = game.view(seat)
        hand = view.get("hand")
        if hand is not None:
            parts.append(f"seat {seat}: {' '.join(hand) if hand else '-'}")
    if game.name == "mau-mau":
        view = game.view(None)
        wish = f" wish {view['wish']}" if view["wish"] else ""
        penalty = f" penalty {view['penalty']}" if view["penalty"] else ""
        parts.append(f"top {view['top']}{wish}{penalty}")
    if parts:
        console.print("   [dim]" + " | ".join(parts) + "[/]")
