"""A server process (``mauseloch serve``) freezes what its start-up loaded, once, before the first
table; the compiled bots' code is made ready after that, in the background (warmup.py). An app
made by a test or a tool freezes nothing (cli.py sets the flag)."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mauseloch.server import app as app_module
from mauseloch.server import warmup
from mauseloch.server.app import create_app


@pytest.mark.parametrize("serving", [True, False])
def test_the_lifespan_freezes_before_the_first_table_and_warms_up_after(
    serving: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    monkeypatch.setattr(app_module.gc, "freeze", lambda: order.append("freeze"))
    monkeypatch.setattr(app_module.gc, "collect", lambda *args: order.append("collect") or 0)
    monkeypatch.setattr(warmup, "start", lambda: order.append("warm-up"))
    app = create_app(f"sqlite:///{tmp_path / 'm.db'}", bot_delay=0.0)
    lobby = app.state.lobby
    started = lobby.start
    monkeypatch.setattr(lobby, "start", lambda: (order.append("start"), started())[1])
    assert app.state.freeze_at_start is False
    app.state.freeze_at_start = serving
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
    assert order == (["collect", "freeze", "start", "warm-up"] if serving else ["start", "warm-up"])
