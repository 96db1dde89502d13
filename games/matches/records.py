"""A match's record: its games' records (games/history/records.py, each as exported alone) and the
match's facts — target, seats, points per game, result. The format: docs/matches.md.

Import trusts nothing: every game record is checked and replayed by `games.history.records`, the
points of each game are scored again from its replayed end, and the stated points, totals, deciders
and result must be the ones the rules give. Only then is anything kept (one transaction).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.history.records import (
    RecordError,
    import_record,
    record_for,
    record_ruleset,
    record_seats,
)
from games.services import load_state

from .models import TARGET_MAX, TARGET_MIN, Match, MatchGame
from .scoring import TIED, WON, decider_winners, game_points, standing, totals
from .services import entries_of, latest_seats

FORMAT = "condottiere-match-record"
VERSION = 1
MAX_GAMES = 60


def match_record(match: Match) -> dict:
    if match.status != Match.Status.FINISHED:
        raise ValueError(f"match {match.pk} is not finished")
    entries = entries_of(match)
    return {
        "format": FORMAT,
        "version": VERSION,
        "target": match.target,
        "players": match.players,
        "seats": record_seats(latest_seats(entries)),
        "games": [
            {
                "number": entry.number,
                "decider": entry.decider,
                "seats": entry.seats,
                "points": None if entry.decider else entry.points,
                "record": record_for(entry.game),
            }
            for entry in entries
        ],
        "result": match.result,
    }


def is_match_record(data) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT


def require(condition: bool, message: str) -> None:
    if not condition:
        raise RecordError(message)


def check_header(data) -> None:
    require(
        data.get("version") == VERSION,
        _("This match record's version is not %(v)s.") % {"v": VERSION},
    )
    target, players = data.get("target"), data.get("players")
    require(
        isinstance(target, int) and TARGET_MIN <= target <= TARGET_MAX,
        _("“target” is a whole number from %(low)s to %(high)s.")
        % {"low": TARGET_MIN, "high": TARGET_MAX},
    )
    require(isinstance(players, int) and 2 <= players <= 6, _("“players” is 2 to 6."))
    games = data.get("games")
    require(
        isinstance(games, list) and 0 < len(games) <= MAX_GAMES,
        _("“games” lists 1 to %(n)s games.") % {"n": MAX_GAMES},
    )
    seats = data.get("seats")
    require(isinstance(seats, list) and len(seats) == players, _("“seats” must list every seat."))


def check_game_entry(position: int, entry, decider: bool, expected_seats: list[int]) -> None:
    where = {"number": position}
    require(isinstance(entry, dict), _("Game %(number)s of the match is not an object.") % where)
    require(
        entry.get("number") == position, _("Game %(number)s must have number %(number)s.") % where
    )
    require(
        entry.get("decider") is decider,
        _("Game %(number)s: “decider” is not what the standings give.") % where,
    )
    require(
        entry.get("seats") == expected_seats,
        _("Game %(number)s: its “seats” are not the ones the standings give.") % where,
    )
    require(isinstance(entry.get("record"), dict), _("Game %(number)s has no record.") % where)


def check_seat_names(data, game_record, seats: list[int]) -> None:
    for game_seat, match_seat in enumerate(seats):
        mine, theirs = game_record["seats"][game_seat], data["seats"][match_seat]
        same = (mine.get("kind"), mine.get("level")) == (theirs.get("kind"), theirs.get("level"))
        # A person's name is theirs in every game; a bot's is checked by its level only (a
        # bot keeps its name through a match, but records of older matches named it per game).
        if same and mine.get("kind") == "human":
            same = mine.get("name") == theirs.get("name")
        require(same, _("The games of a match are played by the same seats."))


def import_match_record(data, user) -> Match:
    """Check `data` (a parsed match record) and keep it as an imported, finished match with its
    games imported as any game record is. RecordError, nothing kept, for any fault."""
    check_header(data)
    players, target = data["players"], data["target"]
    with transaction.atomic():
        match = Match.objects.create(
            status=Match.Status.FINISHED,
            source=Match.Source.IMPORTED,
            players=players,
            target=target,
            created_by=user,
            finished_at=timezone.now(),
        )
        scored, result = [], None
        for position, entry in enumerate(data["games"], start=1):
            require(result is None, _("The match was decided before game %(n)s.") % {"n": position})
            now = standing(scored, players, target)
            decider = now.outcome == TIED
            seats = list(now.seats) if decider else list(range(players))
            check_game_entry(position, entry, decider, seats)
            game_record = entry["record"]
            require(
                record_ruleset(game_record).plays_matches,
                _("Game %(n)s: only Condottiere is played in matches for points.")
                % {"n": position},
            )
            game = import_record(game_record, user)
            check_seat_names(data, game_record, seats)
            points = None if decider else game_points(load_state(game))
            require(
                entry.get("points") == points,
                _("Game %(n)s: the points are not the ones its end gives.") % {"n": position},
            )
            MatchGame.objects.create(
                match=match,
                game=game,
                number=position,
                decider=decider,
                seats=seats,
                points=[0] * players if decider else points,
            )
            if decider:
                winners = decider_winners(game.result["winners"], seats)
                result = {
                    "winners": winners,
                    "points": totals(scored, players),
                    "decided_by": "decider",
                }
                continue
            scored.append(points)
            after = standing(scored, players, target)
            if after.outcome == WON:
                result = {
                    "winners": list(after.seats),
                    "points": totals(scored, players),
                    "decided_by": "points",
                }
        require(result is not None, _("The match record ends before the match is decided."))
        require(
            data.get("result") == result, _("The match's “result” is not the one its games give.")
        )
        match.result = result
        match.save(update_fields=["result"])
    return match
