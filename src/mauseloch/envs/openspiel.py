"""Mau-Mau and Aus die Maus! as OpenSpiel games (``import mauseloch.envs.openspiel`` registers them).

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

from typing import TYPE_CHECKING, Any

from mauseloch import new_game
from mauseloch.core.engine import SEED_LIMIT, Game
from mauseloch.core.shapes import JSONObject
from mauseloch.extras import needs
from mauseloch.games.ausdiemaus import CARD_STR as MAUS_CARDS
from mauseloch.games.ausdiemaus import INFO as MAUS_INFO
from mauseloch.games.ausdiemaus import PHASE_NAMES
from mauseloch.games.maumau import CARD_ID, MauMau
from mauseloch.games.maumau import INFO as MAUMAU_INFO
from mauseloch.games.maumau.envs.obs import PublicLog, observation_fields, observation_size, rank_rewards

with needs("research", __name__):
    import numpy as np
    import pyspiel

__all__ = ["AusDieMausGame", "MauMauGame", "MauMauHistoryObserver", "MauMauObserver", "deal_actions", "game_type"]

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


def _spiel_type(info: Any, short_name: str, params: JSONObject, info_state_tensor: bool) -> pyspiel.GameType:
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


class _EngineGame(pyspiel.Game):
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


class _EngineState(pyspiel.State):
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


# --------------------------------------------------------------------------- Mau-Mau

_MAUMAU_PARAMS: JSONObject = {"players": 2, "deals": DEALS, "info_state_tensor": False} | {
    spec.name: spec.default for spec in MAUMAU_INFO.options
}

# The registered type: no information-state tensor (the module docstring); a game loaded with
# ``info_state_tensor=True`` carries the type that says it has one.
_MAUMAU_TYPE = _spiel_type(MAUMAU_INFO, "mauseloch_maumau", _MAUMAU_PARAMS, info_state_tensor=False)
_MAUMAU_TYPE_TENSOR = _spiel_type(MAUMAU_INFO, "mauseloch_maumau", _MAUMAU_PARAMS, info_state_tensor=True)


def _checked(info: Any, params: JSONObject, defaults: JSONObject) -> tuple[int, JSONObject, int]:
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


class MauMauGame(_EngineGame):
    """Mau-Mau for OpenSpiel: actions are the engine's action ids (47: each card, each jack with
    each wish, draw, pass, take), utilities the rank rewards in [-1, 1]."""

    title = "Mau-Mau"

    def __init__(self, params: JSONObject | None = None) -> None:
        values = dict(params or {})
        tensor = values.pop("info_state_tensor", False)
        if not isinstance(tensor, bool):
            raise ValueError(f"info_state_tensor must be true or false, got {tensor!r}")
        self.info_state_tensor = tensor
        defaults = {k: v for k, v in _MAUMAU_PARAMS.items() if k != "info_state_tensor"}
        self.players, self.options, self.deals = _checked(MAUMAU_INFO, values, defaults)
        kind = MAUMAU_INFO.game_type(self.players, self.options)
        assert kind["max_game_length"] is not None  # Mau-Mau's move_limit bounds every game
        info = pyspiel.GameInfo(
            num_distinct_actions=len(MauMau.ACTIONS),
            max_chance_outcomes=min(self.deals, DIGIT),
            num_players=self.players,
            min_utility=kind["utility_range"][0],
            max_utility=kind["utility_range"][1],
            utility_sum=0.0,
            # the deal's digits, then at most move_limit moves (MM-15a ends the game there)
            max_game_length=kind["max_game_length"] + deal_parts(self.deals),
        )
        super().__init__(
            _MAUMAU_TYPE_TENSOR if tensor else _MAUMAU_TYPE, info,
            {"players": self.players, "deals": self.deals, "info_state_tensor": tensor} | self.options,
        )  # fmt: skip

    def new_initial_state(self) -> MauMauState:
        return MauMauState(self)

    def observer(self, iig_obs_type: pyspiel.IIGObservationType) -> MauMauObserver | MauMauHistoryObserver:
        if iig_obs_type.perfect_recall:
            return MauMauHistoryObserver(iig_obs_type, self.players, self.options["move_limit"], self.info_state_tensor)
        return MauMauObserver(iig_obs_type, self.players)


class MauMauState(_EngineState):
    """A Mau-Mau position: the chance node of the deal, then the engine's game.

    ``_moves`` keeps what the information-state strings are made of: per move the actor, the
    move and the cards it received (private to the actor; the others see how many). ``_known``
    says, per seat, from which move on its private facts are exact: 0, except in a sample made by
    ``resample_from_infostate``, where the rivals' pasts are made up and only their hands of
    that moment are known (their ``_dealt`` is that hand)."""

    def __init__(self, game: MauMauGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._options = game.options
        self._start_deal(game.deals)  # the engine seed, once every digit is chosen
        self._t: _Table | None = None  # the engine's game and its public log, once dealt
        self._moves: list[tuple[int, str, tuple[str, ...]]] = []
        self._dealt: list[tuple[str, ...]] = []
        self._start = ""  # the card that started the discard pile (MM-2)
        self._known = [0] * game.players

    # -- OpenSpiel's state API (the rest is _EngineState's) ---------------------------
    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return sorted(self._game.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            seed = self._chance_step(int(action))
            if seed is None:
                return
            dealt: MauMau = new_game(MAUMAU_INFO.name, self._players, seed, self._options)  # type: ignore[assignment]
            self._t = _Table(dealt)
            self._dealt = [tuple(dealt.hand(s)) for s in range(self._players)]
            self._start = dealt.deck[5 * self._players]
            return
        game, log = self._game, self._log
        assert log is not None
        actor: int = game.to_move  # type: ignore[assignment]
        since = game.event_count
        log.play(int(action))  # IllegalMove/ValueError leave the state as it was
        got: list[str] = []
        for event in game.events_since(since):
            if event["type"] == "draw" and event["seat"] == actor:
                got.extend(event["cards"])
        self._moves.append((actor, game.ACTIONS[action], tuple(got)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal digit {action}"
        return MauMau.ACTIONS[action]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MauMauState:
        """A state ``player_id`` cannot tell from this one: every card it cannot see dealt again,
        the engine seed of later reshuffles drawn with ``probability_sampler``."""
        if self._game is None:
            return self.clone()  # nothing is dealt yet: nothing to hide
        seed = int(float(probability_sampler()) * SEED_LIMIT) % SEED_LIMIT
        sample = self.get_game().new_initial_state()
        game: MauMau = self._game.determinize(player_id, seed)  # type: ignore[assignment]
        sample._deal, sample._digits, sample._chosen = self._deal, self._digits, self._chosen
        sample._t = _Table(game, self._log)
        sample._moves = list(self._moves)
        sample._start = self._start
        here = len(self._moves)
        sample._dealt = [self._dealt[s] if s == player_id else tuple(game.hand(s)) for s in range(self._players)]
        sample._known = [self._known[s] if s == player_id else here for s in range(self._players)]
        return sample

    @property
    def _game(self) -> MauMau | None:
        return None if self._t is None else self._t.game

    @property
    def _log(self) -> PublicLog | None:
        return None if self._t is None else self._t.log

    def __str__(self) -> str:
        """Everything, hidden cards too (for debugging; OpenSpiel compares clones by it)."""
        if self._game is None:
            return self._chance_text()
        g = self._game
        hands = " | ".join(f"seat {s}: {' '.join(g.hand(s)) or '-'}" for s in range(self._players))
        moves = " ".join(f"{a}:{m}" for a, m, _ in self._moves)
        return (
            f"deal {self._deal} | {hands} | top {g.view(None)['top']} wish {g.view(None)['wish'] or '-'} "
            f"penalty {g.penalty} direction {g.direction:+d} draw pile {len(g.draw_pile)} | moves {moves}"
        )

    # -- what a seat knows --------------------------------------------------------------
    def information_state_text(self, seat: int, private: bool = True) -> str:
        """The perfect-recall information state of ``seat`` (see the module docstring)."""
        if self._game is None:
            return f"seat {seat} | before the deal"
        parts = [f"seat {seat}", f"players {self._players}"]
        if private:
            since = self._known[seat]
            parts.append(("hand " if since == 0 else f"hand at move {since} ") + " ".join(self._dealt[seat]))
        parts.append(f"start {self._start}")
        known = self._known[seat]
        for i, (actor, move, got) in enumerate(self._moves):
            text = f"{actor}:{move}"
            if got:
                mine = private and actor == seat and i >= known
                text += "+" + ("".join(got) if mine else str(len(got)))
            parts.append(text)
        return " ".join(parts)

    def observation_text(self, seat: int, private: bool = True) -> str:
        """What ``seat`` observes now: its hand, the table, every hand's size."""
        if self._game is None:
            return f"seat {seat} | before the deal"
        v = self._game.view(seat)
        parts = [f"seat {seat}"]
        if private:
            parts.append("hand " + " ".join(v["hand"]))
            if v["drawn"]:
                parts.append(f"drawn {v['drawn']}")
        parts += [
            f"top {v['top']}",
            f"wish {v['wish'] or '-'}",
            f"penalty {v['penalty']}",
            f"direction {v['direction']:+d}",
            "counts " + " ".join(map(str, v["hand_counts"])),
            f"draw pile {v['draw_pile']}",
            f"discard pile {v['discard_pile']}",
            f"to move {'-' if v['to_move'] is None else v['to_move']}",
            f"moves {v['moves_played']}",
        ]
        return " | ".join(parts)


class _Table:
    """The engine's game and its public log. OpenSpiel's ``clone`` deep-copies each attribute of
    a state on its own, so the two live in one object whose copy is the engine's fast ``clone``
    with the log noted again for it."""

    __slots__ = ("game", "log")

    def __init__(self, game: MauMau, log: PublicLog | None = None) -> None:
        self.game = game
        self.log = PublicLog(game)
        if log is not None:  # every seat saw those moves: the facts carry over to ``game``
            self.log.last[:] = log.last
            self.log.lacked[:] = log.lacked
            self.log.received[:] = log.received

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.game.clone(), self.log)


class MauMauObserver:
    """OpenSpiel's Python observer of what a seat observes now: the environments' vector as the
    tensor (``fields`` names its parts as ``observation_fields`` does) and
    :meth:`MauMauState.observation_text` as the string.

    ``dict`` holds the tensor whole: OpenSpiel copies each of its entries on every read (and
    reads twice, once for the size), and one entry costs a fifth of the 23 named parts."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int) -> None:
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(observation_size(players), np.float32)
        self.dict = {"observation": self.tensor}
        self.fields = {name: self.tensor[start : start + size] for name, start, size, _ in observation_fields(players)}
        self._hand = self.fields["hand"]

    def set_from(self, state: MauMauState, player: int) -> None:
        if state._log is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state._log.observe(player)
        if not self._private:  # a public observer: no hand
            self._hand.fill(0.0)

    def string_from(self, state: MauMauState, player: int) -> str:
        return state.observation_text(player, self._private)


class MauMauHistoryObserver:
    """OpenSpiel's Python observer of a seat's information state (perfect recall): the string of
    :meth:`MauMauState.information_state_text` and, when the game was loaded with
    ``info_state_tensor=True``, a tensor of the same facts (else ``tensor`` is None). Its parts
    (``dict``), for a game of ``move_limit`` moves:

    ========  ================  ==================================================================
    part      shape             meaning
    ========  ================  ==================================================================
    seat      players           the observing seat, one-hot
    hand      32                the hand its record starts from: the dealt hand (in a sample of
                                ``resample_from_infostate``, a rival's hand at ``known``)
    known     1                 the move its record of its own draws starts at / move_limit
    start     32                the card that started the discard pile, one-hot
    actor     move_limit x n    per move, the seat that made it, k places after the observer
    action    move_limit x 47   per move, its action id, one-hot
    received  move_limit        per move, the cards the actor received (a count: public) / 32
    drawn     move_limit x 32   per move of the observer's own, the cards it received
    ========  ================  ==================================================================

    A public observer (``private_info`` none) leaves ``hand`` and ``drawn`` at 0, as its string
    leaves them out."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int, move_limit: int, tensor: bool) -> None:
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._n = players
        self._limit = move_limit
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not tensor:
            return
        shapes = {
            "seat": (players,), "hand": (32,), "known": (1,), "start": (32,), "actor": (move_limit, players),
            "action": (move_limit, len(MauMau.ACTIONS)), "received": (move_limit,), "drawn": (move_limit, 32),
        }  # fmt: skip
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in shapes.values()), np.float32)
        at = 0
        for name, shape in shapes.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: MauMauState, player: int) -> None:
        if self.tensor is None:
            raise ValueError("this game has no information-state tensor: load it with info_state_tensor=True")
        self.tensor.fill(0.0)
        d = self.dict
        d["seat"][player] = 1.0
        if state._game is None:
            return
        known = state._known[player]
        if self._private:
            for card in state._dealt[player]:
                d["hand"][CARD_ID[card]] = 1.0
        d["known"][0] = known / self._limit
        d["start"][CARD_ID[state._start]] = 1.0
        moves = state._moves
        m = len(moves)
        if not m:
            return
        ids = MauMau._ACTION_ID
        rows = np.arange(m)
        actors = np.fromiter((actor for actor, _, _ in moves), np.int64, m)
        d["actor"][rows, (actors - player) % self._n] = 1.0
        d["action"][rows, np.fromiter((ids[move] for _, move, _ in moves), np.int64, m)] = 1.0
        d["received"][:m] = np.fromiter((len(got) for _, _, got in moves), np.float32, m) / 32.0
        if self._private:
            drawn = d["drawn"]
            for i in (np.flatnonzero(actors[known:] == player) + known).tolist():
                for card in moves[i][2]:
                    drawn[i, CARD_ID[card]] = 1.0

    def string_from(self, state: MauMauState, player: int) -> str:
        return state.information_state_text(player, self._private)


# --------------------------------------------------------------------------- Aus die Maus!

_MAUS_INFO = MAUS_INFO
# small_deck and chips depend on the player count: -1 (an int, as OpenSpiel wants one type) and
# the absent small_deck take the engine's default for the count.
_MAUS_PARAMS: JSONObject = {"players": 2, "deals": DEALS, "deck": "default", "chips": -1}
_MAUS_MAX_LENGTH = 100_000  # the engine ends a repeated position (AM-11); no game seen came near

_MAUS_TYPE = _spiel_type(_MAUS_INFO, "mauseloch_ausdiemaus", _MAUS_PARAMS, info_state_tensor=False)


class AusDieMausGame(_EngineGame):
    """Aus die Maus! for OpenSpiel: one action (``flip``); the deal decides the game, so it is
    chiefly a check of the tooling. ``deck`` is ``"default"``, ``"small"`` or
    ``"full"``; ``chips`` -1 takes the engine's default."""

    title = "Aus die Maus!"

    def __init__(self, params: JSONObject | None = None) -> None:
        values = _MAUS_PARAMS | dict(params or {})
        mode = values.pop("deck")
        if mode not in ("default", "small", "full"):
            raise ValueError(f"deck must be default, small or full, got {mode!r}")
        chips = values.pop("chips")
        given = {"players": values["players"], "deals": values["deals"]}
        extra: JSONObject = {} if mode == "default" else {"small_deck": mode == "small"}
        if chips != -1:
            extra["chips"] = chips
        self.players, self.options, self.deals = _checked(
            _MAUS_INFO, given | extra, {"players": 2, "deals": DEALS, "small_deck": None, "chips": None}
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=1,
            max_chance_outcomes=min(self.deals, DIGIT),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_MAUS_MAX_LENGTH + deal_parts(self.deals),
        )
        super().__init__(
            _MAUS_TYPE, info,
            {"players": self.players, "deals": self.deals, "deck": mode, "chips": chips},
        )  # fmt: skip

    def new_initial_state(self) -> AusDieMausState:
        return AusDieMausState(self)

    def observer(self, iig_obs_type: pyspiel.IIGObservationType) -> AusDieMausObserver:
        return AusDieMausObserver(iig_obs_type, self.players)


class AusDieMausState(_EngineState):
    """An Aus die Maus! position: the deal, then the engine's game. Nobody sees a stack's
    order, so every seat knows the same: the cards turned over so far."""

    def __init__(self, game: AusDieMausGame) -> None:
        super().__init__(game)
        self._players, self._options = game.players, game.options
        self._start_deal(game.deals)
        self._game: Game | None = None
        # A sample's own log starts afresh: what was turned over before it, and where its own
        # log's part begins.
        self._prefix = ""
        self._since = 0

    def _legal_actions(self, player: int) -> list[int]:
        assert self._game is not None
        return self._game.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        if self._game is None:
            seed = self._chance_step(int(action))
            if seed is not None:
                self._game = new_game(_MAUS_INFO.name, self._players, seed, self._options)
            return
        self._game.play(self._game.move_of(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return f"deal digit {action}" if player == pyspiel.PlayerId.CHANCE else "flip"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AusDieMausState:
        sample = self.clone()
        if self._game is not None:
            seed = int(float(probability_sampler()) * SEED_LIMIT) % SEED_LIMIT
            sample._game = self._game.determinize(player_id, seed)
            sample._prefix = self.public_text()
            sample._since = sample._game.event_count
        return sample

    def public_text(self) -> str:
        """Every card turned over so far and what it did, in order (all seats know it)."""
        if self._game is None:
            return "before the deal"
        events = [e for e in self._game.events_since(self._since) if "cards" not in e]
        text = " ".join(
            e["type"] + "(" + ",".join(f"{k}={v}" for k, v in e.items() if k != "type") + ")" for e in events
        )
        return " ".join(part for part in (self._prefix, text) if part)

    def __str__(self) -> str:
        if self._game is None:
            return self._chance_text()
        return f"deal {self._deal} | stacks {[list(s) for s in self._game.stacks]} | {self.public_text()}"  # type: ignore[attr-defined]


class AusDieMausObserver:
    """The table as a vector: per seat (from the observer on) its stack and its chips, then the
    chips left, the pile's size and top card, the phase and the chase's attempts left."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, players: int) -> None:
        self._recall = iig_obs_type.perfect_recall
        pieces = [
            ("stacks", players), ("chips", players), ("chips_left", 1), ("pile", 1),
            ("top", len(MAUS_CARDS)), ("phase", len(PHASE_NAMES)), ("attempts", 1),
        ]  # fmt: skip
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: AusDieMausState, player: int) -> None:
        self.tensor.fill(0.0)
        if state._game is None:
            return
        v = state._game.view(player)
        n = len(v["stacks"])
        total = float(sum(v["stacks"]) + len(v["pile"]))
        chips = float(sum(v["chips"]) + v["chips_left"]) or 1.0
        for k in range(n):
            s = (player + k) % n
            self.dict["stacks"][k] = v["stacks"][s] / total
            self.dict["chips"][k] = v["chips"][s] / chips
        self.dict["chips_left"][0] = v["chips_left"] / chips
        self.dict["pile"][0] = len(v["pile"]) / total
        if v["top"] is not None:
            self.dict["top"][MAUS_CARDS.index(v["top"])] = 1.0
        if not v["is_over"]:
            self.dict["phase"][PHASE_NAMES.index(v["phase"])] = 1.0
        if v["chase"]:
            self.dict["attempts"][0] = v["chase"]["attempts_left"] / 3.0

    def string_from(self, state: AusDieMausState, player: int) -> str:
        if self._recall:
            return f"seat {player} | {state.public_text()}"
        if state._game is None:
            return f"seat {player} | before the deal"
        v = state._game.view(player)
        keys = ("stacks", "top", "chips", "chips_left", "phase", "chase", "flips", "to_move")
        return f"seat {player} | " + " | ".join(f"{k} {v.get(k)}" for k in keys)


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type registered for an engine game name (``"mau-mau"``)."""
    types = {MAUMAU_INFO.name: _MAUMAU_TYPE, _MAUS_INFO.name: _MAUS_TYPE}
    return types[name]


pyspiel.register_game(_MAUMAU_TYPE, MauMauGame)
pyspiel.register_game(_MAUS_TYPE, AusDieMausGame)
