"""Events: each declared once, as a tagged msgspec struct, with its redaction rule.

A game declares its events in its package (``games/<game>/events.py``): one struct per event,
tagged by ``type``, listed in the module's ``EVENTS = declare(...)``. The rules log these structs as they
happen; ``Game.events`` hands out their JSON form (``msgspec.to_builtins``), so an event's
shape exists only in its struct, and ``docs/events.schema.json`` is generated from the structs
(:mod:`mauseloch.core.schema`, which also looks a game's events up by its name).

A struct costs more to make than many a move (a simulation plays millions and reads no event),
so the rules may log an event as a tuple ``(make, *args)`` instead (:data:`Logged`): ``make``
is the event's struct, or a function returning it, and ``make(*args)`` is the struct, made by
:func:`made` when somebody reads the log. The args are never changed after they are logged.

The redaction rule: an event with a ``private`` field belongs to that seat, and its ``hidden``
fields (the cards) are for that seat alone. Every other seat, and a spectator, receives the
public copy: the event without ``private`` and without the hidden fields. The public copy's
struct is derived from the private one (:func:`public_type`), never written by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, ClassVar

import msgspec

from mauseloch.core.shapes import JSONObject

Seat = Annotated[int, msgspec.Meta(ge=0)]
Count = Annotated[int, msgspec.Meta(ge=0)]
PerSeat = list[int]  # a figure per seat, indexed by seat (result lists)

OWNER = "private"  # the field naming the seat a private event belongs to

# event type -> the fields only its owner sees, over every game's declared events: the rule
# ``event_for`` applies to an event's JSON form, which does not say which game logged it
_HIDDEN: dict[str, frozenset[str]] = {}


class Event(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, kw_only=True):
    """Base of every event shape: the ``type`` tag names the event; no other field is allowed.

    A private event declares a ``private`` field (its owner's seat) and lists in ``hidden`` the
    fields only that seat sees; every other field is public."""

    hidden: ClassVar[tuple[str, ...]] = ()


# An event as the rules log it: its struct, or ``(make, *args)`` with ``make(*args)`` the struct
Logged = Event | tuple[Any, ...]


def made(log: list[Logged], index: int = 0) -> list[Event]:
    """``log[index:]`` as structs: each entry logged as ``(make, *args)`` is made now and kept in
    ``log`` in its place, so that it is made once."""
    for i in range(index, len(log)):
        entry = log[i]
        if type(entry) is tuple:
            log[i] = entry[0](*entry[1:])
    return log[index:]  # type: ignore[return-value]  # every entry is a struct now


def tag(cls: type[Event]) -> str:
    return str(cls.__struct_config__.tag)


def fields(cls: type[Event]) -> tuple[str, ...]:
    """The field names of an event shape (``type`` included)."""
    return ("type", *cls.__struct_fields__)


@cache
def public_type(cls: type[Event]) -> type[Event]:
    """The shape other seats see of ``cls``: ``cls`` itself for a public event, else a struct
    of the same tag without ``private`` and the hidden fields (named ``<cls>Public``)."""
    if not cls.hidden:
        return cls
    drop = {OWNER, *cls.hidden}
    kept = [
        (f.name, f.type) if f.required else (f.name, f.type, f.default)
        for f in msgspec.structs.fields(cls)
        if f.name not in drop
    ]
    made = msgspec.defstruct(
        cls.__name__ + "Public", kept, bases=(Event,), tag=tag(cls), module=cls.__module__, kw_only=True
    )
    assert issubclass(made, Event)
    public: type[Event] = made
    public.__doc__ = f"What the other seats see of {tag(cls)!r}: {', '.join(sorted(cls.hidden))} left out."
    return public


@cache
def seen_type(cls: type[Event]) -> type[Event]:
    """The one shape of ``cls`` in any seat's frame: ``cls`` itself for a public event, else a
    struct of the same tag whose ``private`` and hidden fields are there for their owner only
    (absent in everyone else's copy). A seat's frame is checked against these."""
    if not cls.hidden:
        return cls
    drop = {OWNER, *cls.hidden}
    kept = [(f.name, f.type) if f.required else (f.name, f.type, f.default) for f in msgspec.structs.fields(cls)
            if f.name not in drop]  # fmt: skip
    owned = [(f.name, f.type | None, None) for f in msgspec.structs.fields(cls) if f.name in drop]
    made = msgspec.defstruct(cls.__name__ + "Seen", [*kept, *owned], bases=(Event,), tag=tag(cls),
                             module=cls.__module__, kw_only=True, omit_defaults=True)  # fmt: skip
    assert issubclass(made, Event)
    seen: type[Event] = made
    seen.__doc__ = f"{tag(cls)!r} in a seat's frame: {', '.join(sorted(drop))} for its owner only."
    return seen


def seen_by(event: Event, seat: int | None) -> Event:
    """The copy of ``event`` that ``seat`` (None: a spectator) may see, as its struct."""
    owner = getattr(event, OWNER, None)
    if owner is None or owner == seat:
        return event
    public = public_type(type(event))
    return public(**{name: getattr(event, name) for name in public.__struct_fields__})


def event_for(event: Mapping[str, Any], seat: int | None) -> JSONObject | None:
    """The copy of ``event`` (an event's JSON form, as ``Game.events`` gives it) that ``seat``
    (None: a spectator) may see: by the redaction rule of its declared struct."""
    owner = event.get(OWNER)
    if owner is None or owner == seat:
        return event if isinstance(event, dict) else dict(event)
    hidden = _HIDDEN.get(event.get("type"), frozenset()) | {OWNER}  # type: ignore[arg-type]
    return {k: v for k, v in event.items() if k not in hidden}


def declare(*events: type[Event]) -> tuple[type[Event], ...]:
    """A game's events (its module's ``EVENTS``), checked and their redaction rules noted for
    :func:`event_for`: a private event has the ``private`` field and its hidden fields, and an
    event type hides the same fields in every game."""
    for cls in events:
        if not cls.hidden:
            continue
        missing = {OWNER, *cls.hidden} - set(cls.__struct_fields__)
        if missing:
            raise TypeError(f"{cls.__name__}: a private event needs the fields {sorted(missing)}")
        kind, rule = tag(cls), frozenset(cls.hidden)
        if _HIDDEN.setdefault(kind, rule) != rule:
            raise TypeError(f"{cls.__name__}: {kind!r} events already hide {sorted(_HIDDEN[kind])} in another game")
    return events
