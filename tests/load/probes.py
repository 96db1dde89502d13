"""Abuse probes against the production profile, printed as a table: `make probe`.

The tests prove each limit at its edge in-process (docs/security.md, "The permanent checks");
these probes ask the same questions of real processes over loopback, the way an attacker would,
and print what they got: Daphne, a play worker, a background worker and beat on this machine's
PostgreSQL and Redis, started fresh (a database and a Redis db of their own), the caps at their
production values.

    python -m tests.load.probes          # about a minute on 2 cores
"""

import argparse
import asyncio
import json
import statistics
import sys
import time
import uuid
from pathlib import Path

import aiohttp

from tests.load.clients import CSRF_FIELD, Browser, Stats
from tests.load.loadtest import new_http
from tests.load.play_probe import probe_play_under_attack
from tests.load.servers import lock_redis_db, start_servers

DATABASE = "condottiere_probes"
REDIS_DB = 13
# The per-address caps the probes lean on, named at their production values (the harness keeps
# every cap at its default too): the four accounts the probes make fit under 5 sign-ups an hour.
PRODUCTION_CAPS = {"SOCKETS_PER_ADDRESS": "40", "SIGNUPS_PER_IP": "5"}


async def get_ms(http: aiohttp.ClientSession, url: str) -> float:
    started = time.perf_counter()
    async with http.get(url) as response:
        await response.read()
    return (time.perf_counter() - started) * 1000


async def lobby_latency(http, base: str, seconds: float) -> list[float]:
    """Anonymous GETs of the lobby page, one after another, for `seconds`."""
    times, until = [], time.monotonic() + seconds
    while time.monotonic() < until:
        times.append(await get_ms(http, base + "/lobby/"))
    return times


async def flood_lobby(http, base: str, seconds: float, counts: dict) -> None:
    """An anonymous lobby socket sending `sync` as fast as it can, reconnecting when closed."""
    url = "ws" + base.removeprefix("http") + "/ws/lobby/"
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        async with http.ws_connect(url, headers={"Origin": base}) as socket:
            counts["sockets"] += 1
            while not socket.closed and time.monotonic() < until:
                await socket.send_str('{"type": "sync"}')
                counts["frames"] += 1
                message = await socket.receive()
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    counts["closed " + str(socket.close_code or message.data)] += 1
                    break


async def probe_lobby_flood(http, base: str) -> str:
    before = await lobby_latency(http, base, 4)
    counts = _CountingDict(sockets=0, frames=0)
    floods = [flood_lobby(http, base, 6, counts) for _ in range(3)]
    during, *_ = await asyncio.gather(lobby_latency(http, base, 6), *floods)
    return (
        f"3 anonymous lobby sockets flooding `sync` for 6 s, reconnecting when closed: "
        f"{counts['frames']} frames on {counts['sockets']} sockets, closed with 4008 "
        f"{counts['closed 4008']} times; a lobby "
        f"page's median {statistics.median(before):.0f} ms before, "
        f"{statistics.median(during):.0f} ms during"
    )


class _CountingDict(dict):
    """A dict whose missing keys count as 0 (close codes seen)."""

    def __missing__(self, key):
        return 0


async def signed_up(http, base: str, name: str) -> Browser:
    browser = Browser(http, base, Stats())
    assert await browser.sign_up(name), browser.stats.errors
    return browser


async def lobby_frame_bytes(browser: Browser) -> int:
    url = "ws" + browser.base.removeprefix("http") + "/ws/lobby/"
    headers = {**browser.headers(), "Origin": browser.base}
    async with browser.http.ws_connect(url, headers=headers, max_msg_size=0) as socket:
        message = await socket.receive(timeout=10)
        return len(message.data.encode())


async def probe_table_spam(http, base: str) -> str:
    spammer = await signed_up(http, base, f"spam{uuid.uuid4().hex[:8]}")
    size_before = await lobby_frame_bytes(spammer)
    fields = {"players": "2", "seat_0_kind": "me", "seat_1_kind": "open", "turn_seconds": ""}
    opened, started = 0, time.monotonic()
    for _ in range(200):
        answer = await spammer.submit("/tables/new/", fields)
        if answer is not None and answer[0] == 302 and "/tables/" in answer[2]:
            opened += 1
    took = time.monotonic() - started
    size_after = await lobby_frame_bytes(spammer)
    return (
        f"one account asks for 200 waiting tables: {opened} opened in {took:.0f} s; the lobby "
        f"frame {size_before / 1024:.1f} KiB before, {size_after / 1024:.1f} KiB after"
    )


async def probe_login_guessing(http, base: str) -> str:
    victim = f"victim{uuid.uuid4().hex[:8]}"
    await signed_up(http, base, victim)
    guesser = Browser(http, base, Stats())
    statuses, refused_ms = [], []
    for attempt in range(30):
        page = await guesser.request("GET", "/accounts/login/")
        token = CSRF_FIELD.search(page[1]).group(1) if page else ""
        started = time.perf_counter()
        async with http.post(
            base + "/accounts/login/",
            data={"csrfmiddlewaretoken": token, "username": victim, "password": f"guess{attempt}"},
            headers=guesser.headers("/accounts/login/"),
            allow_redirects=False,
        ) as response:
            await response.read()
            statuses.append(response.status)
            if response.status == 429:
                refused_ms.append((time.perf_counter() - started) * 1000)
    tried = statuses.count(200)
    return (
        f"30 wrong passwords for one username: {tried} checked, {statuses.count(429)} refused "
        f"with 429 in {statistics.median(refused_ms):.0f} ms median (no hash)"
    )


async def probe_socket_cap(http, base: str) -> str:
    hoarder = await signed_up(http, base, f"hoard{uuid.uuid4().hex[:8]}")
    url = "ws" + base.removeprefix("http") + "/ws/lobby/"
    headers = {**hoarder.headers(), "Origin": base}
    sockets, kept, refused = [], 0, 0
    for _ in range(25):
        socket = await http.ws_connect(url, headers=headers, max_msg_size=0)
        sockets.append(socket)
        first = await socket.receive(timeout=10)
        frame = json.loads(first.data) if first.type == aiohttp.WSMsgType.TEXT else {}
        if frame.get("code") == "too_many_sockets":
            await socket.receive(timeout=10)
            refused += 1 if socket.close_code == 4029 else 0
        else:
            kept += 1
    for socket in sockets:
        await socket.close()
    return f"one account opens 25 lobby sockets: {kept} open, {refused} refused with 4029"


async def probe_hostile_frames(http, base: str) -> str:
    url = "ws" + base.removeprefix("http") + "/ws/lobby/"
    answers = []
    async with http.ws_connect(url, headers={"Origin": base}, max_msg_size=0) as socket:
        await socket.receive(timeout=10)  # the tables
        for send in (
            socket.send_bytes(b'{"type": "sync"}'),
            socket.send_str("[" * 1000 + "]" * 1000),
            socket.send_str(json.dumps({"type": "sync", "pad": "x" * 10_000})),
        ):
            await send
            answers.append(json.loads((await socket.receive(timeout=10)).data).get("code"))
        await socket.send_str('{"type": "sync"}')
        alive = json.loads((await socket.receive(timeout=10)).data).get("type") == "tables"
    return (
        f"a binary frame, 1,000 nested brackets, a 10 kB frame: answered {', '.join(answers)}; "
        f"the socket {'still answers' if alive else 'is dead'}"
    )


# The flood comes last: it spends this address's sockets-per-minute allowance, which the socket
# probes before it need.
PROBES = (
    probe_table_spam,
    probe_login_guessing,
    probe_socket_cap,
    probe_hostile_frames,
    probe_lobby_flood,
)


async def run_probes(base: str, servers) -> list[str]:
    async with new_http() as http:
        lines = [await probe(http, base) for probe in PROBES]
        # Its own client addresses: the flood before it spent 127.0.0.1's allowances.
        lines.append(await probe_play_under_attack(http, base, servers))
        return lines


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    root = Path(__file__).resolve().parents[2]
    lock = lock_redis_db(REDIS_DB)
    if lock is None:
        sys.exit(f"another harness run holds Redis db {REDIS_DB}")
    with lock:
        servers = start_servers(
            root=root,
            database=DATABASE,
            redis_db=REDIS_DB,
            daphnes=1,
            workers=2,
            worker_queues=("play", "background"),  # as production runs them
            concurrency=2,
            pool="prefork",
            bot_move_delay=0.8,  # the production defaults: the victim's bot replies are timed
            bot_think=1.5,
            extra_env=PRODUCTION_CAPS,
        )
        try:
            lines = asyncio.run(run_probes(servers.urls[0], servers))
        finally:
            servers.stop()
    for line in lines:
        print("-", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
