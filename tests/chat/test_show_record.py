"""A game with shows: exported as a version-3 record (the shown cards in the actions, its hidden
part: the game is over), imported back to the same game, replayed with the shows named; the
public log says only how many cards went to whom. A game without a show keeps version 2."""

import random

import pytest

from games.board.words import card_labels
from games.chat.models import ChatMessage, Room
from games.engine import (
    Options,
    apply_action,
    current_player,
    final_result,
    legal_actions,
    new_game,
    show_cards,
    view_for,
)
from games.history.records import RecordError, import_record, record_for
from games.history.replay import replay_payload, verify_game
from games.models import SEAT_COLOURS, Action

pytestmark = pytest.mark.django_db


def record_with_shows(seed=5) -> dict:
    """Random legal play with the engine alone; every tenth step a seat shows a card."""
    rng = random.Random(seed)
    state = new_game(2, seed=seed, options=Options(), first=0)
    actions = []
    while current_player(state) is not None:
        hand = view_for(state, 1)["hand"]
        if len(actions) % 10 == 3 and hand:
            action = {"type": "show", "to": 0, "cards": hand[:1]}
            state, seat = show_cards(state, 1, 0, hand[:1]), 1
        else:
            seat, action = current_player(state), rng.choice(legal_actions(state))
            state = apply_action(state, action)
        actions.append({"seq": len(actions) + 1, "seat": seat, "action": action})
    seats = [
        {"index": i, "colour": SEAT_COLOURS[i], "name": f"P{i}", "kind": "human", "level": None}
        for i in range(2)
    ]
    return {
        "format": "condottiere-game-record",
        "version": 3,
        "seed": seed,
        "players": 2,
        "first": 0,
        "options": Options().to_dict(),
        "seats": seats,
        "actions": actions,
        "result": final_result(state),
    }


def test_a_record_with_shows_round_trips_and_replays_them(make_user):
    data = record_with_shows()
    shows = [entry for entry in data["actions"] if entry["action"]["type"] == "show"]
    assert shows
    game = import_record(data, make_user())
    assert verify_game(game) == []
    again = record_for(game)
    assert again["version"] == 3 and again["actions"] == data["actions"]
    public = Action.objects.get(game=game, seq=shows[0]["seq"]).public
    assert public == {"type": "show", "to": 0, "count": 1}
    payload = replay_payload(game)
    step = payload["steps"][shows[0]["seq"]]
    title = card_labels()[shows[0]["action"]["cards"][0]]["title"]
    assert step["label"] == f"Blue shows {title} to Red"  # the game is over: the card is named
    assert step["view"]["players"][1]["shown_to_you"] == []  # the spectator's view: no cards
    assert payload["chat"] == []


def test_a_show_in_a_version_2_record_is_refused(make_user):
    data = {**record_with_shows(), "version": 2}
    with pytest.raises(RecordError, match="version 3"):
        import_record(data, make_user())


def test_a_game_without_a_show_is_still_written_as_version_2(make_user):
    data = record_with_shows()
    data["actions"] = []
    rng, state = random.Random(1), new_game(2, seed=5, options=Options(), first=0)
    while current_player(state) is not None:
        seat, action = current_player(state), rng.choice(legal_actions(state))
        state = apply_action(state, action)
        data["actions"].append({"seq": len(data["actions"]) + 1, "seat": seat, "action": action})
    data.update(version=2, result=final_result(state))
    assert record_for(import_record(data, make_user()))["version"] == 2


def test_the_replay_shows_the_players_room_to_the_players_only(make_user):
    """Once the game is over the spectators' room is public; the players' room stays theirs."""
    player, outsider, staff = make_user("player"), make_user("outsider"), make_user("staff")
    staff.is_staff = True
    staff.save()
    game = import_record(record_with_shows(), player)
    game.seats.filter(index=0).update(user=player)
    ChatMessage.objects.create(game=game, room=Room.PLAYERS, user=player, seat=0, text="a deal?")
    ChatMessage.objects.create(game=game, room=Room.SPECTATORS, user=outsider, text="nice move")

    def texts(viewer):
        return sorted(entry["text"] for entry in replay_payload(game, viewer)["chat"])

    assert texts(player) == ["a deal?", "nice move"]
    assert texts(staff) == ["a deal?", "nice move"]
    assert texts(outsider) == ["nice move"]
    assert texts(None) == ["nice move"]
