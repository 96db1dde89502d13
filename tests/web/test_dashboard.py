"""The staff dashboard: every figure against a database (and a broker) set up here.

Expected numbers are worked out by hand from the rules the dashboard states: games finished per
day in the site's time zone (live games only), bot latency as the continuous percentile
(linear interpolation between closest ranks, PostgreSQL's percentile_cont), a win shared by k
winners counting 1/k.
"""

import re
import threading
import uuid
from collections import Counter
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import jobs
from games.models import Action, Game, Presence, Seat
from games.sockets import presence
from games.staff import dashboard
from tests.services import require_redis
from tests.web.conftest import ws_connect

pytestmark = pytest.mark.django_db


def finished_game(
    make_table,
    when,
    *,
    source=Game.Source.LIVE,
    status=Game.Status.FINISHED,
    bots=None,
    winners=(0,),
    players=2,
):
    game = make_table(players, bots=bots)
    Game.objects.filter(pk=game.pk).update(
        status=status,
        source=source,
        finished_at=when,
        result={"winners": list(winners), "regions": [0] * players, "reason": "test"},
    )
    return game


def at_noon(day):
    return timezone.make_aware(timezone.datetime.combine(day, timezone.datetime.min.time()))


# --- Games ----------------------------------------------------------------------------------------


def test_finished_per_day_counts_live_finished_games_on_their_day(make_table):
    today = timezone.localdate()
    noon = lambda days_ago: at_noon(today - timedelta(days=days_ago)) + timedelta(hours=12)  # noqa: E731
    for days_ago in (0, 0, 3, 29, 30):
        finished_game(make_table, noon(days_ago))
    finished_game(make_table, noon(0), source=Game.Source.IMPORTED)  # not played here
    finished_game(make_table, noon(0), status=Game.Status.ABORTED)  # not finished

    series = dashboard.finished_per_day()

    assert len(series) == 30
    assert series[0]["day"] == today - timedelta(days=29)
    assert series[-1]["day"] == today
    counts = {point["day"]: point["count"] for point in series}
    assert counts[today] == 2
    assert counts[today - timedelta(days=3)] == 1
    assert counts[today - timedelta(days=29)] == 1  # the 30th day back falls outside
    assert sum(counts.values()) == 4


def test_games_in_progress_are_the_playing_ones(make_table):
    playing = [make_table(2), make_table(3)]
    Game.objects.filter(pk__in=[g.pk for g in playing]).update(
        status=Game.Status.PLAYING, started_at=timezone.now()
    )
    make_table(2)  # open
    finished_game(make_table, timezone.now())

    assert {g.pk for g in dashboard.games_in_progress()} == {g.pk for g in playing}
    assert dashboard.open_tables_count() == 1


# --- Bot latency ----------------------------------------------------------------------------------


def log_action(game, seq, actor, latency_ms, created_at=None):
    action = Action.objects.create(
        game=game, seq=seq, seat=0, action={"type": "pass"}, actor=actor, latency_ms=latency_ms
    )
    if created_at is not None:
        Action.objects.filter(pk=action.pk).update(created_at=created_at)


def test_bot_latency_median_and_95th_percentile(make_table):
    game = make_table(2)
    recent = [
        (Action.Actor.BOT, 300),
        (Action.Actor.STANDIN, 100),
        (Action.Actor.BOT, 1000),
        (Action.Actor.BOT, 200),
        (Action.Actor.STANDIN, 400),
    ]
    seq = 0
    for seq, (actor, latency) in enumerate(recent, start=1):
        log_action(game, seq, actor, latency)
    log_action(game, seq + 1, Action.Actor.BOT, 5000, timezone.now() - timedelta(hours=25))
    log_action(game, seq + 2, Action.Actor.HUMAN, 9999)  # a person's move: not a bot's latency
    log_action(game, seq + 3, Action.Actor.BOT, None)  # no latency recorded

    figures = dashboard.bot_latency()

    # Last 24 h: 100 200 300 400 1000 -> median 300; p95 at rank 3.8 -> 400 + 0.8 * 600 = 880.
    assert figures["last_24h"] == {"count": 5, "median_ms": 300, "p95_ms": pytest.approx(880)}
    # All time adds 5000: median between 300 and 400; p95 at rank 4.75 -> 1000 + 0.75 * 4000.
    assert figures["all_time"] == {
        "count": 6,
        "median_ms": pytest.approx(350),
        "p95_ms": pytest.approx(4000),
    }


def test_bot_latency_without_bot_moves_is_empty():
    assert dashboard.latency_summary() == {"count": 0, "median_ms": None, "p95_ms": None}


def test_percentile_interpolates_between_ranks():
    assert dashboard.percentile([10], 0.95) == 10
    assert dashboard.percentile([0, 100], 0.5) == 50
    assert dashboard.percentile([1, 2, 3, 4], 0.95) == pytest.approx(3.85)


# --- Bot win rates --------------------------------------------------------------------------------


def test_bot_win_rates_by_level_share_a_shared_win(make_table, make_user):
    now = timezone.now()
    person = make_user()
    three = finished_game(make_table, now, players=3, bots={0: "easy", 1: "hard"}, winners=[1])
    Seat.objects.filter(game=three, index=2).update(user=person)
    finished_game(make_table, now, bots={0: "hard", 1: "easy"}, winners=[0, 1])  # shared
    finished_game(make_table, now, bots={0: "hard"}, winners=[0], source=Game.Source.IMPORTED)
    finished_game(make_table, now, bots={0: "easy"}, winners=[0], status=Game.Status.ABORTED)
    playing = make_table(2, bots={0: "hard"})
    Game.objects.filter(pk=playing.pk).update(status=Game.Status.PLAYING)

    rates = dashboard.bot_win_rates()

    # easy: seats in both finished games, half a win; hard: one win and half a win.
    assert rates == [
        {"level": "easy", "seats": 2, "wins": 0.5, "win_rate": 0.25},
        {"level": "hard", "seats": 2, "wins": 1.5, "win_rate": 0.75},
    ]


# --- People connected -----------------------------------------------------------------------------


def test_people_connected_counts_distinct_people_and_anonymous_sockets(make_user, make_table):
    alice, bob, carol = make_user(), make_user(), make_user()
    game = make_table(2)
    Presence.objects.create(channel_name="a1", user=alice)
    Presence.objects.create(channel_name="a2", user=alice, game=game)
    Presence.objects.create(channel_name="b1", user=bob, game=game)
    Presence.objects.create(channel_name="anon1")
    Presence.objects.create(channel_name="anon2", game=game)
    Presence.objects.create(channel_name="stale", user=carol)
    Presence.objects.filter(channel_name="stale").update(
        seen_at=timezone.now() - presence.PRESENCE_MAX_AGE - timedelta(minutes=1)
    )

    figures = dashboard.people_connected()

    assert figures == {"people": 2, "anonymous_sockets": 2, "sockets": 5, "in_games": 3}
    assert not Presence.objects.filter(channel_name="stale").exists()  # a crashed server's row


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_socket_has_a_presence_row_while_it_is_open(make_user, make_table, start_stacked):
    from channels.db import database_sync_to_async

    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(make_table)(2, people={0: alice}, bots={1: "easy"})
    await database_sync_to_async(start_stacked)(game)
    rows = database_sync_to_async(
        lambda: Counter((p.user_id, p.game_id) for p in Presence.objects.all())
    )

    lobby_socket = await ws_connect("/ws/lobby/", alice)
    anonymous = await ws_connect("/ws/lobby/")
    game_socket = await ws_connect(f"/ws/games/{game.pk}/", alice)
    for socket in (lobby_socket, anonymous, game_socket):
        await socket.receive_json_from()  # connected and served: the row is written by then
    assert await rows() == Counter([(alice.pk, None), (None, None), (alice.pk, game.pk)])

    await game_socket.disconnect()
    assert await rows() == Counter([(alice.pk, None), (None, None)])
    await lobby_socket.disconnect()
    await anonymous.disconnect()
    assert await rows() == Counter()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_socket_whose_slot_release_fails_still_deletes_its_presence_row(
    make_user, make_table, start_stacked, monkeypatch
):
    """A closing socket gives back its place under the socket caps (Redis in production) before
    its row goes. A failure there must not leave the row behind: the dashboard would count the
    closed socket as connected for minutes, and a browser test waiting for every socket's close
    waited in vain."""
    from channels.db import database_sync_to_async

    from games.sockets.slots import SocketSlot

    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(make_table)(2, people={0: alice}, bots={1: "easy"})
    await database_sync_to_async(start_stacked)(game)
    lobby_socket = await ws_connect("/ws/lobby/", alice)
    game_socket = await ws_connect(f"/ws/games/{game.pk}/", alice)
    for socket in (lobby_socket, game_socket):
        await socket.receive_json_from()  # connected and served: the row is written by then
    count = database_sync_to_async(lambda: Presence.objects.count())
    assert await count() == 2

    async def broken_release(self):
        raise ConnectionError("Redis went away")

    monkeypatch.setattr(SocketSlot, "release", broken_release)
    for socket in (lobby_socket, game_socket):
        with pytest.raises(ConnectionError):
            await socket.disconnect()
    assert await count() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
@pytest.mark.parametrize("kind", ["lobby", "game"])
async def test_a_socket_whose_connect_fails_after_its_row_is_written_leaves_no_row(
    kind, make_user, make_table, start_stacked, monkeypatch
):
    """Channels calls disconnect only after a connect that returned: a connect that raises after
    the row is written (its first frame failing, say) must still delete the row and give back
    its place under the socket caps."""
    from channels.db import database_sync_to_async

    from games.sockets import slots as socket_slots
    from games.sockets.game import GameConsumer
    from games.sockets.lobby import LobbyConsumer

    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(make_table)(2, people={0: alice}, bots={1: "easy"})
    await database_sync_to_async(start_stacked)(game)
    consumer, first_frame = {
        "lobby": (LobbyConsumer, "send_tables"),
        "game": (GameConsumer, "send_state"),
    }[kind]
    released = []
    real_release = socket_slots.SocketSlot.release

    async def failing_first_frame(self):
        raise RuntimeError("the first frame failed")

    async def counted_release(self):
        released.append(self.member)
        await real_release(self)

    monkeypatch.setattr(consumer, first_frame, failing_first_frame)
    monkeypatch.setattr(socket_slots.SocketSlot, "release", counted_release)
    path = "/ws/lobby/" if kind == "lobby" else f"/ws/games/{game.pk}/"
    socket = await ws_connect(path, alice)  # accepted: the failure comes with the first frame
    with pytest.raises(RuntimeError, match="the first frame failed"):
        await socket.receive_output()

    assert await database_sync_to_async(lambda: Presence.objects.count())() == 0
    assert len(released) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_async_db_connections")
async def test_a_socket_left_open_longer_than_the_stale_age_still_counts(make_user, monkeypatch):
    """A tab left open all day is a live socket: its heartbeat keeps its row fresh, while a
    crashed server's row (no heartbeat) goes stale."""
    import asyncio

    from channels.db import database_sync_to_async

    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.05)
    alice = await database_sync_to_async(make_user)("alice")
    socket = await ws_connect("/ws/lobby/", alice)
    await socket.receive_json_from()
    long_ago = timezone.now() - presence.PRESENCE_MAX_AGE - timedelta(hours=1)
    live = database_sync_to_async(lambda: list(presence.live_presences().values_list("user_id")))

    def backdate_then_count_live():
        # One transaction: a heartbeat's touch waits for the backdated row's lock, so none falls
        # between the two.
        with transaction.atomic():
            Presence.objects.update(seen_at=long_ago)
            return presence.live_presences().count()

    # Without a heartbeat this socket would no longer count.
    assert await database_sync_to_async(backdate_then_count_live)() == 0

    deadline = asyncio.get_running_loop().time() + 5
    while not await live():
        assert asyncio.get_running_loop().time() < deadline, "the heartbeat never touched the row"
        await asyncio.sleep(0.05)
    assert await live() == [(alice.pk,)]

    await socket.disconnect()
    await asyncio.sleep(0.2)  # a heartbeat after the close would not bring the row back
    assert await database_sync_to_async(Presence.objects.count)() == 0


# --- The task queue -------------------------------------------------------------------------------


def test_queue_depth_is_the_length_of_the_redis_queue():
    import redis

    url = require_redis()
    queue = f"test-dashboard-{uuid.uuid4().hex}"  # a private list: never the real queue
    client = redis.Redis.from_url(url)
    try:
        client.rpush(queue, *[f"message {i}" for i in range(7)])
        assert dashboard.queue_depth(queue, redis_url=url) == {
            "broker": "redis",
            "queue": queue,
            "depth": 7,
        }
    finally:
        client.delete(queue)
        client.close()
    assert dashboard.queue_depth(queue, redis_url=url)["depth"] == 0


def test_queue_depth_counts_the_analyses_waiting_at_the_last_priority(settings):
    """An analysis's slices wait in the queue's list of the last priority step: the depth is of
    every message the workers will take, sent here through the real broker."""
    import redis

    url = require_redis()
    queue = f"test-dashboard-{uuid.uuid4().hex}"
    settings.JOB_RUNNER = jobs.CELERY
    settings.JOB_QUEUES = dict.fromkeys(settings.JOB_QUEUES, queue)
    client = redis.Redis.from_url(url)
    try:
        for analysis_id in range(3):
            jobs.later("analysis", analysis_id)
        jobs.later("hint", "a-token")
        assert dashboard.queue_depth(queue, redis_url=url)["depth"] == 4
    finally:
        client.delete(*jobs.broker_lists(queue))
        client.close()


def test_the_dashboard_shows_each_queue_waiting(staff_client, settings):
    """Play and background work each have a figure: a deep background queue says so without
    hiding how the play queue does."""
    require_redis()
    settings.JOB_QUEUES = {jobs.PLAY: "test-play-figure", jobs.BACKGROUND: "test-background-figure"}
    page = staff_client.get(reverse("staff_dashboard")).content.decode()
    for queue in settings.JOB_QUEUES.values():
        assert f'data-figure="queue-{queue}"' in page
        assert f"messages waiting in the Celery queue “{queue}”" in page


def test_an_unreachable_broker_gives_no_number():
    figures = dashboard.queue_depth("celery", redis_url="redis://127.0.0.1:1/0")
    assert figures["depth"] is None and figures["error"]


def test_without_a_broker_the_depth_is_the_in_process_jobs_not_finished(monkeypatch, settings):
    settings.REDIS_URL = ""
    settings.JOB_RUNNER = "in_process"
    release = threading.Event()
    monkeypatch.setitem(jobs._registry, "hold", lambda: release.wait(5))
    try:
        for _ in range(jobs.IN_PROCESS_WORKERS[jobs.PLAY] + 2):  # two of them wait for a thread
            jobs.later("hold")
        assert dashboard.queue_depth() == {
            "broker": "in_process",
            "queue": None,
            "depth": jobs.IN_PROCESS_WORKERS[jobs.PLAY] + 2,
        }
    finally:
        release.set()
    assert jobs.wait_until_idle(timeout=10)
    assert dashboard.queue_depth()["depth"] == 0


# --- The chart and the page -----------------------------------------------------------------------


def test_chart_bars_scale_to_the_tallest_day():
    series = [{"day": i, "count": count} for i, count in enumerate([0, 2, 4])]
    chart = dashboard.chart_bars(series, width=300, height=100, gap=0)
    assert [bar["height"] for bar in chart["bars"]] == [0, 50, 100]
    assert [bar["y"] for bar in chart["bars"]] == [100, 50, 0]
    assert [bar["x"] for bar in chart["bars"]] == [0, 100, 200]
    assert chart["top"] == 4


def figure(html: str, name: str) -> str:
    match = re.search(rf'data-figure="{name}">\s*([^<\s]+)', html)
    assert match, f"no figure {name}"
    return match.group(1)


def test_the_page_shows_the_figures_to_staff(client, make_user, make_table):
    staff = make_user("boss")
    staff.is_staff = True
    staff.save()
    game = make_table(2, bots={0: "easy", 1: "hard"})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING, started_at=timezone.now())
    finished_game(make_table, timezone.now(), bots={0: "easy", 1: "hard"}, winners=[1])
    Presence.objects.create(channel_name="x", user=staff)
    Presence.objects.create(channel_name="y")
    log_action(game, 1, Action.Actor.BOT, 250)
    client.force_login(staff)

    response = client.get(reverse("staff_dashboard"))

    assert response.status_code == 200
    html = response.content.decode()
    assert figure(html, "playing") == "1"
    assert figure(html, "open-tables") == "0"
    assert figure(html, "people") == "1"
    assert figure(html, "anonymous") == "1"
    assert figure(html, "finished-30") == "1"
    assert reverse("game", args=[game.pk]) in html  # a link to watch it
    assert "250 ms" in html
    assert "100.0 %" in html and "0.0 %" in html  # hard won its game, easy did not
    assert html.count('class="staff-chart__bar"') == 30


def test_people_who_are_not_staff_are_sent_to_log_in(client, make_user):
    url = reverse("staff_dashboard")
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(make_user())
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
