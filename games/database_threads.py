"""The sockets' database work: off the event loop, and off the one thread-sensitive thread.

Channels' `database_sync_to_async` runs every call of a process on one thread by default, so all
the sockets of a Daphne process would queue behind each other's database work. Here each call
runs on a thread of the loop's pool instead, with that thread's own persistent connection
(CONN_MAX_AGE): the game row's lock still serialises what must be serialised (two moves in one
game), while moves and reads of different games run at once.
"""

from functools import partial

from channels.db import database_sync_to_async

in_database_thread = partial(database_sync_to_async, thread_sensitive=False)
