"""Self-play and tournaments spread over a Ray cluster.

>>> import ray, bastide.ray
>>> ray.init()                       # local; or ray.init(address="auto")
>>> results = bastide.ray.play_games(100, ["mcts:200", "greedy"], out_dir="games")
>>> bastide.ray.summarize(results)

Games are Ray tasks (in chunks); each returns its record, which the driver
writes to ``out_dir`` as ``g{index:06d}.json`` (the record format the CLI
replays). A seat is a bot spec (``"random"``, ``"greedy"``, ``"mcts:200"``)
or a Python policy: a picklable callable ``policy(game) -> action`` taking a
:class:`bastide.Game` and returning a codec index or a record-form dict.
Results depend only on the arguments, never on the cluster: game ``i`` uses
seed ``seed + i`` and bots seeded from it, so :func:`play_games_locally`
gives the same games without Ray.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import bastide

__all__ = [
    "GameResult",
    "MAX_GAMES",
    "Policy",
    "play_games",
    "play_games_locally",
    "summarize",
]

#: A Python policy: the action for the player to act in a game.
Policy = Callable[[bastide.Game], Union[int, dict]]
Seat = Union[str, Policy]

#: The most games one call plays (a bound on the records kept in memory).
MAX_GAMES = 1_000_000


@dataclass
class GameResult:
    """One finished game."""

    index: int
    seed: int
    #: The seat names in seat order (bot specs, or ``policy:NAME``).
    seats: list[str]
    scores: list[int]
    returns: list[float]
    record: dict[str, Any] = field(repr=False)


def _seat_name(s: Seat) -> str:
    return s if isinstance(s, str) else f"policy:{getattr(s, '__name__', type(s).__name__)}"


def _game_plan(
    n_games: int, seats: Sequence[Seat], seed: int, rotate: bool
) -> list[tuple[int, int, list[Seat]]]:
    """(index, seed, seats in seat order) of each game; with ``rotate``,
    game ``i`` shifts the seats by ``i`` so each player plays every seat."""
    n = len(seats)
    plan = []
    for i in range(n_games):
        k = i % n if rotate else 0
        plan.append((i, seed + i, list(seats[k:]) + list(seats[:k])))
    return plan


def _play_chunk(
    games: list[tuple[int, int, list[Seat]]], kwargs: dict[str, Any]
) -> list[GameResult]:
    """Plays some games of the plan to their end (runs inside a Ray task)."""
    out = []
    for index, seed, seats in games:
        game = bastide.Game(**kwargs, seed=seed)
        players: list[Any] = [
            bastide.Bot(s, (seed * 8 + k) % 2**64) if isinstance(s, str) else s
            for k, s in enumerate(seats)
        ]
        while not game.is_terminal:
            p = players[game.current_player]
            action = p.choose(game) if isinstance(p, bastide.Bot) else p(game)
            game.apply(action)
        out.append(
            GameResult(
                index=index,
                seed=seed,
                seats=[_seat_name(s) for s in seats],
                scores=game.scores(),
                returns=game.returns(),
                record=game.to_record(),
            )
        )
    return out


def _check(n_games: int, seats: Sequence[Seat], seed: int) -> None:
    if not 1 <= n_games <= MAX_GAMES:
        raise ValueError(f"n_games must be from 1 to {MAX_GAMES}, not {n_games}")
    if not 0 <= seed <= 2**64 - 1 - n_games:
        raise ValueError("seed must be from 0 to 2**64 - 1 - n_games")
    for s in seats:
        if isinstance(s, str):
            bastide.Bot(s)  # a bad spec fails here, not in a worker
        elif not callable(s):
            raise TypeError(f"a seat is a bot spec or a callable policy, not {s!r}")


def _game_kwargs(
    sets: str | list[str] | None,
    players: int | None,
    config: dict[str, Any] | str | None,
    options: dict[str, Any] | None,
    n_seats: int,
) -> dict[str, Any]:
    if config is not None:
        kwargs: dict[str, Any] = {"config": config}
    else:
        kwargs = {"sets": sets or "base", "players": players or n_seats}
    if options:
        kwargs["options"] = options
    probe = bastide.Game(**kwargs, seed=0)
    if probe.num_players != n_seats:
        raise bastide.ConfigError(
            f"the game has {probe.num_players} players but {n_seats} seats were given"
        )
    return kwargs


def _write(results: list[GameResult], out_dir: str | os.PathLike[str] | None) -> None:
    if out_dir is None:
        return
    os.makedirs(out_dir, exist_ok=True)
    for r in results:
        with open(os.path.join(out_dir, f"g{r.index:06d}.json"), "w", encoding="utf-8") as f:
            json.dump(r.record, f, indent=1)
            f.write("\n")


def play_games_locally(
    n_games: int,
    seats: Sequence[Seat],
    *,
    sets: str | list[str] | None = None,
    players: int | None = None,
    config: dict[str, Any] | str | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    rotate: bool = True,
    out_dir: str | os.PathLike[str] | None = None,
) -> list[GameResult]:
    """The games of :func:`play_games`, played in this process."""
    _check(n_games, seats, seed)
    kwargs = _game_kwargs(sets, players, config, options, len(seats))
    results = _play_chunk(_game_plan(n_games, seats, seed, rotate), kwargs)
    _write(results, out_dir)
    return results


def play_games(
    n_games: int,
    seats: Sequence[Seat],
    *,
    sets: str | list[str] | None = None,
    players: int | None = None,
    config: dict[str, Any] | str | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    rotate: bool = True,
    out_dir: str | os.PathLike[str] | None = None,
    games_per_task: int | None = None,
) -> list[GameResult]:
    """Plays ``n_games`` games on the Ray cluster this process is connected
    to (``ray.init()`` is called with no arguments if it was not).

    Args:
        n_games: 1 to :data:`MAX_GAMES`.
        seats: one bot spec or policy per seat.
        sets, players, config, options: the game, as for :class:`bastide.Game`
            (``players`` defaults to the number of seats).
        seed: game ``i`` uses seed ``seed + i``.
        rotate: shift the seats by one each game (a tournament's rotation).
        out_dir: where to write the records (``g000000.json`` …), or None.
        games_per_task: games in one Ray task (default: enough tasks for
            four per CPU of the cluster).

    Returns the results in game order.
    """
    import ray

    _check(n_games, seats, seed)
    kwargs = _game_kwargs(sets, players, config, options, len(seats))
    if not ray.is_initialized():
        ray.init()
    plan = _game_plan(n_games, seats, seed, rotate)
    if games_per_task is None:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        games_per_task = max(1, -(-n_games // (4 * cpus)))
    if games_per_task < 1:
        raise ValueError("games_per_task must be at least 1")
    remote = ray.remote(num_cpus=1)(_play_chunk)
    futures = [
        remote.remote(plan[i : i + games_per_task], kwargs)
        for i in range(0, n_games, games_per_task)
    ]
    results = [r for chunk in ray.get(futures) for r in chunk]
    results.sort(key=lambda r: r.index)
    _write(results, out_dir)
    return results


def summarize(results: Sequence[GameResult]) -> dict[str, dict[str, float]]:
    """Per seat name: games, wins (a shared win counts its share), win rate
    and mean score, over every seat it played."""
    table: dict[str, dict[str, float]] = {}
    for r in results:
        best = max(r.scores)
        winners = sum(1 for s in r.scores if s == best)
        for name, score in zip(r.seats, r.scores):
            row = table.setdefault(name, {"games": 0, "wins": 0.0, "points": 0.0})
            row["games"] += 1
            row["points"] += score
            if score == best:
                row["wins"] += 1.0 / winners
    for row in table.values():
        row["win_rate"] = row["wins"] / row["games"]
        row["mean_score"] = row.pop("points") / row["games"]
    return table
