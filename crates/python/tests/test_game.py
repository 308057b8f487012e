"""`bastide.Game`: the codec, records, chance nodes, observations, errors."""

from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest

import bastide
from conftest import COMBOS, play_random


@pytest.mark.parametrize("sets", COMBOS)
def test_legal_actions_are_the_engines_list(sets):
    """Codec indices, record-form actions and the mask name the same set,
    all inside the action space, all along a random game."""
    rng = random.Random(1)
    g = bastide.Game(sets=sets, players=2, seed=3)
    steps = 0
    while not g.is_terminal and steps < 400:
        legal = g.legal_actions()
        as_json = g.legal_actions_json()
        assert legal == sorted(legal)
        assert len(legal) == len(as_json) > 0
        assert sorted(g.json_to_action(a) for a in as_json) == legal
        assert all(0 <= i < g.num_actions for i in legal)
        if g.num_actions <= bastide.MAX_MASK:
            mask = g.legal_mask()
            assert mask.dtype == np.int8 and mask.shape == (g.num_actions,)
            assert np.flatnonzero(mask).tolist() == legal
        i = rng.choice(legal)
        assert g.action_to_json(i) in as_json
        # Half the time apply the record form: both paths must agree.
        g.apply(g.action_to_json(i) if rng.random() < 0.5 else i)
        steps += 1
    assert steps > 20


def test_a_whole_game_ends_with_returns_and_scores():
    g = bastide.Game(sets="base", players=2, seed=11)
    assert g.current_player == 0 and not g.is_chance and g.returns() == [0.0, 0.0]
    n = play_random(g, random.Random(2))
    assert g.is_terminal and g.current_player == bastide.TERMINAL_PLAYER
    assert n > 100 and g.legal_actions() == []
    s, r = g.scores(), g.returns()
    assert sum(r) == pytest.approx(0.0)
    if s[0] != s[1]:
        assert r[s.index(max(s))] == 1.0


@pytest.mark.parametrize("sets", ["base", "base,river1,halfsies1", "winter,gingerbread"])
def test_a_seed_decides_the_game(sets):
    """Same seed and same choices: the same game, the same observations."""
    records, obs = [], []
    for _ in range(2):
        g = bastide.Game(sets=sets, players=3, seed=42)
        play_random(g, random.Random(7))
        records.append(g.to_record())
        obs.append(g.observation(1))
    assert records[0] == records[1]
    assert all(np.array_equal(a, b) for a, b in zip(obs[0], obs[1]))
    other = bastide.Game(sets=sets, players=3, seed=43)
    play_random(other, random.Random(7))
    assert other.to_record() != records[0]


@pytest.mark.parametrize("sets", COMBOS)
def test_record_round_trip(sets):
    g = bastide.Game(sets=sets, players=2, seed=5)
    rng = random.Random(3)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    for rec in (g.to_record(), g.to_record_json()):
        h = bastide.Game.from_record(rec)
        assert h.to_record() == g.to_record()
        assert h.scores() == g.scores() and h.legal_actions() == g.legal_actions()
        for a, b in zip(h.observation(0), g.observation(0)):
            assert np.array_equal(a, b)
    # The JSON text is a record the CLI reads: the notation's format.
    assert json.loads(g.to_record_json())["format"] == 1


@pytest.mark.parametrize("sets", ["base", "base,river1", "base,halfsies1", "base,map-chips"])
def test_explicit_chance_nodes_are_the_draws(sets):
    rng = random.Random(9)
    g = bastide.Game(sets=sets, players=2, seed=1, explicit_chance=True)
    chance_nodes = 0
    # Before the first draw chance deals the halves and a map's second
    # start tile: the state is then a chance node again.
    set_up = bool(g.config.get("map"))
    while not g.is_terminal:
        if g.is_chance:
            assert g.current_player == bastide.CHANCE_PLAYER
            assert g.legal_actions() == [] and g.legal_actions_json() == []
            outcomes = g.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            with pytest.raises(bastide.IllegalAction):
                g.apply(0)
            tiles, probs = zip(*outcomes)
            t = rng.choices(tiles, probs)[0]
            drawn_id = g.chance_ids[t]
            g.apply_chance(drawn_id if rng.random() < 0.5 else t)
            chance_nodes += 1
            if ":" in drawn_id:
                # A Map Chips chip owed after a placement, not a draw.
                continue
            if drawn_id.startswith("halfsies"):
                assert g.is_chance or not g.chance_outcomes()
                continue
            if set_up:
                set_up = False
                assert g.is_chance
                continue
            assert not g.is_chance
            # The drawn tile is the one chance chose.
            placements = [a for a in g.legal_actions_json() if "place" in a]
            assert any(a["place"]["tile"] == drawn_id for a in placements)
        else:
            assert g.chance_outcomes() == []
            g.apply(rng.choice(g.legal_actions()))
    assert chance_nodes > 40
    # The record fixes the chosen draws, so it replays the same game (Map
    # Chips' chips across reshuffles too).
    h = bastide.Game.from_record(g.to_record())
    assert h.is_terminal and h.scores() == g.scores()


def views(g, seat):
    """Every array of both observation forms of ``seat``."""
    return (*g.observation(seat), *g.compact_observation(seat))


def test_observations_hide_the_pile_order():
    """Two games with different seeds (so different pile orders) but the
    same draws and moves look the same to every seat, in both forms."""
    rng = random.Random(4)
    a = bastide.Game(sets="base,river1", players=2, seed=100, explicit_chance=True)
    b = bastide.Game(sets="base,river1", players=2, seed=200, explicit_chance=True)
    for _ in range(80):
        if a.is_chance:
            for seat in range(2):
                for x, y in zip(views(a, seat), views(b, seat)):
                    assert np.array_equal(x, y)
            t = rng.choice([t for t, _ in a.chance_outcomes()])
            a.apply_chance(t)
            b.apply_chance(t)
        else:
            assert a.legal_actions() == b.legal_actions()
            i = rng.choice(a.legal_actions())
            a.apply(i)
            b.apply(i)
        for seat in range(2):
            for x, y in zip(views(a, seat), views(b, seat)):
                assert np.array_equal(x, y)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_observation_layout(players):
    g = bastide.Game(sets="base", players=players, seed=2, radius=10)
    cells, glob = g.observation(players - 1)
    assert (cells.shape, glob.shape) == g.observation_shape
    kinds = len(g.tile_ids)
    assert cells.shape == (26 + 4 * players, 21, 21)
    assert glob.shape == (6 + 3 * players + 1 + 2 * kinds,)
    assert cells.dtype == glob.dtype == np.float32
    assert cells.min() >= 0.0 and cells.max() <= 1.0 and glob.max() <= 1.0
    # The start tile covers the centre cell; the drawn tile is one-hot.
    assert cells[0, 10, 10] == 1.0
    drawn = glob[6 + 3 * players + 1 : 6 + 3 * players + 1 + kinds]
    assert drawn.sum() == 1.0
    # Arrays are fresh, writable copies.
    cells[:] = 0
    assert g.observation(0)[0][0, 10, 10] == 1.0


@pytest.mark.parametrize("sets", ["base", "base,inns-cathedrals", "base,river1,halfsies1"])
def test_compact_observation_is_the_planes_board_as_rows(sets):
    """Each piece row covers its cell in plane 0, each follower row lights
    its seat and kind's plane at its cell, and the globals are the planes'."""
    radius, players = 20, 3
    g = bastide.Game(sets=sets, players=players, seed=5, radius=radius)
    rng = random.Random(2)
    kinds = len(g.tile_ids)
    for step in range(400):
        if g.is_terminal:
            break
        seat = step % players
        pieces, followers, glob = g.compact_observation(seat)
        cells, glob_planes = g.observation(seat)
        assert (pieces.shape, followers.shape, glob.shape) == g.compact_shape
        assert pieces.dtype == followers.dtype == np.int16 and glob.dtype == np.float32
        assert np.array_equal(glob, glob_planes)
        placed = pieces[pieces[:, 2] >= 0]
        assert (pieces[len(placed) :] == -1).all() and len(placed) > 0
        assert (placed[:, 2] < kinds).all() and set(placed[:, 3]) <= {0, 1, 2, 3}
        assert placed[:, 5].sum() <= 1
        for x, y, _tile, _rot, corner, last in placed:
            if abs(x) <= radius and abs(y) <= radius:
                assert cells[0, y + radius, x + radius] == (1.0 if corner < 0 else 0.5)
                if last:
                    assert cells[19, y + radius, x + radius] == 1.0
        on = followers[followers[:, 0] >= 0]
        assert (followers[len(on) :] == -1).all()
        lit = set()
        for rel, piece, _feature, kind, _big, x, y in on:
            assert 0 <= rel < players and 0 <= piece < len(placed) and 0 <= kind < 4
            if abs(x) <= radius and abs(y) <= radius:
                assert cells[26 + 4 * rel + kind, y + radius, x + radius] == 1.0
                lit.add((26 + 4 * rel + kind, y + radius, x + radius))
        planes = cells[26 : 26 + 4 * players]
        assert len(lit) == int(np.count_nonzero(planes))
        g.apply(rng.choice(g.legal_actions()))


def test_config_forms():
    by_sets = bastide.Game(sets=["winter", "gingerbread"], players=3, seed=8)
    cfg = by_sets.config
    assert cfg["base"] == "winter" and cfg["expansions"] == ["gingerbread"]
    assert len(cfg["players"]) == 3 and cfg["seed"] == 8
    from_dict = bastide.Game(cfg)
    from_text = bastide.Game(json.dumps(cfg))
    assert from_dict.to_record() == from_text.to_record() == by_sets.to_record()
    assert bastide.Game(cfg, seed=9).config["seed"] == 9
    known = bastide.known_sets()
    assert {"base", "winter", "river1", "plague", "map-chips", "ukraine"} <= set(known)
    short = bastide.Game(sets="base", options={"followers": 2})
    assert short.observation(0)[1][6 + 3 * 2 - 2] == 1.0  # supply 2 of 2


def test_a_list_without_a_base_game_plays_on_base_and_says_so():
    with pytest.warns(UserWarning, match=r'sets="base\+plague"'):
        implied = bastide.Game(sets="plague", seed=2)
    assert implied.config["base"] == "base" and implied.config["expansions"] == ["plague"]
    stated = bastide.Game(sets="base+plague", seed=2)
    assert implied.to_record() == stated.to_record()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bastide.Game(sets="winter+gingerbread")  # a base named: no warning
        with pytest.raises(UserWarning):
            bastide.Game(sets=["river1"])


def test_clone_is_independent():
    g = bastide.Game(sets="base", seed=1)
    h = g.clone()
    g.apply(g.legal_actions()[0])
    assert h.move_number == 0 and g.move_number == 1
    assert h.legal_actions() != g.legal_actions() or h.phase != g.phase


def test_errors_are_exceptions_with_the_engines_message():
    g = bastide.Game(sets="base", seed=1)
    for bad in (0, -1, 10**30, g.num_actions, "{", {"place": {"tile": "base/ZZ"}}):
        with pytest.raises(bastide.IllegalAction):
            g.apply(bad)
    with pytest.raises(bastide.IllegalAction, match="must be placed first"):
        g.apply({"follower": {"x": 0, "y": 0, "place": "N"}})
    assert g.move_number == 0
    with pytest.raises(bastide.IllegalAction, match="explicit_chance"):
        g.apply_chance("base/A")
    with pytest.raises(bastide.ConfigError, match="unknown set"):
        bastide.Game(sets="base,nonsense")
    with pytest.raises(bastide.ConfigError, match="gingerbread"):
        bastide.Game(sets="base,gingerbread")
    with pytest.raises(ValueError, match="players"):
        bastide.Game(sets="base", players=7)
    with pytest.raises(ValueError, match="seed"):
        bastide.Game(sets="base", seed=-1)
    with pytest.raises(bastide.ConfigError, match="option"):
        bastide.Game(sets="base", options={"no_such_option": 1})
    with pytest.raises(bastide.ConfigError):
        bastide.Game({"players": ["A"], "base": "base"})
    with pytest.raises(bastide.ConfigError):
        bastide.Game(sets="base", radius=0)
    with pytest.raises(bastide.ConfigError, match="too long"):
        bastide.Game(sets="base," * 5000)
    with pytest.raises(bastide.ConfigError, match="too long"):
        bastide.Game(sets=["base"] * 10**6)
    with pytest.raises(bastide.RecordError, match="format"):
        bastide.Game.from_record({"format": 2, "config": {"players": ["A", "B"]}})
    rec = g.to_record()
    rec["actions"] = [{"pass": {}}]
    with pytest.raises(bastide.RecordError, match="action 0"):
        bastide.Game.from_record(rec)
    with pytest.raises(IndexError):
        g.observation(2)
    assert issubclass(bastide.IllegalAction, bastide.BastideError)
    assert issubclass(bastide.BastideError, ValueError)


@pytest.mark.parametrize("explicit", [False, True])
def test_games_pickle_and_copy(explicit):
    import copy
    import pickle

    rng = random.Random(6)
    g = bastide.Game(sets="base,halfsies1", seed=4, explicit_chance=explicit, radius=25)
    for _ in range(70):
        if g.is_chance:
            g.apply_chance(rng.choice([t for t, _ in g.chance_outcomes()]))
        else:
            g.apply(rng.choice(g.legal_actions()))
        for h in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
            assert (h.is_chance, h.current_player, h.radius) == (
                g.is_chance,
                g.current_player,
                g.radius,
            )
            assert h.legal_actions() == g.legal_actions() and h.scores() == g.scores()
            for a, b in zip(h.observation(0), g.observation(0)):
                assert np.array_equal(a, b)
    if not explicit:
        assert pickle.loads(pickle.dumps(g)).to_record() == g.to_record()


def test_observations_hide_the_other_hands():
    """Half-and-half dealt face down: seat 0 sees the same whatever seat 1
    holds, while seat 1 itself plays from a different hand."""
    base = bastide.Game(sets="base,halfsies1", seed=3).config
    a = bastide.Game(
        {**base, "hands": [["halfsies1/A", "halfsies1/B"], ["halfsies1/C", "halfsies1/D"]]}
    )
    b = bastide.Game(
        {**base, "hands": [["halfsies1/A", "halfsies1/B"], ["halfsies1/E", "halfsies1/F"]]}
    )
    rng = random.Random(1)
    for _ in range(40):
        if a.current_player != 0:
            break
        for x, y in zip(views(a, 0), views(b, 0)):
            assert np.array_equal(x, y)
        i = rng.choice(a.legal_actions())
        a.apply(i)
        b.apply(i)
    for x, y in zip(views(a, 0), views(b, 0)):
        assert np.array_equal(x, y)
    # Seat 1's own choices differ: its hand is its own.
    assert a.legal_actions_json() != b.legal_actions_json()
