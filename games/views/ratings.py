"""The leaderboard and the rating part of a profile: numbers read from Rating and RatingChange.

Each game has its own ratings (games.ratings.rate): the leaderboard shows one game's, chosen at its
top (`?game=`, Condottiere's by default); a profile shows the player's rating in each game.
"""

from django.db.models import F
from django.shortcuts import render

from games.lobby.tables import DEFAULT_GAME, GAME_NAMES, bot_levels
from games.models import Rating, RatingChange
from games.ratings.rate import starting_rating
from games.ratings.scale import is_provisional
from games.words.bot_names import LEVEL_NAMES

LEADERBOARD_SIZE = 100
RECENT_CHANGES = 10


def by_ordinal(queryset):
    """Best first by the displayed rating (mu - 3 sigma); more games break a tie."""
    return queryset.annotate(ordinal_value=F("mu") - 3 * F("sigma")).order_by(
        "-ordinal_value", "-games", "pk"
    )


def games_won(rating_ids) -> dict[int, int]:
    """{rating id: games won}. A bot level on several seats of one game won it if any seat did."""
    won: dict[int, set[int]] = {}
    rows = RatingChange.objects.filter(rating_id__in=rating_ids).values_list(
        "rating_id", "game_id", "seat", "game__result"
    )
    for rating_id, game_id, seat, result in rows:
        if seat in ((result or {}).get("winners") or []):
            won.setdefault(rating_id, set()).add(game_id)
    return {rating_id: len(game_ids) for rating_id, game_ids in won.items()}


def provisional(rating: Rating) -> bool:
    return is_provisional(rating.sigma, rating.bot_level, rating.ruleset)


def leaderboard_rows(ratings) -> list[dict]:
    ratings = list(ratings)
    wins = games_won([rating.pk for rating in ratings if rating.pk is not None])
    return [
        {
            "rank": position,
            "rating": rating,
            "provisional": provisional(rating),
            "wins": wins.get(rating.pk, 0),
            "win_rate": wins.get(rating.pk, 0) / rating.games if rating.games else 0.0,
            "level_name": LEVEL_NAMES.get(rating.bot_level, rating.bot_level),
        }
        for position, rating in enumerate(ratings, start=1)
    ]


def bot_level_ratings(game: str) -> list[Rating]:
    """Every bot level of the site, best first, also the levels no rated game has moved yet: those
    show where they start (their strength in that game, measured by its arena ladder), so a
    newcomer can tell the levels apart before anyone has played them in a rated game. Equal
    ratings keep the levels' own order (weakest first)."""
    levels = bot_levels()
    stored = {r.bot_level: r for r in Rating.objects.filter(ruleset=game, user__isnull=True)}
    starting = [starting_rating(level, game) for level in levels if level not in stored]
    ratings = [*stored.values(), *starting]

    def place(rating: Rating) -> tuple:
        known = levels.index(rating.bot_level) if rating.bot_level in levels else len(levels)
        return (-rating.ordinal, -rating.games, known)

    return sorted(ratings, key=place)


def chosen_game(request) -> str:
    """The game whose leaderboard is asked for (`?game=`); anything unknown reads as the default."""
    game = request.GET.get("game", "")
    return game if game in GAME_NAMES else DEFAULT_GAME


def leaderboard(request):
    """One game's board: people with at least one rated game, bot accounts (outside programs
    playing through the Bot API, games.botapi) apart from them, and every bot level of the
    site's own, best first."""
    game = chosen_game(request)
    ratings = Rating.objects.filter(ruleset=game)
    # Deleted accounts (scrubbed, inactive) keep their games but leave the board.
    accounts = ratings.filter(user__isnull=False, user__is_active=True, games__gt=0).select_related(
        "user"
    )
    people = by_ordinal(accounts.filter(user__bot_account__isnull=True))[:LEADERBOARD_SIZE]
    api_bots = by_ordinal(
        accounts.filter(user__bot_account__isnull=False).select_related("user__bot_account")
    )[:LEADERBOARD_SIZE]
    bots = bot_level_ratings(game)
    context = {
        "game": game,
        "games": [{"key": key, "name": name} for key, name in GAME_NAMES.items()],
        "people": leaderboard_rows(people),
        "api_bots": leaderboard_rows(api_bots),
        "bots": leaderboard_rows(bots),
    }
    return render(request, "ratings/leaderboard.html", context)


def profile_rating(user) -> dict:
    """The profile's rating section: per game, the player's Rating there (None before any rated
    game of it) and its last changes with their games."""
    ratings = {rating.ruleset: rating for rating in Rating.objects.filter(user=user, games__gt=0)}
    return {
        "game_ratings": [
            {
                "game": game,
                "name": name,
                "rating": ratings.get(game),
                "provisional": game in ratings and provisional(ratings[game]),
                "changes": recent_changes(ratings.get(game)),
            }
            for game, name in GAME_NAMES.items()
        ]
    }


def recent_changes(rating: Rating | None) -> list[RatingChange]:
    if rating is None:
        return []
    return list(
        RatingChange.objects.filter(rating=rating)
        .select_related("game")
        .order_by("-game__finished_at", "-pk")[:RECENT_CHANGES]
    )
