"""`manage.py verify_games [--game ID]`: re-simulate stored games and report any that differ.

Every started game of either game, Condottiere or Renaissance (playing, finished or aborted, live
or imported), is rebuilt from its seed and its action log by its own rules
(games.history.replay.verify_game); its stored snapshot and result must be what that gives. Exit
code 1 when any game differs, so a scheduled job or CI can alert on it.
"""

import sys

from django.core.management.base import BaseCommand, CommandError

from games.history.replay import verify_game
from games.models import Game


class Command(BaseCommand):
    help = "Re-simulate every stored game (seed + action log) and report any that differ."

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, help="check only the game with this id")

    def handle(self, *args, game=None, **options):
        games = Game.objects.exclude(snapshot="").order_by("pk")
        if game is not None:
            games = games.filter(pk=game)
            if not games.exists():
                raise CommandError(f"no started game with id {game}")
        checked = differ = 0
        for stored in games.iterator(chunk_size=100):
            checked += 1
            problems = verify_game(stored)
            if problems:
                differ += 1
                self.stdout.write(self.style.ERROR(f"game {stored.pk}: " + "; ".join(problems)))
        summary = f"checked {checked} games, {differ} differ"
        self.stdout.write(self.style.ERROR(summary) if differ else self.style.SUCCESS(summary))
        if differ:
            sys.exit(1)
