"""examples/bot_api_example.py plays a whole game on the live server, through the documented API
only: it opens a table against a site bot, hears the game start on its event stream, plays each
of its turns over HTTP, and stops when the stream says the game finished."""

import subprocess
import sys
from pathlib import Path

from games.botapi import accounts, tokens
from games.botapi.models import SCOPE_CHALLENGE, SCOPE_PLAY
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
