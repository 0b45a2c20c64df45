"""The ``mauseloch`` command: play | simulate | tournament | analyze | replay | serve.

Each command lives in the module that owns its concern; this file only wires them up.
Those modules import heavy libraries inside the command, so ``mauseloch --help`` stays quick.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import typer

app = typer.Typer(
    name="mauseloch",
    help="Mau-Mau, Aus die Maus! and Mausgeflippt: play, simulate, hold tournaments, analyze, replay and serve.",
    no_args_is_help=True,
    add_completion=False,
)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")

# (group, command name, module holding a function named ``command``)
COMMANDS = (
    ("play", "mau-mau", "mauseloch.tui.maumau"),
    ("play", "aus-die-maus", "mauseloch.tui.ausdiemaus"),
    ("play", "mausgeflippt", "mauseloch.tui.mausgeflippt"),
    ("app", "simulate", "mauseloch.simulate"),
    ("app", "analyze", "mauseloch.analyze"),
    ("app", "replay", "mauseloch.tui.replay"),
    ("app", "serve", "mauseloch.server.cli"),
)

for group, name, module_name in COMMANDS:
    module = importlib.import_module(module_name)
    (play_app if group == "play" else app).command(name)(module.command)


@app.command("tournament")
def tournament(
    game: str = typer.Argument(..., help="The game: mau-mau, aus-die-maus or mausgeflippt."),
    bots: str = typer.Option(..., "--bots", "-b", help="The bots, one per seat (e.g. heuristic,random)."),
    games: int = typer.Option(1_000, "--games", "-n", help="Deals; each is played in every seat arrangement."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players (default: one per bot named)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed; deal d uses derive_seed(seed, d)."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="A rule option as NAME=VALUE; repeatable."
    ),
    seating: str = typer.Option("permutations", "--seating", help="permutations (every ordering) or rotations."),
    workers: int = typer.Option(0, "--workers", "-w", help="Workers (0: all cores, or the Ray cluster's CPUs)."),
    backend_name: str = typer.Option("local", "--backend", help="Where games run: local (processes) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray: the cluster's address (default: start one here)."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    plot_file: Path | None = typer.Option(None, "--plot", help="Draw win shares and ratings into this PNG file."),  # noqa: B008
) -> None:
    """Duplicate tournament: every deal in every seat arrangement; win shares, points and ratings."""
    from rich.console import Console
    from rich.markup import escape

    from mauseloch import tournament as tour
    from mauseloch.backend import make_backend
    from mauseloch.outputs import check_output_file
    from mauseloch.simulate import ProgressBar, plot_formats

    console = Console(stderr=json_out, highlight=False)
    try:
        spec = tour.make_tournament(game, bots, players, seed, option, seating)
        if games < 1:
            raise ValueError(f"--games must be at least 1, got {games}")
        if plot_file is not None:
            check_output_file(plot_file, "--plot", plot_formats())
        backend = make_backend(backend_name, workers, address)  # last: it may start Ray
    except ValueError as exc:
        console.print(f"[red]Error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    total = games * len(spec.arrangements)
    label = f"{spec.sim.game}: {' vs '.join(spec.kinds)} ×{backend.workers()} ({backend.name})"
    with ProgressBar(label, total, transient=json_out) as bar:
        results = tour.play(spec, games, backend, bar.advance)
    rep = tour.report(spec, results)
    if json_out:
        sys.stdout.write(json.dumps(rep, indent=1) + "\n")
    else:
        tour.print_report(rep, console)
    if plot_file is not None:
        console.print(f"Plot written to {tour.plot(rep, plot_file)}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
