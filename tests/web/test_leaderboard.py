"""The leaderboard and the profile show the ratings the games produced."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Action, Game, Rating, RatingChange
from games.ratings.rate import update_for_game

pytestmark = pytest.mark.django_db


def finished(make_table, people=None, bots=None, *, winners, regions, seed=1):
    game = make_table(len(regions), people=people or {}, bots=bots or {}, seed=seed)
    # Only games whose people made decisions themselves are rated (games/ratings/rate.py).
    for number, seat in enumerate(people or {}, start=1):
        Action.objects.create(
            game=game, seq=number, seat=seat, action={"type": "pass"}, actor="human"
        )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={"winners": winners, "regions": regions, "reason": "most_regions"},
    )
    update_for_game(game.pk)
    return game


@pytest.fixture
def season(make_user, make_table):
    """Ann wins twice against the hard bot, Bob loses once to it; Cy never finishes a game. Dee
    sits at each table too (a game against bots alone is not rated) and never wins."""
    ann, bob, cy, dee = make_user("ann"), make_user("bob"), make_user("cy"), make_user("dee")
    games = [
        finished(make_table, {0: ann, 2: dee}, {1: "hard"}, winners=[0], regions=[4, 1, 0], seed=1),
        finished(make_table, {0: ann, 2: dee}, {1: "hard"}, winners=[0], regions=[3, 2, 0], seed=2),
        finished(make_table, {0: bob, 2: dee}, {1: "hard"}, winners=[1], regions=[0, 5, 0], seed=3),
    ]
    return ann, bob, cy, games


def row_of(html: str, attribute: str, value: str) -> str:
    match = re.search(rf'<tr {attribute}="{value}">(.*?)</tr>', html, re.S)
    assert match, f"no row {attribute}={value}"
    return match.group(1)


def cell(row: str, name: str) -> str:
    match = re.search(rf"<td[^>]*\b{name}\b[^>]*>(.*?)</td>", row, re.S)
    assert match, f"no cell {name}"
    return match.group(1).strip()


def shown_rating(row: str) -> str:
    """The rating cell as a person reads it: the number, and "?" when it is provisional."""
    return re.sub(r"<[^>]+>", "", cell(row, "data-rating"))


def test_the_leaderboard_ranks_people_and_bot_levels(client, season):
    ann, bob, cy, _ = season

    response = client.get(reverse("leaderboard"))

    assert response.status_code == 200
    html = response.content.decode()
    people = html.split('data-testid="leaderboard-people"')[1].split("</table>")[0]
    # Best first: Ann above Bob; Cy has no rated game and is not listed.
    assert people.index('data-username="ann"') < people.index('data-username="bob"')
    assert 'data-username="cy"' not in people
    ann_rating = Rating.objects.get(user=ann)
    ann_row = row_of(html, "data-username", "ann")
    assert shown_rating(ann_row) == f"{ann_rating.display}?"  # two games: still provisional
    assert cell(ann_row, "data-games") == "2"
    assert cell(ann_row, "data-win-rate") == "100%"
    assert cell(row_of(html, "data-username", "bob"), "data-win-rate") == "0%"

    hard = Rating.objects.get(user=None, bot_level="hard")
    hard_row = row_of(html, "data-level", "hard")
    assert shown_rating(hard_row) == str(hard.display)  # its start was measured: no "?"
    assert cell(hard_row, "data-games") == "3"
    assert cell(hard_row, "data-win-rate") == "33%"


def test_the_leaderboard_is_public_and_linked_from_the_header(client, db):
    response = client.get(reverse("home"))
    assert f'href="{reverse("leaderboard")}"' in response.content.decode()
    empty = client.get(reverse("leaderboard"))
    assert empty.status_code == 200
    assert 'data-testid="leaderboard-people"' not in empty.content.decode()


def test_a_bot_level_on_two_seats_wins_a_game_once(make_user, make_table, client):
    people = {0: make_user(), 3: make_user()}
    finished(make_table, people, {1: "easy", 2: "easy"}, winners=[1], regions=[1, 4, 2, 0])
    html = client.get(reverse("leaderboard")).content.decode()
    easy_row = row_of(html, "data-level", "easy")
    assert cell(easy_row, "data-games") == "1"
    assert cell(easy_row, "data-win-rate") == "100%"


def test_the_profile_shows_the_rating_and_recent_changes(client, season):
    ann, _, cy, games = season
    rating = Rating.objects.get(user=ann)

    html = client.get(reverse("player", args=[ann.username])).content.decode()

    assert re.search(
        rf'data-testid="rating" title="μ {rating.mu:.2f} / σ {rating.sigma:.2f}" data-provisional>'
        rf"{rating.display}<",
        html,
    )
    assert re.search(r'data-testid="rated-games">2<', html)
    for game in games[:2]:
        change = RatingChange.objects.get(game=game, seat=0)
        assert f'href="{reverse("game", args=[game.pk])}"' in html
        assert f"<strong data-delta>+{change.display_delta}</strong>" in html
    assert f'href="{reverse("game", args=[games[2].pk])}"' not in html  # Bob's game

    unrated = client.get(reverse("player", args=[cy.username])).content.decode()
    assert 'data-testid="rating"' not in unrated
    assert 'data-testid="profile-rating"' in unrated


def test_the_profile_lists_at_most_ten_changes_newest_first(make_user, make_table, client):
    dan, eve = make_user("dan"), make_user("eve")
    games = [
        finished(make_table, {0: dan, 1: eve}, winners=[0], regions=[3, 0], seed=n)
        for n in range(12)
    ]
    html = client.get(reverse("player", args=[dan.username])).content.decode()
    listed = re.findall(r'href="/games/(\d+)/"', html)
    assert [int(pk) for pk in listed] == [game.pk for game in reversed(games)][:10]


def test_a_newcomer_reads_1500_on_the_profile_and_the_leaderboard(make_user, client):
    # OpenSkill's starting numbers (mu 25, sigma 25/3), as a player holds them before any game
    # has moved them: the scale is chosen so that they read 1500, not the raw ordinal 0.0.
    nia = make_user("nia")
    Rating.objects.create(user=nia, mu=25.0, sigma=25 / 3, games=1)

    profile = client.get(reverse("player", args=[nia.username])).content.decode()
    board = client.get(reverse("leaderboard")).content.decode()

    assert re.search(r'data-testid="rating" title="[^"]*" data-provisional>1500<', profile)
    assert shown_rating(row_of(board, "data-username", "nia")) == "1500?"
    assert "Everyone starts at 1500" in board  # the scale is explained where ratings are listed
    assert "A bot level starts where the bot arena measured it" in board  # not at 1500


def test_a_win_reads_the_same_on_the_profile_the_leaderboard_and_the_game_frame(
    make_user, make_table, client
):
    from games.services.frames import rating_changes  # the game frame's rating_changes

    ola, pia = make_user("ola"), make_user("pia")
    game = finished(make_table, {0: ola, 1: pia}, winners=[0], regions=[3, 0])
    change = RatingChange.objects.get(game=game, seat=0)
    shown = Rating.objects.get(user=ola).display

    game.refresh_from_db()
    frame = {entry["seat"]: entry for entry in rating_changes(game)}
    profile = client.get(reverse("player", args=[ola.username])).content.decode()
    board = client.get(reverse("leaderboard")).content.decode()

    assert frame[0]["before"] == 1500 and frame[0]["after"] == shown > 1500  # a win raises it
    assert frame[0]["delta"] == shown - 1500 == change.display_delta
    assert re.search(rf'data-testid="rating" title="[^"]*" data-provisional>{shown}<', profile)
    assert f"<strong data-delta>+{shown - 1500}</strong>" in profile
    assert shown_rating(row_of(board, "data-username", "ola")) == f"{shown}?"
    assert frame[1]["after"] < 1500 and frame[1]["delta"] == frame[1]["after"] - 1500
