"""The public Bot API through the browser (#15, part 3): a person makes a bot account and its
token on their profile (the token shown once), the example program (examples/bot_api_example.py,
the documented API only) listens with that token, another person challenges the bot from its
profile page, and the game starts and is played to its end, the bot's seat marked as a bot
account on the table.
"""

import re
import subprocess
import sys
from pathlib import Path

from games.models import Action, Game
from tests.e2e.test_game_e2e import ROOT

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bot_api_example.py"


def make_bot_and_token(page, server) -> str:
    page.goto(f"{server}/accounts/profile/")
    new_bot = page.locator("[data-testid=new-bot]")
    new_bot.locator("input[name=username]").fill("sentinel")
    new_bot.locator("button[type=submit]").click()
    page.wait_for_selector("[data-testid=bot-list] [data-testid=new-token]")
    new_token = page.locator("[data-testid=new-token]").first
    new_token.locator("input[name=name]").fill("laptop")
    for box in new_token.locator("input[type=checkbox]").all():
        box.check()
    new_token.locator("button[type=submit]").click()
    secret = page.locator("[data-testid=token-secret]").inner_text().strip()
    assert secret.startswith("cdt_")
    # Shown once: the profile lists the token by its prefix only.
    page.goto(f"{server}/accounts/profile/")
    assert secret not in page.content() and secret[:8] in page.content()
    return secret


def test_a_person_challenges_a_bot_that_an_outside_program_plays(
    server, new_page, create_player, log_in
):
    owner_page = log_in(new_page(1280, 800), create_player("maker"))
    secret = make_bot_and_token(owner_page, server)
    program = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "--url", server, "--token", secret, "--games", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        page = log_in(new_page(1280, 800), create_player("challenger"))
        page.goto(f"{server}/players/sentinel/")
        assert page.locator("[data-testid=bot-badge]").first.is_visible()
        page.locator("[data-testid=challenge-bot] button[type=submit]").click()
        # The program hears the challenge on its event stream and accepts: the game starts.
        page.wait_for_url(re.compile(r"/games/\d+/$"), timeout=30_000)
        page.wait_for_selector(f"{ROOT}[data-version]")
        bot_line = page.locator(".line", has=page.locator(".line__name", has_text="sentinel"))
        assert "bot account" in bot_line.inner_text()
        # The challenger hands the seat to the stand-in: both sides play on without clicks.
        page.locator("[data-standin] button").click()
        page.wait_for_function(
            f"() => document.querySelector('{ROOT}').dataset.state === 'finished'",
            timeout=60_000,
        )
        output, _ = program.communicate(timeout=30)
    finally:
        program.kill()
    assert program.returncode == 0, output
    game = Game.objects.get(seats__user__username="sentinel")
    assert game.status == Game.Status.FINISHED
    seat = game.seats.get(user__username="sentinel").index
    assert Action.objects.filter(game=game, seat=seat, actor=Action.Actor.HUMAN).count() >= 3
