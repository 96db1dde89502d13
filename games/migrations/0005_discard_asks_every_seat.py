"""Stored games move to the new hand-discard rule: every seat with cards is asked.

Games were played under the old rule, which asked only the seats holding cards but no Mercenary
(docs/engine.md). Their logs no longer replay: the current engine also asks each seat holding a
Mercenary, whose one legal answer is to keep its hand. For each game with actions this migration
replays the log through `games.engine.record.upgrade_discard_asks`, which inserts those forced
declines, then rewrites the log: `seq` renumbered 1, 2, 3, ...; an inserted decline is played by
the seat's kind (bot or person: the model has no "system" actor) with no latency and the time of
the action before it; every hand-discard answer gets the public record live play now gives it
(declines used to have none); `Game.version` and `Game.snapshot` become the replay's. A decline
changes no card, so the replayed end state is the old one and every result stands.

A game whose log does not replay even so (already damaged: `manage.py verify_games` reports it) is
left as it was, and so is one already under the new rule. Migrating back leaves the logs as they
are (the schema does not change, and the old rule's engine is gone). A bot's turn announced for
the old version is refused once the version moves; the sweep announces it again.
"""

import sys

from django.db import migrations, transaction
from django.db.models import F

from games.engine import Options, new_game
from games.engine.record import ReplayError, simulate, upgrade_discard_asks

# Far above any game's length, so that shifting every seq by it never meets an existing one.
SEQ_SHIFT = 1_000_000


def discard_public(action: dict) -> dict:
    """The public record of a hand-discard answer, as games.engine.public_log gives it from now on
    (frozen here: a migration must not change when that module does)."""
    return {"type": "discard_hand", "discard": bool(action.get("discard"))}


def upgraded_log(players: int, seed: int, options: dict, log: list[tuple]) -> tuple[list, str]:
    """The conversion, pure: `log` is the stored (seat, action, public) of a game in seq order.
    Returns the new log as (seat, action, public, index) — `index` the entry's place in `log`,
    None for an inserted decline — and the JSON of the state it replays to. The first logged
    action is the first token holder's (he chooses the first region), so it names the deal.
    ReplayError if the log does not replay."""
    first = log[0][0]
    initial = new_game(players, seed=seed, options=Options.from_dict(options or {}), first=first)
    upgraded = upgrade_discard_asks(initial, [(seat, action) for seat, action, _public in log])
    states = simulate(initial, [(seat, action) for seat, action, _index in upgraded])
    entries = []
    for seat, action, index in upgraded:
        public = log[index][2] if index is not None else None
        # A record already under the new rule stays as it is (it may tell of a round's end).
        if action.get("type") == "discard_hand" and "discard" not in (public or {}):
            public = discard_public(action)
        entries.append((seat, action, public, index))
    return entries, states[-1].to_json()


def upgrade_game(game, Action, Seat) -> bool:
    """Rewrites one game's log and state; False (nothing changed) if its log does not replay or
    is already under the new rule."""
    rows = list(Action.objects.filter(game=game).order_by("seq"))
    log = [(row.seat, row.action, row.public) for row in rows]
    try:
        entries, snapshot = upgraded_log(game.players, game.seed, game.options, log)
    except ReplayError as error:
        print(f"game {game.pk} left as it was: {error}", file=sys.stderr)
        return False
    if entries == [(*entry, index) for index, entry in enumerate(log)]:
        return False
    bots = {seat.index for seat in Seat.objects.filter(game=game).exclude(bot_level="")}
    with transaction.atomic():
        # Out of the way first: the final numbers never collide with a row not yet renumbered.
        Action.objects.filter(game=game).update(seq=F("seq") + SEQ_SHIFT)
        kept, inserted, times = [], [], {}
        previous_time = None
        for number, (seat, action, public, index) in enumerate(entries, start=1):
            if index is not None:
                row = rows[index]
                row.seq, row.public = number, public
                kept.append(row)
                previous_time = row.created_at
                continue
            actor = "bot" if seat in bots else "human"
            inserted.append(
                Action(game=game, seq=number, seat=seat, action=action, public=public, actor=actor)
            )
            times[number] = previous_time
        Action.objects.bulk_update(kept, ["seq", "public"])
        Action.objects.bulk_create(inserted)
        # created_at is set on creation: the decline takes the time of the action before it.
        for number, moment in times.items():
            if moment is not None:
                Action.objects.filter(game=game, seq=number).update(created_at=moment)
        type(game).objects.filter(pk=game.pk).update(version=len(entries), snapshot=snapshot)
    return True


def upgrade_stored_games(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Action = apps.get_model("games", "Action")
    Seat = apps.get_model("games", "Seat")
    for game in Game.objects.filter(version__gt=0).order_by("pk").iterator():
        upgrade_game(game, Action, Seat)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_sweep_claim"),
    ]

    operations = [
        migrations.RunPython(upgrade_stored_games, migrations.RunPython.noop, elidable=False),
    ]
