"""A database that refuses more work answers 503 with Retry-After, not 500.

When PostgreSQL has no connection to give (its max_connections or a role's limit reached, every
connection of this process's pool lent out past the pool's wait), the request fails through no
fault of its own and may well succeed a few seconds later: that is 503 Service Unavailable, which
tells browsers, proxies and monitors to come back, and keeps these moments apart from real bugs
(500) in the logs and the error counts. Any other error still reaches Django's 500 handling.
"""

import logging

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin

from games.limits.database_refusals import database_refused

log = logging.getLogger(__name__)

# Seconds after which a client may try again: about the time a burst takes to drain.
RETRY_AFTER_SECONDS = 5


def service_unavailable() -> HttpResponse:
    """The 503 page. It is rendered without the request: its context processors would read the
    signed-in user, from the database that just refused."""
    body = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseBusyMiddleware(MiddlewareMixin):
    """Maps a refused database connection raised by a view to the 503 page (sync or async)."""

    def process_exception(self, request, exception):
        if not database_refused(exception):
            return None  # Django's usual handling (500, or the debug page)
        log.warning(
            "503 for %s %s: the database refused: %s", request.method, request.path, exception
        )
        return service_unavailable()
