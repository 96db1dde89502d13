"""Many submissions racing on one version: exactly one lands, the others are told it is stale."""

import threading

import pytest
from django.db import connections

from games.engine import apply_action, current_player, legal_actions
from games.models import Action, Game
from games.services import StaleVersion, load_state, start_game, submit_action
from games.services.actions import guarded_update
from tests.services import require_postgresql

RACERS = 8
ROUNDS = 4


def race(game_id: int, seat: int, actions: list[dict], version: int) -> list[tuple]:
    """RACERS threads, each on its own database connection, submit at the same instant."""
    barrier = threading.Barrier(RACERS)
    outcomes: list[tuple] = []

    def racer(number: int):
        try:
            barrier.wait(timeout=30)
            action = actions[number % len(actions)]
            outcomes.append(("landed", submit_action(game_id, seat, action, version), action))
        except StaleVersion as error:
            outcomes.append(("stale", error.version, None))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=racer, args=(number,)) for number in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_on_one_version_land_exactly_once(make_user, make_table):
    require_postgresql()
    game = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(game.pk)
    for version in range(ROUNDS):
        game.refresh_from_db()
        state = load_state(game)
        outcomes = race(game.pk, current_player(state), legal_actions(state), version)
        landed = [outcome for outcome in outcomes if outcome[0] == "landed"]
        assert len(outcomes) == RACERS and len(landed) == 1
        assert sorted(outcomes, key=str) == sorted(
            landed + [("stale", version + 1, None)] * (RACERS - 1), key=str
        )
        game.refresh_from_db()
        assert game.version == version + 1
        assert load_state(game) == apply_action(state, landed[0][2])
    seqs = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, ROUNDS + 1))  # no gap, no duplicate


@pytest.mark.django_db
def test_the_write_is_guarded_by_the_version_even_without_a_row_lock(make_user, make_table):
    """SQLite ignores select_for_update: the UPDATE ... WHERE version = expected still refuses."""
    game = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(game.pk)
    Game.objects.filter(pk=game.pk).update(version=1)
    with pytest.raises(StaleVersion) as error:
        guarded_update(game.pk, 0, version=1, snapshot="overwritten")
    assert error.value.version == 1
    game.refresh_from_db()
    assert game.snapshot != "overwritten"
