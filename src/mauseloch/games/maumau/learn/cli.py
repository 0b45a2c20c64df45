"""``mauseloch train mau-mau``: train a learned Mau-Mau policy (Deep Monte Carlo, ``learn.dmc``).

Needs the ``train`` extra (``pip install 'mauseloch[train]'``: JAX, Flax, Optax on the CPU).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mauseloch.extras import needs

with needs("train", __name__):
    import typer

if TYPE_CHECKING:
    from mauseloch.games.maumau.learn.dmc import Entry


def command(
    game: str = typer.Argument(..., help="The game: mau-mau (the only one with learned bots)."),
    config: Path = typer.Option(..., "--config", "-c", help="The run's TOML config (configs/maumau-learned.toml)."),  # noqa: B008
    run: Path = typer.Option(..., "--run", "-r", help="The run's folder: checkpoints, policies, log, curve."),  # noqa: B008
    minutes: float | None = typer.Option(None, "--minutes", "-m", help="Train until the run's CPU minutes reach this."),
    resume: bool = typer.Option(False, "--resume", help="Go on from the run folder's checkpoint."),
    threads: int = typer.Option(1, "--threads", help="CPU threads for JAX (the machine is shared: 1 by default)."),
) -> None:
    """Train a learned Mau-Mau bot: Deep Monte Carlo against a league, on the batched kernel."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(stderr=True, highlight=False)

    def fail(text: str) -> None:
        console.print(f"[red]Error:[/] {escape(text)}", soft_wrap=True)
        raise typer.Exit(2)

    from mauseloch.games.maumau import INFO as MAUMAU  # the one game the learner plays

    if game.strip().lower() != MAUMAU.name:
        fail(f"learned bots exist for {MAUMAU.name} only, got {game!r}")
    if threads < 1:
        fail(f"--threads must be at least 1, got {threads}")
    if minutes is not None and minutes <= 0:
        fail(f"--minutes must be positive, got {minutes}")
    if any((run / name).exists() for name in ("checkpoint.pkl", "fit.jsonl", "hands.jsonl")) and not resume:
        fail(f"{run} holds a run already: give --resume to go on with it, or another --run folder")
    # Before JAX loads: its CPU thread pools take their size from these.
    eigen = "true" if threads > 1 else "false"
    os.environ.setdefault("XLA_FLAGS", f"--xla_cpu_multi_thread_eigen={eigen} intra_op_parallelism_threads={threads}")
    try:
        import jax  # noqa: F401
    except ImportError:
        fail("training needs the train extra: pip install 'mauseloch[train]' (JAX, Flax, Optax)")
    import tomllib

    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from mauseloch.games.maumau.learn.dmc import Config, Trainer

    try:
        with open(config, "rb") as f:
            method = tomllib.load(f).get("method", "dmc")
    except (OSError, tomllib.TOMLDecodeError) as exc:
        fail(f"config {config}: {exc}")
    if method == "distill":
        _distill(config, run, resume, console, fail)
        return
    if method == "hands":
        _hands(config, run, console, fail)
        return
    if method != "dmc":
        fail(f"config {config}: method must be dmc, distill or hands, got {method!r}")
    try:
        cfg = Config.load(config)
    except (OSError, ValueError, TypeError) as exc:
        fail(f"config {config}: {exc}")
    trainer = Trainer(cfg, run)
    if resume and not trainer.restore():
        console.print(f"no checkpoint in {run}: starting a new run")
    total = 60.0 * (cfg.minutes if minutes is None else minutes)
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
        console=console,
    ) as bar:  # fmt: skip
        task = bar.add_task("train mau-mau (CPU s)", total=total, status="", completed=int(trainer.counters["cpu"]))

        def progress(entry: Entry) -> None:
            status = f"{entry['games']:,} games, {entry['updates']:,} updates, loss {entry['loss']:.3f}"
            bar.update(task, completed=min(entry["cpu"], total), status=status)
            if "win2" in entry:
                two, four = entry["win2"], entry["win4"]
                bar.console.print(
                    f"{entry['cpu'] / 3600:.2f} CPU h: vs heuristic {100 * two['win']:.1f} % heads-up, "
                    f"{100 * four['win']:.1f} % as one of four ({entry['policy']})"
                )

        trainer.run(minutes, progress)
    console.print(f"done: {run / 'best.npz'}, learning curve {run / 'curve.png'}")


def _hands(config: Path, run: Path, console: Any, fail: Callable[[str], None]) -> None:
    """Fit the model of the rivals' hands (learn/hands.py) on games it plays first."""
    from mauseloch.games.maumau.learn.hands import HandsConfig, HandsEntry, fit

    try:
        cfg = HandsConfig.load(config)
    except (OSError, ValueError, TypeError) as exc:
        fail(f"config {config}: {exc}")
        return
    if (run / "hands.jsonl").exists():
        (run / "hands.jsonl").unlink()  # --resume: the fit starts over (it takes minutes)

    def progress(entry: HandsEntry) -> None:
        held, room = entry["held_loss"], entry["room_loss"]
        held_out = ", ".join(f"{p} players {held[p]:.3f} (by room alone {room[p]:.3f})" for p in held)
        console.print(f"epoch {entry['epoch']}: loss {entry['train_loss']:.4f}; held out: {held_out}")

    with console.status("gathering positions and fitting the hand model"):
        fit(cfg, run, progress)
    console.print(f"done: {run / 'hands.npz'}, the fit's log {run / 'hands.jsonl'}")


def _distill(config: Path, run: Path, resume: bool, console: Any, fail: Callable[[str], None]) -> None:
    """Label the positions the config asks for with the search (resumable), then fit the network."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from mauseloch.games.maumau.learn.distill import DistillConfig, FitEntry, first_stage, fit, label

    try:
        cfg = DistillConfig.load(config)
    except (OSError, ValueError, TypeError) as exc:
        fail(f"config {config}: {exc}")
        return
    if resume and (run / "fit.jsonl").exists():
        (run / "fit.jsonl").unlink()  # the fit starts over on all the data labelled so far
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as bar:
        if cfg.init and not Path(cfg.init).exists():
            if not cfg.init_config:
                fail(f"config {config}: init {cfg.init} does not exist, and no init_config says how to make it")
            stage = bar.add_task("first stage: Deep Monte Carlo (CPU s)", total=int(60 * cfg.init_minutes))
            first_stage(cfg, lambda entry: bar.update(stage, completed=min(entry["cpu"], 60 * cfg.init_minutes)))
        if cfg.student_deals and not Path(cfg.student).exists():
            fail(f"config {config}: student {cfg.student} does not exist (the policy the teacher's seat plays)")
        task = bar.add_task("label with the search (shards)", total=None)
        label(cfg, run, lambda done, total: bar.update(task, completed=done, total=total))
        fitting = bar.add_task("fit (epochs)", total=cfg.epochs)

        def progress(entry: FitEntry) -> None:
            bar.update(fitting, completed=int(entry["epoch"]))
            two, four = entry["win2"], entry["win4"]
            held = "-" if entry["held_loss"] is None else f"{entry['held_loss']:.4f}"
            bar.console.print(
                f"epoch {entry['epoch']}: loss {entry['train_loss']:.4f} (held out {held}), "
                f"vs heuristic {100 * two['win']:.1f} % heads-up, {100 * four['win']:.1f} % as one of four"
            )

        last = fit(cfg, run, progress)
    if last.get("epoch") == "average":
        two, four = last["win2"], last["win4"]
        console.print(
            f"the mean weights of epochs {last['first']}-{last['to']}: vs heuristic {100 * two['win']:.1f} % heads-up, "
            f"{100 * four['win']:.1f} % as one of four"
        )
    console.print(f"done: {run / 'best.npz'}, the fit's log {run / 'fit.jsonl'}")
