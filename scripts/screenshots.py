"""Take the screenshots in docs/screenshots (and a waiting-table one) with the real server and
Debian's chromium, as the browser tests do: ``PYTHONPATH=src python scripts/screenshots.py [OUT]``."""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from playwright.sync_api import sync_playwright
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server
    from tests.browser.helpers import ACTION, OVER, act, create_table, open_table, play_to_end
    from tests.browser.test_layout import ZALGO

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)

    PHONE = {"width": 360, "height": 740}
    srv = Server(Path(tempfile.mkdtemp(prefix="mauseloch-shots-")))
    srv.start()
    try:
        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

            def ctx(**kw):
                kw.setdefault("locale", "en-US")
                c = b.new_context(base_url=srv.url, **kw)
                c.set_default_timeout(15000)
                return c

            # phone, German: Aus die Maus! during a chase, my turn
            page = ctx(locale="de-DE", viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1).new_page()
            create_table(page, "aus-die-maus", ["me", "bot:random", "bot:random"], name="Anna")
            open_table(page)
            for _ in range(400):
                page.wait_for_selector(f"{OVER}, {ACTION}")
                if page.locator(".chase-banner").count() and page.locator(".flip-button").count():
                    break
                act(page)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "table-ausdiemaus-phone.png"), full_page=True)
            # phone, German: Mau-Mau end screen (ranking, the small Mau-Mau note) with a long name
            page = ctx(locale="de-DE", viewport=PHONE, has_touch=True, is_mobile=True).new_page()
            create_table(page, "mau-mau", ["me", "bot:random", "bot:heuristic"], name=ZALGO)
            open_table(page)
            play_to_end(page)
            page.wait_for_timeout(200)
            page.screenshot(path=str(out / "table-maumau-phone-end.png"))
            # phone: waiting for players
            page = ctx(locale="de-DE", viewport=PHONE, has_touch=True, is_mobile=True).new_page()
            create_table(page, "mau-mau", ["me", "human", "bot:random"], name="W" * 32)
            open_table(page)
            page.screenshot(path=str(out / "table-waiting-phone.png"), full_page=True)
            # desktop, English: a Mau-Mau turn with a wish and playable cards
            page = ctx(viewport={"width": 1200, "height": 900}).new_page()
            for _ in range(6):
                create_table(page, "mau-mau", ["me", "bot:heuristic", "bot:random"], name="Anna")
                open_table(page)
                found = False
                for _ in range(300):
                    page.wait_for_selector(f"{OVER}, {ACTION}")
                    if page.locator(OVER).count():
                        break
                    if page.locator("#board .wish").count() and page.locator("#board button.card.legal").count():
                        found = True
                        break
                    act(page)
                if found:
                    break
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "table-maumau-desktop.png"), full_page=True)
            # desktop lobby, German, mau-mau options
            page = ctx(locale="de-DE", viewport={"width": 1200, "height": 900}).new_page()
            page.goto("/")
            page.wait_for_selector("#tables li")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / "lobby-desktop.png"), full_page=True)
            b.close()
    finally:
        srv.stop()


if __name__ == "__main__":
    main()
