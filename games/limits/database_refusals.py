"""Whether an error means the database had no connection to give us (PostgreSQL's or a role's
connection limit, this process's pool lent out past its wait, the server restarting), as opposed
to a query that failed. Such a moment passes: pages answer 503 (games.limits.middleware) and sockets
an `unavailable` error frame (games.sockets.game), never a crash."""

from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _
from psycopg_pool import PoolTimeout

# What a socket tells its client when the database refused: the same frame may be sent again.
DATABASE_BUSY = _("The server is busy for a moment: try again.")

# What PostgreSQL and psycopg say when they refuse a connection (not a query's own error).
REFUSALS = (
    "too many connections",  # a role's or a database's CONNECTION LIMIT
    "too many clients",  # the server's max_connections
    "remaining connection slots are reserved",
    "connection refused",  # the server is down or restarting
    "couldn't get a connection",  # psycopg_pool's PoolTimeout
)


def database_refused(error: BaseException) -> bool:
    """Whether `error` (or what it wraps: Django wraps the driver's errors) means the database
    had no connection for us, as opposed to a query that failed."""
    while error is not None:
        if isinstance(error, PoolTimeout):
            return True
        if isinstance(error, OperationalError | InterfaceError) or type(
            error
        ).__module__.startswith("psycopg"):
            text = str(error).lower()
            if any(refusal in text for refusal in REFUSALS):
                return True
        error = error.__cause__
    return False
