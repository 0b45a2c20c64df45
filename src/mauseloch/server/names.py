"""People's names and table titles as they are typed: cleaned (NFC, printable, one space),
measured in the characters a reader sees (graphemes, display columns) and refused with the
reason when too long, smeared with accents or reserved for bots and stand-ins.
"""

from __future__ import annotations

import re
import unicodedata

from mauseloch.server.protocol import ErrorCode, ProtocolError

MAX_NAME = 32  # display columns of a name
MAX_TITLE = 60  # display columns of a table's title
MAX_MARKS = 2  # combining marks on one letter (more only pile up into a smear over other text)


# Names a person may not take: what bots and stand-ins are called ("Random bot 2", "Zufalls-Bot"),
# compared after NFKC and case folding, so "ＢＯＴ" is no way round.
RESERVED_NAME = re.compile(r"(?:\w+[\s_-]+)?(?:ro)?bot(?:[\s_-]*\d+)?|stand[\s_-]?in|vertretung|server")


ZWJ = "\u200d"  # the zero-width joiner: glues emoji into one picture (👨‍👩‍👧‍👦 is one family)


def _joins_emoji(ch: str) -> bool:
    """A symbol a zero-width joiner may glue to another (an emoji, a skin tone)."""
    return unicodedata.category(ch) in ("So", "Sk")


def _extends(ch: str) -> bool:
    """Part of the character before it: marks, variation selectors, skin tones, tags, joiners."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (the flags of England, Scotland, Wales)
        or ch == ZWJ
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF  # two of them make a flag


def graphemes(text: str) -> list[str]:
    """``text`` cut where a reader sees one character end and the next begin (Unicode's extended
    grapheme clusters, closely enough for names): a letter with its accents, an emoji with its skin
    tone and variation selector, emoji joined by zero-width joiners, a flag's two letters. The page
    cuts names with ``Intl.Segmenter`` at the same places."""
    out: list[str] = []
    for ch in text:
        last = out[-1] if out else ""
        if last and (_extends(ch) or last.endswith(ZWJ) or (_regional(ch) and len(last) == 1 and _regional(last))):
            out[-1] = last + ch
        else:
            out.append(ch)
    return out


def display_width(text: str) -> int:
    """Columns ``text`` takes, one character (grapheme) at a time: East Asian wide and full-width
    characters and emoji take two, a mark on nothing none, the rest one."""
    width = 0
    for cluster in graphemes(text):
        if any(unicodedata.east_asian_width(ch) in ("W", "F") for ch in cluster):
            width += 2
        elif not unicodedata.combining(cluster[0]):
            width += 1
    return width


def _visible(text: str) -> str:
    """``text`` without invisible characters (controls, zero-width spaces, bidi overrides), each
    kind of space as one space; a zero-width joiner or tag stays where it is part of an emoji."""
    kept: list[str] = []
    for i, ch in enumerate(text):
        if ch.isspace():
            kept.append(" ")
        elif ch.isprintable():
            kept.append(ch)
        elif ch == ZWJ:
            after = text[i + 1] if i + 1 < len(text) else ""
            if kept and after and _joins_emoji(_base(kept)) and _joins_emoji(after):
                kept.append(ch)
        elif 0xE0020 <= ord(ch) <= 0xE007F and kept and _joins_emoji(_base(kept)):
            kept.append(ch)
    return "".join(kept)


def _base(kept: list[str]) -> str:
    """The last character kept that is not a variation selector, skin tone or tag: what a joiner
    joins to."""
    for ch in reversed(kept):
        code = ord(ch)
        if not (0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F):
            return ch
    return ""


def _clean_text(
    text: str | None, fallback: str, limit: int, what: str, too_long: ErrorCode, marks_code: ErrorCode
) -> str:
    """NFC, printable, inner spaces collapsed, trimmed, at most ``limit`` columns wide and
    ``MAX_MARKS`` combining marks on a letter; ``fallback`` if missing or empty."""
    if text is None:
        return fallback
    text = unicodedata.normalize("NFC", text)
    # spaces of every kind (and tabs, line breaks) become one space; other invisible characters
    # (controls, zero-width, bidi overrides) are dropped, but not the joiners inside an emoji
    cleaned = " ".join(_visible(text).split())
    # counted in characters as people see them: a family emoji is one, not seven code points
    if len(graphemes(cleaned)) > limit or display_width(cleaned) > limit:
        raise ProtocolError(too_long, f"{what} must be at most {limit} characters")
    marks = 0
    for ch in cleaned:
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_MARKS:
            raise ProtocolError(marks_code, f"{what} has more than {MAX_MARKS} accents on one letter")
    return cleaned or fallback


def clean_name(name: str | None, fallback: str) -> str:
    """A display name (at most ``MAX_NAME`` columns); bots' and stand-ins' names are reserved."""
    cleaned = _clean_text(name, fallback, MAX_NAME, "name", ErrorCode.NAME_TOO_LONG, ErrorCode.NAME_MARKS)
    if cleaned != fallback and RESERVED_NAME.fullmatch(unicodedata.normalize("NFKC", cleaned).casefold()):
        raise ProtocolError(ErrorCode.NAME_RESERVED, f"the name {cleaned!r} is kept for bots and stand-ins")
    return cleaned


def clean_title(title: str | None, fallback: str) -> str:
    """A table title (at most ``MAX_TITLE`` columns)."""
    return _clean_text(title, fallback, MAX_TITLE, "title", ErrorCode.TITLE_TOO_LONG, ErrorCode.TITLE_MARKS)
