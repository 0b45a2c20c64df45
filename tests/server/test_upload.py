"""Games played offline, sent afterwards (``POST /api/records``): the server replays the record,
stores a finished table whose seat 0 the sending browser holds ("My tables" lists it, its replay
opens), and refuses a record that does not replay with the engine's reason, storing nothing.
Also the offline bundle's files (``/offline/…``, gzip where taken) and the pages' list."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mauseloch
from mauseloch.server import offline
from mauseloch.server.limits import MAX_RECORD
from mauseloch.server.protocol import MAX_MESSAGE

PAGE = {"Origin": "http://testserver"}  # sent by one of our pages: the seat goes into a cookie


def finished_record(game: str, players: int, seed: int) -> dict[str, Any]:
    """A whole game of random moves, as an offline table's record (who played each move)."""
    g = mauseloch.new_game(game, players=players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_move
        assert seat is not None, "a game played in turns"
        g.play(rng.choice(g.legal_moves(seat)), seat=seat)
    record = g.record()
    record["played_by"] = ["person" if m[0] == 0 else "bot" for m in record["moves"]]
    return record


@pytest.mark.parametrize(("game", "players"), [("mau-mau", 3), ("aus-die-maus", 2)])
def test_a_finished_record_becomes_a_finished_table_of_this_browser(
    client: TestClient, game: str, players: int
) -> None:
    record = finished_record(game, players, seed=4)
    answer = client.post("/api/records", json={"record": record, "name": "Anna"}, headers=PAGE)
    assert answer.status_code == 200, answer.text
    table = answer.json()["table"]
    mine = client.get("/api/my-tables").json()["tables"]
    assert [(t["id"], t["status"], t["you"]) for t in mine] == [(table, "over", 0)]
    assert mine[0]["seats"][0]["name"] == "Anna"
    stored = client.get(f"/api/tables/{table}/record").json()
    assert stored["moves"] == record["moves"] and stored["played_by"] == record["played_by"]
    assert mauseloch.replay(stored).result() == mauseloch.replay(record).result()
    assert client.get(f"/replay/{table}").status_code == 200


def test_a_record_that_does_not_replay_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    record = finished_record("mau-mau", 2, seed=8)
    cheat = {**record, "moves": [*record["moves"][:3], [record["moves"][3][0], "nonsense"], *record["moves"][4:]]}
    unfinished = {**record, "moves": record["moves"][:-1], "played_by": record["played_by"][:-1]}
    for bad, reason in ((cheat, "nonsense"), (unfinished, "not over"), ({"game": "mau-mau"}, "")):
        answer = client.post("/api/records", json={"record": bad}, headers=PAGE)
        assert answer.status_code == 400 and answer.json()["code"] == "bad_message", answer.text
        assert "does not replay" in answer.json()["error"] and reason in answer.json()["error"]
    assert client.get("/api/my-tables").json()["tables"] == []
    assert client.post("/api/records", json={"record": record, "extra": 1}, headers=PAGE).status_code == 400


def test_a_record_takes_its_own_body_limit_beyond_the_8_kib_of_others(client: TestClient) -> None:
    """A long game sent in one request: its body may take up to ``MAX_RECORD`` bytes (the other
    routes take ``MAX_MESSAGE``); one byte more is refused with 413, before the replay."""
    record = finished_record("mau-mau", 2, seed=8)

    def body(size: int) -> bytes:
        text = json.dumps({"record": record, "name": "Anna"}).encode()
        return text[:-1] + b" " * (size - len(text)) + b"}"  # padded with JSON's own whitespace

    sent = {**PAGE, "Content-Type": "application/json"}
    assert MAX_RECORD > MAX_MESSAGE
    for size in (MAX_MESSAGE + 1, MAX_RECORD):
        answer = client.post("/api/records", content=body(size), headers=sent)
        assert answer.status_code == 200, (size, answer.text)
    too_long = client.post("/api/records", content=body(MAX_RECORD + 1), headers=sent)
    assert too_long.status_code == 413 and too_long.json()["code"] == "too_large"
    assert str(MAX_RECORD) in too_long.json()["error"]
    assert len(client.get("/api/my-tables").json()["tables"]) == 2


def test_the_bundle_is_served_gzipped_and_the_pages_listed(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "manifest.json").write_text(json.dumps({"files": []}))
    wasm = b"\0asm" + bytes(4000)
    (tmp_path / "pyodide" / "x.wasm").write_bytes(wasm)
    (tmp_path / "pyodide" / "x.wasm.gz").write_bytes(gzip.compress(wasm))
    monkeypatch.setenv("MAUSELOCH_OFFLINE", str(tmp_path))
    got = client.get("/offline/pyodide/x.wasm", headers={"Accept-Encoding": "gzip"})
    assert got.status_code == 200 and got.content == wasm  # the client took the gzip and unpacked it
    assert got.headers["content-encoding"] == "gzip" and got.headers["content-type"] == "application/wasm"
    assert client.get("/offline/pyodide/x.wasm", headers={"Accept-Encoding": "identity"}).content == wasm
    for outside in ("/offline/../../etc/passwd", "/offline/pyodide/x.wasm.gz", "/offline/nothing"):
        assert client.get(outside).status_code == 404
    shell = client.get("/api/offline").json()["shell"]
    assert {"/", "/static/table.html", "/static/js/offline.js", "/static/js/table.js", "/api/games"} <= set(shell)
    monkeypatch.setenv("MAUSELOCH_OFFLINE", str(tmp_path / "none"))
    assert offline.bundle_dir() is None and client.get("/offline/manifest.json").status_code == 404


def test_the_offline_worker_alone_may_compile_webassembly(client: TestClient) -> None:
    worker = client.get("/static/js/offline-worker.js").headers["content-security-policy"]
    page = client.get("/static/js/table.js").headers["content-security-policy"]
    assert "'wasm-unsafe-eval'" in worker and "'wasm-unsafe-eval'" not in page
