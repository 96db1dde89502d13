"""The embedded default (`make run` with nothing set) under the load of one lively evening: matches,
games against bots and watching sockets at once, on SQLite, with no "database is locked".

The embedded default is SQLite, the in-memory channel layer and jobs on threads of the Daphne
process: requests, sockets and jobs all write to one file, which takes one writer at a time. A
match's next game once started 62 s late: the job "match_next_game" ran into the lock while the
finished game's rating and the bots' last moves were written, failed, and only the timer's sweep
opened the game a minute later. This test starts that profile in a process of its own, whatever
this test run's own profile is (CI runs the suite on PostgreSQL and Redis): a Daphne with neither
DATABASE_URL nor REDIS_URL, on a fresh SQLite file (tests/web/embedded_site_settings.py moves the
file, nothing else). Then, over HTTP and websockets as browsers do:

- people play matches for points against bots, their seats handed to stand-in bots, so that every
  next game is opened by the job alone, the moment a game ends (everyone is ready at once);
- people play games against bots over the game socket, one after another;
- anonymous sockets watch those games.

It checks that the server logged no "database is locked" (nor any other error), that no client
met an error, and that each match's next game began within seconds of the previous game's end:
far from the 60 s timer and its sweep, which would only rescue a job that failed.
"""

import asyncio
import json
import random
import re
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import aiohttp
import pytest

from tests.load.clients import (
    CSRF_FIELD,
    GAME_PATH,
    TIMEOUTS,
    Browser,
    Plan,
    Player,
    Spectator,
    Stats,
)
from tests.load.servers import (
    HOST,
    Process,
    Servers,
    answers,
    daphne_argv,
    free_ports,
    spawn,
    tool,
)
from tests.web.embedded_site import ROOT, embedded_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

READY_TIMEOUT = 120.0
# How long everyone plays at once: long enough for every match to open several next games.
PLAY_SECONDS = 30.0
MATCHES, BOT_GAME_PLAYERS, WATCHERS = 3, 3, 6
# A match's next game, all its players ready, starts when the job that scores the last game runs,
# right after the game's end is written: a second or two on a busy machine. Its timer is 60 s
# (60.5 s for the timer job, 62 s for the sweep): anything near that means the job failed.
PROMPT_SECONDS = 15.0
# Moves each person's games against bots at least go through in the time played (a few a second:
# the bots' pause is short, the person thinks a tenth of a second or so).
MOVES_SEEN = 60
# The highest target a match may have: on a quick machine a match still reaches it in a dozen
# games, and its player then starts another.
TARGET = 100
MATCH_ENDED = -1
LOCKED = "database is locked"


# --- The server: the embedded default, in a process of its own -------------------------------


def listening(daphne: Process) -> bool:
    log = daphne.log.read_text(errors="replace")
    assert "Listen failure" not in log and daphne.popen.poll() is None, log[-3000:]
    return "Listening on TCP address" in log


def wait_until(condition, timeout: float, failure: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.25)


@pytest.fixture
def embedded_site():
    """(base URL, Servers, the SQLite file): Daphne on the embedded default, migrated first as
    `make run` does. Stopped at the end; its log printed (pytest shows it if the test failed)."""
    workdir = Path(tempfile.mkdtemp(prefix="condottiere-embedded-"))
    database = workdir / "db.sqlite3"
    servers = Servers(
        urls=[], database_url=None, root=ROOT, env=embedded_env(database), workdir=workdir
    )
    try:
        migrate = spawn(servers, "migrate", [tool(ROOT, "python"), "manage.py", "migrate"], "m")
        assert migrate.popen.wait(timeout=300) == 0, migrate.tail(60)
        port = free_ports(1, start=21000 + random.randrange(0, 900))[0]
        daphne = spawn(servers, "daphne", daphne_argv(ROOT, port), "d", port)
        url = f"http://{HOST}:{port}"
        wait_until(lambda: listening(daphne), READY_TIMEOUT, "Daphne did not start")
        wait_until(lambda: answers(url + "/"), READY_TIMEOUT, "Daphne did not answer")
        yield url, servers, database
    finally:
        servers.stop()
        for process in servers.processes:
            print(f"--- {process.kind} ---\n{process.tail(80)}")
        shutil.rmtree(workdir, ignore_errors=True)


# --- A match played by stand-ins, watched by its person ------------------------------------------


@dataclass
class MatchRun:
    """What one person saw of their match: the games, and each wait for the next game."""

    games: list[int] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)


async def start_match(browser: Browser) -> int | None:
    """A match to TARGET against two random bots, through the *Play against bots* form with
    *Play for points* ticked: its first game's id."""
    form = await browser.request("GET", "/play/")
    if form is None:
        return None
    token = CSRF_FIELD.search(form[1]).group(1)
    fields = {"bots": 2, "level": "random", "turn_seconds": "", "play_for_points": "on"}
    answer = await browser.request(
        "POST", "/matches/play/", {"csrfmiddlewaretoken": token, **fields, "target": TARGET}
    )
    found = GAME_PATH.search(answer[2]) if answer and answer[0] == 302 else None
    if found is None:
        browser.stats.error("the match form started no game")
        return None
    return int(found.group(1))


async def watch_own_game(browser: Browser, game_id: int, stop: asyncio.Event) -> str | None:
    """The person's socket on their game: hands the seat to a stand-in bot if it is not already
    (the stand-in stays for the match's next games), and reads until the game is over. Its
    final status, or None if the run stopped first."""
    if not await browser.visit_game(game_id):
        return None
    socket = await browser.connect(game_id)
    if socket is None:
        return None
    handed = False
    try:
        while not stop.is_set():
            try:
                message = await socket.receive(timeout=1.0)
            except TIMEOUTS:
                continue
            if message.type != aiohttp.WSMsgType.TEXT:
                browser.stats.error(f"a match's socket closed (code {socket.close_code})")
                return None
            frame = json.loads(message.data)
            if frame.get("type") == "error":
                browser.stats.error(f"error frame '{frame.get('code')}' on a match's game")
            if frame.get("type") != "state":
                continue
            if frame["game"]["status"] != "playing":
                return frame["game"]["status"]
            mine = next(seat for seat in frame["game"]["seats"] if seat.get("you"))
            if not mine["standin"] and not handed:
                handed = True
                await socket.send_str(json.dumps({"type": "standin", "on": True}))
        return None
    finally:
        await socket.close()


async def next_game(browser: Browser, game_id: int, stop: asyncio.Event) -> int | None:
    """The match's next game, as the end box learns it (polling the match of the game);
    MATCH_ENDED if the match was won."""
    while not stop.is_set():
        answer = await browser.request("GET", f"/matches/of-game/{game_id}.json")
        if answer is None:
            return None
        match = json.loads(answer[1])["match"]
        if match["status"] == "finished":
            return MATCH_ENDED
        if match["status"] != "playing":
            browser.stats.error(f"a match ended: {match['status']}")
            return None
        if match["current_game"] != game_id:
            return match["current_game"]
        await asyncio.sleep(0.2)
    return None


async def play_match(browser: Browser, run: MatchRun, stop: asyncio.Event) -> None:
    game_id = await start_match(browser)
    while game_id is not None and not stop.is_set():
        run.games.append(game_id)
        status = await watch_own_game(browser, game_id, stop)
        if status is None:
            return
        if status != "finished":
            browser.stats.error(f"a match's game ended {status}")
            return
        ended = time.monotonic()
        game_id = await next_game(browser, game_id, stop)
        if game_id == MATCH_ENDED:  # won: the player starts another match
            game_id = await start_match(browser)
        elif game_id is not None:
            run.waits.append(time.monotonic() - ended)


# --- Watchers ----------------------------------------------------------------------------------


async def watch_games(browser: Browser, stats: Stats, stop: asyncio.Event, rng) -> int:
    """An anonymous socket at a time on a game being played, as a visitor from the lobby: how
    many it watched."""
    watched = 0
    while not stop.is_set():
        playing = [g for g in list(stats.games.values()) if g.status == "playing"]
        if not playing:
            await asyncio.sleep(0.5)
            continue
        spectator = Spectator(browser, rng.choice(playing).game_id)
        if not await spectator.connect():
            await asyncio.sleep(0.5)
            continue
        watched += 1
        watching = asyncio.ensure_future(spectator.watch())
        await asyncio.wait([watching], timeout=rng.uniform(2.0, 6.0))
        await spectator.close()
        await asyncio.wait([watching], timeout=5.0)
        if spectator.backwards:
            stats.error("a watcher saw a version go backwards")
    return watched


# --- Everyone at once -------------------------------------------------------------------


async def sign_up(http, url: str, stats: Stats, name: str) -> Browser:
    browser = Browser(http, url, stats)
    assert await browser.sign_up(name), dict(stats.errors)
    return browser


async def evening(url: str) -> tuple[Stats, list[MatchRun], int]:
    """Matches, games against bots and watchers together for PLAY_SECONDS."""
    stats, stop, rng = Stats(window=True), asyncio.Event(), random.Random(1494)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        match_browsers = [await sign_up(http, url, stats, f"captain{n}") for n in range(MATCHES)]
        players = [
            Player(
                await sign_up(http, url, stats, f"condottiere{n}"),
                Plan(bots=2, level="random", think=(0.05, 0.3), rng=random.Random(n)),
                stats,
                stop,
            )
            for n in range(BOT_GAME_PLAYERS)
        ]
        runs = [MatchRun() for _ in match_browsers]
        tasks = [asyncio.ensure_future(p.run()) for p in players]
        tasks += [
            asyncio.ensure_future(play_match(b, r, stop))
            for b, r in zip(match_browsers, runs, strict=True)
        ]
        watchers = [
            asyncio.ensure_future(watch_games(Browser(http, url, stats), stats, stop, rng))
            for _ in range(WATCHERS)
        ]
        await asyncio.sleep(PLAY_SECONDS)
        stop.set()
        await asyncio.wait(tasks, timeout=30)
        watched = await asyncio.gather(*watchers)
    return stats, runs, sum(watched)


# --- What the database kept ---------------------------------------------------------------


def when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def match_transitions(database: Path) -> list[tuple[int, int, float]]:
    """(match, number of the next game, seconds from the previous game's end to the next game's
    creation) for every next game the matches opened, read from the SQLite file itself."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT m.match_id, m.number, g.created_at, g.finished_at"
            " FROM matches_matchgame m JOIN games_game g ON g.id = m.game_id"
            " ORDER BY m.match_id, m.number"
        ).fetchall()
    transitions = []
    for (match, _, _, finished), (same, number, created, _) in zip(rows, rows[1:], strict=False):
        if same == match:
            transitions.append((match, number, (when(created) - when(finished)).total_seconds()))
    return transitions


def database_settings(database: Path) -> tuple[str, int]:
    with sqlite3.connect(database) as db:
        return db.execute("PRAGMA journal_mode").fetchone()[0], len(
            db.execute("SELECT id FROM games_game").fetchall()
        )


def server_errors(log: str) -> list[str]:
    """Lines of the server's log that report a failure: a traceback, a failed job, a job tried
    again, an error answer; and every mention of the lock."""
    failing = re.compile(r"Traceback|ERROR|failed|refused|Internal Server Error| 500 ")
    return [line for line in log.splitlines() if LOCKED in line or failing.search(line)]


def test_matches_bot_games_and_sockets_together_never_meet_a_locked_database(embedded_site):
    url, servers, database = embedded_site

    stats, runs, watched = asyncio.run(evening(url))
    # What the server said while everyone played; then all it said, its stop included (jobs
    # still running then may be cut short, but none may meet the lock).
    playing = "\n".join(p.log.read_text(errors="replace") for p in servers.processes)
    servers.stop()
    log = "\n".join(p.log.read_text(errors="replace") for p in servers.processes)
    transitions = match_transitions(database)
    journal, games = database_settings(database)
    print(
        f"games {games}, bot games started {stats.games_started} finished"
        f" {stats.games_finished} moves seen {stats.version_steps}, watchers {watched},"
        f" match games {[len(r.games) for r in runs]}, next-game starts (s)"
        f" {sorted(round(t[2], 2) for t in transitions)}, client waits (s)"
        f" {sorted(round(w, 2) for run in runs for w in run.waits)}"
    )

    assert log.count(LOCKED) == 0, server_errors(log)[:40]
    # Started as `make run` starts it: the evening was served on uvloop's event loop.
    assert "Daphne's event loop: uvloop.Loop" in playing, playing[:2000]
    assert server_errors(playing) == []
    assert not stats.errors, dict(stats.errors)
    assert journal == "wal"  # the setting the embedded default writes with (SQLITE_OPTIONS)
    # Everyone played: games against bots, watched, and every match into its next games.
    assert stats.games_started >= BOT_GAME_PLAYERS
    assert stats.version_steps >= MOVES_SEEN * BOT_GAME_PLAYERS, stats.version_steps
    assert watched >= WATCHERS
    assert all(len(run.games) >= 2 for run in runs), [run.games for run in runs]
    # Each next game opened by the job at the previous game's end, neither by its timer nor by
    # the sweep, as the database recorded and as the person's end box saw it.
    assert len(transitions) >= MATCHES
    late = [t for t in transitions if t[2] > PROMPT_SECONDS]
    assert late == [], late
    assert max(w for run in runs for w in run.waits) < PROMPT_SECONDS
