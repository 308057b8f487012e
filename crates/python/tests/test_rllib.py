"""`bastide.rllib`: the RLlib multi-agent environment with action masking,
and two iterations of its PPO recipe.

RLlib needs ``ray[rllib]``, its PPO ``torch``; without them these tests
skip, unless ``BASTIDE_REQUIRE_RLLIB=1`` makes a missing one fail."""

from __future__ import annotations

import importlib
import math
import os

import numpy as np
import pytest


def _need(module: str):  # noqa: ANN202 (returns the module)
    if os.environ.get("BASTIDE_REQUIRE_RLLIB") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module)


ray = _need("ray")
_need("ray.rllib")

import bastide  # noqa: E402
from bastide.rllib import BastideMultiAgentEnv, ppo_config  # noqa: E402


def test_the_env_observes_the_agent_to_act_with_its_mask_and_pays_at_the_end():
    env = BastideMultiAgentEnv({"sets": "base", "players": 3, "radius": 20, "seed": 1})
    obs, infos = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps, total = 0, dict.fromkeys(env.possible_agents, 0.0)
    while True:
        (agent,) = obs
        o = obs[agent]
        assert env.observation_spaces[agent].contains(o)
        legal = np.flatnonzero(o["action_mask"])
        assert list(legal) == env.game.legal_actions()
        assert agent == env.possible_agents[env.game.current_player]
        obs, rewards, terminated, truncated, _ = env.step({agent: int(rng.choice(legal))})
        for a, r in rewards.items():
            total[a] += r
        steps += 1
        if terminated["__all__"] or truncated["__all__"]:
            break
        assert rewards == {agent: 0.0}  # win/loss: nothing until the end
    assert terminated["__all__"] and set(obs) == set(env.possible_agents)
    assert sum(total.values()) == pytest.approx(0.0) and max(total.values()) > 0
    assert steps > 100 and env.game.is_terminal
    with pytest.raises(bastide.IllegalAction):
        env.reset()
        env.step({"player_1" if env.game.current_player == 0 else "player_0": 0})


def test_max_steps_truncates_every_agent():
    env = BastideMultiAgentEnv({"sets": "base", "radius": 20, "max_steps": 9})
    obs, _ = env.reset(seed=2)
    for k in range(9):
        (agent,) = obs
        legal = np.flatnonzero(obs[agent]["action_mask"])
        obs, rewards, terminated, truncated, _ = env.step({agent: int(legal[0])})
        assert truncated["__all__"] == (k == 8)
    assert not terminated["__all__"] and all(truncated[a] for a in env.possible_agents)
    assert rewards == dict.fromkeys(env.possible_agents, 0.0)
    with pytest.raises(ValueError, match="unknown env_config"):
        BastideMultiAgentEnv({"set": "base"})


def test_ppo_trains_two_iterations_with_masked_self_play():
    _need("torch")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        config = ppo_config(
            {"sets": "base", "radius": 12, "max_steps": 60},
            batch=240,
            minibatch=120,
            epochs=1,
            hidden=(32,),
        )
        algo = config.build_algo()
        try:
            results = [algo.train() for _ in range(2)]
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    sampled = results[-1]["env_runners"]["num_env_steps_sampled_lifetime"]
    assert sampled >= 2 * 240
    learner = results[-1]["learners"]["shared"]
    assert math.isfinite(float(learner["total_loss"]))
