"""The ``mauseloch`` command: play | simulate | tournament | analyze | rules | replay | serve.

Each command names the extra it needs (:data:`COMMANDS`, :mod:`mauseloch.extras`): its help says
it, and without it the command says in one line what to install, before any work.

The library (``mauseloch`` minus this file, ``tui``, ``server.cli`` and the games' ``cli``
modules) never imports Typer or Rich, and matplotlib only in ``study.plots``; the commands of the
simulator and tournaments live here, their Rich tables in ``tui.reports``, a game's own commands
with its game (:mod:`mauseloch.game_commands`), the terminal games and the server in their own
modules. Heavy libraries are imported inside the commands,
so ``mauseloch --help`` stays quick.
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mauseloch import GAMES
from mauseloch.extras import MissingExtra, hint, needs, pip_line, require
from mauseloch.game_commands import GAME_COMMANDS
from mauseloch.tui.games import TERMINAL_GAMES

with needs("terminal", __name__):
    import typer

if TYPE_CHECKING:
    from mauseloch.study.backend import Backend

app = typer.Typer(
    name="mauseloch",
    help="Mau-Mau, Aus die Maus! and Mausgeflippt: play, simulate, hold tournaments, analyze, replay and serve.",
    no_args_is_help=True,
    add_completion=False,
)


def _show_version(value: bool) -> None:
    if value:
        from mauseloch import __version__

        typer.echo(f"mauseloch {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", help="Show the version and exit.", callback=_show_version, is_eager=True
    ),
) -> None:
    """Mau-Mau, Aus die Maus! and Mausgeflippt: play, simulate, analyze, replay and serve."""


play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")


class ProgressBar:
    """The commands' Rich progress bar on stderr; ``notice(text)`` shows a slow first step
    (compiling a kernel) in its description until the first work is done."""

    def __init__(self, description: str, total: int, transient: bool = False) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.description = description
        self._bar = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=Console(stderr=True, highlight=False), transient=transient,
        )  # fmt: skip
        self._task = self._bar.add_task(description, total=total)
        self._noticed = False

    def __enter__(self) -> ProgressBar:
        self._bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.__exit__(None, None, None)

    def notice(self, text: str) -> None:
        self._noticed = True
        self._bar.update(self._task, description=f"{self.description}: {text}")
        self._bar.console.print(text, markup=False)  # also in logs, where the bar does not show

    def advance(self, amount: int) -> None:
        if self._noticed:
            self._noticed = False
            self._bar.update(self._task, description=self.description)
        self._bar.advance(self._task, amount)


def _run_checks(games: int, plot_file: Path | None, backend_name: str, workers: int, address: str | None) -> Backend:
    """What ``simulate`` and ``tournament`` check before any work (``ValueError`` names what is
    wrong), and then their backend (made last: it may start Ray)."""
    from mauseloch.study.backend import make_backend
    from mauseloch.study.outputs import check_output_file
    from mauseloch.study.plots import plot_formats

    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    if workers < 0:
        raise ValueError(f"--workers must be 0 (all cores) or more, got {workers}")
    if plot_file is not None:
        check_output_file(plot_file, "--plot", plot_formats())
    return make_backend(backend_name, workers, address)


def simulate_command(
    game: str = typer.Argument(..., help="The game: mau-mau, aus-die-maus or mausgeflippt."),
    players: int | None = typer.Option(None, "--players", "-p", help="Players (default: the game's minimum)."),
    games: int = typer.Option(10_000, "--games", "-n", help="Number of games."),
    bots: str = typer.Option("random", "--bots", "-b", help="A bot kind for every seat, or a comma list per seat."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the run; game i uses derive_seed(seed, i)."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="A rule option as NAME=VALUE; repeatable."
    ),
    workers: int = typer.Option(0, "--workers", "-w", help="Workers (0: all cores, or the Ray cluster's CPUs)."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    plot_file: Path | None = typer.Option(None, "--plot", help="Draw the report into this PNG file."),  # noqa: B008
    engine: bool = typer.Option(False, "--engine", help="Play through the engine API even where a kernel exists."),
    backend_name: str = typer.Option("local", "--backend", help="Where games run: local (processes) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray: the cluster's address (default: start one here)."),
    lang_text: str | None = typer.Option(None, "--lang", help="de or en (default: from the locale, LANG)."),
) -> None:
    """Simulate many games between bots and report win shares, game lengths and figures."""
    from rich.console import Console
    from rich.markup import escape

    from mauseloch.locale import t
    from mauseloch.study.plots import plot_simulation
    from mauseloch.study.simulate import make_spec, report, simulate
    from mauseloch.tui.common import pick_lang
    from mauseloch.tui.reports import print_simulation

    console = Console(stderr=json_out, highlight=False)
    lang = pick_lang(console, lang_text)
    try:
        spec = make_spec(game, players, bots, seed, option, engine)
        backend = _run_checks(games, plot_file, backend_name, workers, address)
    except ValueError as exc:
        console.print(f"[red]Error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    with ProgressBar(f"{spec.game} ×{backend.workers()} ({backend.name})", games, transient=json_out) as bar:
        tally = simulate(spec, games, progress=bar.advance, backend=backend, notice=bar.notice)
    rep = report(spec, tally)
    if json_out:
        sys.stdout.write(json.dumps(rep, indent=1) + "\n")
    else:
        print_simulation(rep, console, lang)
    if plot_file is not None:
        target = plot_simulation(rep, plot_file)
        console.print(t("sim.plot", lang, path=target))


def tournament_command(
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

    from mauseloch.study import tournament as tour
    from mauseloch.study.plots import plot_tournament
    from mauseloch.tui.reports import print_tournament

    console = Console(stderr=json_out, highlight=False)
    try:
        spec = tour.make_tournament(game, bots, players, seed, option, seating)
        backend = _run_checks(games, plot_file, backend_name, workers, address)
    except ValueError as exc:
        console.print(f"[red]Error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None
    total = games * len(spec.arrangements)
    label = f"{spec.sim.game}: {' vs '.join(spec.kinds)} ×{backend.workers()} ({backend.name})"
    with ProgressBar(label, total, transient=json_out) as bar:
        results = tour.play(spec, games, backend, bar.advance, bar.notice)
    rep = tour.report(spec, results)
    if json_out:
        sys.stdout.write(json.dumps(rep, indent=1) + "\n")
    else:
        print_tournament(rep, console)
    if plot_file is not None:
        console.print(f"Plot written to {plot_tournament(rep, plot_file)}")


def rules_command(
    game: str = typer.Argument(..., help="The game: mau-mau, aus-die-maus or mausgeflippt."),
    lang_text: str | None = typer.Option(None, "--lang", help="de or en (default: from the locale, LANG)."),
) -> None:
    """Show the rules of a game (from the project's docs/rules) in German or English."""
    from rich.console import Console
    from rich.markdown import Markdown

    from mauseloch.locale.rules import rules_text
    from mauseloch.tui.common import fail, pick_lang

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    try:
        text = rules_text(game, lang)
    except ValueError as exc:
        raise fail(console, exc) from None
    console.print(Markdown(text))


Command = Callable[..., None]


def _replay() -> Command:
    from mauseloch.tui.replay import command

    return command


def _serve() -> Command:
    from mauseloch.server.cli import command

    return command


def _play(game: str) -> Callable[[], Command]:
    return lambda: TERMINAL_GAMES[game]().command


# (group, command name, what gives its function (imported then: a module that needs an extra
# raises MissingExtra), the extra it needs beyond the command line's Typer and Rich); ``play`` has
# one command per game the terminal plays (mauseloch.tui.games), in the order of the games; the
# commands of one game's own (its deal search, its trainer) come last (mauseloch.game_commands)
COMMANDS: tuple[tuple[str, str, Callable[[], Command], str | None], ...] = (
    *(("play", name, _play(name), "terminal") for name in GAMES if name in TERMINAL_GAMES),
    ("app", "simulate", lambda: simulate_command, "sim"),
    ("app", "tournament", lambda: tournament_command, "sim"),
    ("app", "rules", lambda: rules_command, None),
    ("app", "replay", _replay, None),
    ("app", "serve", _serve, "web"),
    *(("app", c.name, c.load, c.extra) for c in GAME_COMMANDS),
)


def _stop(exc: MissingExtra) -> typer.Exit:
    typer.echo(f"Error: {exc}", err=True)
    return typer.Exit(1)


def _checked(function: Callable[..., None], extra: str, what: str) -> Callable[..., None]:
    """``function``, first making sure ``extra`` is installed (Typer reads the signature through
    ``functools.wraps``)."""

    @functools.wraps(function)
    def command(*args: Any, **kwargs: Any) -> None:
        try:
            require(extra, what)
        except MissingExtra as exc:
            raise _stop(exc) from None
        function(*args, **kwargs)

    return command


def _unavailable(exc: MissingExtra) -> Callable[..., None]:
    """The stand-in for a command whose module cannot be imported without its extra: whatever it
    is given, it says what to install."""

    def command() -> None:
        raise _stop(exc)

    command.__doc__ = f"Not installed here: {exc}"
    return command


def _add(group: typer.Typer, name: str, target: Callable[[], Command], extra: str | None) -> None:
    what = f"mauseloch {'play ' if group is play_app else ''}{name}"
    # every command's help ends with what it needs (Rich markup: the bracket is escaped)
    epilog = f"Needs {pip_line(extra)}.".replace("[", "\\[") if extra is not None else None
    try:
        function = target()
    except MissingExtra as exc:
        said = hint(what, extra, [exc.name]) if extra is not None and exc.name else str(exc)
        stand_in = _unavailable(MissingExtra(said, name=exc.name))
        settings = {"allow_extra_args": True, "ignore_unknown_options": True}
        group.command(name, context_settings=settings, epilog=epilog, add_help_option=False)(stand_in)
        return
    if extra is not None:
        function = _checked(function, extra, what)
    group.command(name, epilog=epilog)(function)


for _group, _name, _target, _extra in COMMANDS:
    _add(play_app if _group == "play" else app, _name, _target, _extra)
importlib.import_module("mauseloch.server.botcli").register(app)  # bot-token, bot connect
importlib.import_module("mauseloch.server.backup").register(app)  # backup, restore


def main() -> None:
    # serve starts its numeric libraries itself once it serves, in a thread that blocks the
    # signals (server/warmup.py): importing them here would cost every restart 0.3 s of CPU
    if sys.argv[1:2] != ["serve"]:
        _leave_ctrl_c_to_the_main_thread()
    app()


def _leave_ctrl_c_to_the_main_thread() -> None:
    """Start numpy's BLAS threads with SIGINT blocked, so that they keep it blocked for good.

    The kernel may hand a process's SIGINT to any thread that does not block it; one taken by a
    BLAS thread while the main thread waits for the player's input was lost until the next key
    (a terminal game ignored Ctrl-C now and then, seen by sending SIGINT to that thread alone;
    tests/test_terminal.py checks every thread's mask). Where SciPy is installed (the ``train`` and
    ``research`` extras bring it) numba loads scipy.linalg, whose own OpenBLAS starts a second
    pool: it is loaded here too. Importing them costs about 0.1 s a command (0.3 s with SciPy)."""
    import contextlib
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # Windows: no such threads' signals
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        # numpy: its thread pool starts at import (where an extra brought it); numba loads
        # scipy.linalg, and with it SciPy's own OpenBLAS pool, where SciPy is installed
        with contextlib.suppress(ImportError):
            import numpy  # noqa: F401
        with contextlib.suppress(ImportError):
            import scipy.linalg  # noqa: F401
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


if __name__ == "__main__":
    main()
