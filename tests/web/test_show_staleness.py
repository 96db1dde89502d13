"""A show is not a decision: it makes a new version, yet nobody's pending decision goes stale.

Any seat may show cards at any time, and one seat showing over and over (a flood of `show`
frames) must not refuse another seat's move as `stale`, nor announce the bot's turn again, nor
hide a lost bot turn from the sweep. A real move still makes every older version stale. On the
real services under CI (PostgreSQL); jobs are recorded by `announced`, so nothing runs behind the
test's back and a "lost" job is simply one that was recorded and never run.
"""

import time

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.actors.turn_expiry import expire_turn
from games.engine import current_player, legal_actions, view_for
from games.jobs import sweep
from games.models import Action, Game
from games.services import StaleVersion, load_state, start_game, submit_action
from games.services.table_talk import submit_show
from tests.services import require_redis
from tests.web.conftest import next_frame, state_at_least, ws_connect

pytestmark = pytest.mark.django_db(transaction=True)


def a_card_of(game: Game, seat: int) -> str:
    game.refresh_from_db()
    return view_for(load_state(game), seat)["hand"][0]


def show(game: Game, seat: int, to: int | None = None) -> int:
    """`seat` shows one card of its hand at the game's current version; the new version."""
    card = a_card_of(game, seat)
    return submit_show(game.pk, seat, to, [card], game.version)


def first_legal(game: Game, version: int) -> tuple[int, dict]:
    """The seat to act and its first legal move, as read at `version`."""
    game.refresh_from_db()
    state = load_state(game)
    return current_player(state), legal_actions(state)[0]


def people_game(make_user, make_table, turn_seconds=None) -> Game:
    game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=turn_seconds)
    start_game(game.pk)
    game.refresh_from_db()
    return game


def test_a_move_chosen_before_someone_else_showed_is_accepted(make_user, make_table, announced):
    game = people_game(make_user, make_table)
    seat, action = first_legal(game, 0)  # what the player saw, at version 0
    other = 1 - seat
    assert show(game, other) == 1
    assert show(game, other, to=seat) == 2
    assert submit_action(game.pk, seat, action, expected_version=0) == 3
    game.refresh_from_db()
    assert game.version == 3
    logged = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "seat"))
    assert logged == [(1, other), (2, other), (3, seat)]


def test_a_version_from_before_a_real_move_is_still_stale(make_user, make_table, announced):
    game = people_game(make_user, make_table)
    seat, action = first_legal(game, 0)
    assert submit_action(game.pk, seat, action, expected_version=0) == 1
    next_seat, next_action = first_legal(game, 1)
    with pytest.raises(StaleVersion):  # the version before a real move
        submit_action(game.pk, next_seat, next_action, expected_version=0)
    assert show(game, 1 - next_seat) == 2
    with pytest.raises(StaleVersion):  # still stale with a show after the move
        submit_action(game.pk, next_seat, next_action, expected_version=0)
    with pytest.raises(StaleVersion):  # and a version that does not exist yet
        submit_action(game.pk, next_seat, next_action, expected_version=7)
    assert submit_action(game.pk, next_seat, next_action, expected_version=1) == 3
    game.refresh_from_db()
    assert game.version == 3 and Action.objects.filter(game=game).count() == 3


def test_a_show_announces_no_bot_turn_for_the_unchanged_decision(make_user, make_table, announced):
    game = make_table(2, people={1: make_user()}, bots={0: "random"})
    start_game(game.pk)
    game.refresh_from_db()
    assert first_legal(game, 0)[0] == 0  # the table's seed has the bot start
    assert [name for name, *_ in announced] == ["bot_turn"]
    for _ in range(5):
        show(game, 1)
    assert [name for name, *_ in announced] == ["bot_turn"], announced


def test_the_turn_timer_announced_before_a_show_still_expires_the_turn(
    make_user, make_table, announced
):
    game = people_game(make_user, make_table, turn_seconds=1)
    seat, _ = first_legal(game, 0)
    assert [(name, args) for name, args, _ in announced] == [("turn_expiry", (game.pk, 0))]
    show(game, 1 - seat)
    announced.clear()
    time.sleep(1.2)
    assert expire_turn(game.pk, 0) == "moved"  # the timer announced at version 0
    game.refresh_from_db()
    assert game.version == 2
    assert Action.objects.get(game=game, seq=2).actor == Action.Actor.TIMER


def test_the_sweep_finds_a_lost_bot_turn_while_people_keep_showing(
    make_user, make_table, announced
):
    """The bot's turn is announced (recorded) and never run: lost. Shows every few tenths of a
    second keep the game busy, yet its decision has waited since the start."""
    game = make_table(2, people={1: make_user()}, bots={0: "random"})
    start_game(game.pk)
    assert first_legal(game, 0)[0] == 0  # the table's seed has the bot start
    until = time.monotonic() + sweep.bot_patience() + 0.5
    while time.monotonic() < until:
        show(game, 1)
        time.sleep(0.3)
    assert game.pk in sweep.sweep()["bot_turn"]


@pytest.mark.usefixtures("close_async_db_connections")
async def test_over_sockets_a_move_chosen_before_the_other_seats_shows_is_played(
    make_user, make_table
):
    """The path a page takes: the mover's click carries the version of the state it chose from;
    the other seat's shows arrive in between, over its own socket."""
    if settings.REDIS_URL:
        require_redis()

    def build():
        people = {0: make_user(), 1: make_user()}
        game = make_table(2, people=people)
        start_game(game.pk)
        return game, people

    game, people = await database_sync_to_async(build)()
    sockets = {seat: await ws_connect(f"/ws/games/{game.pk}/", people[seat]) for seat in people}
    seen = {seat: await next_frame(socket, "state") for seat, socket in sockets.items()}
    mover = next(seat for seat, frame in seen.items() if frame["view"]["legal_actions"])
    other = 1 - mover
    chosen, chosen_at = seen[mover]["view"]["legal_actions"][0], seen[mover]["version"]
    version = chosen_at
    for card in seen[other]["view"]["hand"][:3]:
        show = {"type": "show", "to": None, "cards": [card], "expected_version": version}
        await sockets[other].send_json_to(show)
        version = (await state_at_least(sockets[other], version + 1))["version"]
    assert version == chosen_at + 3
    await sockets[mover].send_json_to(
        {"type": "action", "action": chosen, "expected_version": chosen_at}
    )
    while True:
        frame = await next_frame(sockets[mover])
        assert frame.get("type") != "error", frame
        if frame.get("type") == "state" and frame["version"] > version:
            break
    assert frame["version"] == version + 1
    assert frame["log"][-1]["seat"] == mover and frame["log"][-1]["type"] != "show"
    for socket in sockets.values():
        await socket.disconnect()
