"""The server's edges: input nested too deeply, answers that fail, what a
cache may keep, error pages people can find their way back from, and no secret in a URL."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from mauseloch.server.security import HEADERS

from .helpers import HUMAN, Player, create_table, join, open_seat, seated

DEEP = "[" * 1000 + "]" * 1000  # 2 KB, well under the message limit


def has_security_headers(headers: Any) -> None:
    for name, value in HEADERS.items():
        assert headers.get(name) == value, name


# -- nesting, and the headers of every answer --------------------------------------------
def test_a_deeply_nested_websocket_message_is_refused_and_the_socket_stays(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    anna = seated(client, created["table"], 0, created["token"])
    anna.send('{"x":' + DEEP + ',"type":"ping"}')
    frame = anna.recv()
    assert frame["type"] == "error" and frame["code"] == "bad_message", frame
    anna.send({"type": "ping"})
    assert anna.recv()["type"] == "pong"  # the same socket, still there


def test_a_deeply_nested_websocket_hello_is_refused(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    stranger = Player(client, created["table"])
    stranger.send('{"x":' + DEEP + ',"type":"hello"}')
    assert stranger.recv()["code"] == "bad_message"


def test_a_deeply_nested_body_is_a_400_with_the_security_headers(client: TestClient) -> None:
    body = '{"game": "mau-mau", "seats": [{"kind": "human"}], "options": {"x": ' + DEEP + "}}"
    answer = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_message"
    has_security_headers(answer.headers)
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("a bug")


def test_a_failing_handler_answers_500_with_the_security_headers(client: TestClient, monkeypatch: Any) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    monkeypatch.setattr(lobby, "listing", boom)
    api = client.get("/api/tables")
    assert api.status_code == 500 and api.json()["code"] == "server_error"
    has_security_headers(api.headers)
    assert "a bug" not in api.text  # what went wrong is for the log, not for the client
    monkeypatch.setattr(lobby, "find", boom)
    page = client.get("/t/abc", headers={"accept": "text/html", "accept-language": "de-DE,de;q=0.9"})
    assert page.status_code == 500 and page.headers["content-type"].startswith("text/html")
    has_security_headers(page.headers)
    assert '<html lang="de">' in page.text and "Etwas ist schiefgegangen" in page.text


# -- nothing live or per seat from a cache -----------------------------------------------
def test_live_and_per_seat_answers_are_never_stored(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN, HUMAN], public=True)
    table = created["table"]
    open_seat(client, created["url"])
    answers = {
        "summary": client.get(f"/api/tables/{table}"),
        "table list": client.get("/api/tables"),
        "page": client.get(f"/t/{table}"),
        "my tables": client.get("/api/my-tables"),
        "seat link": client.post(f"/api/tables/{table}/seat-link", json={}),
        "create": client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": "C"}),
    }
    client.cookies.clear()
    answers["join"] = client.post(f"/api/tables/{table}/join", json={"name": "Ben"})
    answers["not found"] = client.get("/api/tables/nosuch")
    for what, answer in answers.items():
        assert answer.status_code in (200, 404), what
        assert "no-store" in answer.headers.get("cache-control", ""), what


# -- error pages in the site's layout ----------------------------------------------------
@pytest.mark.parametrize(
    ("path", "lang", "title", "text"),
    [
        ("/no/such/page", "en-GB,en;q=0.9", "Page not found", "There is no page at this address"),
        ("/no/such/page", "de-DE,de;q=0.9,en;q=0.5", "Seite nicht gefunden", "Unter dieser Adresse"),
        ("/t/nosuch", "en-US", "Table not found", "This table does not exist"),
        ("/t/nosuch", "de", "Tisch nicht gefunden", "Diesen Tisch gibt es nicht"),
        ("/replay/nosuch", "fr-FR,de;q=0.8,en;q=0.5", "Tisch nicht gefunden", "Diesen Tisch"),
        ("/static/nosuch.html", "", "Page not found", "There is no page at this address"),
    ],
)
def test_error_pages_have_the_layout_a_title_and_a_way_back(
    client: TestClient, path: str, lang: str, title: str, text: str
) -> None:
    answer = client.get(path, headers={"accept": "text/html,*/*;q=0.8", "accept-language": lang})
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    has_security_headers(answer.headers)
    html = answer.text
    expected = "de" if title in ("Seite nicht gefunden", "Tisch nicht gefunden") else "en"
    assert f'<html lang="{expected}">' in html
    assert re.search(rf"<title>{re.escape(title)} – Mauseloch</title>", html)
    assert "<h1" in html and title in html and text in html
    assert '<link rel="stylesheet" href="/static/css/style.css">' in html
    assert re.search(r'<header class="topbar">\s*<a class="brand" href="/"', html)  # the brand leads home
    back = "Zurück zur Lobby" if expected == "de" else "Back to the lobby"
    assert re.search(rf'<a class="btn" href="/"[^>]*>{back}</a>', html)


def test_programs_get_json_errors_not_pages(client: TestClient) -> None:
    for path in ("/api/tables/nosuch", "/api/nosuch", "/no/such/page"):
        answer = client.get(path, headers={"accept": "application/json"})
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path
    api = client.get("/api/nosuch", headers={"accept": "text/html"})  # the API never answers with a page
    assert api.status_code == 404 and api.json()["code"] == "not_found"


def test_every_error_page_text_is_in_both_languages() -> None:
    from mauseloch.locale import catalogue

    texts = catalogue()
    keys = {k for k in texts["en"] if k.startswith("errorpage.")}
    assert keys and keys == {k for k in texts["de"] if k.startswith("errorpage.")}


# -- no secret in a URL -------------------------------------------------------------------
def test_no_answer_puts_a_seat_token_where_a_server_or_proxy_logs_it(client: TestClient) -> None:
    created = create_table(client, [HUMAN, HUMAN])
    table, token = created["table"], created["token"]
    joined = join(client, table)
    open_seat(client, created["url"])
    link = client.post(f"/api/tables/{table}/seat-link", json={}).json()
    for what, answer, secret in (
        ("create", created, token),
        ("join", joined, joined["token"]),
        ("seat link", link, token),
    ):
        path, hash_mark, fragment = answer["url"].partition("#")
        assert secret not in path and "?" not in path, what  # the path and query reach logs
        assert hash_mark and secret in fragment, what  # after "#": never sent by a browser
    # the link still opens the seat in another browser
    client.cookies.clear()
    open_seat(client, link["url"])
    assert client.get(f"/api/tables/{table}").json()["you"] == 0
