"""Secrecy on the wire: every frame each socket receives over a whole game, checked against the
engine's full state at that frame's version.

Alice (seat 0) and Bob (seat 1) each watch through their own socket and Carol watches as a
spectator, while the test plays the game through the one way in. Bob is dealt all three
Surrenders and all three Heroines, so those codes exist nowhere else until he plays them; with
Hidden Cards on, a Heroine even lands face down. For every frame:
- its view is exactly `view_for(full state, that seat)`;
- every card code anywhere in it (view, table, log) is one that seat may know at that version:
  one that was face up for everyone at some version so far (in a line, the discards, known to be
  in a hand), or, for a seat, one in its own hand, face-down card or face-down discards.
"""

import pytest
from channels.db import database_sync_to_async

import ai
from games.engine import apply_action, current_player, is_terminal, view_for
from games.engine.cards import CODES
from games.services import submit_action
from tests.web.conftest import WS_TIMEOUT, stacked_state, ws_connect

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_async_db_connections"),
]

CARD_CODES = set(CODES)
BOB_HAND = ["surrender"] * 3 + ["heroine"] * 3 + ["m1", "m2", "winter", "scarecrow"]
ALICE_HAND = ["m10", "m6", "m5", "m4", "m3", "courtesan", "drummer", "bishop", "spring", "m2"]
MAX_ACTIONS = 3000


def card_strings(value) -> list[str]:
    """Every string value anywhere in a frame that is a card code."""
    if isinstance(value, str):
        return [value] if value in CARD_CODES else []
    if isinstance(value, dict):
        return [code for item in value.values() for code in card_strings(item)]
    if isinstance(value, list):
        return [code for item in value for code in card_strings(item)]
    return []


def codes(kinds) -> set[str]:
    return {CODES[kind] for kind in kinds}


def hand_codes(state, seat: int) -> set[str]:
    return {CODES[kind] for kind, count in enumerate(state.hands[seat]) if count}


def seen_in(state) -> set[str]:
    """Card codes lying face up for everyone to see in this state."""
    seen = codes(kind for line in state.lines for kind in line)
    seen |= codes(state.discards)
    return seen | codes(kind for kinds in state.known for kind in kinds)


def private_to(state, seat: int | None) -> set[str]:
    """Card codes only `seat` sees: its hand, its face-down card, its face-down discards."""
    if seat is None:
        return set()
    private = hand_codes(state, seat) | codes(state.hidden_discards[seat])
    return private | ({CODES[state.fd[seat]]} if state.fd[seat] >= 0 else set())


async def drain_until(socket, version: int, into: list) -> None:
    """Record every frame until a state frame at `version` arrives."""
    while True:
        frame = await socket.receive_json_from(timeout=WS_TIMEOUT)
        into.append(frame)
        if frame.get("type") == "state" and frame["version"] >= version:
            return


async def test_no_frame_shows_a_card_its_socket_may_not_know(make_user, make_table, start_stacked):
    def set_up():
        alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
        game = make_table(2, people={0: alice, 1: bob}, options={"hidden_cards": True}, seed=8)
        start_stacked(game, hands=[ALICE_HAND, BOB_HAND], first=0)
        return game, alice, bob, carol

    game, alice, bob, carol = await database_sync_to_async(set_up)()
    state = stacked_state(game, hands=[ALICE_HAND, BOB_HAND], first=0)
    path = f"/ws/games/{game.pk}/"
    watchers = {0: alice, 1: bob, None: carol}
    sockets = {seat: await ws_connect(path, user) for seat, user in watchers.items()}
    frames = {seat: [] for seat in watchers}
    states = {0: state}
    for seat, socket in sockets.items():
        await drain_until(socket, 0, frames[seat])

    bot = ai.make_bot("random", seed=3)
    version = 0
    while not is_terminal(state) and version < MAX_ACTIONS:
        seat = current_player(state)
        action = bot.choose(view_for(state, seat))
        version = await database_sync_to_async(submit_action)(game.pk, seat, action, version)
        state = apply_action(state, action)
        states[version] = state
        for seat, socket in sockets.items():
            await drain_until(socket, version, frames[seat])
    assert is_terminal(state)

    # Everything ever face up, up to each version (the log may recall earlier rounds).
    ever_seen, public = set(), {}
    for number in range(version + 1):
        ever_seen |= seen_in(states[number])
        public[number] = set(ever_seen)
    assert {"surrender", "heroine"} <= ever_seen, "Bob never showed his cards: the test is weak"

    checked = 0
    for seat, received in frames.items():
        for frame in received:
            assert frame["type"] == "state", frame
            at = states[frame["version"]]
            assert frame["view"] == view_for(at, seat)
            allowed = public[frame["version"]] | private_to(at, seat)
            leaked = set(card_strings(frame)) - allowed
            assert not leaked, (seat, frame["version"], leaked)
            checked += 1
    assert checked >= 3 * (version + 1)
    for socket in sockets.values():
        await socket.disconnect()
