"""The Renaissance search bot (ai/renaissance/search.py), the site's `medium` and `hard`: it decides
from its seat's view alone, plays only its seat's legal actions, costs nothing on a decision
with one answer, and keeps within its level's thinking time."""

import inspect
import json
import random

import pytest

import ai
import games.renaissance as renaissance
from ai.renaissance import BUDGETS, LEVEL_BOTS, HeuristicBot, RenaissanceSearchBot, make_bot
from ai.renaissance import search as search_module
from ai.renaissance.arena import check_levels, make_arena_bot
from ai.renaissance.search import (
    CONTESTED_ROUNDS,
    MIN_ROUNDS,
    SEARCHED_PHASES,
    Budget,
    contested,
    preferred,
)

# No clock, and the fewest rounds after which the search may overrule the heuristic: a
# reproducible bot whose search counts, quick enough for tests.
ROUNDS = MIN_ROUNDS


def heuristic_game(players: int, seed: int):
    """Every (state, acting seat) of a game of heuristic bots."""
    bots = [HeuristicBot() for _ in range(players)]
    state = renaissance.new_game(players, seed=seed)
    while not renaissance.is_terminal(state):
        seat = min(renaissance.acting_seats(state))
        yield state, seat
        state = renaissance.apply_action(
            state, seat, bots[seat].choose(renaissance.view_for(state, seat))
        )


def searched_positions(players: int, seed: int, wanted: int):
    """Positions of a heuristic game where the acting seat has a searched choice to make."""
    found = []
    for state, seat in heuristic_game(players, seed):
        view = renaissance.view_for(state, seat)
        if view["phase"] in SEARCHED_PHASES and len(view["legal_actions"]) > 1:
            found.append((state, seat))
            if len(found) == wanted:
                break
    return found


# --- honesty --------------------------------------------------------------------------------


def test_hidden_cards_do_not_change_the_searchs_choice():
    """[rules] each player's cards are his own: two states that differ only in what the seat
    cannot see (the other hands, the deck, the face-down cards: the same view, determinized
    anew) give the seat the same view, and the search the same action."""
    rng = random.Random(3)
    differing = 0
    for state, seat in searched_positions(5, seed=4, wanted=8):
        view = renaissance.view_for(state, seat)
        variant = renaissance.determinize(view, rng)
        assert renaissance.view_for(variant, seat) == view
        differing += variant.hands != state.hands or variant.deck != state.deck
        bots = [make_bot("hard", seed=7, rounds=ROUNDS) for _ in range(2)]
        first = bots[0].choose(view)
        second = bots[1].choose(renaissance.view_for(variant, seat))
        assert first == second
        # Both searched alike, the whole budget in rounds (more on a contested decision).
        assert bots[0].last_rounds == bots[1].last_rounds
        assert ROUNDS <= bots[0].last_rounds <= search_module.CONTESTED_ROUNDS * ROUNDS
    assert differing >= 6


def test_the_search_is_handed_only_the_view():
    bot = make_bot("hard", seed=0, rounds=ROUNDS)
    assert list(inspect.signature(bot.choose).parameters) == ["view"]
    assert list(inspect.signature(bot.answer_offer).parameters) == ["view"]
    state = renaissance.new_game(3, seed=1)
    with pytest.raises((TypeError, AttributeError)):
        bot.choose(state)  # a full state is not a view


# --- legal, quick, reproducible -------------------------------------------------------------


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_search_plays_a_legal_action_of_its_seat(level):
    """From the view as a remote bot would get it (JSON), in the phases it searches."""
    bot = make_bot(level, seed=2, rounds=ROUNDS)
    phases = set()
    for state, seat in searched_positions(4, seed=9, wanted=12):
        view = json.loads(json.dumps(renaissance.view_for(state, seat)))
        action = bot.choose(view)
        assert action in renaissance.legal_actions(state, seat)
        renaissance.apply_action(state, seat, action)
        phases.add(view["phase"])
    assert len(phases) >= 2


def test_a_decision_with_one_legal_action_is_not_searched(monkeypatch):
    def no_search(*args):
        raise AssertionError("a determinization or rollout for a decision with one answer")

    monkeypatch.setattr(search_module, "rollout", no_search)
    monkeypatch.setattr(search_module.renaissance, "determinize", no_search)
    bot = make_bot("hard", seed=1)
    for state, seat in heuristic_game(6, seed=2):
        view = renaissance.view_for(state, seat)
        if len(view["legal_actions"]) == 1:
            assert bot.choose(view) == view["legal_actions"][0]
            assert bot.last_rounds == 0
            return
    pytest.fail("no decision with a single legal action in a whole game")


def test_the_same_view_and_seed_give_the_same_choice():
    state, seat = searched_positions(6, seed=5, wanted=3)[-1]
    view = renaissance.view_for(state, seat)
    choices = {str(make_bot("hard", seed=4, rounds=ROUNDS).choose(view)) for _ in range(3)}
    assert len(choices) == 1


# --- levels and budgets ---------------------------------------------------------------------


def test_medium_and_hard_are_the_search_at_their_budgets():
    """The site's search levels: `hard` within the issue's 2 s, `medium` clearly cheaper."""
    assert LEVEL_BOTS["medium"] == "medium" and LEVEL_BOTS["hard"] == "hard"
    for level in ("medium", "hard"):
        bot = ai.make_bot(level, seed=3, game="renaissance")
        assert type(bot) is RenaissanceSearchBot and bot.budget == BUDGETS[level]
    hard, medium = BUDGETS["hard"], BUDGETS["medium"]
    assert hard.seconds <= 2.0
    assert medium.seconds <= hard.seconds / 2
    assert medium.rounds < hard.rounds


def test_the_sites_thinking_time_only_shortens_a_levels_clock():
    assert make_bot("medium", time_limit=1.5).budget.seconds == BUDGETS["medium"].seconds
    assert make_bot("hard", time_limit=0.05).budget.seconds == 0.05


class RolloutClock:
    """A clock that moves only when a rollout runs, by ROLLOUT_SECONDS each: the search's
    stopping rule checked on a machine of any load (a wall clock would time the machine)."""

    ROLLOUT_SECONDS = 0.03

    def __init__(self, rollout):
        self.now, self.rollouts, self._rollout = 100.0, 0, rollout

    def perf_counter(self) -> float:
        return self.now

    def rollout(self, *args):
        self.rollouts += 1
        self.now += self.ROLLOUT_SECONDS
        return self._rollout(*args)


def test_a_searched_decision_keeps_within_the_clock(monkeypatch):
    """The clock is checked before every rollout: a decision ends at most one rollout past its
    time, however many rounds its level would play."""
    clock = RolloutClock(search_module.rollout)
    monkeypatch.setattr(search_module, "time", clock)
    monkeypatch.setattr(search_module, "rollout", clock.rollout)
    bot = make_bot("hard", seed=6, time_limit=0.1)
    searched = 0
    for state, seat in searched_positions(6, seed=8, wanted=4):
        started, clock.rollouts = clock.now, 0
        bot.choose(renaissance.view_for(state, seat))
        if clock.rollouts:
            searched += 1
            assert clock.now - started < 0.1 + RolloutClock.ROLLOUT_SECONDS + 1e-9
            # Stopped by the clock, not by running out of rounds.
            assert clock.rollouts < bot.budget.rounds * bot.budget.width
    assert searched


def test_offers_are_answered_and_made_by_the_heuristics_rules():
    rng = random.Random(1)
    for state, seat in searched_positions(4, seed=3, wanted=3):
        view = renaissance.view_for(state, seat)
        seed = rng.randrange(9)
        assert make_bot("hard", seed=seed).answer_offer(view) == HeuristicBot(seed).answer_offer(
            view
        )
        assert make_bot("hard", seed=seed).make_offer(view) == HeuristicBot(seed).make_offer(view)


def test_the_arena_plays_a_search_level_at_n_rounds_without_a_clock():
    """`hard:N` in the arena: the search at N rounds a decision, the same games on any machine."""
    bot = make_arena_bot("hard:4", seed=1)
    assert type(bot) is RenaissanceSearchBot
    assert bot.budget.rounds == 4 and bot.budget.seconds is None
    with pytest.raises(ValueError, match="rounds only for a search level"):
        check_levels(["heuristic:4"])


# --- rounds where they can change the move ----------------------------------------------------


def rounds_of(gains: list[float]) -> list[list[float]]:
    """A search table of two candidates: the heuristic's move at 0, the other `gain` above it."""
    return [[0.0, gain] for gain in gains]


def test_a_choice_is_contested_while_a_candidate_leads_the_advice_without_a_clear_margin():
    ahead_unclear = rounds_of([1.0, -0.8, 0.9, -0.7, 1.1, -0.6, 0.5, -0.4])
    assert preferred(ahead_unclear) == 0
    assert contested(ahead_unclear)
    ahead_clearly = rounds_of([1.0, 1.1, 0.9, 1.0, 1.2, 0.8])
    assert preferred(ahead_clearly) == 1
    assert not contested(ahead_clearly)
    behind = rounds_of([-1.0, 0.5, -0.9, 0.4, -1.1, 0.3])
    assert not contested(behind)
    assert contested(rounds_of([-1.0] * (MIN_ROUNDS - 1)))  # too few rounds to judge


def searched_rounds(monkeypatch, gains, rounds) -> list[list[float]]:
    """The rounds a search of two candidates plays at `rounds` rounds when each round's gain of
    the second candidate over the first (the heuristic's move) is scripted: `gains`, then 0."""
    state, seat = searched_positions(6, seed=5, wanted=1)[0]
    view = renaissance.view_for(state, seat)
    scripted = iter(gains)
    calls = []

    def rollout(state, seat, action, horizon, own_policy):
        calls.append(action)
        return 0.0 if len(calls) % 2 else next(scripted, 0.0)

    monkeypatch.setattr(search_module, "rollout", rollout)
    bot = RenaissanceSearchBot(1, budget=Budget(seconds=None, rounds=rounds, width=2, horizon=1))
    return bot.search(view, view["legal_actions"][:2], random.Random(0))


def test_a_contested_choice_is_searched_on_up_to_a_multiple_of_the_rounds(monkeypatch):
    # Ahead on average, never clearly: searched to the cap.
    seesaw = searched_rounds(monkeypatch, [1.0, -0.8] * 100, rounds=8)
    assert len(seesaw) == 8 * CONTESTED_ROUNDS
    # Clearly ahead or clearly behind after the level's rounds: no round more.
    assert len(searched_rounds(monkeypatch, [1.0] * 100, rounds=8)) == 8
    assert len(searched_rounds(monkeypatch, [-1.0] * 100, rounds=8)) == 8
    # Settled on the way: the search stops at the round that makes the lead clear.
    table = searched_rounds(monkeypatch, [1.0, -0.8] * 4 + [3.0] * 100, rounds=8)
    assert 8 < len(table) < 8 * CONTESTED_ROUNDS
    assert preferred(table) == 1 and preferred(table[:-1]) == 0


def test_a_search_too_short_to_overrule_the_advice_is_not_searched_on(monkeypatch):
    """Below MIN_ROUNDS the heuristic's move is played whatever the rounds say, so a budget that
    cannot reach them even searched on (the arena's `hard:1`) plays its own rounds only."""
    assert (1 * CONTESTED_ROUNDS) < MIN_ROUNDS
    assert len(searched_rounds(monkeypatch, [1.0, -0.8] * 100, rounds=1)) == 1


def test_a_rollout_plays_the_seat_by_its_own_rules_and_the_others_by_the_opponent_model(
    monkeypatch,
):
    """The searching seat's moves in a rollout are its level's own rules of thumb; every other
    seat's are the opponent model (POLICY, the heuristic)."""
    asked = {"own": set(), "model": set()}

    class Recording:
        def __init__(self, key, bot):
            self.key, self.bot = key, bot

        def choose(self, view):
            asked[self.key].add(view["seat"])
            return self.bot.choose(view)

    monkeypatch.setattr(search_module, "POLICY", Recording("model", search_module.POLICY))
    own = Recording("own", search_module.OWN_POLICIES["hard"])
    state, seat = searched_positions(6, seed=3, wanted=1)[0]
    action = renaissance.legal_actions(state, seat)[0]
    search_module.rollout(state, seat, action, horizon=200, own_policy=own)
    assert asked["own"] == {seat}
    assert asked["model"] == set(range(6)) - {seat}


def test_rounds_too_few_to_overrule_the_advice_are_not_played(monkeypatch):
    """`hard:1` (one round, below MIN_ROUNDS even searched on) can never overrule its own
    rules of thumb, so it plays them at once, with no determinization nor rollout."""

    def no_search(*args):
        raise AssertionError("a determinization or rollout that could not change the move")

    monkeypatch.setattr(search_module, "rollout", no_search)
    monkeypatch.setattr(search_module.renaissance, "determinize", no_search)
    for state, seat in searched_positions(6, seed=5, wanted=4):
        view = renaissance.view_for(state, seat)
        bot = make_arena_bot("hard:1", seed=2)
        assert bot.choose(view) == search_module.OWN_POLICIES["hard"].choose(view)
        assert bot.last_rounds == 0
