"""Throughput of the Python package: the figures of docs/python.md.

Run after installing the package (``pip install ./crates/python``, plus
pettingzoo, gymnasium and, for the Ray figures, ray):

    python crates/python/examples/bench.py [--seconds S] [--ray] [--only TEXT] [--cpu]

Every figure is a median of three runs of about ``S`` seconds each, by the
wall clock (``--cpu``: by this process's CPU time; Ray's figures are always
by the wall clock).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import bastide

#: The clock of the rates: wall-clock time, or with ``--cpu`` this
#: process's CPU time (all its threads), which other programs' load on a
#: shared machine disturbs much less.
CLOCK: Callable[[], float] = time.perf_counter


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of ``work`` per second, run repeatedly for about ``seconds``."""
    done, start = 0, CLOCK()
    while True:
        done += work()
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return done / elapsed


def median_rate(make: Callable[[], Callable[[], int]], seconds: float) -> float:
    return statistics.median(rate(make(), seconds) for _ in range(3))


def vector_random(n: int, threads: int) -> Callable[[], int]:
    v = bastide.VectorGame(n, sets="base", seed=1, threads=threads)
    return lambda: v.step_random(100)[0]


def vector_given(n: int) -> Callable[[], int]:
    """Actions chosen in Python from each game's legal list, stepped in one call."""
    v = bastide.VectorGame(n, sets="base", seed=1)
    rng = random.Random(0)

    def work() -> int:
        acts = [rng.choice(la) for la in v.legal_actions()]
        v.step(acts)
        return n

    return work


def python_loop() -> Callable[[], int]:
    """One Game stepped from Python: legal_actions() then apply()."""
    rng = random.Random(0)

    def work() -> int:
        g = bastide.Game(sets="base", seed=rng.randrange(2**32))
        n = 0
        while not g.is_terminal:
            g.apply(rng.choice(g.legal_actions()))
            n += 1
        return n

    return work


def pettingzoo_steps(
    radius: int, observation: str = "planes", agent: str = "mask"
) -> Callable[[], int]:
    """Random steps through the AEC API (``raw_env``). The agent draws a
    legal action from the mask (``"mask"``: ``np.flatnonzero`` over the
    ``int8`` mask, the plain way; ``"bool"``: the same mask viewed as
    ``bool``, which NumPy scans ten times faster) or from
    ``info["legal_actions"]`` (``"info"``)."""
    from bastide.pettingzoo import raw_env

    # The default form without the argument, so that these rows also run
    # against builds without the option (the figures before it).
    form = {} if observation == "planes" else {"observation": observation}
    env = raw_env(sets="base", players=2, radius=radius, **form)
    rng = np.random.default_rng(0)
    pick = random.Random(0)

    def work() -> int:
        env.reset(seed=int(rng.integers(2**31)))
        n = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if agent == "mask":
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            elif agent == "bool":
                legal = obs["action_mask"].view(np.bool_).nonzero()[0]
                env.step(int(legal[pick.randrange(len(legal))]))
            else:
                env.step(pick.choice(info["legal_actions"]))
            n += 1
        return n

    return work


def openspiel_rl_steps(radius: int, info_state: bool = False) -> Callable[[], int]:
    """Random steps through OpenSpiel's ``rl_environment`` (its learning
    agents' loop: every step builds each seat's observation tensor, or with
    ``info_state`` its information-state tensor, rl_environment's default
    for a game that has one)."""
    from open_spiel.python import rl_environment

    import bastide.openspiel  # noqa: F401  (registers the game)

    kind = rl_environment.ObservationType
    env = rl_environment.Environment(
        "python_bastide",
        observation_type=kind.INFORMATION_STATE if info_state else kind.OBSERVATION,
        players=2,
        sets="base",
        radius=radius,
    )
    pick = random.Random(0)

    def work() -> int:
        ts = env.reset()
        n = 0
        while not ts.last():
            p = ts.observations["current_player"]
            ts = env.step([pick.choice(ts.observations["legal_actions"][p])])
            n += 1
        return n

    return work


def ray_games(cpus: int, games: int) -> float:
    """Games per second of ``mcts:30`` against itself on ``cpus`` Ray CPUs
    (about 0.1 s a game, so the task overhead is small)."""
    import ray

    import bastide.ray as br

    seats = ["mcts:30", "mcts:30"]
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        br.play_games(2 * cpus, seats, games_per_task=1)  # warm the workers
        start = time.perf_counter()
        br.play_games(games, seats, games_per_task=2)
        return games / (time.perf_counter() - start)
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--ray", action="store_true", help="also Ray on 1 and 2 CPUs")
    ap.add_argument("--only", default="", help="only the rows whose name contains this")
    ap.add_argument("--cpu", action="store_true", help="rates per CPU second, not wall-clock")
    a = ap.parse_args()
    global CLOCK
    if a.cpu:
        CLOCK = time.process_time
    s = a.seconds
    rows: list[tuple[str, Callable[[], Callable[[], int]], str]] = [
        ("VectorGame(256).step_random, 1 thread", lambda: vector_random(256, 1), "actions"),
        ("VectorGame(256).step_random, 2 threads", lambda: vector_random(256, 2), "actions"),
        ("VectorGame(256).step, actions from Python", lambda: vector_given(256), "actions"),
        ("Game in a Python loop (legal_actions, apply)", python_loop, "actions"),
        ("PettingZoo AEC, radius 30", lambda: pettingzoo_steps(30), "steps"),
        ("PettingZoo AEC, radius 15", lambda: pettingzoo_steps(15), "steps"),
        (
            "PettingZoo AEC with info agent, radius 30",
            lambda: pettingzoo_steps(30, agent="info"),
            "steps",
        ),
        ("PettingZoo compact, radius 30", lambda: pettingzoo_steps(30, "compact"), "steps"),
        ("PettingZoo compact, radius 15", lambda: pettingzoo_steps(15, "compact"), "steps"),
        (
            "PettingZoo compact, radius 30, bool mask agent",
            lambda: pettingzoo_steps(30, "compact", "bool"),
            "steps",
        ),
        (
            "PettingZoo compact, radius 30, info agent",
            lambda: pettingzoo_steps(30, "compact", "info"),
            "steps",
        ),
        (
            "PettingZoo compact, radius 15, info agent",
            lambda: pettingzoo_steps(15, "compact", "info"),
            "steps",
        ),
        ("OpenSpiel rl_environment, radius 30", lambda: openspiel_rl_steps(30), "steps"),
        ("OpenSpiel rl_environment, radius 15", lambda: openspiel_rl_steps(15), "steps"),
        (
            "OpenSpiel rl_environment, radius 30, info states",
            lambda: openspiel_rl_steps(30, info_state=True),
            "steps",
        ),
    ]
    for name, make, unit in rows:
        if a.only not in name:
            continue
        print(f"{name:<50} {median_rate(make, s):>12,.0f} {unit}/s", flush=True)
    if a.ray:
        for cpus in (1, 2):
            name = f"Ray, {cpus} CPU(s), 48 games mcts:30 vs mcts:30"
            print(f"{name:<50} {ray_games(cpus, 48):>12,.1f} games/s", flush=True)


if __name__ == "__main__":
    main()
