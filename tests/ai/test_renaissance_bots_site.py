"""The bots as the site uses them: one factory for both games, and Renaissance bots that answer
the diplomacy offers made to their seat ([ruling] R42, R44, R45) from their own view only."""

import inspect
import json
import random

import pytest

import ai
import ai.renaissance
import games.renaissance as renaissance
from ai.factory import EASY_MISTAKES
from ai.heuristic import HeuristicBot as CondottiereHeuristicBot
from ai.random_bot import RandomBot as CondottiereRandomBot
from ai.renaissance import HeuristicBot, RandomBot, RenaissanceSearchBot, offers_waiting
from ai.search.bot import SearchBot
from ai.search.parallel import RootParallelBot
from games.renaissance.diplomacy import diplomacy_actions
from games.renaissance.state import put
from tests.ai.test_renaissance_offers import table as exchange_table
from tests.renaissance.conftest import combat_state, edit, hand

ANSWERS = {"accept_exchange", "decline_exchange", "accept_condottiere", "decline_condottiere"}
OFFERS = ("offer_exchange", "offer_condottiere")
RENAISSANCE_BOTS = ("random", "easy", "heuristic")

# --- one factory ----------------------------------------------------------------------------

CONDOTTIERE_CLASSES = {
    "random": CondottiereRandomBot,
    "easy": CondottiereHeuristicBot,
    "heuristic": CondottiereHeuristicBot,
    "medium": SearchBot,
    "hard": SearchBot,
    "expert": RootParallelBot,
}


@pytest.mark.parametrize("level", ai.LEVELS)
def test_condottiere_bots_are_the_same_classes_and_seeds_with_or_without_the_game(level):
    for bot in (ai.make_bot(level, seed=5), ai.make_bot(level, seed=5, game="condottiere")):
        assert type(bot) is CONDOTTIERE_CLASSES[level]
        assert bot.seed == 5 and bot.level == level
    assert ai.make_bot("easy", seed=5).mistakes == EASY_MISTAKES
    assert ai.make_bot("heuristic", seed=5).mistakes == 0


def test_every_site_level_has_a_renaissance_bot_that_exists():
    assert tuple(ai.renaissance.LEVEL_BOTS) == ai.LEVELS
    assert set(ai.renaissance.LEVEL_BOTS.values()) == set(ai.renaissance.LEVELS)
    # Every level with a bot of its own keeps it; `expert` gets the strongest there is.
    for level in (*RENAISSANCE_BOTS, "medium", "hard"):
        assert ai.renaissance.LEVEL_BOTS[level] == level
    assert ai.renaissance.LEVEL_BOTS["expert"] == "hard"


@pytest.mark.parametrize("level", ai.LEVELS)
def test_a_renaissance_bot_of_each_level_is_the_bot_the_table_names(level):
    bot = ai.make_bot(level, seed=5, iterations=10, time_limit=0.1, game="renaissance")
    plays = ai.renaissance.LEVEL_BOTS[level]
    classes = {"random": RandomBot, "medium": RenaissanceSearchBot, "hard": RenaissanceSearchBot}
    assert type(bot) is classes.get(plays, HeuristicBot)
    assert bot.level == plays and bot.seed == 5
    if plays in ("easy", "heuristic"):
        assert (bot.mistakes > 0) == (plays == "easy")
    assert type(ai.renaissance.make_bot(level, seed=5)) is type(bot)


def test_unknown_games_and_levels_are_refused():
    with pytest.raises(ValueError, match="unknown game"):
        ai.make_bot("heuristic", game="chess")
    for game in ("condottiere", "renaissance"):
        with pytest.raises(ValueError, match="unknown bot level"):
            ai.make_bot("grandmaster", game=game)


def test_the_renaissance_random_bot_still_chooses_as_condottieres_does():
    """It only adds answers: the same seed and view give the same move as before."""
    state = renaissance.new_game(4, seed=3)
    for _ in range(40):
        seat = min(renaissance.acting_seats(state))
        view = renaissance.view_for(state, seat)
        action = RandomBot(11).choose(view)
        assert action == CondottiereRandomBot(11).choose(view)
        state = renaissance.apply_action(state, seat, action)


# --- answers are legal -----------------------------------------------------------------------


def offer_to(state, target, rng):
    """A random offer (exchange or sale) from another seat to `target`, if any seat has one."""
    senders = [seat for seat in range(state.n) if seat != target]
    rng.shuffle(senders)
    for sender in senders:
        offers = [
            a for a in diplomacy_actions(state, sender) if a["type"] in OFFERS and a["to"] == target
        ]
        if offers:
            return sender, rng.choice(offers)
    return None


def games_with_offers(players, seed, target, offer_share=0.2):
    """A random game on the real board, 3-6 players: at `offer_share` of the steps another seat
    offers `target` an exchange or a Condottiere sale; otherwise an acting seat moves at random,
    or (one step in five while offers wait) `target` answers at random. Yields every state."""
    rng = random.Random(seed)
    state = renaissance.new_game(players, seed=seed)
    while not renaissance.is_terminal(state):
        yield state
        roll = rng.random()
        made = offer_to(state, target, rng) if roll < offer_share else None
        answers = [a for a in diplomacy_actions(state, target) if a["type"] in ANSWERS]
        if made:
            seat, action = made
        elif answers and roll < offer_share + 0.2:
            seat, action = target, rng.choice(answers)
        else:
            seat = rng.choice(sorted(renaissance.acting_seats(state)))
            action = rng.choice(renaissance.legal_actions(state, seat))
        state = renaissance.apply_action(state, seat, action)


def test_answers_are_among_the_views_legal_answers_and_none_when_no_offer_waits():
    """Random games on the real board, 3 to 6 players, random offers made to one seat: whenever
    an offer waits, each bot's answer (from the seat's view as a remote bot gets it) is one of
    the view's accept/decline answers and the engine takes it; otherwise it is None."""
    bots = [ai.make_bot(level, seed=2, game="renaissance") for level in RENAISSANCE_BOTS]
    given = set()
    waited = idle = 0
    for players in (3, 4, 5, 6):
        target = players % 3
        for state in games_with_offers(players, seed=players, target=target):
            view = json.loads(json.dumps(renaissance.view_for(state, target)))
            waiting = offers_waiting(view)
            assert waiting == any(offer[2] == target for offer in view["public"]["offers"])
            if not waiting:
                idle += 1
                assert all(bot.answer_offer(view) is None for bot in bots)
                continue
            waited += 1
            for bot in bots:
                answer = bot.answer_offer(view)
                assert answer["type"] in ANSWERS and answer in view["diplomacy_actions"]
                renaissance.apply_action(state, target, answer)
                given.add((bot.level, answer["type"]))
    assert waited > 100 and idle > 100
    assert {answer for _, answer in given} == ANSWERS
    assert {("heuristic", "accept_exchange"), ("heuristic", "decline_exchange")} <= given


# --- the heuristic's rule --------------------------------------------------------------------


def answer_to_exchange(florence_cities, rome_cities, give, take):
    """Rome offers Florence its city `give` for Florence's `take`; the heuristic answers."""
    state, florence, rome = exchange_table(florence_cities, rome_cities)
    offer = {"type": "offer_exchange", "to": florence, "give": give, "take": take}
    state = renaissance.apply_action(state, rome, offer)
    view = renaissance.view_for(state, florence)
    assert view["legal_actions"]  # Florence acts: the answer is asked beside its move
    answer = ai.make_bot("heuristic", game="renaissance").answer_offer(view)
    assert answer in view["diplomacy_actions"]
    return answer["type"]


def test_the_heuristic_accepts_an_exchange_that_completes_its_province():
    """Rules §6.6: a player scores 1 RP every turn for each province he holds whole. Florence
    holds Firenze (Toscana) and Viterbo (Lazio), Rome the other half of each: Pistoia for
    Viterbo gives Florence the whole of Toscana for half of Lazio."""
    kind = answer_to_exchange(["Firenze", "Viterbo"], ["Pistoia", "Roma"], "Pistoia", "Viterbo")
    assert kind == "accept_exchange"


def test_the_heuristic_declines_an_exchange_that_breaks_its_whole_province():
    """Florence holds the whole of Toscana: Roma for Pistoia leaves it half of two provinces."""
    kind = answer_to_exchange(["Firenze", "Pistoia"], ["Roma", "Viterbo"], "Roma", "Pistoia")
    assert kind == "decline_exchange"


def test_the_heuristic_declines_an_even_exchange_that_serves_only_the_offerer():
    """Bologna (Emilia) and Siena (Repubblica di Siena) are each a province of one city, neither
    a port: swapping them changes nothing for Florence."""
    kind = answer_to_exchange(
        ["Firenze", "Pistoia", "Bologna"], ["Roma", "Viterbo", "Siena"], "Siena", "Bologna"
    )
    assert kind == "decline_exchange"


def answer_to_sale(cards, ducats, war):
    """Rome, holding a Condottiere, offers to sell it to Florence ([ruling] R44: for 1 ducat)."""
    state, florence = combat_state(war=war, cards=cards)
    rome = state.nations.index("rome")
    ducats_of = put((5,) * state.n, florence, ducats)
    hands = put(state.hands, rome, hand("condottiere"))
    state = edit(state, turn=2, hands=hands, ducats=ducats_of)
    state = renaissance.apply_action(state, rome, {"type": "offer_condottiere", "to": florence})
    view = renaissance.view_for(state, florence)
    assert {"type": "accept_condottiere", "from": rome} in view["diplomacy_actions"]
    return ai.make_bot("heuristic", game="renaissance").answer_offer(view)["type"]


def test_the_heuristic_buys_a_condottiere_at_war_with_ducats_to_spare():
    """At war every card may serve (any number of attacks, rules §6.1)."""
    assert answer_to_sale(["pikemen", "knights", "cannon"], 3, war=1) == "accept_condottiere"


def test_the_heuristic_buys_a_condottiere_that_gives_it_the_two_troops_to_attack():
    """Rules line 369: an attack needs two blue cards or Condottieri in hand."""
    assert answer_to_sale(["knights", "raiders"], 2, war=0) == "accept_condottiere"


def test_the_heuristic_declines_a_condottiere_that_would_leave_one_in_hand_unpaid():
    """Each Condottiere played costs a ducat (rules §7.5): with one ducat and an unpaid
    Condottiere in hand, buying another leaves neither payable."""
    assert answer_to_sale(["condottiere", "knights"], 1, war=1) == "decline_condottiere"


def test_the_heuristic_declines_a_condottiere_it_has_no_use_for_in_peace():
    """In peace one attack only (rules §6.1); with troops enough and no battle of its own, the
    card is a ducat spent for nothing."""
    hand_of_troops = ["knights", "cannon", "swiss", "pikemen"]
    assert answer_to_sale(hand_of_troops, 4, war=0) == "decline_condottiere"


# --- secrecy ---------------------------------------------------------------------------------


def waiting_states(players, seed, target, every=7):
    """States of a random game on the real board where an offer waits for `target`."""
    for step, state in enumerate(games_with_offers(players, seed, target, offer_share=0.3)):
        view = renaissance.view_for(state, target)
        if step % every == 0 and offers_waiting(view):
            yield state, view


def hidden_variants(state, target, rng):
    """States the target cannot tell from `state`: the cards it cannot see dealt anew (determinize),
    and, when two other seats can, `state` with an offer between them ([ruling] R45: seen by
    its two parties only)."""
    variants = [renaissance.determinize(renaissance.view_for(state, target), rng)]
    for sender in range(state.n):
        whispers = [
            a
            for a in diplomacy_actions(state, sender)
            if sender != target and a["type"] in OFFERS and a["to"] != target
        ]
        if whispers:
            variants.append(renaissance.apply_action(state, sender, rng.choice(whispers)))
            break
    return variants


@pytest.mark.parametrize("level", RENAISSANCE_BOTS)
def test_answers_depend_only_on_the_seats_own_view(level):
    """States that differ only in what the seat cannot see (other hands, the deck, offers
    between other seats) give it the same view, and every bot the same answer."""
    rng = random.Random(5)
    hands = whispers = 0
    for players in (4, 6):
        for state, view in waiting_states(players, seed=20 + players, target=1):
            answer = ai.make_bot(level, seed=4, game="renaissance").answer_offer(view)
            for variant in hidden_variants(state, 1, rng):
                assert renaissance.view_for(variant, 1) == view
                hands += variant.hands != state.hands
                whispers += variant.offers != state.offers
                again = ai.make_bot(level, seed=4, game="renaissance").answer_offer(
                    renaissance.view_for(variant, 1)
                )
                assert again == answer
    assert hands >= 10 and whispers >= 10


@pytest.mark.parametrize("level", RENAISSANCE_BOTS)
def test_a_bot_answers_from_the_view_alone(level):
    bot = ai.make_bot(level, seed=0, game="renaissance")
    assert list(inspect.signature(bot.answer_offer).parameters) == ["view"]
    state = renaissance.new_game(3, seed=1)
    with pytest.raises((TypeError, AttributeError)):
        bot.answer_offer(state)  # a full state is not a view
