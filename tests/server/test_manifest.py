"""On the home screen: the web app manifest is served as such, holds what a
phone needs to add the site and open it without browser chrome, its icons load at their sizes, and
every page's head points to it."""

from __future__ import annotations

import io
import json

from PIL import Image
from starlette.testclient import TestClient

from .helpers import HUMAN, RANDOM_BOT, create_table


def test_the_manifest_is_served_with_what_a_home_screen_needs(client: TestClient) -> None:
    res = client.get("/manifest.webmanifest")
    assert res.status_code == 200
    assert res.headers["content-type"].split(";")[0] == "application/manifest+json"
    manifest = json.loads(res.text)
    assert manifest["name"] and manifest["short_name"] == "Mauseloch"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    for colour in ("theme_color", "background_color"):
        assert manifest[colour].startswith("#") and len(manifest[colour]) == 7
    seen = set()
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == "image/png", icon["src"]
        width, height = Image.open(io.BytesIO(got.content)).size
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
        seen.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= seen


def test_every_page_points_to_the_manifest_and_its_icons(client: TestClient) -> None:
    table = create_table(client, [HUMAN, RANDOM_BOT])["table"]
    pages = {"lobby": "/", "table": f"/t/{table}", "replay": f"/replay/{table}", "error": "/no/such/page"}
    for name, url in pages.items():
        html = client.get(url, headers={"Accept": "text/html"}).text
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html, name
        assert '<meta name="theme-color" content="#1f5a44">' in html, name
        for href in ('rel="apple-touch-icon" href="', 'rel="icon" href="'):
            start = html.index(href) + len(href)
            icon = html[start : html.index('"', start)]
            assert client.get(icon).headers["content-type"] == "image/png", (name, icon)
