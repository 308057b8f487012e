"""Bastide registered with OpenSpiel's Python API (``pyspiel``).

Importing this module registers the game ``python_bastide``:

>>> import pyspiel, bastide.openspiel
>>> game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base"})
>>> state = game.new_initial_state()   # a chance node: the first draw

Chance nodes are the draws: a chance outcome is a tile kind (its catalog
index, see ``Game.tile_ids``), with probability its count among the tiles
that may be drawn now and fit somewhere. Player actions are the engine
codec's indices (``Game.legal_actions``). Returns are the engine's zero-sum
win/loss returns, at the end only.

Parameters: ``players`` (2–6), ``sets`` (``"base"``, ``"winter,gingerbread"``
…), ``seed`` (only what is dealt by the seed rather than drawn: Half-and-half
hands, Map Chips), ``radius`` (the action and observation window, default
30), ``action_mode`` (``"codec"``: action ids are codec indices;
``"legal"``: id ``i`` is the ``i``-th legal action, of at most
``max_legal``, default 4096; ``"auto"``, the default: codec unless the
Plague's flights make the codec's space larger than 2²⁰ ids).

The observation tensor is the engine's (``Game.observation``): the cell
planes flattened, then the globals; at a chance node the drawn tile is not
shown. OpenSpiel's own MCTS searches the state it is given: it samples the
draws at chance nodes, so it never sees the pile order, but with
Half-and-half it does see the other players' hands.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

import bastide
from bastide._config import action_mode_for

__all__ = ["GAME_NAME", "BastideGame", "BastideState", "BastideObserver"]

#: The name to give ``pyspiel.load_game``.
GAME_NAME = "python_bastide"

_DEFAULTS: dict[str, Any] = {
    "players": 2,
    "sets": "base",
    "seed": 0,
    "radius": 30,
    "action_mode": "auto",
    "max_legal": 4096,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Bastide (Carcassonne)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# OpenSpiel numbers actions with 32-bit ints in places.
_MAX_ACTIONS = 2**31 - 1


class BastideGame(pyspiel.Game):
    """The game: its parameters fix the sets, players, seed and window."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self._kwargs: dict[str, Any] = {
            "sets": str(p["sets"]),
            "players": int(p["players"]),
            "seed": int(p["seed"]),
            "radius": int(p["radius"]),
        }
        probe = bastide.Game(**self._kwargs, explicit_chance=True)
        mode = str(p["action_mode"])
        mode = action_mode_for(probe.num_actions, None if mode == "auto" else mode, _MAX_ACTIONS)
        max_legal = int(p["max_legal"])
        if not 1 <= max_legal <= 1 << 16:
            raise ValueError(f"max_legal must be from 1 to 65536, not {max_legal}")
        #: ``"codec"``: actions are codec indices; ``"legal"``: action ``i`` is
        #: the ``i``-th legal action in codec order (at most ``max_legal``).
        self.action_mode = mode
        n_actions = probe.num_actions if mode == "codec" else max_legal
        n = probe.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions,
            max_chance_outcomes=len(probe.tile_ids),
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            # The engine's bound: per tile a draw, a placement, the follower
            # step and what the expansions add to a turn.
            max_game_length=probe.max_game_length,
        )
        super().__init__(_GAME_TYPE, info, p)
        self._probe = probe

    def new_initial_state(self) -> BastideState:
        """A new game at its first chance node (the first draw)."""
        return BastideState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BastideObserver:
        """The observer of the engine's observation tensor."""
        return BastideObserver(self._probe, params)


class BastideState(pyspiel.State):
    """A position; chance nodes are the draws."""

    def __init__(self, game: BastideGame) -> None:
        super().__init__(game)
        self.game_state = bastide.Game(**game._kwargs, explicit_chance=True)
        self._legal_mode = game.action_mode == "legal"
        self._max_legal = game.num_distinct_actions()

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.CHANCE`` / ``TERMINAL``."""
        g = self.game_state
        if g.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if g.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return g.current_player

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.game_state.legal_actions()
        if self._legal_mode:
            return list(range(min(len(legal), self._max_legal)))
        return legal

    def _codec_index(self, action: int) -> int:
        """The codec index of an OpenSpiel action id."""
        if self._legal_mode:
            return self.game_state.legal_actions()[action]
        return action

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(tile index, probability)`` of the next draw."""
        return self.game_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.game_state.is_chance:
            self.game_state.apply_chance(int(action))
        else:
            self.game_state.apply(self._codec_index(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {self.game_state.tile_ids[action]}"
        return str(self.game_state.action_to_json(self._codec_index(int(action))))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.game_state.is_terminal

    def returns(self) -> list[float]:
        """Zero-sum win/loss returns (zeros while the game runs)."""
        return self.game_state.returns()

    def __str__(self) -> str:
        g = self.game_state
        return f"moves {g.move_number}, phase {g.phase}, scores {g.scores()}"


class BastideObserver:
    """The engine's observation tensor for OpenSpiel (PyObserver interface):
    ``tensor`` holds the cell planes flattened, then the globals; ``dict``
    has the views ``cells`` (planes × W × W) and ``globals``."""

    def __init__(self, probe: bastide.Game, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        cells, glob = probe.observation_shape
        size = int(np.prod(cells))
        self.tensor = np.zeros(size + glob[0], np.float32)
        self.dict = {
            "cells": self.tensor[:size].reshape(cells),
            "globals": self.tensor[size:],
        }

    def set_from(self, state: BastideState, player: int) -> None:
        """Fills ``tensor`` with what ``player`` sees in ``state``."""
        cells, glob = state.game_state.observation(player)
        self.dict["cells"][:] = cells
        self.dict["globals"][:] = glob

    def string_from(self, state: BastideState, player: int) -> str:
        """A short public summary (scores and phase) from ``player``'s seat."""
        g = state.game_state
        return f"p{player} moves {g.move_number} phase {g.phase} scores {g.scores()}"


pyspiel.register_game(_GAME_TYPE, BastideGame)
