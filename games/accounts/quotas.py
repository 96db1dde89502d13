"""Per-account quotas on what an account can make the site compute for it: the computer analyses
it asks for and the records it imports, per hour.

Each is a slot taken before the work with the throttles' `take` (games/limits/throttles.py): the
check and the take are one atomic step in Redis, shared by every process, so of N requests sent
together exactly the limit's are let through, and a refused request takes no slot. A limit of 0
is no limit.
"""

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import ngettext

from games.limits.throttles import Count, take

HOUR = 3600


@dataclass(frozen=True)
class QuotaRefusal:
    """A request over a quota: a code for scripts, a message for people."""

    code: str
    message: str


class OverQuota(Exception):
    """A request refused by a quota: `refusal` says why, for people (HTTP 429); nothing done."""

    def __init__(self, refusal: QuotaRefusal):
        super().__init__(refusal.code)
        self.refusal = refusal


def hourly_refusal(code: str, group: str, limit: int, user, message) -> QuotaRefusal | None:
    """Take one of `user`'s `limit` slots an hour in `group`; None if taken, else the refusal:
    `code`, and `message(minutes)` (a translated text for the minutes to wait) filled in with the
    limit and those minutes."""
    taken = take(Count(group, str(user.pk), limit, HOUR))
    if not taken.refusal:
        return None
    wait = taken.refusal.minutes_left
    return QuotaRefusal(code, message(wait) % {"limit": limit, "minutes": wait})


def analysis_refusal(user) -> QuotaRefusal | None:
    """Count an analysis asked for by `user`; the refusal if it is one too many this hour."""
    return hourly_refusal(
        "too_many_analyses",
        "account-analyses",
        settings.ANALYSES_PER_HOUR,
        user,
        lambda minutes: ngettext(
            "You asked for %(limit)d computer analyses in the last hour: "
            "try again in %(minutes)d minute.",
            "You asked for %(limit)d computer analyses in the last hour: "
            "try again in %(minutes)d minutes.",
            minutes,
        ),
    )


def import_refusal(user) -> QuotaRefusal | None:
    """Count a record sent by `user` to import; the refusal if it is one too many this hour."""
    return hourly_refusal(
        "too_many_imports",
        "account-imports",
        settings.RECORD_IMPORTS_PER_HOUR,
        user,
        lambda minutes: ngettext(
            "You sent %(limit)d records to import in the last hour: "
            "try again in %(minutes)d minute.",
            "You sent %(limit)d records to import in the last hour: "
            "try again in %(minutes)d minutes.",
            minutes,
        ),
    )
