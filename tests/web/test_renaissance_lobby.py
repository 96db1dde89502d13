"""Renaissance tables in the lobby, and what stays Condottiere's.

Written from the lobby's rules (a table plays one game, chosen when it is opened; quick play
seats you only at a table of the same game, players and rules; a refused request says why and
changes nothing) and from the rulebook's (docs/renaissance/rules.md, "Player counts": three to
six players; with four, Genoa and either Naples or Milan stay out, the players choose; the
historical scenarios are for four to six players, ruling R47). Matches for points and the
computer's analysis are Condottiere's only (games.rules_api: `plays_matches`, `analysed`).
"""

import pytest
from django.urls import reverse
from django.utils import translation

from games.actors.bot_turn import run_bot_turn
from games.analysis.models import Analysis
from games.lobby import tables as lobby
from games.lobby.tables import LobbyError, SeatPlan
from games.matches import services as match_services
from games.matches.models import Match
from games.models import Action, Game, Seat
from games.rules_api import RENAISSANCE, ruleset_of
from games.services import load_state
from games.sockets.lobby import tables_frame
from tests.web.renaissance_games import people_table, play_to_the_end

pytestmark = pytest.mark.django_db

SIX_LEVELS = ("random", "easy", "heuristic", "medium", "hard", "expert")


@pytest.fixture(autouse=True)
def no_timers(monkeypatch):
    """Autofill timers are recorded, not started: the tests call the autofill themselves."""
    monkeypatch.setattr(lobby, "schedule_autofill", lambda pk, when: None)


def nations_in_play(game: Game) -> list[str]:
    return RENAISSANCE.view_for(load_state(game), None)["public"]["nations"]


def nothing_changed():
    return list(Game.objects.values_list("pk", "status")), Seat.objects.count()


# --- Opening and joining a table ----------------------------------------------------------------


def test_a_renaissance_table_is_opened_with_its_options_and_shown_as_one(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(
        reverse("table_new"),
        {
            "game": "renaissance",
            "players": 4,
            "seat_0_kind": "me",
            "seat_1_kind": "open",
            "seat_2_kind": "open",
            "seat_3_kind": "bot",
            "seat_3_level": "heuristic",
            "powers": "on",
            "remove": "milan",
            "turn_seconds": "60",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("table_detail", args=[game.pk])
    assert game.ruleset == "renaissance" and game.status == Game.Status.OPEN
    assert game.options == {"powers": True, "remove": "milan"}
    assert game.turn_seconds == 60

    page = client.get(response.url).content.decode()
    assert 'data-ruleset="renaissance"' in page
    assert "Nations&#x27; powers" in page and "Without Milan" in page


def test_the_table_starts_when_the_invited_take_their_seats_with_the_chosen_nation_out(
    client, make_user
):
    alice, bob, carol, dave = (make_user(name) for name in ("alice", "bob", "carol", "dave"))
    plans = [SeatPlan("me"), SeatPlan("invite", user=bob), SeatPlan("open"), SeatPlan("open")]
    game = lobby.create_table(alice, 4, plans, options={"remove": "milan"}, game="renaissance")
    for person in (bob, carol, dave):
        client.force_login(person)
        client.post(reverse("invite", args=[game.invite_code]))
    game.refresh_from_db()

    assert game.status == Game.Status.PLAYING
    assert ruleset_of(game) is RENAISSANCE
    state = load_state(game)
    assert not RENAISSANCE.is_terminal(state) and RENAISSANCE.acting_seats(state)
    # [rules] Four players: Genoa and the nation the players chose stay out; Naples plays.
    assert sorted(nations_in_play(game)) == ["florence", "naples", "rome", "venice"]


def test_a_renaissance_table_of_bots_of_every_level_starts_and_each_bot_plays_its_seat(
    make_user, announced
):
    alice = make_user("alice")
    plans = [SeatPlan("bot", level=level) for level in SIX_LEVELS]
    game = lobby.create_table(alice, 6, plans, game="renaissance")
    assert game.status == Game.Status.PLAYING
    assert [seat.bot_level for seat in game.seats.order_by("index")] == list(SIX_LEVELS)

    # [rules] Set-up: each seat in turn places its rampart, so every bot decides once.
    for _ in range(40):
        game.refresh_from_db()
        if set(Action.objects.filter(game=game).values_list("seat", flat=True)) == set(range(6)):
            break
        assert run_bot_turn(game.pk, game.version) == "moved"
    assert set(Action.objects.filter(game=game).values_list("actor", flat=True)) == {"bot"}
    assert set(Action.objects.filter(game=game).values_list("seat", flat=True)) == set(range(6))


def test_play_against_bots_opens_a_started_renaissance_game(client, make_user):
    alice = make_user("alice")
    client.force_login(alice)
    response = client.post(
        reverse("play"), {"game": "renaissance", "bots": 4, "level": "easy", "scenario": "1515"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert game.ruleset == "renaissance" and game.status == Game.Status.PLAYING
    assert game.players == 5 and game.options == {"scenario": "1515"}
    assert RENAISSANCE.view_for(load_state(game), None)["public"]["scenario"] == "1515"
    assert [seat.bot_level for seat in game.seats.order_by("index")] == [""] + ["easy"] * 4


def test_play_now_seats_you_only_at_a_table_of_the_same_game_and_rules(client, make_user):
    alice, bob, carol, dave, erin = (
        make_user(n) for n in ("alice", "bob", "carol", "dave", "erin")
    )
    waiting = lobby.play_now(alice, 3, {"powers": True}, game="renaissance")
    condottiere = lobby.play_now(bob, 3)  # same number of players, other game: not Alice's
    plain = lobby.play_now(carol, 3, game="renaissance")  # other rules: not Alice's either
    assert len({waiting.pk, condottiere.pk, plain.pk}) == 3
    assert condottiere.ruleset == "condottiere"

    client.force_login(dave)
    response = client.post(
        reverse("play_now"), {"game": "renaissance", "players": 3, "powers": "on"}
    )
    assert response.status_code == 302
    assert Seat.objects.get(game=waiting, user=dave)
    joined = lobby.play_now(erin, 3, {"powers": True}, game="renaissance")
    assert joined.pk == waiting.pk and joined.status == Game.Status.PLAYING
    assert RENAISSANCE.acting_seats(load_state(joined))


def test_play_now_fills_a_waiting_renaissance_table_with_bots(make_user):
    alice = make_user("alice")
    game = lobby.play_now(alice, 4, game="renaissance", autofill_level="random", autofill_seconds=0)
    assert lobby.autofill_due_tables() == [game.pk]
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.ruleset == "renaissance"
    assert [seat.bot_level for seat in game.seats.order_by("index")] == [
        "",
        "random",
        "random",
        "random",
    ]


# --- Refused, and nothing made ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"players": 3, "scenario": "1494"}, "The scenarios are played by 4 to 6 players."),
        ({"players": 5, "remove": "milan"}, "Only a game of 1454 for four players chooses"),
        ({"players": 4, "scenario": "1499", "remove": "milan"}, "Only a game of 1454"),
        ({"players": 2}, "Renaissance is played by 3 to 6 players."),
        ({"players": 4, "scenario": "1200"}, "Select a valid choice."),
    ],
)
def test_options_that_do_not_fit_are_refused_with_a_reason_and_open_nothing(
    client, make_user, form, says
):
    client.force_login(make_user("alice"))
    seats = {f"seat_{index}_kind": "open" for index in range(1, form["players"])}
    response = client.post(
        reverse("table_new"), {"game": "renaissance", "seat_0_kind": "me", **seats, **form}
    )
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not Game.objects.exists()


def test_a_refusal_is_said_in_the_players_language(client, make_user):
    client.force_login(make_user("alice"))
    english = client.post(reverse("play"), {"game": "renaissance", "bots": 2, "scenario": "1494"})
    french = client.post(
        reverse("play"),
        {"game": "renaissance", "bots": 2, "scenario": "1494"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert english.status_code == french.status_code == 400
    with translation.override("fr"):
        said = translation.gettext("The scenarios are played by 4 to 6 players.")
    assert said != "The scenarios are played by 4 to 6 players."
    assert said in french.content.decode()
    assert not Game.objects.exists()


def test_play_against_bots_refuses_too_few_bots_for_renaissance(client, make_user):
    client.force_login(make_user("alice"))
    response = client.post(reverse("play"), {"game": "renaissance", "bots": 1, "level": "random"})
    assert response.status_code == 400
    assert "Renaissance is played by 3 to 6 players." in response.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_refuses_bad_renaissance_options_and_opens_nothing(make_user):
    alice = make_user("alice")
    before = nothing_changed()
    cases = [
        (3, {"scenario": "1494"}),
        (4, {"remove": "rome"}),
        (4, {"nations": ["milan", "rome", "venice", "naples"]}),  # drawn by lot, not chosen
        (2, {}),
    ]
    for players, options in cases:
        plans = [SeatPlan("me")] + [SeatPlan("open")] * (players - 1)
        with pytest.raises(LobbyError):
            lobby.create_table(alice, players, plans, options=options, game="renaissance")
    with pytest.raises(LobbyError):
        lobby.play_now(alice, 3, game="chess")
    with pytest.raises(LobbyError):
        lobby.play_against_bots(alice, 1, "random", game="renaissance")
    assert nothing_changed() == before


# --- What the lobby shows -----------------------------------------------------------------------


def test_the_lobby_frames_and_page_say_which_game_each_table_plays(client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    renaissance = lobby.play_now(alice, 4, {"scenario": "1494", "powers": True}, game="renaissance")
    condottiere = lobby.play_now(bob, 3, {"hidden_cards": True})

    entries = {entry["id"]: entry for entry in tables_frame(None)["tables"]}
    assert entries[renaissance.pk]["ruleset"] == "renaissance"
    assert entries[renaissance.pk]["options"] == ["powers", "scenario_1494"]
    assert entries[condottiere.pk]["ruleset"] == "condottiere"
    assert entries[condottiere.pk]["options"] == ["hidden_cards"]

    client.force_login(bob)
    page = client.get(reverse("lobby")).content.decode()
    card = page.split(f'data-table-id="{renaissance.pk}"')[1].split("</li>\n")[0]
    assert 'data-ruleset="renaissance"' in card and "Scenario 1494" in card


# --- The game page until the Renaissance table exists ---------------------------------------------


def test_a_spectator_gets_the_renaissance_table_of_a_renaissance_game(client, make_user):
    alice = make_user("alice")
    game = lobby.play_against_bots(alice, 2, "heuristic", {"powers": True}, game="renaissance")
    response = client.get(reverse("game", args=[game.pk]))  # anonymous: a spectator
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="rn-table"' in page and 'class="rn-map"' in page
    assert '"ruleset": "renaissance"' in page  # the client connects as to a Renaissance game
    assert 'class="game game--live"' not in page  # not Condottiere's board


def test_a_finished_renaissance_game_says_whether_it_was_rated_and_offers_no_analysis(
    client, make_user
):
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    game = play_to_the_end(people_table(people, seed=5), seed=5)
    client.force_login(people[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="game__rated" data-rated="' in page
    assert reverse("analysis_request", args=[game.pk]) not in page


def test_a_rematch_of_a_renaissance_game_keeps_its_game_and_options(client, make_user):
    people = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    game = people_table(people, options={"remove": "milan", "powers": True}, seed=8)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client.force_login(people[1])
    response = client.post(reverse("rematch", args=[game.pk]))
    rematch = Game.objects.get(rematch_of=game)
    assert response.status_code == 302
    assert rematch.ruleset == "renaissance" and rematch.players == 4
    assert rematch.options == {"remove": "milan", "powers": True}


# --- Matches for points and the computer's analysis stay Condottiere's ---------------------------


def test_a_renaissance_match_for_points_is_refused_on_the_forms_and_by_the_service(
    client, make_user
):
    alice = make_user("alice")
    client.force_login(alice)
    table_form = client.post(
        reverse("match_table_new"),
        {
            "game": "renaissance",
            "players": 3,
            "seat_0_kind": "me",
            "seat_1_kind": "bot",
            "seat_2_kind": "bot",
            "play_for_points": "on",
            "target": 20,
        },
    )
    bots_form = client.post(
        reverse("match_play"),
        {
            "game": "renaissance",
            "bots": 2,
            "level": "random",
            "play_for_points": "on",
            "target": 20,
        },
    )
    for response in (table_form, bots_form):
        assert response.status_code == 400
        assert "Matches for points are played in Condottiere only." in response.content.decode()
    plans = [SeatPlan("me"), SeatPlan("bot", level="random"), SeatPlan("bot", level="random")]
    with pytest.raises(match_services.MatchError) as refused:
        match_services.create_match(alice, 3, plans, target=20, game="renaissance")
    assert refused.value.code == "not_for_this_game"
    with pytest.raises(match_services.MatchError):
        match_services.create_match_against_bots(alice, 2, "random", target=20, game="renaissance")
    assert not Game.objects.exists() and not Match.objects.exists()


def test_the_match_forms_say_matches_are_condottieres(client, make_user):
    client.force_login(make_user("alice"))
    for name in ("table_new", "play"):
        page = client.get(reverse(name)).content.decode()
        assert "Matches for points are played in Condottiere only." in page
        assert 'data-for-game="condottiere"' in page and 'data-for-game="renaissance"' in page


def test_no_analysis_of_a_renaissance_game_is_asked_or_offered(client, make_user):
    people = [make_user(name) for name in ("ann", "ben", "cat")]
    game = play_to_the_end(people_table(people, seed=3), seed=3)
    client.force_login(people[0])

    by_script = client.post(
        reverse("analysis_request", args=[game.pk]), HTTP_ACCEPT="application/json"
    )
    assert by_script.status_code == 409
    assert by_script.json() == {
        "error": "not_analysed",
        "message": "Computer analysis is given for Condottiere games only.",
    }
    by_form = client.post(reverse("analysis_request", args=[game.pk]))
    assert by_form.status_code == 302 and by_form.url == reverse("game", args=[game.pk])
    assert not Analysis.objects.exists()

    read = client.get(reverse("analysis_json", args=[game.pk])).json()
    assert read["status"] == "not_offered" and read["can_request"] is False


def test_no_hint_is_given_in_a_renaissance_game(client, make_user):
    alice = make_user("alice")
    game = lobby.play_against_bots(alice, 2, "random", game="renaissance")
    client.force_login(alice)
    response = client.post(reverse("analysis_hint", args=[game.pk]))
    assert response.status_code == 409
    assert response.json() == {
        "error": "not_analysed",
        "message": "Hints are given in Condottiere games only.",
    }
