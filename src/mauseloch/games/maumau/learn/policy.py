"""The learned Mau-Mau policy in plain numpy: features, the Q network's forward pass, the choice.

One layout for the trainer and the bot. The input of the network is ``features(obs, mask)``:
the kernel's observation (``games.maumau.kernel``, 268 values, ``OBS_SIZE``: its module docstring
lays them out) scaled to about [0, 1] and the action mask (47 values) after it,
``NUM_FEATURES`` = 315 floats:

    =========  ====================================================================
    offset     feature
    =========  ====================================================================
    0..267     the kernel's observation, every value as is except: penalty (68) / 8,
               direction (69) as is (+-1), cards per slot (71..75) / 16, draw pile
               (76) / 32, discard pile (77) / 32, players (110) / 5, seat (111) / 5,
               each rival's cards received since it lacked (112 + 39 j + 38) / 8
    268..314   the action mask: 1 for each legal action id
    =========  ====================================================================

A network of the first layout (159 inputs: the observation's first 112 values without the
rivals' history, then the mask) is read as well: ``QPolicy.features`` gives each network the
layout its first layer takes.

The bot builds the same observation from its views (``learn.history.SeatHistory``), so the
shipped network sees in a real game exactly what it saw in training. The network is a
multilayer perceptron with ReLU between its dense layers and one output per action id, the
value of playing that action (the expected final reward); the policy plays the legal action of
the highest value, the lowest id on an exact tie: the same weights and position give the same
move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

from mauseloch.extras import needs
from mauseloch.games.maumau.kernel import OBS_RIVALS, OBS_SIZE, RIVAL_OBS
from mauseloch.games.maumau.learn.history import SeatHistory
from mauseloch.games.maumau.rules import MauMau
from mauseloch.games.maumau.views import MauMauView

with needs("sim", __name__):
    import numpy as np

NUM_ACTIONS = 47
NUM_FEATURES = OBS_SIZE + NUM_ACTIONS
BASE_FEATURES = OBS_RIVALS + NUM_ACTIONS  # the first layout: no rivals' history
_SCALE = np.ones(OBS_SIZE, dtype=np.float32)
_SCALE[68] = 1 / 8
_SCALE[71:76] = 1 / 16
_SCALE[76] = 1 / 32
_SCALE[77] = 1 / 32
_SCALE[110] = 1 / 5
_SCALE[111] = 1 / 5
_SCALE[OBS_RIVALS + RIVAL_OBS - 1 :: RIVAL_OBS] = 1 / 8
_ACTION_ID = MauMau._ACTION_ID


def features(obs: np.ndarray, masks: np.ndarray, width: int = NUM_FEATURES) -> np.ndarray:
    """``(N, width)`` float32 network inputs of N observations ``(N, 268)`` and masks ``(N, 47)``:
    ``NUM_FEATURES`` wide, or ``BASE_FEATURES`` for a network of the first layout."""
    size = width - NUM_ACTIONS
    out = np.empty((obs.shape[0], width), dtype=np.float32)
    np.multiply(obs[:, :size], _SCALE[:size], out=out[:, :size], casting="unsafe")
    out[:, size:] = masks
    return out


def observation_from_view(view: MauMauView, history: SeatHistory | None = None) -> np.ndarray:
    """The kernel's observation (int8, 268 values) of the seat whose Mau-Mau ``view`` this is, on
    its turn: what ``games.maumau.kernel._observe`` writes for the same position. ``history`` is the
    seat's reading of the moves so far (a new one knows only this view's moves)."""
    return (history or SeatHistory()).observation(view)


def mask_of(legal: list[str]) -> np.ndarray:
    """The action mask (uint8, 47) of a legal list of move strings."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    for move in legal:
        mask[_ACTION_ID[move]] = 1
    return mask


class Network:
    """A multilayer perceptron's weights (``layers``: a list of ``(W, b)``, float32, ReLU between
    them), saved as ``w0, b0, w1, b1, ...`` in an npz file: the Q network's and the hand model's
    (``learn.hands``) layout."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in layers]

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """Weights saved by :meth:`save`."""
        with np.load(path) as data:
            count = sum(1 for k in data.files if k.startswith("w"))
            return cls([(data[f"w{i}"], data[f"b{i}"]) for i in range(count)])

    def save(self, path: str | Path) -> None:
        arrays = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The last layer's outputs for the input rows ``x``."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0, out=h)
        return h


class QPolicy(Network):
    """The Q network's weights and its choice."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        if (not layers or layers[0][0].shape[0] not in (NUM_FEATURES, BASE_FEATURES)
                or layers[-1][0].shape[1] != NUM_ACTIONS):  # fmt: skip
            raise ValueError(
                f"a Q network takes {NUM_FEATURES} (or {BASE_FEATURES}) features and gives {NUM_ACTIONS} values"
            )
        super().__init__(layers)
        self.width = self.layers[0][0].shape[0]

    def features(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The inputs of this network (its first layer's layout) for observations and masks."""
        return features(obs, masks, self.width)

    def values(self, x: np.ndarray) -> np.ndarray:
        """``(N, 47)`` action values of the feature rows ``x``."""
        return self.forward(x)

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The greedy legal action id of each row (lowest id on a tie)."""
        q = self.values(self.features(obs, masks))
        q = np.where(masks.astype(bool), q, -np.inf)
        return q.argmax(axis=1)
