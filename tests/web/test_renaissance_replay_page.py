"""The replay page of a finished Renaissance game (docs/renaissance/replay.md): the table's board
picture, the words of the log, end panel and replay handed to the client, replay.json with every
seat's real hand at every step (the game is over), and nothing of the kind before the end."""

import json
import re

import pytest
from django.urls import reverse

from games.board.renaissance_log_words import log_labels
from games.board.renaissance_map import renaissance_svg
from games.history.replay import replay_payload, replay_states
from games.models import Game
from games.rules_api import RENAISSANCE
from tests.web.renaissance_games import people_table, play_to_the_end

PLAYERS = 3


@pytest.fixture
def finished(make_user):
    game = people_table([make_user() for _ in range(PLAYERS)], seed=1478)
    return play_to_the_end(game, seed=1478)


def json_script(page: str, element_id: str):
    tag = f'<script id="{element_id}" type="application/json">'
    found = re.search(re.escape(tag) + "(.*?)</script>", page, re.S)
    assert found, f"no json_script {element_id}"
    return json.loads(found.group(1))


def test_the_page_holds_the_board_the_words_and_where_the_frames_are(client, finished):
    response = client.get(reverse("replay", args=[finished.pk]))

    assert response.status_code == 200
    page = response.content.decode()
    assert "data-rn-board" in page
    assert 'class="rn-map"' in renaissance_svg()
    assert renaissance_svg() in page
    assert json_script(page, "rn-log-labels") == json.loads(json.dumps(log_labels()))
    info = json_script(page, "replay-info")
    assert info["framesUrl"] == reverse("replay_frames", args=[finished.pk])
    assert "js/renaissance_replay.js" in page
    for control in ("first", "back", "forward", "last"):
        assert f'data-go="{control}"' in page
    assert "data-slider" in page


def test_without_javascript_the_page_still_lists_every_step(client, finished):
    page = client.get(reverse("replay", args=[finished.pk])).content.decode()

    steps = replay_payload(finished)["steps"]
    assert page.count("data-step=") == len(steps)
    assert steps[-1]["label"].split()[0] in page


def test_each_step_holds_every_seat_s_real_hand(finished):
    """The hands replay.json shows are those the seats held: each seat's own view of the
    re-simulated state, not a guess, and they are not empty once cards are dealt."""
    steps = replay_payload(finished)["steps"]
    states = replay_states(finished)

    assert len(steps) == len(states) == finished.version + 1
    for step, state in zip(steps, states, strict=True):
        assert len(step["hands"]) == PLAYERS
        for seat in range(PLAYERS):
            assert step["hands"][seat] == RENAISSANCE.view_for(state, seat)["hand"]
        assert step["view"]["seat"] is None and step["view"]["hand"] is None
    dealt = [step for step in steps if all(step["hands"])]
    assert dealt, "some step shows every seat holding cards"


def test_a_game_in_progress_has_no_replay_frames(client, make_user):
    game = people_table([make_user() for _ in range(PLAYERS)], seed=1462)

    assert client.get(reverse("replay_frames", args=[game.pk])).status_code == 404
    page = client.get(reverse("replay", args=[game.pk]))
    assert page.status_code == 302
    assert page["Location"] == reverse("game", args=[game.pk])
    assert game.status == Game.Status.PLAYING


# The log's sentence keys, per entry type of games/renaissance/public_log.py (static/js/
# renaissance/log.js picks among them); plural sentences are in "plurals".
SENTENCES = {
    "start": ["start"],
    "rampart": ["rampart"],
    "palace": ["palace"],
    "garrison": ["garrison"],
    "pass": ["pass", "pass_setup_garrison", "pass_expansion", "pass_sign_of_god", "pass_retreat"],
    "return": ["return"],
    "vote": ["vote", "votes_war", "votes_peace"],
    "build": ["build_palace", "build_rampart", "build_castle", "build_fortress"],
    "done": ["done"],
    "announce": ["announce_attack", "announce_defence"],
    "expand": ["expand", "expand_road", "expand_sea"],
    "attack": ["attack", "attack_road", "attack_sea"],
    "ride": ["ride"],
    "raiders": ["raiders", "raiders_free", "raiders_hit", "raiders_miss"],
    "ambassador": ["ambassador", "ambassador_cards"],
    "marriage": ["marriage", "marriage_with"],
    "artist": ["artist", "artist_settles", "artist_savonarola"],
    "banker": ["banker"],
    "lure": ["lure", "lure_won", "lure_failed"],
    "end_turn": ["end_turn", "scored", "scored_seat", "new_turn", "order", "over"],
    "counter": ["counter_play", "counter_no"],
    "buy_traitor": ["buy_traitor_yes", "buy_traitor_no"],
    "sign_of_god": ["sign_of_god", "sign_of_god_plain"],
    "retreat": ["retreat", "retreat_free"],
    "corrupt": ["corrupt", "corrupt_won", "corrupt_failed", "pass_corrupt"],
    "neglect": ["neglect", "pass_neglect"],
    "accept_exchange": ["accept_exchange"],
    "accept_condottiere": ["accept_condottiere"],
    "commit": ["commit_none", "cards_shown", "dice", "battle_taken", "battle_held"],
}
PLURALS = ("buy_cards", "commit", "give_ducats", "winners")
PLACEHOLDER = re.compile(r"\{(\w*)\}")
KNOWN = {"player", "city", "from", "to", "other", "give", "take", "card", "count", "war", "peace"}
KNOWN |= {"attacker", "defender", "attack", "defence", "turn", "year", "list", "scored"}
KNOWN |= {"points", "players", "first", "last", "step", "total"}


def test_every_entry_type_has_its_words_and_only_known_placeholders():
    labels = log_labels()
    for kind, keys in SENTENCES.items():
        for key in keys:
            assert labels["log"].get(key), f"{kind}: no sentence {key}"
    for key in PLURALS:
        assert set(labels["plurals"][key]) == {"one", "other"}
    plurals = [form for forms in labels["plurals"].values() for form in forms.values()]
    texts = [*labels["log"].values(), *plurals]
    texts += [*labels["end"].values(), *labels["replay"].values()]
    for text in texts:
        assert "%(" not in text
        assert set(PLACEHOLDER.findall(text)) <= KNOWN, text
    assert set(labels["reasons"]) == {"points", "fortresses", "ramparts", "ducats", "shared"}
    assert len(labels["cards"]) == 15
