"""Mau-Mau as a PettingZoo AEC environment: ``from mauseloch.envs import maumau_v0``.

>>> env = maumau_v0.env(players=3, ace_skips=True)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)

The game is the engine's own (``mauseloch.new_game("mau-mau", ...)``): every rule, option and
reshuffle is exactly the library's. Agents ``player_0`` … are the seats. The observation is a
dict: ``observation`` (float32 vector, ``docs/envs.md`` lists every field) and ``action_mask``
(int8 over the 47 action ids of ``docs/api.md``). Rewards come only at the end, from the
final ranking (``rank_rewards``). An end by ``move_limit`` is a truncation, every other end a
termination; both carry the ranking's rewards.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import Rng, check_seed, derive_seed, fresh_seed, new_game
from ..games.maumau import MauMau
from .maumau_obs import PublicLog, checked_setup, observation_size, rank_rewards

NAME = "maumau_v0"
SEED_LIMIT = 1 << 53


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

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": NAME, "is_parallelizable": False}

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
    ) -> None:
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
        self._seeds: Rng | None = None  # next game seeds after reset(seed=...)
        self.game: MauMau | None = None
        self._log: PublicLog | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` is the game's seed (the next resets without one draw theirs from
        it); ``options={"deck": [...]}`` deals a fixed deck (other keys are ignored)."""
        seeds = self._seeds
        if seed is not None:
            game_seed = check_seed(seed)  # ValueError for anything but a whole number in [0, 2**64)
            seeds = Rng(derive_seed(seed, 0x5EED))
        elif seeds is not None:
            seeds = seeds.copy()
            game_seed = seeds.next64() % SEED_LIMIT
        else:
            game_seed = fresh_seed()
        deck = options.get("deck") if isinstance(options, dict) else None
        game = new_game("mau-mau", self.players, game_seed, self.game_options, deck)  # a bad seed or deck: ValueError
        assert isinstance(game, MauMau)
        self._seeds = seeds  # only now: a refused reset leaves the env as it was
        self.game = game
        self._log = PublicLog(game)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[game.to_move]  # type: ignore[index]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        log = self._log
        if log is None:
            raise RuntimeError("call reset() before observe()")
        return {"observation": log.observe(seat), "action_mask": log.action_mask(seat)}

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last`` without its extra call (a learner calls it at every step)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        if self._log is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has stepped; call reset()")
        game, log = self.game, self._log
        assert game is not None  # set with the log
        if game.is_over:  # every agent is done at once (terminated or truncated)
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if isinstance(action, np.ndarray):
                action = action.item()
            if isinstance(action, np.integer):
                action = int(action)
        log.play(action)  # an illegal or unknown action raises and changes nothing
        # The protocol zeroes the actor's cumulative reward here; it is 0 until the end anyway.
        if game.is_over:  # the only rewards come now (before, every reward is 0)
            result = game.result()
            self.rewards = dict(zip(self.agents, rank_rewards(result), strict=True))
            done = {a: True for a in self.agents}
            if result["reason"] == "move_limit":
                self.truncations = done
            else:
                self.terminations = done
            for a in self.agents:
                self.infos[a] = {"result": result}
            self._accumulate_rewards()
        else:
            self.agent_selection = self.agents[game.to_move]  # type: ignore[index]

    def render(self) -> str | None:
        if self.game is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode is None:
            return None
        return render_text(self.game)

    def close(self) -> None:
        pass
