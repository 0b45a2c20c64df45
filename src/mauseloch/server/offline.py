"""What the offline page fetches from the server, once, when the player asks for it: the offline
bundle (``/offline/…``: Pyodide, msgspec, the engine's wheel, as scripts/build_offline.py built
them, each ``.gz`` sent where the browser takes gzip) and the list of the pages' own files its
service worker keeps (``/api/offline``). Nothing here is fetched by an online page.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from mauseloch.extras import needs
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import OfflineBundle
from mauseloch.server.protocol import ErrorCode, ProtocolError

with needs("web", __name__):
    from starlette.requests import Request
    from starlette.responses import FileResponse, Response
    from starlette.routing import Route

if TYPE_CHECKING:
    from collections.abc import Callable

# where `make offline` builds the bundle in a checkout; MAUSELOCH_OFFLINE names another folder
BUILT = Path(__file__).resolve().parents[3] / "build" / "offline"
MEDIA = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".whl": "application/zip",
}
# the pages' files kept for playing offline: the lobby, the table page and what they load
SHELL_PAGES = ("/", "/static/table.html", "/static/replay.html", "/api/games", "/static/js/strings.js")
SHELL_SUFFIXES = (".js", ".css", ".png", ".svg", ".webmanifest")


def bundle_dir() -> Path | None:
    named = os.environ.get("MAUSELOCH_OFFLINE")
    folder = Path(named) if named else BUILT
    return folder if (folder / "manifest.json").is_file() else None


def shell(web_dir: Path) -> list[str]:
    """The URLs of the pages' files: scripts and styles under /static/, the rest at the root."""
    out = list(SHELL_PAGES)
    for path in sorted(web_dir.rglob("*")):
        if path.is_file() and path.suffix in SHELL_SUFFIXES and path.name != "sw.js":
            rel = path.relative_to(web_dir).as_posix()
            url = ("/static/" if rel.startswith(("js/", "css/")) else "/") + rel
            if url not in out:
                out.append(url)
    return out


def routes(web_dir: Callable[[Request], Path]) -> list[Route]:
    async def offline_file(request: Request) -> Response:
        folder = bundle_dir()
        rel = request.path_params["path"]
        if folder is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, "this server has no offline bundle", 404)
        path = (folder / rel).resolve()
        if not path.is_relative_to(folder.resolve()) or not path.is_file() or path.suffix == ".gz":
            raise ProtocolError(ErrorCode.NOT_FOUND, "no such file in the offline bundle", 404)
        media = MEDIA.get(path.suffix, "application/octet-stream")
        headers = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        packed = path.with_name(path.name + ".gz")
        if "gzip" in request.headers.get("accept-encoding", "") and packed.is_file():
            return FileResponse(packed, media_type=media, headers={**headers, "Content-Encoding": "gzip"})
        return FileResponse(path, media_type=media, headers=headers)

    async def api_offline(request: Request) -> Response:
        return JSON(OfflineBundle(bundle=bundle_dir() is not None, shell=shell(web_dir(request))))

    return [Route("/offline/{path:path}", offline_file), Route("/api/offline", api_offline)]
