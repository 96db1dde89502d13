"""Ratings per game: a person and a bot level have one rating in Condottiere and another in
Renaissance, each moved only by that game's rated games, by the same rule (OpenSkill's
Plackett-Luce; rated only if at least two people made decisions of their own).

A Renaissance game ranks its seats as its rulebook ends it (docs/renaissance/rules.md, section 1,
"Goal" and "Ties"): the most Renaissance Points wins, ties broken by fortresses, ramparts and
ducats; so the winners come first, then the others by their points, equal points tied.
"""

import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from ai import ladder
from games.models import Action, Game, Rating, RatingChange, Seat
from games.ratings.rate import (
    UNRATED_MESSAGES,
    ranks_from_result,
    rating_for,
    starting_mu,
    starting_rating,
    unrated_reason,
    update_for_game,
)
from games.services.frames import game_frame
from tests.web.renaissance_games import people_table, play_to_the_end

pytestmark = pytest.mark.django_db

TOLERANCE = 1e-9
# Migration 0009 makes ratings per game; this is the one before it.
BEFORE = "0008_game_ruleset_and_seat_decisions"


@pytest.fixture
def people(make_user):
    return [make_user(name) for name in ("ada", "ben", "cid", "dee")]


def renaissance_table(seats: dict, *, players: int) -> Game:
    """A Renaissance table (not started): `seats` maps an index to a user or a bot level."""
    game = Game.objects.create(ruleset=Game.Ruleset.RENAISSANCE, players=players, seed=1)
    for index in range(players):
        occupant = seats.get(index, "")
        person = None if isinstance(occupant, str) else occupant
        Seat.objects.create(
            game=game,
            index=index,
            user=person,
            bot_level=occupant if isinstance(occupant, str) else "",
            joined_at=timezone.now(),
        )
    return game


def finish(game: Game, winners, points, *, decisions: dict | None = None) -> Game:
    """Mark a table finished with a Renaissance result. `decisions`: per seat, the actions its
    person logged (by default one move each, {"type": "pass"})."""
    if decisions is None:
        people = game.seats.filter(user__isnull=False).values_list("index", flat=True)
        decisions = {seat: [{"type": "pass"}] for seat in people}
    seq = 0
    for seat, actions in decisions.items():
        for action in actions:
            seq += 1
            Action.objects.create(game=game, seq=seq, seat=seat, action=action, actor="human")
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={"winners": list(winners), "points": list(points), "reason": "points"},
    )
    game.refresh_from_db()
    return game


def condottiere_game(make_table, seats: dict, winners, regions) -> Game:
    game = make_table(len(regions), people=seats)
    for seq, seat in enumerate(seats, start=1):
        Action.objects.create(game=game, seq=seq, seat=seat, action={"type": "pass"}, actor="human")
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={"winners": list(winners), "regions": list(regions), "reason": "most_regions"},
    )
    update_for_game(game.pk)
    return game


def close(rating, expected) -> bool:
    return abs(rating.mu - expected.mu) < TOLERANCE and abs(rating.sigma - expected.sigma) < (
        TOLERANCE
    )


# --- Ranks ---------------------------------------------------------------------------------------


def test_a_renaissance_result_ranks_the_winners_first_then_by_points():
    # The winner may share the most points with a seat it beat on the tie-breaks; below the
    # winners, more points is better and equal points tie.
    result = {"winners": [2], "points": [30, 41, 41, 12], "reason": "points"}
    assert ranks_from_result(result, "renaissance") == [3, 2, 1, 4]
    shared = {"winners": [0, 3], "points": [40, 25, 31, 40], "reason": "shared"}
    assert ranks_from_result(shared, "renaissance") == [1, 3, 2, 1]


def test_a_renaissance_game_is_rated_by_openskill_from_its_ranking(people):
    game = finish(
        renaissance_table(dict(enumerate(people)), players=4),
        winners=[3],
        points=[20, 33, 20, 35],
    )
    assert update_for_game(game.pk) is True

    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[3, 2, 3, 1])
    for seat, person in enumerate(people):
        rating = Rating.objects.get(user=person, ruleset="renaissance")
        assert close(rating, expected[seat][0]) and rating.games == 1
    assert not Rating.objects.filter(ruleset="condottiere").exists()
    assert RatingChange.objects.filter(game=game).count() == 4


def test_a_persons_two_games_have_two_ratings_each_moved_by_its_own_games(make_table, people):
    ada, ben = people[:2]
    condottiere = condottiere_game(make_table, {0: ada, 1: ben}, winners=[0], regions=[4, 1])
    before = Rating.objects.get(user=ada, ruleset="condottiere")

    # Ada loses at Renaissance: her Condottiere rating does not move.
    game = finish(
        renaissance_table({0: ada, 1: ben, 2: "hard"}, players=3), winners=[1], points=[10, 30, 20]
    )
    update_for_game(game.pk)

    after = Rating.objects.get(user=ada, ruleset="condottiere")
    assert (after.mu, after.sigma, after.games) == (before.mu, before.sigma, before.games)
    renaissance = Rating.objects.get(user=ada, ruleset="renaissance")
    assert renaissance.games == 1 and renaissance.mu < PlackettLuce().mu
    assert {change.game_id for change in after.changes.all()} == {condottiere.pk}
    assert {change.game_id for change in renaissance.changes.all()} == {game.pk}


def test_a_bot_level_has_a_rating_per_game_each_starting_at_its_games_ladder(people):
    game = finish(
        renaissance_table({0: people[0], 1: people[1], 2: "hard"}, players=3),
        winners=[2],
        points=[10, 12, 30],
    )
    update_for_game(game.pk)
    hard = Rating.objects.get(user=None, bot_level="hard", ruleset="renaissance")
    change = RatingChange.objects.get(game=game, seat=2)
    # Each game's arena ladder measured its own bots (ai/ladder.py): Renaissance's `hard` starts
    # at its Renaissance strength, not at Condottiere's.
    start = starting_mu("hard", "renaissance")
    assert (change.mu_before, change.sigma_before) == (start, PlackettLuce().sigma)
    assert start != starting_mu("hard", "condottiere")
    assert starting_rating("hard", "renaissance").display == ladder.load("renaissance")["hard"]
    assert hard.games == 1 and hard.mu > start
    assert not Rating.objects.filter(bot_level="hard", ruleset="condottiere").exists()
    condottiere_hard = rating_for(bot_level="hard")
    assert condottiere_hard.ruleset == "condottiere" and condottiere_hard.pk != hard.pk
    assert condottiere_hard.mu == starting_mu("hard")


def test_a_game_one_person_played_against_bots_rates_nobody(people):
    game = finish(
        renaissance_table({0: people[0], 1: "easy", 2: "hard"}, players=3),
        winners=[0],
        points=[30, 12, 10],
    )
    assert unrated_reason(game) == "too_few_people"
    assert update_for_game(game.pk) is False
    assert not Rating.objects.exists()


def test_diplomacy_alone_is_no_decision_of_ones_own(people):
    """Two accounts that only make and withdraw an offer, the stand-in playing their seats,
    have not played each other: an offer asks nothing of the game."""
    offer = {"type": "offer_exchange", "to": 1, "give": "Genova", "take": "Milano"}
    withdrawal = {"type": "withdraw_exchange", "to": 1}
    game = finish(
        renaissance_table({0: people[0], 1: people[1], 2: "hard"}, players=3),
        winners=[2],
        points=[10, 12, 30],
        decisions={0: [offer, withdrawal], 1: [{"type": "give_ducats", "to": 0, "amount": 1}]},
    )
    assert unrated_reason(game) == "too_few_people"
    assert update_for_game(game.pk) is False


def test_an_unfinished_renaissance_game_is_not_rated_yet(people):
    game = people_table(people[:3], seed=2)
    assert unrated_reason(game) == "unfinished"
    assert update_for_game(game.pk) is False


def test_a_renaissance_game_played_to_its_end_is_rated_and_its_frames_carry_the_changes(
    people,
):
    game = play_to_the_end(people_table(people[:3], seed=11), seed=11)
    assert game.status == Game.Status.FINISHED and "points" in game.result
    assert unrated_reason(game) is None
    assert update_for_game(game.pk) is True

    ranks = ranks_from_result(game.result, "renaissance")
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
    for seat, person in enumerate(people[:3]):
        assert close(Rating.objects.get(user=person, ruleset="renaissance"), expected[seat][0])
    changes = game_frame(game, None)["game"]["rating_changes"]
    assert [change["seat"] for change in changes] == [0, 1, 2]
    for change in changes:
        row = RatingChange.objects.get(game=game, seat=change["seat"])
        assert change["delta"] == row.display_delta
    for winner in game.result["winners"]:
        assert changes[winner]["delta"] > 0


def test_the_game_page_says_a_renaissance_game_was_rated(client, people):
    game = finish(
        renaissance_table(dict(enumerate(people[:3])), players=3), winners=[0], points=[30, 2, 1]
    )
    update_for_game(game.pk)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-rated="yes"' in page
    alone = finish(
        renaissance_table({0: people[3], 1: "easy", 2: "easy"}, players=3),
        winners=[0],
        points=[30, 2, 1],
    )
    page = client.get(reverse("game", args=[alone.pk])).content.decode()
    assert 'data-rated="no"' in page and str(UNRATED_MESSAGES["too_few_people"])[:20] in page


# --- The leaderboard and the profile --------------------------------------------------------------


def leaderboard_people(html: str) -> str:
    return html.split('data-testid="leaderboard-people"')[1].split("</table>")[0]


def test_the_leaderboard_shows_the_chosen_games_ratings(client, make_table, people):
    ada, ben, cid, dee = people
    condottiere_game(make_table, {0: ada, 1: ben}, winners=[0], regions=[4, 1])
    game = finish(
        renaissance_table({0: cid, 1: dee, 2: "hard"}, players=3), winners=[0], points=[30, 2, 9]
    )
    update_for_game(game.pk)

    default = client.get(reverse("leaderboard")).content.decode()
    chosen = client.get(reverse("leaderboard"), {"game": "renaissance"}).content.decode()
    unknown = client.get(reverse("leaderboard"), {"game": "chess"}).content.decode()

    assert 'data-username="ada"' in leaderboard_people(default)
    assert 'data-username="cid"' not in leaderboard_people(default)
    # Every level is listed in both; in Condottiere the hard bot has played no rated game yet.
    assert re.search(r'<tr data-level="hard">.*?data-games>0<', default, re.S)
    people_of_renaissance = leaderboard_people(chosen)
    assert people_of_renaissance.index('data-username="cid"') < people_of_renaissance.index(
        'data-username="dee"'
    )
    assert 'data-username="ada"' not in people_of_renaissance
    assert re.search(r'<tr data-level="hard">.*?data-games>1<', chosen, re.S)
    assert 'aria-current="page" data-game="renaissance"' in chosen
    assert 'aria-current="page" data-game="condottiere"' in default
    assert leaderboard_people(unknown) == leaderboard_people(default)


def test_the_profile_shows_the_rating_of_each_game(client, make_table, people):
    ada, ben, cid = people[:3]
    condottiere_game(make_table, {0: ada, 1: ben}, winners=[0], regions=[4, 1])
    game = finish(
        renaissance_table({0: ada, 1: cid, 2: "easy"}, players=3), winners=[1], points=[3, 30, 9]
    )
    update_for_game(game.pk)

    html = client.get(reverse("player", args=[ada.username])).content.decode()
    condottiere = html.split('data-game="condottiere"')[1].split("</section>")[0]
    renaissance = html.split('data-game="renaissance"')[1].split("</section>")[0]
    for name, part in (("condottiere", condottiere), ("renaissance", renaissance)):
        rating = Rating.objects.get(user=ada, ruleset=name)
        assert f'data-testid="rating" title="μ {rating.mu:.2f} / σ {rating.sigma:.2f}"' in part
        assert f">{rating.display}<" in part
    assert f'href="{reverse("game", args=[game.pk])}"' in renaissance
    assert f'href="{reverse("game", args=[game.pk])}"' not in condottiere
    assert "?game=renaissance" in renaissance

    only_condottiere = client.get(reverse("player", args=[ben.username])).content.decode()
    renaissance_part = only_condottiere.split('data-game="renaissance"')[1].split("</section>")[0]
    assert (
        'data-testid="rating"' not in renaissance_part and "No rated games yet." in renaissance_part
    )


# --- The ratings made before ratings per game -----------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_ratings_made_before_are_condottieres():
    executor = MigrationExecutor(connection)
    executor.migrate([("games", BEFORE)])
    try:
        old = executor.loader.project_state([("games", BEFORE)]).apps
        user = old.get_model("games", "User").objects.create(username="old", pending_email="")
        old_rating = old.get_model("games", "Rating")
        old_rating.objects.create(user_id=user.pk, mu=30.0, sigma=4.0, games=7)
        old_rating.objects.create(bot_level="hard", mu=28.0, sigma=3.0, games=9)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(Rating.objects.values_list("bot_level", "ruleset", "games")) == [
        ("", "condottiere", 7),
        ("hard", "condottiere", 9),
    ]
