"""The optional parts of Mauseloch and the one-line hint when one is missing.

``pip install mauseloch`` gives the library: the engine, records, replays and the pure-Python bots
(every game's ``random``, Aus die Maus!' ``slow``, Mausgeflippt's reaction levels), with msgspec as
its only dependency. Everything else is an extra (``pyproject.toml`` declares them):

======== ==========================================================================
extra    what it brings
======== ==========================================================================
terminal the command line and the terminal games (Typer, Rich, Textual) and the compiled
         Mau-Mau bots (numpy, numba)
sim      ``simulate``, ``tournament``, ``analyze``: the compiled kernels (numba), plots
         (matplotlib), the command line
web      ``mauseloch serve``: Starlette, uvicorn, SQLAlchemy, psycopg, openskill, PyICU, the
         compiled bots the tables seat, prometheus-client, python-json-logger, pywebpush
rl       the learning environments (Gymnasium, PettingZoo) on the compiled kernel
train    ``mauseloch train``: JAX, Flax, Optax; the JAX environment ``mauseloch.envs.jax``
research OpenSpiel and RLCard games (``mauseloch.envs.openspiel``, ``envs.rlcard``)
all      all of these
======== ==========================================================================

A module that needs an extra imports it inside ``with needs("extra"):``, so that without it the
import fails with :class:`MissingExtra` (a ``ModuleNotFoundError``) whose message names the extra
and the ``pip install`` line; ``tests/test_lean.py`` checks that every module does.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

# The modules each extra brings that its commands and modules import (their import names, which
# ``require`` looks for); ``pyproject.toml`` declares the packages.
_CLI = ("typer", "rich")  # the command line
COMPILED = ("numpy", "numba")  # the kernels and the compiled bots (what such a bot kind needs)
EXTRAS: dict[str, tuple[str, ...]] = {
    "terminal": (*_CLI, "textual", *COMPILED),
    "sim": (*_CLI, *COMPILED, "matplotlib"),
    "web": (
        *_CLI,
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "psycopg",
        "platformdirs",
        "openskill",
        "icu",
        "markdown_it",
        "prometheus_client",
        "pythonjsonlogger",
        "pywebpush",
        *COMPILED,
    ),
    "rl": ("gymnasium", "pettingzoo", *COMPILED),
    "train": ("jax", "flax", "optax", *COMPILED, "matplotlib", *_CLI, "gymnasium"),
    "research": ("pyspiel", "rlcard", "gymnasium", "pettingzoo", *COMPILED),
    "redis": ("redis",),
    "ray": ("ray",),
}


class MissingExtra(ModuleNotFoundError):
    """An optional part is not installed; the message is one line ending in the ``pip install``
    that brings it. A ``ModuleNotFoundError``, so ``except ImportError`` still catches it."""


def pip_line(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'mauseloch[{extra}]'"


def hint(what: str, extra: str, missing: list[str]) -> str:
    """The one line that says ``what`` needs ``extra``, lacking the modules ``missing``."""
    names = ", ".join(missing)
    verb = "is" if len(missing) == 1 else "are"
    return f"{what} needs the {extra} extra ({names} {verb} not installed): {pip_line(extra)}"


@contextmanager
def needs(extra: str, what: str) -> Iterator[None]:
    """Imports inside this block come from ``extra``: a third-party module missing there is a
    :class:`MissingExtra` saying ``what`` needs it. A missing ``mauseloch`` module is a bug and
    stays a plain error; a ``MissingExtra`` from deeper down keeps its own, nearer hint."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; the extras are {', '.join(EXTRAS)}")
    try:
        yield
    except MissingExtra:
        raise
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if not top or top == "mauseloch":
            raise
        raise MissingExtra(hint(what, extra, [top]), name=exc.name) from exc


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here (found without importing them)."""
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; the extras are {', '.join(EXTRAS)}")
    return missing_modules(EXTRAS[extra])


def missing_modules(names: Iterable[str]) -> list[str]:
    """The modules among ``names`` that cannot be imported here (found without importing them)."""
    gone = []
    for name in names:
        if name in sys.modules:
            if sys.modules[name] is None:  # blocked on purpose (how the tests take a package away)
                gone.append(name)
            continue
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            gone.append(name)
    return gone


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` can be imported: what a command
    or a bot checks before it starts, so that it never stops half-way for want of a package."""
    gone = missing(extra)
    if gone:
        raise MissingExtra(hint(what, extra, gone), name=gone[0])
