"""A socket gives back what it took however it ends, and a frame's failure never closes it.

Channels calls a consumer's `disconnect` only when the server says the socket closed
(`websocket.disconnect`). A consumer whose handler raises (in `connect`, while reading a frame,
while answering a group's notice) ends at once instead: Daphne closes the socket with 1011 and
sends no `websocket.disconnect` to an application that is gone. What it had taken would stay
behind: its Presence row, kept fresh by a heartbeat task nobody stops, would count it as
connected for as long as the process runs; its places under the socket caps, renewed by another
orphaned task, would lock its account (and its address) out of new sockets; its groups would be
kept until they expire. So `ReleasesOnAnyExit` runs `disconnect` on every way out.

A frame sent to a socket whose client closed a moment before Daphne heard of it makes Daphne's
`send` raise autobahn's `Disconnected` (Channels issue #1466): a client closing its tab while a
move is broadcast does that. The frame is dropped; the `websocket.disconnect` that follows
releases everything, as for any close.

And a frame's handler that fails is answered, not crashed on (`answered_on_failure`): the
client gets an `error` frame (`unavailable` when the database had no connection to give,
`server_error` for a bug, logged here with its traceback) and the socket stays open. Only the
loss of Redis, the channel layer every socket hears its groups through, still closes the
socket: it could hear nothing more, and its client reconnects when Redis is back.
"""

import asyncio
import contextlib
import logging

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from django.utils.translation import gettext_lazy as _
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.limits.database_refusals import DATABASE_BUSY, database_refused

log = logging.getLogger(__name__)

# The close code Daphne gives a socket whose application raised (an internal error).
CLOSE_INTERNAL_ERROR = 1011
# What a client is told when handling its frame failed for a reason of the server's own.
FRAME_FAILED = _("The server could not handle that request: reload the page if this goes on.")
# Errors that mean the channel layer itself is gone: the socket cannot go on (see top).
CHANNEL_LAYER_LOST = (RedisConnectionError, RedisTimeoutError)


class ReleasesOnAnyExit:
    """Mixed into a consumer before Channels' class: when any handler raises (or the consumer is
    cancelled), runs `disconnect` once, then lets the error go on to Daphne, which logs it and
    closes the socket. `disconnect` must cope with a connect stopped anywhere."""

    disconnect_started = False

    async def __call__(self, scope, receive, send):
        async def send_unless_gone(message):
            """Send, unless the client has gone already (see top): nobody is left to read it."""
            try:
                await send(message)
            except Disconnected:
                log.debug("a frame for %s dropped: its client closed", scope.get("path"))

        return await super().__call__(scope, receive, send_unless_gone)

    async def websocket_disconnect(self, message):
        self.disconnect_started = True
        await super().websocket_disconnect(message)

    async def dispatch(self, message):
        """Channels' dispatch, less its `aclose_old_connections()` before every message: that
        call hops to the process's one thread-sensitive thread and back for each frame and each
        group notice of every socket (a tenth of a Daphne's time under load), to tidy connections
        no socket uses there. Every database call of these sockets runs through
        `in_database_thread`, which tidies its own connections before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except StopConsumer:
            raise
        except (Exception, asyncio.CancelledError):
            await self.release_after_failure()
            raise

    async def release_after_failure(self) -> None:
        if self.disconnect_started:
            return
        self.disconnect_started = True
        # The handler's error is the one to report; a second one while releasing would hide it.
        with contextlib.suppress(Exception):
            await self.disconnect(CLOSE_INTERNAL_ERROR)


@contextlib.asynccontextmanager
async def answered_on_failure(consumer, frame_type: str):
    """Run a frame's handler; an error in it becomes an error frame (see top) instead of closing
    the socket, except when the channel layer is lost. `consumer.send_error(code, message)`."""
    try:
        yield
    except CHANNEL_LAYER_LOST:
        raise
    except Exception as error:
        if database_refused(error):
            # No connection to be had for a moment: the client may send the frame again (an
            # action is refused whole or stored whole, so a repeat is judged on its version).
            await consumer.send_error("unavailable", str(DATABASE_BUSY))
            return
        log.exception("a %r frame failed on %s", frame_type, consumer.scope.get("path"))
        await consumer.send_error("server_error", str(FRAME_FAILED))
