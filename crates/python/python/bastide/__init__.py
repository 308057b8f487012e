"""Bastide's Carcassonne engine for Python: native-speed games for learning agents.

The core classes come from the Rust extension ``bastide._bastide``:

- :class:`Game`: one game; actions as integers of the engine's action codec
  (or record-format dicts), chance nodes, returns, observation tensors as
  NumPy arrays, records.
- :class:`VectorGame`: many games stepped in one call with the GIL released.
- :class:`Bot`: the engine's bots (``random``, ``greedy``, ``mcts:N``).

The standard interfaces live in submodules, imported on demand so that
their frameworks stay optional: :mod:`bastide.pettingzoo`,
:mod:`bastide.gymnasium`, :mod:`bastide.openspiel`, :mod:`bastide.ray`.
"""

from bastide._bastide import (
    CHANCE_PLAYER,
    MAX_MASK,
    MAX_THREADS,
    MAX_VECTOR_GAMES,
    TERMINAL_PLAYER,
    BastideError,
    Bot,
    ConfigError,
    Game,
    IllegalAction,
    RecordError,
    VectorGame,
    known_sets,
)

__all__ = [
    "CHANCE_PLAYER",
    "MAX_MASK",
    "MAX_THREADS",
    "MAX_VECTOR_GAMES",
    "TERMINAL_PLAYER",
    "BastideError",
    "Bot",
    "ConfigError",
    "Game",
    "IllegalAction",
    "RecordError",
    "VectorGame",
    "known_sets",
]
