"""The `renaissance` scenario's people: each plays a Renaissance game against bots over the game
socket, as `fast`'s people play Condottiere.

Where a game comes from: the `/play/` form, as for Condottiere, when the site's form offers
Renaissance (a `game` choice with `renaissance` in it); otherwise the harness creates the games
itself as its set-up does its work, through `manage.py` in the checkout under test (`Tables`: a
`Game` of ruleset "renaissance" with the person at seat 0 and bots at the others, started by
`games.services.start_game`, the lobby's own last step). Either way the person then loads the
game's page and plays over its socket; the output says which way was taken.

Several seats may act at once in Renaissance (the vote), so another seat's move may make the
next version while the person's own action is still on its way. The person's action is answered
by the first state frame whose log shows it (an entry of the person's seat after the version it
acted on: every move a seat may take has a public entry); the latency is the time to that frame.
"""

import asyncio
import json
import re
import subprocess
from dataclasses import dataclass

from .clients import Player
from .servers import HarnessError, Servers, tool

RULESET = "renaissance"
# The form's game choice, if the site's /play/ form has one that offers Renaissance.
RENAISSANCE_CHOICE = re.compile(r'<select[^>]*name="game".*?value="renaissance"', re.S)
# How long one `manage.py` creation of games may take (Django's start-up included).
CREATE_TIMEOUT = 120.0

# Run by `manage.py shell` in the checkout under test: reads [[username, bots, level], ...] on
# stdin, prints the new games' ids as JSON. One transaction per game, as the lobby's.
CREATE_GAMES = """
import json, sys
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from games.models import Game, Seat
from games.services import start_game
ids = []
for username, bots, level in json.load(sys.stdin):
    person = get_user_model().objects.get(username=username)
    with transaction.atomic():
        game = Game.objects.create(
            ruleset="renaissance", players=bots + 1, options={}, created_by=person
        )
        Seat.objects.create(game=game, index=0, user=person, joined_at=timezone.now())
        for index in range(1, bots + 1):
            Seat.objects.create(game=game, index=index, bot_level=level)
        start_game(game.pk)
    ids.append(game.pk)
print("GAMES " + json.dumps(ids))
"""


@dataclass
class Ask:
    username: str
    bots: int
    level: str
    answer: asyncio.Future


class Tables:
    """Creates Renaissance games through `manage.py` in the checkout under test. The asks that
    arrive while one creation runs wait for the next, which makes them all in one process (a
    Django start-up costs more than a few games)."""

    def __init__(self, servers: Servers):
        self.servers = servers
        self.asks: list[Ask] = []
        self.running: asyncio.Task | None = None
        self.made = 0
        self.batches = 0

    async def create(self, username: str, bots: int, level: str) -> int | None:
        ask = Ask(username, bots, level, asyncio.get_running_loop().create_future())
        self.asks.append(ask)
        if self.running is None or self.running.done():
            self.running = asyncio.ensure_future(self.serve())
        return await ask.answer

    async def serve(self) -> None:
        while self.asks:
            batch, self.asks = self.asks, []
            try:
                ids = await asyncio.to_thread(self.make, batch)
            except HarnessError:
                ids = [None] * len(batch)
            for ask, game_id in zip(batch, ids, strict=True):
                ask.answer.set_result(game_id)

    def make(self, batch: list[Ask]) -> list[int]:
        asks = [[ask.username, ask.bots, ask.level] for ask in batch]
        ids = create_games(self.servers, asks)
        self.made += len(ids)
        self.batches += 1
        return ids


def create_games(servers: Servers, asks: list[list]) -> list[int]:
    """The games' ids, created by `manage.py shell` with the servers' own environment."""
    try:
        done = subprocess.run(
            [tool(servers.root, "python"), "manage.py", "shell", "-c", CREATE_GAMES],
            cwd=servers.root,
            env=servers.env,
            input=json.dumps(asks),
            capture_output=True,
            text=True,
            timeout=CREATE_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise HarnessError(f"creating Renaissance games took over {CREATE_TIMEOUT:.0f} s") from None
    found = re.search(r"^GAMES (\[.*\])$", done.stdout, re.M)
    if done.returncode != 0 or found is None:
        raise HarnessError(
            "could not create Renaissance games (does this checkout have Game.ruleset?):\n"
            + done.stderr[-2000:]
        )
    return json.loads(found.group(1))


async def form_offers_renaissance(browser) -> bool:
    """Whether the site's /play/ form lets a person choose Renaissance."""
    page = await browser.request("GET", "/play/")
    return page is not None and RENAISSANCE_CHOICE.search(page[1]) is not None


class RenaissancePlayer(Player):
    """A person playing Renaissance against bots: its games from the form or from `tables`."""

    def __init__(self, *args, maker: Tables | None, **kwargs):
        super().__init__(*args, **kwargs)
        self.maker = maker  # None: the /play/ form offers Renaissance

    async def start_game(self) -> int | None:
        if self.maker is None:
            fields = {"game": RULESET, "bots": self.plan.bots, "level": self.plan.level}
            return await self.browser.open_game("/play/", {**fields, "turn_seconds": ""})
        username = self.browser.username
        game_id = await self.maker.create(username, self.plan.bots, self.plan.level)
        if game_id is None:
            self.stats.error("the harness could not create a Renaissance game")
            return None
        return game_id if await self.browser.visit_game(game_id) else None

    def shows_own_action(self, frame: dict) -> bool:
        acted_on = self.pending[0]
        mine = [seat["index"] for seat in frame["game"]["seats"] if seat.get("you")]
        return any(
            entry.get("seat") in mine and entry.get("seq", 0) > acted_on
            for entry in frame.get("log") or ()
        )
