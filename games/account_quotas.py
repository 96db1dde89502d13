"""Per-account quotas on what an account can make the site compute for it: the computer analyses
it asks for and the records it imports, per hour.

Each is a slot taken before the work with the throttles' `take` (games/throttles.py): the check
and the take are one atomic step in Redis, shared by every process, so of N requests sent
together exactly the limit's are let through, and a refused request takes no slot. A limit of 0
is no limit.
"""

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import ngettext

from games.throttles import Count, take

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


def hourly_slot(group: str, limit: int, user) -> int | None:
    """Take one of `user`'s `limit` slots an hour in `group`; None if taken, else the minutes
    to wait for one."""
    if not limit:
        return None
    taken = take(Count(group, str(user.pk), limit, HOUR))
    return taken.refusal.minutes_left if taken.refusal else None


def analysis_refusal(user) -> QuotaRefusal | None:
    """Count an analysis asked for by `user`; the refusal if it is one too many this hour."""
    limit = settings.ANALYSES_PER_HOUR
    wait = hourly_slot("account-analyses", limit, user)
    if wait is None:
        return None
    message = ngettext(
        "You asked for %(limit)d computer analyses in the last hour: "
        "try again in %(minutes)d minute.",
        "You asked for %(limit)d computer analyses in the last hour: "
        "try again in %(minutes)d minutes.",
        wait,
    ) % {"limit": limit, "minutes": wait}
    return QuotaRefusal("too_many_analyses", message)


def import_refusal(user) -> QuotaRefusal | None:
    """Count a record sent by `user` to import; the refusal if it is one too many this hour."""
    limit = settings.RECORD_IMPORTS_PER_HOUR
    wait = hourly_slot("account-imports", limit, user)
    if wait is None:
        return None
    message = ngettext(
        "You sent %(limit)d records to import in the last hour: try again in %(minutes)d minute.",
        "You sent %(limit)d records to import in the last hour: try again in %(minutes)d minutes.",
        wait,
    ) % {"limit": limit, "minutes": wait}
    return QuotaRefusal("too_many_imports", message)
