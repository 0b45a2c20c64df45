"""What a person types in the terminal, in German or English, turned into the spec's notation
before the engine reads it (the engine's ``parse_move`` knows the notation only, and decides
whether the move is legal).

German: the suits Herz, Karo, Pik, Kreuz (or their initials H, Ka, P, Kr as on the cards), the
ranks 7 8 9 10 and B, D, K, A (Bube, Dame, König, Ass), in either order (``Herz Dame``, ``DH``,
``Kreuz-Bube:Herz``), and the words ``ziehen``, ``passen``, ``nehmen``. Anything that is not
German is passed on as typed, so the notation (``QH``, ``JC:S``, ``draw``) works in both
languages.
"""

from __future__ import annotations

import re

ACTIONS = {"ziehen": "draw", "passen": "pass", "nehmen": "take"}
# the one-letter shortcuts of each language: d(raw) p(ass) t(ake), z(iehen) p(assen) n(ehmen)
SHORTCUTS = {"en": {"d": "draw", "p": "pass", "t": "take"}, "de": {"z": "draw", "p": "pass", "n": "take"}}
SUIT_WORDS = {"herz": "H", "karo": "D", "pik": "S", "kreuz": "C", "ka": "D", "kr": "C", "p": "S", "h": "H"}
RANK_WORDS = {
    "sieben": "7", "acht": "8", "neun": "9", "zehn": "T", "bube": "J", "dame": "Q", "könig": "K", "koenig": "K",
    "konig": "K", "ass": "A", "7": "7", "8": "8", "9": "9", "10": "T", "b": "J", "d": "Q", "k": "K", "a": "A",
}  # fmt: skip
_SYMBOLS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
# longest words first, so "kreuz" is not read as "kr" + "euz" and "karo" not as "ka" + "ro"
_SUIT = "|".join(sorted(SUIT_WORDS, key=len, reverse=True))
_RANK = "|".join(sorted(RANK_WORDS, key=len, reverse=True))
_CARD = re.compile(rf"(?:(?P<r1>{_RANK})(?P<s1>{_SUIT}|[♣♠♥♦])|(?P<s2>{_SUIT}|[♣♠♥♦])(?P<r2>{_RANK}))")


def german_card(text: str) -> str | None:
    """``"Herz Dame"``, ``"DH"``, ``"10Ka"``, ``"Kreuz-Bube"`` -> the card in notation; None
    when the text is not a German card."""
    squeezed = re.sub(r"[\s\-]+", "", text.strip().lower())
    match = _CARD.fullmatch(squeezed)
    if match is None:
        return None
    rank = RANK_WORDS[match["r1"] or match["r2"]]
    suit_word = match["s1"] or match["s2"]
    suit = _SYMBOLS.get(suit_word) or SUIT_WORDS[suit_word]
    return rank + suit


def german_suit(text: str) -> str | None:
    """``"Herz"``, ``"ka"``, ``"Kr"`` -> the suit letter; None when it is not a German suit."""
    return SUIT_WORDS.get(text.strip().lower())


def to_notation(text: str, lang: str) -> str:
    """A typed move in the notation the engine reads: German words translated (when ``lang`` is
    German), the language's one-letter shortcuts expanded, everything else as typed."""
    typed = text.strip()
    low = typed.lower()
    if low in SHORTCUTS.get(lang, {}):
        return SHORTCUTS[lang][low]
    if low in ACTIONS:  # the German words work in both languages: there is nothing to mix up
        return ACTIONS[low]
    if lang != "de":
        return typed
    card, colon, wish = typed.partition(":")
    spelled = german_card(card) or card.strip()
    if colon:
        return f"{spelled}:{german_suit(wish) or wish.strip()}"
    return spelled
