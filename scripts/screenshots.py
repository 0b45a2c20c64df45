"""Take the screenshots in docs/screenshots with the real server and Debian's chromium, as the
browser tests do: ``PYTHONPATH=src .venv/bin/python scripts/screenshots.py [OUT]``.

Every game at a decision, at the five sizes of tests/browser/test_fit.py (phone in portrait and
landscape, tablet, laptop, desktop): ``table-<game>-<size>.png``, in German, the desktop in
English. Then the menu drawer on a phone, two end screens, a table waiting for players and the
lobby. The screen itself is taken, not the full page: the table is laid out to fit it.
"""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHORT = {"mau-mau": "maumau", "aus-die-maus": "ausdiemaus", "mausgeflippt": "mausgeflippt"}


def main() -> None:
    from playwright.sync_api import sync_playwright
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server
    from tests.browser.helpers import ACTION, OVER, act, create_table, open_table, play_to_end
    from tests.browser.test_fit import SIZES, open_game, reach, settle
    from tests.browser.test_layout import ZALGO

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    srv = Server(Path(tempfile.mkdtemp(prefix="mauseloch-shots-")))
    fast = Server(Path(tempfile.mkdtemp(prefix="mauseloch-shots-fast-")), extra=("--clock-scale", "0.05"))
    srv.start()
    fast.start()
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

            def ctx(server: Server = srv, **kw):  # type: ignore[no-untyped-def]
                kw.setdefault("locale", "de-DE")
                c = b.new_context(base_url=server.url, device_scale_factor=1, **kw)
                c.set_default_timeout(30000)
                return c

            # every game at a decision, at every size
            for game, short in SHORT.items():
                context, page = open_game(b, srv, game)
                for _ in range(5 if game == "mau-mau" else 0):
                    # a turn of mine with a wish or a penalty on the table, within a few games
                    found = False
                    for _ in range(300):
                        page.wait_for_selector(f"{OVER}, {ACTION}")
                        if page.locator(OVER).count():
                            break
                        if page.locator("#board .wish, #board .penalty").count():
                            found = True
                            break
                        act(page)
                    if found:
                        break
                    context.close()
                    context, page = open_game(b, srv, game)
                for _ in range(3 if game == "aus-die-maus" else 0):
                    # a chase on the table at my turn, if one comes within a few games
                    for _ in range(120):
                        page.wait_for_selector(f"{OVER}, #board .flip-button")
                        if page.locator(OVER).count() or page.locator("#board .chase-banner").count():
                            break
                        act(page)
                    if not page.locator(OVER).count():
                        break
                    context.close()
                    context, page = open_game(b, srv, game)
                for name, size in SIZES.items():
                    if name == "desktop":
                        page.set_viewport_size(SIZES["laptop"])
                        page.click("#lang-switch")  # English, from the side panel
                    reach(page, game)
                    page.set_viewport_size(size)
                    settle(page)
                    # the turn line, not a passing "Mau!" over it
                    page.wait_for_selector("#announce:not(.show)", state="attached")
                    page.wait_for_timeout(150)
                    page.screenshot(path=str(out / f"table-{short}-{name}.png"))
                context.close()

            # the menu drawer on a phone
            context, page = open_game(b, srv, "mau-mau")
            page.wait_for_selector(ACTION)
            page.click("#menu-button")
            page.wait_for_timeout(150)
            page.screenshot(path=str(out / "table-menu-phone.png"))
            context.close()

            # phone, German: Mau-Mau end screen with a long name
            page = ctx(viewport=SIZES["phone"], has_touch=True, is_mobile=True).new_page()
            create_table(page, "mau-mau", ["me", "bot:random", "bot:heuristic"], name=ZALGO)
            open_table(page)
            play_to_end(page)
            page.wait_for_timeout(200)
            page.screenshot(path=str(out / "table-maumau-phone-end.png"))

            # phone, German: a Mausgeflippt end screen, watched (hard bots; the creator's seat plays
            # by its stand-in on the fast clocks)
            page = ctx(fast, viewport=SIZES["phone"], has_touch=True, is_mobile=True).new_page()
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "hard"}]
            body = {"game": "mausgeflippt", "seats": seats, "name": "W" * 32, "public": True,
                    "options": {"window_ms": 600}}  # fmt: skip
            answer = page.request.post("/api/tables", data=body, headers={"Origin": fast.url})
            page.goto(f"/t/{answer.json()['table']}?watch=1")
            page.wait_for_selector("#end-screen:not([hidden])", timeout=180000)
            page.wait_for_timeout(200)
            page.screenshot(path=str(out / "table-mausgeflippt-phone-end.png"))

            # phone: waiting for players
            page = ctx(viewport=SIZES["phone"], has_touch=True, is_mobile=True).new_page()
            create_table(page, "mau-mau", ["me", "human", "bot:random"], name="W" * 32)
            open_table(page)
            page.wait_for_selector("#waiting:not([hidden])")
            page.screenshot(path=str(out / "table-waiting-phone.png"))

            # desktop lobby, German
            page = ctx(viewport={"width": 1366, "height": 768}).new_page()
            page.goto("/")
            page.wait_for_selector("#game-select option", state="attached")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "lobby-desktop.png"), full_page=True)
            b.close()
    finally:
        srv.stop()
        fast.stop()


if __name__ == "__main__":
    main()
