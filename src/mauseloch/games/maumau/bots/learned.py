"""The learned Mau-Mau bot: a Q network trained by Deep Monte Carlo, played with numpy alone.

The weights ship inside the package (``mauseloch/models/maumau-learned.npz``; the model card is
``docs/models/maumau-learned.md``, the training command ``mauseloch train mau-mau``). On its
turn the bot builds from its views the observation the network was trained on (the batched
kernel's, the rivals' public history included: ``learn.history.SeatHistory`` reads the moves
since its last turn) and plays the legal move of the highest value: no randomness, so the same
weights and position (and moves before it) always give the same move, whatever the seed.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from mauseloch.core.views import View
from mauseloch.extras import needs
from mauseloch.games.maumau.rules import MauMau
from mauseloch.games.maumau.views import seat_view

with needs("sim", "the learned Mau-Mau bot"):
    import numpy as np

    from mauseloch.games.maumau.learn.hands import HandModel
    from mauseloch.games.maumau.learn.history import SeatHistory
    from mauseloch.games.maumau.learn.policy import QPolicy, mask_of

MODEL = "maumau-learned.npz"
HANDS = "maumau-hands.npz"  # the model of the rivals' hands (search-learned's belief="learned")


@cache
def shipped_policy(name: str = MODEL) -> QPolicy:
    """The policy shipped in ``mauseloch/models`` (loaded once a process)."""
    with resources.as_file(resources.files("mauseloch.models") / name) as path:
        return QPolicy.load(path)


@cache
def shipped_hands(name: str = HANDS) -> HandModel:
    """The model of the rivals' hands shipped in ``mauseloch/models`` (learn/hands.py)."""
    with resources.as_file(resources.files("mauseloch.models") / name) as path:
        return HandModel.load(path)


def greedy(policy: QPolicy, obs: np.ndarray, legal: list[str]) -> str:
    """The legal move of the highest value for the observation ``obs`` (the first of equals)."""
    mask = mask_of(legal)
    q = policy.values(policy.features(obs[None, :], mask[None, :]))[0]
    q = np.where(mask.astype(bool), q, -np.inf)
    return MauMau.ACTIONS[int(q.argmax())]


class LearnedBot:
    kind = "learned"

    def __init__(self, seed: int = 0, policy: QPolicy | None = None) -> None:
        self.seed = seed  # no use: the bot is deterministic
        self.policy = policy if policy is not None else shipped_policy()
        self.history = SeatHistory()  # the rivals' public history, read from each view

    def choose(self, view: View, legal: list[str]) -> str:
        if not legal:
            raise ValueError("the learned bot was asked to move with no legal moves")
        obs = self.history.observation(seat_view(view, "the learned bot"))  # every view: the history must see each move
        if len(legal) == 1:
            return legal[0]
        return greedy(self.policy, obs, legal)

    def react(self, view: View, legal: list[str]) -> tuple[str | None, int]:
        """Mau-Mau is played in turns and never opens a reaction window: keep still."""
        return None, 0
