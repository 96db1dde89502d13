"""The paired comparison of two arena reports (ai/compare.py): same deals, game by game."""

import json

import pytest

from ai import arena, compare


def report(seed: int, bots: list[str], outcomes: dict, players: int = 2) -> dict:
    """A report in the arena's shape. `outcomes` maps (deal, rotation) to the first bot's result
    (1 won, 0 lost); the seats rotate as the arena's do, so that bot sits in seat `rotation`."""
    games = []
    for (deal, rotation), won in outcomes.items():
        seated = bots[-rotation:] + bots[:-rotation] if rotation else list(bots)
        shares = [0.0] * len(bots)
        shares[rotation] = float(won)
        shares[(rotation + 1) % len(bots)] = 1.0 - won
        games.append({"deal": deal, "rotation": rotation, "bots": seated, "shares": shares})
    return {
        "args": {"players": players, "seed": seed},
        "summary": {token: {} for token in bots},
        "games": games,
    }


def test_only_games_whose_result_differs_count_and_the_sign_test_is_exact():
    keys = [(deal, rotation) for deal in range(5) for rotation in (0, 1)]
    new = report(
        7, ["new", "heuristic"], dict(zip(keys, [1, 1, 1, 1, 1, 1, 1, 1, 0, 0], strict=True))
    )
    # The old run lacks deal 4's second game and has one the new run did not play.
    old_outcomes = dict(zip(keys[:9], [1, 0, 1, 0, 1, 1, 0, 0, 1], strict=True))
    old = report(7, ["old", "heuristic"], {**old_outcomes, (9, 0): 1})
    result = compare.compare(new, "new", old, "old")
    # 9 games in common; new won 8 of them, old 5; they differ in 5: 4 for new, 1 for old, and
    # P(at most 1 of 5) = 6/32 on either side.
    assert result == {
        "games": 9,
        "first_wins": 8.0,
        "second_wins": 5.0,
        "first_better": 4,
        "second_better": 1,
        "p_value": pytest.approx(12 / 32),
    }


def test_sign_test_values():
    assert compare.sign_test(0, 0) == 1.0
    assert compare.sign_test(5, 5) == 1.0
    # 8 against 1: P(X <= 1) for Binomial(9, 1/2) is 10/512, doubled.
    assert compare.sign_test(8, 1) == pytest.approx(20 / 512)
    assert compare.sign_test(1, 8) == compare.sign_test(8, 1)
    assert compare.sign_test(10, 0) == pytest.approx(2 / 1024)


def test_reports_of_other_deals_or_bots_are_refused():
    shares = {(0, 0): 1}
    base = report(7, ["a", "b"], shares)
    with pytest.raises(ValueError, match="same deals.*seed 7 and 8"):
        compare.compare(base, "a", report(8, ["a", "b"], shares), "a")
    with pytest.raises(ValueError, match="same deals.*players 2 and 3"):
        compare.compare(base, "a", report(7, ["a", "b", "b"], shares, players=3), "a")
    renaissance = report(7, ["a", "b"], shares)
    renaissance["args"]["game"] = "renaissance"
    with pytest.raises(ValueError, match="same deals.*game 'condottiere' and 'renaissance'"):
        compare.compare(base, "a", renaissance, "a")
    with pytest.raises(ValueError, match="no bot 'c'.*it has a, b"):
        compare.compare(base, "c", base, "a")


def test_a_report_from_before_renaissance_is_a_condottiere_report():
    shares = {(0, 0): 1}
    old, new = report(7, ["a", "b"], shares), report(7, ["a", "b"], shares)
    new["args"]["game"] = "condottiere"
    assert compare.compare(new, "a", old, "a")["games"] == 1


def test_two_real_runs_on_the_same_seed(tmp_path, capsys):
    """Two arena runs sharing a seed: the first's games are the second's first deals, and the
    comparison reads each bot's share from whichever seat it held."""
    common = ["--players", "2", "--seed", "5", "--workers", "1", "--quiet"]
    short, long = tmp_path / "short.json", tmp_path / "long.json"
    arena.main([*common, "--games", "4", "--bots", "random,heuristic", "--json", str(short)])
    arena.main([*common, "--games", "6", "--bots", "easy,heuristic", "--json", str(long)])
    result = compare.main([str(short), "random", str(long), "easy"])
    games = {
        name: {(g["deal"], g["rotation"]): g for g in json.loads(path.read_text())["games"]}
        for name, path in (("short", short), ("long", long))
    }
    assert result["games"] == 4
    for key, game in games["short"].items():
        other = games["long"][key]
        assert game["game_seed"] == other["game_seed"]
    random_share = sum(g["shares"][g["bots"].index("random")] for g in games["short"].values())
    easy_share = sum(
        games["long"][key]["shares"][games["long"][key]["bots"].index("easy")]
        for key in games["short"]
    )
    assert (result["first_wins"], result["second_wins"]) == (random_share, easy_share)
    assert "4 games in common" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="compare: no bot 'medium'"):
        compare.main([str(short), "medium", str(long), "easy"])


def test_two_real_renaissance_runs_on_the_same_seed(tmp_path):
    """A Renaissance report summarises per bot and per nation: the comparison reads the bots'."""
    common = ["--game", "renaissance", "--players", "3", "--games", "3", "--seed", "5"]
    common += ["--workers", "1", "--quiet"]
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    arena.main([*common, "--bots", "hard:1,heuristic,heuristic", "--json", str(first)])
    arena.main([*common, "--bots", "heuristic,heuristic,random", "--json", str(second)])
    result = compare.main([str(first), "hard:1", str(second), "random"])
    games = json.loads(first.read_text())["games"]
    assert result["games"] == 3
    assert result["first_wins"] == sum(g["shares"][g["bots"].index("hard:1")] for g in games)
    with pytest.raises(SystemExit, match="no bot 'milan'.*it has hard:1, heuristic"):
        compare.main([str(first), "milan", str(second), "random"])
