"""Renaissance games for the web tests: a table of people, and a game played to its end."""

import random

from django.utils import timezone

from games.models import Game, Seat
from games.rules_api import RENAISSANCE
from games.services import load_state, start_game, submit_action


def people_table(people: list, *, options=None, seed: int = 1454) -> Game:
    """A started Renaissance game whose every seat is one of `people`, in order."""
    game = Game.objects.create(
        ruleset=Game.Ruleset.RENAISSANCE,
        players=len(people),
        options=options or {},
        seed=seed,
    )
    for index, user in enumerate(people):
        Seat.objects.create(game=game, index=index, user=user, joined_at=timezone.now())
    start_game(game.pk)
    game.refresh_from_db()
    return game


def play_to_the_end(game: Game, seed: int) -> Game:
    """Random legal moves by the deciding seats, each a person's own decision through the one
    way in, until the game is over (a three-player game takes about two seconds)."""
    rng = random.Random(seed)
    game.refresh_from_db()
    while game.status == Game.Status.PLAYING:
        state = load_state(game)
        seat = rng.choice(sorted(RENAISSANCE.acting_seats(state)))
        action = rng.choice(RENAISSANCE.legal_actions(state, seat))
        submit_action(game.pk, seat, action, game.version)
        game.refresh_from_db()
    return game
