"""Deal codes: a short code that names one deal (game, players, options, seed), so a family can
play "the same deal again" at another table or in the terminal.

A code reads ``M4-1Z3KQ8V0`` or ``M4-1Z3KQ8V0-a1e50``: a letter for the game (its declaration's
``deal_letter``) and the number of players, the seed in Crockford's base 32 (case does not
matter; O reads as 0, I and L as 1), and then only the options that differ from the game's
defaults, each as a letter (the option's place in the game's list: a, b, c, …) followed by its
value (1 or 0 for yes or no, else the number).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mauseloch.core.engine import check_seed
from mauseloch.core.registry import GAMES, game_info
from mauseloch.core.shapes import OptionDict

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ = {c: i for i, c in enumerate(_ALPHABET)} | {"O": 0, "I": 1, "L": 1}
_HEAD = re.compile(r"([A-Z])(\d)")
_OPTION = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True)
class Deal:
    """What a deal code names: enough for ``mauseloch.new_game`` to deal the same cards."""

    game: str
    players: int
    options: OptionDict
    seed: int

    @property
    def code(self) -> str:
        return encode(self.game, self.players, self.options, self.seed)


def _base32(n: int) -> str:
    digits = ""
    while True:
        n, r = divmod(n, 32)
        digits = _ALPHABET[r] + digits
        if n == 0:
            return digits


def encode(game: str, players: int, options: Mapping[str, Any], seed: int) -> str:
    """The code of a deal; ``options`` as a game reports them (resolved) or only some of them."""
    info = game_info(game)
    n = info.check_players(players)
    resolved = info.resolve_options(n, options)
    defaults = info.defaults(n)
    parts = []
    for i, spec in enumerate(info.options):
        value = resolved[spec.name]
        if value != defaults[spec.name]:
            parts.append(f"{chr(ord('a') + i)}{int(value)}")
    code = f"{info.deal_letter}{n}-{_base32(check_seed(seed))}"
    return f"{code}-{''.join(parts)}" if parts else code


def code_of(game: Any) -> str:
    """The code of a running or finished game's deal."""
    return encode(game.name, game.players, game.options, game.seed)


def decode(text: Any) -> Deal:
    """The deal a code names; ``ValueError`` saying what is wrong with a code that is not one."""
    if not isinstance(text, str):
        raise ValueError(f"a deal code is text, got {type(text).__name__}")
    raw = text.strip()
    parts = raw.split("-")
    match = _HEAD.fullmatch(parts[0].upper())
    if match is None or len(parts) not in (2, 3) or not parts[1]:
        raise ValueError(f"{raw!r} is not a deal code (it looks like M4-1Z3KQ8V0)")
    names = {info.deal_letter: name for name, info in GAMES.items()}  # each game declares its letter
    if match[1] not in names:
        raise ValueError(f"{raw!r}: {match[1]} is no game's letter ({', '.join(sorted(names))})")
    info = game_info(names[match[1]])
    n = info.check_players(int(match[2]))
    seed = 0
    for c in parts[1].upper():
        if c not in _READ:
            raise ValueError(f"{raw!r}: {c!r} is not a letter of a seed")
        seed = seed * 32 + _READ[c]
    options: OptionDict = {}
    rest = parts[2].lower() if len(parts) == 3 else ""
    found = list(_OPTION.finditer(rest))
    if "".join(m[0] for m in found) != rest:
        raise ValueError(f"{raw!r}: the options part must be letters each followed by a number")
    for m in found:
        index = ord(m[1]) - ord("a")
        if index >= len(info.options):
            raise ValueError(f"{raw!r}: {info.title} has no option {m[1]}")
        spec = info.options[index]
        if spec.type is bool:
            if m[2] not in ("0", "1"):
                raise ValueError(f"{raw!r}: option {m[1]} ({spec.name}) is 1 or 0, got {m[2]}")
            options[spec.name] = m[2] == "1"
        else:
            options[spec.name] = int(m[2])
    return Deal(info.name, n, info.resolve_options(n, options), check_seed(seed))
