"""Issue 42: the research interfaces, exact. Explicit chance never reads the
seeded pile, OpenSpiel game strings round-trip, `apply` accepts exactly the
legal list, and loose input is refused."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

import bastide
from conftest import need

# Every expansion alone and the combinations that meet in the hooks.
ALONE = [
    "base",
    "winter",
    "base+river1",
    "base+river2",
    "base+river20",
    "base+river1+cutcassonne",
    "base+halfsies1",
    "base+halfsies2",
    "base+plague",
    "winter+gingerbread",
    "base+map-chips",
    "base+inns-cathedrals",
]
MEETING = [
    "base+river1+halfsies1",
    "base+plague+halfsies1+halfsies2",
    "winter+plague+gingerbread+river2+halfsies1",
    "base+inns-cathedrals+river2+plague+halfsies2",
]
ALL_SETS = (
    "winter+river1+river2+cutcassonne+halfsies1+halfsies2+plague+gingerbread+map-chips"
    "+inns-cathedrals"
)


def explicit(sets: str, seed: int, fixed: bool = True) -> bastide.Game:
    """An explicit-chance game; with `fixed`, its Half-and-half hands are
    fixed in the configuration, else chance deals them (its first chance
    nodes)."""
    cfg = bastide.Game(sets=sets, seed=seed).config
    half = next((e for e in cfg["expansions"] if e.startswith("halfsies")), None)
    if half and fixed:
        cfg["hands"] = [[f"{half}/A", f"{half}/B"], [f"{half}/C", f"{half}/D"]]
    return bastide.Game(config=cfg, explicit_chance=True)


def seen(g: bastide.Game) -> list:
    """Everything every seat sees, and what the game says to anyone."""
    out = [g.is_chance, g.is_terminal, g.current_player, g.tiles_left, g.returns()]
    out.append(g.chance_outcomes())
    out.append(g.legal_actions())
    for s in range(g.num_players):
        cells, glob = g.observation(s)
        out += [cells.tobytes(), glob.tobytes(), g.view(s)]
    return out


@pytest.mark.parametrize("sets", [*ALONE, *MEETING])
def test_two_seeds_fed_the_same_outcomes_look_the_same(sets):
    rng = random.Random(sets)
    a, b = explicit(sets, 3), explicit(sets, 82)
    steps = 0
    while not a.is_terminal:
        assert seen(a) == seen(b), f"{sets}, step {steps}"
        if a.is_chance:
            tiles, probs = zip(*a.chance_outcomes())
            t = rng.choices(tiles, probs)[0]
            left = a.tiles_left
            a.apply_chance(t)
            b.apply_chance(t)
            # A tile leaves the pile; a Map Chips chip leaves the chip supply.
            assert a.tiles_left == left - (":" not in a.chance_ids[t])
        else:
            x = rng.choice(a.legal_actions())
            left = a.tiles_left
            a.apply(x)
            b.apply(x)
            # Only a chance outcome moves the count.
            assert a.tiles_left == left
        steps += 1
    assert seen(a) == seen(b)
    assert steps > 100
    # A live game is its own record replayed (Map Chips' chips as its
    # chip_draws, which hold across the reshuffles).
    again = bastide.Game.from_record(a.to_record(), explicit_chance=True)
    assert seen(again) == seen(a)


@pytest.mark.parametrize(
    ("sets", "fixed"),
    [("base+halfsies1", True), ("base+halfsies1", False), ("base+river1", True), ("base", True)],
)
def test_a_live_game_is_its_record_replayed_at_every_turn(sets, fixed):
    rng = random.Random(7)
    g = explicit(sets, 5, fixed)
    n = 0
    while not g.is_terminal:
        if g.is_chance:
            tiles, probs = zip(*g.chance_outcomes())
            g.apply_chance(rng.choices(tiles, probs)[0])
            continue
        g.apply(rng.choice(g.legal_actions()))
        n += 1
        if n % 10 == 0:
            again = bastide.Game.from_record(g.to_record(), explicit_chance=True)
            assert seen(again) == seen(g), f"{sets}, move {n}"


def _chips_returned(g: bastide.Game) -> bool:
    """Whether a Chumak square was built (its chips back in the supply)."""
    chips = g.view(0).get("chips")
    return bool(chips) and any(q["built"] for q in chips["chumak"])


def test_a_map_chips_record_replays_across_the_reshuffles():
    # Chips traded onto a Chumak square go back into the supply when it is
    # built, reshuffled; the record's chip_draws fix every chip drawn.
    replayed_past_a_reshuffle = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = bastide.Game(sets="base,map-chips", seed=seed, explicit_chance=True)
        while not g.is_terminal:
            if g.is_chance:
                ids, probs = zip(*g.chance_outcomes())
                g.apply_chance(rng.choices(ids, probs)[0])
            else:
                g.apply(rng.choice(g.legal_actions()))
        record = g.to_record()
        assert "chips" not in record["config"] and record["config"]["chip_draws"]
        again = bastide.Game.from_record(record, explicit_chance=True)
        assert seen(again) == seen(g), f"seed {seed}"
        plain = bastide.Game.from_record(record)
        assert plain.scores() == g.scores(), f"seed {seed}"
        replayed_past_a_reshuffle += _chips_returned(g)
    assert replayed_past_a_reshuffle > 0


def test_map_chips_are_chance_outcomes_by_name_and_index():
    g = bastide.Game(sets="base,map-chips", seed=1, explicit_chance=True)
    ids = g.chance_ids
    assert ids[: len(g.tile_ids)] == g.tile_ids and ids[len(g.tile_ids) :] == [
        f"{c}:{v}" for c in ("purple", "blue", "orange") for v in (1, 2)
    ]
    assert g.num_chance_outcomes == len(ids)
    rng = random.Random(5)
    chips = 0
    while not g.is_terminal and chips < 6:
        if g.is_chance:
            outcomes = g.chance_outcomes()
            names = {ids[i] for i, _ in outcomes}
            if all(":" in n for n in names):
                # A chip owed after a placement: the supply by count.
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                left = g.tiles_left
                name = sorted(names)[0]
                g.apply_chance(name if chips % 2 else ids.index(name))
                assert g.tiles_left == left
                chips += 1
                continue
            with pytest.raises(bastide.IllegalAction):
                g.apply_chance("purple:1")
            tiles, probs = zip(*outcomes)
            g.apply_chance(rng.choices(tiles, probs)[0])
        else:
            g.apply(rng.choice(g.legal_actions()))
    assert chips == 6
    again = bastide.Game.from_record(g.to_record(), explicit_chance=True)
    assert seen(again) == seen(g)
    assert pickle.loads(pickle.dumps(g)).view(0) == g.view(0)


def test_the_issues_half_and_half_example_keeps_its_count():
    g = bastide.Game(sets="base,halfsies1", seed=3, explicit_chance=True)
    h = bastide.Game(sets="base,halfsies1", seed=82, explicit_chance=True)
    # The deal is chance: four halves, round the table, the pile untouched.
    for k in range(4):
        assert g.is_chance and h.is_chance and seen(g) == seen(h), f"deal {k}"
        outcomes = [t for t, _ in g.chance_outcomes()]
        assert all(g.tile_ids[t].startswith("halfsies1/") for t in outcomes)
        g.apply_chance(outcomes[k])
        h.apply_chance(outcomes[k])
    assert seen(g) == seen(h)
    assert len(g.view(0)["hands"][0]) == 2 and g.view(0)["hands"][1] == {"hidden": 2}
    # Seat 0 chooses between a half and the draw before chance acts: no
    # tile has left the pile.
    assert not g.is_chance and g.tiles_left == h.tiles_left == 71


@pytest.mark.parametrize("sets", [*ALONE, ALL_SETS])
def test_apply_accepts_exactly_the_legal_ids(sets):
    rng = random.Random(sets)
    g = bastide.Game(sets=sets, seed=4)
    n = g.num_actions
    sample = n > 20_000
    positions = 0
    while not g.is_terminal and positions < 3:
        legal = g.legal_actions()
        if rng.random() < 0.1:
            positions += 1
            ids = range(n) if not sample else [*range(300), *rng.sample(range(n), 3000), *legal]
            allowed = set(legal)
            for i in ids:
                c = g.clone()
                try:
                    c.apply(i)
                    ok = True
                except bastide.IllegalAction:
                    ok = False
                assert ok == (i in allowed), f"{sets}: id {i}"
        g.apply(rng.choice(legal))


def test_loose_input_is_a_type_error():
    g = bastide.Game(sets="base", seed=1)
    for bad in (True, None, 3.0, [1, 2], 7231.7):
        with pytest.raises(TypeError):
            g.apply(bad)
    with pytest.raises(bastide.IllegalAction, match=f"outside 0 to {g.num_actions - 1}"):
        g.apply(g.num_actions)
    with pytest.raises(ValueError, match="no set"):
        bastide.Game(sets="")
    with pytest.raises(ValueError, match="no set"):
        bastide.Game(sets=" , ")
    # `+` separates sets as the comma does.
    assert bastide.Game(sets="base+river1").config == bastide.Game(sets="base,river1").config


def test_loose_chance_outcomes_and_seeds_are_type_and_value_errors():
    g = explicit("base", 1)
    # `True` is not outcome 1, nor `1.0`: the same types `apply` refuses.
    for bad in (True, 1.0, None, [1]):
        with pytest.raises(TypeError, match="an int"):
            g.apply_chance(bad)
    assert g.is_chance, "a refused outcome draws nothing"
    g.apply_chance(g.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="seed must be from 0 to"):
        g.determinize(0, -1)
    with pytest.raises(ValueError, match="seed must be from 0 to"):
        g.determinize(0, 1 << 64)


def test_environments_refuse_loose_actions():
    need("pettingzoo")
    need("gymnasium")
    from bastide.gymnasium import BastideEnv
    from bastide.pettingzoo import raw_env

    e = raw_env(sets="base")
    e.reset(seed=1)
    for bad in ("7231", 7231.7, True):
        with pytest.raises(TypeError):
            e.step(bad)
    env = BastideEnv(sets="base")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal"]
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    with pytest.raises(bastide.IllegalAction, match="reset"):
        env.step(legal)
    env.reset(seed=2)
    with pytest.raises(TypeError):
        env.step("1")


def test_determinize_keeps_what_the_seat_sees():
    g = explicit("base+halfsies1", 3)
    rng = random.Random(2)
    for _ in range(30):
        if g.is_chance:
            tiles, probs = zip(*g.chance_outcomes())
            g.apply_chance(rng.choices(tiles, probs)[0])
        else:
            g.apply(rng.choice(g.legal_actions()))
    d = g.determinize(0, 9)
    assert d.view(0) == g.view(0)
    assert [x.tobytes() for x in d.observation(0)] == [x.tobytes() for x in g.observation(0)]
    with pytest.raises(ValueError, match="explicit_chance"):
        bastide.Game(sets="base").determinize(0, 1)


def _played(g: bastide.Game, steps: int, seed: int) -> bastide.Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_terminal:
            break
        if g.is_chance:
            tiles, probs = zip(*g.chance_outcomes())
            g.apply_chance(rng.choices(tiles, probs)[0])
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def test_a_determinized_copy_pickles_as_itself():
    # Dealt by chance, then a few moves: seat 1 still holds hidden halves.
    g = _played(bastide.Game(sets="base,halfsies1", seed=3, explicit_chance=True), 6, 2)
    assert g.view(0)["hands"][1]["hidden"] > 0
    resampled = 0
    for seed in range(6):
        d = g.determinize(0, seed)
        c = pickle.loads(pickle.dumps(d))
        # Every seat's view, the resampled hand of seat 1 included.
        assert [c.view(s) for s in range(2)] == [d.view(s) for s in range(2)]
        resampled += d.view(1) != g.view(1)
    assert resampled > 0, "no determinization changed seat 1's hand"
    # Map Chips' resampled chips are in no configuration: refused.
    chips = _played(bastide.Game(sets="base,map-chips", seed=1, explicit_chance=True), 20, 3)
    with pytest.raises(TypeError, match="Map Chips"):
        pickle.dumps(chips.determinize(0, 1))
    pickle.dumps(chips)


# --- OpenSpiel ------------------------------------------------------------


def _openspiel():
    pyspiel = need("pyspiel")
    import bastide.openspiel  # noqa: F401  (registers the game)

    return pyspiel


@pytest.mark.parametrize("sets", [*ALONE, ALL_SETS])
def test_game_strings_round_trip_and_serialize(sets):
    pyspiel = _openspiel()
    game = pyspiel.load_game("python_bastide", {"sets": sets.replace("+", ","), "radius": 8})
    text = str(game)
    assert "sets=" + sets in text
    again = pyspiel.load_game(text)
    assert str(again) == text
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            tiles, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(tiles, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert restored.history() == state.history()


@pytest.mark.parametrize("sets", [*ALONE, ALL_SETS])
def test_random_simulation_with_serialization(sets):
    pyspiel = _openspiel()
    # The default window: a smaller one can leave a long river's
    # placements outside it (no id, so no legal action).
    game = pyspiel.load_game("python_bastide", {"sets": sets})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_information_state_is_a_string_and_observation_string_shows_the_board():
    pyspiel = _openspiel()
    game = pyspiel.load_game("python_bastide", {"sets": "base"})
    state = game.new_initial_state()
    # The recall of a fresh game: its one node, then the observation.
    assert state.information_state_string(0).endswith(state.observation_string(0))
    tensor = state.information_state_tensor(0)
    assert tensor.dtype == np.float32 and tensor.shape == (game.information_state_tensor_size(),)
    text = state.observation_string(0)
    assert "chance" in text and "place" not in text and "base/D@0,0/0" in text
    state.apply_action(state.chance_outcomes()[0][0])
    text = state.observation_string(0)
    assert "step place" in text and "drawn" in text and len(text.splitlines()) >= 3
    with pytest.raises(ValueError, match="not the last action"):
        state.undo_action(0, state.legal_actions()[0])
    r = state.resample_from_infostate(0, random.Random(3).random)
    assert r.observation_string(0) == state.observation_string(0)
    assert r.legal_actions() == state.legal_actions()
