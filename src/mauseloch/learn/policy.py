"""The learned Mau-Mau policy in plain numpy: features, the Q network's forward pass, the choice.

One layout for the trainer and the bot. The input of the network is ``features(obs, mask)``:
the kernel's observation (``kernels.maumau``, 112 values, ``OBS_SIZE``) scaled to about [0, 1]
and the action mask (47 values) after it, ``NUM_FEATURES`` = 159 floats:

    =========  ====================================================================
    offset     feature
    =========  ====================================================================
    0..111     the kernel's observation (the module docstring of ``kernels.maumau``),
               every value as is except: penalty (68) / 8, direction (69) as is (+-1),
               cards per slot (71..75) / 16, draw pile (76) / 32, discard pile (77)
               / 32, players (110) / 5, seat (111) / 5
    112..158   the action mask: 1 for each legal action id
    =========  ====================================================================

The bot builds the same observation from its view (``observation_from_view``), so the shipped
network sees in a real game exactly what it saw in training. The network is a multilayer
perceptron with ReLU between its dense layers and one output per action id, the value of
playing that action (the expected final reward); the policy plays the legal action of the
highest value, the lowest id on an exact tie: the same weights and position give the same move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mauseloch.games.maumau import CARD_ID, SUITS, MauMau

OBS_SIZE = 112
NUM_ACTIONS = 47
NUM_FEATURES = OBS_SIZE + NUM_ACTIONS
_SCALE = np.ones(OBS_SIZE, dtype=np.float32)
_SCALE[68] = 1 / 8
_SCALE[71:76] = 1 / 16
_SCALE[76] = 1 / 32
_SCALE[77] = 1 / 32
_SCALE[110] = 1 / 5
_SCALE[111] = 1 / 5
_ACTION_ID = MauMau._ACTION_ID


def features(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``(N, 159)`` float32 network inputs of N observations ``(N, 112)`` and masks ``(N, 47)``."""
    out = np.empty((obs.shape[0], NUM_FEATURES), dtype=np.float32)
    np.multiply(obs, _SCALE, out=out[:, :OBS_SIZE], casting="unsafe")
    out[:, OBS_SIZE:] = masks
    return out


def observation_from_view(view: dict[str, Any]) -> np.ndarray:
    """The kernel's observation (int8, 112 values) of the seat whose Mau-Mau ``view`` this is, on
    its turn: what ``kernels.maumau._observe`` writes for the same position."""
    obs = np.zeros(OBS_SIZE, dtype=np.int8)
    for card in view["hand"]:
        obs[CARD_ID[card]] = 1
    obs[32 + CARD_ID[view["top"]]] = 1
    if view["wish"] is not None:
        obs[64 + SUITS.index(view["wish"])] = 1
    obs[68] = view["penalty"]
    obs[69] = view["direction"]
    obs[70] = 1 if view["deciding_drawn"] else 0
    seat, n = view["seat"], view["players"]
    counts = view["hand_counts"]
    for j in range(n):
        obs[71 + j] = counts[(seat + j) % n]
    obs[76] = view["draw_pile"]
    obs[77] = view["discard_pile"]
    for card in view["discard"]:
        obs[78 + CARD_ID[card]] = 1
    obs[110] = n
    obs[111] = seat
    return obs


def mask_of(legal: list[str]) -> np.ndarray:
    """The action mask (uint8, 47) of a legal list of move strings."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    for move in legal:
        mask[_ACTION_ID[move]] = 1
    return mask


class QPolicy:
    """The network's weights (``layers``: a list of ``(W, b)``, float32) and its choice."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        if not layers or layers[0][0].shape[0] != NUM_FEATURES or layers[-1][0].shape[1] != NUM_ACTIONS:
            raise ValueError(f"a Q network takes {NUM_FEATURES} features and gives {NUM_ACTIONS} values")
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers]

    @classmethod
    def load(cls, path: str | Path) -> QPolicy:
        """Weights saved by :meth:`save` (``w0, b0, w1, b1, ...`` in an npz file)."""
        with np.load(path) as data:
            count = sum(1 for k in data.files if k.startswith("w"))
            return cls([(data[f"w{i}"], data[f"b{i}"]) for i in range(count)])

    def save(self, path: str | Path) -> None:
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def values(self, x: np.ndarray) -> np.ndarray:
        """``(N, 47)`` action values of the feature rows ``x``."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0, out=h)
        return h

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The greedy legal action id of each row (lowest id on a tie)."""
        q = self.values(features(obs, masks))
        q = np.where(masks.astype(bool), q, -np.inf)
        return q.argmax(axis=1)
