"""Whole Renaissance bot games with diplomacy never stall: every seat makes its offers before
its decisions and every bot answers those made to it at once, and the game still reaches its
end (rulebook line 343: "Les joueurs peuvent user de diplomatie à tout moment"; [ruling] R45:
offers vanish at the end of the turn), with few offers (a cap a turn) and every one answered."""

import pytest

from ai.renaissance.diplomacy_arena import play_game, schedule
from ai.renaissance.offers import OFFERS_PER_TURN

TURNS = 6
SEEDS = range(3)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_games_where_every_bot_offers_always_end(players):
    lineup = ["heuristic+offers", "easy+offers"]
    made = 0
    for seed in SEEDS:
        spec = schedule(lineup, players, 1, 100 * players + seed)[0]
        game = play_game(spec)
        assert game["finished"], f"the game of seed {spec['game_seed']} did not end"
        assert all(count <= OFFERS_PER_TURN * TURNS for count in game["made_by"])
        offers = game["offers"]
        # Every offer got its answer at once (none waited for the end of the turn).
        assert offers["accepted"] + offers["declined"] == offers["made"]
        made += offers["made"]
    assert made > 0, "no bot ever made an offer"
