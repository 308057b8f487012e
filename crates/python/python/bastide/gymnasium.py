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

import bastide
from bastide._config import action_index, action_mode_for, game_kwargs, observation_space

__all__ = ["BastideEnv"]


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
