"""What a notification says: words in the seat's language and the table's link, nothing else
(no card, no seat token, no invite: a push service and the device's lock screen see it)."""

from __future__ import annotations

from typing import Literal

import msgspec

from mauseloch.core.registry import game_info
from mauseloch.locale import Lang, t, tn
from mauseloch.server.protocol import TableSummary

Kind = Literal["turn", "remind", "end"]
NAME_SHOWN = 20  # as the page's i18n.js cuts a long name


class Payload(msgspec.Struct, frozen=True):
    """The encrypted body of a push: the service worker (web/sw.js) shows ``title`` and
    ``body`` and opens ``url`` on a tap; ``tag``: a newer notice of a table replaces the older."""

    title: str
    body: str
    url: str
    tag: str


def table_title(table: TableSummary, lang: Lang) -> str:
    """As the page's ``tableTitle``: the creator's title, else "<game> bei <host>"."""
    if table.title:
        return table.title
    game = game_info(table.game).title
    people = sorted((s for s in table.seats if s.kind == "human" and s.taken and s.name), key=lambda s: s.player)
    if not people:
        return game
    name = people[0].name
    if len(name) > NAME_SHOWN:
        name = name[: NAME_SHOWN - 1].rstrip() + "…"
    return t("table.defaultTitle", lang, game=game, name=name)


def time_left(seconds: float, lang: Lang) -> str:
    """ "noch 2 Tage 3 Std." / "2 days 3 hrs left": the two largest units, rounded down (as the
    page's clock says it: web/js/pace.js)."""
    s = max(0, round(seconds))
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    parts = [(days, "time.days"), (hours, "time.hours")] if days else [(hours, "time.hours"), (minutes, "time.minutes")]
    if not days and not hours:
        parts = [(minutes, "time.minutes")]
    said = " ".join(tn(key, n, lang) for n, key in parts if n or key == parts[0][1])
    return t("time.left", lang, time=said)


def payload(table: TableSummary, kind: Kind, lang: str, left: float = 0.0) -> bytes:
    """The push for ``kind`` at ``table`` in ``lang`` (``left``: the seconds still left)."""
    language: Lang = "de" if lang == "de" else "en"
    title = t(f"push.{kind}", language, table=table_title(table, language))
    body = time_left(left, language) if kind == "remind" else t(f"push.{kind}Body", language)
    return msgspec.json.encode(Payload(title, body, f"/t/{table.id}", f"ml-{table.id}"))
