"""Fixtures of the analysis tests: the web tests' people, tables and recorded jobs, a tiny search
budget, and finished games played at random through the services."""

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from ai.analysis import SEARCH_VERSION
from games.analysis.models import Analysis
from games.analysis.runner import run_slice
from games.engine import current_player, legal_actions
from games.models import Game
from games.services import load_state, start_game, submit_action
from tests.web import conftest as web

# The web tests' fixtures, shared: people, tables, started games and recorded jobs.
announced, make_table, make_user = web.announced, web.make_table, web.make_user
start_stacked = web.start_stacked

# Iterations per decision in these tests: enough for every root move to be tried, cheap.
TINY_BUDGET = 30


@pytest.fixture(autouse=True)
def tiny_budgets(settings):
    settings.ANALYSIS_ITERATIONS = TINY_BUDGET
    settings.HINT_ITERATIONS = TINY_BUDGET
    settings.BOT_MOVE_DELAY = 0
    settings.BOT_THINK_SECONDS = 0.05


def play_out(game: Game, seed: int) -> Game:
    """Start `game` and play random legal moves through the services until it is over."""
    rng = random.Random(seed)
    start_game(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        action = rng.choice(legal_actions(state))
        submit_action(game.pk, current_player(state), action, game.version)
        game.refresh_from_db()
    return game


@pytest.fixture
def finished_game(make_user, make_table, announced):
    """A finished game between people (seat 0 first), played at random."""

    def make(players: int = 2, seed: int = 5) -> Game:
        people = {index: make_user() for index in range(players)}
        return play_out(make_table(players, people=people, seed=seed), seed)

    return make


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def make_analysis(make_table):
    """An analysis row of a finished game, in the given state, last saved `saved_ago` ago."""

    def make(
        status,
        *,
        saved_ago=timedelta(0),
        finished_ago=None,
        seconds=0.0,
        decisions=0,
        version=SEARCH_VERSION,
    ):
        now = timezone.now()
        game = make_table(2)
        # Only a finished game is analysed (a request checks it).
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        analysis = Analysis.objects.create(
            game=game,
            status=status,
            iterations=1000,
            search_version=version,
            progress=decisions,
            total=decisions,
            cost_seconds=seconds,
            finished_at=None if finished_ago is None else now - finished_ago,
        )
        # updated_at is set on every save: put it back in time with an UPDATE.
        Analysis.objects.filter(pk=analysis.pk).update(updated_at=now - saved_ago)
        return Analysis.objects.get(pk=analysis.pk)

    return make


def analyse_to_the_end(analysis: Analysis) -> None:
    """Run the job's slices as its re-announcements would: a slice stops after
    ANALYSIS_SLICE_SECONDS, so on a loaded machine one slice may not finish the game."""
    while analysis.status in (Analysis.Status.QUEUED, Analysis.Status.RUNNING):
        run_slice(analysis.pk)
        analysis.refresh_from_db()
