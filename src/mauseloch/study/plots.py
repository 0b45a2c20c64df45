"""The figures of the study tools and the learner, drawn with matplotlib: its one home in the library.

Each function takes what :mod:`mauseloch.study.simulate`, :mod:`mauseloch.study.tournament` or a
learning run (:mod:`mauseloch.games.maumau.learn.dmc`) reports and writes an image. matplotlib is imported inside
them, on the headless Agg backend, so that importing this module costs nothing and no window opens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mauseloch.extras import needs

if TYPE_CHECKING:
    from mauseloch.study.simulate import SimulationReport
    from mauseloch.study.tournament import TournamentReport


def plot_formats() -> list[str]:
    """The file suffixes matplotlib can draw into (``--plot`` is checked against them first)."""
    _pyplot()
    from matplotlib.figure import Figure

    return sorted(Figure().canvas.get_supported_filetypes())


def _pyplot() -> Any:
    """matplotlib's pyplot on the headless Agg backend (the ``sim`` extra brings matplotlib)."""
    with needs("sim", "plotting"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    return plt


def plot_simulation(rep: SimulationReport, path: Path) -> Path:
    """Win shares with their intervals and the histogram of game lengths, as a PNG."""
    plt = _pyplot()

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    seats = rep["seats"]
    xs = [row["seat"] for row in seats]
    shares = [100 * row["win_share"] for row in seats]
    err = [
        [100 * (row["win_share"] - row["ci95"][0]) for row in seats],
        [100 * (row["ci95"][1] - row["win_share"]) for row in seats],
    ]
    ax1.bar(xs, shares, yerr=err, capsize=4, color="#d08c2c")
    ax1.axhline(100 / rep["players"], color="grey", linestyle="--", linewidth=1, label="1 / players")
    ax1.set_xticks(xs)
    ax1.set_xlabel("seat")
    ax1.set_ylabel("win share (%), 95 % Wilson interval")
    ax1.legend()
    ax1.set_title(f"{rep['game']}, {rep['players']} players, {rep['games']:,} games")
    hist = rep["length"]["histogram"]
    ax2.bar(
        [b["from"] for b in hist], [b["games"] for b in hist],
        width=[b["to"] - b["from"] + 1 for b in hist], align="edge", color="#4a7ab0",
    )  # fmt: skip
    ax2.set_xlabel(f"game length ({rep['length']['unit']})")
    ax2.set_ylabel("games")
    reasons = ", ".join(f"{k} {100 * v['share']:.1f} %" for k, v in rep["reasons"].items())
    ax2.set_title(f"mean {rep['length']['mean']:.1f}; {reasons}", fontsize=9)
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def plot_tournament(rep: TournamentReport, path: Path) -> Path:
    """Win shares and ratings per bot with their intervals, as an image."""
    plt = _pyplot()

    rows = rep["kinds"]
    names = [r["bot"] for r in rows]
    xs = list(range(len(rows)))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))

    def errors(values: list[float], cis: list[list[float] | None]) -> list[list[float]]:
        return [[v - c[0] if c else 0.0 for v, c in zip(values, cis, strict=True)],
                [c[1] - v if c else 0.0 for v, c in zip(values, cis, strict=True)]]  # fmt: skip

    shares = [100 * r["win_share"]["mean"] for r in rows]
    share_ci = [[100 * x for x in r["win_share"]["ci95"]] if r["win_share"]["ci95"] else None for r in rows]
    ax1.bar(xs, shares, yerr=errors(shares, share_ci), capsize=4, color="#d08c2c")
    ax1.axhline(100 / rep["players"], color="grey", linestyle="--", linewidth=1, label="1 / players")
    ax1.set_xticks(xs, names)
    ax1.set_ylabel("win share per seat (%), 95 % interval")
    ax1.legend()
    ax1.set_title(f"{rep['game']}, {rep['players']} players, {rep['deals']:,} deals, {rep['games']:,} games")
    ratings = [r["rating"] for r in rows]
    ax2.bar(xs, ratings, yerr=errors(ratings, [r["rating_ci95"] for r in rows]), capsize=4, color="#4a7ab0")
    ax2.axhline(0, color="grey", linewidth=1)
    ax2.set_xticks(xs, names)
    ax2.set_ylabel("rating (Elo scale, mean 0), 95 % bootstrap")
    ax2.set_title("Bradley–Terry ratings", fontsize=10)
    fig.tight_layout()
    target = Path(path)
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def plot_learning_curve(run_dir: str | Path, path: str | Path | None = None) -> Path:
    """The learning curve of a :mod:`mauseloch.games.maumau.learn.dmc` run (win share against the heuristic over
    CPU hours, from its ``log.jsonl``) as a PNG, by default ``curve.png`` beside the log."""
    plt = _pyplot()

    run_dir = Path(run_dir)
    rows = [json.loads(line) for line in (run_dir / "log.jsonl").read_text().splitlines() if line.strip()]
    out = Path(path) if path else run_dir / "curve.png"
    fig, ax = plt.subplots(figsize=(7, 4))
    hours = [r["cpu"] / 3600 for r in rows]
    for key, label, chance in (("win2", "heads-up", 0.5), ("win4", "one of four", 0.25)):
        mean = [100 * r[key]["win"] for r in rows]
        lo = [100 * r[key]["ci95"][0] for r in rows]
        hi = [100 * r[key]["ci95"][1] for r in rows]
        line = ax.plot(hours, mean, marker="o", label=f"{label} vs heuristic")[0]
        ax.fill_between(hours, lo, hi, alpha=0.2, color=line.get_color())
        ax.axhline(100 * chance, ls=":", color=line.get_color())
    ax.set_xlabel("training CPU hours")
    ax.set_ylabel("win share (%), 95 % interval")
    ax.set_title("Mau-Mau Deep Monte Carlo: greedy policy vs heuristic (duplicate deals)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
