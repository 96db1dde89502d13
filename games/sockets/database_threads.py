"""The sockets' database work: off the event loop, and off the one thread-sensitive thread.

Channels' `database_sync_to_async` runs every call of a process on one thread by default, so all
the sockets of a Daphne process would queue behind each other's database work. Here each call
runs on a thread of the loop's pool instead: the game row's lock still serialises what must be
(two moves in one game), while moves and reads of different games run at once (on PostgreSQL;
SQLite keeps to the one thread).

Each call gives its connection back afterwards (to the pool, see settings), as Channels' own
wrapper does; this one calls Django's `close_old_connections` itself, because Channels' test
communicator silences its copy of that function, which would leave pooled connections lent to
threads that are gone.
"""

from asgiref.sync import SyncToAsync
from django.db import close_old_connections, connection


class in_database_thread(SyncToAsync):  # noqa: N801 - used as a decorator, like sync_to_async
    def __init__(self, func):
        # SQLite (the embedded profile) has one writer at a time: threads would only contend for
        # its lock ("database is locked"), so there the calls keep to the one thread.
        super().__init__(func, thread_sensitive=connection.vendor == "sqlite")

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()
