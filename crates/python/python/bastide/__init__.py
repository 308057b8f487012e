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

# NumPy first: the arrays below are NumPy's, and its import must come before
# the allocator adjustment (importing it afterwards undid the adjustment).
import numpy as _np  # noqa: E402, F401

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


def _raise_glibc_heap_thresholds() -> None:
    """Frees one 16 MB buffer, once, so glibc's malloc keeps buffers of an
    observation's size (0.5 MB at the default radius) on the heap.

    glibc starts by giving every allocation over 128 KB fresh pages from the
    kernel and returning them on free; it raises that threshold (and the
    heap's trim threshold, to twice as much) the first time a program frees
    a larger mapped buffer, as any NumPy program soon does. Until then each
    observation faulted in its pages anew: 1.5 ms instead of 0.05 ms. This
    is the same adjustment, made at import; other allocators ignore it.
    """
    buf = bytearray(16 << 20)
    del buf


_raise_glibc_heap_thresholds()

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
