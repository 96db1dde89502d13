"""The Renaissance bots (ai/renaissance): legal from their own view, the heuristic clearly ahead
of random play, and the arena's --game renaissance."""

import json
import random

import pytest

import games.renaissance as renaissance
from ai import arena
from ai.renaissance import make_bot
from ai.renaissance.arena import play_game, schedule
from ai.renaissance.heuristic import ARMED, MODEST, READY, HeuristicBot
from ai.renaissance.odds import p_beats
from games.renaissance.state import PURCHASE
from tests.renaissance.conftest import edit, game, hand, through_setup


def test_dice_odds_follow_the_tie_rule():
    assert p_beats(10, 10) == pytest.approx(15 / 36)  # a tie goes to the defender
    assert p_beats(20, 10) == pytest.approx(1.0)
    assert p_beats(0, 10) == pytest.approx(0.0)


def random_positions(players, seed, every=3, options=None):
    """Positions of a random game (every `every`-th decision), with the seat that acts."""
    rng = random.Random(seed)
    state = renaissance.new_game(players, seed=seed, options=options)
    step = 0
    while not renaissance.is_terminal(state):
        seat = rng.choice(sorted(renaissance.acting_seats(state)))
        if step % every == 0:
            yield state, seat
        state = renaissance.apply_action(
            state, seat, rng.choice(renaissance.legal_actions(state, seat))
        )
        step += 1


@pytest.mark.parametrize("level", ["heuristic", "random"])
def test_a_bot_returns_a_legal_action_of_its_seat_from_its_view_only(level):
    """Every phase of random games, 3 to 6 players: the choice, made from the seat's view, is
    one of that seat's legal actions, and the engine accepts it."""
    phases = set()
    for players in (3, 4, 5, 6):
        bot = make_bot(level, seed=players)
        for state, seat in random_positions(players, seed=players):
            view = renaissance.view_for(state, seat)
            action = bot.choose(json.loads(json.dumps(view)))  # what a remote bot would get
            assert action in renaissance.legal_actions(state, seat)
            renaissance.apply_action(state, seat, action)
            phases.add(view["phase"])
    assert {"vote", "purchase", "expansion", "combat", "attack", "defend"} <= phases


@pytest.mark.parametrize("scenario", ["1494", "1499", "1515"])
def test_the_heuristic_plays_legally_in_every_scenario_with_the_nations_powers(scenario):
    """The options add steps (the Swiss announce their bonus before buying, France may attack
    from a city just taken...): the heuristic still plays only listed actions."""
    bot = make_bot("heuristic", seed=1)
    options = {"scenario": scenario, "powers": True}
    for state, seat in random_positions(6, seed=7, every=2, options=options):
        action = bot.choose(json.loads(json.dumps(renaissance.view_for(state, seat))))
        assert action in renaissance.legal_actions(state, seat)


def test_the_heuristic_beats_random_bots_clearly():
    """6 players, 12 games (2 deals x 6 rotations): one heuristic seat against five random
    ones. Measured: it wins all 12 (random play would win 1/6, 2 games). Asserted: at least 9."""
    specs = schedule(["heuristic", "random", "random", "random", "random", "random"], 6, 12, 7)
    results = [play_game(spec) for spec in specs]
    wins = sum(game["shares"][game["bots"].index("heuristic")] for game in results)
    assert {game["bots"].index("heuristic") for game in results} == set(range(6))
    assert wins >= 9, f"the heuristic won only {wins} of 12"


def test_mirror_runs_rotate_the_nations_over_the_seats():
    specs = schedule(["heuristic"], 3, games=3, seed=2)
    assert len({spec["game_seed"] for spec in specs}) == 1
    for seat in range(3):
        assert len({spec["nations"][seat] for spec in specs}) == 3


def test_the_arena_plays_renaissance_and_writes_its_json(tmp_path, capsys):
    out = tmp_path / "arena.json"
    argv = ["--game", "renaissance", "--players", "3", "--games", "3", "--bots"]
    argv += ["heuristic,random", "--seed", "1", "--workers", "1", "--quiet", "--json", str(out)]
    report = arena.main(argv)
    assert len(report["games"]) == 3 and report["unfinished"] == 0
    assert report["seat_coverage"] == {"heuristic": [0, 1, 2], "random": [0, 1, 2]}
    bots = report["summary"]["bots"]
    assert {bot: row["games"] for bot, row in bots.items()} == {"heuristic": 6, "random": 3}
    assert sum(row["wins"] for row in bots.values()) == pytest.approx(3)
    assert sum(row["games"] for row in report["summary"]["nations"].values()) == 9
    printed = capsys.readouterr().out
    assert "nation" in printed and "heuristic" in printed and "3 games" in printed
    assert json.loads(out.read_text())["summary"]["bots"].keys() == bots.keys()


def test_the_arena_refuses_unknown_renaissance_bots():
    with pytest.raises(SystemExit, match="unknown Renaissance bots"):
        arena.main(
            ["--game", "renaissance", "--players", "3", "--games", "3", "--bots", "grandmaster"]
        )


def purchases_of_one_seat(bot, war, ducats=20):
    """The hand the current seat ends its purchases with when `bot` plays them from a hand of
    two troops (a war turn or a peace turn, no Artist in hand)."""
    state = through_setup(game(6, 1))
    assert state.phase == PURCHASE
    seat = state.current
    hands = tuple(hand("pikemen", "knights") if s == seat else h for s, h in enumerate(state.hands))
    ducats_now = tuple(ducats if s == seat else d for s, d in enumerate(state.ducats))
    state = edit(state, war=war, hands=hands, ducats=ducats_now)
    while state.phase == PURCHASE and state.current == seat:
        action = bot.choose(renaissance.view_for(state, seat))
        state = renaissance.apply_action(state, seat, action)
    return sum(state.hands[seat])


def test_the_armed_style_buys_up_to_the_hand_limit_at_war_only():
    """[rules] line 285: at most 12 cards in hand after the purchases, 2 ducats a card. With 20
    ducats and 2 cards, `ARMED` (hard's rules of thumb) buys 10 at war and ends at the limit;
    `READY` (medium's) ends at 9, the `heuristic` level's `MODEST` at 7 (walls first, then
    cards). In peace all three end at 5."""

    def hand_after(style, war):
        return purchases_of_one_seat(HeuristicBot(style=style), war)

    assert hand_after(ARMED, war=1) == 12
    assert hand_after(READY, war=1) == 9
    assert hand_after(MODEST, war=1) == 7
    assert hand_after(ARMED, war=0) == hand_after(READY, war=0) == hand_after(MODEST, war=0) == 5


@pytest.mark.parametrize(("level", "war_hand"), [("medium", 9), ("hard", 12)])
def test_the_search_levels_buy_by_their_own_styles(level, war_hand):
    """The purchases are not searched: a search level plays its own rules of thumb there,
    `medium` READY's (a war hand of 9), `hard` ARMED's (up to the limit)."""
    assert purchases_of_one_seat(make_bot(level, seed=1, rounds=6), war=1) == war_hand


def test_the_balance_check_takes_an_arena_token(capsys, tmp_path):
    """`--bot hard:1` puts hard's own rules of thumb in every seat (the strongest bot's moves
    without its search's cost); its report keeps each game but not every decision's time; an
    unknown bot is refused with the levels named."""
    from ai.renaissance import balance

    saved = tmp_path / "balance.json"
    report = balance.main(
        ["--games", "3", "--players", "3", "--seed", "0", "--workers", "1", "--bot", "hard:1"]
        + ["--json", str(saved)]
    )
    assert report["games"] == 3 and report["unfinished"] == 0
    results = json.loads(saved.read_text())["results"]
    assert len(results) == 3 and not any("think_ms" in game for game in results)
    assert sum(row["wins"] for row in report["summary"]["nations"].values()) == pytest.approx(3)
    with pytest.raises(SystemExit, match="choose one of"):
        balance.main(["--games", "3", "--players", "3", "--bot", "hardest"])
