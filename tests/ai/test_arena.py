"""The arena's plumbing (not the bots' strength): seat rotation, counts, the JSON report."""

import json

import pytest

from ai import arena
from ai.ratings import bradley_terry, wilson_interval


def test_fewer_bots_than_seats_are_cycled():
    assert arena.seat_bots(["hard", "heuristic"], 4) == ["hard", "heuristic", "hard", "heuristic"]


def test_every_deal_is_replayed_in_every_rotation():
    specs = arena.schedule(["medium", "heuristic", "heuristic"], 3, games=5, seed=1)
    assert len(specs) == 6  # rounded up to whole deals of 3 rotations
    for deal in (0, 1):
        lineups = [s["bots"] for s in specs if s["deal"] == deal]
        assert len({s["game_seed"] for s in specs if s["deal"] == deal}) == 1
        for seat in range(3):
            assert sorted(lineup[seat] for lineup in lineups) == sorted(lineups[0])


def test_a_small_run_adds_up_and_writes_its_json(tmp_path):
    out = tmp_path / "arena.json"
    report = arena.main(
        [
            "--players",
            "3",
            "--games",
            "6",
            "--bots",
            "medium,heuristic,random",
            "--iterations",
            "10",
            "--seed",
            "4",
            "--workers",
            "2",
            "--quiet",
            "--json",
            str(out),
        ]
    )
    games = report["games"]
    assert len(games) == 6
    for game in games:
        assert game["winners"], "every game must end with a winner"
        assert sum(game["shares"]) == pytest.approx(1.0)
    summary = report["summary"]
    assert {bot: row["games"] for bot, row in summary.items()} == {
        "medium": 6,
        "heuristic": 6,
        "random": 6,
    }
    assert sum(row["wins"] for row in summary.values()) == pytest.approx(6)
    assert report["seat_coverage"] == {bot: [0, 1, 2] for bot in summary}
    assert json.loads(out.read_text())["summary"].keys() == summary.keys()


def test_wilson_interval_brackets_the_rate():
    low, high = wilson_interval(60, 100)
    assert low < 0.6 < high
    assert (round(low, 3), round(high, 3)) == (0.502, 0.691)


def test_ratings_order_bots_by_their_pairwise_scores():
    ratings = bradley_terry({("a", "b"): 30.0, ("b", "a"): 10.0})
    assert ratings["a"] > 1500 > ratings["b"]
    # 3:1 odds is about 191 Elo points, shrunk a little by the prior.
    assert 150 < ratings["a"] - ratings["b"] < 191
