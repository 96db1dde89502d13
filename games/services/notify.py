"""Hints to the websocket consumers, sent only after the database commit.

The database is the truth and these messages only say "version N exists, come and read it". They
are sent from synchronous code that may run on any thread: a request, a socket's database thread,
a Celery worker, a job thread. On the production layer (channels-redis's publish/subscribe) a
hint is one PUBLISH from the calling thread (`layer_publish.py`); another layer's group_send
goes through one loop kept for the purpose (`_sender_loop`). The in-memory layer (the embedded
profile) keeps asyncio queues bound to the event loop that serves the sockets, and waking a
waiter on that loop from a foreign thread is not thread-safe, so there the send is handed to
that loop, which the game consumer records.
"""

import asyncio
import logging
import os
import threading
import uuid

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from .layer_publish import publisher_for

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
# Seconds a sync caller waits for a hand-off to the socket loop before giving up on the hint.
HANDOFF_TIMEOUT = 5

_socket_loop: asyncio.AbstractEventLoop | None = None


def remember_socket_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called by consumers: the loop that owns the in-memory layer's queues in this process."""
    global _socket_loop
    _socket_loop = loop


def _loop_to_hand_off_to(layer) -> asyncio.AbstractEventLoop | None:
    loop = _socket_loop
    if not isinstance(layer, InMemoryChannelLayer) or loop is None or not loop.is_running():
        return None
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    # On the loop's own thread we cannot block on it; async_to_sync is correct there anyway.
    if running is loop or getattr(loop, "_thread_id", None) == threading.get_ident():
        return None
    return loop


# The loop that sends hints from synchronous code to a Redis channel layer (started on first use).
_sender: asyncio.AbstractEventLoop | None = None
_sender_lock = threading.Lock()


def _sender_loop() -> asyncio.AbstractEventLoop:
    """One event loop on a thread of its own, kept for the life of the process.

    `async_to_sync` on a thread with no event loop (a Celery worker, a job thread) would build a
    new loop, and with it new Redis connections, for every hint: about a tenth of a worker's time
    under load. This loop keeps the channel layer's connections from one hint to the next."""
    global _sender
    with _sender_lock:
        if _sender is None:
            _sender = asyncio.new_event_loop()
            threading.Thread(target=_sender.run_forever, name="hint-sender", daemon=True).start()
        return _sender


def _forget_the_sender_after_fork() -> None:
    global _sender, _sender_lock
    _sender, _sender_lock = None, threading.Lock()  # its thread did not survive the fork


os.register_at_fork(after_in_child=_forget_the_sender_after_fork)


def group_send_now(group: str, message: dict) -> None:
    """Send `message` to a channel-layer group from synchronous code; a lost hint is logged."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, RedisPubSubChannelLayer):
            publisher_for(layer).group_send(group, message)
            return
        if isinstance(layer, InMemoryChannelLayer):
            loop = _loop_to_hand_off_to(layer)
            if loop is None:
                async_to_sync(layer.group_send)(group, message)
                return
        else:
            loop = _sender_loop()
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
        future.result(timeout=HANDOFF_TIMEOUT)
    except Exception as error:  # a hint lost is not a move lost: clients resync on reconnect
        if process_stopping(error):
            # A job thread outlived the server's loops (the embedded default, stopped mid-game):
            # the move is saved, and every client reads the game again when it reconnects.
            log.info("the process is stopping: %s to group %s not sent", message.get("type"), group)
        else:
            log.exception("could not send %s to group %s", message.get("type"), group)


# CPython's words when an executor is handed work after the interpreter began to stop (asgiref's
# async_to_sync hands each call to one).
STOPPING = "after interpreter shutdown"


def process_stopping(error: Exception) -> bool:
    return isinstance(error, RuntimeError) and STOPPING in str(error)


def version_message(
    version: int, *, table: bool = False, change: dict | None = None, earlier=()
) -> dict:
    """ "Version N exists"; with `table`, "the table changed without a new version" (a stand-in,
    a rating, an abort): the sockets then read again even if they have version N. `earlier`:
    (version, change) of the moves just before, told in the same notice (a bot chain's)."""
    message = {"type": "game.version", "version": version}
    if table:
        message["table"] = True
    if change is not None:
        message["change"] = change
    if earlier:
        message["earlier"] = [{"version": v, "change": c} for v, c in earlier]
    return message


def notify_game(group: str, version: int, change: dict | None = None, earlier=()) -> None:
    """After a commit that made version N; `change`, the move's (see frames.move_change), lets
    a socket process build version N from N-1 without reading it. It holds the snapshot: the
    consumers never forward a notice, they send only their seat's view. `earlier`: the moves
    before it not told yet (a bot chain's), each (version, change), oldest first."""
    group_send_now(group, version_message(version, change=change, earlier=earlier))


def notify_table(group: str, version: int) -> None:
    """After a commit that changed the table (seats, status, ratings) but not the version."""
    group_send_now(group, version_message(version, table=True))


def notify_lobby_now() -> None:
    """The lobby hint, sent at once (callers run it from an on_commit callback)."""
    # The id lets a process's lobby sockets, which all hear this one notice, see it as one change.
    group_send_now(LOBBY_GROUP, {"type": "lobby.changed", "id": uuid.uuid4().hex})


def after_commit(func, *args) -> None:
    """Run func(*args) once the transaction commits; an error there is logged, not raised.

    A named wrapper rather than functools.partial: Django logs a failing robust hook by its
    __qualname__, which a partial does not have (the log call itself would then fail).
    """
    from django.db import transaction

    def hook():
        func(*args)

    hook.__qualname__ = f"after_commit({func.__qualname__})"
    transaction.on_commit(hook, robust=True)
