"""The public import paths of the learning environments keep working while each game's
environments live with the game (``mauseloch.games.<game>.envs``): every ``mauseloch.envs.*``
module a researcher imports gives the very objects of the game's module, its whole public part."""

from __future__ import annotations

import ast
import importlib
import inspect
from types import ModuleType

import pytest

# public path -> the game's module it re-exports
PUBLIC = {
    "mauseloch.envs.maumau_obs": "mauseloch.games.maumau.envs.obs",
    "mauseloch.envs.maumau_state": "mauseloch.games.maumau.envs.state",
    "mauseloch.envs.maumau_single": "mauseloch.games.maumau.envs.single",
    "mauseloch.envs.maumau_v0": "mauseloch.games.maumau.envs.aec",
    "mauseloch.envs.vector": "mauseloch.games.maumau.envs.vector",
    "mauseloch.envs.rlcard": "mauseloch.games.maumau.envs.rlcard",
    "mauseloch.envs.mausgeflippt_v0": "mauseloch.games.mausgeflippt.envs.parallel",
    "mauseloch.envs.jax": "mauseloch.games.maumau.envs.jax",
}


def public_names(module: ModuleType) -> set[str]:
    """What a module defines itself at its top (functions, classes, constants) and does not mark
    private, or its ``__all__``: its imports left out."""
    declared = getattr(module, "__all__", None)
    if declared is not None:
        return set(declared)
    names: set[str] = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("public", sorted(PUBLIC))
def test_a_public_path_gives_the_games_module(public: str) -> None:
    real = importlib.import_module(PUBLIC[public])
    kept = importlib.import_module(public)
    names = public_names(real)
    assert names and names <= set(kept.__all__), sorted(names - set(kept.__all__))
    for name in kept.__all__:
        assert getattr(kept, name) is getattr(real, name), name


def test_the_registered_environments_load_from_the_public_paths() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import mauseloch.envs

    spec = gymnasium.spec(mauseloch.envs.MAUMAU_ID)
    assert spec.entry_point == "mauseloch.envs.maumau_single:MauMauSingleEnv"
    env = gymnasium.make(mauseloch.envs.MAUMAU_ID)
    from mauseloch.games.maumau.envs.single import MauMauSingleEnv

    assert isinstance(env.unwrapped, MauMauSingleEnv)
    env.close()
