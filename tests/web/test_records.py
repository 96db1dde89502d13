# ruff: noqa: F811  (the played_game fixture is imported from test_replay and used by name)
"""Game records: export -> import -> replay gives the same game; a malformed or tampered record
is refused with a clear message and saves nothing."""

import copy
import hashlib
import io
import json
import random
from pathlib import Path

import pytest
from django.urls import reverse

from games.engine import (
    Options,
    apply_action,
    current_player,
    final_result,
    legal_actions,
    new_game,
)
from games.engine.record import DECLINE, replay, upgrade_discard_asks
from games.history.records import RecordError, import_record, record_for
from games.history.replay import replay_payload, replay_states, verify_game
from games.models import SEAT_COLOURS, Action, Game, Seat
from tests.web.test_replay import played_game  # noqa: F401  (a fixture)


@pytest.fixture
def record(played_game):
    """A game played live through the services, and its exported record."""
    game = played_game(3, options={"capturing_regions": True}, seed=31)
    return game, record_for(game)


def engine_record(players=3, seed=31, first=1) -> dict:
    """A record written from the documented format, by playing random legal moves with the
    engine alone (as another program would produce one); fast, for the refusal tests."""
    rng = random.Random(seed)
    options = Options(capturing_regions=True)
    state = new_game(players, seed=seed, options=options, first=first)
    actions = []
    while current_player(state) is not None:
        seat, action = current_player(state), rng.choice(legal_actions(state))
        state = apply_action(state, action)
        actions.append({"seq": len(actions) + 1, "seat": seat, "action": action})
    return {
        "format": "condottiere-game-record",
        "version": 2,
        "seed": seed,
        "players": players,
        "first": first,
        "options": options.to_dict(),
        "seats": [
            {
                "index": i,
                "colour": SEAT_COLOURS[i],
                "name": f"Player {i}",
                "kind": "human",
                "level": None,
            }
            for i in range(players)
        ],
        "actions": actions,
        "result": final_result(state),
    }


@pytest.fixture
def written():
    return engine_record()


def test_the_record_holds_what_replays_the_game(record):
    game, data = record

    assert data["format"] == "condottiere-game-record"
    assert data["version"] == 2
    assert data["seed"] == game.seed
    assert data["players"] == 3
    assert data["options"]["capturing_regions"] is True
    assert data["first"] == data["actions"][0]["seat"]
    assert [seat["colour"] for seat in data["seats"]] == ["red", "blue", "green"]
    assert {seat["kind"] for seat in data["seats"]} == {"human"}
    assert [entry["seq"] for entry in data["actions"]] == list(range(1, game.version + 1))
    assert data["result"] == game.result
    json.dumps(data)  # plain JSON


def test_export_import_replay_gives_the_same_game(record, make_user):
    original, data = record
    importer = make_user("importer")

    imported = import_record(json.loads(json.dumps(data)), importer)

    assert imported.source == Game.Source.IMPORTED
    assert imported.status == Game.Status.FINISHED
    assert imported.result == original.result
    assert imported.snapshot == original.snapshot
    assert replay_states(imported)[-1].to_json() == original.snapshot
    assert verify_game(imported) == []
    names = list(Seat.objects.filter(game=imported).values_list("record_name", flat=True))
    assert names == [seat["name"] for seat in data["seats"]]
    # The public log, recomputed on import, is the live one.
    public = lambda game: list(Action.objects.filter(game=game).values_list("seq", "public"))  # noqa: E731
    assert public(imported) == public(original)
    # Step by step, the replay of the copy is the replay of the original.
    original_steps = replay_payload(original)["steps"]
    imported_steps = replay_payload(imported)["steps"]
    assert [(s["view"], s["hands"], s["label"]) for s in imported_steps] == [
        (s["view"], s["hands"], s["label"]) for s in original_steps
    ]
    # And exporting the copy gives the same record (but for when it finished).
    again = record_for(imported)
    assert {**again, "finished_at": None} == {**data, "finished_at": None}


def test_a_record_with_bots_keeps_their_levels(played_game, make_user):
    game = played_game(2, seed=5)
    data = record_for(game)
    data["seats"][1].update(kind="bot", level="hard", name="Bot (hard)")

    imported = import_record(data, make_user())

    assert record_for(imported)["seats"][1] == data["seats"][1]


def tampered(data, change):
    copied = copy.deepcopy(data)
    change(copied)
    return copied


def an_illegal_action(data):
    # A region that cannot be chosen: the first action is always the choice of a region.
    data["actions"][0]["action"] = {"type": "play", "card": "m10"}


def an_out_of_turn_action(data):
    data["actions"][0]["seat"] = (data["actions"][0]["seat"] + 1) % data["players"]


def a_wrong_winner(data):
    data["result"]["winners"] = [(data["result"]["winners"][0] + 1) % data["players"]]


def a_missing_last_action(data):
    data["actions"].pop()


def other_first_holder(data):
    data["first"] = (data["first"] + 1) % data["players"]


OLD_RULE_GAMES = json.loads(
    (Path(__file__).parents[1] / "engine" / "old_rule_games.json").read_text()
)


def version_1_record(old: dict) -> dict:
    """A version-1 record of a game really played under the old hand-discard rule (only seats
    without a Mercenary were asked), as this site exported it then."""
    data = engine_record()
    options = Options.from_dict(old["options"])
    upgraded = upgrade_discard_asks(
        new_game(old["players"], seed=old["seed"], options=options, first=old["first"]),
        [tuple(move) for move in old["moves"]],
    )
    last = replay(
        old["players"], old["seed"], options, old["first"], [(s, a) for s, a, _i in upgraded]
    )[-1]
    data.update(
        version=1,
        seed=old["seed"],
        players=old["players"],
        first=old["first"],
        options=old["options"],
        seats=[
            {**data["seats"][0], "index": i, "colour": SEAT_COLOURS[i], "name": f"Old {i}"}
            for i in range(old["players"])
        ],
        actions=[
            {"seq": number, "seat": seat, "action": action}
            for number, (seat, action) in enumerate(old["moves"], start=1)
        ],
        result=final_result(last),
    )
    return data


@pytest.mark.parametrize("old", OLD_RULE_GAMES[:2], ids=lambda old: f"{old['players']}p")
def test_a_version_1_record_is_imported_with_the_declines_the_new_rule_asks_for(make_user, old):
    data = version_1_record(old)
    data_2 = {**data, "version": 2}
    with pytest.raises(RecordError, match="do not replay"):
        import_record(data_2, make_user("strict"))  # as version 2 it is not a valid game

    imported = import_record(data, make_user())

    assert verify_game(imported) == []
    assert hashlib.sha256(imported.snapshot.encode()).hexdigest() == old["final_sha256"]
    again = record_for(imported)
    assert again["version"] == 2
    logged = [(entry["seat"], entry["action"]) for entry in again["actions"]]
    assert len(logged) > len(old["moves"])
    # The old actions, in order, with only declines between them.
    old_moves = iter([tuple(move) for move in old["moves"]])
    expected = next(old_moves, None)
    for move in logged:
        if move == expected:
            expected = next(old_moves, None)
        else:
            assert move[1] == DECLINE
    assert expected is None
    assert import_record(again, make_user("again")).snapshot == imported.snapshot


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (an_illegal_action, "action 1"),
        (an_out_of_turn_action, "turn"),
        (a_wrong_winner, "stated result"),
        (a_missing_last_action, "does not play the game to its end"),
        (other_first_holder, "turn"),
        (lambda d: d.update(format="pgn"), "not a Condottiere game record"),
        (lambda d: d.update(version=4), "version"),
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.pop("seed"), "lacks: seed"),
        (lambda d: d.update(seed="12"), "seed"),
        (lambda d: d.update(players=7), "players"),
        (lambda d: d["options"].update(pyjamas=True), "Unknown optional rule"),
        (lambda d: d["seats"].pop(), "seats"),
        (lambda d: d["seats"][0].update(colour="black"), "Seat 0"),
        (lambda d: d["seats"][1].update(kind="bot", level="godlike"), "level"),
        (lambda d: d["actions"][3].update(seq=9), "seq"),
        (lambda d: d["actions"][2].update(action="pass"), "Action 3"),
    ],
    ids=lambda value: getattr(value, "__name__", None) if callable(value) else None,
)
def test_bad_records_are_refused_with_a_clear_message_and_save_nothing(
    written, make_user, change, message
):
    data = written
    user = make_user()
    games_before = Game.objects.count()

    with pytest.raises(RecordError) as refused:
        import_record(tampered(data, change), user)

    assert message.lower() in str(refused.value).lower()
    assert Game.objects.count() == games_before


def test_random_garbage_actions_never_crash_the_import(written, make_user):
    data = written
    user = make_user()
    garbage = [
        {},
        {"type": "play"},
        {"type": "play", "card": 5},
        {"type": "keep", "cards": "ab"},
        {"type": "draw", "count": -1},
        {"type": "choose_region", "region": None},
        {"type": "play", "card": "bishop", "pope": 12},
        {"type": "nonsense"},
    ]
    for action in garbage:
        bad = tampered(data, lambda d, action=action: d["actions"][0].update(action=action))
        with pytest.raises(RecordError):
            import_record(bad, user)


def test_import_page_needs_a_login_then_imports_a_pasted_record_and_shows_its_replay(
    client, record, make_user
):
    original, data = record
    url = reverse("import_record")
    assert client.get(url).status_code == 302

    client.force_login(make_user())
    response = client.post(url, {"text": json.dumps(data)})

    imported = Game.objects.get(source=Game.Source.IMPORTED)
    assert response.status_code == 302
    assert response["Location"] == reverse("replay", args=[imported.pk])
    assert imported.result == original.result


def test_import_page_accepts_an_uploaded_file(client, written, make_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = written
    client.force_login(make_user())
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode(), "application/json")

    response = client.post(reverse("import_record"), {"file": upload})

    assert response.status_code == 302
    assert Game.objects.filter(source=Game.Source.IMPORTED).count() == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [("{not json", "not valid JSON"), ("[]", "JSON object"), ("", "Upload a record file")],
)
def test_import_page_shows_the_error_and_saves_nothing(client, make_user, text, message):
    client.force_login(make_user())

    response = client.post(reverse("import_record"), {"text": text})

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.filter(source=Game.Source.IMPORTED).exists()


def test_import_page_shows_a_tampered_result_refused(client, written, make_user):
    data = written
    client.force_login(make_user())

    response = client.post(
        reverse("import_record"), {"text": json.dumps(tampered(data, a_wrong_winner))}
    )

    assert response.status_code == 400
    assert "stated result" in response.content.decode()
    assert not Game.objects.filter(source=Game.Source.IMPORTED).exists()


def test_record_download_of_a_finished_game(client, record):
    game, data = record

    response = client.get(reverse("game_record", args=[game.pk]))

    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == json.loads(json.dumps(data))


def test_a_record_from_elsewhere_replays_from_its_stated_first_holder(written, make_user):
    """The first token holder comes from the record, not from our derivation from the seed."""
    data = written
    imported = import_record(data, make_user())
    states = replay_states(imported)
    assert current_player(states[0]) == data["first"]
    assert legal_actions(states[-1]) == []
    assert imported.result == data["result"]
    assert verify_game(imported) == []


# --- Hostile records: each is refused with a message on the form, never a 500 ----------------


def counts():
    return Game.objects.count(), Seat.objects.count(), Action.objects.count()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"a": ' * 1_200 + "1" + "}" * 1_200, "nested too deeply"),
        ("[" * 200 + "]" * 200, "nested too deeply"),  # parses, but no record is that deep
        ("9" * 5_000, "number with too many digits"),
        ('{"seed": ' + "1" * 5_000 + "}", "number with too many digits"),
        ('{"seed": NaN}', "not a JSON value"),
        ('{"seed": 1e999}', "not a JSON value"),
    ],
)
def test_hostile_json_is_refused_with_a_message_and_saves_nothing(client, make_user, text, message):
    client.force_login(make_user())
    before = counts()

    response = client.post(reverse("import_record"), {"text": text})

    assert response.status_code == 400  # the form, shown again with its error
    assert message in response.content.decode()
    assert counts() == before


def test_hostile_json_is_refused_in_an_uploaded_file_too(client, make_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(make_user())
    before = counts()
    upload = SimpleUploadedFile("deep.json", b"[" * 100_000, "application/json")

    response = client.post(reverse("import_record"), {"file": upload})

    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert counts() == before


def test_a_deeply_nested_field_of_a_valid_record_is_refused(client, written, make_user):
    client.force_login(make_user())
    before = counts()
    text = json.dumps(written).replace('"version": 2', '"version": ' + "[" * 900 + "]" * 900)

    response = client.post(reverse("import_record"), {"text": text})

    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert counts() == before


class CountedReads(io.BytesIO):
    """An upload's content that notes the size of each read."""

    def __init__(self, content: bytes):
        super().__init__(content)
        self.reads = []

    def read(self, size=-1):
        self.reads.append(size)
        return super().read(size)


def upload_of(content: bytes, size: int):
    """A file upload of `content` whose handler counted `size` bytes."""
    from django.core.files.uploadedfile import InMemoryUploadedFile

    body = CountedReads(content)
    return body, InMemoryUploadedFile(body, "file", "big.json", "application/json", size, None)


def test_an_upload_over_the_limit_is_refused_by_its_size_without_being_read():
    from django.utils.datastructures import MultiValueDict

    from games.forms.history import MAX_RECORD_BYTES, ImportRecordForm

    body, upload = upload_of(b" " * (MAX_RECORD_BYTES + 1), MAX_RECORD_BYTES + 1)
    form = ImportRecordForm({}, MultiValueDict({"file": [upload]}))

    assert not form.is_valid()
    assert "The file is larger than 2 MB." in form.non_field_errors()
    assert body.reads == []  # refused on .size alone


def test_an_upload_whose_size_lies_is_read_no_further_than_the_limit():
    from django.utils.datastructures import MultiValueDict

    from games.forms.history import MAX_RECORD_BYTES, ImportRecordForm

    body, upload = upload_of(b" " * (MAX_RECORD_BYTES + 10), 10)
    form = ImportRecordForm({}, MultiValueDict({"file": [upload]}))

    assert not form.is_valid()
    assert "The file is larger than 2 MB." in form.non_field_errors()
    assert body.reads == [MAX_RECORD_BYTES + 1]
