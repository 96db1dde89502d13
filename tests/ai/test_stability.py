"""The pool of determinizations a search cycles through, and the stability measure built on it."""

import pytest

import ai
from ai import stability
from ai.search import parallel
from ai.search.bot import SearchBot, answer_without_search
from ai.seeding import decision_rng


@pytest.fixture
def counting(monkeypatch):
    """Counts the fresh determinizations every search bot draws."""
    drawn = []
    draw = SearchBot.determinization

    def counted(bot, view, rng):
        drawn.append(view["seat"])
        return draw(bot, view, rng)

    monkeypatch.setattr(SearchBot, "determinization", counted)
    return drawn


@pytest.fixture(scope="module")
def views():
    return stability.searched_positions(3)


def test_a_search_draws_as_many_determinizations_as_its_pool_holds(views, counting):
    bot = ai.make_bot("hard", seed=3, iterations=30)
    bot.determinizations = 7
    bot.run(views[0], decision_rng(3, views[0]))
    assert len(counting) == 7


def test_by_default_each_of_the_first_250_iterations_draws_a_fresh_determinization(views, counting):
    bot = ai.make_bot("hard", seed=3, iterations=30)
    bot.run(views[0], decision_rng(3, views[0]))
    assert len(counting) == 30


def test_expert_workers_search_with_the_expert_bots_pool_size(views, counting):
    bot = parallel.RootParallelBot(
        5, workers=1, iterations=40, level="expert", battles=2, opponents="heuristic"
    )
    bot.determinizations = 6
    bot.choose(views[0])
    assert len(counting) == 6


@pytest.mark.parametrize("players", [2, 3])
def test_the_positions_are_decisions_a_search_level_searches(players):
    found = stability.searched_positions(4, players=players)
    assert len(found) == 4
    for view in found:
        assert len(view["players"]) == players
        assert answer_without_search(view) is None
        assert len(view["legal_actions"]) >= 3


def test_a_seeded_search_choice_is_reproducible(views):
    first = stability.search_choice(views[1], 8, 60, 20)
    again = stability.search_choice(views[1], 8, 60, 20)
    assert (first["chosen"], first["advice"]) == (again["chosen"], again["advice"])


def test_the_summary_counts_agreeing_seeds_and_overrules():
    def choice(chosen, advice):
        return {"chosen": chosen, "advice": advice, "cpu": 0.5}

    rows = [
        [choice(1, 1), choice(1, 1)],  # both seeds agree with the heuristic
        [choice(2, 1), choice(3, 1)],  # the seeds disagree, both overrule
        [choice(4, 1), choice(4, 1)],  # agree, both overrule
    ]
    summary = stability.pool_summary(rows)
    assert summary["seeds_agree"] == 2
    assert summary["overrules"] == 4
    assert summary["searches"] == 6
    assert summary["cpu_per_search"] == pytest.approx(0.5)


def test_the_match_rate_is_the_share_of_reference_choices_matched():
    assert stability.match_rate([1, 2], [[1, 1, 2, 2], [2, 2, 2, 2]]) == pytest.approx(0.75)


def test_the_command_reports_every_pool_and_the_smaller_budget(capsys):
    report = stability.main(
        ["--positions", "2", "--iterations", "40", "--determinizations", "10,40", "--smaller", "10"]
    )
    for pool in (10, 40):
        assert report[pool]["positions"] == 2
        assert report[pool]["searches"] == 4
        assert 0 <= report[pool]["seeds_agree"] <= 2
    assert 0.0 <= report["heuristic_matches"] <= 1.0
    assert 0.0 <= report["smaller_matches"] <= 1.0
    printed = capsys.readouterr().out
    assert "40 iterations, 10 determinizations" in printed
    assert "10 iterations match them" in printed
