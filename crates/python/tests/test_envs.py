"""The PettingZoo and Gymnasium environments, checked by the frameworks' own
test suites."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test

import bastide
from bastide import gymnasium as bg
from bastide import pettingzoo as bp


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sets": "base", "players": 2},
        {"sets": "base", "players": 4, "radius": 12},
        {"sets": "winter,gingerbread", "players": 3, "radius": 15},
        {"sets": "base,river1,halfsies1", "players": 2, "radius": 15},
        {"sets": "base,map-chips", "players": 2, "radius": 15},
        {"sets": "base,plague", "players": 2, "radius": 12},
        {"sets": "base", "players": 2, "action_mode": "legal", "reward": "score"},
        {"sets": "base", "players": 2, "observation": "compact"},
        {"sets": "winter,gingerbread", "players": 3, "radius": 15, "observation": "compact"},
        {"sets": "base,river1,halfsies1", "players": 2, "observation": "compact"},
        {"sets": "base,plague", "players": 2, "radius": 12, "observation": "compact"},
        {"sets": "base", "players": 3, "radius": 12, "max_steps": 7},
    ],
)
def test_pettingzoo_api(kwargs):
    # PettingZoo's checker raises on any failure; the env must also have played.
    for e, cycles in ((bp.env(**kwargs), 1000), (bp.raw_env(**kwargs), 200)):
        api_test(e, num_cycles=cycles)
        assert e.unwrapped.game.move_number > 0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sets": "base", "players": 2, "radius": 12},
        {"sets": "base,river2", "players": 3, "radius": 15, "observation": "compact"},
        {"sets": "base", "players": 2, "radius": 12, "reward": "score", "max_steps": 30},
    ],
)
def test_pettingzoo_parallel_api(kwargs):
    e = bp.parallel_env(**kwargs)
    parallel_api_test(e, num_cycles=300)
    # A whole game: only the agent to act has a mask, its action is applied.
    observations, infos = e.reset(seed=3)
    rng = np.random.default_rng(3)
    steps, total = 0, dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        acting = [a for a in e.agents if observations[a]["action_mask"].any()]
        assert len(acting) == 1, acting
        actor = acting[0]
        legal = infos[actor]["legal_actions"]
        assert list(np.flatnonzero(observations[actor]["action_mask"])) == legal
        # The others' actions are ignored: give them nonsense.
        actions = {a: 10**9 for a in e.agents}
        actions[actor] = int(rng.choice(legal))
        observations, rewards, terms, truncs, infos = e.step(actions)
        for a, r in rewards.items():
            total[a] += r
        steps += 1
    assert steps > 20
    if "max_steps" in kwargs:
        assert steps == kwargs["max_steps"] and all(truncs.values())
    elif kwargs.get("reward", "win") == "win":
        assert all(terms.values()) and sum(total.values()) == pytest.approx(0.0)
        assert max(total.values()) > 0


def test_pettingzoo_truncates_after_max_steps():
    e = bp.raw_env(sets="base", players=2, radius=12, max_steps=5)
    for _ in range(2):  # and again after a reset
        e.reset(seed=4)
        steps = 0
        for _agent in e.agent_iter():
            _, reward, term, trunc, info = e.last()
            if term or trunc:
                assert trunc and not term and reward == 0.0
                e.step(None)
                continue
            e.step(info["legal_actions"][0])
            steps += 1
        assert steps == 5 and e.agents == []
        assert not e.game.is_terminal
    with pytest.raises(ValueError, match="max_steps"):
        bp.raw_env(sets="base", max_steps=0)


def test_pettingzoo_seed():
    # PettingZoo's checker raises on any failure.
    seed_test(lambda: bp.env(sets="base", players=2), num_cycles=500)
    seed_test(lambda: bp.env(sets="base", observation="compact"), num_cycles=500)
    seed_test(lambda: bp.env(sets="base,river2", players=3, radius=15), num_cycles=300)
    a, b = bp.raw_env(sets="base"), bp.raw_env(sets="base")
    a.reset(seed=8)
    b.reset(seed=8)
    assert a.game.to_record() == b.game.to_record()
    b.reset(seed=9)
    assert a.game.to_record() != b.game.to_record()


@pytest.mark.parametrize("observation", ["planes", "compact"])
def test_pettingzoo_plays_whole_games_with_masks_equal_to_the_legal_list(observation):
    e = bp.raw_env(sets="base", players=2, observation=observation)
    e.reset(seed=3)
    steps = 0
    kept = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert not obs["action_mask"].any()
            e.step(None)
            continue
        legal = e.game.legal_actions()
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert info["legal_actions"] == legal
        # The agent not to act sees no legal action.
        other = e.possible_agents[1 - e.agent_name_mapping[agent]]
        assert not e.observe(other)["action_mask"].any()
        assert e.agent_name_mapping[agent] == e.game.current_player
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        e.step(legal[len(legal) // 2])
        steps += 1
    assert steps > 100 and e.agents == []
    # Observations are fresh arrays: those kept did not change since.
    for obs, copy in kept:
        assert all(np.array_equal(obs[k], copy[k]) for k in obs)


def test_pettingzoo_legal_mode_infos_list_the_action_ids():
    e = bp.raw_env(sets="base", players=2, action_mode="legal", max_legal=8)
    e.reset(seed=2)
    for _ in range(30):
        obs, _, _, _, info = e.last()
        k = min(len(e.game.legal_actions()), 8)
        assert info["legal_actions"] == list(range(k))
        assert np.flatnonzero(obs["action_mask"]).tolist() == info["legal_actions"]
        e.step(info["legal_actions"][-1])


def test_pettingzoo_illegal_action_loses_the_game():
    e = bp.env(sets="base", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    first = e.agent_selection
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[first] == -1


def test_pettingzoo_plague_defaults_to_legal_mode_and_its_codec_mask_works():
    assert bp.raw_env(sets="base,plague").action_mode == "legal"
    e = bp.raw_env(sets="base,plague", action_mode="codec", radius=10)
    e.reset(seed=3)
    for _ in range(40):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        mask = obs["action_mask"]
        legal = e.game.legal_actions()
        assert list(np.flatnonzero(mask)) == legal
        e.step(legal[len(legal) // 2])
    # A window so large that even a flight per follower and place overflows
    # the mask: refused with a way out.
    with pytest.raises(bastide.ConfigError, match="legal"):
        bp.raw_env(sets="base,plague", action_mode="codec", radius=64)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sets": "base", "opponents": "random"},
        {"sets": "base", "players": 3, "seat": None, "opponents": "greedy"},
        {"sets": "winter,gingerbread", "opponents": ["random", "mcts:5"], "seat": 1},
        {"sets": "base", "opponents": "random", "render_mode": "ansi"},
        {"sets": "base,plague", "opponents": "greedy", "radius": 12},
        {"sets": "base", "opponents": "random", "action_mode": "legal", "max_legal": 512},
        {"sets": "base", "opponents": "random", "observation": "compact"},
        {"sets": "base,plague", "opponents": "greedy", "radius": 12, "observation": "compact"},
    ],
)
def test_gymnasium_check_env(kwargs):
    env = bg.BastideEnv(**kwargs)
    check_env(env)  # Gymnasium's checker raises on any failure
    assert env.observation_space["action_mask"].shape == (env.action_space.n,)


def test_gymnasium_episode_and_illegal_actions():
    import gymnasium

    env = gymnasium.make("bastide/Bastide-v0", sets="base", opponents="greedy")
    obs, info = env.reset(seed=5)
    mask = obs["action_mask"]
    obs2, r, term, trunc, info = env.step(int(np.flatnonzero(mask == 0)[0]))
    assert (r, term, info["illegal"]) == (-1.0, True, True)
    obs, info = env.reset(seed=5)
    steps, term = 0, False
    while not term:
        obs, r, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps > 30 and r in (-1.0, 0.0, 1.0)


def test_environments_refuse_an_unknown_observation_form():
    with pytest.raises(ValueError, match="compact"):
        bp.raw_env(sets="base", observation="dense")
    with pytest.raises(ValueError, match="compact"):
        bg.BastideEnv(sets="base", observation="dense")


def test_gymnasium_vector_env_plays_self_play_games_with_same_step_autoreset():
    env = bg.BastideVectorEnv(4, sets="base", radius=12, threads=2)
    assert env.metadata["autoreset_mode"].value == "SameStep"
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    again, _ = bg.BastideVectorEnv(4, sets="base", radius=12).reset(seed=3)
    assert all(np.array_equal(obs[k], again[k]) for k in obs), "the same seed, the same games"
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        seats = info["seat"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs["observation"].shape[0] == 4 and not truncated.any()
        for i in np.flatnonzero(terminated):
            # The acting seat's return, and a fresh game already.
            # (Zero for a tie: the returns are zero-sum.)
            assert rewards[i] == info["returns"][i][seats[i]]
            assert abs(info["returns"][i].sum()) < 1e-9
            assert info["_returns"][i]
            assert env.vector.game(i).move_number == 0
            finished += 1
        assert (rewards[~terminated] == 0.0).all()
    assert finished >= 4, "every game ended at least once in 400 steps"
    with pytest.raises(TypeError, match="4 ints"):
        env.step([0, 1])
