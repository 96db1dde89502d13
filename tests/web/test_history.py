# ruff: noqa: F811  (the played_game fixture is imported from test_replay and used by name)
"""The public history (finished live games, filters, pagination), "my games", the replay page's
access rules and the record's: a game in progress is only ever watched live."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from tests.web.test_replay import played_game  # noqa: F401  (a fixture)


@pytest.fixture
def finished(make_table):
    """A finished game without a log (the history only lists games): finished(players, ...)."""
    moment = iter(range(10_000))

    def make(players=2, *, people=None, bots=None, options=None, source=Game.Source.LIVE):
        game = make_table(players, people=people, bots=bots, options=options)
        at = timezone.now() - datetime.timedelta(days=1) + datetime.timedelta(minutes=next(moment))
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED,
            source=source,
            finished_at=at,
            version=42,
            result={
                "winners": [0],
                "regions": [6, 1][:players] + [0] * (players - 2),
                "reason": "total",
            },
        )
        return game

    return make


def listed(response) -> list[int]:
    return [row["game"].pk for row in response.context["rows"]]


def test_history_is_public_and_lists_finished_live_games_newest_first(
    client, finished, make_table, make_user
):
    alice = make_user("alice")
    older = finished(people={0: alice}, bots={1: "easy"})
    newer = finished(people={0: alice}, bots={1: "hard"})
    finished(people={0: alice}, bots={1: "easy"}, source=Game.Source.IMPORTED)
    make_table(2, people={0: alice}, bots={1: "easy"})  # open: not history

    response = client.get(reverse("history"))

    assert response.status_code == 200
    assert listed(response) == [newer.pk, older.pk]
    page = response.content.decode()
    assert reverse("replay", args=[newer.pk]) in page
    assert reverse("game_record", args=[newer.pk]) in page
    assert "alice" in page


def test_history_filters_by_player_bots_count_and_rules(client, finished, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    people_only = finished(people={0: alice, 1: bob})
    with_easy = finished(people={0: alice}, bots={1: "easy"})
    with_hard_3p = finished(
        3, people={0: bob}, bots={1: "hard", 2: "hard"}, options={"hidden_cards": True}
    )
    draw = finished(
        people={0: carol, 1: bob}, options={"draw_after_battle": True, "hidden_cards": True}
    )

    def query(**params):
        return listed(client.get(reverse("history"), params))

    assert set(query(player="ALICE")) == {people_only.pk, with_easy.pk}
    assert set(query(bots="with")) == {with_easy.pk, with_hard_3p.pk}
    assert set(query(bots="without")) == {people_only.pk, draw.pk}
    assert query(bots="level:hard") == [with_hard_3p.pk]
    assert query(players="3") == [with_hard_3p.pk]
    assert set(query(hidden_cards="on")) == {with_hard_3p.pk, draw.pk}
    assert set(query(hidden_cards="off")) == {people_only.pk, with_easy.pk}
    assert query(hidden_cards="on", draw_after_battle="on", player="bob") == [draw.pk]
    assert query(hidden_cards="on", draw_after_battle="off") == [with_hard_3p.pk]


def test_imported_games_appear_only_when_the_filter_asks(client, finished, make_user):
    live = finished(people={0: make_user()}, bots={1: "easy"})
    imported = finished(bots={0: "easy", 1: "easy"}, source=Game.Source.IMPORTED)

    assert listed(client.get(reverse("history"))) == [live.pk]
    assert listed(client.get(reverse("history"), {"source": "imported"})) == [imported.pk]
    assert set(listed(client.get(reverse("history"), {"source": "all"}))) == {live.pk, imported.pk}


def test_history_paginates_by_20_and_keeps_the_filters_in_the_links(client, finished, make_user):
    alice = make_user("alice")
    games = [finished(people={0: alice}, bots={1: "easy"}) for _ in range(23)]
    finished(people={0: make_user()}, bots={1: "easy"})  # filtered out

    first = client.get(reverse("history"), {"player": "alice"})
    second = client.get(reverse("history"), {"player": "alice", "page": 2})

    newest_first = [game.pk for game in reversed(games)]
    assert listed(first) == newest_first[:20]
    assert listed(second) == newest_first[20:]
    assert "?player=alice&amp;page=2" in first.content.decode()
    assert "?player=alice&amp;page=1" in second.content.decode()


def test_my_games_needs_a_login_and_shows_every_status(client, finished, make_table, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    done = finished(people={0: alice}, bots={1: "easy"})
    open_table = make_table(2, people={0: alice})
    playing = make_table(2, people={0: alice}, bots={1: "easy"})
    Game.objects.filter(pk=playing.pk).update(status=Game.Status.PLAYING)
    finished(people={0: bob}, bots={1: "easy"})  # not alice's

    assert client.get(reverse("my_games")).status_code == 302
    client.force_login(alice)
    response = client.get(reverse("my_games"))

    assert set(listed(response)) == {done.pk, open_table.pk, playing.pk}
    page = response.content.decode()
    assert reverse("game", args=[playing.pk]) in page  # watch live
    assert reverse("table_detail", args=[open_table.pk]) in page
    assert reverse("replay", args=[done.pk]) in page


def test_replay_page_of_a_finished_game_and_redirect_for_one_in_progress(client, played_game):
    done = played_game(2, seed=7)
    going = played_game(2, seed=8, stop_after=5)
    assert going.status == Game.Status.PLAYING

    page = client.get(reverse("replay", args=[done.pk]))
    live = client.get(reverse("replay", args=[going.pk]), follow=True)

    assert page.status_code == 200
    assert b"js/replay.js" in page.content
    assert live.redirect_chain == [(reverse("game", args=[going.pk]), 302)]
    assert "watch it live" in live.content.decode()


def test_no_record_or_frames_for_a_game_in_progress(client, played_game, make_user):
    going = played_game(2, seed=8, stop_after=5)
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)

    assert client.get(reverse("game_record", args=[going.pk])).status_code == 404
    assert client.get(reverse("replay_frames", args=[going.pk])).status_code == 404


def test_the_game_page_of_a_finished_game_links_to_its_replay(client, played_game):
    done = played_game(2, seed=7)

    page = client.get(reverse("game", args=[done.pk])).content.decode()

    assert reverse("replay", args=[done.pk]) in page
