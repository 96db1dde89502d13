"""Secrecy over whole Renaissance games: every frame of every socket, against the hidden truth.

Beside test_secrecy_games.py (Condottiere): whole Renaissance games of 3 to 6 seats, each
scenario of the rulebook at 4 to 6 seats ([ruling] R46-R49) and the plain game, with and
without the nations' powers (R50-R59), started by the real service (`start_game`, dealt from
the table's seed). Every seat is a person who plays random legal moves from its own view and,
now and then, a random piece of diplomacy from its view's `diplomacy_actions` and
`diplomacy_forms` (offers between any two seats, answers, withdrawals, gifts: R42-R45), all
through the one way in (`submit_action`); a socket for every seat and one for a spectator
collects every frame. After each action the test reads the truth the way the server keeps it,
the game's snapshot in the database at that version, and at the end checks that re-simulating
the stored log gives the same states. Every frame must hold:

- exactly the engine's view for its seat at its version (`view_for(state, seat)`);
- its own hand and nobody else's: of another hand only the cards the table saw go into it or
  shown from it ([ruling] R28); never the seed, nor any field of the server's own state (the
  deck, the random draws' counter, the hands, the snapshot);
- no face-down commitment of another seat before the reveal, only its number of cards (R28);
- no vote of another seat before the last vote ends the vote ([ruling] R29), only who voted;
- no offer between two other seats (R45), in the view or the log;
- a log whose entries hold nothing the spectator could not know at their version: no private
  diplomacy, a vote's values only once the spectator's view shows the vote over, a commitment's
  number of cards only, and a battle's cards only once the reveal has made them public.

RENAISSANCE_SECRECY_GAMES=N plays N games of each case (1 by default, as CI runs it), and
RENAISSANCE_SECRECY_CASES=all every case (26) instead of the 4 that cover each seat count,
scenario and power setting: games of some 300 to 600 actions, every frame of 4 to 7 sockets
checked, take minutes.
"""

import json
import os
import random
import re
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

import games.renaissance as renaissance
from games.models import Action, Game, Seat
from games.renaissance.cards import NAMES
from games.rules_api import RENAISSANCE
from games.services import start_game, submit_action
from tests.services import in_ci, require_postgresql, require_redis
from tests.web.conftest import WS_TIMEOUT, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
    pytest.mark.slow,
]

GAMES_PER_CASE = int(os.environ.get("RENAISSANCE_SECRECY_GAMES", "1"))
# Every case: the plain game at 3 seats (scenarios need 4 or more), then each scenario and the
# plain game at 4 to 6, each with and without the nations' powers (26 cases).
ALL_CASES = [(3, None, powers) for powers in (False, True)] + [
    (players, scenario, powers)
    for players in (4, 5, 6)
    for scenario in (None, "1494", "1499", "1515")
    for powers in (False, True)
]
# What CI plays (RENAISSANCE_SECRECY_CASES=all plays every case): each seat count, each
# scenario and the plain game, powers on and off, each at least once (26 long games would take
# most of CI's 20 minutes on two cores).
COVERING_CASES = [
    (3, None, False),
    (4, "1494", True),
    (5, "1499", False),
    (6, "1515", True),
]
CASES = ALL_CASES if os.environ.get("RENAISSANCE_SECRECY_CASES") == "all" else COVERING_CASES
# Long seeds: their digits in a frame could only mean the seed leaked.
SEED_BASE = 7_316_402_958_113_000_000
# How often a seat plays a piece of diplomacy instead of a move (a few dozen a game).
DIPLOMACY_SHARE = 0.12
MAX_ACTIONS = 3000
# Keys only the server's full state holds; `votes` only a finished vote's log entry may hold.
SECRET_KEYS = {"seed", "rng", "hands", "deck", "snapshot", "mu", "sigma"}
# Diplomacy seen by its two parties only ([ruling] R45).
PRIVATE_DIPLOMACY = {
    "offer_exchange",
    "decline_exchange",
    "withdraw_exchange",
    "offer_condottiere",
    "decline_condottiere",
    "withdraw_condottiere",
}


def case_id(players: int, scenario: str | None, powers: bool) -> str:
    return f"{players}-seats-{scenario or 'plain'}{'-powers' if powers else ''}"


def games() -> list:
    """(players, scenario, powers, seed) of each game to play, GAMES_PER_CASE per case."""
    found = []
    for case, (players, scenario, powers) in enumerate(CASES):
        name = case_id(players, scenario, powers)
        for number in range(GAMES_PER_CASE):
            seed = SEED_BASE + 1000 * case + number
            found.append(pytest.param(players, scenario, powers, seed, id=f"{name}-{number}"))
    return found


@pytest.fixture(autouse=True)
def production_services_in_ci(announced):
    """PostgreSQL and the Redis layer under CI; `announced` keeps the jobs (the rating of the
    finished game) from running: every seat is a person, nothing else is due."""
    if in_ci() or settings.REDIS_URL:
        require_redis()
    if in_ci():
        require_postgresql()


# --- One whole game ---------------------------------------------------------------------------


def set_up_game(make_user, players: int, options: dict, seed: int):
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=players, options=options, seed=seed
    )
    people = {}
    for index in range(players):
        people[index] = make_user(f"g{game.pk}seat{index}")
        Seat.objects.create(game=game, index=index, user=people[index], joined_at=timezone.now())
    start_game(game.pk)
    game.refresh_from_db()
    return game, people, make_user(f"g{game.pk}spectator"), RENAISSANCE.from_json(game.snapshot)


def next_choice(state, rng: random.Random):
    """(seat, action): mostly a random move of a random acting seat, sometimes a random piece
    of diplomacy of a random seat that has any; each chosen from that seat's own view."""
    if rng.random() < DIPLOMACY_SHARE:
        views = [RENAISSANCE.view_for(state, seat) for seat in range(state.n)]
        open_to = [(view, renaissance.all_diplomacy(view)) for view in views]
        open_to = [(view, actions) for view, actions in open_to if actions]
        if open_to:
            view, actions = rng.choice(open_to)
            return view["seat"], rng.choice(actions)
    seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
    return seat, rng.choice(RENAISSANCE.view_for(state, seat)["legal_actions"])


def play_and_read_truth(game_id: int, seat: int, action: dict, version: int):
    """Play through the one way in, then read the truth as the database keeps it."""
    new_version = submit_action(game_id, seat, action, version)
    snapshot = Game.objects.filter(pk=game_id, version=new_version).values_list(
        "snapshot", flat=True
    )
    return new_version, RENAISSANCE.from_json(snapshot.get())


async def collect_until(socket, version: int, into: list) -> None:
    """Record frames, each as (its text, its JSON), until a state frame at `version`."""
    while True:
        text = await socket.receive_from(timeout=WS_TIMEOUT)
        frame = json.loads(text)
        into.append((text, frame))
        if frame.get("type") == "state" and frame["version"] >= version:
            return


async def play_whole_game(game, people, spectator, state, rng: random.Random):
    path = f"/ws/games/{game.pk}/"
    watchers = {**people, None: spectator}
    sockets = {seat: await ws_connect(path, user) for seat, user in watchers.items()}
    frames = {seat: [] for seat in watchers}
    truths = {0: state}
    for seat, socket in sockets.items():
        await collect_until(socket, 0, frames[seat])
    version = 0
    while not RENAISSANCE.is_terminal(state) and version < MAX_ACTIONS:
        seat, action = next_choice(state, rng)
        version, state = await database_sync_to_async(play_and_read_truth)(
            game.pk, seat, action, version
        )
        truths[version] = state
        for watcher, socket in sockets.items():
            await collect_until(socket, version, frames[watcher])
    assert RENAISSANCE.is_terminal(state), "the game did not end"
    for socket in sockets.values():
        await socket.disconnect()
    return frames, truths


def replayed(game: Game) -> list:
    """The states the stored action log gives, re-simulated from the table's deal."""
    actions = Action.objects.filter(game=game).order_by("seq").values_list("seat", "action")
    initial = RENAISSANCE.table_game(game.players, game.seed, game.options)
    return RENAISSANCE.record.simulate(initial, list(actions))


# --- What each frame may show -------------------------------------------------------------------


def names_of(counts) -> Counter:
    return Counter({NAMES[kind]: count for kind, count in enumerate(counts) if count})


def check_hands(view: dict, truth, seat: int | None) -> None:
    """Its own hand exactly; of the others, only cards everyone saw go into them."""
    if seat is None:
        assert view["hand"] is None and view["vote"] is None
        assert view["legal_actions"] == [] and view["diplomacy_actions"] == []
        assert view["diplomacy_forms"] == {"give_ducats": None, "offer_exchange": []}
    else:
        assert Counter(view["hand"]) == names_of(truth.hands[seat])
    for other in range(truth.n):
        assert view["public"]["hand_sizes"][other] == sum(truth.hands[other])
        # What the table saw go into a hand or shown from it, the same for every viewer: the
        # state's public record of it, which is indeed in that hand.
        known, exposed = names_of(truth.known[other]), names_of(truth.exposed[other])
        assert Counter(view["known"][other]) == known, (seat, other)
        assert Counter(view["exposed_cards"][other]) == exposed, (seat, other)
        assert not known - names_of(truth.hands[other]), (seat, other)


def check_commitments(view: dict, truth, seat: int | None) -> None:
    """Before the reveal another seat's commitment is only its number of cards."""
    battle = truth.battle
    if battle is None:
        assert view["public"]["battle"] is None
        return
    for side, owner in enumerate((battle["a"], battle["d"])):
        shown = view["public"]["battle"]["commits"][side]
        if not battle["committed"][side]:
            assert shown is None
            continue
        count = len(battle["blue"][side]) + (battle["red"][side] >= 0)
        if battle["revealed"] or owner == seat:
            assert shown["count"] == count and "hidden" not in shown
        else:
            assert shown == {"hidden": count, "count": count}, (seat, owner, shown)


def check_votes(view: dict, truth, seat: int | None) -> None:
    """Its own vote, who has voted, and of the others only the last vote already revealed."""
    own = None if seat is None or truth.votes[seat] < 0 else bool(truth.votes[seat])
    assert view["vote"] == own
    assert view["public"]["voted"] == [vote >= 0 for vote in truth.votes]
    assert view["public"]["last_votes"] == list(truth.last_votes)


def check_offers(view: dict, truth, seat: int | None) -> None:
    """Offers in which this seat is a party, and no other."""
    mine = [list(offer) for offer in truth.offers if seat is not None and seat in offer[1:3]]
    assert view["public"]["offers"] == mine


def keys_named(text: str, keys) -> set[str]:
    """Which of `keys` are a key somewhere in this JSON text (a key, not a string value: a
    value is never followed by a colon), with or without a space after the colon."""
    return {key for key in keys if re.search(f'"{re.escape(key)}" ?:', text)}


def check_nothing_of_the_server(text: str, frame: dict, truth) -> None:
    """Never the seed nor any part of the server's full state; `votes` only in the log, the
    frame's last part (whose entries check_log_entry reads)."""
    assert list(frame)[-1] == "log"
    assert str(truth.seed) not in text, "the seed is in a frame"
    assert not keys_named(text, SECRET_KEYS), text
    log_starts = max(match.start() for match in re.finditer(r'"log" ?:', text))
    assert not keys_named(text[:log_starts], {"votes"}), text


def check_view(text: str, frame: dict, truth, seat: int | None) -> None:
    view = frame["view"]
    assert view == RENAISSANCE.view_for(truth, seat), (seat, frame["version"])
    assert view["seat"] == seat and frame["game"]["ruleset"] == "renaissance"
    check_hands(view, truth, seat)
    check_commitments(view, truth, seat)
    check_votes(view, truth, seat)
    check_offers(view, truth, seat)
    check_nothing_of_the_server(text, frame, truth)


# --- What each log entry may show ---------------------------------------------------------------


def revealed_cards(spectator: dict) -> Counter:
    """The cards a revealed battle shows the spectator (none before the reveal)."""
    battle = spectator["public"]["battle"]
    shown = Counter()
    if battle is None or not battle["revealed"]:
        return shown
    for commit in battle["commits"]:
        if commit is not None:
            shown.update(NAMES[kind] for kind in commit["blue"])
            if commit["red"] >= 0:
                shown[NAMES[commit["red"]]] += 1
    return shown


def side_cards(side: dict) -> Counter:
    return Counter(side["blue"] + ([side["red"]] if side["red"] else []))


def committed(before, action: dict, seat: int) -> list[Counter]:
    """Per side, the cards committed to the battle once `action` by `seat` is played."""
    battle, sides = before.battle, []
    for side, owner in enumerate((battle["a"], battle["d"])):
        if battle["committed"][side]:
            cards = Counter(NAMES[kind] for kind in battle["blue"][side])
            if battle["red"][side] >= 0:
                cards[NAMES[battle["red"][side]]] += 1
        elif action["type"] == "commit" and seat == owner:
            cards = Counter(action["blue"] + ([action["red"]] if action["red"] else []))
        else:
            cards = Counter()
        sides.append(cards)
    return sides


def check_battle_cards(summary: dict, before, after, action: dict, seat: int) -> None:
    """A battle's cards in the log: after the reveal, only cards the spectator saw in the
    battle or saw go to the discard pile; the action that reveals them names exactly the cards
    committed, the face-down ones the spectator counted and nothing of any hand."""
    if "cards" not in summary:
        return
    seen_before = RENAISSANCE.view_for(before, None)
    seen_after = RENAISSANCE.view_for(after, None)
    was = seen_before["public"]["battle"]
    if was is not None and was["revealed"]:
        shown = revealed_cards(seen_before) | revealed_cards(seen_after)
        shown += Counter(seen_after["discard_pile"]) - Counter(seen_before["discard_pile"])
        named = side_cards(summary["cards"][0]) + side_cards(summary["cards"][1])
        assert not named - shown, (summary, shown)
        return
    sides = [side_cards(side) for side in summary["cards"]]
    assert sides == committed(before, action, seat), (summary, action)
    for side, commit in enumerate(was["commits"] if was else ()):
        if commit is not None:
            assert sum(sides[side].values()) == commit["count"]


def check_log_entry(entry: dict, states: list, actions: dict) -> None:
    seq, seat = entry["seq"], entry["seat"]
    action = actions[seq]
    before, after = states[seq - 1], states[seq]
    assert entry["type"] == action["type"] and seat == actions[seq, "seat"]
    assert entry["type"] not in PRIVATE_DIPLOMACY, entry
    seen_after = RENAISSANCE.view_for(after, None)
    if entry["type"] == "vote":
        vote_over = seen_after["phase"] != "vote" or after.turn != before.turn
        assert ("votes" in entry) == vote_over, entry
        if vote_over:
            assert entry["votes"] == [bool(vote) for vote in seen_after["public"]["last_votes"]]
        assert "war" not in entry or vote_over, entry
    elif "votes" in entry:
        raise AssertionError(f"votes outside a vote's entry: {entry}")
    if entry["type"] == "commit":
        assert not {"blue", "red"} & set(entry), entry
        assert entry["count"] == len(action["blue"]) + (action["red"] is not None)
    for key in ("fight", "battle"):
        if key in entry:
            check_battle_cards(entry[key], before, after, action, seat)


def stored_actions(game: Game) -> dict:
    """{seq: action, (seq, "seat"): seat} of the stored log."""
    found = {}
    for seq, seat, action in Action.objects.filter(game=game).values_list("seq", "seat", "action"):
        found[seq], found[seq, "seat"] = action, seat
    return found


def check_logs(frames: dict, states: list, actions: dict) -> int:
    """Every log entry of every frame; the log at a version is the same for every seat."""
    logs, entries = {}, {}
    for received in frames.values():
        for _text, frame in received:
            log = frame["log"]
            assert logs.setdefault(frame["version"], log) == log, "a seat's own log"
            assert all(entry["seq"] <= frame["version"] for entry in log)
            assert [entry["seq"] for entry in log] == sorted({entry["seq"] for entry in log})
            for entry in log:
                assert entries.setdefault(entry["seq"], entry) == entry, "an entry changed"
    for entry in entries.values():
        check_log_entry(entry, states, actions)
    return len(entries)


# --- The test -----------------------------------------------------------------------------------


def check_frames(frames: dict, truths: dict) -> int:
    checked = 0
    for seat, received in frames.items():
        versions = [frame["version"] for _text, frame in received]
        assert versions == sorted(versions), f"seat {seat} saw versions go back"
        for text, frame in received:
            assert frame["type"] == "state", frame
            check_view(text, frame, truths[frame["version"]], seat)
            checked += 1
    return checked


def secrets_met(truths: dict) -> Counter:
    """How often each secret was there to keep: the test is weak if one never was."""
    met = Counter()
    for state in truths.values():
        battle = state.battle
        met["face-down commitment"] += bool(
            battle and not battle["revealed"] and any(battle["committed"])
        )
        met["vote under way"] += any(vote >= 0 for vote in state.votes) and any(
            vote < 0 for vote in state.votes
        )
        met["offer between two seats"] += bool(state.offers)
    return met


@pytest.mark.parametrize("players, scenario, powers, seed", games())
async def test_whole_renaissance_games_show_each_socket_only_what_it_may_know(
    make_user, players, scenario, powers, seed
):
    options = {key: value for key, value in (("scenario", scenario), ("powers", powers)) if value}
    game, people, spectator, state = await database_sync_to_async(set_up_game)(
        make_user, players, options, seed
    )
    assert state.seed == seed

    frames, truths = await play_whole_game(game, people, spectator, state, random.Random(seed))

    states = await database_sync_to_async(replayed)(game)
    assert [RENAISSANCE.to_json(s) for s in states] == [
        RENAISSANCE.to_json(truths[version]) for version in range(len(states))
    ]
    checked = check_frames(frames, truths)
    assert checked >= (players + 1) * len(truths)
    actions = await database_sync_to_async(stored_actions)(game)
    assert check_logs(frames, states, actions) > 0
    met = secrets_met(truths)
    assert all(met.values()) and len(met) == 3, met
