"""Secrecy over whole games: every frame of every socket, against the hidden truth in the database.

Beside test_secrecy_frames.py (one stacked two-player game, card by card): here whole games of 2
to 6 seats under each optional rule and all of them together, started by the real service
(`start_game`, dealt from the table's seed), a bot choosing every seat's moves from that seat's
view and playing them through the one way in (`submit_action`), a socket for every seat and one
for a spectator collecting every frame. After each move the test reads the truth the way the
server keeps it: the game's snapshot in the database at that version. Every frame must show:
- the seat's own hand and own face-down discards exactly, and for everyone else only what is
  public: no other hand, no face-down card of another seat before it is turned up, nobody else's
  face-down discards (card codes a socket may know, as in test_secrecy_frames.py);
- nothing of the deck's order and never the seed; no rating internals (mu, sigma) once the game
  is rated;
- and who is asked to discard a hand follows from public data only: at every `discard_hand`
  step the asked seat is exactly the next seat holding cards (public hand sizes), in seat order
  from the token holder, so being asked tells nothing about a hand.
"""

import json
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.conf import settings

import ai
from games.engine import current_player, is_terminal, view_for
from games.engine.cards import CODES
from games.engine.state import DISCARD_HAND, GameState
from games.models import Game
from games.ratings.rate import rate_and_tell
from games.services import start_game, submit_action
from tests.services import in_ci, require_postgresql, require_redis
from tests.web.conftest import WS_TIMEOUT, ws_connect
from tests.web.test_secrecy_frames import card_strings, private_to, seen_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
    pytest.mark.slow,
]

ALL_OPTIONS = {
    "hidden_cards": True,
    "draw_after_battle": True,
    "bigger_kingdoms": True,
    "capturing_regions": True,
}
# Each table's seed (long enough that its digits in a frame can only mean it leaked) was picked
# among 300 for a short game with the random bots below (40 to 110 moves; deals whose games have
# hand-discard steps, and face-down cards under Hidden Cards), so that the suite runs in about a
# minute. The checks do not depend on it: another seed only makes a longer game.
GAMES = [
    pytest.param(2, {}, 5_840_113_927_604_381_267, id="2-seats-base"),
    pytest.param(3, {"hidden_cards": True}, 5_840_113_927_604_381_155, id="3-seats-hidden-cards"),
    pytest.param(
        4, {"draw_after_battle": True}, 5_840_113_927_604_381_253, id="4-seats-draw-after-battle"
    ),
    pytest.param(
        5, {"bigger_kingdoms": True}, 5_840_113_927_604_381_262, id="5-seats-bigger-kingdoms"
    ),
    pytest.param(
        6, {"capturing_regions": True}, 5_840_113_927_604_381_096, id="6-seats-capturing-regions"
    ),
    pytest.param(4, ALL_OPTIONS, 5_840_113_927_604_381_251, id="4-seats-all-options"),
]
MAX_ACTIONS = 4000
# Keys that only the server's full state holds (and rating internals).
SECRET_KEYS = {"seed", "snapshot", "deck", "hands", "hidden_discards", "dead", "mu", "sigma"}


@pytest.fixture(autouse=True)
def production_services_in_ci(announced):
    """PostgreSQL and the Redis layer under CI; `announced` keeps the rating job for the test."""
    if in_ci() or settings.REDIS_URL:
        require_redis()
    if in_ci():
        require_postgresql()


def codes_of(kinds) -> list[str]:
    return [CODES[kind] for kind in kinds]


def hand_of(state: GameState, seat: int) -> Counter:
    return Counter({CODES[kind]: count for kind, count in enumerate(state.hands[seat]) if count})


def keys_in(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_in(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_in(item)}
    return set()


def code_lists(value) -> list[list[str]]:
    """Every list in a frame made of card codes only."""
    found = []
    if isinstance(value, dict):
        for item in value.values():
            found += code_lists(item)
    elif isinstance(value, list):
        if value and all(isinstance(item, str) and item in CODES for item in value):
            found.append(value)
        for item in value:
            found += code_lists(item)
    return found


# --- One whole game ---------------------------------------------------------------------------


def set_up_game(make_user, make_table, players: int, options: dict, seed: int):
    people = {seat: make_user(f"seat{seat}") for seat in range(players)}
    game = make_table(players, people=people, options=options, seed=seed)
    start_game(game.pk)
    game.refresh_from_db()
    return game, people, make_user("spectator"), GameState.from_json(game.snapshot)


def play_and_read_truth(game_id: int, seat: int, action: dict, version: int):
    """Play through the one way in, then read the truth as the database keeps it."""
    new_version = submit_action(game_id, seat, action, version)
    snapshot = Game.objects.filter(pk=game_id, version=new_version).values_list(
        "snapshot", flat=True
    )
    return new_version, GameState.from_json(snapshot.get())


async def collect_until(socket, version: int, into: list, *, rated: bool = False) -> None:
    """Record frames until a state frame at `version` (with rating changes, if `rated`)."""
    while True:
        frame = await socket.receive_json_from(timeout=WS_TIMEOUT)
        into.append(frame)
        if frame.get("type") != "state" or frame["version"] < version:
            continue
        if not rated or frame["game"]["rating_changes"]:
            return


async def play_whole_game(game, people, spectator, state, players: int):
    path = f"/ws/games/{game.pk}/"
    watchers = {**people, None: spectator}
    sockets = {seat: await ws_connect(path, user) for seat, user in watchers.items()}
    frames = {seat: [] for seat in watchers}
    truths = {0: state}
    for seat, socket in sockets.items():
        await collect_until(socket, 0, frames[seat])
    bots = {seat: ai.make_bot("random", seed=seat) for seat in range(players)}
    version = 0
    while not is_terminal(state) and version < MAX_ACTIONS:
        seat = current_player(state)
        action = bots[seat].choose(view_for(state, seat))
        version, state = await database_sync_to_async(play_and_read_truth)(
            game.pk, seat, action, version
        )
        truths[version] = state
        for watcher, socket in sockets.items():
            await collect_until(socket, version, frames[watcher])
    assert is_terminal(state), "the game did not end"
    # The rating job, run here (the suite's `announced` kept it): its frame must hold no internals.
    assert await database_sync_to_async(rate_and_tell)(game.pk)
    for watcher, socket in sockets.items():
        await collect_until(socket, version, frames[watcher], rated=True)
        await socket.disconnect()
    return frames, truths


# --- What each frame may show -------------------------------------------------------------------


def public_until(truths: dict) -> dict:
    """For each version: every card code that has been face up for everyone so far."""
    ever, public = set(), {}
    for number in sorted(truths):
        ever |= seen_in(truths[number])
        public[number] = set(ever)
    return public


def check_own_and_others(view: dict, truth: GameState, seat: int | None) -> None:
    if seat is None:
        assert view["hand"] is None and "own_discards" not in view
    else:
        assert Counter(view["hand"]) == hand_of(truth, seat)
        assert Counter(view["own_discards"]) == Counter(codes_of(truth.hidden_discards[seat]))
    for player in view["players"]:
        other = player["seat"]
        assert set(player) >= {"hand_size", "line"} and "hand" not in player
        assert player["hand_size"] == truth.sizes[other]
        if truth.fd[other] >= 0 and other != seat:
            assert player["line"][-1] == "hidden", (seat, other, player["line"])
        line = player["line"]
        if truth.fd[other] >= 0:  # the face-down card is last: "hidden", or the owner's own card
            line = line[:-1]
        face_up = Counter(line)
        assert face_up == Counter(codes_of(truth.lines[other])), (seat, other)


def check_nothing_of_the_deck_or_seed(frame: dict, truth: GameState) -> None:
    assert str(truth.seed) not in json.dumps(frame), "the seed is in a frame"
    assert not keys_in(frame) & SECRET_KEYS, keys_in(frame) & SECRET_KEYS
    deck = codes_of(truth.deck)
    for codes in code_lists(frame):
        if len(codes) >= 4 and len(deck) >= len(codes):
            assert codes != deck[: len(codes)], "the top of the deck is in a frame"


def check_frames(frames: dict, truths: dict) -> int:
    public = public_until(truths)
    checked = 0
    for seat, received in frames.items():
        for frame in received:
            assert frame["type"] == "state", frame
            truth = truths[frame["version"]]
            assert frame["view"] == view_for(truth, seat)
            check_own_and_others(frame["view"], truth, seat)
            check_nothing_of_the_deck_or_seed(frame, truth)
            leaked = set(card_strings(frame)) - public[frame["version"]] - private_to(truth, seat)
            assert not leaked, (seat, frame["version"], leaked)
            for change in frame["game"]["rating_changes"]:
                assert set(change) == {"seat", "before", "after", "delta", "provisional"}, change
            checked += 1
    return checked


def check_discard_asks_follow_public_data(truths: dict) -> int:
    """At every discard_hand step the asked seat is the next seat holding cards, in seat order
    from the token holder: computed here from the spectator's view at the step's start only."""
    steps = 0
    versions = sorted(truths)
    index = 0
    while index < len(versions):
        if truths[versions[index]].phase != DISCARD_HAND:
            index += 1
            continue
        public = view_for(truths[versions[index]], None)
        token, players = public["condottiere"], len(public["players"])
        order = [(token + step) % players for step in range(players)]
        holders = [seat for seat in order if public["players"][seat]["hand_size"] > 0]
        asked = []
        while index < len(versions) and truths[versions[index]].phase == DISCARD_HAND:
            asked.append(truths[versions[index]].current)
            index += 1
        assert asked == holders[: len(asked)], (versions[index - 1], token, holders, asked)
        # Everyone holding cards is asked (the step ends after the last of them).
        assert asked == holders, (versions[index - 1], holders, asked)
        steps += len(asked)
    return steps


@pytest.mark.parametrize("players, options, seed", GAMES)
async def test_whole_games_show_each_socket_only_what_it_may_know(
    make_user, make_table, players, options, seed
):
    game, people, spectator, state = await database_sync_to_async(set_up_game)(
        make_user, make_table, players, options, seed
    )
    assert state.seed == seed

    frames, truths = await play_whole_game(game, people, spectator, state, players)

    checked = await database_sync_to_async(check_frames)(frames, truths)
    assert checked >= (players + 1) * len(truths)
    if not options.get("draw_after_battle"):  # with Draw After Battle nobody discards a hand
        assert check_discard_asks_follow_public_data(truths) > 0, "no discard step: weak test"
