"""Matchmaking: opening tables, taking and leaving seats, "Play now", games against bots (a
rematch is games.lobby.rematch).

Every function that changes a table locks the game row (`select_for_update`) and, because SQLite
ignores row locks, also takes a seat with a guarded `UPDATE ... WHERE user IS NULL` whose row count
must be 1: two people racing for the last seat can never both get it, on any backend. A table whose
seats are all taken starts inside the same transaction (`games.services.start_game`), so nobody can
leave between "full" and "started". Everyone watching the lobby hears of every change through
`notify_lobby()`, sent only after the commit.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ai import LEVELS
from games import jobs
from games.models import Game, Seat
from games.rules_api import RULESETS, Ruleset
from games.services import start_game
from games.services.notify import after_commit, group_send_now, notify_lobby_now

DEFAULT_BOT_LEVEL = "heuristic"
# The game a table plays unless another is chosen: every table was Condottiere's before.
DEFAULT_GAME = "condottiere"
AUTOFILL_SECONDS = 30
# How many games in progress the lobby lists for watching (the newest first).
WATCHABLE_GAMES = 30
TURN_TIMERS = (None, 30, 60, 120)
# The games' names as people read them (the games' own titles).
GAME_NAMES = {"condottiere": _("Condottiere"), "renaissance": _("Renaissance")}


def bot_levels() -> tuple[str, ...]:
    """The bot levels a seat may take, weakest first."""
    return tuple(LEVELS)


def ruleset_for(game: str) -> Ruleset:
    """The rules of the game a table plays ("condottiere" or "renaissance"), or a LobbyError."""
    if game not in RULESETS:
        raise LobbyError("invalid", _("Unknown game."))
    return RULESETS[game]


def normalize_options(options: dict | None, players: int | None = None, game=DEFAULT_GAME) -> dict:
    """The table's options as its game stores them, so that two tables compare equal when their
    rules do (Condottiere: every optional rule named, on or off). The game's own rules decide
    what fits `players`; what does not is a LobbyError."""
    rules = ruleset_for(game)
    try:
        return rules.normalize_options(options or {}, players)
    except ValueError as error:  # the engine's reason is English: said after our own words
        raise LobbyError(
            "invalid_options",
            _("These rules cannot be played at this table (%(reason)s).") % {"reason": error},
        ) from error


def option_keys(game: str, options: dict) -> list[str]:
    """The table's options as short keys for the lobby's chips (forms.tables.OPTION_WORDS words
    each): a Condottiere rule that is on by its name, a Renaissance choice as name_value."""
    if game == DEFAULT_GAME:
        return sorted(name for name, on in options.items() if on)
    return sorted(name if value is True else f"{name}_{value}" for name, value in options.items())


class LobbyError(Exception):
    """A request the lobby refuses; `message` is for the person, `code` for code and tests."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SeatPlan:
    """What the creator of a table wants at one seat: "open", "bot", "invite" or "me"."""

    kind: str
    level: str = ""
    user: object = None  # the invited user, for "invite"


# --- Notifications ------------------------------------------------------------------------------


def notify_lobby() -> None:
    """Tell every lobby socket that the tables changed, once the current transaction commits."""
    transaction.on_commit(notify_lobby_now, robust=True)


# The hint to a finished game's sockets that its rematch table changed (games/sockets/game.py
# reads the offer again: games.lobby.rematch.rematch_offer).
REMATCH_CHANGED = {"type": "game.rematch"}


def notify_rematch_watchers(table: Game) -> None:
    """A rematch table changed (offered, a seat taken, given up or declined, its game started):
    the finished game's page shows the answers live, once the change commits."""
    if table.rematch_of_id:
        group = Game(pk=table.rematch_of_id).group_name()
        after_commit(group_send_now, group, REMATCH_CHANGED)


# --- Pure helpers -------------------------------------------------------------------------------


def free_seats(seats, user=None) -> list:
    """Open seats `user` may take: unreserved ones, or the ones reserved for them."""
    return [
        seat
        for seat in seats
        if seat.is_open
        and (seat.reserved_for_id is None or (user and seat.reserved_for_id == user.pk))
    ]


def choose_seat(seats, user, index: int | None = None):
    """The seat `user` should take at a table with these seats, or a LobbyError saying why not."""
    if any(seat.user_id == user.pk for seat in seats):
        raise LobbyError("already_seated", _("You already have a seat at this table."))
    allowed = free_seats(seats, user)
    if index is not None:
        for seat in allowed:
            if seat.index == index:
                return seat
        raise LobbyError("seat_taken", _("That seat is not free for you."))
    reserved = [seat for seat in allowed if seat.reserved_for_id == user.pk]
    if reserved:
        return reserved[0]
    if allowed:
        return allowed[0]
    if any(seat.is_open for seat in seats):
        raise LobbyError("reserved", _("The free seats are reserved for invited players."))
    raise LobbyError("full", _("This table is full."))


def validate_seat_plans(creator, players: int, plans: list[SeatPlan], game=DEFAULT_GAME) -> None:
    check_players(game, players)
    if len(plans) != players:
        raise LobbyError("invalid", _("Say who sits at each of the %(n)d seats.") % {"n": players})
    if sum(plan.kind == "me" for plan in plans) > 1:
        raise LobbyError("invalid", _("You can take only one seat."))
    invited = [plan.user.pk for plan in plans if plan.kind == "invite"]
    if len(set(invited)) != len(invited):
        raise LobbyError("invalid", _("Invite each player only once."))
    if creator.pk in invited:
        raise LobbyError("invalid", _("Choose “you” for your own seat, not an invitation."))
    for plan in plans:
        if plan.kind not in {"open", "bot", "invite", "me"}:
            raise LobbyError("invalid", _("Unknown kind of seat."))
        if plan.kind == "bot" and plan.level not in bot_levels():
            raise LobbyError("invalid", _("Unknown bot level."))


def check_players(game: str, players) -> None:
    """Refuse a number of players the game is not played by (Condottiere 2–6, Renaissance 3–6)."""
    allowed = ruleset_for(game).players
    if players not in allowed:
        raise LobbyError(
            "invalid",
            _("%(game)s is played by %(low)d to %(high)d players.")
            % {"game": GAME_NAMES[game], "low": allowed.start, "high": allowed.stop - 1},
        )


def check_may_open(creator, plans: list[SeatPlan], now) -> None:
    """Refuse a table beyond the creator's caps (OPEN_TABLES_PER_ACCOUNT tables waiting, and
    TABLES_OPENED_PER_MINUTE of any kind): each table costs every lobby socket a bigger frame.

    Called inside the transaction that creates the table, with the creator's row locked, so two
    requests of one account cannot both take the last place (PostgreSQL; SQLite has one writer)."""
    lock_active_account(creator)
    mine = Game.objects.filter(created_by=creator)
    recent = settings.TABLES_OPENED_PER_MINUTE
    if mine.filter(created_at__gt=now - timedelta(minutes=1)).count() >= recent:
        raise LobbyError(
            "too_many_tables",
            _("You opened %(n)d tables in the last minute: wait a moment.") % {"n": recent},
        )
    waits = any(plan.kind in {"open", "invite"} for plan in plans)
    cap = settings.OPEN_TABLES_PER_ACCOUNT
    if waits and mine.filter(status=Game.Status.OPEN).count() >= cap:
        raise LobbyError(
            "too_many_open_tables",
            _(
                "You already have %(n)d open tables waiting for players: "
                "start or leave one before opening another."
            )
            % {"n": cap},
        )


def lock_active_account(user) -> None:
    """Lock the account's row, or refuse an account that is deleted or disabled. Deleting an
    account locks the same row (games/accounts/deletion.py): a join racing a deletion either
    waits for it and is refused here, or seats the account first and the deletion is refused."""
    # On a row the deletion changed meanwhile, PostgreSQL checks the filter again after the wait.
    found = (
        get_user_model()
        .objects.select_for_update()
        .filter(pk=user.pk, is_active=True, deleted_at__isnull=True)
        .values_list("pk", flat=True)
        .first()
    )
    if found is None:
        raise LobbyError("account_closed", _("This account is deleted or disabled."))


# --- Changing tables ----------------------------------------------------------------------------


def create_table(
    creator,
    players: int,
    plans: list[SeatPlan],
    *,
    options: dict | None = None,
    turn_seconds: int | None = None,
    autofill_level: str = "",
    autofill_seconds: float = AUTOFILL_SECONDS,
    rematch_of: Game | None = None,
    game: str = DEFAULT_GAME,
) -> Game:
    """Open a table of `game` with these seats; it starts at once if no seat is left open."""
    validate_seat_plans(creator, players, plans, game)
    if autofill_level and autofill_level not in bot_levels():
        raise LobbyError("invalid", _("Unknown bot level."))
    options = normalize_options(options, players, game)
    now = timezone.now()
    with transaction.atomic():
        check_may_open(creator, plans, now)
        table = Game.objects.create(
            ruleset=game,
            players=players,
            options=options,
            created_by=creator,
            turn_seconds=turn_seconds,
            autofill_level=autofill_level,
            autofill_at=now + timedelta(seconds=autofill_seconds) if autofill_level else None,
            rematch_of=rematch_of,
        )
        Seat.objects.bulk_create(
            [_seat_from_plan(table, index, plan, creator, now) for index, plan in enumerate(plans)]
        )
        _start_if_full(table)
        notify_lobby()
        if table.autofill_at and table.status == Game.Status.OPEN:
            transaction.on_commit(lambda: schedule_autofill(table.pk, table.autofill_at))
    table.refresh_from_db()
    return table


def _seat_from_plan(game, index, plan: SeatPlan, creator, now) -> Seat:
    seat = Seat(game=game, index=index)
    if plan.kind == "me":
        seat.user, seat.joined_at = creator, now
    elif plan.kind == "bot":
        seat.bot_level = plan.level
    elif plan.kind == "invite":
        seat.reserved_for = plan.user
    return seat


def join_table(game_id: int, user, index: int | None = None) -> Seat:
    """Give `user` a seat at an open table (theirs if reserved); start the game if it is full."""
    with transaction.atomic():
        game = _locked_open_game(game_id)
        lock_active_account(user)
        seat = choose_seat(list(game.seats.all()), user, index)
        try:
            with transaction.atomic():
                taken = Seat.objects.filter(pk=seat.pk, user__isnull=True, bot_level="").update(
                    user=user, joined_at=timezone.now()
                )
        except IntegrityError as error:  # the one-seat-per-user constraint, in a race
            raise LobbyError(
                "already_seated", _("You already have a seat at this table.")
            ) from error
        if taken != 1:
            raise LobbyError("seat_taken", _("Someone took that seat a moment ago; try another."))
        _start_if_full(game)
        notify_lobby()
        notify_rematch_watchers(game)
    seat.refresh_from_db()
    return seat


def leave_table(game_id: int, user) -> None:
    """Give up a seat before the game starts; a table nobody sits at any more closes."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.OPEN:
            raise LobbyError(
                "started",
                _("The game has started: you can hand your seat to a bot from the game page."),
            )
        freed = Seat.objects.filter(game=game, user=user).update(
            user=None, joined_at=None, reserved_for=None
        )
        if freed == 0:
            raise LobbyError("not_seated", _("You have no seat at this table."))
        if not game.seats.filter(user__isnull=False).exists():
            game.status = Game.Status.ABORTED
            game.save(update_fields=["status", "updated_at"])
        notify_lobby()
        notify_rematch_watchers(game)


def play_now(
    user,
    players: int,
    options: dict | None = None,
    *,
    autofill_level: str = "",
    autofill_seconds: float = AUTOFILL_SECONDS,
    game: str = DEFAULT_GAME,
) -> Game:
    """Sit at the oldest compatible open table (the same game, players and rules), or open a new
    one and wait there."""
    check_players(game, players)
    wanted = normalize_options(options, players, game)
    for table in compatible_tables(user, players, wanted, game):
        try:
            join_table(table.pk, user)
        except LobbyError:  # taken or started in the meantime: try the next one
            continue
        return Game.objects.get(pk=table.pk)
    plans = [SeatPlan("me")] + [SeatPlan("open")] * (players - 1)
    return create_table(
        user,
        players,
        plans,
        options=wanted,
        autofill_level=autofill_level,
        autofill_seconds=autofill_seconds,
        game=game,
    )


def compatible_tables(user, players: int, options: dict, game=DEFAULT_GAME) -> list[Game]:
    """Open tables of `game` with this many players and these rules, a seat free for `user`,
    oldest first."""
    candidates = (
        Game.objects.filter(status=Game.Status.OPEN, ruleset=game, players=players)
        .exclude(seats__user=user)
        .prefetch_related("seats")
        .order_by("created_at", "pk")
    )
    return [
        table
        for table in candidates
        if same_rules(table, options) and free_seats(table.seats.all(), user)
    ]


def same_rules(table: Game, options: dict) -> bool:
    """Whether an open table plays these (normalized) options; one whose stored options no longer
    fit its game is no match for anyone."""
    try:
        return normalize_options(table.options, table.players, table.ruleset) == options
    except LobbyError:
        return False


def play_against_bots(
    user,
    bots: int,
    level: str = DEFAULT_BOT_LEVEL,
    options: dict | None = None,
    *,
    turn_seconds: int | None = None,
    game: str = DEFAULT_GAME,
) -> Game:
    """You at seat 0 and `bots` bots of one level: the game starts at once."""
    allowed = ruleset_for(game).players
    if bots + 1 not in allowed:
        raise LobbyError(
            "invalid",
            _("Choose %(low)d to %(high)d bots.")
            % {"low": allowed.start - 1, "high": allowed.stop - 2},
        )
    plans = [SeatPlan("me")] + [SeatPlan("bot", level=level)] * bots
    return create_table(
        user, bots + 1, plans, options=options, turn_seconds=turn_seconds, game=game
    )


def _locked_open_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != Game.Status.OPEN:
        raise LobbyError("started", _("This table is no longer open."))
    return game


def _start_if_full(game: Game) -> None:
    """Start the game when every seat is taken (inside the caller's transaction)."""
    if game.seats.filter(user__isnull=True, bot_level="").exists():
        return
    start_game(game.pk)
    game.refresh_from_db()


# --- Filling seats with bots after a wait ----------------------------------------------------


def autofill_due_tables(now=None) -> list[int]:
    """Fill the open seats of every table whose wait is over with bots, and start those games.

    Safe to call any time and from anywhere (a job, a page, a test): it re-checks each table's
    time and seats under the row lock. Returns the ids of the games it started.
    """
    now = now or timezone.now()
    due = Game.objects.filter(
        status=Game.Status.OPEN, autofill_at__lte=now, autofill_level__gt=""
    ).values_list("pk", flat=True)
    return [pk for pk in list(due) if autofill_table(pk, now)]


def autofill_table(game_id: int, now=None) -> bool:
    """The job "autofill": fill this table's open seats with bots if its wait is over and someone
    still waits there, and start the game. Returns whether it did (safe to run twice)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.OPEN:
            return False
        if not game.autofill_at or game.autofill_at > now:
            return False
        if not game.seats.filter(user__isnull=False).exists():
            return False  # nobody is waiting: bots alone would play for no one
        game.seats.filter(user__isnull=True, bot_level="").update(
            bot_level=game.autofill_level, reserved_for=None
        )
        _start_if_full(game)
        notify_lobby()
        return True


def schedule_autofill(game_id: int, when) -> None:
    """Announce the table's autofill for just after `when` (the sweep catches it if lost)."""
    delay = max(0.0, (when - timezone.now()).total_seconds()) + 0.5
    jobs.later("autofill", game_id, delay=delay)
