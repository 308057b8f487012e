"""The game arguments the environments share: a record's config, or sets
and players, never both."""

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
