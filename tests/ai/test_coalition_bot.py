"""The arena's `coalition`: players who gang up on a leading outsider and see every hand. It
cheats on purpose, so it must stay out of the site's reach."""

import random

import pytest

import ai
from ai import arena, arena_levels
from ai.coalition_bot import CoalitionBot, outsider_leads, reach
from ai.heuristic import HeuristicBot
from ai.search.opponents import TeamOpponents, opponent_model
from ai.search.tree import Node
from ai.situation import Situation
from games.engine import action_to_move, apply_action, current_player, new_game, view_for
from games.lobby.tables import bot_levels

HANDS = [
    ["m1", "m10", "m6", "m5", "m4", "bishop", "winter"],
    ["m10", "m2", "m3", "m4"],
    ["m2", "m1", "m3", "m4"],
]
PASS = {"type": "pass"}


def battle(owners: dict):
    """Seat 0 to play in a battle for Napoli: its m1 against seat 1's m10 and seat 2's m2 (the
    position of the `ganging` tests, where the heuristic fights the m10)."""
    state = new_game(3, seed=1, hands=HANDS, owners=owners)
    state = apply_action(state, {"type": "choose_region", "region": "Napoli"})
    for card in ("m1", "m10", "m2"):
        state = apply_action(state, {"type": "play", "card": card})
    assert current_player(state) == 0
    return state, view_for(state, 0)


OUTSIDER_2_LEADS = {"Torino": 2}


def test_the_site_never_offers_the_coalition():
    assert "coalition" in arena_levels.ARENA_ONLY_LEVELS
    assert "coalition" not in ai.LEVELS and "coalition" not in ai.LEVEL_LABELS
    assert "coalition" not in bot_levels()
    with pytest.raises(ValueError):
        ai.make_bot("coalition")


def test_a_coalition_member_cannot_play_from_a_view_alone():
    """It reads every hand: only a caller holding the true state (the arena) can make it play."""
    _state, view = battle(OUTSIDER_2_LEADS)
    with pytest.raises(TypeError):
        CoalitionBot(1, allies={1}).choose(view)


def test_coalition_seats_are_told_their_allies_and_take_no_budget():
    lineup = ["coalition", "hard:100", "coalition", "coalition"]
    bot = arena_levels.make_arena_bot(
        "coalition", seat=2, lineup=lineup, seed=1, iterations=None, time_limit=None
    )
    assert isinstance(bot, CoalitionBot) and bot.sees_true_state
    assert bot.allies == {0, 3}
    with pytest.raises(ValueError):
        arena_levels.parse_token("coalition:50")


def test_the_coalition_gangs_only_on_an_outsider_who_strictly_leads():
    members = {0, 1}
    for owners, leads in (
        ({}, False),
        ({"Torino": 2}, True),
        ({"Torino": 2, "Milano": 1}, False),  # a member ties the outsider
        ({"Torino": 1}, False),
    ):
        state, view = battle(owners)
        assert outsider_leads(Situation.from_view(view), members) is leads, owners


def test_while_the_outsider_does_not_lead_each_member_plays_the_heuristic():
    state, view = battle({"Torino": 1})
    assert CoalitionBot(1, allies={1}).choose_with_state(view, state) == HeuristicBot(1).choose(
        view
    )


def test_against_a_leading_outsider_no_member_contests_an_allys_winning_line():
    state, view = battle(OUTSIDER_2_LEADS)
    assert HeuristicBot(1).choose(view)["type"] == "play", "the heuristic fights the m10 here"
    assert CoalitionBot(1, allies={1}).choose_with_state(view, state) == PASS


def test_reach_counts_every_card_that_adds_strength():
    assert reach(2, ["m5", "m3", "bishop"]) == 10
    assert reach(0, ["m5", "m3", "drummer"]) == 16  # the Drummer doubles the Mercenaries
    assert reach(1, ["heroine", "courtesan", "winter"]) == 12


def test_a_game_against_the_coalition_is_played_to_its_end():
    spec = {
        "deal": 0,
        "rotation": 0,
        "bots": ["heuristic", "coalition", "coalition", "coalition"],
        "game_seed": 991_000_003,
    }
    game = arena.play_game(spec)
    assert game["finished"] and game["winners"]


def test_the_searchs_coalition_model_plays_the_other_seats_as_the_coalition_does():
    """With a coalition modelled against seat 2 (who leads the table), seat 0 spares seat 1's
    winning m10 in the tree, where the plain heuristic model fights it."""
    state, view = battle(OUTSIDER_2_LEADS)
    rng = random.Random(3)
    team = opponent_model("heuristic", team_against=2, players=3)
    assert isinstance(team, TeamOpponents)
    assert team.move(state, rng, Node(-1), state) == action_to_move(state, PASS)
    plain = opponent_model("heuristic")
    assert not isinstance(plain, TeamOpponents)
    assert plain.move(state, rng, Node(-1), state) != action_to_move(state, PASS)
