"""The Django admin: every model is there, lists filter and search, and the staff's actions do
what they say (abort only unfinished games, hand a person's seat to a stand-in, recompute
ratings). A game's snapshot, which holds every hidden card, never reaches the page."""

from datetime import timedelta

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

import games.services.lifecycle as lifecycle
from games.analysis.models import Analysis
from games.models import Action, Game, Presence, Rating, RatingChange, Seat
from games.ratings.rate import starting_mu
from games.services import GameNotPlaying, submit_action
from games.services.lifecycle import abort_game
from tests.web.conftest import site_models

pytestmark = pytest.mark.django_db


@pytest.fixture
def notices(monkeypatch):
    """The notices the abort service sends after the commit, recorded instead of sent."""
    sent = []
    monkeypatch.setattr(lifecycle, "notify_table", lambda group, v: sent.append((group, v)))
    monkeypatch.setattr(lifecycle, "notify_lobby_now", lambda: sent.append(("lobby", None)))
    return sent


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def listed(response) -> set[int]:
    return {obj.pk for obj in response.context["cl"].result_list}


def run_action(client, model, action: str, ids, **post):
    # As the changelist's form posts it: the action, the ticked rows, the form's index.
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(i) for i in ids], "index": "0", **post}
    return client.post(changelist(model), data, follow=True)


def set_status(game, status, **fields):
    Game.objects.filter(pk=game.pk).update(status=status, **fields)
    game.refresh_from_db()
    return game


def test_every_model_of_the_site_is_in_the_admin():
    for model in site_models():
        assert admin.site.is_registered(model), model.__name__


def test_every_changelist_loads_with_search(staff_client, make_user, make_table):
    alice = make_user("alice")
    game = make_table(2, people={0: alice}, bots={1: "hard"})
    Action.objects.create(game=game, seq=1, seat=1, action={"type": "pass"}, actor="bot")
    Presence.objects.create(channel_name="c", user=alice, game=game)
    Analysis.objects.create(game=game, iterations=30, requested_by=alice)
    for model in site_models():
        for query in ({}, {"q": "alice"}, {"q": str(game.pk)}):
            response = staff_client.get(changelist(model), query)
            assert response.status_code == 200, (model.__name__, query)


def test_games_filter_by_status_players_source_and_each_optional_rule(staff_client, make_table):
    plain = make_table(2)
    hidden = make_table(3, options={"hidden_cards": True})
    both = make_table(3, options={"hidden_cards": True, "bigger_kingdoms": True})
    set_status(both, Game.Status.FINISHED, source=Game.Source.IMPORTED)
    url = changelist(Game)

    assert listed(staff_client.get(url, {"option_hidden_cards": "yes"})) == {hidden.pk, both.pk}
    assert listed(staff_client.get(url, {"option_hidden_cards": "no"})) == {plain.pk}
    assert listed(staff_client.get(url, {"option_bigger_kingdoms": "yes"})) == {both.pk}
    assert listed(staff_client.get(url, {"status__exact": "finished"})) == {both.pk}
    assert listed(staff_client.get(url, {"players": "3"})) == {hidden.pk, both.pk}
    assert listed(staff_client.get(url, {"source__exact": "imported"})) == {both.pk}


def test_games_are_found_by_player_invite_code_and_number(staff_client, make_user, make_table):
    alice = make_user("alice")
    hers = make_table(2, people={1: alice})
    other = make_table(2)
    url = changelist(Game)
    assert listed(staff_client.get(url, {"q": "alice"})) == {hers.pk}
    assert listed(staff_client.get(url, {"q": other.invite_code})) == {other.pk}
    assert other.pk in listed(staff_client.get(url, {"q": f"#{other.pk}"}))


def test_seats_filter_by_bot_level_and_actions_by_actor(staff_client, make_user, make_table):
    game = make_table(3, people={0: make_user()}, bots={1: "hard", 2: "easy"})
    Action.objects.create(game=game, seq=1, seat=0, action={"type": "pass"}, actor="human")
    bot_move = Action.objects.create(game=game, seq=2, seat=1, action={"type": "pass"}, actor="bot")
    hard = Seat.objects.get(game=game, index=1)
    assert listed(staff_client.get(changelist(Seat), {"bot_level": "hard"})) == {hard.pk}
    assert len(listed(staff_client.get(changelist(Seat), {"bot_level": "none"}))) == 1
    assert listed(staff_client.get(changelist(Action), {"actor__exact": "bot"})) == {bot_move.pk}


def test_the_snapshot_never_appears_on_a_game_page(
    staff_client, make_user, make_table, start_stacked
):
    game = start_stacked(make_table(3, people={0: make_user()}, bots={1: "easy", 2: "easy"}))
    deal = str(game.snapshot)[:80]  # the start of the full state: seed, hands, deck
    for status in (Game.Status.PLAYING, Game.Status.FINISHED):
        set_status(game, status)
        html = staff_client.get(reverse("admin:games_game_change", args=[game.pk])).content
        html = html.decode()
        assert "hands" not in html and "deck" not in html
        assert deal not in html and deal.replace('"', "&quot;") not in html
        assert "snapshot" not in html.lower()


def test_a_game_in_progress_hides_its_seed_until_it_is_over(staff_client, make_table):
    game = set_status(make_table(2), Game.Status.PLAYING)
    page = lambda: staff_client.get(reverse("admin:games_game_change", args=[game.pk]))  # noqa: E731
    assert str(game.seed) not in page().content.decode()
    set_status(game, Game.Status.FINISHED)
    assert str(game.seed) in page().content.decode()


def test_abort_changes_only_open_and_playing_games_and_tells_their_sockets(
    staff_client, make_table, notices, django_capture_on_commit_callbacks
):
    open_table = make_table(2)
    playing = set_status(make_table(2), Game.Status.PLAYING, version=7)
    finished = set_status(make_table(2), Game.Status.FINISHED, finished_at=timezone.now())
    ids = [open_table.pk, playing.pk, finished.pk]

    with django_capture_on_commit_callbacks(execute=True):
        response = run_action(staff_client, Game, "abort_games", ids)

    assert response.status_code == 200
    statuses = dict(Game.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert statuses == {open_table.pk: "aborted", playing.pk: "aborted", finished.pk: "finished"}
    for game in (open_table, playing):
        game.refresh_from_db()
        assert game.finished_at is not None
    before = finished.finished_at
    finished.refresh_from_db()
    assert finished.finished_at == before
    # Each game is aborted through the service: its sockets and the lobby hear of each one.
    assert sorted(notices, key=str) == sorted(
        [
            (open_table.group_name(), 0),
            (playing.group_name(), 7),
            ("lobby", None),
            ("lobby", None),
        ],
        key=str,
    )


def test_the_abort_goes_through_the_service_which_stops_the_clock_and_refuses_later_moves(
    staff_client, make_user, make_table, start_stacked, notices, django_capture_on_commit_callbacks
):
    game = start_stacked(make_table(2, people={0: make_user("alice"), 1: make_user("bob")}))
    soon = timezone.now() + timedelta(seconds=60)
    set_status(game, Game.Status.PLAYING, turn_seconds=60, turn_deadline=soon, autofill_at=soon)

    with django_capture_on_commit_callbacks(execute=True):
        run_action(staff_client, Game, "abort_games", [game.pk])

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.turn_deadline is None and game.autofill_at is None
    # The hints are the service's (the fixture records games.services.lifecycle's).
    assert sorted(notices, key=str) == sorted(
        [(game.group_name(), game.version), ("lobby", None)], key=str
    )
    with pytest.raises(GameNotPlaying):
        submit_action(game.pk, 0, {"type": "pass"}, game.version)
    # Once over, the service leaves it alone and says so.
    assert abort_game(game.pk) is False
    assert abort_game(0) is False


def test_hand_a_seat_to_a_stand_in(staff_client, make_user, make_table, start_stacked):
    alice = make_user("alice")
    game = start_stacked(make_table(2, people={0: alice}, bots={1: "easy"}))
    hers, bot = Seat.objects.get(game=game, index=0), Seat.objects.get(game=game, index=1)

    response = run_action(staff_client, Seat, "hand_to_standin", [hers.pk, bot.pk])

    hers.refresh_from_db()
    bot.refresh_from_db()
    assert hers.standin and hers.user == alice  # the seat keeps its person
    assert not bot.standin  # a bot's seat has no person to stand in for
    assert f"{game.pk}:1" in response.content.decode()  # reported as not handed


def test_recompute_ratings_rates_every_finished_live_game(staff_client, make_user, make_table):
    alice = make_user("alice")
    game = make_table(3, people={0: alice, 2: make_user("bob")}, bots={1: "hard"})
    for seat in (
        0,
        2,
    ):  # only games whose people decided themselves are rated (games/ratings/rate.py)
        Action.objects.create(
            game=game, seq=seat + 1, seat=seat, action={"type": "pass"}, actor="human"
        )
    set_status(
        game,
        Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={"winners": [0], "regions": [3, 1, 0], "reason": "regions"},
    )
    # A stale rating that a recompute must wipe: nobody played as "easy".
    Rating.objects.create(bot_level="easy", mu=20, sigma=5)

    # No row ticked: the action acts on all the ratings anyway.
    response = run_action(staff_client, Rating, "recompute_ratings", [])

    assert response.status_code == 200
    assert set(RatingChange.objects.filter(game=game).values_list("seat", flat=True)) == {0, 1, 2}
    assert not Rating.objects.filter(bot_level="easy").exists()
    # Rated from the ratings' starting points (not against each other: a bot level starts at its
    # ladder strength, which moves): the winner rose, the last (bob, no region) fell.
    hers, bobs = Rating.objects.get(user=alice), Rating.objects.get(user__username="bob")
    assert hers.games == 1 and hers.mu > starting_mu(None)
    assert bobs.games == 1 and bobs.mu < starting_mu(None)
    assert Rating.objects.get(bot_level="hard").games == 1


def test_private_moves_show_only_their_public_record_until_the_game_is_over(
    staff_client, make_table
):
    game = set_status(make_table(2), Game.Status.PLAYING, version=1)
    Action.objects.create(
        game=game,
        seq=1,
        seat=0,
        action={"type": "play", "card": "heroine"},
        public={"type": "play", "card": "face-down"},
        actor="human",
    )
    pages = (reverse("admin:games_game_change", args=[game.pk]), changelist(Action))
    for url in pages:
        html = staff_client.get(url).content.decode()
        assert "heroine" not in html and "face-down" in html
    set_status(game, Game.Status.FINISHED)
    for url in pages:
        assert "heroine" in staff_client.get(url).content.decode()


# --- Secrets stay out of reach of the URL's filters ---------------------------------------------


SECRET_LOOKUPS = [
    (Game, "snapshot__contains", '"hands"'),
    (Game, "seed", "1"),
    (Game, "seed__gt", "0"),
    (Game, "actions__action__card", "m10"),
    (Seat, "game__snapshot__icontains", "m10"),
    (Seat, "game__seed__lt", "0"),
    (Action, "action__card", "m10"),
    (Action, "action__contains", '{"card": "m10"}'),
    (Action, "game__snapshot__contains", "m10"),
    (RatingChange, "game__seed", "1"),
    (Analysis, "game__snapshot__contains", "m10"),
    (Analysis, "game__seed__gt", "0"),
]


@pytest.mark.parametrize(("model", "lookup", "value"), SECRET_LOOKUPS)
def test_a_filter_on_a_secret_in_the_url_is_refused(staff_client, make_table, model, lookup, value):
    """Staff may filter by what the lists show; a filter on the snapshot, the seed or a move's
    hidden card would let them read a live game's secrets one yes/no at a time."""
    make_table(2, bots={0: "random", 1: "random"})
    response = staff_client.get(changelist(model), {lookup: value})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("model", "lookup", "value"),
    [(Game, "status", "playing"), (Seat, "standin__exact", "1"), (Action, "actor", "bot")],
)
def test_the_ordinary_filters_still_work(staff_client, make_table, model, lookup, value):
    make_table(2, bots={0: "random", 1: "random"})
    assert staff_client.get(changelist(model), {lookup: value}).status_code == 200
