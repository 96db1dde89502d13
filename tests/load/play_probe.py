"""Play under attack, one of `make probe`'s probes: does a bot still answer a person at once
while another account does everything it may to load the site?

The attacker (one account) asks for the analysis of every finished game, again and again, all
requests together; opens a game against a strong bot and, over several sockets, floods it with
`show` frames and chat. Meanwhile a victim plays a game against a bot, moving the moment it may.
Printed: the victim's bot reply latency (from the state in which the bot must act to the state
after its move; the site's pause BOT_MOVE_DELAY included), p50/p99/max, against a target of a
p99 within 2 s; what the attacker got; and what waited in each queue at the end.
"""

import asyncio
import contextlib
import json
import random
import re
import statistics
import time
from collections import Counter

import aiohttp
import redis

from games.jobs import broker_lists
from tests.load.clients import CSRF_FIELD, GAME_PATH, Browser, Stats
from tests.load.servers import Servers, manage

ATTACK_SECONDS = 30.0
FINISHED_GAMES = 12  # finished games whose analyses the attacker asks for
SHOW_SOCKETS = 3  # attacker's sockets on its own game, each under the socket's frame limit
SHOWS_PER_SECOND = 6  # per socket: 12 frames in any 2 s, the limit being 20
CHAT_EVERY = 2.5  # seconds: under the chat limit of 5 messages in 10 s
REPLY_TARGET_P99 = 2.0
SHOWN_SECONDS = 15.0  # two people at one table, one of them flooding shows
CLICK_SECONDS = 0.4  # a person's click after the state it chose from

TABLE_PATH = re.compile(r"/tables/\d+/$")

# Run by `manage.py shell` in the servers' environment: finished games between two people,
# played at random through the services (no bot, nothing to wait for); prints their ids.
FINISHED_GAMES_CODE = """
import json, random, uuid
from games.engine import current_player, legal_actions
from games.models import Game, Seat, User
from games.services import load_state, start_game, submit_action
people = [User.objects.create_user(f"probe-{uuid.uuid4().hex[:10]}") for _ in range(2)]
ids = []
for seed in range(%d):
    game = Game.objects.create(players=2, seed=seed, options={})
    for index, person in enumerate(people):
        Seat.objects.create(game=game, index=index, user=person)
    start_game(game.pk)
    game.refresh_from_db()
    rng = random.Random(seed)
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        action = rng.choice(legal_actions(state))
        submit_action(game.pk, current_player(state), action, game.version)
        game.refresh_from_db()
    ids.append(game.pk)
print(json.dumps(ids))
"""


def finished_games(servers: Servers) -> list[int]:
    result = manage(servers.root, servers.env, "shell", "-c", FINISHED_GAMES_CODE % FINISHED_GAMES)
    if result.returncode != 0:
        raise RuntimeError(f"could not make finished games:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def ask_for_analyses(browser: Browser, game_ids: list[int], until: float, got: Counter):
    """Every game's analysis asked for at once, over and over, as a script would."""
    while time.monotonic() < until:
        statuses = await asyncio.gather(*(analysis_request(browser, g) for g in game_ids))
        got.update(f"analysis {status}" for status in statuses)
        await asyncio.sleep(1)


async def analysis_request(browser: Browser, game_id: int) -> int:
    path = f"/games/{game_id}/analysis/"
    headers = {
        **browser.headers(path),
        "Accept": "application/json",
        "X-CSRFToken": browser.cookies.get("csrftoken", ""),
    }
    try:
        async with browser.http.post(browser.base + path, headers=headers) as response:
            await response.read()
            return response.status
    except aiohttp.ClientError:
        return 0


async def flood_game(browser: Browser, game_id: int, chat: bool, until: float, got: Counter):
    """One attacker socket on its own game: a show of one card each tick, chat now and then."""
    socket = await browser.connect(game_id)
    if socket is None:
        got["show socket refused"] += 1
        return
    state = {"version": 0, "hand": []}
    reader = asyncio.ensure_future(read_shows(socket, state, got))
    last_chat = 0.0
    try:
        while time.monotonic() < until and not socket.closed:
            if state["hand"]:
                frame = {"type": "show", "to": None, "cards": [state["hand"][0]]}
                await socket.send_str(json.dumps({**frame, "expected_version": state["version"]}))
                got["shows sent"] += 1
            if chat and time.monotonic() - last_chat > CHAT_EVERY:
                await socket.send_str(json.dumps({"type": "chat", "text": "lalala"}))
                got["chat sent"] += 1
                last_chat = time.monotonic()
            await asyncio.sleep(1 / SHOWS_PER_SECOND)
    finally:
        reader.cancel()
        got["show socket closed"] += socket.closed
        await socket.close()


async def read_shows(socket, state: dict, got: Counter) -> None:
    async for message in socket:
        if message.type != aiohttp.WSMsgType.TEXT:
            return
        frame = json.loads(message.data)
        if frame.get("type") == "state":
            state["version"] = max(state["version"], frame["version"])
            state["hand"] = frame["view"].get("hand") or []
        elif frame.get("type") == "error":
            got[f"error {frame.get('code')}"] += 1


async def frame_before(socket, until: float) -> dict | None:
    """The socket's next frame, read by `until` (monotonic); None when the time is up or the
    socket sent something other than text (it closed): either way the reader is done."""
    try:
        message = await socket.receive(timeout=max(0.1, until - time.monotonic()))
    except asyncio.TimeoutError:
        return None
    if message.type != aiohttp.WSMsgType.TEXT:
        return None
    return json.loads(message.data)


async def play_against_the_bot(browser: Browser, until: float, replies: list, got: Counter):
    """The victim: a game against a bot, moving at once, a new game when one ends."""
    while time.monotonic() < until:
        fields = {"bots": "1", "level": "heuristic", "turn_seconds": ""}
        game_id = await browser.open_game("/play/", fields)
        socket = await browser.connect(game_id) if game_id else None
        if socket is None:
            got["victim could not play"] += 1
            return
        try:
            await play_one_game(socket, until, replies, got)
        finally:
            await socket.close()


async def play_one_game(socket, until: float, replies: list, got: Counter) -> None:
    bot_since: tuple[int, float] | None = None  # (version, when the bot's turn was seen)
    rng = random.Random(36)
    while time.monotonic() < until:
        frame = await frame_before(socket, until)
        if frame is None:
            return
        if frame.get("type") == "error":
            got[f"victim error {frame.get('code')}"] += 1
            continue
        if frame.get("type") != "state":
            continue
        version, view = frame["version"], frame["view"]
        if bot_since is not None and version > bot_since[0]:
            replies.append(time.monotonic() - bot_since[1])
            bot_since = None
        if frame["game"]["status"] != "playing":
            return
        legal = view.get("legal_actions") or []
        if legal:
            action = {"type": "action", "action": rng.choice(legal), "expected_version": version}
            await socket.send_str(json.dumps(action))
            got["victim moves"] += 1
        elif bot_since is None or bot_since[0] != version:
            bot_since = (version, time.monotonic())


async def table_of_two(attacker: Browser, victim: Browser) -> int | None:
    """A table the attacker opens for two people and the victim joins: its game's id."""
    fields = {"players": "2", "seat_0_kind": "me", "seat_1_kind": "open", "turn_seconds": ""}
    answer = await attacker.submit("/tables/new/", fields)
    match = TABLE_PATH.search(answer[2]) if answer and answer[0] == 302 else None
    page = await victim.request("GET", match.group(0)) if match else None
    token = CSRF_FIELD.search(page[1]) if page else None
    if token is None:
        return None
    join = {"csrfmiddlewaretoken": token.group(1), "seat": ""}
    answer = await victim.request("POST", match.group(0) + "join/", join)
    game = GAME_PATH.search(answer[2]) if answer and answer[0] == 302 else None
    return int(game.group(1)) if game else None


async def click_while_shown(browser: Browser, game_id: int, until: float, got: Counter, who: str):
    """A person playing a game with people: each decision sent CLICK_SECONDS after the state it
    was chosen from, with that state's version, as a page sends it, and the next one chosen only
    once this one was answered (a state whose log holds a move after it, or an error)."""
    socket = await browser.connect(game_id)
    if socket is None:
        got[f"{who} could not play"] += 1
        return
    rng = random.Random(who)
    sent_at: int | None = None  # the version of the decision sent and not answered yet
    clicking = None
    try:
        while time.monotonic() < until:
            frame = await frame_before(socket, until)
            if frame is None:
                return
            if frame.get("type") == "error":
                got[f"{who} refused {frame.get('code')}"] += 1
                sent_at = None
                continue
            if frame.get("type") != "state" or clicking is not None and not clicking.done():
                continue
            if frame["game"]["status"] != "playing":
                return
            if sent_at is not None and not moved_since(frame, sent_at):
                continue
            legal = frame["view"].get("legal_actions") or []
            sent_at = None
            if legal:
                sent_at = frame["version"]
                clicking = asyncio.ensure_future(click(socket, sent_at, legal, rng, got, who))
    finally:
        await socket.close()


def moved_since(frame: dict, version: int) -> bool:
    """Whether the state's log holds a move (not a show) made after `version`; or whether its
    log (a tail) no longer reaches back that far, so that nothing can be told."""
    log = frame["log"]
    if log and log[0].get("seq", 0) > version + 1:
        return True
    return any(e.get("seq", 0) > version and e.get("type") != "show" for e in log)


async def click(socket, version: int, legal: list, rng, got: Counter, who: str) -> None:
    await asyncio.sleep(CLICK_SECONDS)
    frame = {"type": "action", "action": rng.choice(legal), "expected_version": version}
    with contextlib.suppress(aiohttp.ClientError, ConnectionError, RuntimeError):
        await socket.send_str(json.dumps(frame))
        got[f"{who} clicks"] += 1


def attacker_errors(got: Counter) -> str:
    errors = {k.removeprefix("error "): v for k, v in got.items() if k.startswith("error ")}
    closed = got["show socket closed"]
    return ", ".join(f"{v} {k}" for k, v in sorted(errors.items())) + f"; {closed} sockets closed"


def queue_depths(redis_url: str) -> dict[str, int]:
    client = redis.Redis.from_url(redis_url)
    try:
        return {
            queue: sum(client.llen(name) for name in broker_lists(queue))
            for queue in ("play", "background")
        }
    finally:
        client.close()


async def probe_clicks_while_shown(attacker: Browser, victim: Browser) -> str:
    """Two people at one table; one also floods `show` frames: how many of the other's clicks
    are refused `stale`?"""
    game_id = await table_of_two(attacker, victim)
    if game_id is None:
        return "clicks while shown: the table of two could not be made"
    until = time.monotonic() + SHOWN_SECONDS
    got = Counter()
    await asyncio.gather(
        click_while_shown(victim, game_id, until, got, "victim"),
        click_while_shown(attacker, game_id, until, got, "attacker"),
        *(flood_game(attacker, game_id, False, until, got) for _ in range(SHOW_SOCKETS)),
    )
    clicks, stale = got["victim clicks"], got["victim refused stale"]
    share = 100 * stale / clicks if clicks else 0
    return (
        f"clicks while shown: two people at one table for {SHOWN_SECONDS:.0f} s, one flooding "
        f"{got['shows sent']} shows on {SHOW_SOCKETS} sockets; the other's {clicks} clicks "
        f"(each {CLICK_SECONDS} s after its state) refused `stale` {stale} times ({share:.0f}%)"
    )


async def probe_play_under_attack(http, base: str, servers: Servers) -> str:
    game_ids = await asyncio.to_thread(finished_games, servers)
    attacker = Browser(http, base, Stats(), address="10.36.0.1")
    victim = Browser(http, base, Stats(), address="10.36.0.2")
    tag = random.randrange(10**8)
    assert await attacker.sign_up(f"attacker{tag}"), attacker.stats.errors
    assert await victim.sign_up(f"victim{tag}"), victim.stats.errors
    flooded = await attacker.open_game("/play/", {"bots": "1", "level": "hard", "turn_seconds": ""})
    until = time.monotonic() + ATTACK_SECONDS
    got, replies = Counter(), []
    await asyncio.gather(
        ask_for_analyses(attacker, game_ids, until, got),
        *(flood_game(attacker, flooded, i == 0, until, got) for i in range(SHOW_SOCKETS)),
        play_against_the_bot(victim, until, replies, got),
    )
    depths = queue_depths(servers.env["REDIS_URL"])
    shown = await probe_clicks_while_shown(attacker, victim)
    if not replies:
        return f"play under attack: the victim's bot never replied ({dict(got)}); {shown}"
    p99 = percentile(replies, 0.99)
    verdict = "within" if p99 <= REPLY_TARGET_P99 else "OVER"
    return (
        f"play under attack for {ATTACK_SECONDS:.0f} s (one account asking for {len(game_ids)} "
        f"analyses at once every second: {got['analysis 202']} accepted, "
        f"{got['analysis 429']} refused 429; {got['shows sent']} shows and {got['chat sent']} "
        f"chat lines on {SHOW_SOCKETS} sockets of its game against a hard bot, "
        f"answered {attacker_errors(got)}): the victim's bot replied {len(replies)} times, "
        f"p50 {statistics.median(replies):.2f} s, p99 {p99:.2f} s, max {max(replies):.2f} s "
        f"({verdict} the {REPLY_TARGET_P99:.0f} s target; BOT_MOVE_DELAY included); the "
        f"victim's errors {sum(v for k, v in got.items() if k.startswith('victim error'))}; "
        f"waiting at the end: play {depths['play']}, background {depths['background']}\n- " + shown
    )
