"""Renaissance game records (docs/game-record.md, "Renaissance game record"): a game written as
a record, read back and replayed is the same game with the same result; every malformed field
is refused with a message that says which; an illegal action is named by its number."""

import json

import pytest

from games.renaissance.api import new_game
from games.renaissance.record import (
    FORMAT,
    MAX_ACTIONS,
    VERSION,
    RecordError,
    ReplayError,
    check_header,
    final_result,
    make_record,
    parse_actions,
    parse_options,
    replay,
    replayed,
    simulate,
    verify_log,
)
from games.renaissance.state import put
from tests.renaissance.conftest import RANDOM_GAMES, edit, random_game

SEATS = [{"index": seat, "name": f"seat {seat}"} for seat in range(6)]
# (players, options, diplomacy share): each player count, the options new_game knows.
GAMES = [
    (3, {}, 0.1),
    (4, {"remove": "milan"}, 0.1),
    (5, {"powers": True}, 0.1),
    (6, {"nations": ["venice", "genoa", "milan", "naples", "rome", "florence"]}, 0.1),
    (4, {"scenario": "1494"}, 0.0),
    (5, {"scenario": "1499", "powers": True}, 0.1),
    (6, {"scenario": "1515", "powers": True}, 0.2),
]


def played(players, seed, options, diplomacy=0.1):
    """A random game on the real board: its final state and its (seat, action) pairs."""
    moves = []
    final = random_game(
        players,
        seed,
        None,
        lambda _state, seat, action, _new: moves.append((seat, action)),
        options,
        diplomacy,
    )
    return final, moves


def recorded(players=4, seed=1, options=None, diplomacy=0.1):
    final, moves = played(players, seed, options or {}, diplomacy)
    record = make_record(players, seed, options or {}, SEATS[:players], moves, final_result(final))
    return json.loads(json.dumps(record)), final


def imported(data, *, finished=True):
    """Every check of an import, in the site's order; the replayed states."""
    check_header(data)
    options = parse_options(data["options"], data["players"])
    moves = parse_actions(data["actions"], data["players"])
    return replayed(data, options, moves, finished=finished)


# --- Round trips --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options", "diplomacy"), GAMES)
def test_a_recorded_game_replays_to_the_same_state_and_result(players, options, diplomacy):
    for seed in range(max(1, RANDOM_GAMES // 6)):
        data, final = recorded(players, 40 + seed, options, diplomacy)
        assert data["format"] == FORMAT and data["version"] == VERSION
        assert data["seats"] == SEATS[:players] and data["options"] == options
        states = imported(data)
        assert states[-1].to_json() == final.to_json()
        assert final_result(states[-1]) == data["result"] == final_result(final)
        assert len(states) == len(data["actions"]) + 1


def test_the_record_lists_diplomacy_with_the_moves_each_with_its_seat():
    data, _final = recorded(6, 3, {"powers": True}, diplomacy=0.2)
    kinds = {entry["action"]["type"] for entry in data["actions"]}
    assert {"vote", "commit", "give_ducats", "offer_exchange"} <= kinds
    assert all(set(entry) == {"seat", "action"} for entry in data["actions"])


def test_the_result_names_the_winners_their_points_and_why_they_won():
    """[rules] Most Renaissance Points, then most fortresses, ramparts, ducats; [ruling] R5
    seats still tied share the victory."""
    final, _moves = played(4, 8, {})
    result = final_result(final)
    assert result["winners"] == list(final.winners)
    assert result["points"] == [sum(sheet) for sheet in final.sheet]
    nobody = edit(final, owner=(-1,) * len(final.owner))
    cases = [
        ((9, 5, 5, 5), (0,) * 4, "points"),
        ((9, 9, 5, 5), (10, 0, 0, 0), "ducats"),
        ((4, 4, 4, 4), (3, 3, 3, 3), "shared"),
    ]
    for points, ducats, reason in cases:
        state = edit(nobody, points=points, ducats=ducats)
        assert final_result(state)["reason"] == reason
    fortress = edit(nobody, points=(9, 9, 5, 5), ducats=(0, 9, 0, 0))
    fortress = edit(fortress, owner=put(fortress.owner, 0, 0), fort=put(fortress.fort, 0, 2))
    assert final_result(fortress)["reason"] == "fortresses"
    rampart = edit(fortress, fort=put(fortress.fort, 0, 1))
    assert final_result(rampart)["reason"] == "ramparts"


def test_a_game_still_going_has_no_result_and_is_refused_where_an_end_is_required():
    data, _final = recorded(3, 2)
    data["actions"] = data["actions"][:100]
    data["result"] = None
    assert final_result(imported(data, finished=False)[-1]) is None
    with pytest.raises(RecordError, match="does not play the game to its end"):
        imported(data)


# --- Refusals -----------------------------------------------------------------------------------


def without(key):
    return lambda data: {name: value for name, value in data.items() if name != key}


def setting(*path_and_value):
    """A change of the record: the value at a path of keys and indices."""
    *path, value = path_and_value

    def change(data):
        data = json.loads(json.dumps(data))
        place = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
        return data

    return change


# (the change to a valid 4-player record, words of the message it must get)
MALFORMED = [
    (lambda data: [data], "is a JSON object"),
    (setting("format", "condottiere-game-record"), "not a Renaissance game record"),
    (without("format"), "not a Renaissance game record"),
    (setting("version", 2), "Unsupported record version 2"),
    (setting("version", "1"), "Unsupported record version '1'"),
    (setting("version", True), "Unsupported record version True"),
    *[(without(field), f"lacks: {field}") for field in ("seed", "players", "options", "seats")],
    *[(without(field), f"lacks: {field}") for field in ("actions", "result")],
    (setting("seed", "7"), "seed must be a 64-bit integer"),
    (setting("seed", 2**63), "seed must be a 64-bit integer"),
    (setting("seed", 1.5), "seed must be a 64-bit integer"),
    (setting("seed", False), "seed must be a 64-bit integer"),
    (setting("players", 2), "“players” must be a number from 3 to 6"),
    (setting("players", 7), "“players” must be a number from 3 to 6"),
    (setting("players", "4"), "“players” must be a number from 3 to 6"),
    (setting("options", []), "“options” must be an object"),
    (setting("options", "first", 1), "Unknown option first"),
    (setting("options", "nations", "milan"), "“nations” must be a list"),
    (setting("options", "nations", [1, 2, 3, 4]), "“nations” must be a list"),
    (setting("options", "nations", ["milan"] * 4), "do not fit a 4-player game"),
    (setting("options", "remove", "venice"), "“remove” must be “naples” or “milan”"),
    (setting("options", "scenario", "1600"), "“scenario” must be one of 1494, 1499, 1515"),
    (setting("options", "scenario", None), "“scenario” must be one of"),
    (setting("options", "powers", "yes"), "“powers” must be true or false"),
    (setting("actions", {}), "“actions” must be a list"),
    (setting("actions", 0, []), "Action 1 is not an object"),
    (setting("actions", 2, "seat", 4), "Action 3: “seat” is not a seat of this game"),
    (setting("actions", 2, "seat", True), "Action 3: “seat” is not a seat of this game"),
    (setting("actions", 4, "seat", None), "Action 5: “seat” is not a seat of this game"),
    (setting("actions", 5, "action", "pass"), "Action 6: “action” must be an object"),
    (setting("actions", 5, "action", {"city": "Roma"}), "Action 6: “action” must be an object"),
    (setting("actions", 5, "action", "type", 3), "Action 6: “action” must be an object"),
    (setting("result", []), "“result” must be null or an object"),
    (setting("result", "winners", [0, 1, 2, 3]), "is not the game's"),
    (setting("result", "reason", "luck"), "is not the game's"),
    (setting("result", None), "is not the game's"),
]


@pytest.mark.parametrize(("change", "words"), MALFORMED)
def test_every_malformed_field_is_refused_with_a_message_that_names_it(change, words):
    data, _final = recorded(4, 5, {"remove": "naples"})
    with pytest.raises(RecordError) as refused:
        imported(change(data))
    error = refused.value
    assert words in str(error)
    assert str(error) == (error.message % error.params if error.params else error.message)


def test_options_are_refused_as_new_game_refuses_them():
    """[ruling] R47: the scenarios are for 4 to 6 players and name their own removals."""
    with pytest.raises(RecordError, match="scenarios are for 4 to 6 players"):
        parse_options({"scenario": "1494"}, 3)
    with pytest.raises(RecordError, match="of the 1454 game only"):
        parse_options({"scenario": "1494", "remove": "milan"}, 4)
    assert parse_options({"nations": ["rome", "venice", "florence"]}, 3) == {
        "nations": ["rome", "venice", "florence"]
    }


def test_a_list_of_ten_thousand_actions_is_refused_before_any_is_looked_at():
    with pytest.raises(RecordError) as refused:
        parse_actions([None] * 10_000, 6)
    assert refused.value.params == {"max": MAX_ACTIONS} and MAX_ACTIONS < 10_000


def test_an_illegal_action_is_named_by_its_number_with_the_engine_s_reason():
    data, _final = recorded(4, 6)
    number = 150
    seat = data["actions"][number - 1]["seat"]
    data["actions"][number - 1]["action"] = {"type": "attack", "from": "Nowhere", "to": "Roma"}
    with pytest.raises(RecordError) as refused:
        imported(data)
    assert f"action {number} (" in str(refused.value)
    moves = parse_actions(data["actions"], 4)
    with pytest.raises(ReplayError, match=f"action {number} .* by seat {seat} is illegal: "):
        replay(4, data["seed"], {}, moves)


def test_an_action_out_of_turn_and_one_after_the_end_are_refused():
    data, final = recorded(3, 9)
    moves = parse_actions(data["actions"], 3)
    seat, action = moves[0]
    with pytest.raises(ReplayError, match="action 1 .* by seat .* may not act now"):
        replay(3, data["seed"], {}, [((seat + 1) % 3, action), *moves[1:]])
    with pytest.raises(ReplayError, match="action 1: the game was already over"):
        simulate(final, [(0, {"type": "pass"})])
    with pytest.raises(ReplayError, match=f"action {len(moves) + 1}: the game was already over"):
        replay(3, data["seed"], {}, [*moves, (0, {"type": "pass"})])


# --- Verifying a stored game -------------------------------------------------------------------


def test_verify_log_finds_nothing_in_a_sound_game_and_names_each_difference():
    data, final = recorded(5, 4, {"powers": True})
    moves = parse_actions(data["actions"], 5)
    initial = new_game(5, seed=data["seed"], options={"powers": True})
    log = [(seq, seat, action) for seq, (seat, action) in enumerate(moves, start=1)]
    sound = {"finished": True, "playing": False}
    result, snapshot = final_result(final), final.to_json()
    assert verify_log(initial, log, len(log), snapshot, result, **sound) == []
    problems = verify_log(initial, log, len(log) - 1, "{}", {"winners": []}, **sound)
    assert len(problems) == 3
    assert "version" in problems[0] and "snapshot" in problems[1] and "result" in problems[2]
    shuffled = [log[1], log[0], *log[2:]]
    assert (
        "does not replay" in verify_log(initial, shuffled, len(log), snapshot, result, **sound)[-1]
    )
    playing = verify_log(initial, log, len(log), snapshot, None, finished=False, playing=True)
    assert playing == ["the game is stored as playing but its log ends the game"]
