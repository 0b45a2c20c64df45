"""The simulator's and the tournament's reports as Rich tables (``mauseloch simulate`` and
``mauseloch tournament``): the terminal's rendering of what the study modules compute as plain data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mauseloch.extras import needs
from mauseloch.locale import Lang, t

with needs("terminal", __name__):
    from rich.console import Console
    from rich.table import Table

if TYPE_CHECKING:
    from mauseloch.study.simulate import SimulationReport
    from mauseloch.study.tournament import MeanCI, TournamentReport


def print_simulation(rep: SimulationReport, console: Console, lang: Lang = "en") -> None:
    """The simulator's report (:func:`mauseloch.study.simulate.report`) as Rich tables."""
    opts = ", ".join(f"{k}={v}" for k, v in rep["options"].items()) or t("sim.none", lang)
    head = t("sim.head", lang, game=f"[bold]{rep['game']}[/]", games=f"{rep['games']:,}", players=rep["players"],
             seed=rep["seed"], options=opts)  # fmt: skip
    console.print(head)
    seats = Table(title=t("sim.wins", lang), title_justify="left")
    for col in ("seat", "bot", "wins", "share", "ci", "sole", "rank"):  # shares in %
        seats.add_column(t(f"sim.col.{col}", lang), justify="left" if col == "bot" else "right")
    for row in rep["seats"]:
        low, high = row["ci95"]
        seats.add_row(
            str(row["seat"]), row["bot"], f"{row['wins']:,}", f"{100 * row['win_share']:.2f} %",
            f"{100 * low:.2f}–{100 * high:.2f}", f"{row['sole_wins']:,}", f"{row['mean_rank']:.3f}",
        )  # fmt: skip
    console.print(seats)
    length = rep["length"]
    q = length["quantiles"]
    line = t("sim.lengthLine", lang, mean=f"{length['mean']:.2f}", sd=f"{length['sd']:.2f}", min=length["min"],
             max=length["max"])  # fmt: skip
    console.print(
        f"[bold]{t('sim.length', lang)}[/] ({length['unit']}): {line}; " + ", ".join(f"{k} {v}" for k, v in q.items())
    )
    hist = length["histogram"]
    top = max(b["games"] for b in hist)
    for b in hist:
        bar = "█" * max(1 if b["games"] else 0, round(40 * b["games"] / top))
        console.print(f"  {b['from']:>5}–{b['to']:<5} {b['games']:>10,}  {bar}")
    reasons = Table(title=t("sim.reasons", lang), title_justify="left")
    reasons.add_column(t("sim.col.reason", lang))
    reasons.add_column(t("sim.col.games", lang), justify="right")
    reasons.add_column(t("sim.col.shareOf", lang), justify="right")
    for name, r in rep["reasons"].items():
        reasons.add_row(name, f"{r['games']:,}", f"{100 * r['share']:.3f} %")
    console.print(reasons)
    if rep["seat_figures"]:
        figs = Table(title=t("sim.figures", lang), title_justify="left")
        figs.add_column(t("sim.col.figure", lang))
        for s in range(rep["players"]):
            figs.add_column(t("sim.seatCol", lang, n=s, bot=rep["bots"][s]), justify="right")
        figs.add_column(t("sim.allSeats", lang), justify="right")
        for name, values in rep["seat_figures"].items():
            figs.add_row(name, *(f"{v:.3f}" for v in values), f"{sum(values):.3f}")
        console.print(figs)
    for name, value in rep["game_figures"].items():
        console.print(t("sim.perGame", lang, name=name, value=f"{value:.3f}"))
    by_bot = rep["bot_figures"]
    if len(by_bot) > 1:
        table = Table(title=t("sim.perBot", lang), title_justify="left")
        table.add_column("")
        for kind, kind_row in by_bot.items():
            table.add_column(
                f"{kind} (seat{'s' if len(kind_row['seats']) > 1 else ''} {', '.join(map(str, kind_row['seats']))})",
                justify="right",
            )
        rows = by_bot.values()
        table.add_row(t("sim.col.share", lang), *(f"{100 * r['win_share']:.2f} %" for r in rows))
        table.add_row(t("sim.col.rank", lang), *(f"{r['mean_rank']:.3f}" for r in rows))
        for name in rep["seat_figures"]:
            table.add_row(name, *(f"{r['figures'][name]:.3f}" for r in rows))
        console.print(table)


def print_tournament(rep: TournamentReport, console: Console) -> None:
    """The tournament's report (:func:`mauseloch.study.tournament.report`) as Rich tables."""

    def ci(x: MeanCI, scale: float = 1.0, digits: int = 2) -> str:
        if x["ci95"] is None:
            return "–"
        return f"{scale * x['ci95'][0]:.{digits}f}–{scale * x['ci95'][1]:.{digits}f}"

    opts = ", ".join(f"{k}={v}" for k, v in rep["options"].items()) or "none"
    console.print(
        f"[bold]{rep['game']}[/] tournament: {rep['deals']:,} deals × {len(rep['arrangements'])} arrangements "
        f"({rep['seating']}) = {rep['games']:,} games, {rep['players']} players, seed {rep['seed']}, options {opts}"
    )
    table = Table(title="Per bot (95 % intervals over deals; ratings: bootstrap)", title_justify="left")
    for col in ("bot", "win share per seat", "mean rank", "rating"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for row in rep["kinds"]:
        r_ci = row["rating_ci95"]
        table.add_row(
            row["bot"],
            f"{100 * row['win_share']['mean']:.2f} % ({ci(row['win_share'], 100)})",
            f"{row['mean_rank']['mean']:.3f} ({ci(row['mean_rank'], 1, 3)})",
            f"{row['rating']:+.0f}" + ("" if r_ci is None else f" ({r_ci[0]:+.0f} to {r_ci[1]:+.0f})"),
        )
    console.print(table)
    names = list(rep["kinds"][0]["figures"]) if rep["kinds"] else []
    if names:
        figs = Table(title="Figures at the end (mean per seat and game, 95 % interval)", title_justify="left")
        figs.add_column("figure")
        for row in rep["kinds"]:
            figs.add_column(row["bot"], justify="right")
        for name in names:
            figs.add_row(
                name, *(f"{r['figures'][name]['mean']:.3f} ({ci(r['figures'][name], 1, 3)})" for r in rep["kinds"])
            )
        console.print(figs)
    if len(rep["kinds"]) > 1:
        pair = Table(title="Placed above (row over column; ties half)", title_justify="left")
        pair.add_column("")
        kinds = [r["bot"] for r in rep["kinds"]]
        for b in kinds:
            pair.add_column(b, justify="right")
        for a in kinds:
            pair.add_row(a, *("–" if a == b else f"{100 * rep['pairwise'][a][b]:.1f} %" for b in kinds))
        console.print(pair)
    console.print(f"Ratings: {rep['rating']['model']}; {rep['rating']['scale']}; {rep['rating']['interval']}.")
