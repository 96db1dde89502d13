"""Bot accounts have their own table on the leaderboard, apart from people and the site's bots."""

from django.test import Client

from ai import LEVELS
from games.accounts.deletion import delete_account
from games.models import Action, Game, Rating
from games.ratings.rate import unrated_reason


def test_bot_accounts_are_ranked_apart_from_people_and_bot_levels(make_bot, make_user, db):
    person = make_user("person")
    bot = make_bot("robot")
    Rating.objects.create(user=person, mu=25, sigma=8, games=3)
    Rating.objects.create(user=bot, mu=30, sigma=8, games=3)
    Rating.objects.create(bot_level="random", mu=20, sigma=8, games=3)
    response = Client().get("/leaderboard/")
    people = [row["rating"].user.username for row in response.context["people"]]
    api_bots = [row["rating"].user.username for row in response.context["api_bots"]]
    levels = [row["rating"].bot_level for row in response.context["bots"]]
    assert (people, api_bots) == (["person"], ["robot"])
    assert sorted(levels) == sorted(LEVELS)  # every level of the site, rated or not yet
    page = response.content.decode()
    table = page[page.index('data-testid="leaderboard-api-bots"') :]
    assert 'data-username="robot"' in table and 'data-testid="bot-badge"' in table


def test_a_deleted_account_leaves_the_board_and_its_rating_row_stays(make_bot, make_user, db):
    gone, kept = make_user("gone"), make_user("kept")
    Rating.objects.create(user=gone, mu=40, sigma=8, games=3)
    Rating.objects.create(user=kept, mu=25, sigma=8, games=3)
    delete_account(gone)
    response = Client().get("/leaderboard/")
    assert [row["rating"].user_id for row in response.context["people"]] == [kept.pk]
    assert Rating.objects.filter(user=gone).exists()  # others' ratings rest on it


def test_a_game_against_ones_own_bot_account_is_not_rated(make_bot, make_user, make_table, db):
    owner, stranger = make_user("owner"), make_user("stranger")
    own_bot = make_bot("pet", owner=owner)

    def finished_duel(first, second):
        game = make_table(2, people={0: first, 1: second})
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED, result={"winners": [0], "regions": [6, 1]}
        )
        for seq, seat in ((1, 0), (2, 1)):
            Action.objects.create(game=game, seq=seq, seat=seat, action={}, actor="human")
        return Game.objects.get(pk=game.pk)

    assert unrated_reason(finished_duel(owner, own_bot)) == "own_bots"
    assert unrated_reason(finished_duel(stranger, own_bot)) is None
    assert unrated_reason(finished_duel(owner, stranger)) is None
