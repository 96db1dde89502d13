"""examples/bot_api_example.py plays a whole game on the live server, through the documented API
only: it opens a table against a site bot, hears the game start on its event stream, plays each
of its turns over HTTP, and stops when the stream says the game finished. And a token made on the
owner's profile with the token form as it comes runs it: the bot accepts a person's challenge."""

import re
import subprocess
import sys
import time
from pathlib import Path

from django.test import Client
from django.urls import reverse

from games.botapi import accounts, tokens
from games.botapi.models import SCOPE_CHALLENGE, SCOPE_PLAY, Challenge
from games.models import Action, Game, User
from tests.e2e.conftest import fast_bots_server, server  # noqa: F401 - the live server

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_api_example.py"


def test_the_example_bot_plays_a_whole_game_on_the_live_server(server):  # noqa: F811
    owner = User.objects.create_user("owner")
    bot = accounts.create_bot_account(owner, "example-bot")
    secret = tokens.create_token(bot, "ci", [SCOPE_PLAY, SCOPE_CHALLENGE]).secret
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--url", server, "--token", secret]
        + ["--open", "random", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    game = Game.objects.get(seats__user=bot)
    assert game.status == Game.Status.FINISHED, run.stdout
    seat = game.seats.get(user=bot).index
    moves = Action.objects.filter(game=game, seat=seat, actor=Action.Actor.HUMAN)
    assert moves.count() >= 5  # at least a hand's worth of its own decisions
    assert f"game {game.pk} finished" in run.stdout


def token_from_the_profile_form(owner, bot_name: str) -> str:
    """What an owner gets by filling in only the token's name on their profile and submitting:
    the scopes ticked are the form's own, read from the page."""
    client = Client()
    client.force_login(owner)
    profile = client.get(reverse("profile")).content.decode()
    form = re.search(r'<form[^>]*data-testid="new-token".*?</form>', profile, re.S).group(0)
    ticked = re.findall(r'<input type="checkbox" name="scopes" value="([^"]+)"[^>]*checked', form)
    created = client.post(
        reverse("botapi_create_token", args=[bot_name]), {"name": "laptop", "scopes": ticked}
    )
    return re.search(r'data-testid="token-secret">(cdt_[\w-]+)<', created.content.decode())[1]


def test_a_token_made_with_the_forms_defaults_lets_the_example_bot_accept_a_challenge(server):  # noqa: F811
    owner = User.objects.create_user("owner")
    accounts.create_bot_account(owner, "example-bot")
    secret = token_from_the_profile_form(owner, "example-bot")
    bot = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--url", server, "--token", secret, "--random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        challenger = Client()
        challenger.force_login(User.objects.create_user("carla"))
        challenger.post(
            reverse("botapi_challenge", args=["example-bot"]), {"players": 2, "level": "random"}
        )
        challenge = Challenge.objects.get(bot__username="example-bot")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and bot.poll() is None:
            challenge.refresh_from_db()
            if challenge.status != Challenge.Status.PENDING:
                break
            time.sleep(0.3)
    finally:
        bot.terminate()
        output = bot.communicate(timeout=10)[0]
    assert challenge.status == Challenge.Status.ACCEPTED, output
    game = Game.objects.get(pk=challenge.game_id)
    assert game.seats.filter(user__username="example-bot").exists()
    assert game.status == Game.Status.PLAYING
    assert re.search(r"challenge \d+ from carla: accepting", output), output
    assert "could not accept" not in output
