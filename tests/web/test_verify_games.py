"""`manage.py verify_games`: every stored game re-simulated; a tampered one is reported."""

# ruff: noqa: F811  (the played_game fixture is imported from test_replay and used by name)
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Action, Game
from tests.web.test_replay import played_game  # noqa: F401


def run(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except SystemExit as exit_:
        return exit_.code, out.getvalue()
    return 0, out.getvalue()


def test_clean_games_pass(played_game):
    played_game(2, seed=3)
    played_game(3, seed=4, stop_after=12)  # in progress: checked too

    code, output = run()

    assert code == 0
    assert "checked 2 games, 0 differ" in output


def test_a_tampered_result_is_reported_with_exit_code_1(played_game):
    clean = played_game(2, seed=3)
    bad = played_game(2, seed=4)
    winner = bad.result["winners"][0]
    Game.objects.filter(pk=bad.pk).update(result={**bad.result, "winners": [1 - winner]})

    code, output = run()

    assert code == 1
    assert f"game {bad.pk}:" in output and "result" in output
    assert f"game {clean.pk}:" not in output
    assert "checked 2 games, 1 differ" in output


def test_a_tampered_log_is_reported_and_one_game_can_be_checked(played_game):
    clean = played_game(2, seed=3)
    bad = played_game(2, seed=4, stop_after=20)
    action = Action.objects.get(game=bad, seq=1)
    action.action = {
        "type": "choose_region",
        "region": "Napoli" if action.action["region"] != "Napoli" else "Roma",
    }
    action.save()

    assert run("--game", str(clean.pk)) == (0, "checked 1 games, 0 differ\n")
    code, output = run("--game", str(bad.pk))
    assert code == 1
    assert f"game {bad.pk}:" in output  # its later actions no longer replay, or its state differs
    assert "checked 1 games, 1 differ" in output


def test_an_unknown_game_is_an_error(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("verify_games", "--game", "999999")
