"""Properties over random games on the tiny board, every player count, and on the real board in
each historical scenario with the nations' powers and random diplomacy (RENAISSANCE_GAMES=N
games per count; a dozen in CI, fewer for the scenarios): the game ends after the sixth turn
with scores; pieces, cards and ducats are conserved; an acting seat always has a legal action;
illegal actions change nothing; replay is deterministic; JSON is lossless; views never leak
hidden information. Games full of diplomacy (offers, acceptances, refusals, withdrawals
interleaved with the moves) never leave an acting seat without a legal action."""

import random

import pytest

from games.renaissance.api import (
    IllegalAction,
    State,
    acting_seats,
    apply_action,
    determinize,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    view_for,
    winners,
)
from games.renaissance.cards import COPIES, KIND, KINDS
from games.renaissance.diplomacy import diplomacy_actions
from games.renaissance.state import PURCHASE, SETUP_RAMPART, SETUP_START, TURNS
from games.renaissance.visibility import battle_cards
from tests.renaissance.conftest import RANDOM_GAMES, TINY, random_game

COUNTS = (3, 4, 5, 6)
# (players, options, diplomacy share) on the real board: the base game with powers, and each
# scenario at each of its player counts.
REAL_BOARD = [(6, {"powers": True}, 0.1), (3, {"powers": True}, 0.1)] + [
    (players, {"scenario": scenario, "powers": powers}, share)
    for scenario in ("1494", "1499", "1515")
    for players, powers, share in ((4, False, 0.0), (5, True, 0.05), (6, True, 0.1))
]


def card_counts(state):
    counts = [0] * KINDS
    for seat in range(state.n):
        for kind in range(KINDS):
            counts[kind] += state.hands[seat][kind] + state.exposed[seat][kind]
    for kind in list(state.deck) + list(state.discards) + battle_cards(state.battle):
        counts[kind] += 1
    if state.battle:
        # [ruling] R55: Milan's free Condottiere in the troops is no card of the 80.
        counts[KIND["condottiere"]] -= state.battle.get("virtual", 0)
    return counts


def check_conservation(state, diplomacy=False):
    """[rules] The box: 80 cards, 21 garrisons per nation, 20 ramparts, 10 castles, 10 palaces,
    10 pillage markers, 11 artists (Savonarola aside)."""
    counts = card_counts(state)
    # Between turns every card is back in the box; during a turn all 80 are somewhere.
    assert sum(counts) == 0 or counts == list(COPIES), "the 80 cards are not all accounted for"
    if state.phase >= PURCHASE and state.turn <= TURNS:
        assert counts == list(COPIES)
    for seat in range(state.n):
        assert state.reserve[seat] + state.owner.count(seat) == 21
        assert state.ducats[seat] >= 0
        if not diplomacy:  # a Condottiere bought from a player may exceed it ([ruling] R44)
            assert sum(state.hands[seat]) <= 14  # 12 after purchases, + an Ambassador's 2
        assert all(k <= h for k, h in zip(state.known[seat], state.hands[seat], strict=True))
    unplaced = state.n - state.step if state.phase == SETUP_RAMPART else 0
    unplaced = state.n if state.phase == SETUP_START else unplaced
    assert state.ramparts + sum(1 for f in state.fort if f >= 1) + unplaced == 20
    assert state.castles + state.fort.count(2) == 10
    assert state.palaces + sum(state.palace) == 10
    assert state.pillages + sum(state.pillaged) == 10
    assert state.artists + sum(state.artist) == 11
    for c, closed in enumerate(state.closed):
        assert not (closed and state.owner[c] >= 0), "a closed city is occupied"
    for c in range(len(state.owner)):
        if state.owner[c] < 0:
            assert not state.fort[c] and not state.palace[c], "a free city with buildings"
        assert not state.artist[c] or state.palace[c], "an artist without a palace"


ILLEGAL = ({"type": "nonsense"}, {"type": "attack", "from": "Nowhere", "to": "Roma"}, "war", None)


def check_illegal(state, seat, rng):
    """[engine] Illegal actions raise IllegalAction and change nothing."""
    before = state.to_json()
    for action in ILLEGAL + ({"type": "vote", "war": True},):
        for who in (seat, (seat + 1) % state.n, state.n, -1):
            if action in legal_actions(state, who):
                continue
            with pytest.raises(IllegalAction):
                apply_action(state, who, action)
    assert state.to_json() == before


def check_view(state, rng):
    for seat in range(state.n):
        view = view_for(state, seat)
        twin = determinize(view, rng)
        assert view_for(twin, seat) == view, "a determinized state shows a different view"
    view_for(state, None)


def play_checked(players, seed, rng, board=TINY, options=None, diplomacy=0.0):
    def on_step(state, seat, action, new, step=[0]):  # noqa: B006 - a counter per game
        step[0] += 1
        for acting in acting_seats(new):
            assert legal_actions(new, acting), "an acting seat without a legal action"
        check_conservation(new, diplomacy > 0)
        if step[0] % 17 == 0:
            check_illegal(new, new.current if new.current >= 0 else 0, rng)
            check_view(new, rng)
            assert State.from_json(new.to_json()) == new

    final = random_game(players, seed, board, on_step, options, diplomacy)
    check_final(final)
    return final


def check_final(final):
    assert is_terminal(final) and final.turn == TURNS + 1
    assert all(len(sheet) == TURNS for sheet in final.sheet)
    assert final_scores(final) == [sum(sheet) for sheet in final.sheet]
    assert winners(final)
    assert legal_actions(final, 0) == []


@pytest.mark.parametrize("players", COUNTS)
def test_random_games_end_after_six_turns_with_conservation_and_secrecy(players):
    rng = random.Random(players)
    for game in range(RANDOM_GAMES):
        play_checked(players, 1000 * players + game, rng)


@pytest.mark.parametrize(("players", "options", "diplomacy"), REAL_BOARD)
def test_real_board_scenarios_powers_and_diplomacy_keep_every_property(players, options, diplomacy):
    rng = random.Random(players)
    for game in range(max(1, RANDOM_GAMES // 4)):
        play_checked(players, 500 + game, rng, None, options, diplomacy)


@pytest.mark.parametrize("players", COUNTS)
def test_replay_from_seed_and_actions_is_deterministic(players):
    rng = random.Random(7)
    log = []
    final = random_game(players, 77, on_step=lambda s, seat, a, n: log.append((seat, a)))
    state = new_game(players, 77, board=TINY)
    for seat, action in log:
        state = apply_action(state, seat, action)
    assert state == final and state.to_json() == final.to_json()
    assert rng  # the replay used no randomness of its own


def test_json_round_trip_is_lossless_mid_game():
    states = []
    random_game(6, 5, on_step=lambda s, seat, a, n: states.append(n))
    for state in states[::23]:
        again = State.from_json(state.to_json())
        assert again == state
        assert again.to_json() == state.to_json()
        for seat in range(state.n):
            assert legal_actions(again, seat) == legal_actions(state, seat)


def diplomacy_step(state, seat, rng):
    """A diplomacy action of `seat` (or None): its kinds drawn evenly, so that offers and their
    answers are as frequent as gifts; after an offer, half the time the recipient answers at once
    (acceptance or refusal), as a bot that answers offers does."""
    offered = diplomacy_actions(state, seat)
    if not offered:
        return []
    kind = rng.choice(sorted({action["type"] for action in offered}))
    action = rng.choice([a for a in offered if a["type"] == kind])
    steps = [(seat, action)]
    if kind.startswith("offer_") and rng.random() < 0.5:
        recipient = action["to"]
        after = apply_action(state, seat, action)
        answers = [
            a
            for a in diplomacy_actions(after, recipient)
            if a["type"].startswith(("accept_", "decline_")) and a["from"] == seat
        ]
        if answers:
            steps.append((recipient, rng.choice(answers)))
    return steps


def play_with_diplomacy(players, seed, board, options=None, share=0.35):
    """A random game where a share of the steps is diplomacy: after every action each acting
    seat has a legal action ([ruling] R42: diplomacy is no move of the turn, so it may never
    leave the turn without one), and the game ends."""
    rng = random.Random(seed)
    state = new_game(players, seed, options, board=board)
    steps = 0
    while not is_terminal(state):
        seat = rng.choice(sorted(acting_seats(state)))
        moves = [(seat, rng.choice(legal_actions(state, seat)))]
        if rng.random() < share:
            # The acting seat itself half the time (it offers in its own step), else anyone.
            diplomat = seat if rng.random() < 0.5 else rng.randrange(players)
            moves = diplomacy_step(state, diplomat, rng) or moves
        for actor, action in moves:
            state = apply_action(state, actor, action)
            for acting in acting_seats(state):
                assert legal_actions(state, acting), (
                    f"seat {acting} acts with no legal action after {actor}: {action!r}"
                )
        steps += 1
        assert steps < 20000, "a game that does not end"
    check_final(state)
    return state


@pytest.mark.parametrize("board", [TINY, None], ids=["tiny", "real"])
@pytest.mark.parametrize("players", COUNTS)
def test_games_full_of_offers_and_answers_never_leave_an_acting_seat_without_a_move(players, board):
    for game in range(max(2, RANDOM_GAMES // 3)):
        play_with_diplomacy(players, 300 * players + game, board, {"powers": game % 2 == 1})
