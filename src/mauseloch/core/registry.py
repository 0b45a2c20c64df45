"""The games' declarations and the registry behind ``mauseloch.GAMES``.

A game describes itself once with a :class:`GameInfo` (its rules' class, players, options, clock,
seating, simulator hooks, ranking) and :func:`register` makes it known to the library, the
simulator, the terminal and the web platform. Generic code asks :func:`game_info` and never names
a game; :func:`new_game` starts one by name.

A declaration holds facts: plain values and typed functions, never a module's name in a string.
A function whose work needs an extra (a compiled kernel, a numpy bot) imports it in its body, so
declaring a game loads nothing beyond the standard library and msgspec. What a front end draws
for a game the front end registers itself (``web/js/games.js``, :mod:`mauseloch.tui.games`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NotRequired, TypedDict

from mauseloch.core.bot import BotFactory
from mauseloch.core.engine import Game, as_int, check_seed
from mauseloch.core.events import Event
from mauseloch.core.shapes import Figures, OptionDict, OptionValue
from mauseloch.core.simulation import ChunkRunner, Notice, SimSpec

REGISTRY: dict[str, GameInfo] = {}  # written by register and unregister only
# Read-only for everybody else: a game is added only by registering its declaration.
GAMES: Mapping[str, GameInfo] = MappingProxyType(REGISTRY)


class OptionEntry(TypedDict):
    """An option as the lobby and the command line read it (:meth:`OptionSpec.to_dict`)."""

    name: str
    type: str  # "bool" or "int"
    default: OptionValue | None  # None where the default depends on the player count
    default_text: str
    minimum: int | None
    maximum: int | None
    description: str
    house_rule: bool
    defaults_by_players: NotRequired[dict[str, OptionValue]]  # player count as a string -> default


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its type, default, range and a one-line description for CLI and lobby.

    A default that depends on the player count (Aus die Maus' small deck) has ``default=None``,
    a ``default_for`` that computes it and a ``default_text`` that says it to people; the game's
    metadata then lists the default for every player count (``GameInfo.to_dict``).
    """

    name: str
    type: type  # bool or int
    default: Any  # None when ``default_for`` decides
    description: str
    minimum: int | None = None
    # the largest value the kernels' 64-bit counters and the server's timers hold with room to spare
    maximum: int | None = None
    # (players, the options resolved so far) -> the default
    default_for: Callable[[int, OptionDict], OptionValue] | None = field(default=None, repr=False)
    default_text: str | None = None  # how to describe such a default to people
    # one of the rules the people at a table agree on; False: a setting of the engine (how long a
    # test game may run, how long a reaction window stays open), never called a house rule
    house_rule: bool = True

    def to_dict(self) -> OptionEntry:
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "default_text": self.default_text or str(self.default).lower(),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "description": self.description,
            "house_rule": self.house_rule,
        }

    def help_text(self) -> str:
        """``chips=N: chips in the game ... (default: 9, or 5 with the small deck)``"""
        value = "true/false" if self.type is bool else "N"
        default = self.default_text or str(self.default).lower()
        return f"{self.name}={value}: {self.description} (default: {default})"


CLOCK_SETTINGS = ("off", "relaxed", "normal", "fast")
ClockSetting = Literal["off", "relaxed", "normal", "fast"]


@dataclass(frozen=True)
class Clock:
    """Seconds a seat has per move at each clock setting of a web table (``off``: no clock), and
    the setting a new table starts with. In a reaction game it is the countdown before each card
    the game shows."""

    relaxed: float = 60.0
    normal: float = 30.0
    fast: float = 15.0
    default: ClockSetting = "normal"

    def seconds(self, setting: str) -> float | None:
        """Seconds per move at ``setting``; None for ``off`` and for a setting that is none."""
        return {"relaxed": self.relaxed, "normal": self.normal, "fast": self.fast}.get(setting)

    def choices(self) -> dict[str, float | None]:
        """Every setting with its seconds, in the order the lobby offers them."""
        return {name: self.seconds(name) for name in CLOCK_SETTINGS}


@dataclass(frozen=True)
class BotKind:
    """A bot kind a game brings itself: its ``name`` (what ``make_bot`` and ``--bots`` take),
    ``make(seed) -> bot``, and ``needs``, the packages its decisions import (found without
    importing them: a kind whose packages are missing here is not offered, and making one says
    what to install). A ``make`` whose bot needs such packages imports them in its body, so that
    declaring the game loads none of them."""

    name: str
    make: BotFactory
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Seating:
    """Who plays a seat of the game at a web table besides the people who sit down.

    ``bot_delay``: seconds a bot waits before it moves, so the people at the table can follow.
    ``standin``: the bot kind that plays for a person who has gone (the strongest registered kind
    where the game has no such kind). ``study_bots``: kinds registered for simulations only, that a
    table does not offer (a reaction game's random bot reacts at 0 ms, faster than any person).
    ``bots``: the bot kinds the game brings itself, weakest first (:class:`BotKind`; every game
    also has those ``mauseloch.bots.register_bot`` registers, the random bot first).
    ``prepare(on_compile)`` compiles or loads what its bots decide with before a server opens its
    first table (``on_compile()`` first says when that takes seconds).
    """

    bot_delay: float = 0.6
    standin: str = "heuristic"
    study_bots: tuple[str, ...] = ()
    bots: tuple[BotKind, ...] = ()
    prepare: Callable[[Callable[[], None] | None], None] | None = None


@dataclass(frozen=True)
class Simulation:
    """What ``mauseloch simulate`` and ``mauseloch tournament`` use beyond the default runner
    (which plays any game through the public API), as functions; one that needs a compiled kernel
    imports it in its body, so declaring a game never loads one.

    ``runner(spec, start, stop) -> Tally``: plays a chunk of games (a compiled kernel that plays
    exactly the engine's games); ``applies(spec) -> bool``: the specs the runner plays (all when
    None); ``prepare(spec, notice)``: compiles what the bots need once before the workers start;
    ``figures(finished game) -> {name: int or a list of ints per seat}``, added to each game's
    statistics; ``length_unit``: what the report counts as a game's length (``moves``, or Aus die
    Maus!' ``flips``).
    """

    runner: ChunkRunner | None = None
    applies: Callable[[SimSpec], bool] | None = None
    prepare: Callable[[SimSpec, Notice | None], None] | None = None
    figures: Callable[[Game], Figures] | None = None
    length_unit: str = "moves"


class GameType(TypedDict):
    """What :meth:`GameInfo.game_type` says, in OpenSpiel's words (``docs/research.md``)."""

    dynamics: Literal["sequential", "reactions"]
    chance_mode: Literal["sampled"]
    information: Literal["imperfect"]
    utility: Literal["zero-sum"]
    reward_model: Literal["terminal"]
    utility_range: tuple[float, float]
    max_game_length: int | None
    players: tuple[int, int]


class GameEntry(TypedDict):
    """A game as the lobby (``/api/games``) and the command line read it (:meth:`GameInfo.to_dict`)."""

    name: str
    title: str
    description: str
    min_players: int
    max_players: int
    dynamics: Literal["turns", "reactions"]
    options: list[OptionEntry]
    words: str
    match: bool


@dataclass(frozen=True)
class GameInfo:
    """What ``mauseloch.GAMES[name]`` says about a game: its declaration. Everything the platform
    needs to know about a game is here; generic code (server, simulator, terminal, page) asks it
    and never names a game.

    Besides the rules (``factory``, players, options, ``dynamics``) a game declares: ``clock``
    (the web table's clock settings), ``seating`` (bots at a table, the stand-in), ``simulation``
    (the simulator's hooks), ``ranked_by`` (what decides the ranking of its result, in order: a
    figure of the result and whether ``"fewer"`` or ``"more"`` is better, for the end screen to
    explain), ``deal_letter`` (the first letter of its deal codes, one capital letter per game),
    ``words`` (the prefix of its keys in ``locale/*.toml``: ``<words>.reason.<reason>`` says an end
    reason, ``<words>.ev.<type>`` an event), ``match`` (its result carries card points that a
    match adds up) and ``events`` (the event structs it logs,
    :func:`mauseloch.core.events.declare`; empty: those of the ``events`` module beside its rules).

    Facts only, no front end: the page and the terminal register what draws a game themselves
    (``web/js/games.js``, :mod:`mauseloch.tui.games`); a game without them is drawn from its view.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    factory: type[Game] = field(repr=False, compare=False)
    description: str = ""
    # How play flows (like OpenSpiel's declared game type): "turns", one seat moves at a time;
    # "reactions", a shown card opens a window in which every seat may react at once and a
    # referee (mauseloch.realtime.referee) decides who was first. Such a game has a window_ms option.
    dynamics: Literal["turns", "reactions"] = "turns"
    clock: Clock = Clock()
    seating: Seating = Seating()
    simulation: Simulation = Simulation()
    ranked_by: tuple[tuple[str, Literal["fewer", "more"]], ...] = ()
    deal_letter: str = ""
    words: str = ""
    match: bool = False
    events: tuple[type[Event], ...] = field(default=(), repr=False)

    def defaults(self, players: int) -> OptionDict:
        """Every option's default for a game of ``players`` (some depend on the count)."""
        return self.resolve_options(self.check_players(players), None)

    def to_dict(self) -> GameEntry:
        """The JSON form the lobby and the command line read.

        Each option carries ``defaults_by_players`` (player count as a string -> default), and
        ``default`` is None where that default depends on the count.
        """
        by_players = {n: self.defaults(n) for n in range(self.min_players, self.max_players + 1)}
        options = []
        for spec in self.options:
            entry = spec.to_dict()
            entry["defaults_by_players"] = {str(n): d[spec.name] for n, d in by_players.items()}
            options.append(entry)
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "dynamics": self.dynamics,
            "options": options,
            "words": self.words,
            "match": self.match,
        }

    def options_help(self) -> str:
        """One line per option with its default, for ``--help``."""
        return "; ".join(spec.help_text() for spec in self.options)

    def game_type(self, players: int | None = None, options: Mapping[str, Any] | None = None) -> GameType:
        """What OpenSpiel's game type and game info say, for this game with ``options``
        (``docs/research.md``): every game here deals and reshuffles from one seed (sampled
        chance) and hides cards; its outcome is the final ranking, which the interfaces score as
        rank rewards (+1 for first place down to -1 for last, ties sharing, sum 0) at the end.
        ``max_game_length`` is the ``move_limit`` option where the game has one, else None (no
        bound the rules set)."""
        n = self.check_players(self.min_players if players is None else players)
        limit = self.resolve_options(n, options).get("move_limit")
        return {
            "dynamics": "sequential" if self.dynamics == "turns" else "reactions",
            "chance_mode": "sampled",
            "information": "imperfect",
            "utility": "zero-sum",
            "reward_model": "terminal",
            "utility_range": (-1.0, 1.0),
            "max_game_length": None if limit is None else int(limit),
            "players": (self.min_players, self.max_players),
        }

    def resolve_options(self, players: int, options: Mapping[str, Any] | None) -> OptionDict:
        """All options with defaults filled in, checked for name, type and range."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):  # a dict, or another game's read-only options
            raise ValueError(f"options must be a dict of name -> value, got {options!r}")
        # none given (every new game of a simulation): nothing to look up
        known = {spec.name: spec for spec in self.options} if options else {}
        given: OptionDict = {}
        spelled: dict[str, object] = {}  # the name each option was given under
        for raw_name, value in options.items():
            name = raw_name.strip().lower() if isinstance(raw_name, str) else raw_name
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise ValueError(f"unknown option {raw_name!r} for {self.name}; allowed: {allowed}")
            if name in spelled:  # "ace_skips" and "ACE_SKIPS": which one was meant is a guess
                raise ValueError(f"option {name} is given twice, as {spelled[name]!r} and {raw_name!r}; give it once")
            spelled[name] = raw_name
            spec = known[name]
            if spec.type is bool:
                if not isinstance(value, bool):
                    raise ValueError(f"option {name} must be true or false, got {value!r}")
            elif spec.type is int:
                value = as_int(value, f"option {name}", spec.minimum)  # a plain int, so records stay JSON
                if spec.maximum is not None and value > spec.maximum:
                    raise ValueError(
                        f"option {name} must be at most {spec.maximum}, got {value} "
                        f"(allowed: {spec.minimum} to {spec.maximum})"
                    )
            given[name] = value
        resolved: OptionDict = {}
        for spec in self.options:  # in declaration order, so later defaults may use earlier ones
            if spec.name in given:
                resolved[spec.name] = given[spec.name]
            elif spec.default_for is not None:
                resolved[spec.name] = spec.default_for(players, resolved)
            else:
                resolved[spec.name] = spec.default
        return resolved

    def options_from_text(self, pairs: Iterable[str]) -> OptionDict:
        """``["ace_skips=true", "move_limit=50"]`` (command-line form) -> typed option values."""
        known = {spec.name: spec for spec in self.options}
        options: OptionDict = {}
        for pair in pairs:
            name, sep, text = pair.partition("=")
            name = name.strip().lower().replace("-", "_")
            if not sep:
                raise ValueError(f"option {pair!r} must look like NAME=VALUE")
            if name not in known:
                raise ValueError(f"unknown option {name!r} for {self.name}; allowed: {', '.join(known) or 'none'}")
            if name in options:
                raise ValueError(f"option {name} is given twice; give it once")
            value = text.strip().lower()
            if known[name].type is bool:
                if value in ("true", "yes", "on", "1"):
                    options[name] = True
                elif value in ("false", "no", "off", "0"):
                    options[name] = False
                else:
                    raise ValueError(f"option {name} must be true or false, got {text!r}")
            else:
                try:
                    options[name] = int(value)
                except ValueError:
                    raise ValueError(f"option {name} must be a whole number, got {text!r}") from None
        return options

    def check_players(self, value: Any) -> int:
        players = as_int(value, "players")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"players={players} is not allowed for {self.name}: {self.min_players} to {self.max_players} players"
            )
        return players


_NAME = re.compile(r"[a-z][a-z0-9-]*")
_KIND = re.compile(r"[a-z0-9][a-z0-9_-]*")  # as make_bot and --bots look a kind up


def register(info: GameInfo) -> GameInfo:
    """Add a game to ``mauseloch.GAMES`` (``mauseloch.register_game``): the one call that makes
    a game known to the library, the simulator, the terminal and the web platform. Registering
    a name again replaces its declaration (a module imported twice); a declaration whose deal
    letter another game has, or whose names the platform could not use, is refused."""
    if not isinstance(info, GameInfo):
        raise ValueError(f"register a GameInfo, got {type(info).__name__}")
    if not _NAME.fullmatch(info.name):
        raise ValueError(f"a game's name is lower case letters, digits and '-', got {info.name!r}")
    if not (len(info.deal_letter) == 1 and "A" <= info.deal_letter <= "Z"):
        raise ValueError(f"{info.name}: deal_letter must be one capital letter, got {info.deal_letter!r}")
    for other in REGISTRY.values():
        if other.name != info.name and other.deal_letter == info.deal_letter:
            raise ValueError(f"{info.name}: deal letter {info.deal_letter} is {other.name}'s already")
    for figure, better in info.ranked_by:
        if better not in ("fewer", "more"):
            raise ValueError(f"{info.name}: ranked_by says 'fewer' or 'more' of {figure!r}, got {better!r}")
    for kind in info.seating.bots:
        if not _KIND.fullmatch(kind.name) or not callable(kind.make):
            raise ValueError(f"{info.name}: a bot kind is a lower case word with a factory, got {kind!r}")
    REGISTRY[info.name] = info
    info.factory.name = info.name  # a game knows its name (``game_info(g.name)``: its declaration)
    return info


def unregister(name: str) -> None:
    """Take a game out of ``mauseloch.GAMES`` again (tests that register a game of their own)."""
    REGISTRY.pop(game_info(name).name)


def game_info(name: Any) -> GameInfo:
    """The declaration of the game called ``name`` (any case, spaces around it ignored)."""
    info = REGISTRY.get(name) if type(name) is str else None
    if info is not None:  # spelled as registered (every new game of a simulation)
        return info
    if not isinstance(name, str):
        raise ValueError(f"game name must be a string, got {name!r}")
    key = name.strip().lower()
    if key not in GAMES:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return GAMES[key]


def new_game(
    game: str,
    players: int | None = None,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    deck: Iterable[str] | None = None,
) -> Game:
    """Start a game: ``new_game("mau-mau", players=3, seed=7, options={"ace_skips": True})``."""
    info = game_info(game)
    n = info.check_players(info.min_players if players is None else players)
    resolved = info.resolve_options(n, options)
    if deck is not None and not isinstance(deck, (list, tuple)):
        raise ValueError(f"deck must be a list of card strings, got {type(deck).__name__}")
    return info.factory.create(n, check_seed(seed), resolved, None if deck is None else list(deck))
