"""`bastide.ray`: self-play on a local two-worker Ray cluster."""

from __future__ import annotations

import json
import sys

import pytest

import bastide
from conftest import need

ray = need("ray")
import bastide.ray as br  # noqa: E402  (needs ray)


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def first_legal(game: bastide.Game) -> int:
    """A Python policy: the lowest legal action."""
    return game.legal_actions()[0]


# Workers cannot import this test module: send its functions by value, as
# a user does for a policy defined in a script's own modules.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


def test_ray_games_equal_local_games_and_write_replayable_records(cluster, tmp_path):
    seats = ["greedy", first_legal]
    results = br.play_games(6, seats, sets="base,river1", seed=40, out_dir=tmp_path)
    assert [r.index for r in results] == list(range(6))
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"g{i:06d}.json" for i in range(6)]
    for r in results:
        with open(tmp_path / f"g{r.index:06d}.json", encoding="utf-8") as f:
            record = json.load(f)
        assert record == r.record and record["config"]["seed"] == 40 + r.index
        assert bastide.Game.from_record(record).scores() == r.scores
    # Seats rotate: each player takes each seat.
    assert results[0].seats == ["greedy", "policy:first_legal"]
    assert results[1].seats == ["policy:first_legal", "greedy"]
    local = br.play_games_locally(6, seats, sets="base,river1", seed=40)
    assert [r.record for r in local] == [r.record for r in results]
    table = br.summarize(results)
    assert table["greedy"]["games"] == table["policy:first_legal"]["games"] == 6
    assert table["greedy"]["wins"] + table["policy:first_legal"]["wins"] == pytest.approx(6)
    # The lowest legal action never places a follower: greedy wins.
    assert table["greedy"]["win_rate"] > 0.5


def test_ray_tournament_of_three_bots(cluster):
    results = br.play_games(3, ["random", "greedy", "mcts:10"], games_per_task=1, seed=1)
    assert all(len(r.scores) == 3 and sum(r.returns) == pytest.approx(0) for r in results)


def test_ray_inputs_are_checked_before_any_task(cluster):
    with pytest.raises(ValueError, match="n_games"):
        br.play_games(0, ["random", "random"])
    with pytest.raises(ValueError, match="Known bots"):
        br.play_games(2, ["random", "alphazero"])
    with pytest.raises(bastide.ConfigError, match="seats"):
        br.play_games(2, ["random", "random"], players=3)
    with pytest.raises(TypeError):
        br.play_games(2, ["random", 5])
