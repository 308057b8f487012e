"""What the environments share: the game's arguments (a record's config, or
sets and players, never both) and the choice of action mode."""

from __future__ import annotations

from typing import Any

import bastide


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
