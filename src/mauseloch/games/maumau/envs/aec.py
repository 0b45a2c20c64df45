"""Mau-Mau as a PettingZoo AEC environment: ``from mauseloch.envs import maumau_v0``.

>>> env = maumau_v0.env(players=3, ace_skips=True)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

The game is the engine's own (``mauseloch.new_game("mau-mau", ...)``): every rule, option and
reshuffle is exactly the library's. It runs on the compiled kernel (``maumau_state``: one call per
move, one per observation), which plays exactly the engine's games; ``env.game`` is the same game
as an engine object, brought up to date when it is read (records, replays, rendering). Agents
``player_0`` … are the seats. The observation is a dict: ``observation`` (float32 vector,
``docs/envs.md`` lists every field) and ``action_mask`` (int8 over the 47 action ids of
``docs/api.md``). Rewards come only at the end, from the final ranking (``rank_rewards``). An
end by ``move_limit`` is a truncation, every other end a termination; both carry the ranking's
rewards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import msgspec

from mauseloch.core.engine import Rng, as_int, check_seed, derive_seed, fresh_seed
from mauseloch.core.registry import new_game
from mauseloch.core.seeds import STREAM_NEXT_SEEDS
from mauseloch.core.shapes import JSONObject, Options
from mauseloch.envs import refuse_unknown
from mauseloch.extras import needs
from mauseloch.games.maumau import MauMau
from mauseloch.games.maumau.envs import state
from mauseloch.games.maumau.envs.obs import checked_setup, observation_size, rank_rewards
from mauseloch.games.maumau.kernel import MAX_PLAYERS

with needs("rl", __name__):
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv

NAME = "maumau_v0"
SEED_LIMIT = 1 << 53
BLOCK = 64  # observation vectors allocated at once (rows of one zeroed array, each handed out once)
# The action masks handed out, by ``maumau_state`` key: one per set of legal actions met (a few
# thousand come up often); they are shared and read-only.
_MASKS: dict[int, np.ndarray] = {}
MAX_MASKS = 1 << 16  # then the cache starts again (a few MB at most)
SEAT_BITS = state.SEAT_BITS
SEAT_MASK = (1 << SEAT_BITS) - 1


def _mask(key: int) -> np.ndarray:
    """The shared, read-only action mask of a ``maumau_state`` key."""
    mask = _MASKS.get(key)
    if mask is None:
        if len(_MASKS) >= MAX_MASKS:
            _MASKS.clear()
        mask = _MASKS[key] = state.mask_of(key)
        mask.flags.writeable = False
    return mask


def env(**kwargs: Any) -> raw_env:
    """The environment (the usual entry point). It checks the order of calls itself (``step``,
    ``observe``, ``render`` before ``reset`` are clear errors), so it needs no
    ``OrderEnforcingWrapper``, which would halve its steps per second; PettingZoo's wrappers
    can still be put around it."""
    return raw_env(**kwargs)


def render_text(game: MauMau, seat: int | None = None) -> str:
    """A few lines for people: the table, and every hand (or only ``seat``'s)."""
    v = game.view(None)
    lines = [
        f"top {v['top']}"
        + (f" wish {v['wish']}" if v["wish"] else "")
        + (f" penalty {v['penalty']}" if v["penalty"] else "")
        + f"  draw pile {v['draw_pile']}  discard {v['discard_pile']}  direction {'+' if v['direction'] == 1 else '-'}"
    ]  # fmt: skip
    for s in range(game.players):
        mark = ">" if s == game.to_move else " "
        cards = " ".join(game.hand(s)) if seat is None or s == seat else f"{v['hand_counts'][s]} cards"
        lines.append(f"{mark} player_{s}: {cards}")
    if game.is_over:
        res = game.result()
        lines.append(f"over ({res['reason']}): ranks {res['ranks']}")
    return "\n".join(lines)


class raw_env(AECEnv):
    """Mau-Mau for ``players`` seats under the given options (the defaults of ``mauseloch.GAMES``)."""

    metadata: ClassVar[JSONObject] = {"render_modes": ["ansi"], "name": NAME, "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        *,
        ace_skips: bool = False,
        seven_draw_then_play: bool = False,
        no_jack_on_jack: bool = False,
        no_win_with_jack: bool = False,
        move_limit: int = 1000,
        render_mode: str | None = None,
        **unknown: Any,
    ) -> None:
        refuse_unknown(NAME, unknown, raw_env.__init__)
        super().__init__()
        self.players, self.game_options = checked_setup(
            players,
            {
                "ace_skips": ace_skips,
                "seven_draw_then_play": seven_draw_then_play,
                "no_jack_on_jack": no_jack_on_jack,
                "no_win_with_jack": no_win_with_jack,
                "move_limit": move_limit,
            },
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents: list[str] = []
        self._agent_of = tuple(self.possible_agents)
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        size = observation_size(players)
        num_actions = len(MauMau.ACTIONS)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._seeds: Rng | int | None = None  # next game seeds after reset(seed=...): from this seed
        self._st = state.new_state(self.players, self.game_options)
        self._started = False  # a game was dealt (reset() was called)
        self._running = False  # ... and is not over
        self._game_seed = 0
        self._deck: list[str] | None = None
        self._history: list[int] = []  # the action ids played, for the engine copy (``game``)
        self._game: MauMau | None = None
        self._size = size
        # Each vector handed out is a fresh row of a zeroed block, never written again: cheaper
        # than an array of its own at every call.
        self._rows: Iterator[np.ndarray] = iter(())
        # The vector and mask of the seat to move, made by step() with the move (one compiled
        # call for both) and handed out by the next last() (or observe() of that seat).
        self._ready: dict[str, np.ndarray] | None = None
        self._out = np.zeros(1 + 3 * MAX_PLAYERS, dtype=np.int64)
        self._bind()

    def _bind(self) -> None:
        """The compiled functions' entry points (warmed up on copies: the game is not touched)."""
        st, obs = self._st.copy(), np.zeros(self._size, dtype=np.float32)
        self._play_observe = state.direct(state.play_observe, st, -1, obs)
        self._observe = state.direct(state.observe, st, obs, 0)
        self._start_observe = state.direct(state.start_observe, st, np.uint64(0), False, obs)
        if self._start_observe is state.start_observe:  # the dispatcher: it would type an int as int64
            self._start_observe = lambda st, seed, deck, obs: state.start_observe(st, np.uint64(seed), deck, obs)
        self._outcome = state.direct(state.outcome, st, self._out.copy())

    def __getstate__(self) -> dict[str, object]:
        """For ``pickle`` (entry points are not picklable: they are bound again on loading)."""
        kept = self.__dict__.copy()
        for name in ("_play_observe", "_observe", "_start_observe", "_outcome", "_rows"):
            del kept[name]
        return kept

    def __setstate__(self, kept: dict[str, object]) -> None:
        self.__dict__.update(kept)
        self._rows = iter(())
        self._bind()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> MauMau | None:
        """The game being played as an engine object (``None`` before ``reset``): its record,
        view, events. Made by replaying the env's moves when first read, then brought up to date
        at each read; the env itself plays on the kernel and never needs it."""
        if not self._started:
            return None
        game = self._game
        if game is None:
            made = new_game("mau-mau", self.players, self._game_seed, self.game_options, self._deck)
            assert isinstance(made, MauMau)
            self._game = game = made
        actions = game.ACTIONS
        for action in self._history[game.move_count :]:
            game.play(actions[action])
        return game

    def reset(self, seed: int | None = None, options: Options | None = None) -> None:
        """A new game. ``seed`` is the game's seed (the next resets without one draw theirs from
        it); ``options={"deck": [...]}`` deals a fixed deck (other keys are ignored)."""
        seeds = self._seeds
        if seed is not None:
            game_seed = check_seed(seed)  # ValueError for anything but a whole number in [0, 2**64)
            seeds = game_seed  # the generator of the next seeds, made when a reset needs it
        elif seeds is not None:
            seeds = Rng(derive_seed(seeds, STREAM_NEXT_SEEDS)) if isinstance(seeds, int) else seeds.copy()
            game_seed = seeds.next64() % SEED_LIMIT
        else:
            game_seed = fresh_seed()
        deck = options.get("deck") if isinstance(options, dict) else None
        game = None
        if deck is not None:  # the engine checks the deck (ValueError) and deals it
            made = new_game("mau-mau", self.players, game_seed, self.game_options, deck)
            assert isinstance(made, MauMau)
            game = made
        # Only now: a refused reset leaves the env as it was.
        self._seeds = seeds
        self._game_seed = game_seed
        self._deck = None if game is None else list(game.deck)
        self._game = game
        self._history = []
        if self._deck is not None:
            state.put_deck(self._st, self._deck)
        obs = next(self._rows, None)
        if obs is None:
            obs = self._new_rows()
        code = self._start_observe(self._st, game_seed, self._deck is not None, obs)
        self._started = self._running = True
        self._ready = {"observation": obs, "action_mask": _mask(code >> SEAT_BITS)}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, JSONObject] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_of[code & SEAT_MASK]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        if not self._started:
            raise RuntimeError("call reset() before observe()")
        ready = self._ready
        if ready is not None and agent == self.agent_selection:
            self._ready = None  # each vector is handed out once
            return ready
        obs = next(self._rows, None)
        if obs is None:
            obs = self._new_rows()
        return {"observation": obs, "action_mask": _mask(self._observe(self._st, obs, seat))}

    def _new_rows(self) -> np.ndarray:
        self._rows = iter(np.zeros((BLOCK, self._size), dtype=np.float32))
        return next(self._rows)

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, JSONObject]:
        """``AECEnv.last`` without its extra call (a learner calls it at every step)."""
        agent = self.agent_selection
        obs = None
        if observe:
            obs = self._ready  # always the vector of agent_selection when there is one
            if obs is None:
                obs = self.observe(agent)
            else:
                self._ready = None
        if self._running:  # no reward and no end before the last move
            return obs, 0.0, False, False, self.infos[agent]
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        if self._running:
            if type(action) is not int:
                action = self._action_id(action)
            obs = next(self._rows, None)
            if obs is None:
                obs = self._new_rows()
            try:
                code = self._play_observe(self._st, action, obs)
            except OverflowError:  # an int beyond int64: out of range
                code = state.ILLEGAL
            if code >= 0:  # the move is played; the next seat's vector is in obs
                self._history.append(action)
                self.agent_selection = self._agent_of[code & SEAT_MASK]
                mask = _MASKS.get(code >> SEAT_BITS)
                if mask is None:
                    mask = _mask(code >> SEAT_BITS)
                self._ready = {"observation": obs, "action_mask": mask}
                return
            if code == state.ILLEGAL:
                self._refuse(action)
            self._ready = None
            self._history.append(action)
            self._finish()
            return
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has stepped; call reset()")
        self._was_dead_step(action)  # every agent is done at once (terminated or truncated)

    def _action_id(self, action: Any) -> int:
        """A NumPy number or one-element array as a plain id; anything else gets the engine's
        ``ValueError``."""
        if isinstance(action, np.ndarray) and action.size == 1:
            action = action.item()
        return as_int(action, "an action id")

    def _refuse(self, action: int) -> None:
        """The engine's error for an action the kernel found not legal (nothing has changed)."""
        game = self.game
        assert game is not None
        move = game.move_of(action)  # ValueError: out of range
        if action in game.legal_actions():  # cannot happen: the kernel plays the engine's rules
            raise RuntimeError(f"kernel and engine disagree on action {action} ({move})")
        game.play(move)  # raises IllegalMove, the engine's own message
        raise AssertionError("unreachable")

    def _finish(self) -> None:
        """The last move was played: the only rewards come now (before, every reward is 0).
        The protocol zeroes the actor's cumulative reward at each step; it is 0 until now."""
        self._running = False
        self._outcome(self._st, self._out)
        ended = state.result(self._out.tolist(), self.players)
        result = msgspec.to_builtins(ended)  # the info's result, as ``game.result()`` gives it
        done = self.truncations if ended.reason == "move_limit" else self.terminations
        for agent, reward in zip(self.agents, rank_rewards(result), strict=True):
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
            done[agent] = True
            self.infos[agent]["result"] = result

    def render(self) -> str | None:
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode is None:
            return None
        return render_text(game)

    def close(self) -> None:
        pass
