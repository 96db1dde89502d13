# ruff: noqa: F811  (the start_site fixture is imported from test_faults and used by name)
"""Renaissance on the production profile's real processes, continued (the tabs, people and checks
are test_renaissance_production.py's; a file of its own so that the parallel run can give these
tests and that file's two whole games to different workers):

3. Faults, as test_faults.py checks them for Condottiere: the Celery worker killed (SIGKILL, pool
   and all) while the bots' votes are under way, and Redis stopped for 10 s mid-game; play goes on
   within 10 s of the worker's return or of Redis's (docs/operations.md, "Recovery after a
   fault").
4. A bot's answer to an offer is never lost (in-process, with the jobs recorded): an answer
   refused because the game moved on meanwhile is given again, and one whose job was lost with
   a worker is announced again by the sweep.
"""

import asyncio
import random
import time
from collections import Counter
from datetime import timedelta

import aiohttp
import pytest
from django.utils import timezone

from games import tasks
from games.actors.bot_turn import play_bot_move, run_bot_turn
from games.jobs import pending_bot_turns, sweep
from games.models import Action, Game
from games.rules_api import RENAISSANCE
from games.services import submit_action
from tests.web.test_faults import (  # noqa: F401 - start_site is a fixture
    BACK_WITHIN,
    READY_TIMEOUT,
    session_of,
    start_site,
    version_of,
)
from tests.web.test_renaissance_production import (
    ANSWERS,
    Person,
    Tab,
    check_every_frame,
    check_refusals,
    check_sent_once,
    on_the_site,
    renaissance_table,
    replayed,
    vote_turns,
)

pytestmark = pytest.mark.django_db(transaction=True)


# --- 3. Faults -----------------------------------------------------------------------------------

# Bots quick enough that the first turn is over in seconds, and slow enough that their votes are
# still on their way, held by the worker, when it is killed.
FAULT_BOTS = {"BOT_MOVE_DELAY": "0.25"}


def phase_of(game: Game) -> tuple[int, str]:
    """(turn, phase) of the game as stored now."""
    state = RENAISSANCE.from_json(Game.objects.values_list("snapshot", flat=True).get(pk=game.pk))
    return state.turn, RENAISSANCE.view_for(state, None)["phase"]


async def wait_for(condition, timeout: float, failure: str) -> float:
    """Seconds until the blocking `condition()` held (run on a thread); fails after `timeout`."""
    started = time.monotonic()
    while not await asyncio.to_thread(condition):
        assert time.monotonic() - started < timeout, failure
        await asyncio.sleep(0.05)
    return time.monotonic() - started


@on_the_site
def test_a_worker_killed_mid_vote_and_the_vote_ends_within_10_s_of_its_return(
    start_site, make_user
):
    site = start_site(env=FAULT_BOTS)
    alice = make_user("alice")
    game = renaissance_table(make_user, 4, {0: alice}, seed=7_310_603)
    url = site.daphne_urls[0]
    session = session_of(alice)

    async def scenario():
        async with aiohttp.ClientSession() as http:
            tab = await Tab(url, game.pk, 0, session).open(http)
            alice_plays = Person(0, random.Random(3), tab)
            playing = asyncio.ensure_future(alice_plays.play())
            try:
                await wait_for(lambda: phase_of(game) == (2, "vote"), 90, "no vote in turn 2")
                killed = await asyncio.to_thread(site.servers.kill, "celery worker")
                killed_at = await asyncio.to_thread(version_of, game)
                # Alice votes (however loaded the machine); the bots' votes went with the worker.
                await wait_for(lambda: 0 in votes_taken(game, 2), 20, "alice did not vote")
                assert await asyncio.to_thread(phase_of, game) == (2, "vote"), "not mid-vote"
                voted = await asyncio.to_thread(votes_taken, game, 2)
                assert 0 in voted and len(voted) < 4, voted
                ready_before = site.worker_ready_count()
                await asyncio.to_thread(site.servers.restart, killed)
                await wait_for(
                    lambda: site.worker_ready_count() > ready_before, READY_TIMEOUT, "no worker"
                )
                back = await wait_for(
                    lambda: phase_of(game) != (2, "vote"),
                    BACK_WITHIN,
                    "the vote did not end within 10 s of the worker's return",
                )
                print(f"killed at v{killed_at}, votes {sorted(voted)}; vote over {back:.1f} s")
                await wait_for(
                    lambda: version_of(game) >= killed_at + 20, 60, "the game stalled again"
                )
            finally:
                alice_plays.stop.set()
                await tab.close()
                await playing
            return alice_plays

    alice_plays = asyncio.run(scenario())
    stored = replayed(game)
    assert Counter(seat for _seq, seat in vote_turns(stored)[2]) == Counter(range(4))
    check_every_frame(stored, alice_plays.tabs)
    check_sent_once(stored, alice_plays)
    check_refusals(alice_plays, {"move": ("stale",)})


def votes_taken(game: Game, turn: int) -> set[int]:
    """The seats whose vote of `turn` is in the log."""
    stored = replayed(game)
    return {seat for _seq, seat in vote_turns(stored).get(turn, [])}


@on_the_site
def test_redis_stopped_10_s_mid_game_loses_no_action_and_bots_play_within_10_s_of_its_return(
    start_site, make_user
):
    site = start_site(env=FAULT_BOTS)
    alice = make_user("alice")
    game = renaissance_table(make_user, 4, {0: alice}, seed=7_310_604)
    url = site.daphne_urls[0]
    session = session_of(alice)

    async def scenario():
        async with aiohttp.ClientSession() as http:

            async def reconnect(seat: int) -> Tab:
                return await Tab(url, game.pk, seat, session).open(http)

            alice_plays = Person(0, random.Random(4), await reconnect(0), reconnect=reconnect)
            playing = asyncio.ensure_future(alice_plays.play())
            try:
                await wait_for(
                    lambda: version_of(game) >= 30, 60, "alice and the bots did not play"
                )
                site.redis.stop()
                down_at = await asyncio.to_thread(version_of, game)
                await asyncio.sleep(10)
                site.redis.start()  # empty: every message in flight was lost with it
                back = await wait_for(
                    lambda: bot_moves_after(game, down_at) >= 1,
                    BACK_WITHIN,
                    "no bot move within 10 s of Redis's return",
                )
                print(f"a bot moved {back:.1f} s after Redis was back")
                # Through her socket of before (the channel layer subscribes again on its new
                # connection) or a new one: either way she hears the moves and plays on.
                await wait_for(
                    lambda: person_moves_after(game, down_at) >= 2, 40, "alice did not play on"
                )
            finally:
                alice_plays.stop.set()
                await alice_plays.tab.close()
                await playing
            return alice_plays

    alice_plays = asyncio.run(scenario())
    stored = replayed(game)
    check_every_frame(stored, alice_plays.tabs)
    check_sent_once(stored, alice_plays)
    check_refusals(alice_plays, {"move": ("stale", "unavailable")})


def bot_moves_after(game: Game, version: int) -> int:
    return Action.objects.filter(game=game, seq__gt=version, actor=Action.Actor.BOT).count()


def person_moves_after(game: Game, version: int, seat: int = 0) -> int:
    return Action.objects.filter(game=game, seq__gt=version, seat=seat).count()


# --- 4. A bot's answer to an offer is never lost --------------------------------------------------


def combat_with_an_offer_open(game: Game, rng: random.Random, limit: int = 600):
    """Plays the game on (seat 0 at random, the bots by their own turns, at once) until seat 0
    may attack in its combat phase and offer a bot an exchange; that state."""
    for _ in range(limit):
        game.refresh_from_db()
        state = RENAISSANCE.from_json(game.snapshot)
        acting = RENAISSANCE.acting_seats(state)
        if 0 not in acting:
            run_bot_turn(game.pk, game.version)
            continue
        legal = RENAISSANCE.legal_actions(state, 0)
        exchanges = [a for a in RENAISSANCE.side_actions(state, 0) if a["type"] == "offer_exchange"]
        if any(a["type"] == "attack" for a in legal) and exchanges:
            return state
        submit_action(game.pk, 0, rng.choice(legal), game.version)
    raise AssertionError("seat 0 never could attack and offer an exchange")


def test_a_bots_answer_refused_because_a_battle_began_meanwhile_is_given_again(
    make_user, announced
):
    """The race the whole game above met: a bot chose to accept an exchange offered to it, and
    before its answer was played the offerer attacked, so that the exchange could not be
    accepted any more ([ruling] R42: no exchange while a battle is fought). The answer is
    refused; the offer must not wait on for the rest of the turn with nobody to answer it: the
    bot answers again, from the game as it is now (a bot never leaves a person waiting)."""
    game = renaissance_table(make_user, 4, {0: make_user("alice")}, seed=3)
    state = combat_with_an_offer_open(game, random.Random(3))
    offer = next(a for a in RENAISSANCE.side_actions(state, 0) if a["type"] == "offer_exchange")
    bot = offer["to"]
    offered_at = submit_action(game.pk, 0, offer, game.version)
    state = RENAISSANCE.from_json(Game.objects.get(pk=game.pk).snapshot)
    accept = next(a for a in RENAISSANCE.side_actions(state, bot) if a["type"] == "accept_exchange")
    # The bot's turn announced with the offer starts and chooses to accept (its move waits for
    # its pause); meanwhile seat 0 attacks.
    assert [name for name, _args, _delay in announced][-1] == "bot_turn"
    pending_bot_turns.take(game.pk)
    announced.clear()
    attack = next(a for a in RENAISSANCE.legal_actions(state, 0) if a["type"] == "attack")
    submit_action(game.pk, 0, attack, offered_at)

    assert play_bot_move(game.pk, offered_at, bot, accept, time.time()) == "stale"

    for name, args, _delay in list(announced):
        getattr(tasks, name)(*args)
    game.refresh_from_db()
    answer = Action.objects.filter(game=game, seat=bot).order_by("seq").last()
    assert answer is not None and answer.seq > offered_at + 1, "the offer waits unanswered"
    assert answer.action["type"] == "decline_exchange" and answer.action["from"] == 0
    assert answer.actor == Action.Actor.BOT
    assert not RENAISSANCE.from_json(game.snapshot).offers


def test_a_bots_answer_lost_with_its_job_is_announced_again_by_the_sweep(make_user, announced):
    """A worker killed while it held a bot's answer to an offer (its job lost with it) while
    the game waits for the person who offered: the sweep, which announces again the turns of
    bots that keep a game waiting, announces the answer too, and the bot answers."""
    game = renaissance_table(make_user, 4, {0: make_user("alice")}, seed=3)
    state = combat_with_an_offer_open(game, random.Random(3))
    offer = next(a for a in RENAISSANCE.side_actions(state, 0) if a["type"] == "offer_exchange")
    offered_at = submit_action(game.pk, 0, offer, game.version)
    announced.clear()  # the answer's job went with the worker
    long_ago = timezone.now() - timedelta(seconds=sweep.bot_patience() + 5)
    Game.objects.filter(pk=game.pk).update(updated_at=long_ago)

    assert sweep.sweep()["bot_turn"] == [game.pk]

    for name, args, _delay in list(announced):
        getattr(tasks, name)(*args)
    answer = Action.objects.filter(game=game, seq=offered_at + 1).first()
    assert answer is not None, "the offer waits unanswered"
    assert answer.seat == offer["to"] and answer.action["type"] in ANSWERS
    assert answer.action["from"] == 0 and answer.actor == Action.Actor.BOT
