"""The server's HTML error pages (404, 500 and any other error a person's browser is shown).

A page in the site's layout (its stylesheet, the topbar whose brand leads home), with ``lang``, a
title and a link back to the lobby, in German or English: the browser's ``Accept-Language``
decides here; the page's script then follows a language chosen on another page (i18n.js keeps
that choice in localStorage). Programs (``/api/``, ``/ws/``, or no ``text/html`` in ``Accept``)
get JSON with an error ``code`` instead.
"""

from __future__ import annotations

import html
from functools import cache
from pathlib import Path
from string import Template

from mauseloch.extras import needs
from mauseloch.locale import Lang, t
from mauseloch.server.answers import JSON
from mauseloch.server.bodies import ErrorBody
from mauseloch.server.protocol import ErrorCode

with needs("web", __name__):
    from starlette.requests import HTTPConnection
    from starlette.responses import HTMLResponse, Response

TEMPLATE = Path(__file__).resolve().parent.parent / "web" / "error.html"
KINDS = {404: "not_found", 500: "server_error"}
JSON_CODES = {404: ErrorCode.NOT_FOUND, 500: ErrorCode.SERVER_ERROR}


@cache
def template() -> Template:
    return Template(TEMPLATE.read_text(encoding="utf-8"))


def pick_lang(accept_language: str | None) -> Lang:
    """German when the browser prefers German to English (``Accept-Language``), else English."""
    best: tuple[float, int, Lang] | None = None
    for i, part in enumerate((accept_language or "").split(",")):
        name, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = name.strip().lower().split("-", 1)[0]
        if primary not in ("de", "en") or not quality > 0:
            continue
        lang: Lang = "de" if primary == "de" else "en"
        if best is None or (quality, -i) > (best[0], best[1]):
            best = (quality, -i, lang)
    return best[2] if best is not None else "en"


def wants_html(scope_path: str, accept: str | None) -> bool:
    """Whether the error goes to a person's browser (a page) rather than to a program."""
    if scope_path.startswith(("/api/", "/ws/", "/static/js/", "/static/css/")):
        return False
    return "text/html" in (accept or "")


def error_html(status: int, lang: Lang, kind: str | None = None) -> str:
    kind = kind or KINDS.get(status, "other")
    title = t(f"errorpage.{kind}.title", lang)
    return template().substitute(
        lang=lang,
        status=status,
        kind=kind,
        app=html.escape(t("app.title", lang)),
        title=html.escape(title),
        text=html.escape(t(f"errorpage.{kind}.text", lang, status=status)),
        back=html.escape(t("errorpage.back", lang)),
        switch=html.escape(t("lang.switch", lang)),
    )


def error_page(status: int, lang: Lang, kind: str | None = None) -> HTMLResponse:
    """The error page for ``status`` (``kind``: which text, e.g. ``no_table``), never cached."""
    return HTMLResponse(error_html(status, lang, kind), status_code=status, headers={"Cache-Control": "no-store"})


def error_response(conn: HTTPConnection, status: int, message: str, kind: str | None = None) -> Response:
    """The answer to an error: a page for a browser, JSON (``error`` and ``code``) for programs."""
    if wants_html(conn.url.path, conn.headers.get("accept")):
        return error_page(status, pick_lang(conn.headers.get("accept-language")), kind)
    code = JSON_CODES.get(status, ErrorCode.BAD_MESSAGE)
    return JSON(ErrorBody(message, code), status_code=status, headers={"Cache-Control": "no-store"})
