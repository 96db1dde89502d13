"""Diplomacy between a bot and a person on the site ([ruling] R42, R45; rulebook line 345:
"Les joueurs peuvent échanger une ville de même niveau de fortification à n'importe quel moment
du jeu"): a bot's offer reaches the person's frame, with the answers the person may give; a
person's offer is answered by the bot, accepted when it raises the bot's standing and declined
when it serves only the person; and the game goes on while an offer waits."""

import random

import pytest
from django.utils import timezone

from ai.renaissance.offers import OFFERS_PER_TURN
from games import tasks
from games.actors.bot_turn import run_bot_turn
from games.jobs import pending_bot_turns
from games.models import Action, Game, Seat
from games.renaissance.state import clone
from games.rules_api import RENAISSANCE
from games.services import start_game, submit_action
from games.services.frames import game_frame, load_state

pytestmark = pytest.mark.django_db(transaction=True)

BOT, PERSON, OTHER = 0, 1, 2
# The bot's own decisions in which it may make an offer and that leave every city as it is
# (an expansion takes a free city only).
QUIET_PHASES = ("expansion",)


def table(make_user, seed=11) -> Game:
    """A started three-player game: a heuristic bot in seat 0, two people."""
    game = Game.objects.create(ruleset=Game.Ruleset.RENAISSANCE, players=3, seed=seed)
    for index in range(3):
        person = index != BOT
        Seat.objects.create(
            game=game,
            index=index,
            user=make_user(f"p{game.pk}s{index}") if person else None,
            bot_level="" if person else "heuristic",
            joined_at=timezone.now(),
        )
    start_game(game.pk)
    game.refresh_from_db()
    return game


def until_the_bots_quiet_decision(game: Game, rng: random.Random, limit=800):
    """Plays on (the people at random, the bot by its own turns) until the bot alone decides
    in an expansion; that state."""
    for _ in range(limit):
        game.refresh_from_db()
        state = load_state(game)
        view = RENAISSANCE.view_for(state, BOT)
        acting = RENAISSANCE.acting_seats(state)
        if acting == {BOT} and view["phase"] in QUIET_PHASES:
            return state
        if BOT in acting:
            run_bot_turn(game.pk, game.version)
            continue
        seat = min(acting)
        submit_action(
            game.pk, seat, rng.choice(RENAISSANCE.legal_actions(state, seat)), game.version
        )
    raise AssertionError("the bot never decided alone in an expansion")


def two_city_provinces(state, count):
    """`count` provinces of exactly two cities, none closed at this table."""
    by_province = {}
    for city in range(len(state.geo.cities)):
        by_province.setdefault(state.geo.province_of[city], []).append(city)
    pairs = [
        tuple(cities)
        for cities in by_province.values()
        if len(cities) == 2 and not any(state.closed[c] for c in cities)
    ]
    assert len(pairs) >= count, "the board has too few two-city provinces"
    return pairs[:count]


def split_board(game: Game, state):
    """Rewrite the stored game so that the bot and the person each hold half of two provinces
    (P = {a, b}, Q = {c, d}: the bot a and c, the person b and d; a third, R = {e, f}, is the
    person's f and a free e), every one a bare garrison: swapping c for b gives each a whole
    province. The other seat keeps one city. Returns the city names (a, b, c, d, f)."""
    (a, b), (c, d), (e, f), (g, _) = two_city_provinces(state, 4)
    owner = [-1] * len(state.owner)
    for city, seat in ((a, BOT), (c, BOT), (b, PERSON), (d, PERSON), (f, PERSON), (g, OTHER)):
        owner[city] = seat
    bare = (0,) * len(state.owner)
    new = clone(state)
    new.owner, new.fort, new.palace, new.artist = tuple(owner), bare, bare, bare
    new.exchanged, new.offers = (), ()
    Game.objects.filter(pk=game.pk).update(snapshot=RENAISSANCE.to_json(new))
    game.refresh_from_db()
    return [state.geo.cities[city] for city in (a, b, c, d, f)]


def forget_the_bots_turn(game: Game, announced):
    """Drop the bot's move announced before: the test plays only the answer's job (one job of
    a game waits in the queue at a time, games/jobs/pending_bot_turns.py)."""
    announced.clear()
    pending_bot_turns.take(game.pk)


def run_announced(announced):
    """Run the jobs announced so far (a bot's answer comes in a job of its own)."""
    while announced:
        name, args, _delay = announced.pop(0)
        getattr(tasks, name)(*args)


def test_a_bots_offer_reaches_the_persons_frame_and_the_game_goes_on(make_user, announced):
    game = table(make_user)
    state = until_the_bots_quiet_decision(game, random.Random(11))
    a, b, c, d, _f = split_board(game, state)
    before = game.version

    run_bot_turn(game.pk, game.version)

    # The bot's job played its offer, then its move, and went on with its next decisions while
    # it decided alone (games/jobs/bot_chain.py): its first offer completes both provinces,
    # and it made no more than its cap.
    offers = Action.objects.filter(game=game, seq__gt=before, action__type__startswith="offer_")
    first = offers.order_by("seq").first()
    print([o.action for o in offers])
    # c for b, or a for d: either gives each a whole province.
    give, take = first.action["give"], first.action["take"]
    assert first.action["type"] == "offer_exchange" and first.action["to"] == PERSON
    assert (give, take) in {(c, b), (a, d)}
    assert first.actor == Action.Actor.BOT and offers.count() <= OFFERS_PER_TURN
    # The bot's move was played after its offer: the offer holds up nothing.
    assert Action.objects.filter(game=game, seat=BOT, seq=first.seq + 1).exists()
    game.refresh_from_db()
    frame = game_frame(game, PERSON)
    index = frame["view"]["cities"].index
    assert [0, BOT, PERSON, index(give), index(take)] in frame["view"]["public"]["offers"]
    answers = {a["type"] for a in frame["view"]["diplomacy_actions"] if a.get("from") == BOT}
    assert answers == {"accept_exchange", "decline_exchange"}
    # [ruling] R45: the third seat does not see it.
    assert game_frame(game, OTHER)["view"]["public"]["offers"] == []
    # The person accepts: both hold a whole province.
    accept = {"type": "accept_exchange", "from": BOT, "give": give, "take": take}
    submit_action(game.pk, PERSON, accept, game.version)
    owner = load_state(Game.objects.get(pk=game.pk)).owner
    assert (owner[index(give)], owner[index(take)]) == (PERSON, BOT)


def bots_answer_to_a_persons_offer(make_user, announced, pick) -> tuple[Game, tuple, Action]:
    """The person offers the bot an exchange of the cities `pick` chooses among split_board's
    (a, b, c, d, f): the game, the (given, taken) cities and the bot's answer, once its job
    ran."""
    game = table(make_user)
    state = until_the_bots_quiet_decision(game, random.Random(11))
    give, take = pick(*split_board(game, state))
    forget_the_bots_turn(game, announced)
    offer = {"type": "offer_exchange", "to": BOT, "give": give, "take": take}
    offered_at = submit_action(game.pk, PERSON, offer, game.version)
    run_announced(announced)
    answer = Action.objects.filter(game=game, seat=BOT, seq__gt=offered_at).first()
    return game, (give, take), answer


def test_a_persons_offer_is_accepted_when_it_raises_the_bots_standing(make_user, announced):
    game, (b, c), answer = bots_answer_to_a_persons_offer(
        make_user, announced, lambda _a, b, c, _d, _f: (b, c)
    )
    assert answer.action == {"type": "accept_exchange", "from": PERSON, "give": b, "take": c}
    assert answer.actor == Action.Actor.BOT
    game.refresh_from_db()
    state = load_state(game)
    index = state.geo.index
    assert (state.owner[index[b]], state.owner[index[c]]) == (BOT, PERSON)


def test_a_persons_offer_that_serves_only_the_person_is_declined(make_user, announced):
    """The person offers its lone city f of a third province for the bot's a: the bot would
    trade half a province for half a province while the person completes P."""
    game, (f, a), answer = bots_answer_to_a_persons_offer(
        make_user, announced, lambda a, _b, _c, _d, f: (f, a)
    )
    assert answer.action == {"type": "decline_exchange", "from": PERSON, "give": f, "take": a}
    assert not load_state(Game.objects.get(pk=game.pk)).offers
