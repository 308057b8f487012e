"""`bastide.VectorGame` and `bastide.Bot`."""

from __future__ import annotations

import random

import numpy as np
import pytest

import bastide


def test_random_steps_and_resets():
    v = bastide.VectorGame(8, sets="base", players=2, seed=1)
    assert len(v) == 8
    acted, finished = v.step_random(1000)
    # ~145 actions a game: every slot finished several games and restarted.
    assert acted == 8 * 1000 and finished >= 8 * 5
    assert not v.terminated().any()


def test_rollout_plays_every_game_to_its_end():
    v = bastide.VectorGame(16, sets="base,river1", players=3, seed=5, auto_reset=False)
    acted = v.rollout()
    assert acted > 16 * 100
    assert v.terminated().all()
    assert (v.current_players() == bastide.TERMINAL_PLAYER).all()
    s, r = v.scores(), v.returns()
    assert s.shape == (16, 3) and r.shape == (16, 3)
    assert np.allclose(r.sum(axis=1), 0.0, atol=1e-5)
    assert v.step_random(5) == (0, 0)


def test_threads_do_not_change_the_games():
    runs = []
    for threads in (1, 2):
        v = bastide.VectorGame(10, sets="base", seed=3, threads=threads)
        v.step_random(700)
        runs.append((v.scores(), [v.game(i).to_record() for i in range(10)]))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]


def test_given_actions_match_single_games():
    n = 6
    v = bastide.VectorGame(n, sets="base", seed=10, auto_reset=False)
    games = [bastide.Game(sets="base", seed=10 + i) for i in range(n)]
    rng = random.Random(0)
    for _ in range(300):
        legal = v.legal_actions()
        assert legal == [g.legal_actions() for g in games]
        acts = [rng.choice(la) if la else 0 for la in legal]
        masks = v.legal_masks()
        assert masks.shape == (n, v.num_actions)
        for i, la in enumerate(legal):
            assert np.flatnonzero(masks[i]).tolist() == la
        rets, done = v.step(np.array(acts, dtype=np.int64))  # NumPy arrays are taken
        for g, a in zip(games, acts):
            if not g.is_terminal:
                g.apply(a)
        for i, g in enumerate(games):
            if done[i]:
                assert rets[i].tolist() == g.returns()
    cells, glob = v.observations()
    assert cells.shape == (n, *games[0].observation_shape[0])
    for i, g in enumerate(games):
        assert v.game(i).to_record() == g.to_record()
        seat = max(g.current_player, 0)
        assert np.array_equal(cells[i], g.observation(seat)[0])
        assert np.array_equal(glob[i], g.observation(seat)[1])


def test_illegal_vector_actions_are_named_and_leave_games_unchanged():
    v = bastide.VectorGame(3, sets="base", seed=1)
    legal = v.legal_actions()
    with pytest.raises(bastide.IllegalAction, match="game 1"):
        v.step([legal[0][0], 0, legal[2][0]])
    assert v.game(1).move_number == 0 and v.game(0).move_number == 1
    with pytest.raises(ValueError, match="one action per game"):
        v.step([0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 0},
        {"n": bastide.MAX_VECTOR_GAMES + 1},
        {"n": 2, "threads": 0},
        {"n": 2, "threads": bastide.MAX_THREADS + 1},
        {"n": 2, "sets": "base,bogus"},
    ],
)
def test_vector_bounds(kwargs):
    with pytest.raises(ValueError):
        bastide.VectorGame(**kwargs)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:30"])
def test_bots_choose_legal_actions(spec):
    bot = bastide.Bot(spec, seed=4)
    g = bastide.Game(sets="base,river1", seed=2)
    for _ in range(12):
        i = bot.choose(g)
        assert i in g.legal_actions()
        assert bot.choose_json(g) in g.legal_actions_json()
        g.apply(i)


def test_bots_play_a_whole_game_and_seeds_repeat():
    def play(seed: int) -> list[int]:
        bots = [bastide.Bot("greedy", seed), bastide.Bot("mcts:20", seed)]
        g = bastide.Game(sets="base", seed=seed)
        while not g.is_terminal:
            g.apply(bots[g.current_player].choose(g))
        return g.scores()

    assert play(3) == play(3)
    with pytest.raises(ValueError, match="Known bots"):
        bastide.Bot("alphazero")
    with pytest.raises(bastide.IllegalAction):
        bastide.Bot("random").choose(bastide.Game(sets="base", explicit_chance=True))
