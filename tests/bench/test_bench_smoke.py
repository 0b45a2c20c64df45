"""Every script in bench/ runs, tiny-sized, and ends with the JSON line it promises.

A bench is run only now and then, by hand, so it can rot unseen: bench/abuse.py called a client
function of bench/server.py with an argument short, and every honest client failed for months.
Each script here runs as a subprocess, as a person runs it, with the smallest sizes
it takes and ``--json``; its stdout must be one line, a JSON object with the keys listed below
(everything else it says goes to stderr).
The figures themselves are not checked (a tiny run on a shared machine measures nothing), only
that the run did what a run does: no errors where the bench counts them.

Peers from the ``bench`` extra (RLCard, OpenSpiel, PettingZoo's leduc) are optional in the
scripts themselves: one that is not installed is left out and named in the JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.paths import ROOT

BENCH = ROOT / "bench"

# script -> (tiny arguments, keys its JSON line must hold)
RUNS: dict[str, tuple[list[str], set[str]]] = {
    "push.py": (["--tables", "4", "--seconds", "2"], {"push_p99_ms", "server_cpu_us_per_push", "pushes", "refused"}),
    "rooms.py": (
        ["--rooms", "3", "--seconds", "1"],
        {"reaction_p99_ms", "server_cpu_us_per_reaction", "reactions", "reactions_lost", "server_cpu_us_per_ping"},
    ),
    "abuse.py": (
        ["--seats", "4", "--idle", "20", "--warmup", "1", "--think-ms", "20", "--baseline-moves", "5",
         "--slowloris", "60", "--big-heads", "4", "--left-after", "2", "--restarts", "1", "--restart-tables", "3"],
        {"idle_sockets_opened", "idle_sockets_left_after_15s", "tables_created_by_attacker", "honest_seats",
         "honest_moves_during_attack", "honest_p50_ms", "honest_p99_ms", "baseline_moves", "honest_errors",
         "honest_error_kinds", "server_up", "server_log_refusal_lines", "goals_met",
         "slowloris_opened", "slowloris_left_after_15s", "slowloris_honest_p99_ms", "big_head_answers",
         "big_head_bytes_sent_max", "big_head_honest_p99_ms", "server_rss_mb_after_big_heads",
         "restart_s", "restart_ready_s", "restart_cpu_s", "restart_tables"},
    ),
    "ausdiemaus.py": (["--seconds", "0.05", "--rounds", "1"], {"bench", "seconds", "rounds", "rows"}),
    "backend.py": (["--games", "40", "--no-ray"], {"game", "games", "ray", "rows"}),
    "bots.py": (
        ["--games", "2", "--games4", "4", "--games-ablation", "2", "--level", "search-fast", "--iterations", "10",
         "--workers", "1", "--clone-repeat", "20"],
        {"level", "iterations", "clone", "search_vs_heuristic_2p", "search_vs_3_heuristic_4p", "ablation_2p",
         "gap_closed_by_inference"},
    ),
    "chaos.py": (
        ["--games", "4", "--parallel", "2"],
        {"games", "finished", "lost_moves", "resume_mismatches", "clients", "acked_moves", "elapsed_s"},
    ),
    "engine.py": (
        ["--seconds", "0.05", "--rounds", "1"],
        {"bench", "engines", "not_installed", "games", "memory_peak_kib", "kib_per_game_kept", "max_rss_mib"},
    ),
    "envs.py": (
        ["--seconds", "0.05", "--rounds", "1"], {"bench", "aec", "openspiel_rl_env_steps_per_s", "openspiel_rl_env"}
    ),
    "jax_env.py": (
        ["--batches", "2", "--seconds", "0.05", "--rounds", "1", "--steps", "2", "--no-pgx"],  # pgx: same harness
        {"bench", "steps_per_s_by_batch", "kernel_steps_per_s_by_batch", "pgx", "ratio_to_kernel_by_batch"},
    ),
    "kernel_maumau.py": (
        ["--batch", "16", "--seconds", "0.05", "--rounds", "1"],
        {"players", "batch", "not_installed", "kernel_steps_per_s", "kernel_steps_vs_engine",
         "kernel_simulate_per_s", "kernel_simulate_vs_engine", "engine_per_s", "goal_met"},
    ),
    "mausgeflippt.py": (["--seconds", "0.05", "--rounds", "1"], {"bench", "seconds", "rounds", "rows"}),
    "offline.py": (
        ["--seconds", "0.05", "--rounds", "1"],
        {"bundle_bytes", "bundle_bytes_on_disk", "within_budget", "decisions_per_s", "pyodide_vs_cpython",
         "warm_start_s", "bot_move_ms"},
    ),
    "table_moves.py": (
        ["--tables", "2", "--moves", "40", "--reps", "1", "--against", "HEAD"],
        {"server_cpu_us_per_move", "loop_work_per_move", "baseline", "ratio_to_baseline"},
    ),
    "table_open.py": (
        ["--tables", "4", "--warmup", "2", "--parallel", "2", "--reps", "1", "--against", "HEAD"],
        {"tables", "servers", "ratios"},
    ),
    "vector_env.py": (["--envs", "4", "--sync-envs", "2", "--seconds", "0.05"], {"bench", "envs", "sync_envs", "rows"}),
    "server.py": (  # once without and once with the server's figures counted and scraped
        ["--seats", "8", "--duration", "1", "--warmup", "0.5", "--client-procs", "1", "--metrics-ab", "1",
         "--scrape-every", "0.25"],
        {"runs"},
    ),
    "floor.py": (
        ["--seats", "8", "--duration", "1", "--warmup", "0.5", "--think-ms", "50", "--client-procs", "1",
         "--sockets", "4", "--rounds", "2"],
        {"floor_server_cpu_us_per_move", "server_cpu_us_per_move", "client_cpu_us_per_move", "real", "floor",
         "traffic", "write_floor", "wake_floor", "sqlite_floor", "read_floor"},
    ),
    "botapi.py": (
        ["--bots", "4", "--duration", "2", "--warmup", "1"],
        {"bots", "online", "moves", "rtt_ms_p99", "ack_ms_p99", "server_cpu_ms_per_move", "errors"},
    ),
    # two servers on one PostgreSQL and Redis: run when the suite has them (tests/server/conftest.py)
    "failover_one_address.py": (
        ["--db", "{MAUSELOCH_TEST_PG_URL}", "--redis", "{MAUSELOCH_TEST_REDIS_URL}", "--tables", "2", "--moves", "1"],
        {"tables", "sockets", "resumed_s", "max_resume_s", "refused_4429", "refused_403"},
    ),
}  # fmt: skip
# bench/fairness.py has its own smoke run (``--smoke --json``) in tests/test_fairness.py;
# bench/cpu_profile.py is a server entry, not a bench: tests/bench/test_cpu_profile.py runs it (and
# tests/bench/test_gc_watch.py bench/gc_watch.py).
# bench/_report.py is what the scripts share for --json, not a bench; bench/rolling.py runs at its
# full size in tests/server/test_rolling.py (a smoke run of it would cost as much).
ELSEWHERE = {"fairness.py", "cpu_profile.py", "loop_lag.py", "gc_watch.py", "_report.py", "rolling.py"}


def _run(script: str, args: list[str]) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args, "--json"],
        cwd=BENCH.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return json_line(script, done.stdout)


def json_line(script: str, stdout: str) -> dict[str, Any]:
    """What a bench prints on stdout under ``--json``: exactly one line, a JSON object (every
    other text goes to stderr), so that ``bench/x.py --json | jq`` works."""
    lines = stdout.splitlines()
    assert len(lines) == 1, f"{script} --json printed {len(lines)} lines on stdout, not one:\n{stdout[:3000]}"
    figures = json.loads(lines[0])
    assert isinstance(figures, dict), f"{script} --json printed {type(figures).__name__}, not an object"
    return figures


def test_every_bench_script_has_a_smoke_run() -> None:
    """A new script in bench/ gets its tiny run here (or names where it has one)."""
    scripts = {p.name for p in BENCH.glob("*.py")}
    assert scripts == set(RUNS) | ELSEWHERE


@pytest.mark.parametrize("script", sorted(RUNS))
def test_bench_runs_tiny_and_prints_its_json(script: str) -> None:
    args, keys = RUNS[script]
    for name in {a[1:-1] for a in args if a.startswith("{")}:
        if not os.environ.get(name):
            pytest.skip(f"{script} needs {name} (scripts/start-postgres.sh, scripts/start-redis.sh print them)")
    figures = _run(script, [a.format_map(os.environ) for a in args])
    assert keys <= set(figures), f"{script}: missing {sorted(keys - set(figures))}"
    if script == "abuse.py":  # every honest client failed (a missing argument): 8,122 errors, no figures
        assert figures["honest_errors"] == 0, figures["honest_error_kinds"]
        assert figures["baseline_moves"] >= 5 and figures["honest_moves_during_attack"] > 0
        assert figures["server_up"] is True
        assert figures["slowloris_left_after_15s"] <= 32 and figures["big_head_bytes_sent_max"] < 1 << 20
        assert figures["restart_tables"] >= 3 and figures["restart_s"] > 0  # the tables in play came back
    elif script == "server.py":
        plain, counted = figures["runs"]
        for run in (plain, counted):
            assert run["errors"] == 0 and run["moves"] > 0, run["error_kinds"]
            per_move = {"server_cpu_us_per_move", "server_cpu_us_per_move_by_process", "client_cpu_us_per_move"}
            assert per_move | {"p50_ms", "p99_ms", "moves_per_s"} <= set(run)
            assert len(run["server_cpu_us_per_move_by_process"]) == run["processes"] == 1
        assert not plain["metrics"] and counted["metrics"] and counted["metrics_scrapes"] > 0
        assert counted["metrics_ab"]["server_cpu_us_per_move_ratio"] > 0
    elif script == "push.py":  # every turn that passed was pushed, signed and decryptable
        assert figures["pushes"] > 0 and figures["refused"] == 0 and figures["errors"] == 0, figures["error_kinds"]
    elif script == "rooms.py":  # every emote reached every other seat of its room
        assert figures["reactions"] >= 3 and figures["reactions_lost"] == 0
    elif script == "offline.py":  # both interpreters played every game
        assert figures["within_budget"] is True and figures["pyodide_vs_cpython"] > 0
        rates = figures["decisions_per_s"].values()
        assert len(rates) == 2 and all(rate > 0 for per_game in rates for rate in per_game.values())
        assert figures["warm_start_s"] > 0 and figures["bot_move_ms"] > 0 and figures["bot_moves_watched"] > 0
    elif script == "floor.py":  # the real server and the floor served the same clients, without errors
        for side in ("real", "floor"):
            assert figures[side]["errors"] == 0 and figures[side]["moves"] > 0, figures[side]["error_kinds"]
        assert set(figures["traffic"]) == {"snapshot_bytes", "update_bytes", "presence_bytes", "moves_per_game"}
        assert {"send_us", "uvloop_write_us", "recv_us"} <= set(figures["write_floor"][0])
        assert set(figures["sqlite_floor"]) == {"commit_us", "group16_us_per_move"}
        assert {"parser_us", "own_us"} <= set(figures["read_floor"])
    elif script == "chaos.py":
        assert figures["finished"] == figures["games"] == 4 and figures["lost_moves"] == 0
    elif script == "failover_one_address.py":
        assert len(figures["resumed_s"]) == figures["tables"] == 2  # every table played on after the kill
    elif script == "backend.py":
        assert figures["ray"] == "left out (--no-ray)" and all(row["same_report"] for row in figures["rows"])
    elif script == "engine.py":  # each peer is measured, or named as not installed
        peers = {"openspiel crazy_eights (C++)", "rlcard uno"}
        assert set(figures["engines"]) | set(figures["not_installed"]) == peers | {"mauseloch mau-mau (string API)"}
        assert set(figures["games"]) == {"mau-mau", "aus-die-maus", "mausgeflippt"} and figures["against"] is None
        assert all(row["decisions_per_s"] > 0 for row in figures["games"].values())
    elif script == "jax_env.py":  # each batch measured for ours and the kernel
        assert set(figures["steps_per_s_by_batch"]) == set(figures["kernel_steps_per_s_by_batch"]) == {"2"}
        assert figures["pgx"] == "left out (--no-pgx)"
    elif script == "envs.py":
        aec = figures["aec"]
        assert set(aec["steps_per_s"]) | set(aec["missing"]) >= {"mauseloch maumau_v0", "rlcard uno"}
        spiel = figures["openspiel_rl_env"]
        assert set(spiel["steps_per_s"]) | set(spiel["missing"]) == {"mauseloch_maumau", "crazy_eights (C++)"}
        assert (figures["openspiel_rl_env_steps_per_s"] is None) == ("mauseloch_maumau" in spiel["missing"])


def test_engine_bench_plays_the_same_games_against_a_revision() -> None:
    """``bench/engine.py --against REV`` plays every game at REV's sources (a temporary ``git
    archive``, in its own process) and at this tree, and gives a ratio per game."""
    figures = _run("engine.py", ["--seconds", "0.05", "--rounds", "2", "--against", "HEAD"])
    assert figures["against"] == "HEAD"
    for game in ("mau-mau", "aus-die-maus", "mausgeflippt"):
        row = figures["games"][game]
        assert row["decisions_per_s"] > 0 and row["against_decisions_per_s"] > 0, game
        assert row["ratio"] > 0, game
