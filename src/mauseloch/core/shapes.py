"""The names of the shapes that cross the library's boundaries, in one place.

Inside the library views, results and events are structs (core/views.py, core/events.py,
games/<game>/); these aliases name what is not: a game's options, and a JSON object at a true
JSON edge (the public API's dicts ``g.view()``, ``g.result()``, ``g.events``, ``g.record()``,
an HTTP body, a WebSocket frame, a record or report file, a third-party interface that
defines a dict: gymnasium's ``info``, OpenSpiel's parameters, RLCard's state).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

OptionValue: TypeAlias = bool | int | str
Options: TypeAlias = Mapping[str, OptionValue]  # options as given: name -> value, read only
OptionDict: TypeAlias = dict[str, OptionValue]  # a game's options, every one resolved
JSONObject: TypeAlias = dict[str, Any]  # a JSON object at a true JSON edge (see above)
Figures: TypeAlias = dict[str, int | list[int]]  # a finished game's figures: per game or per seat
