#!/usr/bin/env python3
"""An example bot for Condottiere online's Bot API (docs/bot-api.md), on the standard library.

It listens to its event stream, accepts every challenge, and plays each game it is seated in
over plain HTTP: it waits for the next version of the game with a long poll
(GET /api/bot/game/<id>/state?after=<version>) and answers each of its turns with
POST /api/bot/game/<id>/move. It chooses at random among the legal actions, or with the
project's heuristic bot when the `condottiere` package (its `ai` module) is importable.

    python examples/bot_api_example.py --url https://condottiere.example --token cdt_...
    CONDOTTIERE_TOKEN=cdt_... python examples/bot_api_example.py --open random --games 1

--open LEVEL also opens a table against one of the site's bots of that level at the start;
--games N stops after N games have ended. The token needs the scopes bot:play and
challenge:write.
"""

import argparse
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request

try:  # the project's own bot, when this runs where the project is installed
    from ai import make_bot as make_project_bot
except ImportError:
    make_project_bot = None

STREAM_TIMEOUT = 30  # seconds without a byte (the server sends a newline every 10 s)
REQUEST_TIMEOUT = 40  # a long poll waits up to 25 s


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('error')}: {body.get('message')}")
        self.status = status
        self.code = body.get("error")


class Api:
    def __init__(self, url: str, token: str):
        self.url = url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def request(self, method: str, path: str, body: dict | None = None, timeout=REQUEST_TIMEOUT):
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            try:
                body = json.load(error)
            except ValueError:
                body = {"error": "http", "message": str(error)}
            raise ApiError(error.code, body) from None

    def events(self):
        """The event stream's events, one dict each; None for each keepalive newline."""
        request = urllib.request.Request(self.url + "/api/bot/stream/event", headers=self.headers)
        with urllib.request.urlopen(request, timeout=STREAM_TIMEOUT) as response:
            for line in response:
                yield json.loads(line) if line.strip() else None


class Chooser:
    """Random legal actions, or the project's heuristic bot if it can be imported."""

    def __init__(self, force_random: bool):
        self.project_bot = None
        if make_project_bot is not None and not force_random:
            self.project_bot = make_project_bot("heuristic", seed=random.randrange(2**31))

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if self.project_bot is not None:
            try:
                action = self.project_bot.choose(view)
                if action in legal:
                    return action
            except Exception:  # the heuristic failed on this view: fall back to chance
                pass
        return random.choice(legal)


def play(api: Api, game_id: int, chooser: Chooser, log) -> None:
    """Play one game to its end: wait for each new version, move when it is our turn."""
    after = None
    while True:
        query = "" if after is None else f"?after={after}"
        frame = api.request("GET", f"/api/bot/game/{game_id}/state{query}")
        view, version = frame["view"], frame["version"]
        if frame["game"]["status"] != "playing":
            log(f"game {game_id} over: {frame['game']['result']}")
            return
        after = version
        if view["current_player"] != view["seat"] or not view["legal_actions"]:
            continue  # not our turn: wait for the next version
        action = chooser.choose(view)
        try:
            api.request(
                "POST",
                f"/api/bot/game/{game_id}/move",
                {"action": action, "expected_version": version},
            )
            # The state we hold is now old: the next poll returns the newer one at once.
        except ApiError as error:
            if error.code not in ("stale", "not_your_turn", "illegal", "not_playing"):
                raise
            log(f"game {game_id}: move refused ({error.code}), reading the state again")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("CONDOTTIERE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("CONDOTTIERE_TOKEN"))
    parser.add_argument("--open", metavar="LEVEL", help="open a table against a site bot")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games")
    parser.add_argument("--random", action="store_true", help="always choose at random")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set CONDOTTIERE_TOKEN")

    def log(message: str) -> None:
        print(time.strftime("%H:%M:%S"), message, flush=True)

    api = Api(args.url, args.token)
    chooser = Chooser(args.random)
    account = api.request("GET", "/api/bot/account")
    log(f"playing as {account['username']} ({'heuristic' if chooser.project_bot else 'random'})")
    if args.open:
        table = api.request("POST", "/api/bot/table", {"seats": ["me", args.open]})
        log(f"opened table {table['game']} ({table['status']})")

    started: set[int] = set()
    finished = 0
    failures: list[BaseException] = []

    def run(game_id: int) -> None:
        try:
            play(api, game_id, chooser, log)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    for event in api.events():
        if failures:
            raise failures[0]
        if event is None:
            continue
        kind = event["type"]
        if kind == "challenge":
            challenge = event["challenge"]
            challenger = (challenge.get("challenger") or {}).get("username", "?")
            log(f"challenge {challenge['id']} from {challenger}: accepting")
            try:
                api.request("POST", f"/api/bot/challenge/{challenge['id']}/accept")
            except ApiError as error:
                log(f"could not accept: {error}")
        elif kind == "gameStart" and event["game"]["id"] not in started:
            game_id = event["game"]["id"]
            started.add(game_id)
            log(f"game {game_id} started, seat {event['game']['seat']}")
            threading.Thread(target=run, args=(game_id,), daemon=True).start()
        elif kind == "gameFinish":
            finished += 1
            log(f"game {event['game']['id']} finished: {event['game']['result']}")
            if args.games and finished >= args.games:
                break
    return 0


if __name__ == "__main__":
    sys.exit(main())
