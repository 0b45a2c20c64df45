"""What the server leaves to the page's language: no English default title,
an error ``code`` the page can put in words for every refusal, and the limits the page's inputs
take from the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from mauseloch.locale import catalogue
from mauseloch.server import names, protocol
from mauseloch.server.limits import CLOSE_CODES

from .helpers import HUMAN, RANDOM_BOT, create_table, join

SERVER = Path(protocol.__file__).parent


def test_a_table_without_title_has_none_and_a_given_title_stays(client: TestClient) -> None:
    plain = create_table(client, [HUMAN, RANDOM_BOT], public=True)["table"]
    named = create_table(client, [HUMAN, RANDOM_BOT], title="Friday", public=True)["table"]
    assert client.get(f"/api/tables/{plain}").json()["title"] == ""  # the page names it in its language
    assert client.get(f"/api/tables/{named}").json()["title"] == "Friday"
    listed = {t["id"]: t["title"] for t in client.get("/api/tables").json()["tables"]}
    assert listed[plain] == "" and listed[named] == "Friday"


def test_games_answer_carries_the_servers_limits(client: TestClient) -> None:
    limits = client.get("/api/games").json()["limits"]
    assert limits["name"] == names.MAX_NAME and limits["title"] == names.MAX_TITLE
    assert limits["message"] == protocol.MAX_MESSAGE and limits["marks"] == names.MAX_MARKS
    assert limits["waiting_minutes"] == 30


def test_refusals_carry_a_code(client: TestClient) -> None:
    long_name = client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": "x" * 33})
    assert long_name.status_code == 400
    assert long_name.json()["code"] == "name_too_long" and "32" in long_name.json()["error"]
    long_title = client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, HUMAN], "title": "x" * 61})
    assert long_title.json()["code"] == "title_too_long"
    assert client.get("/api/tables/nosuch").json()["code"] == "not_found"
    table = create_table(client, [HUMAN, HUMAN], public=True)["table"]
    join(client, table, "Ben")
    full = client.post(f"/api/tables/{table}/join", json={"name": "Cleo"})
    assert full.status_code == 409 and full.json()["code"] == "taken"
    assert client.get(f"/api/tables/{table}/replay").json()["code"] == "not_over"
    bad = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert bad.json()["code"] == "bad_message"


def test_every_error_code_has_german_and_english_words() -> None:
    """Every refusal names its code from the enum (no bare string), and the page has words for
    every code in both languages."""
    declared = {code.value for code in protocol.ErrorCode}
    for path in SERVER.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        bare = re.findall(r'(?:ProtocolError|Refused|no_table_error|\.error)\(\s*"(\w+)"|"code": "(\w+)"', source)
        assert not bare, f"{path.name}: error codes as bare strings, not ErrorCode: {bare}"
        named = set(re.findall(r"ErrorCode\.(\w+)", source))
        assert named <= set(protocol.ErrorCode.__members__), (
            f"{path.name}: {named - set(protocol.ErrorCode.__members__)}"
        )
    with pytest.raises(ValueError):  # a code relayed between processes is checked on arrival too
        protocol.ProtocolError("no_such_code", "?")  # type: ignore[arg-type]
    words = catalogue()
    for code in declared:
        assert f"error.{code}" in words["en"], f"no English words for error {code}"
        assert f"error.{code}" in words["de"], f"no German words for error {code}"
    for close in CLOSE_CODES:  # a WebSocket closed over a limit: the page says why
        assert f"close.{close}" in words["en"] and f"close.{close}" in words["de"], close


def test_a_names_length_counts_characters_as_people_see_them(client: TestClient) -> None:
    """A family emoji is one character (its zero-width joiners stay), a letter
    with an accent no precomposed letter has is one character too, and the limit counts them so."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    assert names.graphemes(f"Familie {family}") == [*"Familie ", family]
    assert names.clean_name(f"Familie {family}", "x") == f"Familie {family}"  # not four people
    assert names.clean_name("Le\u200dna", "x") == "Lena"  # a joiner between letters is still dropped
    accented = "q\u0301" * names.MAX_NAME  # no precomposed q́: two code points, one character
    assert names.clean_name(accented, "x") == accented
    created = client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": family * 16})
    assert created.status_code == 200, created.json()  # 16 emoji of two columns each: 32 columns
    table = client.get(f"/api/tables/{created.json()['table']}").json()
    assert table["seats"][0]["name"] == family * 16
    too_long = client.post("/api/tables", json={"game": "mau-mau", "seats": [HUMAN, HUMAN], "name": family * 17})
    assert too_long.json()["code"] == "name_too_long"
