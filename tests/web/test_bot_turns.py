"""Bot turns: the job's function, the in-process runner (the Celery runner has its own test with
a real worker, test_celery_worker.py), and the sweep that announces a lost bot turn again."""

import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone

import ai
from games import jobs
from games.actors.choosing import derived_seed
from games.engine import Options, current_player, legal_actions, new_game, view_for, winners
from games.jobs import sweep
from games.models import Action, Game, Seat
from games.services import StaleVersion, load_state, start_game, submit_action
from games.services.followups import pause_before_choosing
from games.tasks import bot_move as play_bot_move
from games.tasks import bot_turn as play_bot_turn
from tests.web.conftest import replay_log


class SpyBot:
    """Records what it is given; plays the first legal action."""

    def __init__(self, calls: list, level: str, seed):
        self.calls, self.level, self.seed = calls, level, seed

    def choose(self, *args, **kwargs):
        self.calls.append((self.level, self.seed, args, kwargs))
        return args[0]["legal_actions"][0]


@pytest.fixture
def spy_bots(monkeypatch):
    calls = []
    monkeypatch.setattr(
        ai, "make_bot", lambda level, seed=None, **budget: SpyBot(calls, level, seed)
    )
    return calls


@pytest.fixture
def bot_game(make_table):
    def make(bots=None, seed=5):
        game = make_table(2, bots=bots or {0: "heuristic", 1: "heuristic"}, seed=seed)
        start_game(game.pk)
        game.refresh_from_db()
        return game

    return make


@pytest.mark.django_db
def test_the_bot_is_given_its_seats_view_and_nothing_else(bot_game, spy_bots):
    game = bot_game()
    state = load_state(game)
    seat = current_player(state)
    assert play_bot_turn(game.pk, 0) == "moved"
    [(level, seed, args, kwargs)] = spy_bots
    assert args == (view_for(state, seat),) and kwargs == {}
    assert level == "heuristic" and seed == derived_seed(game.seed, 0)
    logged = Action.objects.get(game=game)
    assert (logged.seat, logged.actor, logged.action) == (seat, "bot", args[0]["legal_actions"][0])


@pytest.mark.django_db
def test_the_same_game_and_version_give_the_same_move(bot_game):
    moves = []
    for _ in range(2):
        game = bot_game(bots={0: "random", 1: "random"}, seed=77)
        play_bot_turn(game.pk, 0)
        moves.append(Action.objects.get(game=game).action)
    assert moves[0] == moves[1]


@pytest.mark.django_db
def test_a_level_not_written_yet_falls_back_to_random(bot_game, monkeypatch):
    real = ai.make_bot

    def make_bot(level, **kwargs):
        if level != "random":
            raise NotImplementedError(level)
        return real(level, **kwargs)

    monkeypatch.setattr(ai, "make_bot", make_bot)
    game = bot_game(bots={0: "expert", 1: "expert"})
    assert play_bot_turn(game.pk, 0) == "moved"


@pytest.mark.django_db
@pytest.mark.parametrize("thinking", [0.0, 0.3])
def test_every_bot_decision_is_shown_the_move_delay_after_it_was_asked_for(
    bot_game, settings, monkeypatch, announced, thinking
):
    """Thinking plus the announced pause is the same for every decision: the pause tells
    nothing about what was decided or how hard it was."""
    settings.BOT_MOVE_DELAY = 0.6
    real_make_bot = ai.make_bot

    class SlowBot:
        def __init__(self, bot):
            self.bot = bot

        def choose(self, view):
            time.sleep(thinking)
            return self.bot.choose(view)

    monkeypatch.setattr(ai, "make_bot", lambda *a, **k: SlowBot(real_make_bot(*a, **k)))
    game = bot_game(bots={0: "random", 1: "random"})
    asked_at = time.time()
    assert play_bot_turn(game.pk, 0, asked_at) == "announced"
    [(_, _, pause)] = announced
    assert pause == pytest.approx(0.6 - thinking, abs=0.1)


@pytest.mark.django_db
def test_a_stale_version_at_submission_is_normal(bot_game, monkeypatch):
    game = bot_game(bots={0: "random", 1: "random"})

    def someone_moved_first(*args, **kwargs):
        raise StaleVersion(version=1)

    monkeypatch.setattr("games.actors.bot_turn.submit_action", someone_moved_first)
    assert play_bot_turn(game.pk, 0) == "stale"


@pytest.mark.django_db
def test_the_bots_pause_is_announced_not_slept(bot_game, spy_bots, settings, announced):
    """A worker is never held idle by a bot's pause: the chosen move is announced for later."""
    settings.BOT_MOVE_DELAY = 2
    game = bot_game()
    state = load_state(game)
    started = time.monotonic()
    assert play_bot_turn(game.pk, 0, time.time()) == "announced"
    assert time.monotonic() - started < 1
    [(name, (game_id, version, seat, action, _asked_at), delay)] = announced
    assert (name, game_id, version, seat) == ("bot_move", game.pk, 0, current_player(state))
    assert 1 < delay <= 2
    assert not Action.objects.filter(game=game).exists()
    assert play_bot_move(game.pk, 0, seat, action, time.time() - 2) == "moved"
    logged = Action.objects.get(game=game)
    assert (logged.seq, logged.action, logged.actor) == (1, action, "bot")
    assert 2000 <= logged.latency_ms < 3000
    assert play_bot_move(game.pk, 0, seat, action, time.time()) == "stale"  # played once only


@pytest.mark.django_db
def test_a_chosen_move_is_dropped_if_the_person_took_the_seat_back(
    make_user, make_table, spy_bots, settings, announced
):
    settings.BOT_MOVE_DELAY = 2
    alice = make_user("alice")
    game = make_table(2, people={0: alice, 1: make_user()}, seed=5)
    start_game(game.pk)
    to_act = current_player(load_state(Game.objects.get(pk=game.pk)))
    person = Seat.objects.get(game=game, index=to_act)
    Seat.objects.filter(pk=person.pk).update(standin=True)
    assert play_bot_turn(game.pk, 0, time.time()) == "announced"
    [(_, (_, _, seat, action, asked_at), _)] = announced
    assert seat == to_act
    Seat.objects.filter(pk=person.pk).update(standin=False)  # back before the pause ended
    assert play_bot_move(game.pk, 0, seat, action, asked_at) == "not_bot_turn"
    assert not Action.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_person_to_act_is_not_played_by_a_bot(make_user, make_table, spy_bots):
    game = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(game.pk)
    assert play_bot_turn(game.pk, 0) == "not_bot_turn"
    assert spy_bots == [] and not Action.objects.filter(game=game).exists()


@pytest.mark.django_db(transaction=True)
def test_the_in_process_runner_plays_an_all_bot_game_to_the_end(make_table, settings, monkeypatch):
    settings.JOB_RUNNER = "in_process"

    def no_celery(*args, **kwargs):
        raise AssertionError("the in-process runner must not use Celery")

    monkeypatch.setattr("games.jobs.current_app.send_task", no_celery)
    game = make_table(2, bots={0: "random", 1: "random"}, seed=11)
    start_game(game.pk)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        time.sleep(0.2)
    assert game.status == Game.Status.FINISHED
    state = load_state(game)
    first = random.Random(game.seed).randrange(2)
    assert replay_log(new_game(2, seed=game.seed, options=Options(), first=first), game) == state
    assert game.result["winners"] == winners(state)


@pytest.mark.django_db(transaction=True)
def test_the_in_process_turn_timer_moves_once_for_an_absent_player(
    make_user, make_table, settings, monkeypatch
):
    settings.JOB_RUNNER = "in_process"
    game = make_table(2, people={0: make_user(), 1: make_user()}, turn_seconds=1)
    start_game(game.pk)  # the first person's timer is running
    later_timers = []
    real_later = jobs.later

    def record_timers(name, *args, delay=0.0):
        if name == "turn_expiry":
            later_timers.append((*args, delay))
        else:
            real_later(name, *args, delay=delay)

    monkeypatch.setattr(jobs, "later", record_timers)
    game.refresh_from_db()
    absent = current_player(load_state(game))
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and not later_timers:
        time.sleep(0.1)
    [logged] = Action.objects.filter(game=game)
    assert (logged.seq, logged.seat, logged.actor) == (1, absent, "timer")
    [(game_id, version, seconds)] = later_timers  # now the other person's clock runs
    assert (game_id, version) == (game.pk, 1) and 0 < seconds <= 1


# --- A lost bot turn is sent again ------------------------------------------------------------


def bot_turns(announced) -> list[tuple]:
    """(game, version) of every bot turn announced through the job port."""
    return [args[:2] for name, args, _ in announced if name == "bot_turn"]


def waited(game, seconds):
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds))


@pytest.mark.django_db
def test_a_bot_turn_that_kept_the_game_waiting_is_sent_again(bot_game, announced, settings):
    settings.BOT_MOVE_DELAY, settings.BOT_THINK_SECONDS = 0.8, 1.5
    game = bot_game(bots={0: "random", 1: "random"})
    waited(game, 0.8 + 1.5 + sweep.STALLED_AFTER + 1)
    assert sweep.resume_stalled_bot_turn(game.pk) is True
    assert bot_turns(announced) == [(game.pk, game.version)]


@pytest.mark.django_db
def test_a_bot_still_within_its_time_is_left_alone(bot_game, announced, settings):
    settings.BOT_MOVE_DELAY, settings.BOT_THINK_SECONDS = 0.8, 1.5
    game = bot_game(bots={0: "random", 1: "random"})
    waited(game, 0.8 + 1.5 + sweep.STALLED_AFTER - 5)
    assert sweep.resume_stalled_bot_turn(game.pk) is False
    assert bot_turns(announced) == []


@pytest.mark.django_db
def test_a_person_who_takes_long_is_not_played_for(make_user, make_table, announced):
    game = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(game.pk)
    waited(game, 3600)
    assert sweep.resume_stalled_bot_turn(game.pk) is False
    assert bot_turns(announced) == []


@pytest.mark.django_db
def test_a_finished_game_sends_no_turn(bot_game, announced):
    game = bot_game(bots={0: "random", 1: "random"})
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    waited(game, 3600)
    assert sweep.resume_stalled_bot_turn(game.pk) is False
    assert bot_turns(announced) == []


@pytest.mark.django_db
def test_the_sweep_sends_again_every_lost_bot_turn_and_nothing_else(
    bot_game, make_user, make_table, announced, settings
):
    settings.BOT_MOVE_DELAY, settings.BOT_THINK_SECONDS = 0.8, 1.5
    lost = bot_game(bots={0: "random", 1: "random"})
    waited(lost, 0.8 + 1.5 + sweep.STALLED_AFTER + 1)
    bot_game(bots={0: "random", 1: "random"}, seed=6)  # a bot still thinking
    finished = bot_game(bots={0: "random", 1: "random"}, seed=7)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    waited(finished, 3600)
    people = make_table(2, people={0: make_user(), 1: make_user()})
    start_game(people.pk)
    waited(people, 3600)

    assert sweep.stalled_bot_turns(timezone.now()) == [lost.pk]
    assert bot_turns(announced) == [(lost.pk, lost.version)]


def test_celery_beat_runs_the_sweep_every_few_seconds(settings):
    from condottiere_site.celery import app

    app.loader.import_default_modules()
    entry = app.conf.beat_schedule["sweep-due-work"]
    assert entry["task"] == "games.sweep" and entry["task"] in app.tasks
    assert 0 < entry["schedule"] <= 10


@pytest.mark.django_db
def test_a_bot_turn_told_the_snapshot_plays_as_one_that_reads_the_game(make_table, announced):
    """The committing move passes the bot's level, the seed and the snapshot; the job then
    skips reading the game and must choose exactly what it would have chosen after reading."""
    twins = []
    for _ in range(2):
        game = make_table(2, bots={0: "heuristic", 1: "heuristic"}, seed=12)
        start_game(game.pk)
        twins.append(Game.objects.get(pk=game.pk))
    read, told = twins
    assert play_bot_turn(read.pk, 0) == "moved"
    assert play_bot_turn(told.pk, 0, time.time(), "heuristic", told.seed, told.snapshot) == "moved"
    [read_move, told_move] = [Action.objects.get(game=game).action for game in twins]
    assert read_move == told_move
    # Told an old version's snapshot, the job's move is refused by the one way in.
    assert play_bot_turn(told.pk, 0, time.time(), "heuristic", told.seed, told.snapshot) == "stale"
    assert Action.objects.filter(game=told).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_move_that_makes_a_bots_turn_passes_it_the_snapshot(make_user, make_table, announced):
    seed = next(s for s in range(100) if random.Random(s).randrange(2) == 1)  # the bot starts
    game = make_table(2, people={0: make_user()}, bots={1: "easy"}, seed=seed)
    start_game(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert current_player(load_state(game)) == 1
    [(game_id, version, _asked_at, level, told_seed, snapshot)] = [
        args for name, args, _ in announced if name == "bot_turn"
    ]
    assert (game_id, version, level, told_seed) == (game.pk, 0, "easy", game.seed)
    assert snapshot == game.snapshot


class ReadingSpyBot(SpyBot):
    """A spy that, like the search with inference, asks for the game's public history."""

    uses_history = True


@pytest.mark.django_db
def test_a_bot_that_reads_the_table_is_given_the_public_history_and_nothing_more(
    bot_game, monkeypatch
):
    calls = []
    monkeypatch.setattr(
        ai, "make_bot", lambda level, seed=None, **budget: ReadingSpyBot(calls, level, seed)
    )
    game = bot_game()
    for version in range(6):
        assert play_bot_turn(game.pk, version) == "moved"
    game.refresh_from_db()
    state = load_state(game)
    seat = current_player(state)
    assert play_bot_turn(game.pk, game.version) == "moved"
    _level, _seed, args, kwargs = calls[-1]
    assert args == (view_for(state, seat),)
    history = kwargs["history"]
    # One spectator view per state: the deal, then after each of the actions so far.
    assert len(history) == game.version + 1
    assert history[0] == view_for(
        new_game(2, seed=game.seed, first=history[0]["condottiere"]), None
    )
    assert history[-1] == view_for(state, None)
    assert all(view["seat"] is None and view["hand"] is None for view in history)


@pytest.mark.django_db(transaction=True)
def test_a_bot_that_does_not_search_plays_its_move_in_the_one_job_sent_after_its_pause(
    make_user, make_table, settings, announced
):
    """One job a move: the bot turn is sent when the pause is over, and its job, run then,
    plays the move itself; the move is still shown the pause after the bot was asked."""
    settings.BOT_MOVE_DELAY = 0.3
    seed = next(s for s in range(100) if random.Random(s).randrange(2) == 0)  # the person starts
    alice = make_user("alice")
    game = make_table(2, people={0: alice}, bots={1: "heuristic"}, seed=seed)
    start_game(game.pk)
    version = 0
    while current_player(state := load_state(Game.objects.get(pk=game.pk))) == 0:
        version = submit_action(game.pk, 0, legal_actions(state)[0], expected_version=version)
    [(name, args, delay)] = [job for job in announced if job[0] == "bot_turn"]
    assert (name, args[:2], args[3], delay) == ("bot_turn", (game.pk, version), "heuristic", 0.3)
    time.sleep(0.3)  # the broker hands the job over when its countdown is over
    assert play_bot_turn(*args) == "moved"
    assert [job for job in announced if job[0] == "bot_move"] == []
    logged = Action.objects.get(game=game, seq=version + 1)
    assert (logged.seat, logged.actor) == (1, "bot")
    assert 300 <= logged.latency_ms < 1000


@pytest.mark.parametrize(
    ("level", "game_name", "sent_after"),
    [
        ("random", "condottiere", 0.8),
        ("easy", "condottiere", 0.8),
        ("heuristic", "condottiere", 0.8),
        # A searching bot thinks through the pause: its move follows as soon as it is chosen, or
        # in a second job when the pause is over.
        ("medium", "condottiere", 0.0),
        ("hard", "condottiere", 0.0),
        ("expert", "condottiere", 0.0),
        # Several bots served together (the Renaissance vote), which may search.
        (None, "renaissance", 0.0),
        # A Renaissance bot's offer of diplomacy is shown before its move, not with it.
        ("heuristic", "renaissance", 0.0),
        ("easy", "renaissance", 0.0),
    ],
)
def test_which_bot_turns_are_sent_when_the_pause_is_over(level, game_name, sent_after, settings):
    settings.BOT_MOVE_DELAY = 0.8
    assert pause_before_choosing(level, game_name) == sent_after
