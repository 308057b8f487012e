"""Shared helpers of the Python test suite."""

from __future__ import annotations

import random

import bastide

# Set combinations the engine plays, each with a dense action mask except
# the Plague's (see docs/python.md).
COMBOS = [
    "base",
    "winter",
    "base,river1",
    "base,river2",
    "base,river20,cutcassonne",
    "base,halfsies1,halfsies2",
    "winter,gingerbread",
    "base,map-chips",
    "base,plague",
]


def play_random(game: bastide.Game, rng: random.Random, max_steps: int = 10_000) -> int:
    """Plays `game` to its end with random legal actions and random chance
    outcomes; returns the number of player actions."""
    n = 0
    while not game.is_terminal and n < max_steps:
        if game.is_chance:
            tiles, probs = zip(*game.chance_outcomes())
            game.apply_chance(rng.choices(tiles, probs)[0])
            continue
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n


def need(module: str):  # noqa: ANN201 (returns the module)
    """Imports an optional framework, or skips the test without it. CI sets
    BASTIDE_REQUIRE_ALL=1 so that a missing framework fails instead."""
    import importlib
    import os

    import pytest

    if os.environ.get("BASTIDE_REQUIRE_ALL") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module)
