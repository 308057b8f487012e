"""Bastide as an RLlib ``MultiAgentEnv`` with action masking, and a PPO
recipe (``ppo_config``) for RLlib's new API stack.

>>> from bastide.rllib import BastideMultiAgentEnv, ppo_config
>>> algo = ppo_config({"sets": "base"}).build_algo()
>>> result = algo.train()

The game is turn-based: each ``reset`` and ``step`` observes only the agent
to act next (RLlib's turn-based convention); rewards are the zero-sum
win/loss returns, given to every agent when the game ends, 0 to the agent
that acted before then (``reward:
"score"``: the change in each agent's score lead, every step). An agent's
observation is a dict:

- ``observations``: ``float32[D]``, the compact observation flattened: the
  piece rows, the follower rows (both divided by 64) and the globals (see
  ``bastide.Game.compact_observation``); a few thousand values, small
  enough for a multilayer perceptron;
- ``action_mask``: ``float32[num_actions]``, 1 for the legal actions (the
  engine codec's indices) — the keys RLlib's action-masking RL module
  reads.

``env_config`` keys: ``sets`` (default ``"base"``), ``players`` (2),
``options``, ``radius`` (30), ``reward`` (``"win"``), ``max_steps``
(truncate after this many agent steps: every agent then gets
``truncated``; default: play to the end), ``seed``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import bastide
from bastide._config import action_index, game_kwargs

__all__ = ["BastideMultiAgentEnv", "ppo_config", "masked_module_spec"]

#: Piece and follower rows are divided by this (coordinates, tile indices).
_ROW_SCALE = 64.0


class BastideMultiAgentEnv(MultiAgentEnv):
    """Bastide, turn by turn, for RLlib (see the module docstring)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        c = dict(config or {})
        known = {"sets", "players", "options", "radius", "reward", "max_steps", "seed"}
        unknown = sorted(set(c) - known)
        if unknown:
            raise ValueError(f"unknown env_config keys {unknown}; known: {sorted(known)}")
        self._kwargs = game_kwargs(
            c.get("sets", "base"), c.get("players"), None, c.get("options"), c.get("radius", 30)
        )
        reward = c.get("reward", "win")
        if reward not in ("win", "score"):
            raise ValueError(f'reward must be "win" or "score", not {reward!r}')
        self._score = reward == "score"
        max_steps = c.get("max_steps")
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ValueError(f"max_steps must be a positive int or None, not {max_steps!r}")
        self._max_steps = max_steps
        self._rng = np.random.default_rng(c.get("seed"))
        self.game = bastide.Game(**self._kwargs, seed=0)
        n_actions = self.game.num_actions
        if n_actions > bastide.MAX_MASK:
            raise ValueError(
                f"{n_actions} codec indices: too many for a mask; "
                "use a smaller radius or a set list without the Plague"
            )
        pieces, followers, (n_globals,) = self.game.compact_shape
        size = int(np.prod(pieces)) + int(np.prod(followers)) + n_globals
        space = spaces.Dict(
            {
                "observations": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0.0, 1.0, (n_actions,), np.float32),
            }
        )
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._steps = 0

    def _observe(self, seat: int, mask: bool = True) -> dict[str, np.ndarray]:
        pieces, followers, glob = self.game.compact_observation(seat)
        flat = np.concatenate(
            [
                pieces.ravel().astype(np.float32) / _ROW_SCALE,
                followers.ravel().astype(np.float32) / _ROW_SCALE,
                glob.astype(np.float32, copy=False),
            ]
        )
        m = np.zeros(self.game.num_actions, np.float32)
        if mask:
            m[self.game.legal_actions()] = 1.0
        return {"observations": flat, "action_mask": m}

    def _lead(self) -> list[float]:
        s = self.game.scores()
        return [(s[i] - max(s[j] for j in range(len(s)) if j != i)) / 100.0 for i in range(len(s))]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game; the observation of the agent to act first."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = bastide.Game(**self._kwargs, seed=int(self._rng.integers(0, 2**63)))
        self.agents = self.possible_agents[:]
        self._steps = 0
        actor = self.possible_agents[self.game.current_player]
        return {actor: self._observe(self.game.current_player)}, {actor: {}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Applies the acting agent's action; observes the next one (at the
        end, every agent, with its reward)."""
        g = self.game
        actor = self.possible_agents[g.current_player]
        if actor not in action_dict:
            raise bastide.IllegalAction(f"{actor} is to act: action_dict has no entry for it")
        before = self._lead() if self._score else None
        g.apply(action_index(action_dict[actor]))
        self._steps += 1
        # RLlib wants a reward for every agent that acted (it may act again
        # at once: a follower step follows its own placement); win/loss
        # pays only at the end, so the actor's is 0 until then.
        rewards: dict[str, float] = {actor: 0.0}
        if before is not None:
            after = self._lead()
            rewards = {a: after[i] - before[i] for i, a in enumerate(self.possible_agents)}
        done = g.is_terminal
        cut = not done and self._max_steps is not None and self._steps >= self._max_steps
        if done or cut:
            if done and not self._score:
                rewards = {a: float(r) for a, r in zip(self.possible_agents, g.returns())}
            obs = {a: self._observe(i, mask=False) for i, a in enumerate(self.possible_agents)}
            for a in self.possible_agents:
                rewards.setdefault(a, 0.0)
            flags = {a: True for a in self.possible_agents}
            self.agents = []
            terminated = {**(flags if done else {}), "__all__": done}
            truncated = {**(flags if cut else {}), "__all__": cut}
            return obs, rewards, terminated, truncated, {}
        nxt = self.possible_agents[g.current_player]
        return (
            {nxt: self._observe(g.current_player)},
            rewards,
            {"__all__": False},
            {"__all__": False},
            {},
        )

    def get_observation_space(self, agent_id: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent_id``."""
        return self.observation_spaces[agent_id]

    def get_action_space(self, agent_id: str) -> gymnasium.spaces.Space:
        """The action space of ``agent_id``."""
        return self.action_spaces[agent_id]


def masked_module_spec(hidden: tuple[int, ...] = (256, 256)) -> Any:
    """RLlib's action-masking torch RL module (its example module: the
    logits of illegal actions pushed to the float minimum), with ``hidden``
    layers: one policy shared by every seat (self-play)."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    return MultiRLModuleSpec(
        rl_module_specs={
            "shared": RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": list(hidden)},
            )
        }
    )


def ppo_config(
    env_config: dict[str, Any] | None = None,
    *,
    batch: int = 4000,
    minibatch: int = 500,
    epochs: int = 4,
    hidden: tuple[int, ...] = (256, 256),
    env_runners: int = 0,
) -> Any:
    """A PPO configuration (RLlib's new API stack) that trains one shared,
    action-masked policy for every seat by self-play on ``env_config``
    (:class:`BastideMultiAgentEnv`'s). ``batch`` agent steps an iteration
    (a two-player base game is about 150), ``env_runners`` 0: sampling in
    the driver."""
    from ray.rllib.algorithms.ppo import PPOConfig

    return (
        PPOConfig()
        # RLlib's env checker steps random actions from the whole space;
        # most are illegal here (the mask is what makes them legal), and
        # the env refuses an illegal action rather than guessing one.
        .environment(
            BastideMultiAgentEnv,
            env_config=dict(env_config or {}),
            disable_env_checking=True,
        )
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(rl_module_spec=masked_module_spec(hidden))
        .env_runners(num_env_runners=env_runners)
        .training(
            train_batch_size_per_learner=batch,
            minibatch_size=minibatch,
            num_epochs=epochs,
        )
    )
