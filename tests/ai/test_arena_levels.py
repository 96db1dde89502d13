"""The arena-only test opponents (`oracle`, `ganging`) and the `level:N` tokens."""

import random
from collections import Counter

import pytest

import ai
from ai import arena_levels
from ai.ganging import GangingBot, TeamBattleReader, TeamSituation, team_situation
from ai.heuristic import HeuristicBot
from ai.oracle import OracleBot, oracle_determinization, unseen_by_anyone
from ai.situation import Situation
from games.engine import (
    Options,
    apply_action,
    current_player,
    is_terminal,
    new_game,
    view_for,
)

# --- tokens ----------------------------------------------------------------------------------


def lone_bot(token: str):
    """The bot a token makes when it is the only seat and the run sets no budget of its own."""
    return arena_levels.make_arena_bot(
        token, seat=0, lineup=[token], seed=1, iterations=None, time_limit=None
    )


def test_tokens_carry_an_optional_iteration_budget():
    assert arena_levels.parse_token("hard") == ("hard", None)
    assert arena_levels.parse_token("hard:4000") == ("hard", 4000)
    assert arena_levels.parse_token("oracle:50") == ("oracle", 50)
    assert arena_levels.parse_token("ganging") == ("ganging", None)


@pytest.mark.parametrize(
    "token",
    ["hard:", "hard:0", "hard:-3", "hard:1.5", "hard:x", "heuristic:10", "ganging:5", "hrd"],
)
def test_malformed_tokens_are_refused(token):
    with pytest.raises(ValueError):
        arena_levels.parse_token(token)


def test_a_token_budget_replaces_the_run_budget():
    bot = arena_levels.make_arena_bot(
        "hard:70", seat=0, lineup=["hard:70"], seed=1, iterations=5, time_limit=2.0
    )
    assert (bot.iterations, bot.time_limit) == (70, None)
    plain = arena_levels.make_arena_bot(
        "hard", seat=0, lineup=["hard"], seed=1, iterations=5, time_limit=None
    )
    assert (plain.iterations, plain.time_limit) == (5, None)


def test_the_oracle_takes_hards_default_budget():
    bot = lone_bot("oracle")
    assert isinstance(bot, OracleBot)
    assert (bot.iterations, bot.time_limit) == ai.DEFAULT_BUDGETS["hard"]


def test_the_site_never_offers_the_arena_levels():
    assert not set(arena_levels.ARENA_ONLY_LEVELS) & set(ai.LEVELS)
    for level in arena_levels.ARENA_ONLY_LEVELS:
        with pytest.raises(ValueError):
            ai.make_bot(level)


def test_ganging_seats_are_told_their_allies():
    lineup = ["ganging", "hard:100", "ganging", "ganging"]
    bot = arena_levels.make_arena_bot(
        "ganging", seat=2, lineup=lineup, seed=1, iterations=None, time_limit=None
    )
    assert isinstance(bot, GangingBot)
    assert bot.allies == {0, 3}


# --- oracle ----------------------------------------------------------------------------------


def hidden_cards_position():
    """A battle of a Hidden Cards game in which another seat has a face-down card and a seat has
    discarded face down (heuristic play, so the position is realistic)."""
    state = new_game(3, seed=3, options=Options(hidden_cards=True))
    bot = HeuristicBot(0)
    while not is_terminal(state):
        seat = current_player(state)
        others_face_down = any(fd != -1 for other, fd in enumerate(state.fd) if other != seat)
        if others_face_down and any(state.hidden_discards):
            return state, seat
        state = apply_action(state, bot.choose(view_for(state, seat)))
    raise AssertionError("no such position in this game")


def test_oracle_determinizations_keep_every_hidden_card_but_the_decks_order():
    truth, seat = hidden_cards_position()
    view = view_for(truth, seat)
    drawn = [oracle_determinization(view, truth, random.Random(i)) for i in range(4)]
    for state in drawn:
        assert state.hands == truth.hands
        assert state.fd == truth.fd
        assert view_for(state, seat) == view
        assert Counter(state.deck + state.dead) == Counter(unseen_by_anyone(truth, seat))
        assert len(state.deck) == len(truth.deck)
    assert len({state.deck for state in drawn}) == len(drawn), "the deck must be reshuffled"
    assert len({state.seed for state in drawn}) == len(drawn), "future shuffles must be unknown"


def test_an_oracle_cannot_choose_from_a_view_alone():
    truth, seat = hidden_cards_position()
    with pytest.raises(TypeError):
        OracleBot(1, iterations=10).choose(view_for(truth, seat))


def test_an_oracle_plays_legal_moves_through_a_game():
    """apply_action refuses an illegal action, so a finished game is the check."""
    state = new_game(2, seed=11)
    oracle, rival = OracleBot(1, iterations=12, level="oracle"), HeuristicBot(2)
    actions = 0
    while not is_terminal(state) and actions < 400:
        seat = current_player(state)
        view = view_for(state, seat)
        action = oracle.choose_with_state(view, state) if seat == 0 else rival.choose(view)
        assert action in view["legal_actions"]
        state = apply_action(state, action)
        actions += 1
    assert is_terminal(state)


# --- ganging ---------------------------------------------------------------------------------

HANDS = [
    ["m1", "m10", "m6", "m5", "m4", "bishop", "winter"],
    ["m10", "m2", "m3", "m4"],
    ["m2", "m1", "m3", "m4"],
]


def battle_view(owners: dict) -> dict:
    """Seat 0 to play in a battle for Napoli: its m1 against seat 1's m10 and seat 2's m2; seat
    0 holds Bishop, Winter and Mercenaries, enough to fight the m10."""
    state = new_game(3, seed=1, hands=HANDS, owners=owners)
    state = apply_action(state, {"type": "choose_region", "region": "Napoli"})
    for card in ("m1", "m10", "m2"):
        state = apply_action(state, {"type": "play", "card": card})
    assert current_player(state) == 0
    return view_for(state, 0)


ALLY_LEADS = {"Torino": 1, "Milano": 1}
PASS = {"type": "pass"}


def test_ganging_passes_instead_of_fighting_a_leading_allys_winning_line():
    view = battle_view(ALLY_LEADS)
    plain = HeuristicBot(1).choose(view)
    assert plain["type"] == "play", "the position must tempt the heuristic to fight the m10"
    assert GangingBot(1, allies={1}).choose(view) == PASS


def test_ganging_fights_an_outsiders_winning_line():
    """The same battle with seat 1 an outsider: the coalition (seats 0 and 2) leads once seat 2
    ties seat 1's progress."""
    view = battle_view({"Torino": 1, "Milano": 2})
    assert GangingBot(1, allies={2}).choose(view)["type"] == "play"


def test_ganging_plays_the_heuristic_before_anyone_leads():
    view = battle_view({})
    assert team_situation(view, {1}) is None
    assert GangingBot(1, allies={1}).choose(view) == HeuristicBot(1).choose(view)


def test_ganging_plays_the_heuristic_while_an_outsider_leads():
    view = battle_view({"Torino": 2, "Milano": 2})
    assert team_situation(view, {1}) is None
    assert GangingBot(1, allies={1}).choose(view) == HeuristicBot(1).choose(view)


def test_ganging_matches_the_heuristic_in_a_game_nobody_leads_yet():
    """Every decision of a game's opening, before the first region is won."""
    state = new_game(4, seed=8)
    plain, ganging = HeuristicBot(5), GangingBot(5, allies={1, 2})
    while not is_terminal(state) and not any(owner != -1 for owner in state.owners):
        view = view_for(state, current_player(state))
        action = plain.choose(view)
        assert ganging.choose(view) == action
        state = apply_action(state, action)


def test_an_ally_winning_counts_as_good_and_an_outsider_as_bad():
    view = battle_view(ALLY_LEADS)
    team = TeamSituation.for_team(Situation.from_view(view), {1})
    assert list(team.rivals()) == [2]
    # Genova joins seat 1's Torino and Milano: progress for it, whoever takes it.
    assert team.value_of_winning(1, "Genova") > 0
    assert team.value_of_winning(2, "Genova") < 0
    assert Situation.from_view(view).value_of_winning(1, "Genova") < 0


def test_no_spoiler_that_costs_an_ally_its_battle():
    view = battle_view(ALLY_LEADS)
    reader = TeamBattleReader(view, team_situation(view, {1}), GangingBot(1).style)
    assert reader.ally_holds_the_battle()
    assert reader.costs_an_ally({"type": "play", "card": "winter"})
    assert reader.costs_an_ally({"type": "play", "card": "bishop", "pope": None})
    assert not reader.costs_an_ally({"type": "play", "card": "m5"})


def test_a_token_may_switch_search_options_on():
    bot = arena_levels.make_arena_bot(
        "hard+inference+auto-coalition:50",
        seat=0,
        lineup=["hard+inference+auto-coalition:50", "heuristic"],
        seed=1,
        iterations=None,
        time_limit=None,
    )
    assert (bot.iterations, bot.inference, bot.coalition, bot.uses_history) == (
        50,
        True,
        "auto",
        True,
    )
    plain = lone_bot("hard:50")
    assert (plain.inference, plain.coalition, plain.uses_history) == (False, False, False)
    # The cut-off evaluation: hand-built unless +learned asks for the learned one.
    for token, value in (("hard:50", "hand-built"), ("expert+learned:50", "learned")):
        assert lone_bot(token).value == value
    # The search depth per level (levels.SEARCH_BATTLES), and the flags that change it.
    depths = {
        token: lone_bot(token).battles
        for token in (
            "medium:50",
            "medium+shallow:50",
            "hard:50",
            "hard+shallow:50",
            "hard+deeper:50",
            "expert:50",
            "oracle:50",
            "oracle+shallow:50",
        )
    }
    assert depths == {
        "medium:50": 2,
        "medium+shallow:50": 1,
        "hard:50": 2,
        "hard+shallow:50": 1,
        "hard+deeper:50": 3,
        "expert:50": 2,
        "oracle:50": 2,
        "oracle+shallow:50": 1,
    }
    # How the other seats choose in the tree (levels.SEARCH_OPPONENTS), and the flags that change
    # it; expert plays them as the model of hard it must beat; the oracle is hard given the
    # cards, so it models the others as hard does.
    models = {
        token: lone_bot(token).opponents
        for token in (
            "medium:50",
            "medium+searched-opponents:50",
            "hard:50",
            "hard+searched-opponents:50",
            "hard+playout-opponents:50",
            "hard+imitation-opponents:50",
            "expert:50",
            "oracle:50",
            "oracle+searched-opponents:50",
        )
    }
    assert models == {
        "medium:50": "heuristic",
        "medium+searched-opponents:50": "searched",
        "hard:50": "heuristic",
        "hard+searched-opponents:50": "searched",
        "hard+playout-opponents:50": "playout",
        "hard+imitation-opponents:50": "imitation",
        "expert:50": "imitation",
        "oracle:50": "heuristic",
        "oracle+searched-opponents:50": "searched",
    }
    for token in (
        "heuristic+inference",
        "hard+telepathy",
        "oracle+coalition:5",
        "oracle+inference",
    ):
        with pytest.raises(ValueError, match="is not an option"):
            arena_levels.parse_token(token)
