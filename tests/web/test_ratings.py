"""Ratings: OpenSkill's own numbers, once per game, for people and bot levels, on game finish."""

import random
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from games.engine import current_player, legal_actions
from games.models import Action, Game, Rating, RatingChange
from games.ratings.rate import (
    UNRATED_MESSAGES,
    rating_for,
    recompute_all,
    starting_mu,
    unrated_reason,
    update_for_game,
)
from games.ratings.scale import display_change, display_rating
from games.services import load_state, start_game, submit_action
from games.services.frames import game_frame
from games.tasks import rating as rating_job
from tests.services import require_postgresql, require_redis
from tests.web.test_celery_worker import worker_on_a_queue_of_its_own

pytestmark = pytest.mark.django_db

TOLERANCE = 1e-9


def decide(game: Game, seat: int, actor=Action.Actor.HUMAN) -> None:
    """Log one decision of `seat`, made by `actor` (the move itself does not matter here)."""
    seq = Action.objects.filter(game=game).count() + 1
    Action.objects.create(game=game, seq=seq, seat=seat, action={"type": "pass"}, actor=actor)


def finish(
    game: Game,
    winners,
    regions,
    *,
    status=Game.Status.FINISHED,
    source=Game.Source.LIVE,
    decided: tuple | None = None,
):
    """Mark a table finished with this result (the result a finished game stores). The seats in
    `decided` (by default every person's seat) made a decision of their own on the way."""
    if decided is None:
        decided = tuple(game.seats.filter(user__isnull=False).values_list("index", flat=True))
    for seat in decided:
        decide(game, seat)
    Game.objects.filter(pk=game.pk).update(
        status=status,
        source=source,
        finished_at=timezone.now(),
        result={"winners": list(winners), "regions": list(regions), "reason": "most_regions"},
    )
    game.refresh_from_db()
    return game


def close(rating, expected):
    return abs(rating.mu - expected.mu) < TOLERANCE and abs(rating.sigma - expected.sigma) < (
        TOLERANCE
    )


@pytest.fixture
def four_people(make_user):
    return [make_user(name) for name in ("ada", "ben", "cid", "dee")]


def test_a_four_player_game_matches_openskill(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    # Ben wins; Dee holds 3 regions, Ada and Cid 2 each (a tie between them).
    finish(game, winners=[1], regions=[2, 5, 2, 3])

    assert update_for_game(game.pk) is True

    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    # Ranks: lower is better; Ada and Cid tie behind Dee.
    expected = model.rate(teams, ranks=[3, 1, 3, 2])
    for seat, person in enumerate(four_people):
        rating = Rating.objects.get(user=person)
        assert close(rating, expected[seat][0]), (seat, rating.mu, expected[seat][0].mu)
        assert rating.games == 1
    winner = Rating.objects.get(user=four_people[1])
    assert winner.ordinal > Rating.objects.get(user=four_people[3]).ordinal
    assert RatingChange.objects.filter(game=game).count() == 4


def test_existing_ratings_are_the_starting_point(make_table, four_people):
    ada_before = rating_for(user=four_people[0])
    Rating.objects.filter(pk=ada_before.pk).update(mu=31.5, sigma=4.25, games=7)
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[0], regions=[4, 1, 0, 1])

    update_for_game(game.pk)

    model = PlackettLuce()
    teams = [[model.rating(mu=31.5, sigma=4.25)]] + [[model.rating()] for _ in range(3)]
    expected = model.rate(teams, ranks=[1, 2, 3, 2])
    ada = Rating.objects.get(user=four_people[0])
    assert close(ada, expected[0][0]) and ada.games == 8
    change = RatingChange.objects.get(game=game, seat=0)
    assert (change.mu_before, change.sigma_before) == (31.5, 4.25)
    assert abs(change.mu_after - expected[0][0].mu) < TOLERANCE


def test_updating_twice_changes_nothing_the_second_time(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[2], regions=[1, 2, 4, 0])

    assert update_for_game(game.pk) is True
    first = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    assert update_for_game(game.pk) is False
    assert rating_job(game.pk) is False  # the job, run a second time

    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == first
    assert RatingChange.objects.filter(game=game).count() == 4


def test_the_task_run_twice_rates_once(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[0], regions=[3, 1, 1, 1])

    assert rating_job(game.pk) is True
    assert rating_job(game.pk) is False

    assert all(rating.games == 1 for rating in Rating.objects.all())
    assert RatingChange.objects.filter(game=game).count() == 4


@pytest.mark.parametrize(
    "status, source",
    [
        (Game.Status.ABORTED, Game.Source.LIVE),
        (Game.Status.FINISHED, Game.Source.IMPORTED),
        (Game.Status.PLAYING, Game.Source.LIVE),
    ],
)
def test_aborted_imported_and_unfinished_games_are_not_rated(
    make_table, four_people, status, source
):
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[0], regions=[3, 1, 1, 1], status=status, source=source)

    assert update_for_game(game.pk) is False
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(games__gt=0).exists()


def test_a_shared_victory_is_a_tie(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    # Two winners with different region counts still share first place.
    finish(game, winners=[0, 3], regions=[5, 1, 0, 4])

    update_for_game(game.pk)

    ada, ben, cid, dee = (Rating.objects.get(user=person) for person in four_people)
    assert abs(ada.mu - dee.mu) < TOLERANCE and abs(ada.sigma - dee.sigma) < TOLERANCE
    assert cid.mu < min(ada.mu, ben.mu)  # last place loses most
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 3, 1])
    assert close(ada, expected[0][0]) and close(cid, expected[2][0])


def test_a_seat_handed_to_the_stand_in_after_playing_rates_its_person(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    game.seats.filter(index=2).update(standin=True)
    finish(game, winners=[2], regions=[0, 1, 4, 1])

    update_for_game(game.pk)

    assert Rating.objects.get(user=four_people[2]).games == 1
    assert not Rating.objects.filter(bot_level__gt="").exists()


def test_bot_levels_accumulate_over_games(make_user, make_table):
    alice, bob = make_user("alice"), make_user("bob")
    model = PlackettLuce()
    # alice, hard (from its ladder strength, ai/ladder.py), bob
    expected = [model.rating(), model.rating(mu=starting_mu("hard")), model.rating()]
    for round_number, winner in enumerate([1, 1, 0]):
        game = make_table(3, people={0: alice, 2: bob}, bots={1: "hard"}, seed=round_number)
        regions = [1, 3, 0] if winner == 1 else [3, 1, 0]
        finish(game, winners=[winner], regions=regions)
        update_for_game(game.pk)
        ranks = [1, 2, 3] if winner == 0 else [2, 1, 3]
        expected = [team[0] for team in model.rate([[r] for r in expected], ranks=ranks)]

    hard = Rating.objects.get(user=None, bot_level="hard")
    assert hard.games == 3
    assert close(hard, expected[1]) and close(Rating.objects.get(user=alice), expected[0])
    assert RatingChange.objects.filter(rating=hard).count() == 3


def test_one_level_on_several_seats_takes_the_mean_of_its_seats(make_user, make_table):
    alice = make_user("alice")
    game = make_table(4, people={0: alice, 3: make_user("bob")}, bots={1: "easy", 2: "easy"})
    finish(game, winners=[1], regions=[2, 4, 0, 1])

    update_for_game(game.pk)

    model = PlackettLuce()
    easy_start = starting_mu("easy")
    before = [model.rating(), model.rating(mu=easy_start), model.rating(mu=easy_start)]
    before.append(model.rating())
    expected = model.rate([[rating] for rating in before], ranks=[2, 1, 4, 3])
    easy = Rating.objects.get(user=None, bot_level="easy")
    assert abs(easy.mu - (expected[1][0].mu + expected[2][0].mu) / 2) < TOLERANCE
    assert abs(easy.sigma - (expected[1][0].sigma + expected[2][0].sigma) / 2) < TOLERANCE
    assert easy.games == 1  # one game, however many seats it held
    assert close(Rating.objects.get(user=alice), expected[0][0])
    changes = RatingChange.objects.filter(game=game, rating=easy)
    assert sorted(changes.values_list("seat", flat=True)) == [1, 2]
    assert all(abs(change.mu_after - easy.mu) < TOLERANCE for change in changes)


def test_recompute_all_reproduces_the_incremental_numbers(make_user, make_table):
    people = [make_user(name) for name in ("ann", "bo", "cy")]
    rng = random.Random(5)
    for number in range(6):
        seated = rng.sample(people, 2)
        game = make_table(3, people={0: seated[0], 1: seated[1]}, bots={2: "medium"}, seed=number)
        regions = [rng.randrange(6) for _ in range(3)]
        finish(game, winners=[regions.index(max(regions))], regions=regions)
        update_for_game(game.pk)
    aborted = make_table(2, people={0: people[0], 1: people[1]})
    finish(aborted, winners=[0], regions=[1, 0], status=Game.Status.ABORTED)

    def numbers():
        return sorted(
            (rating.user_id or 0, rating.bot_level, rating.mu, rating.sigma, rating.games)
            for rating in Rating.objects.all()
        )

    incremental = numbers()

    assert recompute_all() == 6

    again = numbers()
    assert [row[:2] + row[4:] for row in again] == [row[:2] + row[4:] for row in incremental]
    for new, old in zip(again, incremental, strict=True):
        assert abs(new[2] - old[2]) < TOLERANCE and abs(new[3] - old[3]) < TOLERANCE
    assert RatingChange.objects.count() == 6 * 3


# --- What is rated: a game that people really played against each other ------------------------
#
# Rated: at least two seats held by people who each made at least one decision themselves. Rated
# seats: those people, and the bot seats. Not rated: a person's seat whose every decision was a
# stand-in's or the timer's; games with fewer than two such people (a person alone against bots,
# bots only); aborted games (games/ratings/rate.py says why).


def moved_ratings() -> list:
    return list(Rating.objects.filter(games__gt=0).values_list("user_id", "bot_level"))


def test_a_seat_played_entirely_by_the_stand_in_does_not_rate_its_person(make_table, four_people):
    game = make_table(4, people=dict(enumerate(four_people)))
    game.seats.filter(index=2).update(standin=True)
    decide(game, 2, Action.Actor.TIMER)
    decide(game, 2, Action.Actor.STANDIN)
    finish(game, winners=[2], regions=[0, 1, 4, 1], decided=(0, 1, 3))

    assert update_for_game(game.pk) is True

    assert not Rating.objects.filter(user=four_people[2], games__gt=0).exists()
    assert sorted(RatingChange.objects.filter(game=game).values_list("seat", flat=True)) == [
        0,
        1,
        3,
    ]


def test_a_person_alone_against_bots_moves_no_rating(make_user, make_table):
    alice = make_user("alice")
    for number in range(3):
        game = make_table(3, people={0: alice}, bots={1: "heuristic", 2: "random"}, seed=number)
        finish(game, winners=[0], regions=[4, 1, 0])

        assert update_for_game(game.pk) is False

    assert moved_ratings() == []
    assert not RatingChange.objects.exists()


def test_handing_every_seat_to_the_stand_in_at_once_farms_nothing(make_user, make_table):
    """The farm the rule closes: open tables, hand the seat over at once, let the stand-in win."""
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(3, people={0: alice, 1: bob}, bots={2: "random"})
    for seat in (0, 1):
        decide(game, seat, Action.Actor.STANDIN)
    finish(game, winners=[0], regions=[4, 1, 0], decided=())

    assert update_for_game(game.pk) is False
    assert moved_ratings() == []


def test_one_own_decision_each_is_enough_and_handing_over_later_does_not_dodge_the_loss(
    make_user, make_table
):
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob})
    game.seats.filter(index=1).update(standin=True)  # Bob left after his first move
    decide(game, 1, Action.Actor.STANDIN)
    finish(game, winners=[0], regions=[4, 0])

    assert update_for_game(game.pk) is True
    assert Rating.objects.get(user=bob).games == 1
    assert Rating.objects.get(user=bob).mu < Rating.objects.get(user=alice).mu


def test_a_bots_only_table_played_through_the_services_moves_no_bot_rating(make_table, announced):
    """The probe that moved "heuristic" from 4.5 to 19.5: bots' moves through the one way in (the
    test plays them itself; `announced` keeps the bot jobs from racing it)."""
    game = make_table(3, bots={0: "heuristic", 1: "heuristic", 2: "random"}, seed=11)
    start_game(game.pk)
    rng = random.Random(11)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        state = load_state(game)
        action = rng.choice(legal_actions(state))
        submit_action(game.pk, current_player(state), action, game.version, actor="bot")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    assert update_for_game(game.pk) is False
    assert moved_ratings() == []
    assert recompute_all() == 0


@pytest.mark.parametrize(
    "status, source, reason",
    [
        (Game.Status.ABORTED, Game.Source.LIVE, "aborted"),
        (Game.Status.FINISHED, Game.Source.IMPORTED, "imported"),
        (Game.Status.FINISHED, Game.Source.LIVE, None),
    ],
)
def test_the_reason_a_game_is_not_rated(make_table, four_people, status, source, reason):
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[0], regions=[3, 1, 1, 1], status=status, source=source)

    assert unrated_reason(game) == reason


def test_too_few_people_is_the_reason_for_a_game_against_bots(make_user, make_table):
    game = make_table(2, people={0: make_user()}, bots={1: "easy"})
    finish(game, winners=[0], regions=[3, 1])

    assert unrated_reason(game) == "too_few_people"


def test_the_state_frame_carries_the_rating_changes(make_table, four_people, start_stacked):
    game = start_stacked(make_table(4, people=dict(enumerate(four_people))))
    assert game_frame(game, 0)["game"]["rating_changes"] == []
    finish(game, winners=[1], regions=[2, 5, 2, 3])
    update_for_game(game.pk)

    changes = game_frame(game, None)["game"]["rating_changes"]

    assert [change["seat"] for change in changes] == [0, 1, 2, 3]
    for change in changes:
        row = RatingChange.objects.get(game=game, seat=change["seat"])
        # On the display scale: newcomers start at 1500, and the change adds up.
        assert change["before"] == 1500
        assert change["after"] == display_rating(row.mu_after, row.sigma_after)
        assert change["delta"] == change["after"] - change["before"]
        assert change["delta"] == row.display_delta
    assert changes[1]["delta"] > 0  # the winner's rating rose


def test_the_state_frame_says_which_rating_changes_are_still_provisional(
    make_table, four_people, start_stacked
):
    # A player of many games (low sigma) is trusted; three newcomers are still provisional after
    # one game, as the leaderboard's "?" says (games.ratings.scale.PROVISIONAL_SIGMA).
    veteran = four_people[2]
    Rating.objects.create(user=veteran, mu=30.0, sigma=2.0, games=60)
    game = start_stacked(make_table(4, people=dict(enumerate(four_people))))
    finish(game, winners=[1], regions=[2, 5, 2, 3])
    update_for_game(game.pk)

    changes = game_frame(game, None)["game"]["rating_changes"]

    assert [change["provisional"] for change in changes] == [True, True, False, True]


# --- On game finish: the update really runs ---------------------------------------------------


def play_randomly_to_the_end(game, rng, limit=5000):
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        state = load_state(game)
        submit_action(
            game.pk, current_player(state), rng.choice(legal_actions(state)), game.version
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_in_process_a_finished_game_is_rated(make_user, make_table, settings, monkeypatch):
    settings.JOB_RUNNER = "in_process"

    def no_celery(*args, **kwargs):
        raise AssertionError("the in-process profile must not use Celery")

    monkeypatch.setattr("games.jobs.current_app.send_task", no_celery)
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob}, seed=3)
    start_game(game.pk)

    play_randomly_to_the_end(game, random.Random(3))

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and RatingChange.objects.filter(game=game).count() < 2:
        time.sleep(0.1)
    game.refresh_from_db()
    winner = game.result["winners"][0]
    ratings = [Rating.objects.get(user=person) for person in (alice, bob)]
    assert [rating.games for rating in ratings] == [1, 1]
    assert ratings[winner].mu > ratings[1 - winner].mu


def test_the_rating_is_announced_after_the_finishing_commit(
    make_user, make_table, monkeypatch, django_capture_on_commit_callbacks, announced
):
    monkeypatch.setattr("games.services.followups.notify_game", lambda *args, **named: None)
    monkeypatch.setattr("games.services.followups.notify_lobby_now", lambda: None)
    game = make_table(2, people={0: make_user(), 1: make_user()}, seed=4)
    start_game(game.pk)
    rng = random.Random(4)
    while True:
        game.refresh_from_db()
        state = load_state(game)
        with django_capture_on_commit_callbacks(execute=True):
            submit_action(
                game.pk, current_player(state), rng.choice(legal_actions(state)), game.version
            )
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert ratings_announced(announced) == [], "no rating update before the game ends"

    assert ratings_announced(announced) == [(game.pk,)]


def ratings_announced(announced) -> list[tuple]:
    return [args for name, args, _ in announced if name == "rating"]


@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_rates_the_finished_game(make_user, make_table, settings):
    """The Celery profile end to end: the finishing commit sends the task, a worker runs it."""
    require_redis()
    if settings.JOB_RUNNER != "celery":
        pytest.skip("the embedded profile has no Celery worker (its runner is tested above)")
    alice, bob = make_user("alice"), make_user("bob")
    game = make_table(2, people={0: alice, 1: bob}, seed=5)
    start_game(game.pk)
    with worker_on_a_queue_of_its_own("test-ratings") as (worker, _queue):
        play_randomly_to_the_end(game, random.Random(5))
        deadline = time.monotonic() + 60
        while RatingChange.objects.filter(game=game).count() < 2:
            assert time.monotonic() < deadline, "the worker did not rate the game"
            assert worker.poll() is None, "the worker died"
            time.sleep(0.2)
    assert [Rating.objects.get(user=person).games for person in (alice, bob)] == [1, 1]


@pytest.mark.django_db(transaction=True)
def test_concurrent_updates_of_one_game_rate_it_once(make_table, four_people):
    require_postgresql()  # SQLite has one writer and no row locks: nothing concurrent to test
    game = make_table(4, people=dict(enumerate(four_people)))
    finish(game, winners=[3], regions=[1, 2, 0, 4])
    barrier = threading.Barrier(4)

    def run():
        barrier.wait()
        try:
            return update_for_game(game.pk)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(lambda _: run(), range(4)))

    assert sorted(outcomes) == [False, False, False, True]
    assert RatingChange.objects.filter(game=game).count() == 4
    assert all(rating.games == 1 for rating in Rating.objects.all())


# --- The finished game's page says whether it was rated, and why not ---------------------------


def test_the_game_page_says_whether_the_game_was_rated(client, make_user, make_table):
    two = make_table(2, people={0: make_user(), 1: make_user()})
    finish(two, winners=[0], regions=[3, 1])
    alone = make_table(2, people={0: make_user()}, bots={1: "easy"})
    finish(alone, winners=[0], regions=[3, 1])
    aborted = make_table(2, people={0: make_user(), 1: make_user()})
    finish(aborted, winners=[0], regions=[3, 1], status=Game.Status.ABORTED)

    def rated_line(game):
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        match = re.search(r'<p class="game__rated" data-rated="(\w+)">(.*?)</p>', html, re.S)
        assert match, "the page does not say whether the game was rated"
        return match.group(1), match.group(2).strip()

    assert rated_line(two) == ("yes", "Rated game.")
    assert rated_line(alone) == ("no", str(UNRATED_MESSAGES["too_few_people"]))
    assert rated_line(aborted) == ("no", str(UNRATED_MESSAGES["aborted"]))


@pytest.mark.parametrize(
    ("delta", "language", "text"),
    [
        (-0.003, "en", "0"),  # less than a displayed point either way: no change, no sign
        (0.004, "en", "0"),
        (0.5, "en", "+30"),  # one ordinal point is 60 displayed points
        (-1.25, "en", "-75"),
        (2.25, "fr", "+135"),
        (-0.004, "it", "0"),
    ],
)
def test_a_rating_change_reads_as_players_expect(delta, language, text):
    from django.utils import translation

    from games.models import RatingChange

    change = RatingChange(mu_before=25.0, sigma_before=1.0, mu_after=25.0 + delta, sigma_after=1.0)
    with translation.override(language):
        assert change.delta_text == text
    assert change.display_delta == change.display_after - change.display_before


def test_the_display_scale_reads_1500_for_a_newcomer_and_rises_with_the_ordinal():
    newcomer = PlackettLuce().rating()
    assert display_rating(newcomer.mu, newcomer.sigma) == 1500
    assert display_rating(25.0 - 2.8, 25 / 3) == 1332  # the ordinal -2.8 that read "-2.8"
    assert display_rating(30.0, 25 / 3) == 1800  # five ordinal points above a newcomer
    assert display_change(25.0, 25 / 3, 26.0, 8.0) == display_rating(26.0, 8.0) - 1500


def test_a_bot_level_starts_at_its_measured_ladder_strength(monkeypatch):
    """A level's first rating shows its arena Elo (ai/ladder.py) on the site's scale, so the
    levels are ranked weakest to strongest before anyone has played them. A level the ladder has
    not measured starts at the measured level below it (expert at hard's), one below every
    measured level as a newcomer (1500), like a person."""
    from ai import ladder

    measured = {"easy": 1200, "heuristic": 1500, "hard": 1810}
    monkeypatch.setattr(ladder, "load", lambda game="condottiere": measured)
    shown = {
        level: display_rating(rating.mu, rating.sigma)
        for level in ("hard", "easy", "heuristic", "expert", "random")
        for rating in [rating_for(bot_level=level)]
    }
    assert shown == {"easy": 1200, "heuristic": 1500, "hard": 1810, "expert": 1810, "random": 1500}


def test_accounts_that_only_showed_cards_rate_nobody(make_table, four_people, start_stacked):
    """Two sybil accounts each showed a card (through the service, as a socket does), then the
    stand-in played for both: a show is table talk, not a decision, so the game rates nobody."""
    from games.services.table_talk import submit_show

    alice, bob = four_people[:2]
    game = start_stacked(
        make_table(2, people={0: alice, 1: bob}), hands=[["m1", "m2"], ["m3", "m4"]]
    )
    version = submit_show(game.pk, 0, 1, ["m1"], game.version)
    submit_show(game.pk, 1, 0, ["m3"], version)
    for seat in (0, 1):
        decide(game, seat, Action.Actor.STANDIN)
    finish(game, winners=[0], regions=[4, 1], decided=())

    assert unrated_reason(game) == "too_few_people"
    assert update_for_game(game.pk) is False
    assert moved_ratings() == []
