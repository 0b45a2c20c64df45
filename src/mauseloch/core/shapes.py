"""The names of the shapes that cross the library's boundaries, in one place.

Inside the library views, results and events are structs (core/views.py, core/events.py,
games/<game>/); these name what is not: a game's options, a game's record (:class:`Record`,
the form ``g.record()`` gives and record files keep), and a JSON object at a true JSON edge (the
public API's dicts ``g.view()``, ``g.result()``, ``g.events``, an HTTP body, a WebSocket frame,
a report file, a third-party interface that defines a dict: gymnasium's ``info``, OpenSpiel's
parameters, RLCard's state).
"""

# no `from __future__ import annotations`: Record's annotations stay objects, so that a TypedDict
# of another module that extends it resolves them (Python 3.14 looks up inherited string
# annotations in the subclass's module: the offline engine's Pyodide runs 3.14)
from collections.abc import Mapping
from typing import Any, TypeAlias, TypedDict

OptionValue: TypeAlias = bool | int | str
Options: TypeAlias = Mapping[str, OptionValue]  # options as given: name -> value, read only
OptionDict: TypeAlias = dict[str, OptionValue]  # a game's options, every one resolved
JSONObject: TypeAlias = dict[str, Any]  # a JSON object at a true JSON edge (see above)
Figures: TypeAlias = dict[str, int | list[int]]  # a finished game's figures: per game or per seat


class Record(TypedDict):
    """A game's record (``g.record()``, api.md): its setup and every move, ``[seat, move]`` or
    ``[seat, move, ms]`` in the order played; a record replays to the same game."""

    game: str
    players: int
    options: OptionDict
    seed: int
    deck: list[str]
    moves: list[list[Any]]
