"""The worked deployment of docs/operate.md: each file in examples/deploy/ checked by the tool that
can check it on this machine (``nginx -t`` with a certificate made here, ``systemd-analyze
verify``, redis-server started on the configuration, the alerts' figures against the ones the
server shows, the roll script run against stand-ins for systemctl and curl)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import yaml

from tests.paths import ROOT

DEPLOY = ROOT / "examples" / "deploy"
GUARD = 60
# the example's paths, and what stands for each here
CERT = "/etc/letsencrypt/live/maus.example.org/fullchain.pem"
KEY = "/etc/letsencrypt/live/maus.example.org/privkey.pem"
BINARY = "/opt/mauseloch/venv/bin/mauseloch"
ENV_FILE = "/etc/mauseloch/mauseloch.env"


def replaced(text: str, swaps: dict[str, str]) -> str:
    for old, new in swaps.items():
        assert old in text, f"the example no longer holds {old}"
        text = text.replace(old, new)
    return text


def test_every_file_of_the_deployment_is_checked_here() -> None:
    files = {p.relative_to(DEPLOY).as_posix() for p in DEPLOY.rglob("*") if p.is_file()}
    assert files == {
        "nginx/mauseloch.conf",
        "systemd/mauseloch@.service",
        "systemd/mauseloch-backup.service",
        "systemd/mauseloch-backup.timer",
        "redis/mauseloch.conf",
        "prometheus/scrape.yml",
        "prometheus/mauseloch-alerts.yml",
        "roll.sh",
    }


def test_the_nginx_site_passes_nginx_t(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip("no nginx (Debian package nginx; make system-deps installs it)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=maus.example.org",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=GUARD,
    )  # fmt: skip
    site = replaced(
        (DEPLOY / "nginx" / "mauseloch.conf").read_text(),
        {CERT: str(cert), KEY: str(key), "/var/log/nginx/": f"{tmp_path}/", "/var/www/letsencrypt": str(tmp_path)},
    )
    (tmp_path / "site.conf").write_text(site)
    temp = " ".join(
        f"{kind}_temp_path {tmp_path}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log;\n"
        f"events {{}}\nhttp {{ {temp} access_log off; include {tmp_path}/site.conf; }}\n"
    )
    done = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True, timeout=GUARD, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "syntax is ok" in done.stderr, done.stderr


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze on this machine")
    binary = Path(sys.executable).with_name("mauseloch")
    assert binary.exists()
    (tmp_path / "mauseloch.env").write_text("MAUSELOCH_DB=sqlite:///mauseloch.db\n")
    units = []
    for name, as_name in (
        ("mauseloch@.service", "mauseloch@1.service"),  # a template is verified as one of its instances
        ("mauseloch-backup.service", "mauseloch-backup.service"),
        ("mauseloch-backup.timer", "mauseloch-backup.timer"),
    ):
        text = (DEPLOY / "systemd" / name).read_text()
        swaps = {ENV_FILE: str(tmp_path / "mauseloch.env")} if "EnvironmentFile" in text else {}
        if BINARY in text:
            swaps[BINARY] = str(binary)
        (tmp_path / as_name).write_text(replaced(text, swaps))
        units.append(str(tmp_path / as_name))
    done = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=GUARD, check=False)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr  # unknown keys only warn


def test_redis_runs_on_the_example_configuration(tmp_path: Path) -> None:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no redis-server (Debian package redis-server)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    conf = replaced(
        (DEPLOY / "redis" / "mauseloch.conf").read_text(),
        {
            "port 6379": f"port {port}",
            "bind 127.0.0.1 ::1": "bind 127.0.0.1",
            "CHANGE-ME-TO-A-LONG-RANDOM-PASSWORD": "pw",
        },
    )
    (tmp_path / "redis.conf").write_text(conf + f"dir {tmp_path}\n")
    proc = subprocess.Popen([server, str(tmp_path / "redis.conf")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        client = redis.Redis(port=port, password="pw", socket_timeout=GUARD, retry=None)
        deadline = time.monotonic() + GUARD
        while True:
            try:
                assert client.ping()
                break
            except redis.ConnectionError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
                time.sleep(0.05)
        config = client.config_get("*")
        assert config["save"] == "" and config["appendonly"] == "no" and config["maxmemory-policy"] == "noeviction"
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=port, password="wrong", retry=None).ping()  # refused once, not retried
        client.close()
    finally:
        proc.terminate()
        proc.wait(GUARD)


def shown_figures() -> set[str]:
    """Every sample name a server's /metrics may show (its families and their suffixes)."""
    from prometheus_client import generate_latest

    from mauseloch.server.metrics import Metrics

    text = generate_latest(Metrics().registry).decode()
    names = {"up"}
    for family, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text, re.M):
        names.add(family)
        if kind == "histogram":
            names |= {f"{family}_bucket", f"{family}_sum", f"{family}_count"}
    return names


def test_the_alerts_ask_only_for_figures_the_server_shows() -> None:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "mauseloch-alerts.yml").read_text())["groups"][0]["rules"]
    shown = shown_figures()
    asked = set()
    for rule in rules:
        assert {"alert", "expr", "for", "labels", "annotations"} <= set(rule), rule
        asked |= set(re.findall(r"\b((?:mauseloch|process)_\w+|up)\b(?=\s*[{\[)\s]|$)", rule["expr"]))
    assert asked - shown == set()
    assert {"mauseloch_move_seconds_bucket", "mauseloch_last_sample_timestamp_seconds"} <= asked
    scrape = yaml.safe_load((DEPLOY / "prometheus" / "scrape.yml").read_text())
    targets = scrape["scrape_configs"][0]["static_configs"][0]["targets"]
    unit = (DEPLOY / "systemd" / "mauseloch@.service").read_text()
    assert "--metrics 127.0.0.1:910%i" in unit and targets == ["127.0.0.1:9101", "127.0.0.1:9102"]


def test_the_roll_restarts_one_process_after_the_other(tmp_path: Path) -> None:
    """roll.sh with stand-ins for systemctl and curl: each restart waits for that process's
    /readyz before the next one goes."""
    calls = tmp_path / "calls"
    (tmp_path / "systemctl").write_text(f'#!/bin/sh\necho "systemctl $*" >> {calls}\n')
    # ready on the second question
    (tmp_path / "curl").write_text(
        f'#!/bin/sh\nfor a; do url=$a; done\nif grep -q "curl $url" {calls} 2>/dev/null; then\n'
        f'  echo "curl $url ok" >> {calls}; exit 0; fi\necho "curl $url" >> {calls}; exit 7\n'
    )
    for tool in ("systemctl", "curl"):
        (tmp_path / tool).chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["sh", str(DEPLOY / "roll.sh")], env=env, capture_output=True, text=True, timeout=GUARD, check=False
    )
    assert done.returncode == 0, done.stderr
    assert calls.read_text().splitlines() == [
        "systemctl restart mauseloch@1",
        "curl http://127.0.0.1:8001/readyz",
        "curl http://127.0.0.1:8001/readyz ok",
        "systemctl restart mauseloch@2",
        "curl http://127.0.0.1:8002/readyz",
        "curl http://127.0.0.1:8002/readyz ok",
    ]
