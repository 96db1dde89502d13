"""The staff dashboard's figures, each computed from the database or the broker, never invented.

Every function here reads and returns plain data (lists, dicts, numbers); the view only renders it.
A figure that counts games counts every game, or with `ruleset` ("condottiere", "renaissance")
that game's only; `games_per_ruleset` puts the counts of each game side by side.
"""

from collections import defaultdict
from datetime import timedelta
from fractions import Fraction

import redis
from django.conf import settings
from django.db import connection
from django.db.models import Count, Q
from django.db.models.functions import TruncDate
from django.utils import timezone

from ai import LEVELS
from games import jobs
from games.models import Action, Game, Seat
from games.sockets.presence import live_presences, purge_stale

FINISHED_DAYS = 30
BOT_ACTORS = (Action.Actor.BOT, Action.Actor.STANDIN)


# --- Games and people -------------------------------------------------------------------------


def games_of(ruleset: str | None = None):
    """Every game, or one game's (by its ruleset's name)."""
    games = Game.objects.all()
    return games if ruleset is None else games.filter(ruleset=ruleset)


def games_in_progress(ruleset: str | None = None):
    """Games being played now, oldest start first, with their seats for the list."""
    return (
        games_of(ruleset)
        .filter(status=Game.Status.PLAYING)
        .order_by("started_at", "pk")
        .prefetch_related("seats__user")
    )


def open_tables_count(ruleset: str | None = None) -> int:
    return games_of(ruleset).filter(status=Game.Status.OPEN).count()


def games_per_ruleset(days: int = FINISHED_DAYS, today=None) -> list[dict]:
    """Per game, in the order the site lists them: {"ruleset", "label", "playing", "open",
    "finished"}, `finished` counting live games finished in the last `days` days (as
    `finished_per_day` does)."""
    today = today or timezone.localdate()
    first = today - timedelta(days=days - 1)
    finished = Q(
        status=Game.Status.FINISHED,
        source=Game.Source.LIVE,
        finished_at__date__gte=first,
        finished_at__date__lte=today,
    )
    counts = {
        row["ruleset"]: row
        for row in Game.objects.order_by()
        .values("ruleset")
        .annotate(
            playing=Count("pk", filter=Q(status=Game.Status.PLAYING)),
            open=Count("pk", filter=Q(status=Game.Status.OPEN)),
            finished=Count("pk", filter=finished),
        )
    }
    figures = ("playing", "open", "finished")
    return [
        {
            "ruleset": name,
            "label": label,
            **{figure: counts.get(name, {}).get(figure, 0) for figure in figures},
        }
        for name, label in Game.Ruleset.choices
    ]


def people_connected(now=None) -> dict:
    """Distinct signed-in people with an open socket, and anonymous sockets (each counts).

    Stale rows (a crashed server's leftovers) are deleted first and never counted."""
    purge_stale(now)
    rows = live_presences(now)
    return {
        "people": rows.filter(user__isnull=False).values("user").distinct().count(),
        "anonymous_sockets": rows.filter(user__isnull=True).count(),
        "sockets": rows.count(),
        "in_games": rows.filter(game__isnull=False).count(),
    }


def finished_per_day(days: int = FINISHED_DAYS, today=None, ruleset: str | None = None) -> list:
    """[{"day": date, "count": n}] for each of the last `days` days up to today (oldest first),
    counting live games by the day they finished (in the site's time zone); empty days are 0."""
    today = today or timezone.localdate()
    first = today - timedelta(days=days - 1)
    counts = dict(
        games_of(ruleset)
        .filter(
            status=Game.Status.FINISHED,
            source=Game.Source.LIVE,
            finished_at__date__gte=first,
            finished_at__date__lte=today,
        )
        .annotate(day=TruncDate("finished_at"))
        .values("day")
        .annotate(n=Count("pk"))
        .values_list("day", "n")
    )
    return [
        {"day": first + timedelta(days=i), "count": counts.get(first + timedelta(days=i), 0)}
        for i in range(days)
    ]


# --- Bot latency ------------------------------------------------------------------------------


def percentile(sorted_values: list[float], fraction: float) -> float | None:
    """The continuous percentile (linear interpolation between closest ranks), as PostgreSQL's
    percentile_cont computes it; None for no values."""
    if not sorted_values:
        return None
    position = fraction * (len(sorted_values) - 1)
    lower = int(position)
    upper = min(lower + 1, len(sorted_values) - 1)
    weight = position - lower
    return sorted_values[lower] + (sorted_values[upper] - sorted_values[lower]) * weight


def _bot_latencies(since=None):
    rows = Action.objects.filter(actor__in=BOT_ACTORS, latency_ms__isnull=False)
    return rows.filter(created_at__gte=since) if since is not None else rows


def _latency_postgresql(rows) -> tuple[int, float | None, float | None]:
    """The same figures computed by the database: no need to fetch every latency."""
    sql, params = rows.values("latency_ms").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms),"
            f" percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FROM ({sql}) AS bot",
            params,
        )
        count, median, p95 = cursor.fetchone()
    return count, median, p95


def latency_summary(since=None) -> dict:
    """{"count", "median_ms", "p95_ms"} of bot and stand-in decisions (since a moment, or ever)."""
    rows = _bot_latencies(since)
    if connection.vendor == "postgresql":
        count, median, p95 = _latency_postgresql(rows)
    else:
        values = sorted(rows.values_list("latency_ms", flat=True))
        count, median, p95 = len(values), percentile(values, 0.5), percentile(values, 0.95)
    return {"count": count, "median_ms": median, "p95_ms": p95}


def bot_latency(now=None) -> dict:
    now = now or timezone.now()
    return {"last_24h": latency_summary(now - timedelta(hours=24)), "all_time": latency_summary()}


# --- The task queue ---------------------------------------------------------------------------


def queue_depth(queue: str | None = None, redis_url: str | None = None) -> dict:
    """{"broker": "redis"|"in_process", "queue", "depth"}: messages waiting in the Celery queue
    (the lengths of its Redis lists, one per priority step: an analysis's slices wait at the
    last; the play queue unless told), or the in-process pool's jobs not finished when there is
    no broker.
    `depth` is None and `error` says why when the broker cannot be reached."""
    queue = queue or settings.JOB_QUEUES[jobs.PLAY]
    redis_url = redis_url if redis_url is not None else settings.REDIS_URL
    if not redis_url:
        return {"broker": "in_process", "queue": None, "depth": jobs.in_process_pending()}
    client = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    try:
        pipeline = client.pipeline(transaction=False)
        for name in jobs.broker_lists(queue):
            pipeline.llen(name)
        return {"broker": "redis", "queue": queue, "depth": sum(pipeline.execute())}
    except redis.RedisError as error:
        return {"broker": "redis", "queue": queue, "depth": None, "error": str(error)}
    finally:
        client.close()


def queue_depths() -> list[dict]:
    """`queue_depth` of each kind of work's queue (play, then background); with no broker, the
    one in-process figure."""
    if not settings.REDIS_URL:
        return [queue_depth()]
    return [queue_depth(settings.JOB_QUEUES[kind]) for kind in jobs.QUEUES]


# --- Bots' results ----------------------------------------------------------------------------


def bot_win_rates(ruleset: str | None = None) -> list[dict]:
    """Per bot level, from finished live games: seats played, wins (a win shared by k winners
    counts 1/k) and the win rate; levels from the weakest up, as the site lists them."""
    seats = Seat.objects.filter(
        game__status=Game.Status.FINISHED, game__source=Game.Source.LIVE
    ).exclude(bot_level="")
    if ruleset is not None:
        seats = seats.filter(game__ruleset=ruleset)
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, Fraction] = defaultdict(Fraction)
    for level, index, result in seats.values_list("bot_level", "index", "game__result"):
        played[level] += 1
        winners = (result or {}).get("winners") or []
        if index in winners:
            wins[level] += Fraction(1, len(winners))
    return [
        {
            "level": level,
            "seats": played[level],
            "wins": float(wins[level]),
            "win_rate": float(wins[level] / played[level]),
        }
        for level in sorted(played, key=_level_rank)
    ]


def _level_rank(level: str) -> tuple[int, str]:
    return (LEVELS.index(level) if level in LEVELS else len(LEVELS), level)


def chart_bars(series: list[dict], width: int = 900, height: int = 180, gap: int = 2) -> dict:
    """Geometry of a bar chart for `series` ([{"day", "count"}]): one bar per day, scaled so the
    tallest fills the height (all zero: no bar drawn)."""
    top = max((point["count"] for point in series), default=0)
    step = width / max(len(series), 1)
    bars = []
    for i, point in enumerate(series):
        bar_height = round(height * point["count"] / top, 1) if top else 0
        bars.append(
            {
                **point,
                "x": round(i * step + gap / 2, 1),
                "y": round(height - bar_height, 1),
                "width": round(step - gap, 1),
                "label_x": round(i * step + step / 2, 1),
                "label_y": round(height - bar_height - 4, 1),
                "height": bar_height,
            }
        )
    return {"bars": bars, "width": width, "height": height, "top": top}
