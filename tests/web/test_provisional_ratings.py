"""The leaderboard as a newcomer finds it: every bot level listed from the start, at the rating
the arena's ladder of that game measured, and people's early ratings marked provisional ("?" and
a note, as lichess does) for as long as a game still swings them by a hundred points or more."""

import random
import re
from statistics import fmean

import pytest
from django.urls import reverse
from openskill.models import PlackettLuce

from ai import LEVELS, ladder
from games.models import Rating
from games.ratings.rate import starting_rating
from games.ratings.scale import PROVISIONAL_SIGMA, display_rating, is_provisional

MODEL = PlackettLuce()


def table(html: str, testid: str) -> str:
    return html.split(f'data-testid="{testid}"')[1].split("</table>")[0]


def level_rows(html: str) -> list[tuple[str, str]]:
    """(level, rating as read) of the bot levels' table, top to bottom."""
    rows = re.findall(
        r'<tr data-level="(\w+)">.*?<td[^>]*data-rating[^>]*>(.*?)</td>',
        table(html, "leaderboard-bots"),
        re.S,
    )
    return [(level, re.sub(r"<[^>]+>", "", shown)) for level, shown in rows]


@pytest.mark.django_db
def test_before_any_rated_game_the_board_lists_every_level_at_its_ladder_rating(client):
    html = client.get(reverse("leaderboard")).content.decode()
    rows = level_rows(html)
    assert sorted(level for level, _ in rows) == sorted(LEVELS)
    measured = ladder.load()
    for level, shown in rows:
        elo = ladder.starting_elo(level, measured)
        assert shown == str(round(elo)), level  # the arena's number, and no "?"
    # Best first: the ladder's order, strongest at the top.
    numbers = [int(shown) for _, shown in rows]
    assert numbers == sorted(numbers, reverse=True)
    assert rows[0][0] == max(measured, key=measured.get)
    assert rows[-1][0] == min(measured, key=measured.get)


@pytest.mark.django_db
def test_a_level_that_played_shows_its_own_rating_among_the_others_starting_ones(client):
    hard = starting_rating("hard")
    Rating.objects.create(bot_level="hard", mu=hard.mu - 4, sigma=hard.sigma - 1, games=5)
    rows = dict(level_rows(client.get(reverse("leaderboard")).content.decode()))
    assert rows["hard"] == str(display_rating(hard.mu - 4, hard.sigma - 1))
    assert rows["expert"] == str(starting_rating("expert").display)
    assert len(rows) == len(LEVELS)


@pytest.mark.django_db
def test_renaissance_lists_every_level_at_its_renaissance_ladder_rating(client):
    html = client.get(reverse("leaderboard"), {"game": "renaissance"}).content.decode()
    rows = level_rows(html)
    assert sorted(level for level, _ in rows) == sorted(LEVELS)
    measured = ladder.load("renaissance")
    assert measured and measured != ladder.load("condottiere")
    for level, shown in rows:
        # The Renaissance arena's number, and no "?" (`expert` plays `hard` in Renaissance).
        assert shown == str(round(ladder.starting_elo(level, measured))), level
    numbers = [int(shown) for _, shown in rows]
    assert numbers == sorted(numbers, reverse=True)


@pytest.mark.django_db
def test_early_ratings_of_people_are_marked_provisional_with_a_note(client, make_user):
    new, settled = make_user("new"), make_user("settled")
    Rating.objects.create(user=new, mu=28, sigma=PROVISIONAL_SIGMA + 0.5, games=3)
    Rating.objects.create(user=settled, mu=24, sigma=PROVISIONAL_SIGMA - 0.5, games=30)
    html = client.get(reverse("leaderboard")).content.decode()
    people = table(html, "leaderboard-people")

    def shown(username):
        row = re.search(rf'<tr data-username="{username}">(.*?)</tr>', people, re.S).group(1)
        return re.sub(r"<[^>]+>", "", re.search(r"data-rating[^>]*>(.*?)</td>", row, re.S)[1])

    assert shown("new") == f"{Rating.objects.get(user=new).display}?"
    assert shown("settled") == str(Rating.objects.get(user=settled).display)
    assert 'data-testid="provisional-note"' in html and "provisional" in html
    profile = client.get(reverse("player", args=["new"])).content.decode()
    assert re.search(r'data-testid="rating"[^>]*data-provisional>\d+<abbr', profile)
    settled_profile = client.get(reverse("player", args=["settled"])).content.decode()
    assert "data-provisional" not in settled_profile


def career_swings(rng: random.Random, games: int, players: int) -> list[tuple[float, int]]:
    """One newcomer's rated games at random places against settled players: (sigma before the
    game, how far the game moved the shown rating)."""
    mu, sigma = MODEL.mu, MODEL.sigma
    swings = []
    for _ in range(games):
        others = [
            [MODEL.rating(mu=rng.gauss(25, 3), sigma=rng.uniform(3, 6))] for _ in range(players - 1)
        ]
        ranks = rng.sample(range(1, players + 1), players)
        after = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)], *others], ranks=ranks)[0][0]
        swings.append(
            (sigma, abs(display_rating(after.mu, after.sigma) - display_rating(mu, sigma)))
        )
        mu, sigma = after.mu, after.sigma
    return swings


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_mark_lasts_while_a_game_swings_the_rating_by_a_hundred_points(players):
    """What "provisional" promises: while it shows, a game moves the rating by 100 points or more
    on average; once it is gone, by less. OpenSkill itself, many newcomers' first 30 games."""
    rng = random.Random(players)
    swings = [swing for _ in range(150) for swing in career_swings(rng, 30, players)]
    marked = [moved for sigma, moved in swings if is_provisional(sigma)]
    settled = [moved for sigma, moved in swings if not is_provisional(sigma)]
    assert fmean(marked) >= 100 > fmean(settled)
    assert is_provisional(MODEL.sigma)  # a newcomer's first game is provisional
