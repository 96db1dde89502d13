"""Renaissance game records, replay and verification on the site (docs/game-record.md,
"Renaissance game record"): a finished game played through the one way in exports as a
`renaissance-game-record`, imports and replays as the same game; a bad record is refused with a
clear message, before any replay where its size alone refuses it, and saves nothing;
`verify_games` re-simulates Renaissance games beside Condottiere's and flags a tampered one."""

import copy
import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.actors.public_history import public_history
from games.history import replay
from games.history.records import RecordError, import_record, record_for
from games.history.replay import replay_payload, replay_states, verify_game
from games.models import SEAT_COLOURS, Action, Game, Seat
from games.rules_api import RENAISSANCE
from games.services import load_state, start_game, submit_action
from tests.web.test_records import engine_record

FORMAT = "renaissance-game-record"
PLAYERS = 3
# How often a seat tries diplomacy instead of the move awaited (the rules let any seat make an
# offer, a gift or an answer at any moment of turns 1-6).
DIPLOMACY_RATE = 0.08
PRIVATE_DIPLOMACY = {"offer_exchange", "decline_exchange", "withdraw_exchange"} | {
    "offer_condottiere",
    "decline_condottiere",
    "withdraw_condottiere",
}


def renaissance_table(make_user, players: int, seed: int, options=None) -> Game:
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=players, options=options or {}, seed=seed
    )
    for index in range(players):
        Seat.objects.create(game=game, index=index, user=make_user())
    return game


def next_move(state, rng: random.Random) -> tuple[int, dict]:
    """A random seat's diplomacy now and then, else a random acting seat's random legal move."""
    if rng.random() < DIPLOMACY_RATE:
        seat = rng.randrange(PLAYERS)
        offers = RENAISSANCE.side_actions(state, seat)
        if offers:
            return seat, rng.choice(offers)
    seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
    return seat, rng.choice(RENAISSANCE.legal_actions(state, seat))


def play_out(game: Game, seed: int) -> Game:
    """Start `game` and play it to its end through the services, every seat a person."""
    rng = random.Random(seed)
    start_game(game.pk)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        seat, action = next_move(load_state(game), rng)
        submit_action(game.pk, seat, action, game.version)
        game.refresh_from_db()
    return game


@pytest.fixture
def played(make_user):
    """A finished three-player game with the nations' powers, with diplomacy, some of it
    private (offers a spectator never learns of)."""
    game = play_out(renaissance_table(make_user, PLAYERS, 20, {"powers": True}), 20)
    kinds = [
        action["type"]
        for action in Action.objects.filter(game=game).values_list("action", flat=True)
    ]
    assert game.status == Game.Status.FINISHED
    assert PRIVATE_DIPLOMACY & set(kinds), "the game should hold a private offer"
    assert "give_ducats" in kinds or {"accept_exchange", "accept_condottiere"} & set(kinds)
    return game


def written(seed: int = 5, players: int = PLAYERS) -> dict:
    """A record written with the rules alone, as another program would write one (fast, for the
    refusals)."""
    rng = random.Random(seed)
    state = RENAISSANCE.new_game(players, seed=seed)
    moves = []
    while not RENAISSANCE.is_terminal(state):
        seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
        action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        state = RENAISSANCE.apply_action(state, seat, action)
        moves.append((seat, action))
    seats = [
        {
            "index": i,
            "colour": SEAT_COLOURS[i],
            "name": f"Player {i}",
            "kind": "human",
            "level": None,
        }
        for i in range(players)
    ]
    return RENAISSANCE.record.make_record(
        players, seed, {}, seats, moves, RENAISSANCE.final_result(state)
    )


def logged_moves(game: Game) -> list[tuple[int, dict]]:
    return [
        (seat, action)
        for seat, action in Action.objects.filter(game=game)
        .order_by("seq")
        .values_list("seat", "action")
    ]


def public_log(game: Game) -> list:
    return list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "public"))


# --- Export, import, replay --------------------------------------------------------------------


def test_a_finished_game_exports_as_a_renaissance_record(played):
    data = record_for(played)

    assert data["format"] == FORMAT and data["version"] == 1
    assert (data["seed"], data["players"], data["options"]) == (20, PLAYERS, {"powers": True})
    assert [seat["colour"] for seat in data["seats"]] == ["red", "blue", "green"]
    assert all(seat["kind"] == "human" and seat["level"] is None for seat in data["seats"])
    # Every accepted action, diplomacy included, with the seat that took it, in order.
    listed = [(entry["seat"], entry["action"]) for entry in data["actions"]]
    assert listed == logged_moves(played) and len(listed) == played.version
    assert data["result"] == played.result
    assert set(data["result"]) == {"winners", "points", "reason"}
    assert json.loads(json.dumps(data)) == data  # plain JSON


def test_a_game_in_progress_has_no_record(make_user):
    game = renaissance_table(make_user, PLAYERS, 3)
    start_game(game.pk)
    game.refresh_from_db()

    with pytest.raises(ValueError):
        record_for(game)


def test_export_import_replay_gives_the_same_game(played, make_user):
    data = record_for(played)

    imported = import_record(json.loads(json.dumps(data)), make_user("importer"))

    assert imported.ruleset == Game.Ruleset.RENAISSANCE
    assert imported.source == Game.Source.IMPORTED and imported.status == Game.Status.FINISHED
    assert (imported.snapshot, imported.result) == (played.snapshot, played.result)
    assert imported.options == played.options
    assert RENAISSANCE.to_json(replay_states(imported)[-1]) == played.snapshot
    assert verify_game(imported) == []
    names = list(Seat.objects.filter(game=imported).order_by("index").values_list("record_name"))
    assert [name for (name,) in names] == [seat["name"] for seat in data["seats"]]
    # The public log, recomputed on import, is the live one (no entry for a private offer).
    assert public_log(imported) == public_log(played)
    # Step by step, the replay of the copy is the replay of the original.
    steps = lambda game: [  # noqa: E731
        (s["seq"], s["view"], s["hands"], s["label"]) for s in replay_payload(game)["steps"]
    ]
    assert steps(imported) == steps(played)
    assert record_for(imported) == data


def test_the_replay_json_steps_are_the_rules_views_of_the_re_simulated_game(client, played):
    states = replay_states(played)

    response = client.get(reverse("replay_frames", args=[played.pk]))

    assert response.status_code == 200
    data = response.json()
    steps = data["steps"]
    assert [step["seq"] for step in steps] == list(range(played.version + 1))
    for index in (0, len(steps) // 3, len(steps) // 2, len(steps) - 1):
        state = states[index]
        assert steps[index]["view"] == json.loads(json.dumps(RENAISSANCE.view_for(state, None)))
        hands = [RENAISSANCE.view_for(state, seat)["hand"] for seat in range(PLAYERS)]
        assert steps[index]["hands"] == hands
    assert all(step["view"]["hand"] is None for step in steps)  # the spectator's view
    assert all(step["label"] for step in steps)
    moves = logged_moves(played)
    assert [step["seat"] for step in steps[1:]] == [seat for seat, _action in moves]
    assert data["game"]["ruleset"] == "renaissance" and data["game"]["result"] == played.result
    # The log is the public one: an entry per action a spectator learnt of, none for an offer.
    private = {seq for seq, public in public_log(played) if public is None}
    assert private and [entry["seq"] for entry in data["log"]] == [
        seq for seq in range(1, played.version + 1) if seq not in private
    ]


def test_a_vote_is_labelled_without_its_choice_until_the_last_vote_reveals_them_all(client, played):
    """[ruling] R29: nobody learns a vote before the last one; the replay keeps it so."""
    steps = client.get(reverse("replay_frames", args=[played.pk])).json()["steps"]
    entries = dict(public_log(played))
    votes = [(seq, action) for seq, (_seat, action) in enumerate(logged_moves(played), 1)]
    votes = [(seq, action) for seq, action in votes if action["type"] == "vote"]
    assert votes, "the game should have a vote"
    revealed = 0
    for seq, _action in votes:
        label = steps[seq]["label"]
        shown = entries[seq].get("votes")
        if shown is None:  # not the last vote: the label says who voted, never how
            assert "war" not in label and "peace" not in label, label
            assert steps[seq]["view"]["vote"] is None  # nor does the spectator's view
        else:
            revealed += 1
            war = sum(shown)
            assert f"{war} for war" in label and f"{len(shown) - war} for peace" in label
    # One reveal a vote: the last vote of each turn that had one.
    turns = {steps[seq - 1]["view"]["public"]["turn"] for seq, _action in votes}
    assert revealed == len(turns) >= 1


def test_a_replay_is_simulated_once_then_read_from_the_cache(client, played, monkeypatch):
    simulated, simulate = [], replay.replay_states

    def counting(game, actions=None):
        simulated.append(game.pk)
        return simulate(game, actions)

    monkeypatch.setattr(replay, "replay_states", counting)
    url = reverse("replay_frames", args=[played.pk])

    first, second = client.get(url), client.get(url)

    assert first.content == second.content
    assert simulated == [played.pk]


def test_the_replay_page_says_each_step_in_words(client, played):
    response = client.get(reverse("replay", args=[played.pk]))

    assert response.status_code == 200
    page = response.content.decode()
    assert reverse("game_record", args=[played.pk]) in page
    steps = replay_payload(played)["steps"]
    for step in (steps[0], steps[1], steps[-1]):
        assert f'data-step="{step["seq"]}"' in page
    assert page.count("data-step=") == len(steps)


def test_the_record_downloads_under_its_game_s_name(client, played):
    response = client.get(reverse("game_record", args=[played.pk]))

    assert response.status_code == 200
    assert f'filename="renaissance-game-{played.pk}.json"' in response["Content-Disposition"]
    assert json.loads(response.content) == record_for(played)


def test_a_bot_reading_the_table_is_given_the_spectators_views(played):
    states = replay_states(played)

    history = public_history(played, 40)

    assert history == [RENAISSANCE.view_for(state, None) for state in states[:41]]


# --- Import through the page, its quota ---------------------------------------------------------


def test_the_import_page_imports_a_renaissance_record_and_opens_its_replay(client, make_user):
    client.force_login(make_user())

    response = client.post(reverse("import_record"), {"text": json.dumps(written())})

    imported = Game.objects.get(source=Game.Source.IMPORTED)
    assert response.status_code == 302
    assert response["Location"] == reverse("replay", args=[imported.pk])
    assert imported.ruleset == Game.Ruleset.RENAISSANCE
    assert client.get(response["Location"]).status_code == 200


def test_renaissance_imports_count_against_the_hourly_quota_like_condottiere_ones(
    client, make_user, settings
):
    settings.RECORD_IMPORTS_PER_HOUR = 1
    client.force_login(make_user())
    url = reverse("import_record")

    first = client.post(url, {"text": json.dumps(written())})
    second = client.post(url, {"text": json.dumps(engine_record())})

    assert (first.status_code, second.status_code) == (302, 429)
    assert Game.objects.filter(source=Game.Source.IMPORTED).count() == 1


# --- Refusals ------------------------------------------------------------------------------------


def refused(data, user) -> str:
    """The message of the refusal of `data`, which must change nothing."""
    games, actions = Game.objects.count(), Action.objects.count()
    with pytest.raises(RecordError) as refusal:
        import_record(data, user)
    assert (Game.objects.count(), Action.objects.count()) == (games, actions)
    return str(refusal.value)


def changed(data: dict, change) -> dict:
    copied = copy.deepcopy(data)
    change(copied)
    return copied


def an_illegal_action_at(number: int):
    def change(data):
        # A set-up step cannot be a vote: the replay refuses it at that very action.
        data["actions"][number - 1]["action"] = {"type": "vote", "war": True}

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="pgn"), "“format”"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.pop("seed"), "lacks: seed"),
        (lambda d: d.update(players=2), "“players” must be a number from 3 to 6"),
        (lambda d: d["options"].update(draw_after_battle=True), "Unknown option"),
        (lambda d: d["seats"].pop(), "seats"),
        (lambda d: d["seats"][1].update(colour="black"), "Seat 1"),
        (lambda d: d["seats"][2].update(kind="bot", level="godlike"), "level"),
        (lambda d: d["actions"][4].update(seat=7), "Action 5"),
        (an_illegal_action_at(2), "action 2 "),
        (lambda d: d["result"].update(winners=[9]), "stated result"),
        (lambda d: d["actions"].pop(), "does not play the game to its end"),
    ],
    ids=lambda value: None if callable(value) else value,
)
def test_a_bad_record_is_refused_with_a_clear_message_and_saves_nothing(make_user, change, message):
    assert message in refused(changed(written(), change), make_user())


def test_a_condottiere_record_declared_as_renaissance_is_refused_by_renaissance_s_checks(
    make_user,
):
    condottiere = engine_record()
    user = make_user()

    as_renaissance = changed(condottiere, lambda d: d.update(format=FORMAT))
    assert "version" in refused(as_renaissance, user)
    as_version_1 = changed(as_renaissance, lambda d: d.update(version=1))
    assert "Unknown option" in refused(as_version_1, user)


def test_a_renaissance_record_declared_as_condottiere_is_refused_by_condottiere_s_checks(
    make_user,
):
    as_condottiere = changed(written(), lambda d: d.update(format="condottiere-game-record"))
    as_condottiere["version"] = 2

    assert "lacks: first" in refused(as_condottiere, make_user())


def test_a_list_of_10000_actions_is_refused_before_any_replay(make_user, settings, monkeypatch):
    def never(*_args, **_kwargs):
        raise AssertionError("a record refused by its size must not be replayed")

    monkeypatch.setattr(RENAISSANCE.record, "replay", never)
    monkeypatch.setattr(RENAISSANCE.record, "simulate", never)
    data = written()
    data["actions"] = (data["actions"] * (10_000 // len(data["actions"]) + 1))[:10_000]
    user = make_user()

    # The site's limit (RECORD_IMPORT_MAX_ACTIONS), then the format's own (5,000 actions).
    settings.RECORD_IMPORT_MAX_ACTIONS = 8_000
    assert "The record holds 10000 actions: at most 8000" in refused(data, user)
    settings.RECORD_IMPORT_MAX_ACTIONS = 15_000
    assert "more than 5000 actions" in refused(data, user)


def test_the_import_page_shows_a_refusal_and_saves_nothing(client, make_user):
    client.force_login(make_user())

    response = client.post(
        reverse("import_record"), {"text": json.dumps(changed(written(), an_illegal_action_at(3)))}
    )

    assert response.status_code == 400
    assert "action 3 " in response.content.decode()
    assert not Game.objects.filter(source=Game.Source.IMPORTED).exists()


# --- verify_games -------------------------------------------------------------------------------


def verify(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_verify_games_replays_both_games(played, make_user):
    condottiere = import_record(engine_record(), make_user())

    code, output = verify()

    assert code == 0 and "checked 2 games, 0 differ" in output
    assert verify_game(condottiere) == [] and verify_game(played) == []


def test_verify_games_flags_a_tampered_renaissance_game(played, make_user):
    clean = import_record(written(), make_user())
    losers = [seat for seat in range(PLAYERS) if seat not in played.result["winners"]]
    Game.objects.filter(pk=played.pk).update(result={**played.result, "winners": losers})

    code, output = verify()

    assert code == 1
    assert f"game {played.pk}:" in output and "result" in output
    assert f"game {clean.pk}:" not in output
    assert "checked 2 games, 1 differ" in output


def test_verify_games_flags_a_tampered_renaissance_log(make_user):
    game = import_record(written(), make_user())
    first = Action.objects.get(game=game, seq=1)
    first.action = {"type": "vote", "war": False}  # no vote in the set-up
    first.save()

    code, output = verify("--game", str(game.pk))

    assert code == 1
    assert f"game {game.pk}:" in output and "does not replay" in output


def test_the_history_row_names_the_game_and_its_options(client, played):
    page = client.get(reverse("history")).content.decode()
    assert '<li class="rule-chip">Renaissance</li>' in page
    assert '<li class="rule-chip">Nations&#x27; powers</li>' in page
