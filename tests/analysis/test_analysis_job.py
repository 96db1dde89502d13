"""The job "analysis": every real decision searched from its seat's view only, results stored,
idempotent, finished games only, a slice at a time behind other work."""

import pytest

import ai.search.bot
from ai.analysis import analyse_view as real_analyse_view
from games.analysis import runner
from games.analysis.marks import mark_for
from games.analysis.models import Analysis
from games.analysis.runner import JOB, run_slice, search_slice
from games.analysis.service import NotFinished, request_analysis
from games.engine import GameState, view_for
from games.history.game_log import logged_actions
from games.history.replay import replay_states
from games.models import Game
from tests.analysis.conftest import TINY_BUDGET

pytestmark = pytest.mark.django_db


def expected_decisions(game: Game) -> list[tuple[int, int, dict]]:
    """(seq, seat, view before) of every logged action that chose among two or more."""
    actions = logged_actions(game)
    found = []
    for action, before in zip(actions, replay_states(game, actions), strict=False):
        if action.action["type"] == "show":
            continue
        view = view_for(before, action.seat)
        if len(view["legal_actions"]) >= 2:
            found.append((action.seq, action.seat, view))
    return found


def run_announced(announced) -> None:
    """Run the analysis slices announced so far, and those they announce, as a worker would."""
    while any(name == JOB for name, _args, _delay in announced):
        index = next(i for i, (name, _a, _d) in enumerate(announced) if name == JOB)
        _name, args, _delay = announced.pop(index)
        run_slice(*args)


@pytest.fixture
def searched(monkeypatch):
    """Records what the analysis hands the search (views) and what the search determinizes."""
    seen = {"views": [], "determinized": []}

    def recording_analyse_view(view, **kwargs):
        seen["views"].append(view)
        return real_analyse_view(view, **kwargs)

    real_determinize = ai.search.bot.determinize

    def recording_determinize(view, rng):
        seen["determinized"].append(view)
        return real_determinize(view, rng)

    monkeypatch.setattr(runner, "analyse_view", recording_analyse_view)
    monkeypatch.setattr(ai.search.bot, "determinize", recording_determinize)
    return seen


def test_every_real_decision_is_searched_from_its_seats_view_only(
    finished_game, announced, searched, make_user
):
    game = finished_game(2, seed=5)
    expected = expected_decisions(game)
    assert len(expected) > 10
    assert len(expected) < game.version  # forced decisions exist and are skipped

    analysis, asked = request_analysis(game, make_user())
    assert asked and analysis.status == Analysis.Status.QUEUED
    run_slice(analysis.pk)
    run_announced(announced)

    # Exactly the seat's view before each decision, in order; never a full state.
    assert searched["views"] == [view for _seq, _seat, view in expected]
    assert searched["determinized"], "the search never drew a determinization"
    assert all(isinstance(view, dict) for view in searched["determinized"])
    assert not any(isinstance(view, GameState) for view in searched["views"])
    # A view of one seat holds its own hand only: the other seat's hand is never in it.
    for (_seq, seat, view), seen in zip(expected, searched["views"], strict=True):
        assert seen["seat"] == seat and seen["hand"] == view["hand"]

    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE and analysis.finished_at is not None
    assert analysis.progress == analysis.total == len(expected)
    assert analysis.iterations == TINY_BUDGET and analysis.cost_seconds > 0
    entries = analysis.results["decisions"]
    assert [(e["seq"], e["seat"]) for e in entries] == [(s, t) for s, t, _v in expected]
    for entry, (_seq, _seat, view) in zip(entries, expected, strict=True):
        assert entry["best"] in view["legal_actions"]
        assert 0 <= entry["before"] <= 1
        assert entry["after"] is not None, "with this budget every root move is tried"
        assert entry["drop"] == pytest.approx(
            max(0.0, entry["before"] - entry["after"]) * 100, abs=0.02
        )
        assert entry["stake"] >= entry["drop"] - 0.02, "no move loses more than the worst"
        assert entry["mark"] == mark_for(entry["drop"], entry["stake"])
        if entry["best"] == entry["played"]:
            assert entry["drop"] == 0 and entry["mark"] is None
    assert any(entry["mark"] for entry in entries), "random play makes mistakes"


def test_a_second_request_finds_the_first_and_changes_nothing(finished_game, announced, make_user):
    game = finished_game(2, seed=6)
    first, asked = request_analysis(game, make_user())
    run_slice(first.pk)
    run_announced(announced)
    first.refresh_from_db()
    results = first.results

    again, asked_again = request_analysis(game, make_user())
    assert (again.pk, asked_again) == (first.pk, False)
    assert announced == []  # nothing announced again
    assert run_slice(first.pk) == "nothing to do"
    again.refresh_from_db()
    assert again.results == results and Analysis.objects.count() == 1


def test_only_a_finished_game_is_analysed(make_user, make_table, start_stacked, announced):
    people = {0: make_user(), 1: make_user()}
    playing = start_stacked(make_table(2, people=people))
    with pytest.raises(NotFinished):
        request_analysis(playing, people[0])
    assert not Analysis.objects.exists() and announced == []


def test_slices_resume_where_the_last_stopped_and_a_duplicate_saves_nothing(
    finished_game, announced, make_user, settings
):
    settings.ANALYSIS_SLICE_SECONDS = 0  # one decision per slice
    game = finished_game(2, seed=7)
    analysis, _ = request_analysis(game, make_user())
    stale = Analysis.objects.select_related("game").get(pk=analysis.pk)
    assert search_slice(stale) == "continues"
    assert announced[-1] == (JOB, (analysis.pk,), 0.0)  # the rest goes behind other work
    # The same slice delivered twice: the second copy finds it saved and stops.
    assert search_slice(stale) == "already done by another run"
    analysis.refresh_from_db()
    assert analysis.progress == 1 and len(analysis.results["decisions"]) == 1

    announced.clear()
    settings.ANALYSIS_SLICE_SECONDS = 60  # the rest in one slice
    run_slice(analysis.pk)
    run_announced(announced)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    assert [e["seq"] for e in analysis.results["decisions"]] == [
        seq for seq, _seat, _view in expected_decisions(game)
    ]


def test_the_cap_on_decisions_bounds_the_job(finished_game, announced, make_user, settings):
    settings.ANALYSIS_MAX_DECISIONS = 5
    game = finished_game(2, seed=8)
    analysis, _ = request_analysis(game, make_user())
    run_slice(analysis.pk)
    run_announced(announced)
    analysis.refresh_from_db()
    assert analysis.total == 5 and len(analysis.results["decisions"]) == 5
    assert analysis.results["truncated"] is True


def test_a_failed_analysis_says_so_and_a_new_request_starts_it_again(
    finished_game, announced, make_user, monkeypatch
):
    game = finished_game(2, seed=9)
    analysis, _ = request_analysis(game, make_user())

    def broken(view, **kwargs):
        raise RuntimeError("no search today")

    monkeypatch.setattr(runner, "analyse_view", broken)
    assert run_slice(analysis.pk) == "failed"
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.FAILED and "no search today" in analysis.error

    monkeypatch.setattr(runner, "analyse_view", real_analyse_view)
    again, asked = request_analysis(game, make_user())
    assert asked and again.status == Analysis.Status.QUEUED and again.progress == 0
