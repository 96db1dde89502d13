"""Clients that behave as people do: the site's forms over HTTP, the game over its websocket.

One aiohttp session carries every client's requests; each person keeps their own cookies, sent by
hand, because the production profile's cookies are Secure and the harness talks plain http on
loopback (a cookie jar would rightly refuse to send them). Frames follow docs/protocol.md.

Every client also has an address of its own, which it sends as `X-Forwarded-For` on each request
and socket, as a proxy of ours would (the servers run with TRUSTED_PROXY_COUNT=1): the site's
per-address limits then count each household, not the harness's one loopback address. The client
keeps under the limits a person keeps under by being human: frames per socket, tables a minute.
"""

import asyncio
import json
import random
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field

import aiohttp

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
GAME_PATH = re.compile(r"/games/(\d+)/$")
CHAT_URL = re.compile(r'data-chat-url="([^"]+)"')
ERROR_LIST = re.compile(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.S)
# The server closes a socket after 20 frames in 2 s (docs/protocol.md, SOCKET_FLOOD_FRAMES): a
# client keeps to half of it, since the server times a frame when it reads it, and frames held up
# in a busy server's queue are read closer together than they were sent. No person clicks faster.
FRAMES_PER_WINDOW, FRAME_WINDOW = 10, 2.0
# One account may open 10 tables a minute (TABLES_OPENED_PER_MINUTE): a client opens at most 9 in
# any 62 s, so that the server, timing each table when it creates it, never counts a 10th.
TABLES_PER_WINDOW, TABLE_WINDOW = 9, 62.0
# After a socket closed unasked: the first pause before reconnecting, doubled up to the last.
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 15.0
# After a game's end, how long a person may wait for the bots' "Good game" before leaving.
GOOD_GAME_WAIT = 3.0
# At the end, how long an action already sent may wait for its answer before the socket closes.
ANSWER_GRACE = 5.0
PASSWORD = "Mercenary-Captain-1494"
# asyncio's timeout is the built-in TimeoutError from Python 3.11 only.
TIMEOUTS = (TimeoutError, asyncio.TimeoutError)


@dataclass
class GameRecord:
    """One game as its person saw it: what was sent, refused, left unanswered."""

    game_id: int
    sent: int = 0
    refused: int = 0
    unanswered: int = 0
    version: int = 0
    status: str = "playing"


@dataclass
class Stats:
    """Everything the clients of one run count. `window` is True inside the measured window."""

    window: bool = False
    errors: Counter = field(default_factory=Counter)
    stale: int = 0
    throttled: int = 0  # waits to stay under the socket's frame limit
    table_waits: int = 0  # waits to stay under the tables-a-minute limit
    reconnects: int = 0
    latencies: list[float] = field(default_factory=list)
    games: dict[int, GameRecord] = field(default_factory=dict)
    games_started: int = 0
    started_in_window: int = 0
    games_finished: int = 0
    finished_in_window: int = 0
    version_steps: int = 0  # versions advanced, as the players' sockets saw them
    http_requests: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] += 1


def label(path: str) -> str:
    """A path without its ids, for counting errors by kind."""
    return re.sub(r"/\d+/", "/<id>/", path.split("?")[0])


class Browser:
    """One person's cookies and the forms they fill in."""

    def __init__(
        self, http: aiohttp.ClientSession, base: str, stats: Stats, address: str | None = None
    ):
        self.http, self.base, self.stats = http, base, stats
        self.address = address  # sent as X-Forwarded-For; None: the loopback peer is the client
        self.cookies: dict[str, str] = {}
        self.username: str | None = None  # once signed up
        self.chat_urls: dict[int, str] = {}  # game -> its room's history, named by its page

    def headers(self, post_path: str | None = None) -> dict:
        headers = {}
        if self.address is not None:
            headers["X-Forwarded-For"] = self.address
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if post_path is not None:
            headers["Origin"] = self.base
            headers["Referer"] = self.base + post_path
        return headers

    def keep(self, response: aiohttp.ClientResponse) -> None:
        for name, morsel in response.cookies.items():
            if morsel.value and morsel["max-age"] != "0":
                self.cookies[name] = morsel.value
            else:
                self.cookies.pop(name, None)

    async def request(self, method: str, path: str, data: dict | None = None):
        """(status, body, Location) or None after an error, which is counted."""
        self.stats.http_requests += 1
        try:
            async with self.http.request(
                method,
                self.base + path,
                data=data,
                headers=self.headers(path if method == "POST" else None),
                allow_redirects=False,
            ) as response:
                self.keep(response)
                body = await response.text()
                location = response.headers.get("Location", "")
        except (aiohttp.ClientError, *TIMEOUTS) as error:
            self.stats.error(f"HTTP {method} {label(path)}: {describe(error)}")
            return None
        if response.status >= 400:
            # A refused form says why: the reason is part of the error's kind.
            reason = form_errors(body, "")
            kind = f"HTTP {response.status} on {method} {label(path)}"
            self.stats.error(f"{kind}: {reason}" if reason else kind)
            return None
        return response.status, body, location

    async def submit(self, path: str, fields: dict):
        """GET the form, read its CSRF token, POST it: (status, body, Location) or None."""
        page = await self.request("GET", path)
        if page is None:
            return None
        token = CSRF_FIELD.search(page[1])
        if token is None:
            self.stats.error(f"no CSRF token in the form at {label(path)}")
            return None
        return await self.request("POST", path, {"csrfmiddlewaretoken": token.group(1), **fields})

    async def sign_up(self, username: str) -> bool:
        fields = {"username": username, "display_name": "", "password1": PASSWORD}
        answer = await self.submit("/accounts/signup/", {**fields, "password2": PASSWORD})
        if answer is None:
            return False
        if answer[0] != 302 or "sessionid" not in self.cookies:
            self.stats.error(f"sign-up refused: {form_errors(answer[1])}")
            return False
        self.username = username
        return True

    async def open_game(self, path: str, fields: dict) -> int | None:
        """POST a form that starts a game; the redirect names it. Then load the game page."""
        answer = await self.submit(path, fields)
        if answer is None:
            return None
        match = GAME_PATH.search(answer[2]) if answer[0] == 302 else None
        if match is None:
            problem = answer[2] or form_errors(answer[1])
            self.stats.error(f"{label(path)} did not start a game: {problem}")
            return None
        game_id = int(match.group(1))
        return game_id if await self.visit_game(game_id) else None

    async def visit_game(self, game_id: int) -> bool:
        """Load the game's page, as a person's browser does before the socket, and note the chat
        room it names. False after an error, which is counted."""
        page = await self.request("GET", f"/games/{game_id}/")
        if page is None:
            return False
        chat = CHAT_URL.search(page[1])
        if chat is not None:
            self.chat_urls[game_id] = chat.group(1)
        return True

    def socket_url(self, game_id: int) -> str:
        return "ws" + self.base.removeprefix("http") + f"/ws/games/{game_id}/"

    async def connect(self, game_id: int):
        """The game's socket, with the session cookie and an Origin; None after an error."""
        try:
            return await self.http.ws_connect(
                self.socket_url(game_id),
                headers={**self.headers(), "Origin": self.base},
                autoping=True,
                max_msg_size=0,
            )
        except aiohttp.WSServerHandshakeError as error:
            self.stats.error(f"websocket handshake refused: HTTP {error.status}")
        except (aiohttp.ClientError, *TIMEOUTS) as error:
            self.stats.error(f"websocket connect: {describe(error)}")
        return None


def describe(error: BaseException) -> str:
    """An exception as an error kind: its type and message, without ports or addresses."""
    text = re.sub(r"(127\.0\.0\.1|localhost):\d+", "<server>", str(error))[:80]
    return f"{type(error).__name__} {text}".strip()


def form_errors(body: str, nothing: str = "no redirect") -> str:
    found = [re.sub(r"<[^>]+>", " ", item).strip() for item in ERROR_LIST.findall(body)]
    return "; ".join(" ".join(item.split()) for item in found)[:200] or nothing


def household_addresses(clients: int, per_address: int, rng: random.Random) -> list[str]:
    """One address per `per_address` clients (a household), e.g. 10.37.0.1, in a /16 of 10.0.0.0/8
    chosen at random: a second run against the same servers (`--url`) meets no address of the
    first one's in the site's hourly counters."""
    network = rng.randrange(256)
    return [
        f"10.{network}.{household // 254 % 256}.{household % 254 + 1}"
        for household in (index // per_address for index in range(clients))
    ]


class Budget:
    """Client-side guard: at most `limit` events in any `window` seconds, waiting if need be."""

    def __init__(self, limit: int, window: float):
        self.limit, self.window = limit, window
        self.times: deque[float] = deque()

    async def wait(self) -> bool:
        """Takes a place; True if it had to wait for one."""
        waited = False
        while True:
            now = time.monotonic()
            while self.times and self.times[0] <= now - self.window:
                self.times.popleft()
            if len(self.times) < self.limit:
                self.times.append(now)
                return waited
            waited = True
            await asyncio.sleep(self.times[0] + self.window - now + 0.01)


@dataclass
class Plan:
    """How a person plays: the bots they ask for, their level, and how long they think."""

    bots: int
    level: str
    think: tuple[float, float]
    rng: random.Random

    def think_time(self) -> float:
        low, high = self.think
        return low if high <= low else self.rng.uniform(low, high)


class Player:
    """A person: starts a game against bots through /play/, plays it over the socket, and
    starts another when it ends, until `stop` is set. A socket closed unasked is reconnected to
    the same game after a pause, as the page's script does (static/js/game/socket.js), so that
    one error is not followed by an abandoned game and a new table."""

    def __init__(
        self,
        browser: Browser,
        plan: Plan,
        stats: Stats,
        stop: asyncio.Event,
        ramp: asyncio.Semaphore | None = None,
    ):
        self.browser, self.plan, self.stats, self.stop = browser, plan, stats, stop
        self.ramp = ramp  # limits how many first games open at once
        self.frames = Budget(FRAMES_PER_WINDOW, FRAME_WINDOW)
        self.tables = Budget(TABLES_PER_WINDOW, TABLE_WINDOW)
        self.first_socket = asyncio.Event()
        # The game being played: the action awaiting its frame, and the version acted on.
        self.pending: tuple[int, float, bool] | None = None
        self.acted_at: int | None = None
        self.answered = asyncio.Event()
        self.thinking: asyncio.Task | None = None
        self.closing = False
        self.chat_read = False  # this connection read its room's history

    async def run(self) -> None:
        game_id, pause = None, RECONNECT_FIRST
        while not self.stop.is_set():
            if game_id is None:
                game_id = await self.open_game()
                if game_id is None:
                    await asyncio.sleep(1.0)
                    continue
            if await self.play(game_id):
                game_id, pause = None, RECONNECT_FIRST
            elif not self.stop.is_set():
                await asyncio.sleep(pause)
                pause = min(RECONNECT_MAX, pause * 2)
                self.stats.reconnects += 1
        self.first_socket.set()  # never leave the starter waiting

    async def open_game(self) -> int | None:
        if await self.tables.wait():
            self.stats.table_waits += 1
        if self.ramp is not None and not self.first_socket.is_set():
            async with self.ramp:
                game_id = await self.start_game()
        else:
            game_id = await self.start_game()
        if game_id is not None:
            self.stats.games_started += 1
            self.stats.started_in_window += self.stats.window
        return game_id

    async def start_game(self) -> int | None:
        """A game against bots through the /play/ form, its page loaded: its id, or None."""
        fields = {"bots": self.plan.bots, "level": self.plan.level, "turn_seconds": ""}
        return await self.browser.open_game("/play/", fields)

    async def play(self, game_id: int) -> bool:
        """Plays over one socket until the game is over (True) or the socket closes (False)."""
        record = self.stats.games.setdefault(game_id, GameRecord(game_id))
        socket = await self.browser.connect(game_id)
        self.first_socket.set()
        if socket is None:
            return False
        self.pending, self.acted_at, self.closing = None, None, False
        self.chat_read = False
        closer = asyncio.ensure_future(self.close_when_stopped(socket, record))
        try:
            async for message in socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                if await self.on_frame(socket, record, json.loads(message.data)):
                    self.closing = True
                    await self.read_good_games(socket)
                    break
        finally:
            closer.cancel()
            if self.thinking is not None:
                self.thinking.cancel()
            if not self.closing and not self.stop.is_set():
                self.stats.error(f"socket closed unexpectedly (code {socket.close_code})")
            if self.pending is not None:
                record.unanswered += 1
                self.pending = None
            await socket.close()
        return record.status != "playing"

    async def read_good_games(self, socket) -> None:
        """The page stays on the result until each bot has said "Good game" (bots say it when a
        game with people ends), as a person reads it before starting another game."""
        said, deadline = 0, time.monotonic() + GOOD_GAME_WAIT
        while said < self.plan.bots and time.monotonic() < deadline:
            try:
                message = await socket.receive(timeout=deadline - time.monotonic())
            except TIMEOUTS:
                return
            if message.type != aiohttp.WSMsgType.TEXT:
                return
            frame = json.loads(message.data)
            said += frame.get("type") == "chat" and frame["message"].get("phrase") == "good_game"

    async def close_when_stopped(self, socket, record: GameRecord) -> None:
        await self.stop.wait()
        if self.thinking is not None:
            self.thinking.cancel()
        deadline = time.monotonic() + ANSWER_GRACE
        while self.pending is not None and time.monotonic() < deadline:
            self.answered.clear()
            try:
                await asyncio.wait_for(self.answered.wait(), deadline - time.monotonic())
            except TIMEOUTS:
                break
        self.closing = True
        await socket.close()

    async def on_frame(self, socket, record: GameRecord, frame: dict) -> bool:
        """Handle one frame; True when the game is over."""
        if frame.get("type") == "error":
            self.on_error(record, frame.get("code"))
            return False
        if frame.get("type") != "state":
            return False
        if not self.chat_read:
            # As the page's script does on the first state of each connection (static/js/game.js).
            self.chat_read = True
            url = self.browser.chat_urls.get(record.game_id)
            if url is not None:
                await self.browser.request("GET", url)
        version = frame["version"]
        if version < record.version:
            self.stats.error("a state frame's version went backwards")
        self.stats.version_steps += max(0, version - record.version)
        record.version = max(record.version, version)
        if self.pending is not None and self.shows_own_action(frame):
            if self.pending[2]:
                self.stats.latencies.append(time.perf_counter() - self.pending[1])
            self.pending = None
            self.answered.set()
        record.status = frame["game"]["status"]
        if record.status != "playing":
            self.stats.games_finished += record.status == "finished"
            self.stats.finished_in_window += self.stats.window and record.status == "finished"
            return True
        legal = frame["view"].get("legal_actions") or []
        if legal and self.pending is None and self.acted_at != version and not self.stop.is_set():
            self.acted_at = version
            delay = self.plan.think_time()
            if delay > 0:
                self.thinking = asyncio.ensure_future(
                    self.act(socket, record, version, legal, delay)
                )
            else:
                await self.act(socket, record, version, legal, 0)
        return False

    def shows_own_action(self, frame: dict) -> bool:
        """Whether this state frame shows the action awaiting its answer. In Condottiere one seat
        acts at a time, so any later version is that action's (games.rules_api)."""
        return frame["version"] >= self.pending[0] + 1

    def on_error(self, record: GameRecord, code: str | None) -> None:
        if self.pending is not None:
            record.refused += 1
            self.pending = None
            self.answered.set()
        if code == "stale":
            self.stats.stale += 1
        else:
            self.stats.error(f"error frame '{code}'")
            self.acted_at = None  # a fresh state follows: choose again from it

    async def act(self, socket, record: GameRecord, version: int, legal: list, delay: float):
        if delay:
            await asyncio.sleep(delay)
        if record.version != version or self.stop.is_set() or self.closing:
            return  # the game moved on while thinking, or the run is over
        if await self.frames.wait():
            self.stats.throttled += 1
        if record.version != version or self.stop.is_set() or self.closing:
            return  # the run ended while waiting for the rate limit
        action = self.plan.rng.choice(legal)
        self.pending = (version, time.perf_counter(), self.stats.window)
        record.sent += 1
        frame = {"type": "action", "action": action, "expected_version": version}
        try:
            await socket.send_str(json.dumps(frame))
        except (aiohttp.ClientError, ConnectionError, RuntimeError) as error:
            # Not sent after all; a close the harness did not ask for is counted by the reader.
            record.sent -= 1
            self.pending = None
            if not (self.closing or self.stop.is_set() or socket.closed):
                self.stats.error(f"sending an action: {describe(error)}")


# A state frame's opening, as the server writes it (games/services/frames.py: the JSON of a dict
# whose first keys are type, protocol and version, then the table's facts, status among them),
# with or without a space after each separator (orjson writes none; older commits, given by
# --root, wrote them with json.dumps).
STATE_HEAD = re.compile(r'^\{"type": ?"state", ?"protocol": ?\d+, ?"version": ?(\d+)')
GAME_STATUS = re.compile(r'"status": ?"(\w+)"')


def state_head(text: str) -> tuple[int, str] | None:
    """A state frame's version and game status, read without parsing the whole frame (None for
    any other frame): a thousand spectators' frames parsed whole, one after another in this one
    process, would add the harness's own parsing to the fan-out lag it measures."""
    opening = STATE_HEAD.match(text)
    if opening is None:
        return None
    status = GAME_STATUS.search(text, opening.end())
    return int(opening.group(1)), status.group(1) if status else "playing"


class Spectator:
    """An anonymous socket watching one game: the versions it saw, and when."""

    def __init__(self, browser: Browser, game_id: int):
        self.browser, self.game_id = browser, game_id
        self.socket = None
        self.last = -1
        self.frames = 0
        self.backwards = 0
        self.seen: dict[int, float] = {}  # version -> when it first arrived
        self.first: int | None = None  # the version of the state sent on connect
        self.handshake: float | None = None  # seconds the opening handshake took
        self.closed_unexpectedly: int | None = None
        self.closing = False
        self.status = "playing"

    async def connect(self) -> bool:
        started = time.perf_counter()
        self.socket = await self.browser.connect(self.game_id)
        self.handshake = time.perf_counter() - started
        return self.socket is not None

    async def watch(self) -> None:
        async for message in self.socket:
            arrived = time.perf_counter()
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            head = state_head(message.data)
            if head is None:
                continue
            version, self.status = head
            self.frames += 1
            if version < self.last:
                self.backwards += 1
            if self.first is None:
                self.first = version
            self.seen.setdefault(version, arrived)
            self.last = max(self.last, version)
        if not self.closing:
            self.closed_unexpectedly = self.socket.close_code

    async def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            await self.socket.close()
