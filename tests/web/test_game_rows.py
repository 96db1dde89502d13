"""The fixed statements of every move (games/services/game_rows.py) read and write the rows
exactly as the ORM does: the same values back, JSON and datetimes included, and nothing written
for a move refused as stale."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.engine import current_player, legal_actions
from games.models import Action, Game, Seat
from games.services import GameNotPlaying, StaleVersion, load_state, submit_action
from games.services.actions import guarded_update, locked_game_and_seats, write_move
from games.services.game_rows import insert_action, update_game_and_insert_action

pytestmark = pytest.mark.django_db


def field_values(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in type(row)._meta.concrete_fields}


def a_move(game: Game) -> tuple[int, dict]:
    """The seat to act and one of its legal actions."""
    state = load_state(game)
    return current_player(state), legal_actions(state)[0]


def test_the_locked_read_gives_the_rows_the_orm_gives(timed_game, django_assert_num_queries):
    submit_action(timed_game.pk, *a_move(timed_game), 0)
    with transaction.atomic():
        game, seats = locked_game_and_seats(timed_game.pk)
        with django_assert_num_queries(0):  # each seat holds the game row read
            assert all(seat.game is game for seat in seats)
    expected = Game.objects.get(pk=timed_game.pk)
    assert field_values(game) == field_values(expected)
    assert isinstance(game.seat_deadlines[0], float) and game.turn_deadline.tzinfo is not None
    assert [field_values(seat) for seat in seats] == [
        field_values(seat) for seat in Seat.objects.filter(game=expected).order_by("index")
    ]
    assert not game._state.adding and game._state.db == "default"


def test_no_such_game_is_told_so():
    with transaction.atomic(), pytest.raises(GameNotPlaying):
        locked_game_and_seats(987654)


@pytest.mark.django_db(transaction=True)
def test_the_row_lock_is_refused_outside_a_transaction(timed_game):
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite has no row locks (its transaction holds the write lock)")
    with pytest.raises(TransactionManagementError):
        locked_game_and_seats(timed_game.pk)


def test_a_stale_move_writes_nothing(timed_game):
    submit_action(timed_game.pk, *a_move(timed_game), 0)
    before = field_values(Game.objects.get(pk=timed_game.pk))
    actions = list(Action.objects.filter(game=timed_game).values())
    with pytest.raises(StaleVersion) as refused:
        guarded_update(timed_game.pk, 0, version=1, snapshot="overwritten")
    assert refused.value.version == 1
    assert field_values(Game.objects.get(pk=timed_game.pk)) == before
    assert list(Action.objects.filter(game=timed_game).values()) == actions


def test_a_finished_game_s_fields_are_written_as_the_orm_writes_them(timed_game):
    finished_at = timezone.now() - timedelta(seconds=5)
    result = {"winners": [1], "regions": [2, 4], "reason": "total", "note": 'é ✓ "quoted"'}
    guarded_update(
        timed_game.pk,
        0,
        version=1,
        status=Game.Status.FINISHED,
        finished_at=finished_at,
        result=result,
        turn_deadline=None,
        seat_versions=[1, 0],
        seat_deadlines=[],
    )
    game = Game.objects.get(pk=timed_game.pk)
    assert (game.version, game.status, game.finished_at) == (1, "finished", finished_at)
    assert (game.result, game.turn_deadline) == (result, None)
    assert (game.seat_versions, game.seat_deadlines) == ([1, 0], [])
    assert game.updated_at > timed_game.updated_at
    assert Game.objects.filter(pk=game.pk, result__winners=[1]).exists()  # JSON, not text


def test_none_is_sql_null_in_a_json_column(timed_game):
    guarded_update(timed_game.pk, 0, version=1, result=None)
    assert Game.objects.filter(pk=timed_game.pk, result__isnull=True).exists()


def test_an_expression_is_written_by_the_orm(timed_game):
    guarded_update(timed_game.pk, 0, version=F("version") + 1)
    assert Game.objects.get(pk=timed_game.pk).version == 1


def test_the_action_row_is_the_one_the_orm_would_write(timed_game):
    action = {"type": "play", "card": "m10", "nested": [1, {"a": None}]}
    before = timezone.now()
    insert_action(
        game_id=timed_game.pk, seq=7, seat=1, action=action, public=None, actor="bot", latency_ms=3
    )
    row = Action.objects.get(game=timed_game, seq=7)
    assert (row.seat, row.action, row.public, row.actor, row.latency_ms) == (
        1,
        action,
        None,
        "bot",
        3,
    )
    assert before <= row.created_at <= timezone.now()
    assert Action.objects.filter(pk=row.pk, public__isnull=True, action__card="m10").exists()


def test_an_action_field_left_out_takes_its_default_and_a_wrong_one_is_refused(timed_game):
    insert_action(game_id=timed_game.pk, seq=8, seat=0, action={"type": "pass"}, actor="human")
    assert Action.objects.get(game=timed_game, seq=8).latency_ms is None
    with pytest.raises(TypeError):
        insert_action(game_id=timed_game.pk, seq=9, seat=0, action={}, actor="human", colour=1)


def test_a_move_s_rows_match_what_the_move_made(timed_game):
    seat, move = a_move(timed_game)
    version = submit_action(timed_game.pk, seat, move, 0, latency_ms=12)
    game = Game.objects.get(pk=timed_game.pk)
    logged = Action.objects.get(game=game, seq=version)
    assert (logged.seat, logged.action, logged.actor) == (seat, move, "human")
    assert logged.latency_ms == 12
    assert game.version == version and load_state(game) is not None
    assert game.turn_deadline is not None and len(game.seat_deadlines) == 2


def test_a_stale_move_is_refused_with_neither_row_written(timed_game):
    """On PostgreSQL the game row and the action are one statement (the insert takes its row
    from the update's); on SQLite two in turn: either way, a stale version writes nothing."""
    submit_action(timed_game.pk, *a_move(timed_game), 0)
    before = field_values(Game.objects.get(pk=timed_game.pk))
    logged = {"game_id": timed_game.pk, "seq": 2, "seat": 0, "action": {}, "actor": "human"}
    with pytest.raises(StaleVersion) as refused:
        write_move(timed_game.pk, 0, {"version": 1, "snapshot": "overwritten"}, logged)
    assert refused.value.version == 1
    assert field_values(Game.objects.get(pk=timed_game.pk)) == before
    assert not Action.objects.filter(game=timed_game, seq=2).exists()


def test_the_move_s_two_rows_are_written_together(timed_game):
    fields = {"version": 1, "seat_versions": [1, 1], "seat_deadlines": [12.5, None]}
    public = {"type": "play", "card": "m1"}
    logged = {"game_id": timed_game.pk, "seq": 1, "seat": 0, "action": public, "public": public}
    one_statement = update_game_and_insert_action(timed_game.pk, 0, fields, logged)
    assert one_statement == (1 if connection.vendor == "postgresql" else None)
    if one_statement is None:
        write_move(timed_game.pk, 0, fields, logged)
    game = Game.objects.get(pk=timed_game.pk)
    assert (game.version, game.seat_versions, game.seat_deadlines) == (1, [1, 1], [12.5, None])
    row = Action.objects.get(game=game, seq=1)
    assert (row.action, row.public, row.actor, row.latency_ms) == (public, public, "", None)
