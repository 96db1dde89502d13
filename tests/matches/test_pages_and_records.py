"""The match page, its JSON for the game page, the lists that show matches, and the match's
record: exported as one record and imported back through the history's import page."""

import json

import pytest
from django.urls import reverse

from games.matches import services
from games.matches.models import Match
from games.matches.records import FORMAT
from games.matches.services import advance, say_ready
from games.models import Game
from tests.matches.conftest import play_to_the_end
from tests.web.test_renaissance_records import written

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished_match(make_user, announced):
    """A match to 5 of Alice against a random bot, played to its end (each game by random legal
    moves; "ready" after each, so the next starts at once)."""
    alice = make_user("alice")
    match = services.create_match_against_bots(alice, 1, "random", target=5)
    for seed in range(20):
        game = play_to_the_end(match.entries.order_by("-number")[0].game_id, seed)
        advance(game.pk)
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        say_ready(match.pk, alice)
    raise AssertionError("a match to 5 points should end within a few games")


def test_the_match_page_shows_standings_replays_and_the_result(client, finished_match):
    page = client.get(reverse("match", args=[finished_match.pk])).content.decode()
    assert 'data-testid="match-standings"' in page
    for entry in finished_match.entries.all():
        assert reverse("replay", args=[entry.game_id]) in page
    assert "won the match" in page
    for total in finished_match.result["points"]:
        assert f"<strong>{total}</strong>" in page


def test_each_game_is_listed_under_the_names_it_was_played_by(client, make_user, announced):
    """The header names the seats as they play now; a game whose seat another name played (a
    stand-in for an account gone since) says that name in its cell, and no other game does."""
    alice = make_user("alice")
    match = services.create_match_against_bots(alice, 1, "random", target=100)
    first = play_to_the_end(match.entries.get().game_id, 3)
    advance(first.pk)
    say_ready(match.pk, alice)
    bot = first.seats.get(index=1)
    bot.bot_name = "Sforza" if bot.condottiere != "Sforza" else "Orsini"
    bot.save(update_fields=["bot_name"])

    rows = client.get(reverse("match_json", args=[match.pk])).json()["match"]["games"]

    played_by = [[cell["name"] for cell in row["cells"] if cell["renamed"]] for row in rows]
    assert played_by == [[bot.occupant_name()], []]
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert page.count("data-played-by") == 1


def test_the_game_pages_json_tells_the_match_or_null(client, finished_match, make_user):
    game = finished_match.entries.get(number=1).game
    data = client.get(reverse("match_of_game", args=[game.pk])).json()
    assert data["match"]["totals"] == finished_match.result["points"]
    assert data["match"]["games"][0]["replay_url"] == reverse("replay", args=[game.pk])
    assert data["labels"]["ready"] == "Ready for the next game"
    lone = services.play_against_bots(make_user(), 1, "random")
    assert client.get(reverse("match_of_game", args=[lone.pk])).json() == {"match": None}


def test_the_lobby_history_and_list_show_matches(client, make_user, announced, finished_match):
    client.force_login(make_user())
    playing = services.create_match_against_bots(make_user(), 1, "random", target=20)
    lobby = client.get(reverse("lobby")).content.decode()
    assert reverse("match", args=[playing.pk]) in lobby
    history = client.get(reverse("history")).content.decode()
    assert f"Match {finished_match.pk}, game 1" in history
    listing = client.get(reverse("matches")).content.decode()
    assert reverse("match", args=[finished_match.pk]) in listing


def test_a_match_exports_as_one_record_and_imports_back(client, finished_match):
    response = client.get(reverse("match_record", args=[finished_match.pk]))
    record = json.loads(response.content)
    entries = list(finished_match.entries.order_by("number"))
    assert (record["format"], record["target"], record["players"]) == (FORMAT, 5, 2)
    assert [game["points"] for game in record["games"]] == [
        None if entry.decider else entry.points for entry in entries
    ]
    assert all(game["record"]["format"] == "condottiere-game-record" for game in record["games"])
    assert record["result"] == finished_match.result

    client.force_login(finished_match.created_by)
    tampered = {**record, "result": {**record["result"], "points": [0, 0]}}
    refused = client.post(reverse("import_record"), {"text": json.dumps(tampered)})
    assert refused.status_code == 400
    assert "is not the one its games give" in refused.content.decode()
    assert Match.objects.count() == 1 and Game.objects.count() == len(entries)  # nothing kept

    imported = client.post(reverse("import_record"), {"text": json.dumps(record)})
    copy = Match.objects.exclude(pk=finished_match.pk).get()
    assert imported.status_code == 302 and imported.url == reverse("match", args=[copy.pk])
    assert (copy.source, copy.status, copy.result) == ("imported", "finished", record["result"])
    assert [entry.points for entry in copy.entries.order_by("number")] == [
        entry.points for entry in entries
    ]


def test_a_match_in_progress_has_no_record(client, make_user, announced):
    match = services.create_match_against_bots(make_user(), 1, "random", target=20)
    assert client.get(reverse("match_record", args=[match.pk])).status_code == 404


def test_a_match_record_holding_a_renaissance_game_is_refused(client, finished_match):
    """Matches for points are Condottiere's: a match record whose game is a Renaissance record
    is refused with a clear error before it is scored, and nothing is kept."""
    record = json.loads(client.get(reverse("match_record", args=[finished_match.pk])).content)
    first = record["games"][0]
    first["record"] = {**written(seed=5, players=3), "seats": first["record"]["seats"]}
    client.force_login(finished_match.created_by)
    games_before = Game.objects.count()
    refused = client.post(reverse("import_record"), {"text": json.dumps(record)})
    assert refused.status_code == 400
    assert "only Condottiere is played in matches" in refused.content.decode()
    assert Match.objects.count() == 1 and Game.objects.count() == games_before
