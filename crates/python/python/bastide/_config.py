"""What the environments share: the game's arguments (a record's config, or
sets and players, never both), the choice of action mode and the
observation spaces."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import bastide

if TYPE_CHECKING:
    from gymnasium import spaces


def game_kwargs(
    sets: str | list[str] | None,
    players: int | None,
    config: dict[str, Any] | str | None,
    options: dict[str, Any] | None,
    radius: int,
) -> dict[str, Any]:
    """Keyword arguments for :class:`bastide.Game` (without the seed)."""
    if config is None:
        kwargs: dict[str, Any] = {
            "sets": sets if sets is not None else "base",
            "players": players if players is not None else 2,
        }
    else:
        if sets is not None or players is not None:
            raise bastide.ConfigError("give either a config or sets/players, not both")
        kwargs = {"config": config}
    kwargs["options"] = options
    kwargs["radius"] = radius
    return kwargs


#: Largest action space the environments number with codec indices by
#: default (a 1 MB mask a step); larger spaces (the Plague's, 6.9 million
#: with radius 30) default to ``"legal"`` mode.
AUTO_MASK = 1 << 20


def action_index(action: Any) -> int:
    """An action id given to an environment's ``step``: an ``int`` or a
    NumPy integer. Anything else (a string, a float, a bool) is a
    ``TypeError``, never converted."""
    import numpy as np

    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int, not {type(action).__name__}: {action!r}")
    return int(action)


def action_mode_for(num_actions: int, action_mode: str | None, limit: int) -> str:
    """The action mode: ``"codec"`` (codec indices, a dense mask) or
    ``"legal"`` (the i-th legal action). ``None`` picks codec up to
    :data:`AUTO_MASK` indices; codec is refused above ``limit``."""
    if action_mode is None:
        action_mode = "codec" if num_actions <= min(AUTO_MASK, limit) else "legal"
    if action_mode not in ("codec", "legal"):
        raise ValueError(f'action_mode must be "codec" or "legal", not {action_mode!r}')
    if action_mode == "codec" and num_actions > limit:
        raise bastide.ConfigError(
            f"the codec's action space here has {num_actions} indices, more than "
            f'{limit} (the Plague\'s flights on a large window): use action_mode="legal" '
            "or a smaller radius"
        )
    return action_mode


#: The observation forms: ``"planes"`` (the engine's cell planes, the
#: default) and ``"compact"`` (the board as rows of pieces and followers).
OBSERVATIONS = ("planes", "compact")


def observation_space(game: bastide.Game, form: str, n_actions: int) -> spaces.Dict:
    """The environments' observation space of ``form`` for ``game`` with an
    action mask of ``n_actions`` entries."""
    import numpy as np
    from gymnasium import spaces  # here: bastide.openspiel needs no Gymnasium

    if form not in OBSERVATIONS:
        raise ValueError(f'observation must be "planes" or "compact", not {form!r}')
    mask = spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8)
    if form == "planes":
        cells, glob = game.observation_shape
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=cells, dtype=np.float32),
                "globals": spaces.Box(0.0, 1.0, shape=glob, dtype=np.float32),
                "action_mask": mask,
            }
        )
    (p, pc), (f, fc), glob = game.compact_shape
    lo, hi = np.iinfo(np.int16).min, np.iinfo(np.int16).max
    kinds, n = len(game.tile_ids), game.num_players
    # Columns: x, y, tile, rotation, corner, placed this turn.
    piece_lo = [lo, lo, -1, -1, -1, -1]
    piece_hi = [hi, hi, kinds - 1, 3, 3, 1]
    # Columns: relative seat, piece row, feature, kind, large, x, y.
    follower_lo = [-1, -1, -1, -1, -1, lo, lo]
    follower_hi = [n - 1, p - 1, 255, 3, 1, hi, hi]

    def rows(low: list[int], high: list[int], shape: tuple[int, int]) -> spaces.Box:
        return spaces.Box(
            np.tile(np.array(low, dtype=np.int16), (shape[0], 1)),
            np.tile(np.array(high, dtype=np.int16), (shape[0], 1)),
            dtype=np.int16,
        )

    return spaces.Dict(
        {
            "pieces": rows(piece_lo, piece_hi, (p, pc)),
            "followers": rows(follower_lo, follower_hi, (f, fc)),
            "globals": spaces.Box(0.0, 1.0, shape=glob, dtype=np.float32),
            "action_mask": mask,
        }
    )
