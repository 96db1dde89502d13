"""The staff's pages with two games: the admin filters games (and seats, actions, ratings) by
game and shows each game's ruleset and options in its own words; Condottiere's optional rules
filter Condottiere games only and are not offered for Renaissance; the secrets stay hidden as
before. The dashboard gives its game counts and bots' win rates per game."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Action, Game, Rating, Seat
from games.staff import dashboard

pytestmark = pytest.mark.django_db

GAMES = reverse("admin:games_game_changelist")
RATINGS = reverse("admin:games_rating_changelist")


def renaissance_game(players=4, *, status=Game.Status.OPEN, options=None, **fields) -> Game:
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE,
        players=players,
        options=options or {},
        seed=1454,
        status=status,
        **fields,
    )
    for index in range(players):
        Seat.objects.create(game=game, index=index)
    return game


def listed(response) -> set[int]:
    return {row.pk for row in response.context["cl"].result_list}


@pytest.fixture
def both(make_table):
    """A Condottiere game with Hidden Cards, one without, and a Renaissance game (1494)."""
    hidden = make_table(3, options={"hidden_cards": True})
    plain = make_table(3)
    renaissance = renaissance_game(options={"scenario": "1494", "powers": True})
    return hidden, plain, renaissance


# --- The admin ----------------------------------------------------------------------------------


def test_the_game_list_filters_by_game_and_names_each_game(staff_client, both):
    hidden, plain, renaissance = both

    every = staff_client.get(GAMES)
    only_renaissance = staff_client.get(GAMES, {"ruleset__exact": "renaissance"})
    only_condottiere = staff_client.get(GAMES, {"ruleset__exact": "condottiere"})

    assert listed(every) == {hidden.pk, plain.pk, renaissance.pk}
    assert listed(only_renaissance) == {renaissance.pk}
    assert listed(only_condottiere) == {hidden.pk, plain.pk}
    page = every.content.decode()
    assert "Renaissance" in page and "Condottiere" in page
    assert "Scenario 1494" in page and "Hidden Cards" in page


def test_condottiere_s_optional_rules_filter_condottiere_games_only(staff_client, both):
    hidden, plain, _renaissance = both

    on = staff_client.get(GAMES, {"option_hidden_cards": "yes"})
    off = staff_client.get(GAMES, {"option_hidden_cards": "no"})

    assert listed(on) == {hidden.pk}
    assert listed(off) == {plain.pk}  # a Renaissance game has no such rule, on or off


def test_the_optional_rules_filters_are_not_offered_for_renaissance(staff_client, both):
    every = staff_client.get(GAMES).content.decode()
    renaissance = staff_client.get(GAMES, {"ruleset__exact": "renaissance"}).content.decode()

    assert "option_hidden_cards" in every
    assert "option_hidden_cards" not in renaissance


def test_a_renaissance_game_page_shows_its_game_and_options_never_its_secrets(staff_client):
    game = renaissance_game(
        status=Game.Status.PLAYING, options={"remove": "milan"}, snapshot='{"secret": 1}'
    )
    Action.objects.create(
        game=game, seq=1, seat=0, action={"type": "offer_exchange", "to": 1}, public=None
    )

    page = staff_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()

    assert "Renaissance" in page and "Without Milan" in page
    assert '"secret"' not in page and "offer_exchange" not in page
    assert "1454</" not in page  # the seed of a game in progress


def test_a_secret_still_cannot_be_asked_of_the_list(staff_client, both):
    assert (
        staff_client.get(GAMES, {"seed__gt": "0", "ruleset__exact": "renaissance"}).status_code
        == 400
    )


def test_seats_and_actions_filter_by_game(staff_client, both):
    hidden, _plain, renaissance = both
    seats = staff_client.get(
        reverse("admin:games_seat_changelist"), {"game__ruleset__exact": "renaissance"}
    )

    assert {seat.game_id for seat in seats.context["cl"].result_list} == {renaissance.pk}
    assert hidden.pk not in {seat.game_id for seat in seats.context["cl"].result_list}


def test_ratings_are_listed_and_filtered_by_game(staff_client, make_user):
    person = make_user()
    at_condottiere = Rating.objects.create(user=person, mu=25, sigma=8)
    at_renaissance = Rating.objects.create(user=person, ruleset="renaissance", mu=30, sigma=8)

    every = staff_client.get(RATINGS)
    only_renaissance = staff_client.get(RATINGS, {"ruleset__exact": "renaissance"})

    assert listed(every) == {at_condottiere.pk, at_renaissance.pk}
    assert listed(only_renaissance) == {at_renaissance.pk}
    assert "Renaissance" in every.content.decode()


# --- The dashboard ------------------------------------------------------------------------------


def finish(game: Game, winners=(0,)) -> None:
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now(), result={"winners": list(winners)}
    )


def test_the_dashboard_counts_games_per_game(make_table):
    make_table(2)  # open
    playing = make_table(2)
    Game.objects.filter(pk=playing.pk).update(status=Game.Status.PLAYING)
    renaissance_game(status=Game.Status.PLAYING)
    renaissance_game(status=Game.Status.PLAYING)
    finish(renaissance_game())
    finish(make_table(2))
    imported = renaissance_game(source=Game.Source.IMPORTED)
    finish(imported)  # not played here: not counted

    rows = {row["ruleset"]: row for row in dashboard.games_per_ruleset()}

    assert [row["ruleset"] for row in dashboard.games_per_ruleset()] == [
        "condottiere",
        "renaissance",
    ]
    assert {k: rows["condottiere"][k] for k in ("playing", "open", "finished")} == {
        "playing": 1,
        "open": 1,
        "finished": 1,
    }
    assert {k: rows["renaissance"][k] for k in ("playing", "open", "finished")} == {
        "playing": 2,
        "open": 0,
        "finished": 1,
    }
    assert dashboard.open_tables_count("renaissance") == 0
    assert len(dashboard.games_in_progress("renaissance")) == 2
    assert sum(day["count"] for day in dashboard.finished_per_day(ruleset="renaissance")) == 1
    assert sum(day["count"] for day in dashboard.finished_per_day()) == 2


def test_bot_win_rates_are_given_per_game(make_table):
    condottiere = make_table(2, bots={0: "hard", 1: "easy"})
    finish(condottiere, winners=[0])
    renaissance = renaissance_game(3)
    Seat.objects.filter(game=renaissance).update(bot_level="hard")
    finish(renaissance, winners=[1])

    at_condottiere = {row["level"]: row for row in dashboard.bot_win_rates("condottiere")}
    at_renaissance = {row["level"]: row for row in dashboard.bot_win_rates("renaissance")}

    assert at_condottiere["hard"]["win_rate"] == 1.0
    assert at_renaissance["hard"]["seats"] == 3 and at_renaissance["hard"]["wins"] == 1.0
    assert dashboard.bot_win_rates()[-1]["seats"] == 4  # every game together, as before


def test_the_dashboard_page_shows_the_figures_of_each_game(staff_client, make_table):
    renaissance_game(status=Game.Status.PLAYING)
    make_table(2)

    page = staff_client.get(reverse("staff_dashboard")).content.decode()

    def figure(name):
        return re.search(rf'data-figure="{name}">\s*([^<\s]+)', page).group(1)

    assert (figure("playing-renaissance"), figure("open-tables-renaissance")) == ("1", "0")
    assert (figure("playing-condottiere"), figure("open-tables-condottiere")) == ("0", "1")
    assert figure("playing") == "1"  # all games together, as before
