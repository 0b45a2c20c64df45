"""The OpenSpiel adapter every engine game's OpenSpiel game is built on: the deal as chance nodes
(one base-256 digit of the seed each), the game type from the game's declaration, the checked
parameters, and the game and state classes that ask the engine's game who moves and what it
returns. Each game's own OpenSpiel game lives with its game
(``mauseloch.games.<game>.envs.openspiel``) and registers itself here; the public import path
that registers them all is :mod:`mauseloch.envs.openspiel` (its docstring says how the deal, the
tensors and the samples work).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mauseloch.core.engine import SEED_LIMIT, Game
from mauseloch.core.registry import GameInfo
from mauseloch.core.shapes import JSONObject, OptionDict
from mauseloch.core.views import rank_rewards
from mauseloch.extras import needs

with needs("research", __name__):
    import pyspiel

DEALS = 1 << 16  # seeds of the deal by default: 0 .. 65535
DIGIT = 256  # outcomes of one chance node of the deal (a base-256 digit of the seed)


def deal_parts(deals: int) -> int:
    """How many chance nodes choose one of ``deals`` seeds: its base-256 digits (at least one)."""
    parts = 1
    while DIGIT**parts < deals:
        parts += 1
    return parts


def deal_actions(deals: int, seed: int) -> list[int]:
    """The chance actions that deal seed ``seed`` of ``deals``, most significant digit first
    (``for a in deal_actions(game.deals, 4242): state.apply_action(a)``)."""
    if not 0 <= seed < deals:
        raise ValueError(f"seed {seed} is out of range 0..{deals - 1}")
    parts = deal_parts(deals)
    return [seed // DIGIT ** (parts - 1 - j) % DIGIT for j in range(parts)]


_UNIFORM = [(d, 1.0 / DIGIT) for d in range(DIGIT)]  # a digit below a full block of seeds


def _rank_returns(game: Game) -> list[float]:
    """The environments' reward (``rank_rewards``): +1 for first place down to -1 for last, ties
    sharing; the returns of a game add up to 0."""
    return rank_rewards(game.result())


def _player_id(game: Game) -> int:
    if game.is_over:
        return int(pyspiel.PlayerId.TERMINAL)
    return int(game.to_move)  # type: ignore[arg-type]


def spiel_type(info: GameInfo, short_name: str, params: JSONObject, info_state_tensor: bool) -> pyspiel.GameType:
    """OpenSpiel's game type, from what the game's declaration says (``GameInfo.game_type``). The
    deal is a chance node here (one outcome per seed), so the chance mode is explicit."""
    kind = info.game_type()
    assert (kind["dynamics"], kind["information"], kind["utility"], kind["reward_model"]) == (
        "sequential", "imperfect", "zero-sum", "terminal",
    ), f"{info.name}: no OpenSpiel game of this kind"  # fmt: skip
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Mauseloch {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info_state_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class EngineGame(pyspiel.Game):
    """What both games share: the player count, the number of deals, and a Python observer of the
    game's own kind (``observer``) that takes no parameters."""

    title: str
    players: int
    deals: int

    def observer(self, iig_obs_type: pyspiel.IIGObservationType) -> Any:
        raise NotImplementedError

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: JSONObject | None = None
    ) -> Any:
        if params:
            raise ValueError(f"the {self.title} observer takes no parameters, got {params!r}")
        return self.observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class EngineState(pyspiel.State):
    """What both games' states share: the deal is chosen in chance nodes, one base-256 digit of
    the seed each (the module docstring), after it the engine's game says who moves and what it
    returns."""

    _players: int
    _deals: int
    _deal: int | None  # the seed once every digit is chosen

    if TYPE_CHECKING:

        @property
        def _game(self) -> Game | None: ...

    def _start_deal(self, deals: int) -> None:
        self._deals = deals
        self._deal = None
        self._parts = deal_parts(deals)
        self._digits = 0  # digits chosen so far
        self._chosen = 0  # the seed's value of those digits

    def _chance_step(self, action: int) -> int | None:
        """Choose the next digit of the seed (``ValueError`` when it is not an outcome, the state
        unchanged); the seed once it is the last."""
        weight = DIGIT ** (self._parts - 1 - self._digits)
        if not 0 <= action < min(DIGIT, -(-(self._deals - self._chosen) // weight)):
            raise ValueError(f"deal digit {action} is not an outcome of this chance node")
        self._chosen += action * weight
        self._digits += 1
        if self._digits < self._parts:
            return None
        self._deal = self._chosen
        return self._chosen

    def current_player(self) -> int:
        if self._game is None:
            return int(pyspiel.PlayerId.CHANCE)
        return _player_id(self._game)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        weight = DIGIT ** (self._parts - 1 - self._digits)
        left = self._deals - self._chosen  # the seeds that start with the digits chosen so far
        if left >= DIGIT * weight:
            return list(_UNIFORM)
        return [(d, min(weight, left - d * weight) / left) for d in range(-(-left // weight))]

    def _chance_text(self) -> str:
        return f"chance: the deal, {self._digits} of {self._parts} digits chosen ({self._chosen})"

    def is_terminal(self) -> bool:
        return self._game is not None and self._game.is_over

    def returns(self) -> list[float]:
        if self._game is None or not self._game.is_over:
            return [0.0] * self._players
        return _rank_returns(self._game)


def checked_params(info: GameInfo, params: JSONObject, defaults: JSONObject) -> tuple[int, OptionDict, int]:
    """Player count, engine options and number of deals from OpenSpiel's parameters, checked by
    the engine (a ValueError names the bad one)."""
    values = defaults | dict(params or {})
    unknown = set(values) - set(defaults)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; allowed: {', '.join(defaults)}")
    players = info.check_players(values.pop("players"))
    deals = values.pop("deals")
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= SEED_LIMIT:
        raise ValueError(f"deals must be a whole number from 1 to 2**53, got {deals!r}")
    options = info.resolve_options(players, {k: v for k, v in values.items() if v is not None})
    return players, options, deals


_TYPES: dict[str, pyspiel.GameType] = {}


def register(info: GameInfo, kind: pyspiel.GameType, game: type[EngineGame]) -> None:
    """Register an engine game's OpenSpiel game (``pyspiel.load_game(kind.short_name)``)."""
    _TYPES[info.name] = kind
    pyspiel.register_game(kind, game)


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type registered for an engine game name (``"mau-mau"``)."""
    return _TYPES[name]
