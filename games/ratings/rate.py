"""OpenSkill (Plackett-Luce) ratings of people and bot levels, from finished live games.

Each game has its own ratings: a person and a bot level have one rating in Condottiere and
another in Renaissance (Rating.ruleset), each moved only by that game's games, by one rule.

What is rated (as lichess does: a rating measures people playing people, and cannot be farmed):
- A game is rated only if it finished here (not aborted, not imported) and at least two of its
  seats are people who each made at least one decision themselves (an action logged as
  "human"). So a person alone against the site's bots, a table of bots only, or tables whose
  people handed their seats to the stand-in before deciding anything rate nobody: otherwise
  anyone could farm a rating (theirs, or a bot level's public one) by opening many tables and
  letting bots play them. Lichess likewise rates games against bots only for bot accounts, and
  aborts, unrated, a game whose players have not each moved.
- In a rated game, a person's seat rates its person if they made at least one decision
  themselves, also when a stand-in or the timer finished the game for them: leaving a game
  that is going badly must not dodge the loss. A person's seat whose every decision was made
  by the stand-in or the timer rates nobody: the person did not play it.
- A bot seat of a rated game rates its level's one shared Rating, so that "hard" earns its
  number from games that people really played.
- A seat that rates nobody (played entirely by the stand-in, or its account deleted) still took
  part: it is a team of the match at OpenSkill's default numbers, which are not saved.
- Showing cards is table talk, not a decision: two accounts that only show a card and let the
  stand-in play have decided nothing. Nor is Renaissance's diplomacy (an offer, a gift, an
  answer, taken by any seat at any moment: games.rules_api's side actions): two accounts that
  only make and withdraw offers have not played each other.
- One account cannot play itself: it holds at most one seat of a game (the lobby refuses a
  second, and the database's seat_one_per_user constraint backs it). Nor can a person play their
  own bot account: a game where a person sits with a bot account they own is rated for nobody,
  and a person who owns bots cannot turn their account into a bot (games/botapi/accounts.py).
`unrated_reason` says why a game is not rated; the game page shows it.

A rated game is one match with one team per seat. Ranks come from the stored result: the winners
share rank 1, the others follow by regions held at the end in Condottiere, by Renaissance Points
in Renaissance (more is better, equal counts tie).
(openskill 6.2's Plackett-Luce treats ties oddly: tied seats get equal results, but a tie at the
top can also lift the next place to the winners' numbers — openskill.py issues #155 and #173. We
use the library's numbers as they are, so that they match anyone's OpenSkill calculation.)

A bot level may hold several seats of one game. Each of those seats is rated as its own team,
all from the level's rating before the game; the level then takes the mean of those seats'
results. Rating the level once per seat in turn would count one game as several, and putting its
seats in one team would say they played together, when they played against each other.

Every update is one transaction keyed by the game: RatingChange has one row per (game, seat),
so a game that already has rows is never rated again, and a concurrent second run either waits on
the game's row lock (PostgreSQL) or loses on the unique key and rolls back (IntegrityError).
"""

import logging
import time
from dataclasses import dataclass
from statistics import fmean

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils.translation import gettext_lazy as _
from openskill.models import PlackettLuce

from ai import ladder
from games.models import Action, Game, Rating, RatingChange, Seat
from games.ratings.scale import (
    DEFAULT_GAME,
    DISPLAY_BASE,
    DISPLAY_POINTS_PER_ORDINAL,
    NEWCOMER_ORDINAL,
)
from games.rules_api import ruleset_of
from games.services.notify import notify_table

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
# SQLite has one writer at a time and may refuse a second one outright; try again a few times.
SQLITE_RETRIES = 5
# A rating measures people against people: fewer than this many deciding people rate nobody.
MIN_PEOPLE_DECIDING = 2
# The logged action of showing cards (games/services/table_talk.py): never a decision.
SHOW = "show"
# Per game: what orders the seats below the winners in its stored result (games' records).
RANKED_BY = {"condottiere": "regions", "renaissance": "points"}

# Why a game is not rated, for the game page (codes from unrated_reason).
UNRATED_MESSAGES = {
    "aborted": _("Not rated: the game was aborted."),
    "imported": _("Not rated: imported records are never rated."),
    "unfinished": _("Not rated yet: the game is not over."),
    "too_few_people": _(
        "Not rated: fewer than two people made their own decisions in this game "
        "(games against bots only are not rated)."
    ),
    "own_bots": _("Not rated: a player's own bot account played in this game."),
}


@dataclass(frozen=True)
class SeatOutcome:
    """What one seat's team is worth after the game (mu, sigma)."""

    seat: int
    mu: float
    sigma: float


def ranks_from_result(result: dict, ruleset: str = "condottiere") -> list[int]:
    """Plackett-Luce ranks per seat (1 is best, equal ranks tie) from a game's result: the
    winners first, then the others by their regions (Condottiere) or points (Renaissance)."""
    counts = list(result[RANKED_BY[ruleset]])
    winners = set(result.get("winners") or [])
    first_loser_rank = 2 if winners else 1
    loser_counts = sorted({counts[seat] for seat in range(len(counts)) if seat not in winners})
    ranks = []
    for seat, count in enumerate(counts):
        if seat in winners:
            ranks.append(1)
        else:
            better_counts = sum(1 for other in loser_counts if other > count)
            ranks.append(first_loser_rank + better_counts)
    return ranks


def rate_match(before: list[tuple[float, float]], ranks: list[int]) -> list[SeatOutcome]:
    """Each seat's (mu, sigma) after a match where seat i started at before[i] (pure)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=ranks)
    return [SeatOutcome(seat, team[0].mu, team[0].sigma) for seat, team in enumerate(rated)]


def starting_mu(bot_level: str | None, ruleset: str = DEFAULT_GAME) -> float:
    """A new rating's mu: OpenSkill's default for a person; for a bot level, the mu that shows its
    measured ladder strength in that game (ai/ladder.py: arena Elo, read as display points) at
    the default sigma, so the leaderboard orders the levels by strength before anyone has played
    them (a level the ladder has not measured starts at the measured level below it; below every
    measured level, at the default, like a person)."""
    elo = ladder.starting_elo(bot_level, ladder.load(ruleset)) if bot_level else None
    if elo is None:
        return MODEL.mu
    ordinal = NEWCOMER_ORDINAL + (elo - DISPLAY_BASE) / DISPLAY_POINTS_PER_ORDINAL
    return ordinal + 3 * MODEL.sigma


def starting_rating(bot_level: str, ruleset: str = DEFAULT_GAME) -> Rating:
    """A bot level's Rating as it starts, not saved: what the leaderboard shows for a level no
    rated game has moved yet (its ladder strength in that game)."""
    return Rating(
        user=None,
        bot_level=bot_level,
        ruleset=ruleset,
        mu=starting_mu(bot_level, ruleset),
        sigma=MODEL.sigma,
        games=0,
    )


def rating_for(user=None, bot_level: str | None = None, ruleset: str = DEFAULT_GAME) -> Rating:
    """The Rating of a person or of a bot level in one game, created if new (see
    `starting_mu`)."""
    if (user is None) == (not bot_level):
        raise ValueError("a rating belongs to a user or to a bot level, not both")
    lookup = {"user": user} if user is not None else {"user": None, "bot_level": bot_level}
    lookup["ruleset"] = ruleset
    defaults = {"mu": starting_mu(bot_level, ruleset), "sigma": MODEL.sigma}
    try:
        with transaction.atomic():
            rating, _ = Rating.objects.get_or_create(**lookup, defaults=defaults)
    except IntegrityError:  # created meanwhile by a concurrent update: read theirs
        rating = Rating.objects.get(**lookup)
    return rating


def people_deciding(game: Game) -> set[int]:
    """The seats of people (an account behind them) who made at least one decision themselves:
    a stand-in's or the timer's move is logged under another actor and does not count, nor does
    showing cards (table talk: it decides nothing, so two accounts that only show a card each
    and let the stand-in play have not played each other), nor does an action any seat may
    take at any moment (Renaissance's diplomacy: an offer asks nothing of the game)."""
    people = Seat.objects.filter(game=game, user__isnull=False).values_list("index", flat=True)
    side_action = ruleset_of(game).is_side_action
    # Compared here, not excluded in SQL: a NOT on a JSON key would drop actions with no type.
    logged = Action.objects.filter(game=game, actor=Action.Actor.HUMAN).values_list(
        "seat", "action"
    )
    decided = {
        seat
        for seat, action in logged
        if (action or {}).get("type") != SHOW and not side_action(action)
    }
    return set(people) & decided


def unrated_reason(game: Game) -> str | None:
    """None if the game is rated (or will be, a moment after it finished); else why not, one of
    the keys of UNRATED_MESSAGES."""
    if game.source != Game.Source.LIVE:
        return "imported"
    if game.status == Game.Status.ABORTED:
        return "aborted"
    if game.status != Game.Status.FINISHED or not (game.result or {}).get(RANKED_BY[game.ruleset]):
        return "unfinished"
    # Both checks of bot owners below read the same seats: one query.
    accounts = seated_accounts(game)
    if faces_own_bot(accounts):
        return "own_bots"
    deciding = people_deciding(game)
    if len(deciding) < MIN_PEOPLE_DECIDING:
        return "too_few_people"
    if len(controllers(accounts, deciding)) < MIN_PEOPLE_DECIDING:
        return "own_bots"
    return None


def seated_accounts(game: Game) -> list[tuple[int, int, int | None]]:
    """(seat index, account, the account's owner if it is a Bot API bot) of each seat held by an
    account."""
    rows = Seat.objects.filter(game=game, user__isnull=False).values_list(
        "index", "user_id", "user__bot_account__owner_id"
    )
    return list(rows)


def faces_own_bot(accounts) -> bool:
    """Whether a person sits at the table with a bot account they own: their own program, so
    whatever it does (pass every turn, feed them regions) must not move anyone's rating, theirs,
    the bot's or the other players' (the bot may have played for the table or not at all)."""
    seated = {user for _, user, _ in accounts}
    return any(owner in seated for _, _, owner in accounts if owner is not None)


def controllers(accounts, seats: set[int]) -> set[int]:
    """Who decides for these seats: a Bot API bot account is its owner's program, so a person
    against their own bot is one player (no rating to farm); an account without an owner (a bot
    that upgraded itself, or a person) stands for itself."""
    return {owner or user for index, user, owner in accounts if index in seats}


def is_rated(game: Game) -> bool:
    return unrated_reason(game) is None


def seat_ratings(seats: list[Seat], deciding: set[int], ruleset: str) -> list[Rating | None]:
    """Each seat's Rating in the game `ruleset`, locked for the update; None for a seat that
    rates nobody."""
    found = []
    for seat in seats:
        if seat.user_id and seat.index in deciding:
            found.append(rating_for(user=seat.user, ruleset=ruleset))
        elif seat.bot_level:
            found.append(rating_for(bot_level=seat.bot_level, ruleset=ruleset))
        else:  # played by the stand-in alone, or the account was deleted: the seat still
            found.append(None)  # played (a team of the match), but rates nobody
    ids = sorted({rating.pk for rating in found if rating is not None})
    # Lock in one order (by id) so that two games sharing players cannot deadlock.
    locked = {rating.pk: rating for rating in Rating.objects.select_for_update().filter(pk__in=ids)}
    return [None if rating is None else locked[rating.pk] for rating in found]


def new_values(ratings: list[Rating | None], outcomes: list[SeatOutcome]) -> dict:
    """{rating id: (mu, sigma)} after the game: a bot level's seats are averaged (see top)."""
    by_rating: dict[int, list[SeatOutcome]] = {}
    for rating, outcome in zip(ratings, outcomes, strict=True):
        if rating is not None:
            by_rating.setdefault(rating.pk, []).append(outcome)
    return {
        rating_id: (fmean(o.mu for o in seat_outcomes), fmean(o.sigma for o in seat_outcomes))
        for rating_id, seat_outcomes in by_rating.items()
    }


def _apply(game: Game) -> bool:
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    ratings = seat_ratings(seats, people_deciding(game), game.ruleset)
    default = (MODEL.mu, MODEL.sigma)
    before = [default if r is None else (r.mu, r.sigma) for r in ratings]
    outcomes = rate_match(before, ranks_from_result(game.result, game.ruleset))
    after = new_values(ratings, outcomes)
    changes = [
        RatingChange(
            game=game,
            seat=seat.index,
            rating=rating,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=after[rating.pk][0],
            sigma_after=after[rating.pk][1],
        )
        for seat, rating in zip(seats, ratings, strict=True)
        if rating is not None
    ]
    RatingChange.objects.bulk_create(changes)
    for rating in {r.pk: r for r in ratings if r is not None}.values():
        rating.mu, rating.sigma = after[rating.pk]
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
    return True


def _update_once(game_id: int) -> bool:
    try:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(pk=game_id).first()
            if game is None or not is_rated(game):
                return False
            if RatingChange.objects.filter(game=game).exists():
                return False
            return _apply(game)
    except IntegrityError:  # a concurrent run wrote this game's changes first
        log.info("ratings of game %s were written by another run", game_id)
        return False


def update_for_game(game_id: int) -> bool:
    """Rate a finished live game once. False if it is not rated or already was (idempotent)."""
    for attempt in range(SQLITE_RETRIES):
        try:
            return _update_once(game_id)
        except OperationalError:
            if connection.vendor != "sqlite" or attempt == SQLITE_RETRIES - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def recompute_all() -> int:
    """Wipe every rating and rate every finished live game again, oldest finish first.
    Returns the number of games rated."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        game_ids = list(
            Game.objects.filter(status=Game.Status.FINISHED, source=Game.Source.LIVE)
            .order_by("finished_at", "pk")
            .values_list("pk", flat=True)
        )
        return sum(1 for game_id in game_ids if _update_once(game_id))


def rate_and_tell(game_id: int) -> bool:
    """The job "rating": rate a finished game once, then tell its sockets, so that the result
    panel shows the rating changes. A no-op when it was rated already (safe to run twice)."""
    updated = update_for_game(game_id)
    if updated:
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
        notify_table(Game(pk=game_id).group_name(), version or 0)
    return updated
