"""Sybils: a person's own bot accounts rate nobody when they sit at the person's table, and an
account that owns bots cannot become a bot itself (docs/bot-api.md, "Bot accounts")."""

import pytest
from django.urls import reverse

from games.botapi.accounts import BotAccountRefused, upgrade_to_bot
from games.botapi.models import BotAccount
from games.models import Action, Game, RatingChange
from games.ratings import unrated_reason, update_for_game

pytestmark = pytest.mark.django_db


def finished(make_table, people: dict, deciders) -> Game:
    """A finished live game of these seats; each seat in `deciders` made a decision of its own,
    the others were played by the stand-in."""
    game = make_table(len(people), people=people)
    for seq, seat in enumerate(sorted(people), start=1):
        actor = Action.Actor.HUMAN if seat in deciders else Action.Actor.STANDIN
        Action.objects.create(game=game, seq=seq, seat=seat, action={"type": "pass"}, actor=actor)
    regions = [6] + [1] * (len(people) - 1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, result={"winners": [0], "regions": regions}
    )
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("bot_decided", [True, False], ids=["bot-played", "stand-in-played"])
def test_a_table_where_a_person_sits_with_their_own_bot_rates_nobody(
    make_bot, make_user, make_table, bot_decided
):
    """Three seats: the owner, a stranger, and the owner's bot (which passes every turn, or was
    played by the stand-in). The owner and the stranger are two people deciding, yet the owner's
    program fed the owner: nobody's rating may move."""
    owner, stranger = make_user("owner"), make_user("stranger")
    pet = make_bot("pet", owner=owner)
    deciders = {0, 1, 2} if bot_decided else {0, 1}
    game = finished(make_table, {0: owner, 1: stranger, 2: pet}, deciders)

    assert unrated_reason(game) == "own_bots"
    assert update_for_game(game.pk) is False
    assert not RatingChange.objects.exists()


def test_someone_elses_bot_at_the_table_is_rated_as_before(make_bot, make_user, make_table):
    owner, stranger, third = make_user("owner"), make_user("stranger"), make_user("third")
    pet = make_bot("pet", owner=owner)
    game = finished(make_table, {0: stranger, 1: third, 2: pet}, {0, 1, 2})

    assert unrated_reason(game) is None
    assert update_for_game(game.pk) is True


def test_a_person_who_owns_bots_cannot_become_a_bot(make_bot, make_user, client):
    owner = make_user("owner")
    make_bot("pet", owner=owner)
    with pytest.raises(BotAccountRefused) as refused:
        upgrade_to_bot(owner)
    assert refused.value.code == "owns_bots"

    password = owner.password
    client.force_login(owner)
    response = client.post(reverse("botapi_upgrade"), {"confirm": "on"}, follow=True)
    assert "An account that owns bot accounts cannot become a bot" in response.content.decode()
    assert not BotAccount.objects.filter(user=owner).exists()
    owner.refresh_from_db()
    assert owner.password == password  # untouched, and the browser still signed in:
    assert client.get(reverse("profile")).status_code == 200
