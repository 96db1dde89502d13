"""A move on PostgreSQL outside a transaction takes no lock (games/services/actions.py): one
statement reads the game and its seats, one writes the game row and the Action row, and the write
lands only if no transaction wrote the game row since the read. Whatever changed the row in
between (another move, a seat taken back by its person, an abort), the move is judged again under
the lock, as if it had come after that change."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from games.engine import apply_action, current_player, legal_actions
from games.models import Action, Game
from games.services import GameNotPlaying, StaleVersion, actions, load_state, submit_action
from games.services.errors import NotBotTurn
from games.services.lifecycle import abort_game
from games.services.seats import hand_to_bot, take_back_seat
from tests.services import require_postgresql

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    require_postgresql()  # SQLite keeps its one writer: moves there always take the lock way


def a_move(game: Game) -> tuple[int, dict]:
    """The seat to act and one of its legal actions."""
    state = load_state(game)
    return current_player(state), legal_actions(state)[0]


def committed_elsewhere(change) -> None:
    """Run `change()` on another thread, so on a connection of its own, committed on return."""
    failures = []

    def run():
        try:
            change()
        except Exception as error:  # handed back to the test
            failures.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the change blocked: the move held a lock it should not"
    if failures:
        raise failures[0]


@pytest.fixture
def between_read_and_write(monkeypatch):
    """`arrange(change)`: the next move, once it has read the game and planned its rows and
    before it writes them, waits while `change` commits on another connection. Records whether
    that move was planned outside a transaction (the unlocked way)."""
    seen = {}
    real_plan = actions.plan_move

    def arrange(change):
        def planned(*args, **kwargs):
            move = real_plan(*args, **kwargs)
            if "unlocked" not in seen:
                seen["unlocked"] = connection.get_autocommit()
                committed_elsewhere(change)
            return move

        monkeypatch.setattr(actions, "plan_move", planned)
        return seen

    return arrange


def written_moves(game: Game) -> list[tuple[int, int, str]]:
    return list(
        Action.objects.filter(game=game).order_by("seq").values_list("seq", "seat", "actor")
    )


def test_a_move_is_one_read_and_one_write_without_a_lock(timed_game, announced):
    seat, action = a_move(timed_game)
    with CaptureQueriesContext(connection) as queries:
        assert submit_action(timed_game.pk, seat, action, 0) == 1
    statements = [query["sql"] for query in queries.captured_queries]
    assert len(statements) == 2, statements
    read, write = statements
    assert "FOR UPDATE" not in read and "games_seat" in read and "games_game" in read
    assert write.startswith("WITH moved AS (UPDATE") and "xmin" in write
    assert written_moves(timed_game) == [(1, seat, "human")]


def game_columns(game_id: int) -> dict:
    """The game row but its identity and the moments it was written at (clocks included)."""
    row = Game.objects.filter(pk=game_id).values().get()
    for moment in ("id", "invite_code", "created_at", "started_at", "updated_at"):
        row.pop(moment)
    row["turn_deadline"] = row["turn_deadline"] is not None
    row["seat_deadlines"] = [deadline is not None for deadline in row["seat_deadlines"]]
    return row


def test_the_unlocked_move_writes_the_rows_the_locked_one_writes(make_user, make_table, announced):
    games = []
    for _ in range(2):
        game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=30)
        actions.start_game(game.pk)
        game.refresh_from_db()
        games.append(game)
    unlocked, locked = games
    for version in range(3):
        seat, action = a_move(Game.objects.get(pk=unlocked.pk))
        submit_action(unlocked.pk, seat, action, version)
        with transaction.atomic():  # a caller's transaction: the move takes the lock
            submit_action(locked.pk, seat, action, version)
    assert game_columns(unlocked.pk) == game_columns(locked.pk)
    fields = ("seq", "seat", "action", "public", "actor")
    assert list(Action.objects.filter(game=unlocked).order_by("seq").values_list(*fields)) == list(
        Action.objects.filter(game=locked).order_by("seq").values_list(*fields)
    )


def test_a_move_overtaken_by_the_same_move_is_refused_as_stale(
    timed_game, announced, between_read_and_write
):
    seat, action = a_move(timed_game)
    seen = between_read_and_write(lambda: submit_action(timed_game.pk, seat, action, 0))
    with pytest.raises(StaleVersion):
        submit_action(timed_game.pk, seat, action, 0)
    assert seen["unlocked"] is True
    assert written_moves(timed_game) == [(1, seat, "human")]


def test_a_bot_move_whose_seat_its_person_took_back_meanwhile_is_refused(
    timed_game, announced, between_read_and_write
):
    """Taking a seat back changes no version: only the game row's stamp tells the move."""
    seat, action = a_move(timed_game)
    person = timed_game.seats.get(index=seat).user
    hand_to_bot(timed_game.pk, person)
    seen = between_read_and_write(lambda: take_back_seat(timed_game.pk, person))
    with pytest.raises(NotBotTurn):
        submit_action(timed_game.pk, seat, action, 0, actor="bot")
    assert seen["unlocked"] is True
    assert written_moves(timed_game) == []
    assert Game.objects.get(pk=timed_game.pk).version == 0


def test_a_move_in_a_game_aborted_meanwhile_is_refused(
    timed_game, announced, between_read_and_write
):
    """An abort changes no version either."""
    seat, action = a_move(timed_game)
    seen = between_read_and_write(lambda: abort_game(timed_game.pk))
    with pytest.raises(GameNotPlaying):
        submit_action(timed_game.pk, seat, action, 0)
    assert seen["unlocked"] is True
    assert written_moves(timed_game) == []
    assert Game.objects.get(pk=timed_game.pk).status == Game.Status.ABORTED


def test_a_move_whose_game_row_was_written_meanwhile_still_lands_if_nothing_moved(
    timed_game, announced, between_read_and_write
):
    """A write that changes nothing the move depends on (here the sweep's claim of the game)
    costs the move its unlocked write, not its acceptance."""
    seat, action = a_move(timed_game)
    seen = between_read_and_write(
        lambda: Game.objects.filter(pk=timed_game.pk).update(due_claimed_until=None)
    )
    assert submit_action(timed_game.pk, seat, action, 0) == 1
    assert seen["unlocked"] is True
    assert written_moves(timed_game) == [(1, seat, "human")]


def played_to_a_move_that_hands_the_turn(game: Game) -> tuple[int, int, dict]:
    """(version, seat, action): the game played on (first legal moves) until its seat to act
    has a move after which the other seat acts; that move, not played."""
    for version in range(40):
        state = load_state(Game.objects.get(pk=game.pk))
        seat = current_player(state)
        for action in legal_actions(state):
            if current_player(apply_action(state, action)) != seat:
                return version, seat, action
        submit_action(game.pk, seat, legal_actions(state)[0], version)
    raise AssertionError("no move handed the turn over in 40 moves")


def test_a_move_that_hands_the_turn_to_a_seat_given_to_its_bot_meanwhile_calls_the_bot(
    timed_game, announced, between_read_and_write
):
    """The other seat's person hands it to the stand-in bot while this move is planned: the
    move must see it, and announce the bot's turn rather than start that person's clock."""
    version, seat, action = played_to_a_move_that_hands_the_turn(timed_game)
    other = timed_game.seats.exclude(index=seat).get()
    seen = between_read_and_write(lambda: hand_to_bot(timed_game.pk, other.user))
    assert submit_action(timed_game.pk, seat, action, version) == version + 1
    assert seen["unlocked"] is True
    state = load_state(Game.objects.get(pk=timed_game.pk))
    assert current_player(state) == other.index
    assert [name for name, args, delay in announced if name == "bot_turn"] == ["bot_turn"]
