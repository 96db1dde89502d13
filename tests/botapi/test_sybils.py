"""Sybils: a person's own bot accounts rate nobody when they sit at the person's table, and an
account that owns bots cannot become a bot itself (docs/bot-api.md, "Bot accounts")."""

import pytest
from django.urls import reverse

from games.botapi.accounts import (
    MAX_BOTS_PER_OWNER,
    BotAccountRefused,
    create_bot_account,
    upgrade_to_bot,
)
from games.botapi.models import BotAccount
from games.models import Action, Game, RatingChange, User
from games.ratings.rate import unrated_reason, update_for_game
from tests.services import require_postgresql
from tests.web.together import send_together

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


# --- Made together -----------------------------------------------------------------------------


def outcome(call) -> str:
    try:
        call()
    except BotAccountRefused as refused:
        return refused.code
    return "done"


@pytest.mark.django_db(transaction=True)
def test_becoming_a_bot_and_making_one_at_the_same_instant_never_both_pass(make_user):
    """Two tabs of one person: "turn this account into a bot" and "make a bot account", sent
    together. One of the two is refused: a bot never owns a bot."""
    require_postgresql()
    for round_number in range(6):
        person = make_user(f"person{round_number}")
        results = send_together(2, upgrade_or_make_a_bot(person, f"pet{round_number}"))
        assert results.count("done") == 1, results
        owns = BotAccount.objects.filter(owner=person).exists()
        is_bot = BotAccount.objects.filter(user=person).exists()
        assert owns != is_bot


def upgrade_or_make_a_bot(person, bot_name: str):
    def send(index: int) -> str:
        me = User.objects.get(pk=person.pk)  # each request reads its own user
        if index == 0:
            return outcome(lambda: upgrade_to_bot(me))
        return outcome(lambda: create_bot_account(me, bot_name))

    return send


@pytest.mark.django_db(transaction=True)
def test_bots_made_together_stop_at_the_cap(make_user):
    require_postgresql()
    owner = make_user("owner")
    tries = MAX_BOTS_PER_OWNER + 5

    def send(index: int) -> str:
        me = User.objects.get(pk=owner.pk)
        return outcome(lambda: create_bot_account(me, f"bot{index}"))

    results = send_together(tries, send)
    assert results.count("done") == MAX_BOTS_PER_OWNER, results
    assert set(results) == {"done", "too_many_bots"}
    assert BotAccount.objects.filter(owner=owner).count() == MAX_BOTS_PER_OWNER
