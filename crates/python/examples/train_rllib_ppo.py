"""Trains a PPO policy on the base game with RLlib, by self-play with one
action-masked policy for both seats, for a bounded time, then plays it
against a uniformly random opponent.

    pip install ./crates/python "ray[rllib]" torch
    python crates/python/examples/train_rllib_ppo.py --minutes 10 --eval 40

Each iteration samples ``--batch`` agent steps (a two-player game is about
150) and prints the iteration, the agent steps so far and the mean episode
return (0 in zero-sum self-play: the interesting figure is the win rate
against random at the end). The policy chooses the most likely legal
action when evaluated.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import ray
import torch

from bastide.rllib import BastideMultiAgentEnv, ppo_config


def greedy_action(module: object, obs: dict[str, np.ndarray]) -> int:
    """The trained module's most likely legal action for one observation."""
    batch = {
        "obs": {
            "observations": torch.from_numpy(obs["observations"][None]),
            "action_mask": torch.from_numpy(obs["action_mask"][None]),
        }
    }
    with torch.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
    logits = np.where(obs["action_mask"] > 0, logits, -np.inf)
    return int(np.argmax(logits))


def win_rate(module: object, env_config: dict, games: int, seed: int) -> float:
    """Wins (a tie counts half) of the policy against random, seats
    alternating."""
    env = BastideMultiAgentEnv(env_config)
    rng = np.random.default_rng(seed)
    won = 0.0
    for g in range(games):
        me = f"player_{g % 2}"
        obs, _ = env.reset(seed=seed + g)
        while True:
            (agent,) = obs
            o = obs[agent]
            if agent == me:
                action = greedy_action(module, o)
            else:
                action = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rewards, terminated, truncated, _ = env.step({agent: action})
            if terminated["__all__"] or truncated["__all__"]:
                won += 1.0 if rewards[me] > 0 else 0.5 if rewards[me] == 0 else 0.0
                break
    return won / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--minutes", type=float, default=10.0, help="training time bound")
    ap.add_argument("--batch", type=int, default=4000, help="agent steps an iteration")
    ap.add_argument("--radius", type=int, default=30)
    ap.add_argument("--eval", type=int, default=40, help="games against random at the end")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    env_config = {"sets": "base", "players": 2, "radius": a.radius, "seed": a.seed}
    ray.init(include_dashboard=False, log_to_driver=False)
    try:
        algo = ppo_config(env_config, batch=a.batch, minibatch=min(500, a.batch)).build_algo()
        module = algo.get_module("shared")
        if a.eval:
            print(f"before training: {win_rate(module, env_config, a.eval, 10_000):.0%} vs random")
        deadline = time.monotonic() + 60 * a.minutes
        it = 0
        while time.monotonic() < deadline:
            r = algo.train()
            it += 1
            runners = r["env_runners"]
            print(
                f"iteration {it}: {runners['num_env_steps_sampled_lifetime']:,} agent steps, "
                f"mean return {runners.get('episode_return_mean', float('nan')):.3f}",
                flush=True,
            )
        module = algo.get_module("shared")
        if a.eval:
            print(f"after {it} iterations: {win_rate(module, env_config, a.eval, 10_000):.0%}")
        algo.stop()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
