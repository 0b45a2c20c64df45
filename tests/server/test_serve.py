"""``mauseloch serve`` runs a real uvicorn server on 127.0.0.1 and prints its address first."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

GUARD = 30  # seconds: only so a broken server fails instead of hanging


@pytest.fixture(params=[()], ids=["default"])
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    cmd = [sys.executable, "-m", "mauseloch.cli", "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 's.db'}"]
    cmd += list(request.param)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.match(r"Mauseloch is serving at http://127\.0\.0\.1:(\d+)/", line)
        assert match, (line, proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        yield f"127.0.0.1:{match.group(1)}"
    finally:
        proc.terminate()
        proc.wait(GUARD)


@pytest.mark.slow
def test_serve_plays_over_real_sockets(server: str) -> None:
    with httpx.Client(base_url=f"http://{server}", trust_env=False, timeout=GUARD) as http:
        created = http.post(
            "/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}, {"kind": "human"}], "public": True}
        ).json()
        assert http.get("/api/tables").json()["tables"][0]["id"] == created["table"]
        url = f"ws://{server}/ws/{created['table']}"
        with connect(url, proxy=None, open_timeout=GUARD) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["token"], "seat": 0, "last_seq": 0}))
            snap = json.loads(ws.recv(GUARD))
            assert snap["type"] == "snapshot" and snap["seat"] == 0 and len(snap["view"]["hand"]) == 5
            assert ws.protocol.extensions == []  # updates are sent uncompressed
            ws.send("x" * 9000)  # over the protocol's limit: refused, connection kept
            assert json.loads(ws.recv(GUARD))["code"] == "too_large"
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(GUARD))["type"] == "pong"
            ws.send("x" * 200_000)  # over the transport's limit: the socket is closed
            with pytest.raises(ConnectionClosed):
                ws.recv(GUARD)
        assert http.get(f"/api/tables/{created['table']}").json()["version"] == 0  # alive, unchanged


@pytest.mark.slow
@pytest.mark.parametrize("server", [("--max-sockets-per-address", "1")], ids=["one-socket"], indirect=True)
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
def test_a_socket_flood_is_refused_before_its_handshake_is_read(server: str) -> None:
    """Over its cap an address is told why once (4429); the next handshake is refused by the
    application (403), and for a second after that every one is refused by the HTTP protocol
    before uvicorn builds a WebSocket for it (a bare 403 without the ``date`` header every answer
    of uvicorn's own carries)."""
    created = httpx.post(
        f"http://{server}/api/tables", json={"game": "mau-mau", "seats": [{"kind": "human"}] * 2}, timeout=GUARD
    ).json()
    url = f"ws://{server}/ws/{created['table']}"
    with connect(url, proxy=None, open_timeout=GUARD) as held:
        with connect(url, proxy=None, open_timeout=GUARD) as told, pytest.raises(ConnectionClosed) as closed:
            told.recv(GUARD)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        answers = []
        for _ in range(3):
            with pytest.raises(InvalidStatus) as refused:
                connect(url, proxy=None, open_timeout=GUARD)
            answers.append(refused.value.response)
        assert [a.status_code for a in answers] == [403, 403, 403]
        assert "date" in answers[0].headers  # the application's refusal, through uvicorn
        assert all("date" not in a.headers and a.headers["connection"] == "close" for a in answers[1:])
        for answer in answers:  # every answer, a refused handshake too, carries the security headers
            assert answer.headers["x-content-type-options"] == "nosniff", answer.headers
            assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        held.send(json.dumps({"type": "hello", "token": created["token"], "seat": 0, "last_seq": 0}))
        assert json.loads(held.recv(GUARD))["type"] == "snapshot"  # the address's own socket plays on


# -- every number checked, one line, before the port is bound ---------------------------------
NUMERIC = {
    "--bot-delay": ("inf", "nan", "-1", "1e9"),
    "--clock-scale": ("inf", "nan", "0", "-inf", "1e9"),
    "--requests-per-second": ("inf", "nan", "-5", "1e12"),
    "--refusal-delay": ("1e9", "inf", "nan", "-1"),
    "--waiting-minutes": ("inf", "nan", "0", "1e9"),
    "--max-sockets-per-address": ("-1", "10000000000"),
    "--max-sockets": ("-1", "10000000000"),
    "--tables-per-minute": ("-1", "10000000000"),
    "--open-tables-per-address": ("-1", "10000000000"),
}


@pytest.mark.parametrize(
    ("option", "value"), [(o, v) for o, values in NUMERIC.items() for v in values], ids=lambda x: str(x)
)
def test_serve_refuses_every_non_finite_or_absurd_number_in_one_line(option: str, value: str) -> None:
    import socket

    from typer.testing import CliRunner

    from mauseloch.cli import app

    with socket.socket() as taken:  # a port in use: the number is refused before any bind is tried
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = CliRunner().invoke(app, ["serve", "--port", port, "--db", "sqlite://", f"{option}={value}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().count("\n") == 0, result.output  # one line
    assert f"{option} must be a number from" in result.output and "cannot listen" not in result.output


def test_serve_names_the_supported_databases_for_another_kind() -> None:
    from typer.testing import CliRunner

    from mauseloch.cli import app

    result = CliRunner().invoke(app, ["serve", "--port", "0", "--db", "mysql://u:p@127.0.0.1/x"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().count("\n") == 0, result.output
    assert "SQLite" in result.output and "PostgreSQL" in result.output and "'mysql'" in result.output
    assert "u:p" not in result.output  # the password is not repeated
