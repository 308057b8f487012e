"""Bastide as a single-agent Gymnasium environment.

The agent plays one seat; the engine's bots play the others between the
agent's moves. Registered as ``bastide/Bastide-v0``:

>>> import gymnasium, bastide.gymnasium
>>> env = gymnasium.make("bastide/Bastide-v0", sets="base", opponents="greedy")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))

Observations are the dicts of :mod:`bastide.pettingzoo` (``observation``,
``globals``, ``action_mask``, or with ``observation="compact"`` ``pieces``,
``followers``, ``globals``, ``action_mask``) for the agent's seat; actions are the engine
codec's indices, or with ``action_mode="legal"`` (the default with the
Plague) positions in the legal list. An action the mask does not allow ends the episode with
reward -1 and ``info["illegal"] = True`` (the game is left as it was), so
unmasked exploration is safe. The reward is the zero-sum win/loss return at
the end (+1 a win and -1 a loss with two players; see docs/openspiel.md).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import bastide
from bastide._config import action_index, action_mode_for, game_kwargs, observation_space

__all__ = ["BastideEnv", "BastideVectorEnv"]


class BastideEnv(gymnasium.Env):
    """One seat of a Bastide game against the engine's bots.

    Args:
        sets: the sets in play (``"base"``, ``"winter,gingerbread"`` …).
        players: 2 to 6.
        seat: the agent's seat, or ``None`` for a seat drawn at each reset.
        opponents: a bot spec (``"random"``, ``"greedy"``, ``"mcts:200"``)
            for every other seat, or a list of specs in seat order (the
            agent's own entry is ignored).
        config: a record's ``config`` instead of ``sets``/``players``.
        options: rule options.
        radius: the observation and action window, 1 to 64 (default 30).
        action_mode: ``"codec"`` (actions are codec indices) or ``"legal"``
            (action ``i`` is the ``i``-th legal action in codec order, of at
            most ``max_legal``); default ``"codec"`` up to
            ``bastide._config.AUTO_MASK`` indices, else (the Plague) ``"legal"``.
        max_legal: size of the action space in ``"legal"`` mode.
        observation: ``"planes"`` (default) or ``"compact"``, as in
            :mod:`bastide.pettingzoo`.
        render_mode: ``None`` or ``"ansi"``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        sets: str | list[str] | None = None,
        players: int | None = None,
        *,
        seat: int | None = 0,
        opponents: str | list[str] = "random",
        config: dict[str, Any] | str | None = None,
        options: dict[str, Any] | None = None,
        radius: int = 30,
        action_mode: str | None = None,
        max_legal: int = 4096,
        observation: str = "planes",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._kwargs = game_kwargs(sets, players, config, options, radius)
        self.game = bastide.Game(**self._kwargs, seed=0)
        #: An illegal action ended the episode: `step` raises until `reset`.
        self._ended = False
        n = self.game.num_players
        action_mode = action_mode_for(self.game.num_actions, action_mode, bastide.MAX_MASK)
        if not 1 <= max_legal <= 1 << 16:
            raise ValueError(f"max_legal must be from 1 to 65536, not {max_legal}")
        self.action_mode = action_mode
        self._n_actions = self.game.num_actions if action_mode == "codec" else max_legal
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1} or None, not {seat}")
        self._seat_arg = seat
        self.seat = seat if seat is not None else 0
        specs = [opponents] * n if isinstance(opponents, str) else list(opponents)
        if len(specs) != n:
            raise ValueError(f"give one opponent spec per seat ({n}), not {len(specs)}")
        # Parsed now, so a bad spec fails at construction.
        for s in specs:
            bastide.Bot(s)
        self._specs = specs
        self._bots: list[bastide.Bot] = []
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game, observation, self._n_actions)
        self._compact = observation == "compact"
        self.action_space = spaces.Discrete(self._n_actions)

    def _obs(self) -> dict[str, np.ndarray]:
        to_act = self.game.current_player == self.seat
        mask_mode = (1 if self.action_mode == "codec" else 2) if to_act else 0
        return self.game._env_observation(self.seat, self._compact, self._n_actions, mask_mode)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"seat": self.seat, "scores": self.game.scores(), **extra}

    def _play_bots(self) -> None:
        """The bots move until it is the agent's turn or the game ends."""
        while not self.game.is_terminal and self.game.current_player != self.seat:
            seat = self.game.current_player
            self.game.apply(self._bots[seat].choose(self.game))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game (seeded from ``seed`` through ``self.np_random``);
        the bots move first if their seats come before the agent's."""
        super().reset(seed=seed)
        self._ended = False
        rng = self.np_random
        n = self.game.num_players
        if self._seat_arg is None:
            self.seat = int(rng.integers(0, n))
        self.game = bastide.Game(**self._kwargs, seed=int(rng.integers(0, 2**63)))
        self._bots = [bastide.Bot(s, int(rng.integers(0, 2**63))) for s in self._specs]
        self._play_bots()
        return self._obs(), self._info()

    def step(
        self, action: int | np.integer
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The agent's action, then the bots' moves up to the agent's next
        turn. Returns ``(observation, reward, terminated, truncated, info)``."""
        if self.game.is_terminal or self._ended:
            raise bastide.IllegalAction("the episode is over: call reset()")
        a = action_index(action)
        legal = self.game.legal_actions()
        if self.action_mode == "legal":
            a = legal[a] if 0 <= a < min(len(legal), self._n_actions) else -1
        if a not in legal:
            # The episode ends here; a further step raises until reset().
            self._ended = True
            return self._obs(), -1.0, True, False, self._info(illegal=True)
        self.game.apply(a)
        self._play_bots()
        done = self.game.is_terminal
        reward = float(self.game.returns()[self.seat]) if done else 0.0
        return self._obs(), reward, done, False, self._info()

    def render(self) -> str | None:
        """A one-line text summary (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        g = self.game
        return (
            f"move {g.move_number}: phase {g.phase}, scores {g.scores()}, tiles left {g.tiles_left}"
        )


gymnasium.register(id="bastide/Bastide-v0", entry_point="bastide.gymnasium:BastideEnv")


class BastideVectorEnv(VectorEnv):
    """``num_envs`` games in self-play as one Gymnasium ``VectorEnv``, on
    :class:`bastide.VectorGame` (the stepping in Rust, over ``threads``).

    In each game the seat to act is the agent: the observation is that
    seat's (``observation``, ``globals``, ``action_mask``, batched), the
    action one codec index per game, and the reward is the return of the
    seat that just acted when its game ends at that step (+1 a win, -1 a
    loss with two players), else 0. A finished game restarts in the same
    step (Gymnasium's ``SAME_STEP`` autoreset): the step returns the new
    game's first observation, ``terminated`` true, and the finished
    game's returns for every seat in ``info["returns"]`` (``info["_returns"]``
    marks the games). Illegal actions raise :class:`bastide.IllegalAction`
    naming the first game that refused, the others having moved. Planes
    observations and codec actions only (the Plague's codec space is too
    large for a dense mask: use the PettingZoo environment's legal mode).

    Args:
        num_envs: games, 1 to 65,536.
        sets, players, config, options, radius: as :class:`BastideEnv`.
        threads: threads the games are split over (results do not depend
            on it).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        sets: str | list[str] | None = None,
        players: int | None = None,
        *,
        config: dict[str, Any] | str | None = None,
        options: dict[str, Any] | None = None,
        radius: int = 30,
        threads: int | None = None,
    ) -> None:
        kwargs = game_kwargs(sets, players, config, options, radius)
        probe = bastide.Game(**kwargs, seed=0)
        action_mode_for(probe.num_actions, "codec", bastide.MAX_MASK)
        self._kwargs = kwargs
        self._threads = threads
        self.num_envs = int(num_envs)
        self.vector = bastide.VectorGame(self.num_envs, **kwargs, seed=0, threads=threads)
        self.single_observation_space = observation_space(probe, "planes", probe.num_actions)
        self.single_action_space = spaces.Discrete(probe.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _obs(self) -> dict[str, np.ndarray]:
        cells, glob = self.vector.observations()
        return {"observation": cells, "globals": glob, "action_mask": self.vector.legal_masks()}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Restarts every game: game ``i`` from seed ``seed + i`` (default:
        the next unused seeds)."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None and (isinstance(seed, bool) or not 0 <= int(seed) < 2**63):
            raise ValueError(f"seed must be an int from 0 to 2**63-1, not {seed!r}")
        self.vector.reset(None if seed is None else int(seed))
        return self._obs(), {"seat": self.vector.current_players()}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game, for its seat to act; see the class."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise TypeError(f"actions must be {self.num_envs} ints, not {acts.dtype} {acts.shape}")
        seats = self.vector.current_players()
        returns, done = self.vector.step([int(a) for a in acts])
        rewards = np.where(done, returns[np.arange(self.num_envs), np.maximum(seats, 0)], 0.0)
        info = {"seat": self.vector.current_players(), "returns": returns, "_returns": done.copy()}
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._obs(), rewards.astype(np.float64), done.copy(), truncated, info
