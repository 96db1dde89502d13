# ruff: noqa: F811  (the start_site fixture is imported from test_faults and used by name)
"""Renaissance on the production profile's real processes: whole games over real sockets, a race of
simultaneous votes, and faults.

Each test starts the site as an operator does, as tests/web/test_faults.py does (`start_site`:
Daphne, a prefork Celery worker, Celery beat and a redis-server of their own, on this test's
PostgreSQL database), seats heuristic bots (played by the worker) and people, and opens
websockets to Daphne the way the game page does. A person's tab plays every decision of its seat
from its own frames: a random action of the frame's `view.legal_actions`, sent with the frame's
version. A spectator's tab watches. Afterwards every frame every tab received is checked against
the game re-simulated from the stored action log (games.rules_api and the record module's
`simulate`): its `view` is exactly `view_for(state at that version, seat)` and its `log` exactly
the public entries up to that version.

1. A whole six-player game: one person, five bots, a spectator; the person also makes offers of
   exchange and Condottiere sales to the bots, gives ducats, and withdraws some offers at once,
   racing the bot's answer ([ruling] R42-R45).
2. Two people and four bots voting at the same moment ([ruling] R29): both people's votes sent at
   one instant against the same version while the bots' votes arrive, and an offer in that
   instant; nothing lost or doubled, one vote per seat, no frame shows another seat's vote
   before the last one.
Faults (the worker killed mid-vote, Redis stopped mid-game) and a bot's answer that is never lost
are in test_renaissance_production_faults.py, which uses these tabs and checks: a file of its own,
so that the parallel run (one file per worker at a time) can share these slow tests between
workers.
"""

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import pytest
from django.db import transaction
from django.utils import timezone

import games.renaissance as renaissance
from games.models import Action, Game, Seat
from games.rules_api import RENAISSANCE
from games.services import start_game
from games.services.frames import LOG_LENGTH
from tests.web.test_faults import (  # noqa: F401 - start_site is a fixture
    BACK_WITHIN,
    READY_TIMEOUT,
    session_of,
    start_site,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)


def on_the_site(test):
    """A test that starts the site's processes: slow, and it needs the production services."""
    return pytest.mark.slow(pytest.mark.production(test))


# Small enough for a six-player game of some 500 actions to end well within two minutes.
FAST_BOTS = {"BOT_MOVE_DELAY": "0.05"}
WHOLE_GAME_WITHIN = 110.0
# Frames a socket may send in SOCKET_FLOOD_SECONDS before the site closes it as a flood (20 in
# 2 s, games/sockets/limits.py): a tab keeps below, as a person's hands do.
FRAMES_PER_WINDOW, WINDOW = 16, 2.0
ANSWER_TIMEOUT = 15.0
# Seconds within which a bot answers an offer made to it, on a loaded machine.
ANSWERED_WITHIN = 5.0
# A send whose answer never came (its socket closed first): it may or may not have been taken.
UNANSWERED = "unanswered"
OFFERS = ("offer_exchange", "offer_condottiere")
ANSWERS = ("accept_exchange", "decline_exchange", "accept_condottiere", "decline_condottiere")
DIPLOMACY = (*OFFERS, *ANSWERS, "give_ducats", "withdraw_exchange", "withdraw_condottiere")
# A piece of diplomacy is judged against the newest state: a bot's answer or move may have
# made it stale or no longer possible meanwhile; a withdrawal races the bot's answer.
RACED = ("stale", "illegal")


# --- A table -------------------------------------------------------------------------------------


def renaissance_table(make_user, players: int, people: dict, seed: int, options=None) -> Game:
    """A started Renaissance game: `people` {seat: user}, heuristic bots in the other seats."""
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE, players=players, options=options or {}, seed=seed
    )
    for index in range(players):
        Seat.objects.create(
            game=game,
            index=index,
            user=people.get(index),
            bot_level="" if index in people else "heuristic",
            joined_at=timezone.now(),
        )
    start_game(game.pk)
    game.refresh_from_db()
    return game


def spectator_session(make_user) -> str:
    return session_of(make_user("watcher"))


# --- A tab: one websocket to one Daphne ----------------------------------------------------------


class Tab:
    """A browser tab on the game's page. Every state frame it receives is kept (`frames`); the
    newest not yet taken waits for `next_state`. `send_all` sends actions back to back, each
    followed by a ping, and returns for each the code of the error the site answered before
    its pong, or None if it took the action: the socket handles its frames in order, so an
    action's answer comes before the pong that follows it."""

    def __init__(self, base_url: str, game_id: int, seat: int | None, session: str | None):
        self.base_url, self.game_id, self.seat, self.session = base_url, game_id, seat, session
        self.frames: list[dict] = []
        self.errors: list[dict] = []
        self.unread: dict | None = None
        self.fresh = asyncio.Event()
        self.closed = asyncio.Event()
        self.sending = asyncio.Lock()
        self.pongs: dict[int, asyncio.Future] = {}
        self.answer: list[dict] = []  # the error frames since the last pong
        self.sent_at: deque[float] = deque()
        self.ping_ids = itertools.count(1)
        self.socket = None
        self.reader: asyncio.Task | None = None

    async def open(self, http: aiohttp.ClientSession) -> "Tab":
        headers = {"Origin": self.base_url}
        if self.session:
            headers["Cookie"] = f"sessionid={self.session}"
        url = self.base_url.replace("http://", "ws://") + f"/ws/games/{self.game_id}/"
        self.socket = await http.ws_connect(url, headers=headers, heartbeat=2, max_msg_size=0)
        self.reader = asyncio.ensure_future(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for message in self.socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                self._received(json.loads(message.data))
        finally:
            self.closed.set()
            self.fresh.set()
            for waiting in self.pongs.values():
                if not waiting.done():
                    waiting.set_result(None)

    def _received(self, frame: dict) -> None:
        kind = frame.get("type")
        if kind == "state":
            self.frames.append(frame)
            self.unread = frame
            self.fresh.set()
        elif kind == "error":
            self.errors.append(frame)
            self.answer.append(frame)
        elif kind == "pong":
            waiting = self.pongs.pop(frame["id"], None)
            if waiting is not None and not waiting.done():
                waiting.set_result(self.answer)
            self.answer = []

    async def next_state(self) -> dict | None:
        """The newest state frame not taken yet (waiting for one), or None once closed."""
        while self.unread is None:
            if self.closed.is_set():
                return None
            self.fresh.clear()
            await self.fresh.wait()
        frame, self.unread = self.unread, None
        return frame

    async def send(self, action: dict, version: int) -> str | None:
        (refused,) = await self.send_all([(action, version)])
        return refused

    async def send_all(self, actions: list[tuple[dict, int]]) -> list[str | None]:
        """Each (action, expected version) sent, all before any answer is read."""
        async with self.sending:
            await self._pace(2 * len(actions))
            answers = []
            try:
                for action, version in actions:
                    ping = next(self.ping_ids)
                    answers.append(asyncio.get_running_loop().create_future())
                    self.pongs[ping] = answers[-1]
                    await self.socket.send_json(
                        {"type": "action", "action": action, "expected_version": version}
                    )
                    await self.socket.send_json({"type": "ping", "id": ping})
                await asyncio.wait_for(asyncio.gather(*answers), ANSWER_TIMEOUT)
            except (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError, RuntimeError):
                pass
            unsent = [UNANSWERED] * (len(actions) - len(answers))
            return [refusal(answer) for answer in answers] + unsent

    async def _pace(self, frames: int) -> None:
        """Wait until `frames` more keep this socket under the flood limit."""
        while True:
            now = time.monotonic()
            while self.sent_at and self.sent_at[0] <= now - WINDOW:
                self.sent_at.popleft()
            if len(self.sent_at) + frames <= FRAMES_PER_WINDOW:
                self.sent_at.extend([now] * frames)
                return
            await asyncio.sleep(self.sent_at[0] + WINDOW - now + 0.01)

    async def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await self.reader


def refusal(answer: asyncio.Future) -> str | None:
    """The code of the first error before the action's pong; UNANSWERED with no pong."""
    errors = answer.result() if answer.done() else None
    if errors is None:
        return UNANSWERED
    return errors[0]["code"] if errors else None


async def watch_until_over(tab: Tab) -> None:
    """Until the tab has seen the game finished."""
    while not any(frame["game"]["status"] != "playing" for frame in tab.frames[-3:]):
        assert await tab.next_state() is not None, "the spectator's socket closed"


# --- A person: plays every decision of its seat from its tab's frames ----------------------------


@dataclass
class Sent:
    version: int
    action: dict
    refused: str | None  # the site's error code; None: taken; UNANSWERED: not known


@dataclass
class Person:
    """Plays every decision of its seat: on each newest frame of its tab that offers legal
    actions, a random one, sent with that frame's version. After a move is taken it waits for a
    frame whose log shows it (an older frame offers the same decision again). `diplomacy`, if
    any, may send a piece of diplomacy first; `votes`, if any, sends its votes (the race)."""

    seat: int
    rng: random.Random
    tab: Tab
    diplomacy: "Diplomacy | None" = None
    votes: "VoteRace | None" = None
    # Opens a new tab for the seat when the socket closes (a page reconnects); None: stop.
    reconnect: Callable[[int], Awaitable[Tab]] | None = None
    tabs: list = field(default_factory=list)
    sent: list = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self):
        self.tabs.append(self.tab)

    async def send(self, action: dict, version: int) -> str | None:
        (refused,) = await self.send_all([(action, version)])
        return refused

    async def send_all(self, actions: list[tuple[dict, int]]) -> list[str | None]:
        refusals = await self.tab.send_all(actions)
        for (action, version), refused in zip(actions, refusals, strict=True):
            self.sent.append(Sent(version, action, refused))
        return refusals

    async def play(self) -> None:
        moved_at = None  # the version a taken move was sent at, until a frame shows it
        while not self.stop.is_set():
            frame = await self.tab.next_state()
            if frame is None:
                if self.reconnect is None or self.stop.is_set():
                    return
                await asyncio.sleep(0.3)
                with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                    self.tab = await self.reconnect(self.seat)
                    self.tabs.append(self.tab)
                    # The new connection's first frame is the game as stored: a move sent on the
                    # lost socket was taken or it was not, and either way that frame says what
                    # to do now. Waiting for its log entry would wait forever for a lost move.
                    moved_at = None
                continue
            if frame["game"]["status"] != "playing":
                return
            if moved_at is not None and not shows_move_of(frame, self.seat, moved_at):
                continue
            moved_at = None
            if self.diplomacy is not None:
                await self.diplomacy.maybe(self, frame)
            view = frame["view"]
            if not view["legal_actions"]:
                continue
            if self.votes is not None and view["phase"] == "vote":
                refused = await self.votes.vote(self, frame)
            else:
                refused = await self.send(self.rng.choice(view["legal_actions"]), frame["version"])
            # Not known whether an unanswered move was taken: the next frame, read afresh by a
            # new connection, says (and a repeat would be refused by its version).
            if refused is None:
                moved_at = frame["version"]


def shows_move_of(frame: dict, seat: int, version: int) -> bool:
    """Whether the frame's log holds a move of `seat` made after `version` (every move has a
    public entry, as some diplomacy does: that is no move)."""
    return any(
        entry["seat"] == seat and entry["seq"] > version and entry["type"] not in DIPLOMACY
        for entry in frame["log"]
    )


@dataclass
class Diplomacy:
    """Now and then, on a frame: an offer of a city exchange or a Condottiere sale, or a gift of
    ducats, to one of `partners`; now and then an offer withdrawn at once, its withdrawal sent
    back to back with it, racing the answer; an answer to an offer waiting for this seat, or
    none, at random."""

    partners: frozenset
    share: float = 0.08
    budget: int = 16
    withdraw_share: float = 0.3
    answer_share: float = 0.5

    async def maybe(self, person: Person, frame: dict) -> None:
        view = frame["view"]
        answers = [a for a in view["diplomacy_actions"] if a["type"] in ANSWERS]
        if answers and person.rng.random() < self.answer_share:
            await person.send(person.rng.choice(answers), frame["version"])
        if self.budget <= 0 or person.rng.random() >= self.share:
            return
        open_to = renaissance.all_diplomacy(view)
        offers = [
            action
            for action in open_to
            if action["type"] in OFFERS and action["to"] in self.partners
        ]
        gifts = [
            action
            for action in open_to
            if action["type"] == "give_ducats" and action["to"] in self.partners
        ]
        choices = offers or gifts
        if not choices:
            return
        self.budget -= 1
        action = person.rng.choice(choices)
        sends = [(action, frame["version"])]
        if action in offers and person.rng.random() < self.withdraw_share:
            sends.append((withdrawal(action), frame["version"]))  # back to back: a race
        await person.send_all(sends)


def withdrawal(offer: dict) -> dict:
    kind = offer["type"].removeprefix("offer_")
    return {**offer, "type": f"withdraw_{kind}"}


# --- What every test checks afterwards -----------------------------------------------------------


@dataclass
class Replayed:
    game: Game
    rows: list
    states: list

    def moves_of(self, seat: int) -> list[tuple[int, dict]]:
        return [(row.seq, row.action) for row in self.rows if row.seat == seat]


def replayed(game: Game) -> Replayed:
    """The game as stored, read at one moment (the row held, as every accepted action locks it
    first), and its states re-simulated from the log; the log must be gapless and the stored
    state the re-simulated one."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        rows = list(Action.objects.filter(game=game).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, game.version + 1)), "a gap in the log"
    initial = RENAISSANCE.table_game(game.players, game.seed, game.options)
    states = RENAISSANCE.record.simulate(initial, [(row.seat, row.action) for row in rows])
    assert states[-1] == RENAISSANCE.from_json(game.snapshot), "the stored state differs"
    return Replayed(game, rows, states)


def check_every_frame(game: Replayed, tabs: list[Tab]) -> int:
    """Each frame against the game re-simulated at its version: the seat's own view exactly,
    and the public log exactly as stored up to that version. Returns the frames checked."""
    entries = [{**row.public, "seq": row.seq, "seat": row.seat} for row in game.rows if row.public]
    checked = 0
    for tab in tabs:
        versions = [frame["version"] for frame in tab.frames]
        assert versions == sorted(versions), f"a tab of seat {tab.seat} saw versions go back"
        for frame in tab.frames:
            version = frame["version"]
            assert frame["game"]["ruleset"] == "renaissance"
            assert frame["view"] == RENAISSANCE.view_for(game.states[version], tab.seat), (
                tab.seat,
                version,
            )
            expected = [entry for entry in entries if entry["seq"] <= version][-LOG_LENGTH:]
            assert frame["log"] == expected, (tab.seat, version)
            checked += 1
    return checked


def check_sent_once(game: Replayed, person: Person) -> None:
    """Every action the site took from the person is in the log once, after the version it was
    sent at, in the order sent; nothing refused is; nothing else of its seat is, and nothing of
    its seat was played by a bot or a timer."""
    logged = game.moves_of(person.seat)
    found = 0
    for sent in person.sent:
        if sent.refused not in (None, UNANSWERED):
            continue
        if found < len(logged) and logged[found][1] == sent.action:
            assert logged[found][0] > sent.version, (sent, logged[found])
            found += 1
        else:
            assert sent.refused == UNANSWERED, f"an action the site took is not in the log: {sent}"
    assert found == len(logged), f"in the log and never sent (or twice): {logged[found:]}"
    actors = {row.actor for row in game.rows if row.seat == person.seat}
    assert actors <= {Action.Actor.HUMAN}, actors


def check_refusals(person: Person, allowed: dict, game_ended: bool = False) -> None:
    """The only refusals a person met are those a race explains: `allowed` {kind of action:
    error codes}, the kind "move" for every move. In a game that ended, its last action also
    races whatever a person sends at that moment: "not_playing" is explained for the sends
    after the person's last taken one, and for no other."""
    taken = [index for index, sent in enumerate(person.sent) if sent.refused is None]
    after_last_taken = taken[-1] + 1 if taken else 0
    for index, sent in enumerate(person.sent):
        if sent.refused in (None, UNANSWERED):
            continue
        if game_ended and sent.refused == "not_playing" and index >= after_last_taken:
            continue
        kind = sent.action["type"]
        kind = kind if kind in allowed else "move"
        assert sent.refused in allowed.get(kind, ()), sent


def offer_made(state, seat: int, action: dict) -> tuple:
    """The engine's tuple of the offer `action` by `seat`: (kind, from, to, give, take), the
    cities by index (-1 for a sale)."""
    if action["type"] == "offer_condottiere":
        return (1, seat, action["to"], -1, -1)
    cities = state.geo.cities
    return (0, seat, action["to"], cities.index(action["give"]), cities.index(action["take"]))


@dataclass(frozen=True)
class Fate:
    """How an offer ended: "answered" by its recipient, "withdrawn", "void" (the game took it
    off: one of its cities changed hands, the turn ended) or still "waiting"; and how many
    actions and seconds it waited."""

    end: str
    actions: int
    seconds: float


def offer_fates(game: Replayed, seat: int) -> list[Fate]:
    """The fate of each offer `seat` made, in order."""
    fates = []
    for index, row in enumerate(game.rows):
        if row.seat != seat or row.action["type"] not in OFFERS:
            continue
        offer = offer_made(game.states[row.seq], seat, row.action)
        later = game.rows[index + 1 :]
        gone = next((r for r in later if offer not in game.states[r.seq].offers), None)
        if gone is None:
            fates.append(Fate("waiting", len(later), 0.0))
            continue
        if gone.seat == offer[2] and gone.action["type"] in ANSWERS:
            end = "answered"
        elif gone.seat == seat and gone.action["type"].startswith("withdraw_"):
            end = "withdrawn"
        else:
            end = "void"
        seconds = (gone.created_at - row.created_at).total_seconds()
        fates.append(Fate(end, gone.seq - row.seq, seconds))
    return fates


# --- 1. A whole six-player game over the production profile --------------------------------------


@on_the_site
def test_a_whole_six_player_game_over_sockets_every_frame_as_the_replay_shows_it(
    start_site, make_user
):
    site = start_site(env=FAST_BOTS)
    alice = make_user("alice")
    game = renaissance_table(make_user, 6, {0: alice}, seed=7_310_601)
    url = site.daphne_urls[0]
    sessions = {0: session_of(alice), None: spectator_session(make_user)}

    async def scenario():
        async with aiohttp.ClientSession() as http:
            tab = await Tab(url, game.pk, 0, sessions[0]).open(http)
            spectator = await Tab(url, game.pk, None, sessions[None]).open(http)
            diplomacy = Diplomacy(partners=frozenset(range(1, 6)))
            alice_plays = Person(0, random.Random(1), tab, diplomacy=diplomacy)
            started = time.monotonic()
            try:
                await asyncio.wait_for(
                    asyncio.gather(alice_plays.play(), watch_until_over(spectator)),
                    WHOLE_GAME_WITHIN,
                )
            finally:
                await tab.close()
                await spectator.close()
            return alice_plays, spectator, time.monotonic() - started

    alice_plays, spectator, took = asyncio.run(scenario())
    stored = replayed(game)
    assert stored.game.status == Game.Status.FINISHED
    assert stored.game.result == RENAISSANCE.final_result(stored.states[-1])
    checked = check_every_frame(stored, alice_plays.tabs + [spectator])
    check_sent_once(stored, alice_plays)
    check_refusals(
        alice_plays,
        {"move": ("stale",), **dict.fromkeys(DIPLOMACY, RACED)},
        game_ended=stored.game.status == Game.Status.FINISHED,
    )
    assert {row.actor for row in stored.rows if row.seat != 0} == {Action.Actor.BOT}
    # The bots answer every offer at once (they never leave a person waiting), unless it is
    # withdrawn first or stops holding.
    fates = offer_fates(stored, 0)
    ends = Counter(fate.end for fate in fates)
    assert ends["answered"] >= 1 and not ends["waiting"], fates
    assert all(fate.seconds < ANSWERED_WITHIN for fate in fates), fates
    moves = len(stored.moves_of(0))
    print(
        f"{stored.game.version} actions in {took:.1f} s, alice {moves} of them;"
        f" {checked} frames checked; offers: {dict(ends)}"
    )


# --- 2. Two people and four bots voting at the same moment ---------------------------------------


@dataclass
class VoteRace:
    """Each vote of the two people: both wait for each other, then, after the same short random
    pause (so that the bots' votes land before, between or after theirs), send their votes at
    one instant against the same version, the older of their two frames'; `offerer` sends an
    offer first in that same instant, back to back with its vote."""

    people: tuple
    offerer: int
    rng: random.Random
    arrived: dict = field(default_factory=dict)  # turn -> {seat: frame version}
    ready: dict = field(default_factory=dict)  # turn -> Event
    pause: dict = field(default_factory=dict)  # turn -> seconds
    raced: list = field(default_factory=list)  # (turn, version, seat, vote refused, offer's)

    async def vote(self, person: Person, frame: dict) -> str | None:
        turn = frame["view"]["public"]["turn"]
        seen = self.arrived.setdefault(turn, {})
        ready = self.ready.setdefault(turn, asyncio.Event())
        self.pause.setdefault(turn, self.rng.uniform(0, 0.1))
        seen[person.seat] = frame["version"]
        if len(seen) == len(self.people):
            ready.set()
        await asyncio.wait_for(ready.wait(), 30)
        await asyncio.sleep(self.pause[turn])
        version = min(seen.values())
        sends = [(person.rng.choice(frame["view"]["legal_actions"]), version)]
        if person.seat == self.offerer:
            offer = self.offer(person, frame["view"])
            sends = [(offer, version), *sends] if offer else sends
        *offered, refused = await person.send_all(sends)
        self.raced.append((turn, version, person.seat, refused, *offered))
        return refused

    def offer(self, person: Person, view: dict) -> dict | None:
        """An offer to the other person if one is open, else to anyone, else a gift."""
        other = next(seat for seat in self.people if seat != person.seat)
        open_to = renaissance.all_diplomacy(view)
        offers = [a for a in open_to if a["type"] in OFFERS]
        to_other = [a for a in offers if a["to"] == other]
        gifts = [a for a in open_to if a["type"] == "give_ducats"]
        choices = to_other or offers or gifts
        return person.rng.choice(choices) if choices else None


def vote_turns(game: Replayed) -> dict[int, list]:
    """Per turn, the vote actions of its vote as (seq, seat), in the order taken."""
    turns: dict[int, list] = {}
    for row in game.rows:
        if row.action["type"] == "vote":
            turns.setdefault(game.states[row.seq - 1].turn, []).append((row.seq, row.seat))
    return turns


def check_no_vote_shown_early(game: Replayed, tabs: list[Tab]) -> int:
    """While a vote is under way, a frame shows its seat's own vote and who has voted, never how
    another seat voted: not in the view, and no entry of this vote in the log says how anyone
    voted before the last vote's entry. Returns the frames that were taken mid-vote."""
    mid_vote = 0
    for tab in tabs:
        for frame in tab.frames:
            state = game.states[frame["version"]]
            view = frame["view"]
            if view["phase"] != "vote":
                continue
            mid_vote += 1
            own = None if tab.seat is None or state.votes[tab.seat] < 0 else state.votes[tab.seat]
            assert view["vote"] == (None if own is None else bool(own))
            assert view["public"]["voted"] == [vote >= 0 for vote in state.votes]
            this_vote = [
                entry
                for entry in frame["log"]
                if entry["type"] == "vote" and game.states[entry["seq"] - 1].turn == state.turn
            ]
            assert all(set(entry) == {"type", "phase", "seq", "seat"} for entry in this_vote), (
                tab.seat,
                frame["version"],
                this_vote,
            )
    return mid_vote


@on_the_site
def test_two_people_and_four_bots_vote_at_the_same_moment_and_nothing_is_lost_or_shown_early(
    start_site, make_user
):
    site = start_site(env=FAST_BOTS)
    alice, bob = make_user("alice"), make_user("bob")
    game = renaissance_table(make_user, 6, {0: alice, 1: bob}, seed=7_310_602)
    url = site.daphne_urls[0]
    sessions = {0: session_of(alice), 1: session_of(bob), None: spectator_session(make_user)}

    async def scenario():
        async with aiohttp.ClientSession() as http:
            tabs = {
                seat: await Tab(url, game.pk, seat, sessions[seat]).open(http) for seat in (0, 1)
            }
            spectator = await Tab(url, game.pk, None, sessions[None]).open(http)
            race = VoteRace((0, 1), offerer=1, rng=random.Random(5))
            people = [
                Person(
                    seat,
                    random.Random(seat + 10),
                    tabs[seat],
                    diplomacy=Diplomacy(partners=frozenset({1 - seat}), share=0.04, budget=8),
                    votes=race,
                )
                for seat in (0, 1)
            ]
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(p.play() for p in people), watch_until_over(spectator)),
                    WHOLE_GAME_WITHIN,
                )
            finally:
                for tab in (*tabs.values(), spectator):
                    await tab.close()
            return people, race, [*tabs.values(), spectator]

    people, race, tabs = asyncio.run(scenario())
    stored = replayed(game)
    assert stored.game.status == Game.Status.FINISHED
    check_every_frame(stored, tabs)
    for person in people:
        check_sent_once(stored, person)
        check_refusals(
            person,
            {"move": ("stale",), **dict.fromkeys(DIPLOMACY, RACED)},
            game_ended=stored.game.status == Game.Status.FINISHED,
        )
    turns = vote_turns(stored)
    assert sorted(turns) == [2, 3, 4, 5, 6]
    for turn, votes in turns.items():
        assert Counter(seat for _seq, seat in votes) == Counter(range(6)), (turn, votes)
    # Every race: both votes taken, against one version, and the offer of that instant taken.
    assert sorted({turn for turn, *_ in race.raced}) == [2, 3, 4, 5, 6]
    for turn, _version, seat, refused, *offered in race.raced:
        assert refused is None, (turn, seat, refused)
        assert offered in ([], [None]), (turn, offered)
    versions = {turn: {version for t, version, *_ in race.raced if t == turn} for turn in turns}
    assert all(len(found) == 1 for found in versions.values()), versions
    # Somewhere a bot's vote was taken between the version the people voted against and theirs.
    people_votes = {(seq, seat) for votes in turns.values() for seq, seat in votes if seat < 2}
    overtaken = [
        seq
        for turn, votes in turns.items()
        for seq, seat in votes
        if (seq, seat) in people_votes and seq > next(iter(versions[turn])) + 1
    ]
    assert overtaken, "the bots never voted in the same moment as the people: no race"
    assert check_no_vote_shown_early(stored, tabs) > 0
    print(f"{stored.game.version} actions; votes per turn: {turns}; races: {race.raced}")
