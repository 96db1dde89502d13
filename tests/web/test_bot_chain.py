"""A bot job plays the next lone bot's turns itself when no pause is shown (bot_chain.py):
each move committed before the next is chosen, a bounded chain, a person's turn or a pause
ending it, and a kept turn that fails announced as any other."""

import pytest

from games import tasks
from games.jobs import bot_chain, pending_bot_turns
from games.models import Action, Game
from games.rules_api import ruleset_of
from games.services import start_game
from games.services.frames import load_state

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_marks_left():
    pending_bot_turns.forget_all()
    yield
    pending_bot_turns.forget_all()


def started(make_table, players: int, people: dict, bots: dict) -> Game:
    game = make_table(players, people=people, bots=bots)
    start_game(game.pk)
    game.refresh_from_db()
    return game


def bot_turns(announced) -> list[tuple]:
    return [args for name, args, _delay in announced if name == "bot_turn"]


def test_a_table_of_bots_plays_a_bounded_chain_then_announces_the_next_turn(make_table, announced):
    game = started(make_table, 3, {}, {0: "random", 1: "random", 2: "random"})
    [first] = bot_turns(announced)
    announced.clear()

    assert tasks.bot_turn(*first) == "moved"

    game.refresh_from_db()
    moves = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "actor"))
    assert 2 <= len(moves) <= bot_chain.LONGEST_CHAIN + 1
    assert [seq for seq, _ in moves] == list(range(1, game.version + 1))
    assert {actor for _, actor in moves} == {Action.Actor.BOT}
    if game.status == Game.Status.PLAYING:  # the chain's last turn goes to the broker
        [(game_id, version, *_)] = bot_turns(announced)
        assert (game_id, version) == (game.pk, game.version)


@pytest.fixture
def told(monkeypatch):
    """The version notices sent to the games' groups, as sent."""
    notices = []

    def record(group, message):
        if message.get("type") == "game.version":
            notices.append(message)

    monkeypatch.setattr("games.services.notify.group_send_now", record)
    return notices


def told_versions(notice: dict) -> list[int]:
    """The versions a notice tells of, each by its move's change, oldest first."""
    moves = [*notice.get("earlier", ()), notice]
    assert all(move["change"]["log"]["seq"] == move["version"] for move in moves)
    return [move["version"] for move in moves]


def test_a_chain_tells_its_moves_in_one_notice_each_with_its_change(make_table, announced, told):
    game = started(make_table, 3, {}, {0: "random", 1: "random", 2: "random"})
    [first] = bot_turns(announced)
    told.clear()

    assert tasks.bot_turn(*first) == "moved"

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.version >= 2
    [notice] = told
    assert told_versions(notice) == list(range(1, game.version + 1))


def test_the_chain_stops_at_a_persons_turn(make_user, make_table, announced):
    game = started(make_table, 2, {1: make_user()}, {0: "random"})
    [first] = bot_turns(announced)
    announced.clear()

    assert tasks.bot_turn(*first) == "moved"

    game.refresh_from_db()
    # The bot played its turns until the person's; nothing more was played or announced.
    assert game.version >= 1
    actors = set(Action.objects.filter(game=game).values_list("actor", flat=True))
    assert actors == {Action.Actor.BOT}
    assert ruleset_of(game).acting_seats(load_state(game)) == {1}
    assert bot_turns(announced) == []


def test_with_a_pause_to_show_no_turn_is_kept(settings, make_table, announced):
    settings.BOT_MOVE_DELAY = 0.8
    game = started(make_table, 3, {}, {0: "random", 1: "random", 2: "random"})
    [first] = bot_turns(announced)
    announced.clear()

    assert tasks.bot_turn(*first) == "announced"  # the move waits for its pause
    [(name, args, delay)] = announced
    assert name == "bot_move" and delay > 0.5
    assert tasks.bot_move(*args) == "moved"

    game.refresh_from_db()
    assert game.version == 1
    [(game_id, version, *_)] = bot_turns(announced)
    assert (game_id, version) == (game.pk, 1)


def test_a_kept_turn_that_fails_is_announced_and_the_error_goes_on(
    make_table, announced, monkeypatch, told
):
    game = started(make_table, 3, {}, {0: "random", 1: "random", 2: "random"})
    [first] = bot_turns(announced)
    announced.clear()
    told.clear()
    from games.actors import bot_turn

    chosen = []
    real_choose = bot_turn.choose_move

    def choose_once(*args, **kwargs):
        if chosen:
            raise RuntimeError("the second decision fails")
        chosen.append(args)
        return real_choose(*args, **kwargs)

    monkeypatch.setattr(bot_turn, "choose_move", choose_once)

    with pytest.raises(RuntimeError):
        tasks.bot_turn(*first)

    game.refresh_from_db()
    assert game.version == 1
    [(game_id, version, *_)] = bot_turns(announced)
    assert (game_id, version) == (game.pk, 1)
    # The move whose kept turn failed is told all the same, at the chain's end.
    [notice] = told
    assert told_versions(notice) == [1]
