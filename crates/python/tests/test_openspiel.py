"""`bastide.openspiel`: OpenSpiel's own algorithms play full games."""

from __future__ import annotations

import json

import numpy as np
import pytest

import bastide
from conftest import need

pyspiel = need("pyspiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

import bastide.openspiel  # noqa: E402  (registers the game; needs pyspiel)

SETS = ["base", "base,river1", "winter,gingerbread", "base,halfsies1", "base,map-chips"]
# The Plague's codec space (millions of ids) plays in "legal" mode by default.
ALL_SETS = [*SETS, "base,plague"]


@pytest.mark.parametrize("sets", ALL_SETS)
def test_openspiels_random_simulation_test(sets):
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": sets, "radius": 20})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)  # raises on failure
    ours = bastide.Game(sets=sets, radius=20, explicit_chance=True)
    plague = "plague" in sets
    assert game.num_distinct_actions() == (4096 if plague else ours.num_actions)
    assert game.max_chance_outcomes() == ours.num_chance_outcomes
    assert game.max_game_length() == ours.max_game_length
    # A turn: the draw, the placement, the follower step and what the sets
    # add (with Map Chips up to 12 chips, each a chance node).
    most = 16 if "map-chips" in sets else 7
    assert 3 * (ours.tiles_left + 1) <= ours.max_game_length <= most * (ours.tiles_left + 1)
    assert game.observation_tensor_shape() == [
        int(np.prod(ours.observation_shape[0])) + ours.observation_shape[1][0]
    ]


@pytest.mark.parametrize("sets", ALL_SETS)
def test_random_bots_play_whole_games(sets):
    game = pyspiel.load_game("python_bastide", {"players": 3, "sets": sets})
    rng = np.random.RandomState(3)
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 3 and sum(returns) == pytest.approx(0.0)
    assert max(returns) > 0


def test_openspiels_mcts_beats_random_often_and_plays_to_the_end():
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base"})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    wins = 0
    for g in range(2):
        bots = [
            mcts.MCTSBot(game, 2, 25, evaluator, random_state=rng),
            pyspiel.make_uniform_random_bot(1, g),
        ]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert returns[0] == -returns[1] and abs(returns[0]) in (0.0, 1.0)
        wins += returns[0] == 1.0
    # Random play scores few points; a searching player wins at once.
    assert wins >= 1


def test_random_rollouts_evaluate_states():
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base,river2"})
    state = game.new_initial_state()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=3, random_state=np.random.RandomState(0))
    values = evaluator.evaluate(state)
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)


def test_chance_nodes_are_the_draws_and_observations_hide_them():
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(0 <= t < game.max_chance_outcomes() for t, _ in outcomes)
    hidden = np.array(state.observation_tensor(0))
    tile = outcomes[-1][0]
    state.apply_action(tile)
    assert state.current_player() == 0
    shown = np.array(state.observation_tensor(0))
    assert hidden.shape == shown.shape == (game.observation_tensor_size(),)
    # The globals' drawn-tile one-hot: empty at the chance node, then the tile.
    g = bastide.Game(sets="base")
    kinds = len(g.tile_ids)
    start = int(np.prod(g.observation_shape[0])) + 6 + 3 * 2 + 1
    assert hidden[start : start + kinds].sum() == 0
    assert shown[start + tile] == 1.0
    assert state.action_to_string(0, state.legal_actions()[0]).startswith("{'place'")


def test_observation_tensor_is_an_array_equal_to_the_observers():
    # A NumPy array filled by the engine, not a list of ~127,000 floats
    # (rl_environment stepped at 189/s with the list); the same values as
    # the observer's tensor and the engine's (cells, globals).
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base"})
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    for seat in (0, 1):
        t = state.observation_tensor(seat)
        assert isinstance(t, np.ndarray) and t.dtype == np.float32
        observer = game.make_py_observer()
        observer.set_from(state, seat)
        assert np.array_equal(t, observer.tensor)
        cells, glob = state.game_state.observation(seat)
        assert np.array_equal(t, np.concatenate([cells.ravel(), glob]))
    assert np.array_equal(state.observation_tensor(), state.observation_tensor(0))
    with pytest.raises(ValueError, match="player must be a seat"):
        state.observation_tensor(2)


def test_the_plague_plays_in_legal_mode_by_default_and_in_codec_mode_on_request():
    codec = pyspiel.load_game("python_bastide", {"sets": "base,plague", "action_mode": "codec"})
    assert codec.num_distinct_actions() == bastide.Game(sets="base,plague").num_actions
    state = codec.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() == state.game_state.legal_actions()
    game = pyspiel.load_game("python_bastide", {"sets": "base,plague", "radius": 12})
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    assert legal == list(range(len(legal))) and len(legal) == len(state.game_state.legal_actions())
    # Id i is the i-th legal action in codec order.
    expected = state.game_state.action_to_json(state.game_state.legal_actions()[-1])
    assert state.action_to_string(0, legal[-1]) == str(expected)
    # Ids outside the legal list are refused by name, never read as list
    # positions from the end, and never applied.
    # (OpenSpiel itself refuses -1, its kInvalidAction, before asking us.)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(-1)
    for bad in (-1, -2, len(legal)):
        if bad != -1:
            with pytest.raises(bastide.IllegalAction, match=f"action {bad} is not legal"):
                state.apply_action(bad)
        with pytest.raises(bastide.IllegalAction, match=f"action {bad} is not legal"):
            state.action_to_string(0, bad)
    assert state.game_state.move_number == 0 and len(state.history()) == 1
    state.apply_action(legal[-1])
    assert state.game_state.move_number == 1
    with pytest.raises(ValueError, match="action_mode"):
        pyspiel.load_game("python_bastide", {"action_mode": "dense"})


def test_the_state_string_is_the_full_state():
    # Two deals that differ only in seat 1's halves: seat 0's view is the
    # same, the state's string is not (it was seat 0's view).
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base+halfsies1"})
    texts, views = [], []
    for hand in (["halfsies1/C", "halfsies1/D"], ["halfsies1/E", "halfsies1/F"]):
        state = game.new_initial_state()
        cfg = state.game_state.config
        cfg["hands"] = [["halfsies1/A", "halfsies1/B"], hand]
        state.game_state = bastide.Game(config=cfg, explicit_chance=True)
        texts.append(str(state))
        views.append(state.game_state.view(0))
    assert views[0] == views[1]
    assert texts[0] != texts[1]
    assert "halfsies1/E" in texts[1] and "seat 1 holds" in texts[1]


def test_rule_options_are_game_parameters():
    game = pyspiel.load_game(
        "python_bastide", {"sets": "base+river1", "options": "followers:4+river_shuffle_all"}
    )
    state = game.new_initial_state()
    assert state.game_state.config["options"] == {"followers": 4, "river_shuffle_all": True}
    assert state.game_state.view(0)["supply"] == [4, 4]
    # The game string round-trips with its options.
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().game_state.config == state.game_state.config
    with pytest.raises(ValueError, match="followers"):
        pyspiel.load_game("python_bastide", {"options": "followers:99"})


def _dealt(game, seat1_pick: int):
    """A new game whose Half-and-half deal (chance: the k-th half to seat
    k mod 2) gives seat 0 the first halves offered and seat 1 the
    ``seat1_pick``-th."""
    state = game.new_initial_state()
    k = 0
    while state.is_chance_node() and bastide.openspiel._dealing(state.game_state):
        outcomes = [t for t, _ in state.chance_outcomes()]
        state.apply_action(outcomes[0] if k % 2 == 0 else outcomes[seat1_pick % len(outcomes)])
        k += 1
    return state


def _forms(state) -> dict:
    """The legal actions by their record form (a hand's halves may number
    the codec's ids differently in two deals)."""
    g = state.game_state
    return {json.dumps(g.action_to_json(x), sort_keys=True): x for x in state.legal_actions()}


def test_information_states_tell_apart_what_a_seat_saw_and_nothing_else():
    # Two deals differing only in seat 1's halves, then the same actions:
    # seat 0 cannot tell them apart, seat 1 can.
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base+halfsies1"})
    a, b = _dealt(game, 1), _dealt(game, 3)
    assert a.game_state.view(0) == b.game_state.view(0)
    assert a.game_state.view(1) != b.game_state.view(1)
    rng = np.random.default_rng(5)
    for step in range(12):
        for s in (a, b):
            if step % 3 == 0:
                s.information_state_string(0)  # asked midway: kept up to date
        if a.is_chance_node():
            outcome = int(a.chance_outcomes()[rng.integers(len(a.chance_outcomes()))][0])
            a.apply_action(outcome)
            b.apply_action(outcome)
            continue
        fa, fb = _forms(a), _forms(b)
        common = sorted(set(fa) & set(fb))
        assert common, "the two deals allow no common action"
        pick = common[int(rng.integers(len(common)))]
        a.apply_action(fa[pick])
        b.apply_action(fb[pick])
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # The same as a state that never asked before (replayed from history).
    fresh = a.clone()
    fresh._recall = None
    assert fresh.information_state_string(0) == a.information_state_string(0)
    # The perfect-recall observer says the same, and so does the tensor.
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.string_from(a, 0) == a.information_state_string(0)
    observer.set_from(a, 0)
    assert np.array_equal(observer.tensor, a.information_state_tensor(0))
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    assert not np.array_equal(a.information_state_tensor(1), b.information_state_tensor(1))
    fresh._steps = None
    assert np.array_equal(fresh.information_state_tensor(1), a.information_state_tensor(1))
    # A resampled state is the same information state for the seat.
    r = a.resample_from_infostate(0, lambda: 0.25)
    assert r.information_state_string(0) == a.information_state_string(0)


def test_the_public_observer_sees_no_hand():
    # Two deals differing only in seat 1's halves: seat 1's own view tells
    # them apart, its public observer (private_info=NONE) does not.
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base+halfsies1"})
    a, b = _dealt(game, 1), _dealt(game, 3)
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    own = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    tensors = []
    for observer in (own, public):
        seen = []
        for s in (a, b):
            observer.set_from(s, 1)
            seen.append((observer.tensor.copy(), observer.string_from(s, 1)))
        tensors.append(seen)
    (own_a, _), (own_b, _) = tensors[0]
    (pub_a, text_a), (pub_b, text_b) = tensors[1]
    assert not np.array_equal(own_a, own_b)
    assert np.array_equal(pub_a, pub_b) and text_a == text_b
    assert text_a.startswith("public: ") and "halfsies" not in text_a
    # The public tensor is the seat's own one but for the hidden halves:
    # at most the two own halves' counts differ; every hand size stays.
    assert 0 < np.count_nonzero(own_a != pub_a) <= 2
    with pytest.raises(ValueError, match="NONE"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def _replays_to(state) -> bastide.Game:
    """The engine game a new state reaches by ``state.history()``."""
    again = state.get_game().new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again.game_state


@pytest.mark.parametrize("sets", ["base+halfsies1", "base+map-chips"])
def test_a_resampled_states_history_replays_to_its_hands(sets):
    game = pyspiel.load_game("python_bastide", {"players": 3, "sets": sets})
    state = game.new_initial_state()
    rng = np.random.default_rng(11)
    resampled_any = False
    for step in range(120):
        if state.is_terminal():
            break
        if step % 10 == 9:
            for seat in range(3):
                r = state.resample_from_infostate(seat, rng.random)
                replayed = _replays_to(r)
                # The returned state is its history: every seat's view.
                for s in range(3):
                    assert replayed.view(s) == r.game_state.view(s), (step, seat, s)
                assert r.information_state_string(seat) == state.information_state_string(seat)
                assert r.game_state.view(seat) == state.game_state.view(seat)
                others = [s for s in range(3) if s != seat]
                if any(r.game_state.view(s) != state.game_state.view(s) for s in others):
                    resampled_any = True
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert resampled_any, "no resample ever changed another seat's hand"


@pytest.mark.parametrize("sets", ["base", "base+halfsies1", "base+plague"])
def test_undo_action_takes_back_the_last_action(sets):
    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": sets})
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(40):
        before = state.clone()
        info = [before.information_state_string(p) for p in range(2)]
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            player, action = -1, int(rng.choice(outcomes, p=probs))
        else:
            player, action = state.current_player(), int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        after = str(state)
        state.undo_action(player, action)
        assert str(state) == str(before) and state.history() == before.history()
        assert state.move_number() == before.move_number()
        assert state.legal_actions() == before.legal_actions()
        assert [state.information_state_string(p) for p in range(2)] == info
        with pytest.raises(ValueError, match="not the last action"):
            state.undo_action(player, -5)
        state.apply_action(action)
        assert str(state) == after and state.history()[-1] == action
        assert [(x.player, x.action) for x in state.full_history()][-1] == (player, action)


@pytest.mark.parametrize(
    ("sets", "options"),
    [
        ("base", ""),
        ("base+halfsies1", ""),
        ("base+map-chips", ""),
        ("base+river1+river2", "river_shuffle_all"),
        ("base+plague", ""),
    ],
)
def test_two_seeds_fed_the_same_outcomes_give_every_seat_the_same_information_state(sets, options):
    games = [
        pyspiel.load_game(
            "python_bastide", {"players": 3, "sets": sets, "seed": seed, "options": options}
        )
        for seed in (3, 82)
    ]
    a, b = (g.new_initial_state() for g in games)
    rng = np.random.default_rng(7)
    size = games[0].information_state_tensor_size()
    assert size == games[1].information_state_tensor_size()
    for step in range(90):
        if a.is_terminal():
            break
        for seat in range(3):
            assert a.information_state_string(seat) == b.information_state_string(seat), step
            ta, tb = a.information_state_tensor(seat), b.information_state_tensor(seat)
            assert ta.shape == (size,) and np.array_equal(ta, tb), (step, seat)
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes()
            outcomes, probs = zip(*a.chance_outcomes())
            action = int(rng.choice(outcomes, p=probs))
        else:
            assert a.legal_actions() == b.legal_actions()
            action = int(rng.choice(a.legal_actions()))
        a.apply_action(action)
        b.apply_action(action)
    # The tensor tells the seats apart: each sees itself as seat 0.
    assert not np.array_equal(a.information_state_tensor(0), a.information_state_tensor(1))


def test_ismcts_plays_a_game_through_pyspiel():
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_bastide", {"players": 2, "sets": "base+halfsies1"})
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 30:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        if state.current_player() == 0:
            action = bot.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 30
