"""Mau-Mau and Aus die Maus! as OpenSpiel games (``import mauseloch.envs.openspiel`` registers them).

The games live with their games (``mauseloch.games.maumau.envs.openspiel``,
``mauseloch.games.ausdiemaus.envs.openspiel``) on the adapter :mod:`mauseloch.envs.spiel`; this is
their public import path.

    import pyspiel, mauseloch.envs.openspiel
    game = pyspiel.load_game("mauseloch_maumau", {"players": 4, "ace_skips": True})

Every Mau-Mau option is a game parameter, and so is ``players`` (2-5). The rules stay in the
engine: a state holds a :class:`~mauseloch.games.maumau.MauMau` and asks it for legal moves and
results; nothing here decides a rule.

Chance. The engine deals (and reshuffles, MM-8) from a seed, so the deal is a choice among
``deals`` equally likely seeds (default 2**16): seed ``i`` is the game ``mauseloch.new_game("mau-mau",
players, seed=i, options)``, its deal and every later reshuffle. This is OpenSpiel's explicit
stochastic mode over a finite sample of deals rather than over every one of the 32! orders; a
small ``deals`` gives a small game for tabular algorithms (MCCFR).

The seed is chosen in base-256 digits, most significant first, one chance node a digit
(``deal_actions(deals, i)``: the actions that deal seed ``i``): OpenSpiel's samplers
(``rl_environment``, MCCFR, MCTS, ``random_sim_test``) each build the whole outcome list of a
chance node, and a list of 65,536 outcomes costs milliseconds where 256 cost microseconds. Up to
256 deals are one chance node; the default 2**16 are two. A digit's probability is the share of
the seeds below ``deals`` that start with it, so every seed has probability exactly ``1 / deals``
and the algorithms that enumerate the outcomes (best response, expected values) see the same game.

Tensors. The observation tensor is the observation of the PettingZoo and Gymnasium environments
(``mauseloch.games.maumau.envs.obs``, ``docs/envs.md``: 156 values for two players, 40 more per further
player). It summarises what a seat knows (the rivals' histories as their last move, the cards
they lacked and what they received since). The exact, perfect-recall information state is the
string: the seat's dealt hand and every move in order, with the cards the seat drew itself and
only the number a rival drew. An information-state tensor must be as exact, and a fixed-size
record of every move takes ``move_limit`` slots (82 values each for two players: 82,000 at the
default 1,000 moves), so by default the game type says it has none (as OpenSpiel's own
``crazy_eights`` and ``gin_rummy`` do) and ``rl_environment`` learns on the observation tensor.
``info_state_tensor=True`` gives it (:class:`MauMauHistoryObserver`), for Deep CFR and the like on
variants with a small ``move_limit``.

``resample_from_infostate`` deals every card the seat cannot see again (the engine's
``determinize``); the sample is a state in which that seat's information-state string is the same,
but it has no chance history of its own, so it can be cloned and played on, not serialised.
"""

from __future__ import annotations

from mauseloch.envs.spiel import DEALS, DIGIT, deal_actions, deal_parts, game_type
from mauseloch.games.ausdiemaus.envs.openspiel import AusDieMausGame, AusDieMausObserver, AusDieMausState
from mauseloch.games.maumau.envs.openspiel import MauMauGame, MauMauHistoryObserver, MauMauObserver, MauMauState

__all__ = [
    "DEALS",
    "DIGIT",
    "AusDieMausGame",
    "AusDieMausObserver",
    "AusDieMausState",
    "MauMauGame",
    "MauMauHistoryObserver",
    "MauMauObserver",
    "MauMauState",
    "deal_actions",
    "deal_parts",
    "game_type",
]
