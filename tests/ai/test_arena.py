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
    # Every bot made decisions with a choice, and each took some time.
    assert all(row["ms_per_decision"] > 0 for row in summary.values())
    assert all(sum(game["decisions"]) <= game["actions"] for game in games)
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


def small_run(bots: str, players: int, games: int, *extra: str) -> dict:
    args = ["--players", str(players), "--games", str(games), "--bots", bots, "--seed", "3"]
    return arena.main([*args, "--workers", "1", "--quiet", *extra])


def test_two_budgets_of_one_level_are_told_apart():
    report = small_run("medium:12,medium:4", 2, 2)
    assert set(report["summary"]) == {"medium:12", "medium:4"}
    assert report["seat_coverage"] == {"medium:12": [0, 1], "medium:4": [0, 1]}
    assert all(sorted(game["bots"]) == ["medium:12", "medium:4"] for game in report["games"])


def test_a_token_budget_is_the_bots_own(monkeypatch):
    """`hard:N` searches N iterations whatever --iterations says; `hard` takes --iterations."""
    made = {}
    real_make = arena.make_arena_bot

    def record(token, **kwargs):
        bot = real_make(token, **kwargs)
        made[token] = (bot.iterations, bot.time_limit)
        return bot

    monkeypatch.setattr(arena, "make_arena_bot", record)
    small_run("hard:9,hard", 2, 2, "--iterations", "5")
    assert made == {"hard:9": (9, None), "hard": (5, None)}


@pytest.mark.parametrize("bots", ["hard:0", "hard:many", "heuristic:100", "oracle:", "wizard"])
def test_malformed_bot_tokens_stop_the_run_with_a_reason(bots):
    with pytest.raises(SystemExit, match="--bots"):
        small_run(bots, 2, 2)


def test_the_arena_only_opponents_finish_their_games():
    report = small_run("oracle:8,ganging,ganging", 3, 3)
    assert set(report["summary"]) == {"oracle:8", "ganging"}
    assert all(game["finished"] and game["winners"] for game in report["games"])


class HistoryReader:
    """A bot that declares `uses_history` and checks what the arena hands it."""

    uses_history = True
    calls = []

    def choose(self, view, history):
        HistoryReader.calls.append((view, list(history)))
        return view["legal_actions"][0]


def test_bots_that_use_history_get_every_spectator_view_so_far(monkeypatch):
    real_make = arena.make_arena_bot

    def make(token, **kwargs):
        return HistoryReader() if kwargs["seat"] == 0 else real_make(token, **kwargs)

    monkeypatch.setattr(arena, "make_arena_bot", make)
    HistoryReader.calls = []
    game = arena.play_game(
        {"bots": ["random", "heuristic"], "deal": 0, "rotation": 0, "game_seed": 5}
    )
    assert HistoryReader.calls
    initial = arena.view_for(arena.new_game(2, seed=5, first=0), None)
    previous = []
    for view, history in HistoryReader.calls:
        assert history[0] == initial
        assert all(snapshot["seat"] is None for snapshot in history)
        assert len(history) > len(previous) and history[: len(previous)] == previous
        previous = history
        now = history[-1]  # the position the bot decides in, as a spectator sees it
        assert now["current_player"] == view["seat"] == 0
        for key in ("phase", "owners", "discards", "deck_size", "region"):
            assert now[key] == view[key]
    assert len(previous) <= game["actions"] + 1
    assert game["finished"]


def without_timing(summary: dict) -> dict:
    return {
        bot: {k: v for k, v in row.items() if k != "ms_per_decision"}
        for bot, row in summary.items()
    }


def run_with_report(out, *extra):
    argv = ["--players", "2", "--games", "4", "--bots", "easy,random", "--seed", "7"]
    return arena.main([*argv, "--workers", "1", "--quiet", "--json", str(out), *extra])


def test_a_resumed_run_plays_only_the_missing_games_and_ends_as_an_unbroken_run(tmp_path):
    unbroken = run_with_report(tmp_path / "unbroken.json")
    # A run stopped after its first two games: its report holds only those.
    stopped = tmp_path / "stopped.json"
    kept = [{**game, "seconds": 12345.0} for game in unbroken["games"][:2]]  # marked as the stored
    partial = {**unbroken, "games": kept, "finished_games": 2, "seconds": 100.0}
    stopped.write_text(json.dumps(partial))

    resumed = run_with_report(stopped, "--resume")

    keys = [(g["deal"], g["rotation"]) for g in resumed["games"]]
    assert sorted(keys) == sorted(set(keys)), "no game is played twice"
    assert resumed["finished_games"] == 4
    assert [g["seconds"] for g in resumed["games"]].count(12345.0) == 2, "stored games are kept"
    assert without_timing(resumed["summary"]) == without_timing(unbroken["summary"])
    assert [g["winners"] for g in resumed["games"]] == [g["winners"] for g in unbroken["games"]]
    assert resumed["seconds"] > 100.0, "the stopped run's time counts"
    assert json.loads(stopped.read_text())["finished_games"] == 4


def test_resuming_refuses_a_report_of_another_run(tmp_path):
    out = tmp_path / "other.json"
    run_with_report(out)
    with pytest.raises(SystemExit, match="another run.*seed=7"):
        arena.main(
            ["--players", "2", "--games", "4", "--bots", "easy,random", "--seed", "8"]
            + ["--workers", "1", "--quiet", "--json", str(out), "--resume"]
        )
    assert json.loads(out.read_text())["args"]["seed"] == 7, "the report is left as it was"


def test_resuming_without_a_report_plays_the_whole_run(tmp_path):
    report = run_with_report(tmp_path / "new.json", "--resume")
    assert report["finished_games"] == 4
