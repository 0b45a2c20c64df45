"""``mauseloch analyze aus-die-maus``: search Aus die Maus! deals for the longest game or for
endless ones and save them as records (the search: :mod:`.analyze`).

Needs the ``sim`` extra beside the command line's Typer and Rich.
"""

from __future__ import annotations

from pathlib import Path

from mauseloch.extras import needs

with needs("terminal", __name__):
    import typer


def command(
    game: str = typer.Argument(..., help="The game to analyse (only aus-die-maus has no decisions to search over)."),
    players: int = typer.Option(4, "--players", "-p", help="Players, 2 to 6."),
    search_mode: str = typer.Option("longest", "--search", help="longest (the longest game) or endless (AM-11 loops)."),
    budget: float = typer.Option(10.0, "--budget", help="Seconds to search."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the search (its first deal and its swaps)."),
    option: list[str] = typer.Option(  # noqa: B008
        [], "--option", "-o", help="A rule option as NAME=VALUE (small_deck, chips); repeatable."
    ),
    out: Path = typer.Option(Path("."), "--out", help="Directory for the record files of the finds."),  # noqa: B008
    keep: int = typer.Option(3, "--keep", help="Endless search: how many distinct endless deals to save."),
    lang_text: str | None = typer.Option(None, "--lang", help="de or en (default: from the locale, LANG)."),
) -> None:
    """Search Aus die Maus deals for the longest game or for endless ones; save them as records."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from mauseloch.core.registry import game_info
    from mauseloch.games.ausdiemaus.analyze import GAME, save_finds, search
    from mauseloch.games.ausdiemaus.kernel import needs_compiling, search_deals
    from mauseloch.locale import t
    from mauseloch.study.outputs import check_output_dir
    from mauseloch.tui.common import end_reason, pick_lang

    console = Console(highlight=False)
    lang = pick_lang(console, lang_text)
    try:
        info = game_info(game)
        if info.name != GAME:
            raise ValueError(f"analyze searches deals of {GAME} only (a game without decisions), not {info.name}")
        n = info.check_players(players)
        options = info.resolve_options(n, info.options_from_text(option))
        mode = search_mode.strip().lower()
        if mode not in ("longest", "endless"):
            raise ValueError(f"--search must be longest or endless, got {search_mode!r}")
        if not budget > 0:
            raise ValueError(f"--budget must be a positive number of seconds, got {budget}")
        if keep < 1:
            raise ValueError(f"--keep must be at least 1, got {keep}")
        if not 0 <= seed < 1 << 64:
            raise ValueError(f"--seed must be in [0, 2**64), got {seed}")
        check_output_dir(out, "--out")  # before the search, whose finds would be lost
    except ValueError as exc:
        console.print(f"[red]Error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(2) from None

    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(), console=console,
    ) as bar:  # fmt: skip
        first = "compiling the fast kernel, once (10 s or more)…" if needs_compiling(search_deals) else "loading…"
        task = bar.add_task(f"{mode} search, {n} players", total=budget, status=first)

        def progress(elapsed: float, best: int, endless: int) -> None:
            status = f"longest {best} flips" if mode == "longest" else f"{endless} endless; {best} flips without a chip"
            bar.update(task, completed=min(elapsed, budget), status=status)

        result = search(n, options, mode, budget, seed, keep, progress)
    rate = result.deals / max(result.seconds, 1e-9)
    console.print(t("an.rate", lang, deals=f"{result.deals:,}", seconds=f"{result.seconds:.1f}", rate=f"{rate:,.0f}"))
    if not result.finds:
        console.print(t("an.noneEndless" if mode == "endless" else "an.none", lang))
        return
    saved = save_finds(result, out, seed)
    if mode == "endless":
        console.print(t("an.endless", lang, n=f"{result.endless_total:,}", saved=len(saved)))
    for (path, g), find in zip(saved, result.finds, strict=True):
        res = g.result()
        extra = t("an.loop", lang, n=find.loop_from) if find.loop_from >= 0 else ""
        reason = end_reason(info.name, res["reason"], lang)
        said = t("an.find", lang, flips=f"[bold]{g.flips}[/]", reason=reason, extra=extra, path=escape(str(path)))
        console.print(said)
