"""Bastide as a PettingZoo AEC environment.

>>> from bastide.pettingzoo import env
>>> e = env(sets="base", players=2)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     done = terminated or truncated
...     action = None if done else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0`` … ``player_{n-1}`` in seat order. The draws (chance)
are resolved inside the environment by its seeded pile, so every step is a
player's decision. Observations are dicts (``observation="planes"``, the
default):

- ``observation``: ``float32[planes, W, W]``, the engine's cell planes seen
  by that agent (seats relative to it; layout in docs/openspiel.md);
- ``globals``: ``float32[G]``, the engine's global features;
- ``action_mask``: ``int8[num_actions]``, 1 for the legal actions of the
  agent to act (all 0 for the others).

With ``observation="compact"`` the board comes as rows instead of planes,
a few kilobytes rather than half a megabyte, and an observation costs a
few microseconds rather than tens: ``pieces`` (``int16[P, 6]``, a row per
placed piece), ``followers`` (``int16[F, 7]``), the same ``globals`` and
``action_mask`` (see ``bastide.Game.compact_observation`` and
docs/python.md). Every observation is a fresh set of arrays the agent may
keep. ``infos[agent]["legal_actions"]`` lists the legal actions of the agent
to act (in the action space: codec indices, or ``0 … k-1`` in legal mode),
so an agent that wants them need not scan the mask.

Actions are the engine codec's indices (``action_mode="codec"``), or, where
the codec's space is large (the Plague's flights: 6.9 million indices, a
7 MB mask a step), ``action_mode="legal"``: action ``i`` is the ``i``-th legal action in codec
order, out of at most ``max_legal``. Rewards are the zero-sum win/loss
returns, given when the game ends (``reward="win"``), or the change in the
agent's score lead each step (``reward="score"``: own points minus the
best other player's, in points/100).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import AgentSelector, wrappers

import bastide
from bastide._config import action_index, action_mode_for, game_kwargs, observation_space

__all__ = ["env", "raw_env", "parallel_env", "BastideParallelEnv", "MAX_LEGAL"]

_TERMINAL = bastide.TERMINAL_PLAYER

#: The largest ``max_legal`` accepted in ``action_mode="legal"``.
MAX_LEGAL = 1 << 16


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers.

    An illegal action ends the game with reward -1 for the agent that took
    it (``TerminateIllegalWrapper``, as in PettingZoo's classic games);
    out-of-range actions are assertion errors; the call order is enforced.
    Keyword arguments are those of :class:`raw_env`.
    """
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming convention)
    """Bastide, turn by turn, as a PettingZoo AEC environment.

    Args:
        sets: the sets in play, as ``bastide play --sets`` takes them
            (``"base"``, ``"winter,gingerbread"``, ``"base,river1,halfsies1"``)
            or a list of ids.
        players: 2 to 6.
        config: a record's ``config`` (dict or JSON text) instead of
            ``sets``/``players``.
        options: rule options (``{"followers": 5}``).
        radius: the observation and action window (cells with
            ``|x|, |y| <= radius``), 1 to 64; default 30.
        action_mode: ``"codec"`` or ``"legal"``; default ``"codec"`` up to
            ``bastide._config.AUTO_MASK`` indices, else (the Plague) ``"legal"``.
        max_legal: size of the action space in ``"legal"`` mode.
        reward: ``"win"`` (default) or ``"score"``.
        observation: ``"planes"`` (default) or ``"compact"``.
        render_mode: ``None`` or ``"ansi"``.
        max_steps: truncate the game after this many agent steps (every
            agent then gets ``truncated`` and a zero reward, and takes its
            ``None`` step); ``None`` (default): play to the end. (Gymnasium's
            ``BastideEnv`` has ``gymnasium.make(..., max_episode_steps=N)``.)
    """

    metadata = {
        "name": "bastide_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        sets: str | list[str] | None = None,
        players: int | None = None,
        *,
        config: dict[str, Any] | str | None = None,
        options: dict[str, Any] | None = None,
        radius: int = 30,
        action_mode: str | None = None,
        max_legal: int = 4096,
        reward: str = "win",
        observation: str = "planes",
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        super().__init__()
        self._kwargs = game_kwargs(sets, players, config, options, radius)
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ValueError(f"max_steps must be a positive int or None, not {max_steps!r}")
        self._max_steps = max_steps
        self._steps = 0
        # Built once here, so a bad configuration fails at construction.
        self.game = bastide.Game(**self._kwargs, seed=0)
        if reward not in ("win", "score"):
            raise ValueError(f'reward must be "win" or "score", not {reward!r}')
        self._reward_mode = reward
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        action_mode = action_mode_for(self.game.num_actions, action_mode, bastide.MAX_MASK)
        if not 1 <= max_legal <= MAX_LEGAL:
            raise ValueError(f"max_legal must be from 1 to {MAX_LEGAL}, not {max_legal}")
        self.action_mode = action_mode
        self._n_actions = self.game.num_actions if action_mode == "codec" else max_legal

        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.game, observation, self._n_actions)
        self.observation_form = observation
        self._compact = observation == "compact"
        # Rust builds the mask: the codec indices (1) or the first k (2).
        self._mask_mode = 1 if action_mode == "codec" else 2
        self._legal_mode = action_mode == "legal"
        # One space object per agent, kept: PettingZoo seeds spaces by identity.
        self.observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space)
            for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self._n_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._legal: list[int] = []
        self._score_mode = reward == "score"
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game. ``seed`` makes it and every later unseeded
        reset reproducible; ``options`` is accepted for the API and unused."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**63))
        self.game = bastide.Game(**self._kwargs, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._steps = 0
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self._update_turn()

    def _update_turn(self) -> None:
        """Points ``agent_selection`` at the seat to act and gives it the
        legal actions in its info."""
        self._turn(self.game.current_player, self.game._legal_actions_cached())

    def _turn(self, seat: int, legal: list[int]) -> None:
        """``_update_turn`` with the seat to act and its legal actions known."""
        if seat >= 0:
            infos = self.infos
            # Only the agent selected before had a non-empty info.
            infos[self.agent_selection] = {}
            agent = self.possible_agents[seat]
            self.agent_selection = agent
            if self._legal_mode:
                self._legal = legal
                legal = list(range(min(len(legal), self._n_actions)))
            infos[agent] = {"legal_actions": legal}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees (see the module docstring): fresh arrays."""
        return self.game._env_observation(
            self.agent_name_mapping[agent],
            self._compact,
            self._n_actions,
            self._mask_mode if agent == self.agent_selection else 0,
        )

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv's ``last``, the observation made in one call."""
        agent = self.agent_selection
        obs = (
            self.game._env_observation(
                self.agent_name_mapping[agent], self._compact, self._n_actions, self._mask_mode
            )
            if observe
            else None
        )
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _score_lead(self) -> list[float]:
        s = self.game.scores()
        return [(s[i] - max(s[j] for j in range(len(s)) if j != i)) / 100.0 for i in range(len(s))]

    def step(self, action: int | np.integer | None) -> None:
        """Applies the selected agent's action (``None`` for an agent whose
        game is over). Raises :class:`bastide.IllegalAction` for an illegal
        one (``env()`` turns that into a lost game instead)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise bastide.IllegalAction(f"{agent} must act: None is for agents that are done")
        a = action_index(action)
        if self._legal_mode:
            if not 0 <= a < min(len(self._legal), self._n_actions):
                raise bastide.IllegalAction(
                    f"action {a}: there are {len(self._legal)} legal actions here"
                )
            a = self._legal[a]
        game = self.game
        if self._score_mode:
            before = self._score_lead()
            seat, legal = game._apply_turn(a)
            after = self._score_lead()
            self.rewards = {x: after[i] - before[i] for i, x in enumerate(self.possible_agents)}
        else:
            seat, legal = game._apply_turn(a)
        self._cumulative_rewards[agent] = 0.0
        if seat == _TERMINAL:
            if not self._score_mode:
                returns = game.returns()
                self.rewards = {x: float(returns[i]) for i, x in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # PettingZoo's convention: each agent is then selected once more
            # to take its `None` step, in seat order.
            self.agent_selection = self._selector.reset()
            return
        if self._score_mode:
            self._accumulate_rewards()
        # With win/loss rewards every reward stays 0 until the end: nothing
        # to accumulate.
        self._steps += 1
        if self._max_steps is not None and self._steps >= self._max_steps:
            # Cut short: no result, so no win/loss reward; each agent then
            # takes its `None` step, as at the end of a game.
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self._selector.reset()
            return
        self._turn(seat, legal)

    def render(self) -> str | None:
        """A one-line text summary (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        g = self.game
        return (
            f"move {g.move_number}: phase {g.phase}, scores {g.scores()}, tiles left {g.tiles_left}"
        )

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(**kwargs: Any) -> BastideParallelEnv:
    """The game as a PettingZoo ``ParallelEnv`` (keyword arguments are
    :class:`raw_env`'s)."""
    return BastideParallelEnv(**kwargs)


class BastideParallelEnv(ParallelEnv):
    """Bastide through PettingZoo's parallel API, the form RLlib's and many
    trainers' PettingZoo adapters take. The game is turn-based: every agent
    is live and observed each step, but only the agent to act has a
    non-zero ``action_mask`` (and ``infos[agent]["legal_actions"]``); its
    action is applied and the others' are ignored (they may be left out).
    Turns need not alternate (River II's volcano, a builder's double turn):
    the masks say who acts. Rewards, terminations and truncations
    (``max_steps``) are :class:`raw_env`'s; an illegal action raises
    :class:`bastide.IllegalAction`."""

    metadata = {"name": "bastide_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, **kwargs: Any) -> None:
        self.aec = raw_env(**kwargs)
        self.possible_agents = self.aec.possible_agents
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.render_mode = self.aec.render_mode
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """A new game: every agent's observation and info."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: dict(self.aec.infos[a]) for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self.aec.observe(a) for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Applies the action of the agent to act (``actions`` must hold
        it); returns observations, rewards, terminations, truncations and
        infos of every live agent. At the end ``agents`` empties."""
        aec = self.aec
        actor = aec.agent_selection
        if actor not in actions:
            raise bastide.IllegalAction(f"{actor} is to act: actions has no entry for it")
        aec.step(actions[actor])
        live = self.agents
        rewards = {a: float(aec.rewards[a]) for a in live}
        terminations = {a: bool(aec.terminations[a]) for a in live}
        truncations = {a: bool(aec.truncations[a]) for a in live}
        infos = {a: dict(aec.infos[a]) for a in live}
        observations = self._observations()
        if any(terminations.values()) or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The AEC environment's one-line summary."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release."""

    def state(self) -> np.ndarray:
        """Refused: there is no global state array (each agent's view is
        its own: hidden hands)."""
        raise NotImplementedError("bastide has no global state array; use observations")


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    return spaces.Dict({k: _copy_box(v) for k, v in space.spaces.items()})


def _copy_box(b: spaces.Space) -> spaces.Space:
    assert isinstance(b, spaces.Box)
    return spaces.Box(b.low, b.high, shape=b.shape, dtype=b.dtype)
