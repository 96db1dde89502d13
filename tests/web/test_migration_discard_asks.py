"""Migration 0005: stored games played under the old hand-discard rule (only seats without a
Mercenary were asked) are rewritten for the new one (every seat with cards is asked).

Two kinds of old games: the engine's fixture of games really played by the old engine
(tests/engine/old_rule_games.json), stored as imported records; and games played here through
the services, then made old by removing the declines of seats that held a Mercenary, as the old
rule never asked them."""

import hashlib
import importlib
import json
from pathlib import Path

import pytest
from django.apps import apps

from games.engine import GameState, Options, new_game, view_for
from games.engine.record import DECLINE, final_result, simulate
from games.history.replay import verify_game
from games.models import Action, Game, Seat
from tests.engine.helpers import MERCENARIES
from tests.web.test_replay import play_out

MIGRATION = importlib.import_module("games.migrations.0005_discard_asks_every_seat")
OLD_GAMES = json.loads((Path(__file__).parents[1] / "engine" / "old_rule_games.json").read_text())[
    :2
]


def migrate() -> None:
    MIGRATION.upgrade_stored_games(apps, None)


def rows_of(game: Game) -> list[tuple]:
    return [
        (row.seq, row.seat, row.action, row.public)
        for row in Action.objects.filter(game=game).order_by("seq")
    ]


def old_public(action: dict, marker: int):
    """What the old rule logged: a declined discard had no public record, a discard no flag."""
    if action["type"] == "discard_hand":
        return {"type": "discard_hand"} if action["discard"] else None
    return {"marker": marker}  # any other record must come through untouched


def store_old_game(old: dict) -> Game:
    """An old-rule game from the fixture, stored as an imported record; seat 0 is a bot."""
    game = Game.objects.create(
        status=Game.Status.FINISHED,
        source=Game.Source.IMPORTED,
        players=old["players"],
        options=old["options"],
        seed=old["seed"],
        version=len(old["moves"]),
        snapshot="stored under the old rule",
        result={"winners": [], "regions": [], "reason": ""},
    )
    for index in range(old["players"]):
        Seat.objects.create(game=game, index=index, bot_level="hard" if index == 0 else "")
    Action.objects.bulk_create(
        Action(
            game=game,
            seq=number,
            seat=seat,
            action=action,
            public=old_public(action, number),
            actor="human",
        )
        for number, (seat, action) in enumerate(old["moves"], start=1)
    )
    return game


@pytest.mark.parametrize("old", OLD_GAMES, ids=[f"{g['players']}p" for g in OLD_GAMES])
def test_an_old_rule_game_is_rewritten_to_replay_to_the_same_end(db, old):
    game = store_old_game(old)
    before = {row[0]: row for row in rows_of(game)}
    last_old_pk = Action.objects.filter(game=game).order_by("-pk").first().pk
    assert verify_game(game) != []  # it no longer replays

    migrate()

    game.refresh_from_db()
    assert hashlib.sha256(game.snapshot.encode()).hexdigest() == old["final_sha256"]
    rows = list(Action.objects.filter(game=game).order_by("seq"))
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1)) and game.version == len(rows)
    inserted = [row for row in rows if row.pk > last_old_pk]
    assert inserted, "the old games lack declines"
    for row in inserted:
        assert row.action == DECLINE
        assert row.public == {"type": "discard_hand", "discard": False}
        assert row.actor == ("bot" if row.seat == 0 else "human")
        assert row.created_at == Action.objects.get(game=game, seq=row.seq - 1).created_at
    kept = [row for row in rows if row.pk <= last_old_pk]
    assert [(r.seat, r.action) for r in kept] == [(s, a) for s, a in old["moves"]]
    for number, row in enumerate(kept, start=1):
        if row.action["type"] == "discard_hand":
            assert row.public == {"type": "discard_hand", "discard": row.action["discard"]}
        else:
            assert row.public == before[number][3]
    # The snapshot and the log now agree with the engine (the old result was not stored here).
    game.result = final_result(GameState.from_json(game.snapshot))
    game.save(update_fields=["result"])
    assert verify_game(game) == []


def forced_declines(game: Game) -> set[int]:
    """The seqs of the declines given by a seat that held a Mercenary: the old rule never asked."""
    rows = list(Action.objects.filter(game=game).order_by("seq"))
    options = Options.from_dict(game.options)
    initial = new_game(game.players, seed=game.seed, options=options, first=rows[0].seat)
    states = simulate(initial, [(row.seat, row.action) for row in rows])
    forced = set()
    for state, row in zip(states, rows, strict=False):
        hand = view_for(state, row.seat)["hand"]
        if row.action == DECLINE and any(card in MERCENARIES for card in hand):
            forced.add(row.seq)
    return forced


def make_old(game: Game) -> None:
    """Rewrite a game played here as the old rule would have logged it."""
    forced = forced_declines(game)
    assert forced, "this game needs a seat asked while holding a Mercenary"
    Action.objects.filter(game=game, seq__in=forced).delete()
    for number, row in enumerate(Action.objects.filter(game=game).order_by("seq"), start=1):
        row.seq = number
        if row.action["type"] == "discard_hand":
            row.public = {"type": "discard_hand"} if row.action["discard"] else None
        row.save(update_fields=["seq", "public"])
    Game.objects.filter(pk=game.pk).update(version=Action.objects.filter(game=game).count())


def as_migrated(row: tuple) -> tuple:
    """The migration writes a discard answer's record as the rule of its day: without the end
    of a round or the deal the answer brought (logged since; a missing key says nothing)."""
    seq, seat, action, public = row
    if action["type"] == "discard_hand":
        public = {"type": "discard_hand", "discard": action["discard"]}
    return seq, seat, action, public


@pytest.mark.parametrize("stop_after", [None, 60])
def test_a_game_played_here_under_the_old_rule_gets_back_its_new_rule_log(
    make_user, make_table, stop_after
):
    people = {index: make_user() for index in range(3)}
    game = play_out(make_table(3, people=people, seed=31), 31, stop_after=stop_after)
    live = [as_migrated(row) for row in rows_of(game)]
    snapshot, version, status = game.snapshot, game.version, game.status
    make_old(game)
    assert verify_game(Game.objects.get(pk=game.pk)) != []

    migrate()

    game.refresh_from_db()
    assert rows_of(game) == live
    assert (game.snapshot, game.version, game.status) == (snapshot, version, status)
    assert verify_game(game) == []


def test_a_game_already_under_the_new_rule_is_left_alone(make_user, make_table):
    people = {index: make_user() for index in range(2)}
    game = play_out(make_table(2, people=people, seed=5), 5)
    live = [(row.pk, row.seq, row.public) for row in Action.objects.filter(game=game)]

    migrate()

    assert [(row.pk, row.seq, row.public) for row in Action.objects.filter(game=game)] == live
