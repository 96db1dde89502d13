"""The one way in to a match: create one, say "ready", and move it on after each game.

Every change locks the match row and, because SQLite ignores row locks, claims the start of the
next game with a conditional `UPDATE ... WHERE next_game_at = <the time read>` whose row count
must be 1: a "ready" click and the timer's job racing for the same next game never both open it.
Bad input raises MatchError (a message for the person, a code for code and tests) and changes
nothing. The next games are ordinary games started through `games.services.start_game`.
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import jobs
from games.lobby.tables import DEFAULT_GAME, SeatPlan, create_table, play_against_bots, ruleset_for
from games.models import Game, Seat
from games.services import load_state, start_game
from games.services.frames import STANDIN_LEVEL
from games.services.lifecycle import abort_game
from games.words.bot_names import condottiere_name

from .models import NEXT_GAME_SECONDS, TARGET_MAX, TARGET_MIN, Match, MatchGame
from .scoring import GO_ON, TIED, WON, decider_winners, game_points, standing, totals

# The job that scores a finished game of a match and starts the next one when it is due.
NEXT_GAME_JOB = "match_next_game"
# A little after the timer, so that the job never finds it a hair early.
TIMER_SLACK = 0.5


class MatchError(Exception):
    """A request about a match that is refused; `message` is for the person."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


def check_plays_matches(game: str) -> None:
    """Matches for points are Condottiere's only (games.rules_api: `plays_matches`): its
    scoring counts regions, which another game does not have."""
    if not ruleset_for(game).plays_matches:
        message = _("Matches for points are played in Condottiere only.")
        raise MatchError("not_for_this_game", message)


def check_target(target) -> int:
    if not isinstance(target, int) or not TARGET_MIN <= target <= TARGET_MAX:
        raise MatchError(
            "invalid",
            _("The target score is a whole number from %(low)d to %(high)d.")
            % {"low": TARGET_MIN, "high": TARGET_MAX},
        )
    return target


# --- Creating a match ---------------------------------------------------------------------------


def create_match(
    creator,
    players: int,
    plans: list[SeatPlan],
    *,
    target: int,
    options: dict | None = None,
    turn_seconds: int | None = None,
    next_game_seconds: int = NEXT_GAME_SECONDS,
    game: str = DEFAULT_GAME,
) -> Match:
    """A match whose first game is a table opened as `games.lobby.tables.create_table` opens one (it
    starts when its seats are taken). LobbyError or MatchError, nothing saved, for bad input."""
    check_plays_matches(game)
    check_target(target)
    with transaction.atomic():
        table = create_table(creator, players, plans, options=options, turn_seconds=turn_seconds)
        return _match_for_first_game(creator, table, target, next_game_seconds)


def create_match_against_bots(
    user, bots: int, level: str, *, target: int, options=None, turn_seconds=None, game=DEFAULT_GAME
) -> Match:
    check_plays_matches(game)
    check_target(target)
    with transaction.atomic():
        table = play_against_bots(user, bots, level, options, turn_seconds=turn_seconds)
        return _match_for_first_game(user, table, target, NEXT_GAME_SECONDS)


def _match_for_first_game(creator, game: Game, target: int, next_game_seconds: int) -> Match:
    match = Match.objects.create(
        players=game.players,
        target=target,
        next_game_seconds=next_game_seconds,
        created_by=creator,
    )
    MatchGame.objects.create(match=match, game=game, number=1, seats=list(range(game.players)))
    return match


# --- Reading a match ----------------------------------------------------------------------------


def entries_of(match: Match) -> list[MatchGame]:
    return list(match.entries.select_related("game").order_by("number"))


def scored_points(entries: list[MatchGame]) -> list[list[int]]:
    return [entry.points for entry in entries if entry.points is not None and not entry.decider]


def match_seats(match: Match) -> list[Seat]:
    """The match's seats: those of its first game (every game for points copies them)."""
    first = match.entries.order_by("number").select_related("game").first()
    return list(first.game.seats.select_related("user").order_by("index"))


def latest_seats(entries: list[MatchGame]) -> list[Seat]:
    """The seats of the last game for points, in match order: who plays, and whether a stand-in
    bot plays for them now."""
    last = next(entry for entry in reversed(entries) if not entry.decider)
    return list(last.game.seats.order_by("index"))


def seat_of_user(match: Match, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in match_seats(match):
        if seat.user_id == user.pk:
            return seat.index
    return None


def next_game_plan(match: Match, entries: list[MatchGame]) -> tuple[list[int], bool]:
    """Who plays the next game, and whether it is the decider: everyone, or only the players
    tied at the top (all of them, in a match of two tied players)."""
    now = standing(scored_points(entries), match.players, match.target)
    if now.outcome == TIED:
        return list(now.seats), True
    return list(range(match.players)), False


def next_game_seats(match: Match, entries: list[MatchGame]) -> list[int]:
    return next_game_plan(match, entries)[0]


def waiting_for(match: Match, entries: list[MatchGame]) -> list[int]:
    """The seats of people who play the next game and have not said "ready" (bots and seats a
    stand-in bot plays for are always ready)."""
    seats = latest_seats(entries)
    return [
        index
        for index in next_game_seats(match, entries)
        if seats[index].user_id and not seats[index].standin and index not in match.ready
    ]


# --- Ready for the next game --------------------------------------------------------------------


def say_ready(match_id: int, user) -> bool:
    """`user` is ready for the next game of the match; it starts now if everyone is, or if its
    timer has run out. Returns whether the next game started. MatchError, changing nothing, if
    the user plays no seat of the match, or it is not between two games."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = seat_of_user(match, user)
        if seat is None:
            raise MatchError(
                "not_seated", _("Only the players of this match can say they are ready.")
            )
        if match.status != Match.Status.PLAYING:
            raise MatchError("finished", _("This match is over."))
        if match.next_game_at is None:
            raise MatchError("not_between_games", _("The next game can start only after this one."))
        entries = entries_of(match)
        if seat not in next_game_seats(match, entries):
            raise MatchError("not_in_decider", _("Only the tied players play the final game."))
        if seat not in match.ready:
            match.ready = sorted([*match.ready, seat])
            Match.objects.filter(pk=match.pk).update(ready=match.ready)
        # Once the timer has run out the next game is due whoever is ready: a "ready" then opens
        # it as the timer's job would (a late or lost job leaves nobody stuck at "0 s").
        if waiting_for(match, entries) and match.next_game_at > timezone.now():
            return False
        return _open_next_game(match, entries)


def locked_match(match_id: int) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchError("no_match", _("There is no such match."))
    return match


# --- After each game: score it, then the next game (the job "match_next_game") ----------------


def is_match_game(game_id: int) -> bool:
    return MatchGame.objects.filter(game_id=game_id).exists()


def advance(game_id: int) -> str:
    """The job: score the finished game `game_id` of a match (once), finish the match or set the
    next game's timer, and open the next game if everyone is ready or the timer ran out.
    Idempotent: run twice, or late, it finds its work done. Returns what it did."""
    entry = MatchGame.objects.filter(game_id=game_id).first()
    if entry is None:
        return "no match"
    with transaction.atomic():
        match = locked_match(entry.match_id)
        if match.status != Match.Status.PLAYING:
            return "match over"
        entries = entries_of(match)
        latest = entries[-1]
        if latest.game.status == Game.Status.ABORTED:
            _end(match, Match.Status.ABORTED, None)
            return "aborted"
        if latest.game.status != Game.Status.FINISHED:
            return "playing"
        if latest.points is None:
            return _score(match, entries, latest)
        if match.next_game_at and (
            match.next_game_at <= timezone.now() or not waiting_for(match, entries)
        ):
            return "next game" if _open_next_game(match, entries) else "taken"
        return "waiting"


def abort_match(match_id: int) -> bool:
    """The staff's abort: end a match that is still played as aborted, and abort its current
    game if that one is not over. True if the match was aborted; a finished or aborted match is
    left as it is (False). Aborting only the game would not do between two games, when the match
    waits for the next one and has no game to abort."""
    with transaction.atomic():
        match = locked_match(match_id)
        if match.status != Match.Status.PLAYING:
            return False
        latest = entries_of(match)[-1]
        abort_game(latest.game_id)
        _end(match, Match.Status.ABORTED, None)
    return True


def _score(match: Match, entries: list[MatchGame], latest: MatchGame) -> str:
    """Record the latest game's points and decide: go on, won, or a decider."""
    if latest.decider:
        latest.points = [0] * match.players
        latest.save(update_fields=["points"])
        winners = decider_winners(latest.game.result["winners"], latest.seats)
        return _finish(match, entries, winners, "decider")
    latest.points = game_points(load_state(latest.game))
    latest.save(update_fields=["points"])
    now = standing(scored_points(entries), match.players, match.target)
    if now.outcome == WON:
        return _finish(match, entries, list(now.seats), "points")
    if now.outcome in (GO_ON, TIED):
        _set_timer(match, latest.game_id)
        return "decider due" if now.outcome == TIED else "next game due"
    raise AssertionError(now.outcome)


def _set_timer(match: Match, game_id: int) -> None:
    match.next_game_at = timezone.now() + timedelta(seconds=match.next_game_seconds)
    match.ready = []
    Match.objects.filter(pk=match.pk).update(next_game_at=match.next_game_at, ready=[])
    delay = match.next_game_seconds + TIMER_SLACK
    transaction.on_commit(lambda: jobs.later(NEXT_GAME_JOB, game_id, delay=delay), robust=True)
    # Everyone may be ready already (bots only, or people's stand-ins): the job looks at once.
    transaction.on_commit(lambda: jobs.later(NEXT_GAME_JOB, game_id), robust=True)


def _finish(match: Match, entries: list[MatchGame], winners: list[int], decided_by: str) -> str:
    result = {
        "winners": winners,
        "points": totals(scored_points(entries), match.players),
        "decided_by": decided_by,
    }
    _end(match, Match.Status.FINISHED, result)
    return "finished"


def _end(match: Match, status: str, result: dict | None) -> None:
    match.status, match.result, match.finished_at = status, result, timezone.now()
    match.next_game_at, match.ready = None, []
    match.save(update_fields=["status", "result", "finished_at", "next_game_at", "ready"])


def _open_next_game(match: Match, entries: list[MatchGame]) -> bool:
    """Claim the pending start (one claimant wins), then open and start the next game."""
    claimed = Match.objects.filter(pk=match.pk, next_game_at=match.next_game_at).update(
        next_game_at=None, ready=[]
    )
    if claimed != 1:
        return False
    seats, decider = next_game_plan(match, entries)
    try:
        with transaction.atomic():
            everyone = latest_seats(entries)
            game = _new_game_like(
                entries[-1].game, [everyone[i] for i in seats], entries[0].game_id
            )
            MatchGame.objects.create(
                match=match, game=game, number=entries[-1].number + 1, decider=decider, seats=seats
            )
            start_game(game.pk)
    except IntegrityError:  # another process opened it (SQLite ignores the row lock)
        return False
    match.next_game_at, match.ready = None, []
    return True


def people_still_here(user_ids) -> set[int]:
    """Of these accounts, the ones neither deleted nor disabled, their rows locked (in order):
    a deletion racing the next game waits for it (and then finds a game to finish) or went
    first, as with a join (games/lobby/tables.py, lock_active_account)."""
    accounts = get_user_model().objects.select_for_update().order_by("pk")
    here = accounts.filter(pk__in=user_ids, is_active=True, deleted_at__isnull=True)
    return set(here.values_list("pk", flat=True))


def _new_game_like(previous: Game, seats: list[Seat], first_game_id: int) -> Game:
    """A game with the previous one's rules and timer, seating these match seats in order. A
    person keeps a stand-in bot they handed their seat to; a seat whose account is gone (or was
    deleted since the last game) is played by the stand-in level. A bot keeps its name through
    the match: each bot seat is named as its match seat was in the first game (`seats` are
    seats of a game for points, whose index is the match seat), so the names stay different."""
    here = people_still_here([seat.user_id for seat in seats if seat.user_id])
    now = timezone.now()
    game = Game.objects.create(
        players=len(seats),
        options=previous.options,
        turn_seconds=previous.turn_seconds,
        created_by=previous.created_by,
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            index=index,
            user_id=seat.user_id if seat.user_id in here else None,
            bot_level=seat.bot_level or ("" if seat.user_id in here else STANDIN_LEVEL),
            standin=seat.standin and seat.user_id in here,
            joined_at=now,
            bot_name="" if seat.user_id in here else condottiere_name(first_game_id, seat.index),
        )
        for index, seat in enumerate(seats)
    )
    return game


# --- The sweep: a lost timer job --------------------------------------------------------------


def overdue_game_ids(now=None) -> list[int]:
    """The latest game of each match whose next game is overdue by more than 2 s, or whose last
    game finished unscored (a lost job): the sweep announces the job again for each."""
    now = now or timezone.now()
    overdue = Match.objects.filter(
        status=Match.Status.PLAYING, next_game_at__lt=now - timedelta(seconds=2)
    )
    ids = [entry.game_id for match in overdue for entry in [match.entries.order_by("-number")[0]]]
    unscored = MatchGame.objects.filter(
        match__status=Match.Status.PLAYING,
        points__isnull=True,
        game__status__in=(Game.Status.FINISHED, Game.Status.ABORTED),
        game__finished_at__lt=now - timedelta(seconds=2),
    ).values_list("game_id", flat=True)
    return sorted(set(ids) | set(unscored))
